import Foundation
import ICalendar
@testable import StreakCal
import Testing

private let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func fixturePath(_ name: String) -> String {
    repository.appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// A root folder with calendars, links in and out, a file that is not a calendar, and special
/// files; beside it, a folder outside the root. Removed when the test ends.
private final class RootFolder {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("confined-\(UUID().uuidString)")
    var root: String { base.appendingPathComponent("root").path }

    init() throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/folder.ics", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: path("outside"), withIntermediateDirectories: true)
        try manager.copyItem(atPath: fixturePath("tutorial-sample.ics"), toPath: root + "/cal.ics")
        try manager.copyItem(atPath: fixturePath("tutorial-sample.ics"), toPath: root + "/sub/deep.ics")
        try manager.copyItem(atPath: fixturePath("encoding-utf16le-bom.ics"), toPath: root + "/utf16.ics")
        try manager.copyItem(atPath: fixturePath("tutorial-sample.ics"), toPath: path("outside/secret.ics"))
        try Data("root:x:0:0:root:/root:/bin/bash\nLEAK_ME=hunter2\n".utf8).write(to: URL(fileURLWithPath: root + "/notes.ics"))
        try Data("\u{FEFF}\r\n  \r\nbegin:vcalendar\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240220T080000Z\r\nX-POINTS:100\r\nEND:VEVENT\r\nend:vcalendar\r\n".utf8)
            .write(to: URL(fileURLWithPath: root + "/bom.ics"))
        try Data().write(to: URL(fileURLWithPath: root + "/empty.ics"))
        try manager.createSymbolicLink(atPath: root + "/in-link.ics", withDestinationPath: "sub/deep.ics")
        try manager.createSymbolicLink(atPath: root + "/out-link.ics", withDestinationPath: "../outside/secret.ics")
        try manager.createSymbolicLink(atPath: root + "/dirlink", withDestinationPath: "../outside")
        #expect(mkfifo(root + "/fifo.ics", 0o644) == 0)
        try manager.createSymbolicLink(atPath: root + "/dev.ics", withDestinationPath: "/dev/zero")
        makeSocket(root + "/socket.ics")
    }

    deinit { try? FileManager.default.removeItem(at: base) }

    func path(_ relative: String) -> String { base.appendingPathComponent(relative).path }

    /// A Unix socket bound at `path` (and closed: the file stays).
    private func makeSocket(_ path: String) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
    }
}

