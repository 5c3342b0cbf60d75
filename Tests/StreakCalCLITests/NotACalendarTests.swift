import Foundation
import Testing

/// What is not a calendar fails, the same way whichever way it comes in (issue 49.1): junk bytes,
/// an empty file, a vCard and a link to /etc/passwd in a batch folder were people with no activity
/// (exit 0), the link's lines in its report's diagnostics.
@Suite("What is not a calendar fails, every way in")
struct NotACalendarTests {
    /// The inputs and the reason each gets.
    static let refused: [(name: String, text: String, reason: String)] = [
        ("junk.ics", "\u{01}\u{02}PK\u{03}\u{04} not text at all", "not an iCalendar file (its text does not start with BEGIN:)"),
        ("empty.ics", "", "not an iCalendar file (it is empty)"),
        ("card.ics", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana Lima\r\nEND:VCARD\r\n", "not an iCalendar file (it starts with BEGIN:VCARD, not BEGIN:VCALENDAR)"),
    ]

    /// A folder with one good calendar, the refused inputs, and a link to /etc/passwd.
    private static func folder(_ root: URL, withGood: Bool = true) throws -> URL {
        let folder = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if withGood { try FileManager.default.copyItem(atPath: fixture("tutorial-sample.ics"), toPath: folder.appendingPathComponent("good.ics").path) }
        for input in refused { try input.text.write(to: folder.appendingPathComponent(input.name), atomically: true, encoding: .utf8) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("passwd.ics").path, withDestinationPath: "/etc/passwd")
        return folder
    }

    @Test("batch: each is a failed row with its reason, the good one is reported, no line of /etc/passwd reaches any output; exit 1")
    func batchFolder() throws {
        try withTemporaryFolder("not-a-calendar") { root in
            let input = try Self.folder(root)
            let out = root.appendingPathComponent("out")
            let result = try streakcal(["batch", input.path, "--out", out.path, "--format", "json", "--tz", "UTC", "--to", "2024-03-01"])
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.contains("streakcal: error: 4 of 5 files failed"))
            let summary = try jsonObject(String(contentsOf: out.appendingPathComponent("summary.json"), encoding: .utf8))
            let files = try #require(summary["files"] as? [[String: Any]])
            let errors = Dictionary(uniqueKeysWithValues: files.map { (($0["input"] as? String ?? "") as NSString).lastPathComponent }
                .enumerated().map { ($0.element, files[$0.offset]["error"] as? String) })
            for refused in Self.refused {
                #expect(errors[refused.name] == "cannot read \(input.path)/\(refused.name): \(refused.reason)", "\(refused.name)")
            }
            #expect(errors["passwd.ics"] == "cannot read \(input.path)/passwd.ics: not an iCalendar file (its text does not start with BEGIN:)")
            #expect(errors["good.ics"] == .some(nil))
            let written = try batchOutputListing(out.path)
            #expect(written == ["good.json", "summary.json"])
            let everything = result.standardOutput + result.standardError
                + (try written.map { try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8) }.joined())
            #expect(!everything.contains("root:"))
        }
    }

    @Test("batch: nothing usable (every file failed, or none found) is exit status 2")
    func nothingUsable() throws {
        try withTemporaryFolder("nothing-usable") { root in
            let input = try Self.folder(root, withGood: false)
            let out = root.appendingPathComponent("out")
            let result = try streakcal(["batch", input.path, "--out", out.path])
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardError.contains("streakcal: error: every file failed (4 of 4): nothing usable"))
            let empty = root.appendingPathComponent("empty-folder")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let none = try streakcal(["batch", empty.path, "--out", root.appendingPathComponent("out2").path])
            #expect(none.status == 2, "\(none.standardError)")
        }
    }

    @Test("--jsonl by path and by bytes, and report: the same inputs, the same reasons")
    func everyWayIn() throws {
        try withTemporaryFolder("jsonl-not-a-calendar") { root in
            let input = try Self.folder(root)
            var lines: [String] = []
            for refused in Self.refused {
                let text = String(data: try JSONSerialization.data(withJSONObject: ["id": "bytes-" + refused.name, "ics": refused.text]), encoding: .utf8)!
                lines.append(text)
                lines.append(#"{"id": "path-\#(refused.name)", "path": "\#(input.path)/\#(refused.name)"}"#)
            }
            lines.append(#"{"id": "path-passwd", "path": "\#(input.path)/passwd.ics"}"#)
            let result = try streakcal(["batch", "--jsonl", "--root", input.path], input: lines.joined(separator: "\n") + "\n")
            #expect(result.status == 0, "\(result.standardError)")
            let records = try result.standardOutput.split(separator: "\n").map { try jsonObject(String($0)) }
            let errors = Dictionary(uniqueKeysWithValues: records.map { ($0["id"] as? String ?? "?", $0["error"] as? String ?? "none") })
            for refused in Self.refused {
                #expect(errors["bytes-" + refused.name] == refused.reason, "bytes \(refused.name)")
                #expect(errors["path-" + refused.name] == "cannot read \(input.path)/\(refused.name): \(refused.reason)", "path \(refused.name)")
            }
            // The link leads out of the root: refused before a byte of it is read.
            #expect(errors["path-passwd"] == "cannot read \(input.path)/passwd.ics: outside the folders given with --root")
            #expect(!result.standardOutput.contains("root:"))
            // report refuses the junk and the vCard by name, with the same reasons.
            for refused in Self.refused where !refused.text.isEmpty {
                let report = try streakcal(["report", input.appendingPathComponent(refused.name).path])
                #expect(report.status == 1)
                #expect(report.standardError.contains(refused.reason), "\(report.standardError)")
            }
        }
    }
}
