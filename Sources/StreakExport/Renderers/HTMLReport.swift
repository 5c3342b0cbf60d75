import CalendarLayout
package import CalendarDiagnostics
package import Streaks

/// A streak report as one self-contained HTML page: a heading that names the calendars, the
/// figures, the diagnostics, the days, and session cards.
///
/// The page has no external assets and no script; CSS is inline, with a dark mode
/// (`prefers-color-scheme: dark`) from the palette. Every day cell is coloured by the presentation
/// rules and also carries the rule's mark or, in the heatmap, a title with its status in words, so
/// status never rests on colour alone. Every piece of text from the calendar (names, summaries,
/// ids, zone names, labels, messages) is escaped.
///
/// Two views (``ReportView``):
/// - **month** (windows up to about three months): month grids as tables (a caption, weekday
///   column headers), each day linking to its session cards further down, which list the sessions
///   in start order with their points and local times, as the tutorial's session cards do.
/// - **year** (longer windows): a heatmap per calendar year first (a column per week; on a phone,
///   a row per week), then each year's month grids in a `details` element, opened on demand; a
///   day's session cards show only when the reader opens that day (its cell links to them and CSS
///   `:target` shows them). The cards cover the most recent days that fit ``cardBudget`` bytes,
///   so that a ten-year report stays well under a megabyte.
///
/// Each day cell of a month has the id `d-YYYY-MM-DD` (`y-YYYY-MM-DD` in a heatmap) and each day's
/// cards `s-YYYY-MM-DD`, so tools can find them. Diagnostics are a collapsible list after the figures.
///
/// ```swift
/// let html = HTMLReport(report: report, sessions: sessions, sources: [ReportSource(file: "piano.ics")]).render()
/// // <!DOCTYPE html>
/// // <html lang="en">
/// // ...
/// // <title>Streak report: piano, 2024-02-20 to 2024-02-29</title>
/// // ...
/// // <td id="d-2024-02-20" class="p0" title="Tuesday, 20 February 2024: met, 100 of 100 points, 1 session">...
/// ```
package struct HTMLReport: Sendable {
    /// The report to show.
    package var report: StreakReport
    /// The sessions behind the report; those whose day is in the window become session cards.
    package var sessions: [Session]
    /// How days look.
    package var rules: DayPresentationRules
    /// The first column of each week (the first row of a heatmap).
    package var firstWeekday: Weekday
    /// Named habits: side by side first (the habits overview, a row each), then each after the
    /// calendar as a section of figures and days (cell ids `hN-d-YYYY-MM-DD`).
    package var habits: [HabitReport]
    /// With habits, the sessions none of them took and their most frequent summaries, said after
    /// the habits' sections.
    package var unmatched: (sessions: Int, summaries: [SummaryCount]) = (0, [])
    /// The calendars the report is about: named in the title, the heading and the figures.
    package var sources: [ReportSource]
    /// What the import said: a collapsible list after the figures.
    package var diagnostics: [Diagnostic]
    /// Month grids, or heatmaps (`nil`: ``ReportView/automatic(for:today:)``).
    package var view: ReportView?
    /// Today, outlined when it is in the window.
    package var today: Day?
    /// The page's colours in light and dark mode (the days' come from `rules`).
    package var palette: ReportPalette

    package init(
        report: StreakReport, sessions: [Session], rules: DayPresentationRules = .standard, firstWeekday: Weekday = .sunday,
        habits: [HabitReport] = [], sources: [ReportSource] = [], diagnostics: [Diagnostic] = [], view: ReportView? = nil,
        today: Day? = nil, palette: ReportPalette = .standard
    ) {
        self.report = report
        self.habits = habits
        self.sessions = sessions
        self.rules = rules
        self.firstWeekday = firstWeekday
        self.sources = sources
        self.diagnostics = diagnostics
        self.view = view
        self.today = today
        self.palette = palette
    }

    /// In the year view, how many bytes of session cards the page holds at most: those of the most
    /// recent days, a day's sessions all or none (at least one day's).
    package static let cardBudget = 256 * 1_024
    /// In the year view, the longest summary a card shows (longer ones are cut with `…`).
    static let longestCardTitle = 120

    private var resolvedView: ReportView { view ?? .automatic(for: report, today: today) }

    /// The page, ending with a newline.
    package func render() -> String {
        let year = resolvedView.drawsHeatmaps
        let styles = PresentationClasses(reports: [report] + habits.map(\.report), rules: rules)
        let heading = ReportHeading(sources: sources, report: report)
        let cards = sessionCards()
        let daysWithCards = Set(cards.cards.map(\.day))
        var html: [String] = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta name=\"color-scheme\" content=\"light dark\">",
            "<title>\(Markup.escape(heading.title))</title>",
            "<style>",
            pageStyle(),
            HTMLReport.baseStyle,
        ]
        if year { html += [HTMLReport.yearStyle, chartStyle()] }
        if !habits.isEmpty { html.append(HTMLReport.habitsStyle) }
        html.append(contentsOf: styles.css(palette: palette, compactMonths: year))
        html.append(contentsOf: ["</style>", "</head>", "<body>", "<main class=\"\(year ? "long" : "short")\">"])
        html.append("<h1>\(Markup.escape(heading.subject.map { "Streak report: \($0)" } ?? "Streak report"))</h1>")
        // The habits side by side come first, as Loop's home screen does: on a phone the calendar's
        // sections above them took 3,300 pixels (issue 46.8).
        if !habits.isEmpty { html.append(contentsOf: habitsOverview(styles: styles)) }
        html.append(contentsOf: figures(of: report, sources: sources))
        if let note = ReportView.drawingNote(for: report) {
            html.append("<p class=\"hint\">\(HTMLReport.markingDates(in: Markup.escape("Note: " + note + ".")))</p>")
        }
        html.append(contentsOf: diagnosticList())
        if let periodGoal = report.rules.periodGoal, !periodGoal.isRolling {
            html.append("<h2 id=\"periods\">Periods (\(Markup.escape(periodGoal.description)))</h2>")
            html.append("<table class=\"periods\"><thead><tr><th scope=\"col\">Period</th><th scope=\"col\">Progress</th><th scope=\"col\">Status</th></tr></thead><tbody>")
            for period in ReportFigures.periodRows(report) {
                let presentation = rules.legend.first { $0.label == period.status.rawValue } ?? DayPresentation.standard(for: period.status)
                html.append("<tr><td>\(period.days)</td><td>\(period.progress)</td><td class=\"\(styles.name(of: presentation))\">\(Markup.escape(String(presentation.mark))) \(period.status.rawValue)</td></tr>")
            }
            html.append("</tbody></table>")
        }
        html.append(contentsOf: days(of: report, idPrefix: "", styles: styles, daysWithCards: daysWithCards))
        if year { html.append(contentsOf: progress()) }
        for (index, habit) in habits.enumerated() {
            html.append("<section class=\"habit\" id=\"habit-\(index + 1)\">")
            html.append("<h2>Habit: \(Markup.escape(habit.name))</h2>")
            html.append("<p>Sessions that count: <code>\(Markup.escape(habit.habit.filter.description))</code></p>")
            if habit.repeats(report) {
                html += ["<p>This habit \(HabitReport.repeatsCalendar) above.</p>", "</section>"]
                continue
            }
            html.append(contentsOf: figures(of: habit.report, sources: []))
            html.append(contentsOf: days(of: habit.report, idPrefix: "h\(index + 1)-", styles: styles, daysWithCards: []))
            html.append("</section>")
        }
        if !habits.isEmpty {
            html.append("<p class=\"unmatched\">" + ReportContent.unmatchedLine(sessions: unmatched.sessions, summaries: unmatched.summaries, escape: Markup.escape) + ".</p>")
        }
        html.append("<h2 id=\"sessions\">Sessions</h2>")
        if cards.cards.isEmpty {
            html.append("<p>No sessions from \(report.from) to \(report.to).</p>")
        } else if year {
            var note = "Choose a day in the year or in a month to see its sessions."
            if let first = cards.firstDayShown {
                note += " The page keeps the cards of the days from \(first) on;"
                    + " for an earlier day, make a report of its month (<code>--view month --from</code>)."
            }
            html.append("<p class=\"hint\">\(HTMLReport.markingDates(in: note))</p>")
        }
        for day in cards.cards {
            html.append(contentsOf: section(for: day, styles: styles, compact: year))
        }
        html.append(contentsOf: ["</main>", "</body>", "</html>"])
        return html.joined(separator: "\n") + "\n"
    }

    /// The figures as a definition list.
    private func figures(of report: StreakReport, sources: [ReportSource]) -> [String] {
        var html = ["<dl class=\"figures\">"]
        for row in ReportFigures(report, sources: sources, today: today).rows {
            html.append("<div><dt>\(Markup.escape(row.name))</dt><dd>\(HTMLReport.markingDates(in: Markup.escape(row.value)))</dd></div>")
        }
        html.append("</dl>")
        let best = ReportFigures.bestStreakRows(report)
        if !best.isEmpty {
            html.append("<table class=\"best\"><caption>Best streaks</caption><thead><tr><th scope=\"col\">#</th><th scope=\"col\">Length</th><th scope=\"col\">Days</th></tr></thead><tbody>")
            for row in best {
                html.append("<tr><td>\(row.rank)</td><td>\(row.length)</td><td>\(HTMLReport.markingDates(in: row.days))</td></tr>")
            }
            html.append("</tbody></table>")
        }
        return html
    }

    /// The diagnostics in a `details` element, closed: the count as its summary, one item each.
    private func diagnosticList() -> [String] {
        guard let summary = DiagnosticTally(diagnostics: diagnostics).summary else { return [] }
        var html = ["<details class=\"diagnostics\" id=\"diagnostics\">", "<summary>\(Markup.escape(summary))</summary>", "<ol>"]
        for diagnostic in diagnostics {
            html.append("<li class=\"\(diagnostic.severity.rawValue)\"><code>\(Markup.escape(diagnostic.location.description))</code> "
                + "<strong>\(diagnostic.severity.rawValue)</strong>: \(Markup.escape(diagnostic.message))</li>")
        }
        html += ["</ol>", "</details>"]
        return html
    }

    /// A report's days: month grids, or a heatmap per year and the months on demand.
    private func days(of report: StreakReport, idPrefix: String, styles: PresentationClasses, daysWithCards: Set<Day>) -> [String] {
        var html: [String] = []
        if resolvedView == .hours {
            let scale = rules.intensityLegend(for: report).scale
            let hours = HoursView(hours: report.weekdayHours ?? WeekdayHours(), zone: report.goal.timeZone.identifier)
            return hours.htmlLines { level in scale.isEmpty ? "p0" : styles.name(of: scale[min(level, scale.count - 1)]) }
        }
        guard resolvedView.drawsHeatmaps else {
            html.append("<h2 id=\"\(idPrefix)calendar\">Calendar</h2>")
            html.append(contentsOf: legend(rules.legend(for: report), styles: styles))
            html.append("<div class=\"months\">")
            for month in ReportView.drawnMonths(of: report) {
                html.append(contentsOf: monthTable(month, of: report, idPrefix: idPrefix, styles: styles, daysWithCards: daysWithCards, compact: false))
            }
            html.append("</div>")
            return html
        }
        let (scale, others) = rules.intensityLegend(for: report)
        html.append("<h2 id=\"\(idPrefix)year\">\(resolvedView == .rolling ? "The last year" : "Year by year")</h2>")
        var items = ["<li class=\"word\">Less</li>"]
        items += scale.map { "<li><span class=\"swatch \(styles.name(of: $0))\" title=\"\(Markup.escape($0.label))\" aria-hidden=\"true\">\(Markup.escape(String($0.mark)))</span><span class=\"sr\">\(Markup.escape($0.label))</span></li>" }
        items.append("<li class=\"word\">More</li>")
        items += others.map { "<li><span class=\"swatch \(styles.name(of: $0))\" aria-hidden=\"true\">\(Markup.escape(String($0.mark)))</span>\(Markup.escape($0.label))</li>" }
        if let today, report.total(on: today) != nil {
            items.append("<li><span class=\"swatch today\" aria-hidden=\"true\"></span>today</li>")
        }
        html.append("<ul class=\"legend\" aria-label=\"Legend\">" + items.joined() + "</ul>")
        html.append("<p class=\"scale\">" + scale.map { "\(Markup.escape(String($0.mark))) \(Markup.escape($0.label))" }.joined(separator: " · ") + "</p>")
        let years = ReportView.drawnYears(of: report)
        for heatmap in resolvedView.heatmaps(of: report, firstWeekday: firstWeekday) {
            html.append(contentsOf: self.heatmap(heatmap, of: report, idPrefix: idPrefix, styles: styles, daysWithCards: daysWithCards))
        }
        html.append("<h2 id=\"\(idPrefix)months\">Months</h2>")
        let monthsByYear = Dictionary(grouping: ReportView.drawnMonths(of: report), by: \.year)
        // Met days counted per year in one pass over the days (once per year, it was quadratic in the window).
        var metByYear: [Int: Int] = [:]
        for day in report.days where day.status == .met { metByYear[day.date.year, default: 0] += 1 }
        for year in years {
            let months = monthsByYear[year] ?? []
            let met = metByYear[year] ?? 0
            html.append("<details class=\"year-months\"><summary>\(year): \(months.count) \(months.count == 1 ? "month" : "months"), \(met) \(met == 1 ? "day" : "days") met</summary>")
            html.append("<div class=\"months\">")
            for month in months {
                html.append(contentsOf: monthTable(month, of: report, idPrefix: idPrefix, styles: styles, daysWithCards: daysWithCards, compact: true))
            }
            html.append("</div></details>")
        }
        return html
    }

    private func legend(_ presentations: [DayPresentation], styles: PresentationClasses) -> [String] {
        var html = ["<ul class=\"legend\" aria-label=\"Legend\">"]
        for presentation in presentations {
            html.append("<li><span class=\"swatch \(styles.name(of: presentation))\" aria-hidden=\"true\">\(Markup.escape(String(presentation.mark)))</span>\(Markup.escape(presentation.label))</li>")
        }
        html.append("</ul>")
        return html
    }

    /// One heatmap (a year's, or the rolling weeks'): its cells in week order (a column per week on
    /// a wide screen, a row per week on a narrow one, by CSS alone), month and weekday labels beside them.
    private func heatmap(
        _ heatmap: (grid: YearGrid, title: String, id: String), of report: StreakReport, idPrefix: String, styles: PresentationClasses,
        daysWithCards: Set<Day>
    ) -> [String] {
        let grid = heatmap.grid
        var html = [
            "<figure class=\"year\" id=\"\(idPrefix)\(heatmap.id)\" style=\"--w:\(grid.weekCount)\">",
            "<figcaption>\(Markup.escape(heatmap.title))</figcaption>",
        ]
        var months = "<div class=\"ml\" aria-hidden=\"true\">"
        let columns = grid.monthColumns
        // A label that would run into the next one (a rolling grid's first, partial month) is left out.
        for (index, (month, week)) in columns.enumerated() where index + 1 == columns.count || columns[index + 1].week >= week + 4 {
            months += "<span style=\"--c:\(week + 1)\">\(CalendarNames.months[month - 1].prefix(3))</span>"
        }
        html.append(months + "</div>")
        html.append("<div class=\"wl\" aria-hidden=\"true\">" + (0..<7).map { row in
            "<span>\(CalendarNames.weekdays[grid.weekday(ofRow: row).rawValue].prefix(3))</span>"
        }.joined() + "</div>")
        var cells = "<div class=\"hm\">"
        for week in 0..<grid.weekCount {
            for row in 0..<7 {
                guard let day = grid.day(week: week, row: row), let total = report.total(on: day) else {
                    cells += "<i class=\"x\"></i>"
                    continue
                }
                // Cells are found by their place (week × 7 + row); a title says the day in words.
                let presentation = rules.presentation(for: total)
                let title = Markup.escape("\(CalendarNames.dayMonthYear(day)): \(total.status.rawValue), \(pointsText(total, brief: true))")
                let classes = styles.name(of: presentation) + (day == today ? " t" : "")
                if daysWithCards.contains(day) {
                    cells += "<a class=\"\(classes)\" href=\"#s-\(day)\" title=\"\(title)\"></a>"
                } else {
                    cells += "<i class=\"\(classes)\" title=\"\(title)\"></i>"
                }
            }
        }
        html.append(cells + "</div>")
        html.append("</figure>")
        return html
    }

    /// The session cards of each day of the window that has sessions, in day order; in the year
    /// view only the most recent days that fit ``cardBudget``.
    func sessionCards() -> (cards: [SessionCards], firstDayShown: Day?) {
        let goal = report.goal
        var byDay: [Day: [Session]] = [:]
        for session in sessions {
            let day = session.day(in: goal.timeZone, dayStart: goal.dayStart)
            guard report.total(on: day) != nil else { continue }
            byDay[day, default: []].append(session)
        }
        var days = byDay.keys.sorted()
        var firstShown: Day?
        if resolvedView.drawsHeatmaps {
            var bytes = 0
            var kept: [Day] = []
            for day in days.reversed() {
                // A day's heading, and per session its points, times and (cut) summary.
                bytes += 180 + (byDay[day] ?? []).reduce(0) { total, session in
                    total + 40 + min(4 * HTMLReport.longestCardTitle, (session.summary.isEmpty ? session.id : session.summary).utf8.count)
                }
                if bytes > HTMLReport.cardBudget, !kept.isEmpty { break }
                kept.append(day)
            }
            if kept.count < days.count { firstShown = kept.last }
            days = kept.reversed()
        }
        return (days.map { SessionCards(day: $0, goal: goal, from: byDay[$0] ?? [], total: report.total(on: $0)) }, firstShown)
    }

    private func monthTable(
        _ month: CalendarMonth, of report: StreakReport, idPrefix: String, styles: PresentationClasses, daysWithCards: Set<Day>,
        compact: Bool
    ) -> [String] {
        let grid = MonthGrid(month: month, firstWeekday: firstWeekday, outOfMonthDays: .hidden)
        var html = ["<table class=\"month\">", "<caption>\(CalendarNames.title(of: month))</caption>", "<thead><tr>"]
        if compact {
            html[2] += (0..<7).map { "<th>\(CalendarNames.weekdayAbbreviations[firstWeekday.advanced(by: $0).rawValue])</th>" }.joined()
        } else {
            for column in 0..<7 {
                let weekday = firstWeekday.advanced(by: column).rawValue
                html.append("<th scope=\"col\" abbr=\"\(CalendarNames.weekdays[weekday])\">\(CalendarNames.weekdayAbbreviations[weekday])</th>")
            }
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
                let todayClass = day == today && report.total(on: day) != nil ? " t" : ""
                if compact {
                    // The year view's months: the mark comes from the class (CSS), the status in
                    // words from the heatmap's titles.
                    let body = daysWithCards.contains(day) ? "<a href=\"#s-\(day)\">\(day.dayOfMonth)</a>" : "\(day.dayOfMonth)"
                    row += "<td class=\"\(styles.name(of: presentation))\(todayClass)\">\(body)</td>"
                    continue
                }
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
                row += "<td id=\"\(idPrefix)d-\(day)\" class=\"\(styles.name(of: presentation))\(todayClass)\" title=\"\(title)\">\(body)</td>"
            }
            html.append(row + "</tr>")
        }
        html.append(contentsOf: ["</tbody>", "</table>"])
        return html
    }

    private func section(for cards: SessionCards, styles: PresentationClasses, compact: Bool) -> [String] {
        let day = cards.day
        let presentation = rules.presentation(of: day, in: report)
        let total = report.total(on: day)
        let summary = total.map { "\(presentation.label), \(pointsText($0))" } ?? ""
        if compact {
            let brief = total.map { "\($0.status.rawValue), \(pointsText($0, brief: true))" } ?? ""
            var html = [
                "<section class=\"cards-day\" id=\"s-\(day)\"><h3><span class=\"swatch \(styles.name(of: presentation))\" aria-hidden=\"true\"></span>"
                    + "\(CalendarNames.short(day)) <span class=\"sub\">\(Markup.escape(brief))</span></h3><ol class=\"list\">",
            ]
            for session in cards.sessions {
                var title = session.summary.isEmpty ? session.id : session.summary
                if title.count > HTMLReport.longestCardTitle { title = String(title.prefix(HTMLReport.longestCardTitle - 1)) + "…" }
                html.append("<li><b>\(session.points)</b> \(Markup.escape(cards.timeRange(of: session).trimmingTrailingSpaces())) \(Markup.escape(title))</li>")
            }
            html.append("</ol></section>")
            return html
        }
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
            // A session of a day after today is planned: no points of it count yet.
            let points = cards.total?.status == .upcoming ? "planned" : report.goal.unit.describe(session.points)
            html.append("<li class=\"card\"><p class=\"pill\">\(Markup.escape(points))</p>"
                + "<p class=\"pill\">\(Markup.escape(time))</p><p class=\"title\">\(Markup.escape(title))</p></li>")
        }
        html.append(contentsOf: ["</ol>", "</section>"])
        return html
    }

    /// Escaped `text` with each `YYYY-MM-DD` in a `<time>` element (which does not break at its hyphens).
    static func markingDates(in text: String) -> String {
        text.replacing(/[0-9]{4}-[0-9]{2}-[0-9]{2}/) { match in "<time datetime=\"\(match.output)\">\(match.output)</time>" }
    }

    private func pointsText(_ total: DayTotal, brief: Bool = false) -> String {
        DayWords.points(total, unit: report.goal.unit, brief: brief, activeDays: report.rules.scoresActiveDays)
    }

    /// The progress charts (`ProgressCharts`), each an inline SVG drawn twice: for wide screens and,
    /// shown under 40rem instead, for phones, so that their text stays readable.
    private func progress() -> [String] {
        var html = ["<h2 id=\"progress\">Progress</h2>"]
        let paint = { (role: ProgressCharts.Role, isStroke: Bool) in "class=\"\(role.rawValue)\(isStroke ? "-s" : "")\"" }
        for (width, kind) in [(900, "wide"), (340, "narrow")] {
            let charts = ProgressCharts(report: report, width: width, firstWeekday: firstWeekday, paint: paint)
            for chart in [charts.scoreChart(top:), charts.weekBars(top:), charts.monthBars(top:), charts.weekdayChart(top:)] {
                let (elements, height) = chart(0)
                html.append("<figure class=\"chart \(kind)\"><svg viewBox=\"0 0 \(width) \(height)\" role=\"img\" font-family=\"inherit\">")
                html += elements
                html.append("</svg></figure>")
            }
        }
        return html
    }

    /// The colours of the charts: the palette's met fill for the data, the page's text for the rest.
    private func chartStyle() -> String {
        ":root { --data: \(palette.met.fill); }\n"
            + "@media (prefers-color-scheme: dark) { :root { --data: \(palette.met.darkFill ?? palette.met.fill); } }\n"
            + """
            .chart { margin: 0 0 1rem; } .chart svg { width: 100%; height: auto; display: block; }
            .chart.narrow { display: none; } @media (max-width: 40rem) { .chart.wide { display: none; } .chart.narrow { display: block; } }
            .c-data { fill: var(--data); } .c-data-s { stroke: var(--data); } .c-text { fill: var(--fg); } .c-goal-s { stroke: var(--fg); }
            .c-secondary { fill: var(--fg2); } .c-secondary-s { stroke: var(--fg2); }
            """
    }

    /// The habits side by side, as Loop's main screen: a row per habit, its last days as squares
    /// (30, or 7 on a phone), its current streak and its score.
    private func habitsOverview(styles: PresentationClasses) -> [String] {
        var html = ["<h2 id=\"habits\">Habits</h2>", "<table class=\"habits\"><tbody>"]
        for (index, habit) in habits.enumerated() {
            let days = habit.report.days.suffix(30)
            let cells = days.enumerated().map { offset, total in
                let presentation = rules.presentation(for: total)
                let title = Markup.escape("\(CalendarNames.dayMonthYear(total.date)): \(total.status.rawValue), \(pointsText(total, brief: true))")
                return "<i class=\"\(styles.name(of: presentation))\(total.date == today ? " t" : "")\(offset < days.count - 7 ? " old" : "")\" title=\"\(title)\"></i>"
            }.joined()
            html.append("<tr><th scope=\"row\"><a href=\"#habit-\(index + 1)\">\(Markup.escape(habit.name))</a></th><td class=\"days\">\(cells)</td>"
                + "<td class=\"figure\">streak \(habit.report.currentStreak.length) · score \(TextReport.percent(habit.report.score))</td></tr>")
        }
        html.append("</tbody></table>")
        return html
    }

    static let habitsStyle = """
        .habits { border-collapse: collapse; margin: 0 0 1rem; } .habits th, .habits td { padding: .25rem .5rem .25rem 0; text-align: left; white-space: nowrap; }
        .habits th { max-width: 10rem; overflow: hidden; text-overflow: ellipsis; } .habits th a { color: inherit; }
        .habits .days { display: flex; gap: 3px; } .habits .days i { width: 14px; height: 14px; border-radius: 3px; display: block; }
        .habits .days i.t { outline: 2px solid var(--today); outline-offset: 1px; }
        table.hours { border-spacing: 2px; font-size: 0.75rem; } table.hours td { width: 1.1rem; height: 1.1rem; border-radius: 3px; }
        table.hours th { font-weight: normal; color: var(--fg2); text-align: left; }
        @media (max-width: 40rem) { .habits .days i.old { display: none; } .habits th { max-width: 6rem; } .habits td.figure { white-space: normal; } }
        """

    /// The page's colours as CSS variables, light and (under `prefers-color-scheme: dark`) dark.
    private func pageStyle() -> String {
        func variables(_ page: ReportPalette.Page) -> String {
            "--bg: \(page.background); --fg: \(page.text); --fg2: \(page.secondaryText); --line: \(page.border); --today: \(page.today);"
                + " --panel: \(page.background.mixed(with: page.text, 0.06)); --card: \(page.background.mixed(with: page.text, 0.1));"
        }
        return ":root { color-scheme: light dark; \(variables(palette.page)) }\n"
            + "@media (prefers-color-scheme: dark) { :root { \(variables(palette.darkPage)) } }"
    }

    static let baseStyle = """
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.5rem; margin: 0 0 1rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.25rem; margin: 1.5rem 0 .75rem; }
        h3 { font-size: 1rem; margin: 0 0 .5rem; display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; }
        a { color: inherit; }
        .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr)); gap: .5rem; margin: 0; }
        .figures div { background: var(--panel); border-radius: .5rem; padding: .5rem .75rem; }
        .figures dt { font-size: .8125rem; color: var(--fg2); }
        .figures dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
        table.best { border-collapse: collapse; margin: .75rem 0 0; font-variant-numeric: tabular-nums; }
        .best caption { font-weight: 600; text-align: left; padding: 0 0 .25rem; }
        .best th { font-size: .8125rem; font-weight: 600; color: var(--fg2); text-align: left; }
        .best th, .best td { padding: .125rem .75rem .125rem 0; }
        .best td:nth-child(-n+2) { text-align: right; }
        .diagnostics { margin: 1rem 0 0; background: var(--panel); border-radius: .5rem; padding: .5rem .75rem; }
        .diagnostics summary { cursor: pointer; font-weight: 600; }
        .diagnostics ol { margin: .5rem 0 0; padding-left: 1.5rem; }
        .diagnostics li { margin: .25rem 0; overflow-wrap: anywhere; }
        .legend { list-style: none; margin: 0 0 1rem; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; }
        .legend li { display: flex; align-items: center; gap: .4rem; }
        .swatch { display: inline-flex; align-items: center; justify-content: center; width: 1.5rem; height: 1.5rem; border-radius: .375rem; font-size: .875rem; line-height: 1; flex: none; }
        .swatch.today { box-shadow: inset 0 0 0 2px var(--today); }
        .months { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr)); gap: 1.5rem; align-items: start; }
        table.month { width: 100%; table-layout: fixed; border-collapse: separate; border-spacing: 3px; }
        .month caption { font-weight: 600; font-size: 1.0625rem; text-align: left; padding: 0 3px .25rem; }
        .month th { font-size: .8125rem; font-weight: 600; color: var(--fg2); padding: .25rem 0; }
        .month td { padding: 0; text-align: center; vertical-align: middle; border-radius: .5rem; font-variant-numeric: tabular-nums; }
        .month .day { display: block; padding: .3rem 0; color: inherit; text-decoration: none; border-radius: .5rem; }
        .month a.day:focus-visible { outline: 3px solid var(--today); outline-offset: 2px; }
        .t { outline: 2px solid var(--today); outline-offset: 1px; }
        .n { display: block; font-weight: 600; }
        .m { display: block; font-size: .75rem; line-height: 1.2; min-height: 1.2em; }
        .sr { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
        .cards-day { margin: 0 0 1.25rem; padding: .5rem; border-radius: .75rem; }
        .cards-day:target { outline: 3px solid var(--today); }
        .sub { font-weight: 400; color: var(--fg2); }
        .cards { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 1rem; }
        .card { background: var(--card); border-radius: .625rem; padding: .75rem 1rem; min-width: 10rem; }
        .card p { margin: .3rem 0; }
        .pill { background: var(--bg); border-radius: .625rem; padding: .125rem .5rem; display: table; font-variant-numeric: tabular-nums; }
        time { white-space: nowrap; }
        .card .title { overflow-wrap: anywhere; }
        """

    /// What only the year view needs: the heatmaps (transposed on narrow screens), the compact
    /// months and the cards shown on demand.
    static let yearStyle = """
        .word, .scale, .hint { color: var(--fg2); }
        .scale { font-size: .875rem; margin: -.5rem 0 1rem; }
        figure.year { margin: 0 0 1.5rem; display: grid; grid-template-columns: 2.25rem minmax(0, 1fr); grid-template-areas: "cap cap" ". ml" "wl hm"; gap: 2px 4px; }
        .year figcaption { grid-area: cap; font-weight: 600; font-size: 1.0625rem; }
        .ml, .hm { display: grid; grid-template-columns: repeat(var(--w), minmax(0, 1fr)); gap: 3px; }
        .ml { grid-area: ml; font-size: .75rem; color: var(--fg2); }
        .ml span { grid-column: var(--c) / span 4; grid-row: 1; white-space: nowrap; }
        .wl { grid-area: wl; display: grid; grid-template-rows: repeat(7, minmax(0, 1fr)); gap: 3px; font-size: .6875rem; color: var(--fg2); align-items: center; }
        .wl span:nth-child(odd) { visibility: hidden; }
        .hm { grid-area: hm; grid-template-rows: repeat(7, auto); grid-auto-flow: column; }
        .hm > * { display: block; aspect-ratio: 1; border-radius: 2px; min-width: 0; }
        .hm a:focus-visible { outline: 2px solid var(--today); outline-offset: 1px; }
        .year-months { margin: 0 0 .75rem; }
        .year-months summary { cursor: pointer; font-weight: 600; padding: .25rem 0; }
        .long .month td { padding: .25rem 0; font-weight: 600; }
        .long .month td::after { display: block; font-weight: 400; font-size: .75rem; min-height: 1.2em; }
        .long .month td a { display: block; color: inherit; text-decoration: none; }
        .long .cards-day { display: none; }
        .long .cards-day:target { display: block; }
        .list { margin: 0; padding-left: 1.25rem; }
        .list li { overflow-wrap: anywhere; }
        @media (max-width: 40rem) {
          figure.year { grid-template-columns: 2.5rem minmax(0, 15rem); grid-template-areas: "cap cap" ". wl" "ml hm"; }
          .wl { grid-template-rows: none; grid-template-columns: repeat(7, minmax(0, 1fr)); text-align: center; }
          .wl span:nth-child(odd) { visibility: visible; }
          .ml { grid-template-columns: none; grid-template-rows: repeat(var(--w), minmax(0, 1fr)); }
          .ml span { grid-column: 1; grid-row: var(--c) / span 2; }
          .hm { grid-template-rows: none; grid-template-columns: repeat(7, minmax(0, 1fr)); grid-auto-flow: row; }
        }
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
            let (scale, others) = rules.intensityLegend(for: report)
            for presentation in scale + others { add(presentation) }
        }
        for report in reports {
            for total in report.days { add(rules.presentation(for: total)) }
        }
        add(rules.outsideWindow)
        for report in reports {
            for period in report.periods {
                add(rules.legend.first { $0.label == period.status.rawValue } ?? .standard(for: period.status))
            }
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

    /// One rule per class, light, then dark under `prefers-color-scheme: dark`: solid fills,
    /// outlines and hatches as the presentations say, a border where a fill is close to the page;
    /// with `compactMonths` (the year view), each class's mark after the day numbers of months.
    func css(palette: ReportPalette, compactMonths: Bool) -> [String] {
        func declarations(_ presentation: DayPresentation, fill: RGBColor, text: RGBColor, page: ReportPalette.Page) -> String {
            switch presentation.pattern {
            case .solid:
                // Every declaration is given in both modes, so that dark mode undoes a light border.
                let bordered = palette.bordersEveryCell || fill.contrastRatio(with: page.background) < 1.5
                return "background: \(fill); color: \(text); box-shadow: \(bordered ? "inset 0 0 0 1px \(page.border)" : "none");"
            case .outline:
                return "background: \(page.background); color: \(text); box-shadow: inset 0 0 0 2px \(fill);"
            case .hatched:
                return "background: repeating-linear-gradient(45deg, \(fill) 0 3px, \(page.background) 3px 6px); color: \(text); box-shadow: inset 0 0 0 1px \(fill);"
            }
        }
        var rules = ordered.enumerated().map { index, presentation in
            ".p\(index) { \(declarations(presentation, fill: presentation.fill, text: presentation.text, page: palette.page)) }"
        }
        // The year view's compact months show each day's mark from its class (hidden from screen
        // readers where CSS can say so: the heatmap's titles say the status in words).
        for (index, presentation) in ordered.enumerated() where compactMonths && presentation.mark != " " {
            let mark = PresentationClasses.cssString(String(presentation.mark))
            rules.append(".long .month td.p\(index)::after { content: \(mark); content: \(mark) / \"\"; }")
        }
        rules.append("@media (prefers-color-scheme: dark) {")
        for (index, presentation) in ordered.enumerated() {
            let (fill, text) = presentation.dark
            rules.append("  .p\(index) { \(declarations(presentation, fill: fill, text: text, page: palette.darkPage)) }")
        }
        rules.append("}")
        return rules
    }
}

extension PresentationClasses {
    /// `text` as a CSS string literal: quotes, backslashes, `<` and control characters escaped
    /// (`\3C `), so nothing in it can end the string or the style element.
    static func cssString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\", "<", ">", "&":
                result += "\\" + String(scalar.value, radix: 16, uppercase: true) + " "
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                result += "\\" + String(scalar.value, radix: 16, uppercase: true) + " "
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension RGBColor {
    /// This colour moved `fraction` (0–1) of the way toward `other`, channel by channel.
    func mixed(with other: RGBColor, _ fraction: Double) -> RGBColor {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * fraction).rounded()) }
        return RGBColor(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue))
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

/// The HTML format: the calendar's report (below), with a section per habit and the sessions' cards, which is why
/// it needs the sessions themselves; at most ``ReportView/maximumDrawnYears`` years are drawn.
///
/// A streak report as one self-contained HTML page: a heading that names the calendars, the
/// figures, the diagnostics, the days, and session cards.
///
/// The page has no external assets and no script; CSS is inline, with a dark mode
/// (`prefers-color-scheme: dark`) from the palette. Every day cell is coloured by the presentation
/// rules and also carries the rule's mark or, in the heatmap, a title with its status in words, so
/// status never rests on colour alone. Every piece of text from the calendar (names, summaries,
/// ids, zone names, labels, messages) is escaped.
///
/// Two views (``ReportView``):
/// - **month** (windows up to about three months): month grids as tables (a caption, weekday
///   column headers), each day linking to its session cards further down, which list the sessions
///   in start order with their points and local times, as the tutorial's session cards do.
/// - **year** (longer windows): a heatmap per calendar year first (a column per week; on a phone,
///   a row per week), then each year's month grids in a `details` element, opened on demand; a
///   day's session cards show only when the reader opens that day (its cell links to them and CSS
///   `:target` shows them). The cards cover the most recent days that fit 256 KiB,
///   so that a ten-year report stays well under a megabyte.
///
/// Each day cell of a month has the id `d-YYYY-MM-DD` (`y-YYYY-MM-DD` in a heatmap) and each day's
/// cards `s-YYYY-MM-DD`, so tools can find them. Diagnostics are a collapsible list after the figures.
public struct HTMLReportRenderer: ReportRenderer {
    public static let needsSessions = true
    public static let drawsDays = true
    public var presentation: ReportPresentation

    public init(presentation: ReportPresentation = ReportPresentation()) {
        self.presentation = presentation
    }

    public func render(_ content: ReportContent) -> String {
        var report = HTMLReport(
            report: content.report, sessions: content.sessions, rules: presentation.rules, firstWeekday: presentation.firstWeekday,
            habits: content.habits, sources: content.sources, diagnostics: content.diagnostics,
            view: presentation.view ?? .automatic(for: content.report, today: content.today), today: content.today, palette: presentation.palette)
        report.unmatched = (content.unmatchedSessions, content.unmatchedSummaries)
        return report.render()
    }
}
