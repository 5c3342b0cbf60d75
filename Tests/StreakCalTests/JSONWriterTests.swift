import Foundation
import StreakCal
import StreakExport
import Testing

/// A document of every kind of member the writer writes, as `JSONEncoder` encodes it.
private struct Sample: Encodable {
    var diagnostics: [Diagnostic]
    var empty: [Int]
    var nothing: String?
    var numbers: [Double]
    var streaks: [Streak]
    var text: String
    var totals: [String: Int]

    func encode(to encoder: any Encoder) throws {
        // Every key, `null` included, as the writer writes them.
        enum Key: String, CodingKey { case diagnostics, empty, nothing, numbers, streaks, text, totals }
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(diagnostics, forKey: .diagnostics)
        try container.encode(empty, forKey: .empty)
        try container.encode(nothing, forKey: .nothing)
        try container.encode(numbers, forKey: .numbers)
        try container.encode(streaks, forKey: .streaks)
        try container.encode(text, forKey: .text)
        try container.encode(totals, forKey: .totals)
    }

    /// The same document through the writer.
    func written(_ layout: JSONWriter.Layout) -> String {
        var json = JSONWriter(layout: layout)
        json.open("{")
        json.key("diagnostics", indent: 2, first: true)
        json.diagnostics(diagnostics, indent: 2)
        json.key("empty", indent: 2)
        json.open("[")
        json.close("]", indent: 2, empty: true)
        json.key("nothing", indent: 2)
        json.optional(nothing) { $0.string($1) }
        json.key("numbers", indent: 2)
        json.open("[")
        for (index, number) in numbers.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.number(number)
        }
        json.close("]", indent: 2, empty: numbers.isEmpty)
        json.key("streaks", indent: 2)
        json.open("[")
        for (index, streak) in streaks.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.streak(streak, indent: 4)
        }
        json.close("]", indent: 2, empty: streaks.isEmpty)
        json.key("text", indent: 2)
        json.string(text)
        json.key("totals", indent: 2)
        json.integerObject([("daysMet", totals["daysMet"] ?? 0), ("points", totals["points"] ?? 0)], indent: 2)
        return layout == .pretty ? json.document() : { json.close("}", indent: 0, empty: false); return json.text }()
    }
}

@Suite("The JSON writer")
struct JSONWriterTests {
    private let sample = Sample(
        diagnostics: [
            Diagnostic(.warning, .badEnd, at: SourceLocation(file: "a/b.ics", line: 18, column: 7), "ends \"early\"",
                       sourceLine: "DTEND:2024\u{1B}[2J"),
            Diagnostic(.error, .structure, at: SourceLocation(file: "-", line: 1), "no END"),
        ],
        empty: [], nothing: nil, numbers: [0, 1.5, -2, 3e-05, 1e22],
        streaks: [Streak(from: try! Day(year: 2024, month: 2, day: 25), through: try! Day(year: 2024, month: 2, day: 26)), .empty],
        text: "line one\r\nline \"two\"\t\\ / é 🎹 \u{0}", totals: ["daysMet": 3, "points": -350])

    @Test("Pretty: JSONEncoder's .prettyPrinted text byte for byte; compact: its one-line text", arguments: [JSONWriter.Layout.pretty, .compact])
    func sameAsEncoder(layout: JSONWriter.Layout) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = layout == .pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(sample), as: UTF8.self) + (layout == .pretty ? "\n" : "")
        #expect(sample.written(layout) == expected)
    }

    @Test("Compact is one line whatever the strings hold")
    func compactIsOneLine() {
        let text = sample.written(.compact)
        #expect(!text.contains("\n") && !text.contains("\r"))
        #expect(text.hasPrefix(#"{"diagnostics":[{"code":"bad-end","column":7,"file":"a/b.ics","line":18,"#))
    }

    @Test("A number read as text comes back as written")
    func numberText() {
        var json = JSONWriter(layout: .compact)
        json.open("[")
        for (index, text) in ["12345678901234567890123", "-0", "1.50", "1E+2"].enumerated() {
            json.element(indent: 2, first: index == 0)
            json.number(text: text)
        }
        json.close("]", indent: 0, empty: false)
        #expect(json.text == "[12345678901234567890123,-0,1.50,1E+2]")
    }
}
