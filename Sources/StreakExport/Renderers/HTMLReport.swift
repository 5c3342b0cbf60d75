import CalendarLayout
public import Streaks

/// A streak report as one self-contained HTML page: figures, legend, month grids and session cards.
///
/// The page has no external assets and no script; CSS is inline. Month grids are tables (a caption,
/// weekday column headers) whose cells are coloured by the presentation rules and also carry the
/// rule's mark and, for screen readers, its label and the day's points, so status never rests on
/// colour alone. A day with sessions links to its cards further down, which list the sessions in
/// start order with their points and local times, as the tutorial's session cards do. The layout
/// is one column on a phone (375 px) and several months side by side on a desktop. Every piece of
/// text from the calendar (summaries, ids, zone names, labels) is escaped.
///
/// Each day cell of a month has the id `d-YYYY-MM-DD` and each day's cards `s-YYYY-MM-DD`, so tools
/// can find them.
///
/// ```swift
/// let html = HTMLReport(report: report, sessions: sessions).render()
/// // <!DOCTYPE html>
/// // <html lang="en">
/// // ...
/// // <td id="d-2024-02-20" class="p0" title="Tuesday, 20 February 2024: met, 100 of 100 points, 1 session">...
/// ```
public struct HTMLReport: Sendable {
    /// The report to show.
    public var report: StreakReport
    /// The sessions behind the report; those whose day is in the window become session cards.
    public var sessions: [Session]
    /// How days look.
    public var rules: DayPresentationRules
    /// The first column of each week.
    public var firstWeekday: Weekday
    /// Named habits, each shown after the calendar as a section of figures and month grids (cell
    /// ids `hN-d-YYYY-MM-DD`).
    public var habits: [HabitReport]

    public init(
        report: StreakReport, sessions: [Session], rules: DayPresentationRules = .standard, firstWeekday: Weekday = .sunday,
        habits: [HabitReport] = []
    ) {
        self.report = report
        self.habits = habits
        self.sessions = sessions
        self.rules = rules
        self.firstWeekday = firstWeekday
    }

