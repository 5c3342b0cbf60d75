import Foundation
import Testing

/// `-o report.svg` without `--format` writes SVG (issue 33): the format comes from the output's
/// extension when none is given, with a note saying so; `--format` still decides when given.
@Suite("The format from the output's extension")
struct OutputExtensionTests {
    let window = [fixture("all-day-events.ics"), "--tz", "UTC", "--to", "2024-03-31"]

    @Test("report -o FILE.EXT writes that format", arguments: [
        ("svg", "<svg xmlns="), ("html", "<!DOCTYPE html>"), ("json", "{"), ("csv", "date,"), ("md", "# "), ("txt", "Streak report"),
    ])
    func report(fileExtension: String, start: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("report.\(fileExtension.uppercased())").path
        let result = try streakcal(["report"] + window + ["-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix(start), "\(written.prefix(80))")
        let note = "streakcal: note: writing \(fileExtension == "txt" ? "TEXT" : fileExtension.uppercased()), as the extension of \(output) says"
        #expect(result.standardError.contains(note) == (fileExtension != "txt"), "\(result.standardError)")
    }

    @Test("--format wins over the extension; an unknown extension is text")
    func explicit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("report.svg").path
        #expect(try streakcal(["report"] + window + ["-o", svg, "--format", "json"]).status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("{"))
        let other = folder.appendingPathComponent("report.out").path
        #expect(try streakcal(["report"] + window + ["-o", other]).standardError.isEmpty)
        #expect(try String(contentsOfFile: other, encoding: .utf8).hasPrefix("Streak report"))
        let layout = folder.appendingPathComponent("february.svg").path
        #expect(try streakcal(["layout", "--month", "2024-02", "-o", layout]).status == 0)
        #expect(try String(contentsOfFile: layout, encoding: .utf8).hasPrefix("<svg"))
    }
}
