import CalendarLayout
package import CalendarDiagnostics
package import Streaks

/// A streak report for a terminal: month grids with each day's status, then the streaks and totals.
///
/// Days look as the presentation rules say: each day carries the rule's mark (`✓` met, `◔` `◑` `◕`
/// partial by fraction of the goal, `·` none, ...), and when `colors` is on the day and its mark are
/// also coloured (the rule's `terminalStyle`), so the status never rests on colour alone. The
/// header names the calendars (``sources``); after the figures come the count of diagnostics and
/// the first few.
///
/// The year view (``ReportView/year``, the default for windows longer than about three months)
/// is a heatmap per calendar year: a column per week, a line per weekday, each day one mark.
///
/// Text from outside (the zone's name, rule labels and marks) has its control characters shown as
/// `\u{XX}` (`String.escapingControlCharacters`); only the colours are escape sequences.
///
/// The grids have `cal`'s geometry: each day is two digits and one column after them, which holds
/// the mark (or a space), so with the marks blanked a month is exactly what `cal` prints.
///
/// ```
///    February 2024
/// Su Mo Tu We Th Fr Sa
///              1  2  3
/// ...
/// 18 19 20✓21·22·23·24◐
/// 25✓26✓27·28·29·
/// ```
package struct TextReport: Sendable {
    /// The report to show.
    package var report: StreakReport
    /// ANSI colours as well as marks.
    package var colors: Bool
    /// The first column of each week (the first row of a year view).
    package var firstWeekday: Weekday
    /// Months side by side.
    package var monthsPerRow: Int
    /// How days look: their terminal style with colours, their mark without; the legend lists the rules.
    package var rules: DayPresentationRules
    /// The calendars the report is about, named in its header.
    package var sources: [ReportSource]
    /// What the import said: counted at the end, the first few shown.
    package var diagnostics: [Diagnostic]
    /// Month grids, or heatmaps (`nil`: ``ReportView/automatic(for:today:)``).
    package var view: ReportView?
    /// Today, underlined in a coloured year view.
    package var today: Day?

    package init(
        report: StreakReport, colors: Bool = false, firstWeekday: Weekday = .sunday, monthsPerRow: Int = 3,
        rules: DayPresentationRules = .standard, sources: [ReportSource] = [], diagnostics: [Diagnostic] = [],
        view: ReportView? = nil, today: Day? = nil
    ) {
        self.report = report
        self.colors = colors
        self.firstWeekday = firstWeekday
        self.monthsPerRow = max(1, monthsPerRow)
        self.rules = rules
        self.sources = sources
        self.diagnostics = diagnostics
        self.view = view
        self.today = today
    }

    /// The marks of the statuses, as annotations and period lists show them (partial `◐`).
    package static let marks: [DayStatus: Character] = Dictionary(
        uniqueKeysWithValues: DayStatus.allCases.map { ($0, DayPresentation.standard(for: $0).mark) })

    /// A month's width: seven cells of two digits and a separator column, less the last separator.
    static let monthWidth = 20

    /// The whole report as text, ending with a newline.
    package func render() -> String {
        var lines = header()
        lines.append("")
        let resolvedView = view ?? .automatic(for: report, today: today)
        if resolvedView == .hours {
            lines.append(contentsOf: summary())
            lines.append("")
            let hours = HoursView(hours: report.weekdayHours ?? WeekdayHours(), zone: report.goal.timeZone.identifier)
            lines.append(contentsOf: hours.textLines(colors: colors ? rules.intensityLegend(for: report).scale : nil))
        } else if resolvedView.drawsHeatmaps {
            lines.append(contentsOf: summary())
            lines.append("")
            let grids = resolvedView == .rolling
                ? resolvedView.heatmaps(of: report, firstWeekday: firstWeekday).map { ($0.grid, $0.title) }
                : report.years.map { (YearGrid(year: $0, firstWeekday: firstWeekday), String($0)) }
            for (grid, title) in grids {
                lines.append(contentsOf: heatmapLines(grid, title: title))
                lines.append("")
            }
            lines.append(contentsOf: yearLegend())
        } else {
            let months = monthsInWindow()
            var index = 0
            while index < months.count {
                let row = Array(months[index..<min(index + monthsPerRow, months.count)])
                let blocks = row.map { monthLines(year: $0.year, month: $0.month) }
                let height = blocks.map(\.count).max() ?? 0
                for lineIndex in 0..<height {
                    let parts = blocks.map { block in
                        lineIndex < block.count ? block[lineIndex] : String(repeating: " ", count: TextReport.monthWidth + 1)
                    }
                    lines.append(trimTrailing(parts.joined(separator: "  ")))
                }
                lines.append("")
                index += monthsPerRow
            }
            lines.append(legend())
            lines.append("")
            lines.append(contentsOf: summary())
        }
        lines.append(contentsOf: diagnosticLines())
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first lines: what the report covers, and the calendars when the title alone does not name them.
    private func header() -> [String] {
        let goal = report.goal
        let heading = ReportHeading(sources: sources, report: report)
        var lines = [(heading.title + ", \(goal.timeZone.identifier)"
            + (goal.dayStart == .midnight ? "" : ", days start at \(goal.dayStart)")
            + ", goal " + DayWords.goal(of: report)).escapingControlCharacters()]
        if heading.needsCalendarsLine, let row = heading.calendarsRow {
            lines.append("\(row.name): \(row.value)".escapingControlCharacters())
        }
        return lines
    }

    /// The count of diagnostics and the first few, after a blank line; nothing without any.
    private func diagnosticLines() -> [String] {
        let tally = DiagnosticTally(diagnostics: diagnostics)
        guard let summary = tally.summary else { return [] }
        let (shown, more) = tally.brief
        var lines = ["", "\(summary):"]
        lines += shown.map { "  " + $0.escapingControlCharacters() }
        if more > 0 { lines.append("  and \(more) more") }
        return lines
    }

    /// One year as a heatmap: the year, a line of month labels, then a line per weekday with a
    /// mark per week (blank before and after the window); coloured cells keep their marks.
    package func yearLines(_ year: Int) -> [String] {
        heatmapLines(YearGrid(year: year, firstWeekday: firstWeekday), title: String(year))
    }

    /// A heatmap's lines (a year's, or the rolling weeks'): its title, month labels (one that would
    /// run into the next is left out), then a line per weekday with a mark per week.
    func heatmapLines(_ grid: YearGrid, title: String) -> [String] {
        var lines = [title]
        var labels = [Character](repeating: " ", count: 3 + grid.weekCount + 2)
        let columns = grid.monthColumns
        for (index, (month, week)) in columns.enumerated() {
            if index + 1 < columns.count, columns[index + 1].week < week + 4 { continue }
            for (offset, character) in TextReport.monthNames[month - 1].prefix(3).enumerated() {
                labels[3 + week + offset] = character
            }
        }
        lines.append(trimTrailing(String(labels)))
        for row in 0..<7 {
            var line = TextReport.weekdayNames[grid.weekday(ofRow: row).rawValue] + " "
            for week in 0..<grid.weekCount {
                guard let day = grid.day(week: week, row: row), let total = report.total(on: day) else {
                    line += " "
                    continue
                }
                let presentation = rules.presentation(for: total)
                let mark = String(presentation.mark).escapingControlCharacters()
                if colors {
                    line += "\u{1B}[\(day == today ? "4;" : "")\(presentation.terminalStyle)m" + mark + "\u{1B}[0m"
                } else {
                    line += mark
                }
            }
            lines.append(trimTrailing(line))
        }
        return lines
    }

    /// The year view's legend: the scale from less to more, then the other statuses present.
    private func yearLegend() -> [String] {
        let (scale, others) = rules.intensityLegend(for: report)
        let shown = { (presentation: DayPresentation) -> String in
            let mark = String(presentation.mark).escapingControlCharacters()
            let swatch = colors ? "\u{1B}[\(presentation.terminalStyle)m" + mark + "\u{1B}[0m" : mark
            return swatch + " " + presentation.label.escapingControlCharacters()
        }
        var lines = ["Less to more: " + scale.map(shown).joined(separator: "  ")]
        if !others.isEmpty { lines.append(others.map(shown).joined(separator: "  ")) }
        if colors, let today, report.total(on: today) != nil { lines.append("\u{1B}[4mUnderlined\u{1B}[0m: today (\(today))") }
        return lines
    }

    private func monthsInWindow() -> [(year: Int, month: Int)] {
        var result: [(Int, Int)] = []
        var (year, month, _) = report.from.components
        let (lastYear, lastMonth, _) = report.to.components
        while (year, month) <= (lastYear, lastMonth) {
            result.append((year, month))
            month += 1
            if month > 12 { month = 1; year += 1 }
        }
        return result
    }

    /// One month as lines of 21 columns (colour codes excluded): title, weekdays, weeks; every cell is
    /// two digits and the status column, so the lines are `cal`'s once the marks are blanked.
    package func monthLines(year: Int, month: Int) -> [String] {
        var block: [String] = []
        let title = "\(TextReport.monthNames[month - 1]) \(year)"
        // `cal` centres the title in its 20 columns, the odd space going to the right.
        let padding = max(0, TextReport.monthWidth - title.count)
        block.append(String(repeating: " ", count: padding / 2) + title + String(repeating: " ", count: TextReport.monthWidth + 1 - padding / 2 - title.count))
        let header = (0..<7).map { firstWeekday.advanced(by: $0) }.map { TextReport.weekdayNames[$0.rawValue] + " " }
        block.append(header.joined())
        let first = Day(normalizingYear: year, month: month, day: 1)
        let leading = first.weekday.daysSince(firstWeekday)
        let count = Day.daysInMonth(year: year, month: month)
        var cells = [String](repeating: "   ", count: leading)
        for dayOfMonth in 1...count {
            cells.append(cell(first.advanced(by: dayOfMonth - 1), dayOfMonth: dayOfMonth))
        }
        while cells.count % 7 != 0 { cells.append("   ") }
        for week in stride(from: 0, to: cells.count, by: 7) {
            block.append(cells[week..<week + 7].joined())
        }
        return block
    }

    private func cell(_ day: Day, dayOfMonth: Int) -> String {
        let number = dayOfMonth < 10 ? " \(dayOfMonth)" : "\(dayOfMonth)"
        guard let total = report.total(on: day) else { return number + " " }
        let presentation = rules.presentation(for: total)
        let mark = String(presentation.mark).escapingControlCharacters()
        if colors {
            return "\u{1B}[\(presentation.terminalStyle)m" + number + mark + "\u{1B}[0m"
        }
        return number + mark
    }

    private func legend() -> String {
        if colors {
            return rules.legend(for: report).map {
                "\u{1B}[\($0.terminalStyle)m" + String($0.mark).escapingControlCharacters() + "\u{1B}[0m "
                    + $0.label.escapingControlCharacters()
            }.joined(separator: "  ")
        }
        return rules.legend(for: report).map { "\($0.mark) \($0.label)".escapingControlCharacters() }.joined(separator: "  ")
    }

    private func summary() -> [String] {
        var lines = [
            "Current streak: \(TextReport.describe(report.currentStreak, unit: report.streakUnit))",
            "Longest streak: \(TextReport.describe(report.longestStreak, unit: report.streakUnit))",
            "Days: \(TextReport.dayCounts(report))",
            { let total = DayWords.total(of: report); return "\(total.name): \(total.value)" }(),
        ]
        if let progress = today.flatMap(report.progress(on:)) {
            lines.append("Today so far: \(ReportFigures.describe(progress, unit: report.streakUnit, points: report.goal.unit))")
        }
        let rules = report.rules
        if !rules.schedule.entries.isEmpty { lines.append("Schedule: \(rules.schedule)") }
        for (name, value) in ReportFigures.ruleRows(report) { lines.append("\(name): \(value)") }
        lines += ReportFigures.bestStreakLines(report)
        if let periodGoal = rules.periodGoal, !periodGoal.isRolling {
            lines.append("Periods (\(periodGoal)):")
            for period in ReportFigures.periodRows(report) {
                let mark = DayPresentation.standard(for: period.status).mark
                lines.append("  \(period.days)  \(mark) \(period.status.rawValue), \(period.progress)")
            }
        }
        return lines
    }

    /// "3 days (2024-02-24 to 2024-02-26)", "1 day (2024-02-26)" or "0 days"; with `unit` `week`,
    /// "2 weeks (...)".
    package static func describe(_ streak: Streak, unit: String = "day") -> String {
        guard let start = streak.start, let end = streak.end else { return "0 \(unit)s" }
        let length = streak.length
        let span = start == end ? "\(start)" : "\(start) to \(end)"
        return "\(length) \(length == 1 ? unit : unit + "s") (\(span))"
    }

    /// "31 (met 2, partial 1, none 28)", with rest, skipped, frozen and over days when there are any.
    static func dayCounts(_ report: StreakReport) -> String {
        let counts = report.statusCounts
        var parts = ["met \(counts[.met] ?? 0)", "partial \(counts[.partial] ?? 0)", "none \(counts[.none] ?? 0)"]
        for status in [DayStatus.covered, .rest, .skipped, .frozen, .over, .upcoming] where (counts[status] ?? 0) > 0 {
            parts.append("\(status.rawValue) \(counts[status] ?? 0)")
        }
        return "\(report.days.count) (\(parts.joined(separator: ", ")))"
    }

    /// A fraction 0...1 as a whole percentage: "83%".
    static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded()))%"
    }

    private func trimTrailing(_ line: String) -> String {
        var result = line
        while result.last == " " { result.removeLast() }
        return result
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    static let weekdayNames = ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]
}

