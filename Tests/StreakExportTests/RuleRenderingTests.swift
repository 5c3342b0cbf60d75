import Foundation
import StreakExport
import Streaks
import Testing

/// The tutorial's sample scored by rules: weekends rest, 2024-02-21 skipped, a freeze, a weekly goal.
private func ruledReport(periods: Bool = true, sessions: [Session] = tutorialSessions) throws -> StreakReport {
    var rules = StreakRules(requiredPoints: 100)
    try rules.schedule.add(parsing: "sat-sun:0")
    rules.skippedDays = [Day("2024-02-21")...Day("2024-02-21")]
    rules.freezes = FreezePolicy(budget: 1)
    if periods { rules.periodGoal = try PeriodGoal(parsing: "week:1 day", firstWeekday: .monday) }
    return StreakReport(sessions: sessions, goal: StreakGoal(timeZone: .utc), rules: rules,
                        window: Day("2024-02-19")...Day("2024-03-03"))
}

private func habits() throws -> [HabitReport] {
    let habit = try Habit(parsing: "Evens=summary:\"Session 0\" or summary:\"Session 2\" or summary:\"Session 4\"")
    let report = try ruledReport(periods: false, sessions: tutorialSessions.filter(habit.filter.matches))
    return [HabitReport(habit: habit, report: report)]
}

