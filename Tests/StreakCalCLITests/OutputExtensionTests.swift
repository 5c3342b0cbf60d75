import Foundation
import Testing
import StreakCal
import CalendarDiagnostics

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

    @Test("--format wins over the extension; a file without one is text")
    func explicit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("report.svg").path
        #expect(try streakcal(["report"] + window + ["-o", svg, "--format", "json"]).status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("{"))
        let bare = folder.appendingPathComponent("report").path
        #expect(try streakcal(["report"] + window + ["-o", bare]).standardError.isEmpty)
        #expect(try String(contentsOfFile: bare, encoding: .utf8).hasPrefix("Streak report"))
        let other = folder.appendingPathComponent("report.out").path
        #expect(try streakcal(["report"] + window + ["-o", other, "--format", "text"]).status == 0)
        #expect(try String(contentsOfFile: other, encoding: .utf8).hasPrefix("Streak report"))
        let layout = folder.appendingPathComponent("february.svg").path
        #expect(try streakcal(["layout", "--month", "2024-02", "-o", layout]).status == 0)
        #expect(try String(contentsOfFile: layout, encoding: .utf8).hasPrefix("<svg"))
    }

    /// `-o x.pdf` wrote text without a word (issue 46.9): an extension naming none of the
    /// command's formats is refused, naming the ones it writes, and nothing is written.
    @Test("An unknown extension is refused, naming the known ones")
    func unknownExtension() throws {
        try withTemporaryFolder("ext") { folder in
            let pdf = folder.appendingPathComponent("x.pdf").path
            let report = try streakcal(["report"] + window + ["-o", pdf])
            #expect(report.status == 1)
            #expect(report.standardError == "streakcal: error: \(pdf): the extension .pdf names no format this command writes "
                + "(.txt .text .json .csv .md .markdown .svg .html .htm); rename the file or give --format\n")
            #expect(!FileManager.default.fileExists(atPath: pdf))
            // A report format that layout does not write is refused by layout.
            let html = folder.appendingPathComponent("february.html").path
            let layout = try streakcal(["layout", "--month", "2024-02", "-o", html])
            #expect(layout.status == 1)
            #expect(layout.standardError.contains(".html names no format this command writes (.txt .text .json .svg)"), "\(layout.standardError)")
            #expect(!FileManager.default.fileExists(atPath: html))
        }
    }

    @Test("The extension of a path, and the format it names")
    func extensions() {
        #expect(ReportFormat.fileExtension(of: "out/Report.PDF") == "pdf")
        #expect(ReportFormat.fileExtension(of: "out.d/report") == nil)
        #expect(ReportFormat.fileExtension(of: ".report") == nil)
        #expect(ReportFormat.fileExtension(of: "-") == nil)
        #expect(ReportFormat(fileExtensionOf: "a/b.Markdown") == .md)
        #expect(ReportFormat(fileExtensionOf: "b.htm") == .html)
        #expect(ReportFormat(fileExtensionOf: "b.pdf") == nil)
        #expect(ReportFormat.allCases.allSatisfy { ReportFormat(fileExtension: $0.fileExtension) == $0 })
        #expect(FileName.missingReason("htps://example.com/team.ics")
            == "no such file, and htps:// is not an address StreakCal reads (http://, https:// or webcal://)")
        #expect(FileName.missingReason("calendars/team.ics") == "no such file")
        #expect(FileName.missingReason("://x") == "no such file")
        #expect(FileName.missingReason("2024 notes://x") == "no such file")
    }
}