/// The text format: the calendar's report (below) for the calendar, then a section per habit, each with its
/// filter, and the count of sessions no habit took.
///
/// ```swift
/// print(TextReportRenderer().render(ReportContent(report: report)))
/// ```
///
/// A streak report for a terminal: month grids with each day's status, then the streaks and totals.
///
/// Days look as the presentation rules say: each day carries the rule's mark (`✓` met, `◔` `◑` `◕`
/// partial by fraction of the goal, `·` none, ...), and when `colors` is on the day and its mark are
/// also coloured (the rule's `terminalStyle`), so the status never rests on colour alone. The
/// header names the calendars (the content's sources); after the figures come the count of diagnostics and
/// the first few.
///
/// The year view (``ReportView/year``, the default for windows longer than about three months)
/// is a heatmap per calendar year: a column per week, a line per weekday, each day one mark.
///
/// Text from outside (the zone's name, rule labels and marks) has its control characters shown as
/// `\u{XX}` (`String.escapingControlCharacters`); only the colours are escape sequences.
///
/// The grids have `cal`'s geometry: each day is two digits and one column after them, which holds
/// the mark (or a space), so with the marks blanked a month is exactly what `cal` prints.
///
/// ```
///    February 2024
/// Su Mo Tu We Th Fr Sa
///              1  2  3
/// ...
/// 18 19 20✓21·22·23·24◐
/// 25✓26✓27·28·29·
/// ```
public struct TextReportRenderer: ReportRenderer {
    public static let needsSessions = false
    public static let drawsDays = false
    public var presentation: ReportPresentation

    public init(presentation: ReportPresentation = ReportPresentation()) {
        self.presentation = presentation
    }

    public func render(_ content: ReportContent) -> String {
        // The habits take the calendar's view, so that their days line up with its.
        let view = presentation.view ?? .automatic(for: content.report, today: content.today)
        let (colors, firstWeekday, rules, today) = (presentation.terminalColors, presentation.firstWeekday, presentation.rules, content.today)
        var text = TextReport(
            report: content.report, colors: colors, firstWeekday: firstWeekday, rules: rules, sources: content.sources,
            diagnostics: content.diagnostics, view: view, today: today).render()
        for habit in content.habits {
            text += "\nHabit: \(habit.name.escapingControlCharacters()) (\(habit.habit.filter.description.escapingControlCharacters()))\n"
            if habit.repeats(content.report) {
                text += "\(HabitReport.repeatsCalendar) above.\n"
                continue
            }
            text += TextReport(report: habit.report, colors: colors, firstWeekday: firstWeekday, rules: rules, view: view, today: today).render()
        }
        if let line = content.unmatchedLine(escape: { $0.escapingControlCharacters() }) {
            text += "\n\(line)\n"
        }
        return text
    }
}
