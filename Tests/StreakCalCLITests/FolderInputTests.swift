import Foundation
import Testing

/// A folder given where a calendar file is taken: every `*.ics` under it read as one calendar
/// (issue 32: khal and vdirsyncer keep a folder with one `.ics` an event).
@Suite("Folders as calendars (vdir)")
struct FolderInputTests {
    /// `Fixtures/tutorial-sample.ics` as vdirsyncer would keep it: one VCALENDAR an event, named
    /// by UID, beside the `color` and `displayname` files and a hidden folder of its own.
    private static func makeVdir() throws -> URL {
        let text = try String(contentsOfFile: fixture("tutorial-sample.ics"), encoding: .utf8)
        let head = text.components(separatedBy: "BEGIN:VEVENT")[0]
        let events = text.components(separatedBy: "BEGIN:VEVENT").dropFirst().map { "BEGIN:VEVENT" + $0.components(separatedBy: "END:VCALENDAR")[0] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-vdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".vdirsyncer"), withIntermediateDirectories: true)
        try "#56a0d3".write(to: folder.appendingPathComponent("color"), atomically: true, encoding: .utf8)
        try "Tutorial".write(to: folder.appendingPathComponent("displayname"), atomically: true, encoding: .utf8)
        for (index, event) in events.enumerated() {
            let name = "tutorial-\(index + 1)@streakcal.example.ics"
            try (head + event + "END:VCALENDAR\n").write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test("A vdir of the tutorial's events reports the same days as the file, its diagnostic naming the event's file")
    func vdirSameAsFile() throws {
        let folder = try Self.makeVdir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let window = ["--tz", "UTC", "--from", "2024-02-01", "--to", "2024-02-29", "--format", "json"]
        let file = try streakcal(["report", fixture("tutorial-sample.ics")] + window)
        let vdir = try streakcal(["report", folder.path] + window)
        #expect(file.status == 0 && vdir.status == 0, "\(vdir.standardError)")
        let fileDays = try #require(try jsonObject(file.standardOutput)["days"] as? [[String: Any]])
        let vdirDays = try #require(try jsonObject(vdir.standardOutput)["days"] as? [[String: Any]])
        #expect(vdirDays.count == 29)
        #expect(NSArray(array: vdirDays).isEqual(to: fileDays))
        // The folder is one calendar, named by its displayname (the vdir convention), not its five files.
        let sources = try #require(try jsonObject(vdir.standardOutput)["sources"] as? [[String: String]])
        #expect(sources == [["file": folder.path, "name": "Tutorial"]])
        let text = try streakcal(["report", folder.path, "--tz", "UTC", "--from", "2024-02-01", "--to", "2024-02-29"])
        #expect(text.standardOutput.hasPrefix("Streak report: Tutorial, 2024-02-01 to 2024-02-29"), "\(text.standardOutput)")
        // The event that ends before it starts is the second; its warning names its own file.
        #expect(vdir.standardError.contains("tutorial-2@streakcal.example.ics:"), "\(vdir.standardError)")
        #expect(vdir.standardError.contains("warning: the event ends before it starts"))
    }

    @Test("sessions and annotate read a folder too")
    func sessionsAndAnnotate() throws {
        let folder = try Self.makeVdir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sessions = try streakcal(["sessions", folder.path, "--tz", "UTC", "--on", "2024-02-25"])
        #expect(sessions.status == 0)
        #expect(sessions.standardOutput == (try streakcal(["sessions", fixture("tutorial-sample.ics"), "--tz", "UTC", "--on", "2024-02-25"])).standardOutput)
        let options = ["--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29", "--only-annotations"]
        let annotated = try streakcal(["annotate", folder.path] + options)
        let fromFile = try streakcal(["annotate", fixture("tutorial-sample.ics")] + options)
        #expect(annotated.status == 0, "\(annotated.standardError)")
        let dayLines = { (text: String) in text.split(separator: "\r\n").filter { $0.hasPrefix("DTSTART") || $0.hasPrefix("SUMMARY") } }
        #expect(dayLines(annotated.standardOutput).count >= 8)
        #expect(dayLines(annotated.standardOutput) == dayLines(fromFile.standardOutput))
    }

    @Test("Files in subfolders are read in path order; a folder without calendars, or a missing path, is an error")
    func orderAndErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("b"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let event = { (uid: String, day: Int) in
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART:202403\(day < 10 ? "0" : "")\(day)T090000Z\r\nDURATION:PT1H\r\nX-POINTS:oops\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        try event("c", 3).write(to: folder.appendingPathComponent("c.ICS"), atomically: true, encoding: .utf8)
        try event("a", 1).write(to: folder.appendingPathComponent("a.ics"), atomically: true, encoding: .utf8)
        try event("b", 2).write(to: folder.appendingPathComponent("b/x.ics"), atomically: true, encoding: .utf8)
        try "not a calendar".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let result = try streakcal(["report", folder.path, "--tz", "UTC", "--from", "2024-03-01", "--to", "2024-03-03", "--format", "json"])
        #expect(result.status == 0)
        // Without a displayname file, the folder is named by its own name.
        let sources = try #require(try jsonObject(result.standardOutput)["sources"] as? [[String: String]])
        #expect(sources == [["file": folder.path, "name": folder.lastPathComponent]])
        // Each bad X-POINTS is named with its own file, in path order.
        let files = result.standardError.split(separator: "\n").filter { $0.contains(": warning:") }.map { String($0.split(separator: ":")[0]) }
        #expect(files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.ics", "x.ics", "c.ICS"])

        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try streakcal(["report", empty.path])
        #expect(none.status == 1)
        #expect(none.standardError.contains("cannot read \(empty.path): the folder holds no calendar file (*.ics)"), "\(none.standardError)")
        let missing = try streakcal(["report", folder.appendingPathComponent("nope").path])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("no such file"))
    }
}