@Suite("Path records: read only under a root, regular files that start as calendars")
struct ConfinedFilesTests {
    @Test("Each path, opened or refused with the reason")
    func paths() throws {
        let folder = try RootFolder()
        let root = folder.root
        let files = ConfinedFiles(roots: [root])
        let outside = (ConfinedFiles.outside, CalendarReadError.Code.refused)
        let cases: [(String, (reason: String, code: CalendarReadError.Code)?)] = [
            (root + "/cal.ics", nil), (root + "/sub/../cal.ics", nil), (root + "/./sub/deep.ics", nil), (root + "/in-link.ics", nil),
            (root + "/bom.ics", nil), (root + "/utf16.ics", nil), (root + "/empty.ics", nil),
            (root + "/out-link.ics", outside), (root + "/dirlink/secret.ics", outside),
            (root + "/../outside/secret.ics", outside), ("/etc/passwd", outside),
            ("/proc/self/environ", outside), ("/no/such/folder/x.ics", outside),
            (root + "/missing.ics", ("no such file", .notFound)),
            (root + "/fifo.ics", ("a named pipe (FIFO), not a regular file", .notACalendar)),
            (root + "/dev.ics", outside),  // a link to /dev/zero leads out of the root
            (root + "/folder.ics", ("a folder, not a regular file", .isDirectory)), (root, ("a folder, not a regular file", .isDirectory)),
            (root + "/socket.ics", ("a socket, not a regular file", .notACalendar)),
            (root + "/notes.ics", ("not an iCalendar file (its text does not start with BEGIN:)", .notACalendar)),
        ]
        for (path, refused) in cases {
            switch files.open(path) {
            case .success(let file):
                #expect(refused == nil, "\(path) was opened")
                // The path the import is given opens the same file.
                var opened = stat()
                var checked = stat()
                #expect(stat(file.path, &opened) == 0 && fstat(file.descriptor, &checked) == 0)
                #expect(opened.st_ino == checked.st_ino && opened.st_dev == checked.st_dev)
                // What is open is where the path leads: the check made once the file is open.
                #expect(ConfinedFiles.linkTarget(file.path) == ConfinedFiles.realPath(path))
            case .failure(let refusal):
                #expect(refusal.reason == refused?.reason, "\(path)")
                #expect(refusal.code == refused?.code, "\(path)")
            }
        }
        // The root given through a link is the folder it leads to.
        let linked = folder.path("root-link")
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: root)
        #expect((try? ConfinedFiles(roots: [linked]).open(linked + "/cal.ics").get()) != nil)
        #expect((try? ConfinedFiles(roots: [linked]).open(root + "/cal.ics").get()) != nil)
        // A root is a whole folder name: /x/root does not contain /x/root-other.
        #expect(!files.contains(root + "-other/cal.ics") && files.contains(root + "/cal.ics") && files.contains(root))
        #expect(ConfinedFiles(roots: ["/no/such/root"]).isEmpty)
        // Under a root that holds devices, a device is still never opened.
        for device in ["/dev/zero", "/dev/urandom", root + "/dev.ics"] {
            #expect(ConfinedFiles(roots: ["/"]).open(device).map { _ in "" } == .failure(ConfinedFiles.Refusal(code: .notACalendar, reason: "a character device, not a regular file")))
        }
    }

    @Test("In a batch: a record per path with its reason, nothing of a file that is not a calendar shown, later records not held back")
    func inABatch() throws {
        let folder = try RootFolder()
        let root = folder.root
        let names = ["cal.ics", "notes.ics", "socket.ics", "out-link.ics", "missing.ics", "bom.ics"]
        var lines = names.enumerated().map { "{\"id\": \($0.offset), \"path\": \"\(root)/\($0.element)\"}" }
        lines.append("{\"id\": \"environ\", \"path\": \"/proc/self/environ\"}")
        let written = Collected<String>()
        _ = JSONLinesBatch(settings: ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 12, day: 31)), format: .csv, jobs: 2,
                               now: 1_735_603_200, roots: [root]).run(lines: lines) { written.append($0) }
        let records = try written.values.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.map { $0["error"] as? String } == [
            nil, "cannot read \(root)/notes.ics: not an iCalendar file (its text does not start with BEGIN:)",
            "cannot read \(root)/socket.ics: a socket, not a regular file",
            "cannot read \(root)/out-link.ics: \(ConfinedFiles.outside)", "cannot read \(root)/missing.ics: no such file", nil,
            "cannot read /proc/self/environ: \(ConfinedFiles.outside)",
        ])
        #expect(records.map { $0["name"] as? String } == ["FSCalendar streaks tutorial sample", "notes", "socket", "out-link", "missing", "bom", "environ"])
        // What kind of refusal each is, for a program that reads the records (a path outside the roots is `refused`).
        #expect(records.map { $0["errorCode"] as? String } == [nil, "not-a-calendar", "not-a-calendar", "refused", "not-found", nil, "refused"])
        #expect(records[0]["errorCode"] is NSNull)
        #expect(records[0]["sessions"] as? Int == 5 && records[5]["sessions"] as? Int == 1)
        #expect(records[1]["diagnostics"] as? [Any] != nil && (records[1]["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(!written.values.joined().contains("hunter2") && !written.values.joined().contains("root:x"))
    }

    @Test("Without a root, a path record is refused and says to pass --root; text records still work")
    func noRoot() throws {
        let written = Collected<String>()
        let lines = [
            "{\"id\": 1, \"path\": \"\(fixturePath("tutorial-sample.ics"))\"}",
            "{\"id\": 2, \"ics\": \"BEGIN:VEVENT\\r\\nUID:a\\r\\nDTSTART:20240220T080000Z\\r\\nX-POINTS:100\\r\\nEND:VEVENT\\r\\n\"}",
        ]
        _ = JSONLinesBatch(settings: ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 12, day: 31)), format: .csv, jobs: 1,
                               now: 1_735_603_200).run(lines: lines) { written.append($0) }
        let records = try written.values.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records[0]["error"] as? String == "line 1: " + JSONLinesBatch.pathNeedsRoot)
        #expect((records[0]["error"] as? String)?.contains("pass --root DIR") == true)
        #expect(records[1]["error"] is NSNull && records[1]["sessions"] as? Int == 1)
    }

    @Test("Calendar text is told by its first text: BEGIN: in any case and not a vCard, after a byte order mark and white space", arguments: [
        ("", true), ("  \r\n\t", true), ("\u{FEFF}", true), ("BEGIN:VCALENDAR", true), ("begin:vevent\r\n", true),
        ("\u{FEFF}\r\n\r\n  BeGiN:VCALENDAR", true), ("BEGIN:VTODO\r\nUID:x", true), ("BEGIN:VTIMEZONE\n", true),
        ("BEGIN:", true), ("BEGIN:VAVAILABILITY", true), ("BEGIN:X-MYCOMP\r\n", true),
        ("BEGIN:VCARD\r\nFN:Ana", false), ("begin:vcard", false), ("BEGIN:VCARD \r\n", false),
        ("BEGIN", false), ("BEG", false), ("BEGIN;X", false), ("xBEGIN:", false), ("root:x:0:0:root", false),
        ("\u{FEFF}\u{FEFF}BEGIN:", false), ("LEAK_ME=hunter2\0PATH=/bin", false),
    ])
    func sniff(text: String, expected: Bool) {
        var bytes = Array(text.utf8).makeIterator()
        #expect(CalendarSniff.startsLikeACalendar { bytes.next() } == expected)
    }

    @Test("UTF-16 either way round, by its byte order mark", arguments: [true, false])
    func sniffUTF16(littleEndian: Bool) {
        for (text, expected) in [("BEGIN:VCALENDAR", true), ("  \r\nbegin:x", true), ("", true), ("BEGIN:VCARD\r\n", false), ("BEGIX:", false), ("BEG", false)] {
            let units = text.utf16.flatMap { littleEndian ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            var bytes = ((littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) + units).makeIterator()
            #expect(CalendarSniff.startsLikeACalendar { bytes.next() } == expected, "\(text)")
        }
    }

    @Test("The sniff reads no further than the first text and a component's name, however long the file")
    func sniffReadsLittle() {
        var given = 0
        let verdict = CalendarSniff.verdict {
            given += 1
            return given <= 1_000 ? 0x20 : given <= 1_006 ? Array("BEGIN:".utf8)[given - 1_001] : 0x41
        }
        #expect(verdict == .calendar)
        #expect(given <= 1_006 + 42)
    }

    @Test("The verdict tells an empty file, a calendar and what else it is")
    func verdicts() {
        #expect(CalendarSniff.verdict(Array(" \r\n".utf8)) == .empty)
        #expect(CalendarSniff.verdict(Array("BEGIN:VCALENDAR\r\n".utf8)) == .calendar)
        #expect(CalendarSniff.verdict(Array("BEGIN:VCARD\r\n".utf8)) == .notACalendar("not an iCalendar file (it starts with BEGIN:VCARD, not BEGIN:VCALENDAR)"))
        #expect(CalendarSniff.verdict(Array("root:x:0:0".utf8)) == .notACalendar(CalendarSniff.notACalendar))
    }
}