    /// The page, ending with a newline.
    public func render() -> String {
        let styles = PresentationClasses(reports: [report] + habits.map(\.report), rules: rules)
        let range = "\(report.from) to \(report.to)"
        var html: [String] = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>Streak report: \(range)</title>",
            "<style>",
            HTMLReport.baseStyle,
        ]
        html.append(contentsOf: styles.css)
        html.append(contentsOf: ["</style>", "</head>", "<body>", "<main>", "<h1>Streak report</h1>"])
        html.append("<dl class=\"figures\">")
        for row in ReportFigures(report).rows {
            html.append("<div><dt>\(Markup.escape(row.name))</dt><dd>\(HTMLReport.markingDates(in: Markup.escape(row.value)))</dd></div>")
        }
        html.append("</dl>")
        if let periodGoal = report.rules.periodGoal {
            html.append("<h2 id=\"periods\">Periods (\(Markup.escape(periodGoal.description)))</h2>")
            html.append("<table class=\"periods\"><thead><tr><th scope=\"col\">Period</th><th scope=\"col\">Progress</th><th scope=\"col\">Status</th></tr></thead><tbody>")
            for period in ReportFigures.periodRows(report) {
                let presentation = DayPresentation.standard(for: period.status)
                html.append("<tr><td>\(period.days)</td><td>\(period.progress)</td><td class=\"\(styles.name(of: presentation))\">\(Markup.escape(String(presentation.mark))) \(period.status.rawValue)</td></tr>")
            }
            html.append("</tbody></table>")
        }
        html.append("<h2 id=\"calendar\">Calendar</h2>")
        html.append("<ul class=\"legend\" aria-label=\"Legend\">")
        for presentation in rules.legend(for: report) {
            html.append("<li><span class=\"swatch \(styles.name(of: presentation))\" aria-hidden=\"true\">\(Markup.escape(String(presentation.mark)))</span>\(Markup.escape(presentation.label))</li>")
        }
        html.append("</ul>")
        let cardsByDay = sessionCards()
        html.append("<div class=\"months\">")
        for month in report.months {
            html.append(contentsOf: monthTable(month, of: report, idPrefix: "", styles: styles, daysWithCards: Set(cardsByDay.map(\.day))))
        }
        html.append("</div>")
        for (index, habit) in habits.enumerated() {
            html.append("<section class=\"habit\" id=\"habit-\(index + 1)\">")
            html.append("<h2>Habit: \(Markup.escape(habit.habit.name))</h2>")
            html.append("<p>Sessions that count: <code>\(Markup.escape(habit.habit.filter.description))</code></p>")
            html.append("<dl class=\"figures\">")
            for row in ReportFigures(habit.report).rows {
                html.append("<div><dt>\(Markup.escape(row.name))</dt><dd>\(HTMLReport.markingDates(in: Markup.escape(row.value)))</dd></div>")
            }
            html.append("</dl>")
            html.append("<div class=\"months\">")
            for month in habit.report.months {
                html.append(contentsOf: monthTable(month, of: habit.report, idPrefix: "h\(index + 1)-", styles: styles, daysWithCards: []))
            }
            html.append("</div>")
            html.append("</section>")
        }
        html.append("<h2 id=\"sessions\">Sessions</h2>")
        if cardsByDay.isEmpty {
            html.append("<p>No sessions from \(report.from) to \(report.to).</p>")
        }
        for cards in cardsByDay {
            html.append(contentsOf: section(for: cards, styles: styles))
        }
        html.append(contentsOf: ["</main>", "</body>", "</html>"])
        return html.joined(separator: "\n") + "\n"
    }

    /// The session cards of each day of the window that has sessions, in day order.
    func sessionCards() -> [SessionCards] {
        let goal = report.goal
        var byDay: [Day: [Session]] = [:]
        for session in sessions {
            let day = session.day(in: goal.timeZone, dayStart: goal.dayStart)
            guard report.total(on: day) != nil else { continue }
            byDay[day, default: []].append(session)
        }
        return byDay.keys.sorted().map { SessionCards(day: $0, goal: goal, from: byDay[$0] ?? [], total: report.total(on: $0)) }
    }

    private func monthTable(
        _ month: CalendarMonth, of report: StreakReport, idPrefix: String, styles: PresentationClasses, daysWithCards: Set<Day>
    ) -> [String] {
        let grid = MonthGrid(month: month, firstWeekday: firstWeekday, outOfMonthDays: .hidden)
        var html = ["<table class=\"month\">", "<caption>\(CalendarNames.title(of: month))</caption>", "<thead><tr>"]
        for column in 0..<7 {
            let weekday = firstWeekday.advanced(by: column).rawValue
            html.append("<th scope=\"col\" abbr=\"\(CalendarNames.weekdays[weekday])\">\(CalendarNames.weekdayAbbreviations[weekday])</th>")
        }
        html.append("</tr></thead>")
        html.append("<tbody>")
        for week in grid.weeks {
            var row = "<tr>"
            for cell in week {
                guard cell.isInMonth else {
                    row += "<td></td>"
                    continue
                }
                let day = cell.day
                let presentation = rules.presentation(of: day, in: report)
                let number = "<span class=\"n\">\(day.dayOfMonth)</span>"
                let mark = "<span class=\"m\" aria-hidden=\"true\">\(Markup.escape(String(presentation.mark)))</span>"
                guard let total = report.total(on: day) else {
                    row += "<td id=\"\(idPrefix)d-\(day)\" class=\"\(styles.name(of: presentation))\"><span class=\"day\">\(number)\(mark)</span></td>"
                    continue
                }
                let description = "\(presentation.label), \(pointsText(total))"
                let content = "\(number)\(mark)<span class=\"sr\">: \(Markup.escape(description))</span>"
                let title = Markup.escape("\(CalendarNames.long(day)): \(description)")
                let body = daysWithCards.contains(day)
                    ? "<a class=\"day\" href=\"#s-\(day)\">\(content)</a>"
                    : "<span class=\"day\">\(content)</span>"
                row += "<td id=\"\(idPrefix)d-\(day)\" class=\"\(styles.name(of: presentation))\" title=\"\(title)\">\(body)</td>"
            }
            html.append(row + "</tr>")
        }
        html.append(contentsOf: ["</tbody>", "</table>"])
        return html
    }

    private func section(for cards: SessionCards, styles: PresentationClasses) -> [String] {
        let day = cards.day
        let presentation = rules.presentation(of: day, in: report)
        let total = report.total(on: day)
        let summary = total.map { "\(presentation.label), \(pointsText($0))" } ?? ""
        var html = [
            "<section class=\"cards-day\" id=\"s-\(day)\" aria-labelledby=\"s-\(day)-title\">",
            "<h3 id=\"s-\(day)-title\"><span class=\"swatch \(styles.name(of: presentation))\" aria-hidden=\"true\">"
                + "\(Markup.escape(String(presentation.mark)))</span> \(CalendarNames.long(day))"
                + " <span class=\"sub\">\(Markup.escape(summary))</span></h3>",
            "<ol class=\"cards\">",
        ]
        for session in cards.sessions {
            let title = session.summary.isEmpty ? session.id : session.summary
            let time = cards.timeRange(of: session).trimmingTrailingSpaces()
            html.append("<li class=\"card\"><p class=\"pill\">Points: \(session.points)</p>"
                + "<p class=\"pill\">\(Markup.escape(time))</p><p class=\"title\">\(Markup.escape(title))</p></li>")
        }
        html.append(contentsOf: ["</ol>", "</section>"])
        return html
    }

    /// Escaped `text` with each `YYYY-MM-DD` in a `<time>` element (which does not break at its hyphens).
    static func markingDates(in text: String) -> String {
        text.replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2}/) { match in "<time datetime=\"\(match.output)\">\(match.output)</time>" }
    }

    private func pointsText(_ total: DayTotal) -> String {
        let sessions = "\(total.sessions) \(total.sessions == 1 ? "session" : "sessions")"
        return total.required == 0 ? "\(total.points) points, none required, \(sessions)" : "\(total.points) of \(total.required) points, \(sessions)"
    }

    static let baseStyle = """
        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        body { margin: 0; background: #FFFFFF; color: #1D1D1F; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.5rem; margin: 0 0 1rem; }
        h2 { font-size: 1.25rem; margin: 1.5rem 0 .75rem; }
        h3 { font-size: 1rem; margin: 0 0 .5rem; display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; }
        .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr)); gap: .5rem; margin: 0; }
        .figures div { background: #F2F2F7; border-radius: .5rem; padding: .5rem .75rem; }
        .figures dt { font-size: .8125rem; color: #3A3A3C; }
        .figures dd { margin: 0; font-weight: 600; }
        .legend { list-style: none; margin: 0 0 1rem; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
        .legend li { display: flex; align-items: center; gap: .4rem; }
        .swatch { display: inline-flex; align-items: center; justify-content: center; width: 1.5rem; height: 1.5rem; border-radius: .375rem; font-size: .875rem; line-height: 1; flex: none; }
        .months { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr)); gap: 1.5rem; align-items: start; }
        table.month { width: 100%; table-layout: fixed; border-collapse: separate; border-spacing: 3px; }
        .month caption { font-weight: 600; font-size: 1.0625rem; text-align: left; padding: 0 3px .25rem; }
        .month th { font-size: .8125rem; font-weight: 600; color: #3A3A3C; padding: .25rem 0; }
        .month td { padding: 0; text-align: center; vertical-align: middle; border-radius: .5rem; font-variant-numeric: tabular-nums; }
        .month .day { display: block; padding: .3rem 0; color: inherit; text-decoration: none; border-radius: .5rem; }
        .month a.day:focus-visible { outline: 3px solid #0A5CA8; outline-offset: 2px; }
        .n { display: block; font-weight: 600; }
        .m { display: block; font-size: .75rem; line-height: 1.2; min-height: 1.2em; }
        .sr { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
        .cards-day { margin: 0 0 1.25rem; padding: .5rem; border-radius: .75rem; }
        .cards-day:target { outline: 3px solid #0A5CA8; }
        .sub { font-weight: 400; color: #3A3A3C; }
        .cards { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 1rem; }
        .card { background: #E5E5EA; border-radius: .625rem; padding: .75rem 1rem; min-width: 10rem; }
        .card p { margin: .3rem 0; }
        .pill { background: #FFFFFF; border-radius: .625rem; padding: .125rem .5rem; display: table; font-variant-numeric: tabular-nums; }
        time { white-space: nowrap; }
        .card .title { overflow-wrap: anywhere; }
        """
}

