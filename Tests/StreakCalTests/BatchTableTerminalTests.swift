import Foundation
@testable import StreakCal
import Streaks
import Testing

/// A screen clear, an OSC 8 hyperlink, a C1 CSI and a right-to-left override.
private let hostile = "\u{1B}[2J\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\\u{9B}31m\u{202E}x"
private let shown = #"\u{1B}[2J\u{1B}]8;;http://evil.example\u{1B}\link\u{1B}]8;;\u{1B}\\u{9B}31m\u{202E}x"#

/// Whether `text` holds no terminal control but the ones allowed.
private func isInert(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n", "\t"]) -> Bool {
    text.unicodeScalars.allSatisfy { allowed.contains($0) || !$0.isTerminalControl(keepingTabs: false) }
}

@Suite("Terminal text in the batch table")
struct BatchTableTerminalTests {
    @Test("The batch table: names and errors with controls (tabs too) on one line each")
    func batchTable() {
        var file = BatchFileResult(input: "in/\(hostile)\t\n.ics")
        file.error = "cannot read in/\(hostile): no such file"
        let table = BatchSummary(format: .text, files: [file], skipped: [SkippedInput(input: "in/p.ics", reason: "a named pipe (FIFO), not a regular file")]).table()
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix(#"in/\#(shown)\u{09}\u{0A}.ics  "#))
        #expect(lines[1].hasSuffix("cannot read in/\(shown): no such file"))
        #expect(lines[2] == "1 file, 1 failed, 1 skipped")
        #expect(isInert(table, allowing: ["\n"]))
    }

    @Test("Columns line up by characters whatever the cells hold; the table is the one padded String by String")
    func batchTableWidths() {
        let names = ["plain.ics", "caf\u{E9}.ics", "e\u{301}t\u{E9}.ics", "\u{65E5}\u{672C}\u{8A9E}.ics", "\u{1F600}.ics", "", "a  b  .ics"]
        var files: [BatchFileResult] = []
        for (index, name) in names.enumerated() {
            var file = BatchFileResult(input: name)
            file.name = String(name.reversed())
            if index.isMultiple(of: 2) {
                file.sessions = index * 1_000
                file.daysMet = index
                let first = try! Day(year: 2024, month: 1, day: 1)
                file.currentStreak = Streak(from: first, through: first.advanced(by: index), length: index + 1)
                file.diagnostics = DiagnosticCounts(errors: index, warnings: 1)
            } else {
                file.error = "cannot read \(name): no such file \u{1B}[0m "
            }
            files.append(file)
        }
        let summary = BatchSummary(format: .json, files: files, elapsedSeconds: 1.5)
        #expect(summary.table() == Self.referenceTable(summary))
        // The summary put together from entries written apart is the one written at once.
        #expect(summary.json(entries: files.map(BatchSummary.jsonEntry)) == summary.json())
        #expect(summary.json(entries: []) == summary.json())  // entries that do not fit are not used
        // The bytes a batch writes to summary.json are that text's.
        #expect(summary.jsonBytes(entries: files.map(BatchSummary.jsonEntry)) == Array(summary.json().utf8))
    }

    @Test("Elapsed seconds are written with two decimals, rounded as printf rounds the binary value")
    func twoDecimals() {
        let cases: [(Double, String)] = [(0, "0.00"), (0.125, "0.12"), (0.135, "0.14"), (2.675, "2.67"), (59.995, "59.99"), (3_600.126, "3600.13")]
        for (value, expected) in cases { #expect(BatchSummary.twoDecimals(value) == expected, "\(value)") }
    }

    /// The table as it was first written: cells padded to the widest by `String.count`.
    private static func referenceTable(_ summary: BatchSummary) -> String {
        let header = ["FILE", "NAME", "SESSIONS", "DAYS MET", "CURRENT", "LONGEST", "DIAGNOSTICS", "ERROR"]
        let rows = summary.files.map { file -> [String] in
            let figure = { (value: Int?) in value.map(String.init) ?? "-" }
            return [
                file.input.escapingControlCharacters(keepingTabs: false), file.name.escapingControlCharacters(keepingTabs: false),
                figure(file.sessions), figure(file.daysMet), figure(file.currentStreak?.length), figure(file.longestStreak?.length),
                file.sessions == nil ? "-" : file.diagnostics.description, (file.error ?? "").escapingControlCharacters(keepingTabs: false),
            ]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in all {
            var cells: [String] = []
            for column in row.indices {
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                cells.append(column == row.count - 1 ? row[column] : [2, 3, 4, 5].contains(column) ? padding + row[column] : row[column] + padding)
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        let failed = summary.files.filter { $0.error != nil }.count
        text += "\(summary.files.count) files, \(failed) failed"
        if let elapsed = summary.elapsedSeconds { text += ", in \(String(format: "%.2f", elapsed)) s" }
        return text + "\n"
    }
}