@Suite("Reports under streak rules")
struct RuleRenderingTests {
    @Test("The statuses the rules make")
    func statuses() throws {
        let report = try ruledReport(periods: false)
        // Mon 19 none (no streak yet to protect); Tue 20 met; Wed 21 skipped; Thu 22 none → frozen
        // (the one freeze protects Tuesday's streak), Fri 23 none; Sat 24, Sun 25 rest; Mon 26 met;
        // 27 to 29 and Fri 1 none; Sat 2, Sun 3 rest.
        #expect(report.days.map(\.status) == [
            .none, .met, .skipped, .frozen, .none, .rest, .rest, .met, .none, .none, .none, .none, .rest, .rest,
        ])
    }

    @Test("JSON with rules and habits reads back as its reports")
    func jsonReadsBack() throws {
        for json in [
            JSONReport(report: try ruledReport(), diagnostics: []),
            JSONReport(report: try ruledReport(periods: false), diagnostics: [], habits: try habits(), unmatchedSessions: 2),
        ] {
            try expectReadsBack(json)
        }
    }

    @Test("JSON: requirement, fraction (null on a rest day), periods, freezes, score")
    func jsonKeys() throws {
        let text = JSONReport(report: try ruledReport(), diagnostics: []).render()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days[1]["required"] as? Int == 100)
        #expect(days[1]["fraction"] as? Double == 1)
        #expect(days[5]["fraction"] is NSNull)
        #expect(days[5]["status"] as? String == "rest")
        let periods = try #require(object["periods"] as? [[String: Any]])
        #expect(periods.map { $0["status"] as? String } == ["met", "met"])
        #expect(periods.first?["target"] as? [String: Int] == ["days": 1])
        #expect(object["streakUnit"] as? String == "week")
        #expect(object["schedule"] as? String == "100 a day; sat-sun:0")
        #expect(object["score"] is Double)
        #expect(object["freezesLeft"] as? Int == 1)  // weeks were never missed: the freeze is still held
    }

    @Test("Text, Markdown, CSV, SVG and HTML show the new statuses, the periods and the habits")
    func everyFormat() throws {
        let report = try ruledReport()
        let text = TextReport(report: report).render()
        // Under a period goal, freezes cover weeks, not days: Monday 19 stays a missed day.
        #expect(text.contains("19·20✓21⊘22·23·24○"))
        #expect(text.contains("✓ met  ◔ partial, under 1/3  ◑ partial, 1/3 to 2/3  ◕ partial, 2/3 or more  · none  ○ rest  ⊘ skipped\n"))
        #expect(text.contains("Periods (week:1 day):\n  2024-02-19 to 2024-02-25  ✓ met, 1 of 1 days met\n"))
        #expect(text.contains("Current streak: 2 weeks (2024-02-19 to 2024-03-03)"))

        let markdown = MarkdownReport(report: report).render()
        #expect(markdown.contains("## Periods (week:1 day)\n\n| Period | Progress | Status |\n| --- | --- | --- |\n| 2024-02-19 to 2024-02-25 | 1 of 1 days met | ✓ met |"))
        #expect(markdown.contains("Marks: ✓ met; ◔ partial, under 1/3; ◑ partial, 1/3 to 2/3; ◕ partial, 2/3 or more; · none; ○ rest; ⊘ skipped."))

        let csv = CSVReport(report: try ruledReport(periods: false), habits: try habits(), lineEnding: .lf).render()
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "date,points,sessions,status,required,fraction,habit")
        #expect(lines.contains("2024-02-24,30,1,rest,0,,"))
        #expect(lines.contains("2024-02-20,100,1,met,100,1.0,Evens"))

        let svg = SVGReport(report: try ruledReport(periods: false), habits: try habits()).render()
        #expect(svg.contains("id=\"day-2024-02-21\" class=\"day skipped\""))
        #expect(svg.contains("id=\"habit1-day-2024-02-20\" class=\"day met\""))
        #expect(svg.contains(">Habit: Evens</text>"))

        let html = HTMLReport(report: report, sessions: tutorialSessions, habits: try habits()).render()
        #expect(html.contains("<h2 id=\"periods\">Periods (week:1 day)</h2>"))
        #expect(html.contains("id=\"h1-d-2024-02-20\""))
        #expect(html.contains("<h2>Habit: Evens</h2>"))
        // Every class the page uses is styled.
        let used = Set(html.matches(of: /class="(p\d+)"/).map { String($0.1) })
        for name in used { #expect(html.contains(".\(name) { background:"), "\(name)") }
    }

    @Test("The new presentations read at 4.5:1 and differ from the old ones in mark and look")
    func presentations() {
        let all = DayStatus.allCases.map(DayPresentation.standard(for:))
        for presentation in all {
            // An outlined cell's text sits on the page; a hatched one's on both of its colours.
            let grounds = presentation.pattern == .outline ? [RGBColor.white] : presentation.pattern == .hatched ? [.white, presentation.fill] : [presentation.fill]
            for ground in grounds { #expect(ground.contrastRatio(with: presentation.text) >= 4.5, "\(presentation.label)") }
        }
        #expect(Set(all.map(\.mark)).count == all.count)
        // Over an at-most limit has a look of its own, not a day without points' (issue 46.8).
        let looks = DayStatus.allCases.map { DayPresentation.standard(for: $0) }
        #expect(Set(looks.map { "\($0.fill) \($0.pattern)" }).count == looks.count)
        #expect(DayPresentation.standard(for: .over).fill != DayPresentation.standard(for: .none).fill)
        #expect(DayPresentation.standard(for: .over).mark == "✗")
        #expect(TextReport.marks[.frozen] == "❄" && TextReport.marks[.partial] == "◐")
    }

    @Test("The legend lists rest, skipped and frozen only when the report has such days")
    func legend() throws {
        #expect(DayPresentationRules.tutorial.legend(for: tutorialReport()).map(\.label) == ["met", "partial", "none"])
        #expect(DayPresentationRules.tutorial.legend(for: try ruledReport(periods: false)).map(\.label)
                == ["met", "partial", "none", "rest", "skipped", "frozen"])
        let scale = ["met", "partial, under 1/3", "partial, 1/3 to 2/3", "partial, 2/3 or more", "none"]
        #expect(DayPresentationRules.standard.legend(for: tutorialReport()).map(\.label) == scale)
        #expect(DayPresentationRules.standard.legend(for: try ruledReport(periods: false)).map(\.label) == scale + ["rest", "skipped", "frozen"])
    }
}
