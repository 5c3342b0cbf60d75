import StreakCal
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
}
