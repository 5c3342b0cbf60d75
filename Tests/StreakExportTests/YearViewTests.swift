import CalendarLayout
import Foundation
import ICalendar
import SnapshotSupport
import StreakExport
import Streaks
import Testing

/// Points by day in a repeating pattern: none, a fifth, a half, four fifths, met, more than met.
private let pattern = [0, 20, 50, 80, 100, 130]

/// A report over `first`...`last`, each day's points from `pattern`, one session per day with points.
private func patternReport(from first: Day, to last: Day, rules: StreakRules = StreakRules(requiredPoints: 100)) -> StreakReport {
    let count = first.distance(to: last) + 1
    let points = (0..<count).map { pattern[$0 % pattern.count] }
    return StreakReport(
        goal: StreakGoal(requiredPoints: 100, timeZone: .utc), rules: rules, firstDay: first, points: points,
        sessionCounts: points.map { $0 > 0 ? 1 : 0 })
}

/// One session on each day with points, as `patternReport` counts them.
private func patternSessions(from first: Day, to last: Day, summary: (Int) -> String = { "Practice \($0)" }) -> [Session] {
    (0...first.distance(to: last)).compactMap { offset in
        let points = pattern[offset % pattern.count]
        guard points > 0 else { return nil }
        let start = LocalDateTime(day: first.advanced(by: offset), secondOfDay: 8 * 3600)
        return Session(id: "s\(offset)", start: .floating(start), end: .floating(start.advanced(bySeconds: 1800)),
                       points: points, summary: summary(offset))
    }
}

private let winter = (first: try! Day(year: 2023, month: 11, day: 1), last: try! Day(year: 2024, month: 3, day: 10))
private let sources = [ReportSource(file: "exports/piano.ics", declaredName: "Piano <practice> & \u{1B}[31m")]
private let diagnostics = (1...7).map { line in
    Diagnostic(line == 1 ? .error : .warning, .points, at: CalendarDiagnostics.SourceLocation(file: "exports/piano.ics", line: line * 10, column: 3),
               "message \(line) with <markup> & | pipes")
}