/// A CSS class per distinct presentation a page uses: `p0`, `p1`, … in order of first use (legend
/// first, then the days, then days outside the window), so the same input gives the same page.
struct PresentationClasses {
    private(set) var ordered: [DayPresentation] = []
    private var names: [DayPresentation: String] = [:]

    init(reports: [StreakReport], rules: DayPresentationRules) {
        for report in reports {
            for presentation in rules.legend(for: report) { add(presentation) }
        }
        for report in reports {
            for total in report.days { add(rules.presentation(for: total)) }
        }
        add(rules.outsideWindow)
        for report in reports {
            for period in report.periods { add(.standard(for: period.status)) }
        }
    }

    private mutating func add(_ presentation: DayPresentation) {
        guard names[presentation] == nil else { return }
        names[presentation] = "p\(ordered.count)"
        ordered.append(presentation)
    }

    /// The class of `presentation` (every presentation the page shows has one).
    func name(of presentation: DayPresentation) -> String {
        names[presentation] ?? "p0"
    }

    /// One rule per class.
    var css: [String] {
        ordered.enumerated().map { index, presentation in
            let border = presentation.fill.contrastRatio(with: .white) < 1.5 ? " box-shadow: inset 0 0 0 1px #C7C7CC;" : ""
            return ".p\(index) { background: \(presentation.fill); color: \(presentation.text);\(border) }"
        }
    }
}

extension String {
    /// The string without trailing spaces.
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
