import Foundation
import ICalendar
import StreakExport
import Streaks
import SnapshotSupport
import Testing

/// The tutorial's sample as sessions (floating times).
let tutorialSessions: [Session] = [
    (2024, 2, 20, 8, 0, 100), (2024, 2, 24, 12, 0, 30), (2024, 2, 25, 6, 30, 80),
    (2024, 2, 25, 3, 12, 20), (2024, 2, 26, 9, 0, 120),
].enumerated().map { index, sample in
    let start = LocalDateTime(year: sample.0, month: sample.1, day: sample.2, hour: sample.3, minute: sample.4)!
    return Session(id: "s\(index)", start: .floating(start), end: .floating(start.advanced(bySeconds: 3600)),
                   points: sample.5, summary: "Session \(index)")
}

func tutorialReport(to last: Day = try! Day(year: 2024, month: 2, day: 29)) -> StreakReport {
    StreakReport(sessions: tutorialSessions, goal: StreakGoal(requiredPoints: 100, timeZone: .utc),
                 window: try! Day(year: 2024, month: 2, day: 20)...last)
}

@Suite("Text report")
struct TextReportTests {
    @Test("Plain marks, two months side by side (snapshot)")
    func plain() throws {
        let text = TextReport(report: tutorialReport(to: try! Day(year: 2024, month: 3, day: 3))).render()
        try assertSnapshot(text, named: "tutorial-plain.txt")
        #expect(text.contains("20✓21·22·23·24◔"))
        #expect(text.contains("Longest streak: 2 days (2024-02-25 to 2024-02-26)"))
        #expect(text.hasPrefix("Streak report: 2024-02-20 to 2024-03-03, UTC, goal 100 points a day\n\n"))
    }

    @Test("Colours: the palette's 256-colour backgrounds by level, the marks kept (snapshot)")
    func colors() throws {
        let text = TextReport(report: tutorialReport(), colors: true).render()
        try assertSnapshot(text, named: "tutorial-colors.txt")
        #expect(text.contains("\u{1B}[38;5;231;48;5;23m20✓\u{1B}[0m"))  // white on deep green
        #expect(text.contains("\u{1B}[38;5;234;48;5;187m24◔\u{1B}[0m"))  // dark on pale green
        #expect(text.contains("\u{1B}[38;5;234;48;5;255m21·\u{1B}[0m"))  // dark on light gray
        #expect(text.contains("\u{1B}[38;5;231;48;5;23m✓\u{1B}[0m met"))
        let tutorial = TextReport(report: tutorialReport(), colors: true, rules: .tutorial).render()
        #expect(tutorial.contains("\u{1B}[30;42m20✓\u{1B}[0m") && tutorial.contains("\u{1B}[97;41m24◐\u{1B}[0m"))
        // Without the colour codes, the text is the plain report's: no status rests on colour alone.
        #expect(text.replacing(/\u{1B}\[[0-9;]*m/, with: "") == TextReport(report: tutorialReport()).render())
    }

    @Test("Grids start on the chosen weekday, with cal's geometry once the marks are blanked")
    func grid() {
        let report = tutorialReport()
        let sunday = TextReport(report: report).monthLines(year: 2024, month: 2)
        #expect(sunday[0] == "   February 2024     ")
        #expect(sunday[1] == "Su Mo Tu We Th Fr Sa ")
        #expect(sunday[2] == "             1  2  3 ")
        #expect(sunday.last == "25✓26✓27·28·29·      ")
        let monday = TextReport(report: report, firstWeekday: .monday).monthLines(year: 2024, month: 2)
        #expect(monday[1] == "Mo Tu We Th Fr Sa Su ")
        #expect(monday[2] == "          1  2  3  4 ")
        #expect(sunday.allSatisfy { $0.count == 21 })
    }

    @Test("Streak descriptions", arguments: [
        (Streak.empty, "0 days"),
        (Streak(from: try! Day(year: 2024, month: 1, day: 1), through: try! Day(year: 2024, month: 1, day: 1)), "1 day (2024-01-01)"),
        (Streak(from: try! Day(year: 2024, month: 1, day: 1), through: try! Day(year: 2024, month: 1, day: 3)), "3 days (2024-01-01 to 2024-01-03)"),
    ])
    func describe(_ streak: Streak, expected: String) {
        #expect(TextReport.describe(streak) == expected)
    }
}

