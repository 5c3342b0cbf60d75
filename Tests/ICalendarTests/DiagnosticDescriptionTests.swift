import ICalendar
import Streaks
import Testing

@Suite("Diagnostics as text")
struct DiagnosticDescriptionTests {
    @Test("Controls in the file name, message and source line are shown as \\u{XX}; the caret stays under the column", arguments: [
        // (source line, column of the value, the line shown, spaces before the caret)
        ("X-POINTS:lots", 10, "X-POINTS:lots", 9),
        ("SUMMARY;X=\u{1B}[2J:\u{9B}x", 16, #"SUMMARY;X=\u{1B}[2J:\u{9B}x"#, 20),
        ("A\u{202E}B:\u{7}", 5, #"A\u{202E}B:\u{07}"#, 11),
        ("TAB\t:v", 6, "TAB\t:v", 5),
    ])
    func escaped(sourceLine: String, column: Int, shown: String, caret: Int) {
        let diagnostic = Diagnostic(
            .warning, .points, at: SourceLocation(file: "in/\u{1B}]8;;x\u{1B}\\.ics", line: 12, column: column),
            "value \"\u{1B}[31m\" is odd\r\nsecond line", sourceLine: sourceLine)
        #expect(diagnostic.description == """
            in/\\u{1B}]8;;x\\u{1B}\\.ics:12:\(column): warning: value "\\u{1B}[31m" is odd\\u{0D}\\u{0A}second line
             12 | \(shown)
                | \(String(repeating: " ", count: caret))^
            """)
    }

    @Test("A plain diagnostic reads as before")
    func plain() {
        let diagnostic = Diagnostic(
            .error, .libical, at: SourceLocation(file: "work.ics", line: 3, column: 1), "unknown property", sourceLine: nil)
        #expect(diagnostic.description == "work.ics:3:1: error: unknown property")
    }
}