@Suite("Year view: a heatmap per calendar year")
struct YearViewTests {
    @Test("Progress charts in heatmap views (SVG and HTML): score over time, week and month bars against the goal, weekdays; bounded for long windows")
    func progressCharts() throws {
        let report = patternReport(from: winter.first, to: winter.last)
        let svg = SVGReport(report: report, firstWeekday: .sunday, view: .year).render()
        #expect(svg.contains("<g class=\"progress\" id=\"progress\""))
        #expect(svg.contains("Habit score over time: \(Int((report.score * 100).rounded()))% now"))
        #expect(svg.contains("Points per week, against the goal") && svg.contains("Points per month, against the goal") && svg.contains("Days met by weekday"))
        // A bar per month of the window (November to March), each titled with its sum.
        let months = report.sums()
        #expect(months.count == 5)
        for month in months { #expect(svg.contains("\(month.days.lowerBound) to \(month.days.upperBound): \(month.points) of \(month.required) points")) }
        #expect(try parsesAsXML(svg))
        // Month grids draw no charts.
        #expect(!SVGReport(report: report, view: .month).render().contains("id=\"progress\""))
        let html = HTMLReport(report: report, sessions: [], firstWeekday: .sunday, view: .year).render()
        #expect(html.contains("<h2 id=\"progress\">Progress</h2>"))
        #expect(html.components(separatedBy: "<figure class=\"chart wide\">").count == 5 && html.components(separatedBy: "<figure class=\"chart narrow\">").count == 5)
        // A thousand years: the score's line has a point per point of width, not per day.
        let long = patternReport(from: try! Day(year: 1024, month: 1, day: 1), to: try! Day(year: 2023, month: 12, day: 31))
        let longSVG = SVGReport(report: long, view: .year).render()
        let line = try #require(longSVG.split(separator: "\n").first { $0.hasPrefix("<polyline") })
        #expect(line.split(separator: " ").count < 1_200)
        #expect(longSVG.utf8.count < 60_000_000)
    }

    @Test("The rolling view: chosen for a long window that ends today, one strip of 53 weeks in text, SVG and HTML")
    func rollingView() throws {
        let today = try! Day(year: 2024, month: 3, day: 10)  // a Sunday
        let report = patternReport(from: winter.first, to: today)
        #expect(ReportView.automatic(for: report, today: today) == .rolling)
        #expect(ReportView.automatic(for: report, today: today.advanced(by: 1)) == .year)
        #expect(ReportView.automatic(for: report) == .year)
        #expect(ReportView.automatic(for: patternReport(from: today.advanced(by: -30), to: today), today: today) == .month)
        let text = TextReport(report: report, firstWeekday: .sunday, today: today).render()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let title = try #require(lines.firstIndex(of: "The last 53 weeks, 2023-03-12 to 2024-03-10"))
        #expect(!text.contains("\n2023\n") && !text.contains("\n2024\n"))  // no calendar-year strips
        // A line per weekday, from Sunday: 53 columns, blank before the window, marks in it.
        let sunday = lines[title + 2]
        #expect(sunday.hasPrefix("Su ") && sunday.count == 3 + 53)
        #expect(sunday.last == "✓")  // 2024-03-10, 130 days in: 100 points
        #expect(sunday.dropFirst(3).prefix(33).allSatisfy { $0 == " " })  // before 2023-11-01, outside the window
        let svg = SVGReport(report: report, firstWeekday: .sunday, today: today).render()
        #expect(svg.contains("id=\"rolling\"") && !svg.contains("id=\"year-2023\""))
        #expect(svg.contains("id=\"day-2024-03-10\"") && svg.contains("id=\"day-2023-11-01\"") && !svg.contains("id=\"day-2023-10-31\""))
        let html = HTMLReport(report: report, sessions: [], firstWeekday: .sunday, today: today).render()
        #expect(html.contains("<figcaption>The last 53 weeks, 2023-03-12 to 2024-03-10</figcaption>"))
        #expect(html.contains("style=\"--w:53\""))
    }

    @Test("The view is chosen by the window's length: up to 92 days months, longer years")
    func automatic() {
        let start = try! Day(year: 2024, month: 1, day: 1)
        #expect(ReportView.automatic(for: patternReport(from: start, to: start.advanced(by: 91))) == .month)
        #expect(ReportView.automatic(for: patternReport(from: start, to: start.advanced(by: 92))) == .year)
    }

    @Test("Text: a line per weekday, a mark per week, blank outside the window; years stack (snapshot)")
    func text() throws {
        let report = patternReport(from: winter.first, to: winter.last)
        let text = TextReport(report: report, sources: sources, diagnostics: diagnostics, view: .year, today: winter.last).render()
        try assertSnapshot(text, named: "year-winter.txt")
        let lines = text.components(separatedBy: "\n")
        let years = lines.indices.filter { lines[$0] == "2023" || lines[$0] == "2024" }
        #expect(years.count == 2)
        for start in years {
            let weekdayLines = lines[(start + 2)..<(start + 9)]
            #expect(weekdayLines.map { String($0.prefix(3)) } == ["Su ", "Mo ", "Tu ", "We ", "Th ", "Fr ", "Sa "])
            let grid = YearGrid(year: Int(lines[start])!, firstWeekday: .sunday)
            // Each day of the window has its level's mark at column 3 + week; days outside are blank.
            for (row, line) in weekdayLines.enumerated() {
                let characters = Array(line)
                for week in 0..<grid.weekCount {
                    let character: Character = 3 + week < characters.count ? characters[3 + week] : " "
                    guard let day = grid.day(week: week, row: row), let total = report.total(on: day) else {
                        #expect(character == " ", "\(grid.year) week \(week) row \(row)")
                        continue
                    }
                    let expected: Character = ["·", "◔", "◑", "◕", "✓", "✓"][pattern.firstIndex(of: total.points)!]
                    #expect(character == expected, "\(day)")
                }
            }
        }
        // January's label over column 0, March's over the week that starts in March.
        let labels = lines[years[1] + 1]
        #expect(labels.hasPrefix("   Jan"))
        let march = YearGrid(year: 2024).monthColumns[2].week
        #expect(Array(labels)[3 + march..<3 + march + 3].map(String.init).joined() == "Mar")
        #expect(text.contains("Less to more: · none  ◔ partial, under 1/3  ◑ partial, 1/3 to 2/3  ◕ partial, 2/3 or more  ✓ met"))
        // The figures come before the heatmaps.
        #expect(text.range(of: "Longest streak:")!.lowerBound < text.range(of: "\n2023\n")!.lowerBound)
    }

    @Test("Text with colours: every cell keeps its mark, today is underlined, and without the codes it is the plain text")
    func coloredText() throws {
        let report = patternReport(from: winter.first, to: winter.last)
        let today = try! Day(year: 2024, month: 3, day: 8)
        let colored = TextReport(report: report, colors: true, today: today).render()
        let plain = TextReport(report: report, colors: false).render()
        // Only the line that explains the underline is extra.
        #expect(colored.replacing(/\u{1B}\[[0-9;]*m/, with: "").replacing("Underlined: today (2024-03-08)\n", with: "") == plain)
        let presentation = DayPresentationRules.standard.presentation(for: try #require(report.total(on: today)))
        #expect(presentation.mark == "◑")  // 50 of 100 points
        #expect(colored.contains("\u{1B}[4;\(presentation.terminalStyle)m◑\u{1B}[0m"))
        #expect(colored.components(separatedBy: "\u{1B}[4;").count == 2)
        #expect(colored.contains("\u{1B}[4mUnderlined\u{1B}[0m: today (2024-03-08)"))
    }

    @Test("Text: rest, skipped and frozen days keep their marks and join the legend")
    func textStatuses() throws {
        var rules = StreakRules(requiredPoints: 100)
        try rules.schedule.add(parsing: "sat-sun:0")
        rules.skippedDays = [try! Day(year: 2024, month: 1, day: 10)...Day(year: 2024, month: 1, day: 12)]
        rules.freezes = FreezePolicy(budget: 1)
        let report = patternReport(from: winter.first, to: winter.last, rules: rules)
        #expect(Set(report.days.map(\.status)).isSuperset(of: [.rest, .skipped, .frozen]))
        let text = TextReport(report: report, view: .year).render()
        for status in [DayStatus.rest, .skipped, .frozen] {
            #expect(text.contains("\(TextReport.marks[status]!) \(status.rawValue)"), "\(status)")
        }
        // The three skipped days (Wednesday to Friday) in their rows, and once in the legend.
        #expect(text.components(separatedBy: "⊘").count - 1 == 3 + 1)
    }

    @Test("SVG: a cell per day of the window at YearLayout's frames, a title each, today outlined (snapshot)")
    func svg() throws {
        let report = patternReport(from: winter.first, to: winter.last)
        let today = try! Day(year: 2024, month: 3, day: 8)
        let svg = SVGReport(report: report, sources: sources, diagnostics: diagnostics, today: today).render()
        try assertSnapshot(svg, named: "year-winter.svg")
        #expect(try parsesAsXML(svg))
        #expect(svg.contains("<g class=\"year\" id=\"year-2023\">") && svg.contains("<g class=\"year\" id=\"year-2024\">"))
        #expect(svg.components(separatedBy: "class=\"day ").count - 1 == report.days.count)
        // Cells a pitch apart, the day after a Saturday at the top of the next column.
        let saturday = try rect(ofDay: "2024-01-06", in: svg), sunday = try rect(ofDay: "2024-01-07", in: svg)
        let friday = try rect(ofDay: "2024-01-05", in: svg)
        #expect(saturday.width == 14 && saturday.height == 14)
        #expect(saturday.y - friday.y == 17 && saturday.x == friday.x)
        #expect(sunday.x - saturday.x == 17 && saturday.y - sunday.y == 6 * 17)
        #expect(svg.contains("<title>Thursday, 2 November 2023: partial, under 1/3, 20 of 100 points, 1 session</title>"))
        #expect(try fill(ofDay: "2023-11-05", in: svg) == "#0A5C45")
        #expect(svg.contains("stroke=\"#1D1D1F\" stroke-width=\"2\"/></g>"))  // today
        #expect(svg.contains(">Less</text>") && svg.contains(">More</text>") && svg.contains(">today</text>"))
        #expect(!svg.contains("id=\"day-2023-10-31\"") && !svg.contains("id=\"day-2024-03-11\""))
    }

    @Test("HTML: the heatmap first, cells in week order, months on demand, cards on :target (no script)")
    func html() throws {
        let report = patternReport(from: winter.first, to: winter.last)
        let sessions = patternSessions(from: winter.first, to: winter.last)
        let html = HTMLReport(report: report, sessions: sessions, sources: sources, diagnostics: diagnostics, view: .year, today: winter.last).render()
        try assertSnapshot(html, named: "year-winter.html")
        for external in ["<script", "<link", "src=", "url(", "@import", "http://", "https://"] {
            #expect(!html.contains(external), "no external assets or scripts: \(external)")
        }
        #expect(html.contains("<main class=\"long\">"))
        let heatmap = try #require(html.range(of: "<figure class=\"year\" id=\"year-2023\""))
        let months = try #require(html.range(of: "<details class=\"year-months\"><summary>2023: 2 months"))
        let cards = try #require(html.range(of: "<h2 id=\"sessions\">Sessions</h2>"))
        #expect(heatmap.lowerBound < months.lowerBound && months.lowerBound < cards.lowerBound)
        // Every cell of a year's grid, in week order: a day of the window is a link or an <i> with a title.
        for year in [2023, 2024] {
            let grid = YearGrid(year: year)
            let start = try #require(html.range(of: "<figure class=\"year\" id=\"year-\(year)\""))
            let hm = try #require(html.range(of: "<div class=\"hm\">", range: start.upperBound..<html.endIndex))
            let end = try #require(html.range(of: "</div>", range: hm.upperBound..<html.endIndex))
            let cells = html[hm.upperBound..<end.lowerBound].matches(of: /<(a|i) class="([^"]*)"(?: href="#s-([0-9-]+)")?(?: title="([^"]*)")?><\/\1>/)
            #expect(cells.count == grid.weekCount * 7)
            for (index, cell) in cells.enumerated() {
                let day = grid.day(week: index / 7, row: index % 7)
                if let day, report.total(on: day) != nil {
                    #expect(cell.output.4.map(String.init)?.hasPrefix(CalendarNamesForTests.dayMonthYear(day)) == true, "\(day)")
                    if let link = cell.output.3 { #expect(String(link) == day.description) }
                } else {
                    #expect(cell.output.2 == "x")
                }
            }
        }
        // Cards are hidden until their day is opened; each card day has a cell that links to it.
        #expect(html.contains(".long .cards-day { display: none; }\n.long .cards-day:target { display: block; }"))
        let cardDays = html.matches(of: /<section class="cards-day" id="s-([0-9-]+)">/).map { String($0.output.1) }
        #expect(cardDays.count == sessions.count)
        for day in cardDays { #expect(html.contains("href=\"#s-\(day)\" title=\"")) }
        #expect(html.contains("<td class=\"p0 t\">") || html.contains("t\" href=\"#s-2024-03-10\""))
        // The phone layout: weeks become rows below 40rem.
        #expect(html.contains("@media (max-width: 40rem)") && html.contains("grid-auto-flow: row;"))
    }

    @Test("HTML of ten years stays under a megabyte, the cards of the latest days within their budget")
    func tenYears() throws {
        let first = try! Day(year: 2015, month: 1, day: 1), last = try! Day(year: 2024, month: 12, day: 31)
        let report = patternReport(from: first, to: last)
        // Three sessions on each day with points, with summaries as long as real ones.
        let sessions = (0..<3).flatMap { copy in
            patternSessions(from: first, to: last) { "Scales, arpeggios and sight reading, part \(copy) of day \($0) — \(String(repeating: "é", count: 20))" }
        }
        let html = HTMLReport(report: report, sessions: sessions).render()
        #expect(html.utf8.count < 1_000_000, "\(html.utf8.count) bytes")
        let cards = html.matches(of: /<section class="cards-day" id="s-([0-9-]+)">/).map { String($0.output.1) }
        #expect(!cards.isEmpty)
        #expect(cards.last == "2024-12-31")
        let cardBytes = html.matches(of: /<section class="cards-day".*?<\/section>/.dotMatchesNewlines()).reduce(0) { $0 + $1.output.utf8.count }
        #expect(cardBytes <= HTMLReport.cardBudget + 1_000)
        #expect(html.contains("The page keeps the cards of the days from \(cards[0]) on") || html.contains("<time datetime=\"\(cards[0])\">"))
        #expect(html.components(separatedBy: "<figure class=\"year\"").count - 1 == 10)
        #expect(html.components(separatedBy: "<details class=\"year-months\">").count - 1 == 10)
    }

    @Test("Several years of a habit are drawn in its own section with its own ids")
    func habits() throws {
        let report = patternReport(from: winter.first, to: winter.last)
        // The habit's days differ from the calendar's (a habit that took every session is one line).
        var habitReport = report
        habitReport.days[0].points += 1
        let habit = HabitReport(habit: try Habit(parsing: "Scales=summary:Practice"), report: habitReport)
        let svg = SVGReport(report: report, habits: [habit]).render()
        #expect(svg.contains("id=\"habit1-year-2024\"") && svg.contains("id=\"habit1-day-2024-01-01\""))
        let html = HTMLReport(report: report, sessions: [], habits: [habit]).render()
        #expect(html.contains("id=\"h1-year-2024\""))
        let text = TextReport(report: report).render()
        #expect(text.contains("\n2023\n") && text.contains("\n2024\n"))
    }
}

/// The heatmap titles' date form, "2 Nov 2023".
enum CalendarNamesForTests {
    static func dayMonthYear(_ day: Day) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let (year, month, dayOfMonth) = day.components
        return "\(dayOfMonth) \(months[month - 1]) \(year)"
    }
}