@Suite("JSON report")
struct JSONReportTests {
    @Test("The contract's shape, with null streak days when empty (snapshot)")
    func shape() throws {
        let diagnostic = Diagnostic(.warning, .points, at: CalendarDiagnostics.SourceLocation(file: "a.ics", line: 3, column: 10), "bad points", sourceLine: "X-POINTS:x")
        let json = JSONReport(report: tutorialReport(), diagnostics: [diagnostic]).render()
        try assertSnapshot(json, named: "tutorial.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: [
            "timeZone", "requiredPoints", "from", "to", "days", "currentStreak", "longestStreak", "diagnostics",
        ]))
        let current = try #require(object["currentStreak"] as? [String: Any])
        #expect(current["start"] is NSNull && current["end"] is NSNull && current["length"] as? Int == 0)
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["file"] as? String == "a.ics")
        #expect(diagnostics.first?["line"] as? Int == 3)
        #expect(diagnostics.first?["column"] as? Int == 10)
        #expect(diagnostics.first?["severity"] as? String == "warning")
        #expect(diagnostics.first?["message"] as? String == "bad points")
    }

    @Test("The text reads back as its values: escapes, empty arrays, null days, no source line")
    func readsBack() throws {
        let tricky = Diagnostic(
            .error, .libical, at: CalendarDiagnostics.SourceLocation(file: "dir/a \"b\".ics", line: 7, column: 2),
            "quote \" backslash \\ slash / tab \t cr \r lf \n bs \u{8} ff \u{C} nul \u{0} us \u{1F} del \u{7F} é \u{2028} 🎹",
            sourceLine: "SUMMARY:\u{1}x")
        let plain = Diagnostic(.note, .structure, at: CalendarDiagnostics.SourceLocation(file: "b.ics", line: 1), "no source line")
        for (report, diagnostics) in [
            (tutorialReport(), [tricky, plain]),
            (tutorialReport(), []),
            (StreakReport(goal: StreakGoal(timeZone: .utc), firstDay: try! Day(year: 2024, month: 1, day: 1), points: [], sessionCounts: []), [plain]),
        ] {
            for sources in [[], [ReportSource(file: "dir/a \"b\".ics", declaredName: "Piano \\ \u{1}"), ReportSource(file: "-")]] {
                try expectReadsBack(JSONReport(report: report, diagnostics: diagnostics, sources: sources))
            }
        }
    }
}

@Suite("Session cards")
struct SessionCardsTests {
    @Test("Start order, local times, points")
    func order() {
        let cards = SessionCards(day: try! Day(year: 2024, month: 2, day: 25), goal: StreakGoal(timeZone: .utc), from: tutorialSessions)
        #expect(cards.sessions.map(\.id) == ["s3", "s2"])
        #expect(cards.points == 100)
        #expect(cards.render() == """
            Sessions on 2024-02-25 (UTC): 100 of 100 points, met
              03:12–04:12      20 points  Session 3
              06:30–07:30      80 points  Session 2

            """)
    }

    @Test("All-day sessions and sessions that end on another day")
    func spans() {
        let day = try! Day(year: 2024, month: 3, day: 1)
        let sessions = [
            Session(id: "a", start: .date(day), end: .date(day.advanced(by: 1)), points: 1),
            Session(id: "b", start: .date(day), end: .date(day.advanced(by: 3)), points: 1),
            Session(id: "c", start: .instant(secondsSince1970: 1_709_333_000), end: .instant(secondsSince1970: 1_709_340_000), points: 1),
        ]
        let cards = SessionCards(day: day, goal: StreakGoal(timeZone: .utc), from: sessions)
        #expect(cards.sessions.map { cards.timeRange(of: $0) } == [
            "all day    ", "all day, to 2024-03-03", "22:43–2024-03-02 00:40",
        ])
    }
}
