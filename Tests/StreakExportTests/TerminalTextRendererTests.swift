import StreakExport
import Streaks
import Testing

/// A screen clear, an OSC 8 hyperlink, a C1 CSI and a right-to-left override.
private let hostile = "\u{1B}[2J\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\\u{9B}31m\u{202E}x"
private let shown = #"\u{1B}[2J\u{1B}]8;;http://evil.example\u{1B}\link\u{1B}]8;;\u{1B}\\u{9B}31m\u{202E}x"#

/// Whether `text` holds no terminal control but newline, tab and (for CSV) carriage return.
private func isInert(_ text: String, allowing allowed: Set<Unicode.Scalar> = ["\n", "\t"]) -> Bool {
    text.unicodeScalars.allSatisfy { allowed.contains($0) || !$0.isTerminalControl(keepingTabs: false) }
}

/// The tutorial's days in a zone whose name, and under rules whose label and mark, carry controls.
private func hostileReport() -> StreakReport {
    StreakReport(
        sessions: tutorialSessions,
        goal: StreakGoal(requiredPoints: 100, timeZone: TimeZoneRules(identifier: "Zone" + hostile, initialOffset: 0, transitions: [])),
        window: try! Day(year: 2024, month: 2, day: 20)...Day(year: 2024, month: 2, day: 29))
}

private let hostileRules = DayPresentationRules.standard.prepending(
    when: .dates(try! Day(year: 2024, month: 2, day: 21)...Day(year: 2024, month: 2, day: 21)),
    show: DayPresentation(fill: RGBColor(red: 0, green: 0, blue: 0), mark: "\u{1B}", label: "label" + hostile))

@Suite("Renderers keep terminal controls from outside inert")
struct TerminalTextRendererTests {
    @Test("Text report: the zone's name, a rule's label and mark; the colours alone are escape sequences")
    func text() {
        let plain = TextReport(report: hostileReport(), rules: hostileRules).render()
        #expect(plain.hasPrefix("Streak report: 2024-02-20 to 2024-02-29, Zone\(shown), goal 100 points a day\n"))
        #expect(plain.contains("18 19 20✓21\\u{1B}22·"))
        #expect(plain.contains("\\u{1B} label\(shown)"))
        #expect(isInert(plain))
        let coloured = TextReport(report: hostileReport(), colors: true, rules: hostileRules).render()
        #expect(coloured.contains("label\(shown)"))
        // Only SGR colour sequences (ESC [ digits/semicolons m) remain.
        let withoutColours = coloured.replacing(/\u{1B}\[[0-9;]*m/, with: "")
        #expect(isInert(withoutColours))
    }

    @Test("Session cards: the summary, or the UID when there is none, and the zone's name")
    func sessionCards() {
        let day = try! Day(year: 2024, month: 2, day: 21)
        let start = LocalDateTime(year: 2024, month: 2, day: 21, hour: 7)!
        let sessions = [
            Session(id: "a", start: .floating(start), end: .floating(start.advanced(bySeconds: 60)), points: 5, summary: hostile),
            Session(id: "uid\u{85}\u{2028}", start: .floating(start.advanced(bySeconds: 120)), end: .floating(start.advanced(bySeconds: 180)), points: 5),
        ]
        let cards = SessionCards(day: day, goal: hostileReport().goal, from: sessions).render()
        #expect(cards == """
            Sessions on 2024-02-21 (Zone\(shown)): 10 of 100 points, partial
              07:00–07:01       5 points  \(shown)
              07:02–07:03       5 points  uid\\u{85}\\u{2028}

            """)
    }

    @Test("Markdown: controls as \\u{XX} beside Markdown's own escapes; line breaks become spaces")
    func markdown() {
        #expect(MarkdownReport.escape("a|b *c* <d>\u{1B}[2J") == #"a\|b \*c\* \<d\>\u{1B}\[2J"#)
        #expect(MarkdownReport.escape("one\r\ntwo\nthree\u{85}") == #"one  two three\u{85}"#)
        let document = MarkdownReport(report: hostileReport(), rules: hostileRules).render()
        #expect(document.contains(#"| Time zone | Zone\u{1B}\[2J\u{1B}\]8;;http://evil.example\u{1B}\\link\u{1B}\]8;;\u{1B}\\\u{9B}31m\u{202E}x |"#))
        #expect(isInert(document))
    }

    @Test("CSV: controls as \\u{XX}; CR and LF stay, quoted, as RFC 4180 data")
    func csv() {
        #expect(CSVReport.field("a\u{1B}[2Jb") == #"a\u{1B}[2Jb"#)
        #expect(CSVReport.field("tab\tstays") == "tab\tstays")
        #expect(CSVReport.field("two\r\nlines\u{7}") == "\"two\r\nlines\\u{07}\"")
        #expect(CSVReport.field("\u{202E}\"q\"") == #""\u{202E}""q""""#)
        #expect(isInert(CSVReport.field(hostile)))
    }
}
