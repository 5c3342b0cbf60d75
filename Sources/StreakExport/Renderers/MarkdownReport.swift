package import CalendarLayout
package import CalendarDiagnostics
package import Streaks

/// A streak report as Markdown (GitHub-flavoured tables): a heading that names the calendars, a
/// summary table, a table per month, and a section of diagnostics.
///
/// Each day of the window carries its presentation's mark after the number (`✓` met, `◔` `◑` `◕`
/// partial by fraction of the goal, `·` none with the standard rules); days of a month outside the
/// window have none. Weeks begin on
/// `firstWeekday`. Text from outside (the zone's name, rule labels and marks) is escaped, so a `|`
/// cannot break a table.
///
/// ```swift
/// print(MarkdownReport(report: report).render())
/// // # Streak report: tutorial-sample
/// //
/// // | Figure | Value |
/// // | --- | --- |
/// // | Window | 2024-02-20 to 2024-02-29 (10 days) |
/// // ...
/// // | Su | Mo | Tu | We | Th | Fr | Sa |
/// // | :-: | :-: | :-: | :-: | :-: | :-: | :-: |
/// // ...
/// // | 18 | 19 | 20 ✓ | 21 · | 22 · | 23 · | 24 ◐ |
/// ```
package struct MarkdownReport: Sendable {
    /// The report to write.
    package var report: StreakReport
    /// How days look (only the marks and labels matter here).
    package var rules: DayPresentationRules
    /// The first column of each week.
    package var firstWeekday: Weekday
    /// The calendars the report is about: named in the heading and the first row.
    package var sources: [ReportSource]
    /// What the import said: a section of its own at the end.
    package var diagnostics: [Diagnostic]

    package init(
        report: StreakReport, rules: DayPresentationRules = .standard, firstWeekday: Weekday = .sunday,
        sources: [ReportSource] = [], diagnostics: [Diagnostic] = []
    ) {
        self.report = report
        self.rules = rules
        self.firstWeekday = firstWeekday
        self.sources = sources
        self.diagnostics = diagnostics
    }

    /// The Markdown text, ending with a newline: written line by line into one string, so that
    /// a long window's thousands of month tables cost about their own size.
    package func render() -> String {
        var text = ""
        func write(_ lines: [String]) {
            for line in lines {
                text += line
                text += "\n"
            }
        }
        let heading = ReportHeading(sources: sources, report: report)
        write(["# " + MarkdownReport.escape(heading.subject.map { "Streak report: \($0)" } ?? "Streak report"), "", "| Figure | Value |", "| --- | --- |"])
        for row in ReportFigures(report, sources: sources).rows {
            write(["| \(row.name) | \(MarkdownReport.escape(row.value)) |"])
        }
        let best = ReportFigures.bestStreakRows(report)
        if !best.isEmpty {
            write(["", "## Best streaks", "", "| # | Length | Days |", "| ---: | ---: | --- |"])
            write(best.map { "| \($0.rank) | \($0.length) | \($0.days) |" })
        }
        if let periodGoal = report.rules.periodGoal, !periodGoal.isRolling {
            write(["", "## Periods (\(MarkdownReport.escape(periodGoal.description)))", "", "| Period | Progress | Status |", "| --- | --- | --- |"])
            for period in ReportFigures.periodRows(report) {
                let mark = MarkdownReport.escape(String(DayPresentation.standard(for: period.status).mark))
                write(["| \(period.days) | \(period.progress) | \(mark) \(period.status.rawValue) |"])
            }
        }
        if let hours = report.weekdayHours {
            // Counted for the hours view (`ReportSettings.countsWeekdayHours`): its table in place of the months.
            write([""] + HoursView(hours: hours, zone: report.goal.timeZone.identifier).markdownLines())
        } else {
            for month in report.months {
                write(["", "## \(CalendarNames.title(of: month))", ""])
                write(monthTable(month))
            }
        }
        let legend = rules.legend(for: report).map { "\(MarkdownReport.escape(String($0.mark))) \(MarkdownReport.escape($0.label))" }
        write(["", "Marks: " + legend.joined(separator: "; ") + "."])
        write(diagnosticSection())
        return text
    }

    /// `## Diagnostics`: the count, then one item per diagnostic (`file:line:column: severity:
    /// message`); nothing without any.
    private func diagnosticSection() -> [String] {
        guard let summary = DiagnosticTally(diagnostics: diagnostics).summary else { return [] }
        var lines = ["", "## Diagnostics", "", MarkdownReport.escape(summary) + ".", ""]
        lines += diagnostics.map { "- " + MarkdownReport.escape(DiagnosticTally.line($0)) }
        return lines
    }

    /// One month as table lines: weekday header, alignment row, one line per week.
    package func monthTable(_ month: CalendarMonth) -> [String] {
        let grid = MonthGrid(month: month, firstWeekday: firstWeekday, outOfMonthDays: .hidden)
        let header = (0..<7).map { CalendarNames.weekdayAbbreviations[firstWeekday.advanced(by: $0).rawValue] }
        var lines = ["| " + header.joined(separator: " | ") + " |", "|" + String(repeating: " :-: |", count: 7)]
        for week in grid.weeks {
            let cells = week.map { cell -> String in
                guard cell.isInMonth else { return "" }
                let number = String(cell.day.dayOfMonth)
                guard let total = report.total(on: cell.day) else { return number }
                let mark = rules.presentation(for: total).mark
                return mark == " " ? number : "\(number) \(MarkdownReport.escape(String(mark)))"
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    /// `text` with the characters Markdown gives a meaning inside a table cell backslash-escaped
    /// (emphasis, code, links, HTML, entities, cell breaks); line breaks become spaces, and other
    /// control characters (ESC, C1, bidi overrides, ...) are shown as `\u{XX}`
    /// (`String.escapingControlCharacters`), so the file is also safe to read on a terminal.
    ///
    /// ```swift
    /// print(MarkdownReport.escape("a|b *c* <d>\u{1B}[2J"))
    /// // Prints "a\|b \*c\* \<d\>\u{1B}\[2J"
    /// ```
    package static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&":
                result.append("\\")
                result.unicodeScalars.append(scalar)
            case "\r", "\n":
                result.append(" ")
            default:
                result += String(scalar).escapingControlCharacters()
            }
        }
        return result
    }
}

/// The Markdown format: the calendar's report (below) for the calendar, then a section per habit (its
/// headings one level down) with its filter, and the count of sessions no habit took.
///
/// A streak report as Markdown (GitHub-flavoured tables): a heading that names the calendars, a
/// summary table, a table per month, and a section of diagnostics.
///
/// Each day of the window carries its presentation's mark after the number (`✓` met, `◔` `◑` `◕`
/// partial by fraction of the goal, `·` none with the standard rules); days of a month outside the
/// window have none. Weeks begin on
/// `firstWeekday`. Text from outside (the zone's name, rule labels and marks) is escaped, so a `|`
/// cannot break a table.
public struct MarkdownReportRenderer: ReportRenderer {
    public static let needsSessions = false
    public static let drawsDays = false
    public var presentation: ReportPresentation

    public init(presentation: ReportPresentation = ReportPresentation()) {
        self.presentation = presentation
    }

    public func render(_ content: ReportContent) -> String {
        let (rules, firstWeekday) = (presentation.rules, presentation.firstWeekday)
        var markdown = MarkdownReport(
            report: content.report, rules: rules, firstWeekday: firstWeekday, sources: content.sources,
            diagnostics: content.diagnostics).render()
        for habit in content.habits {
            let filter = habit.habit.filter.description.replacing("`", with: "'")
            markdown += "\n## Habit: \(MarkdownReport.escape(habit.name))\n\nFilter: `\(filter)`\n\n"
            if habit.repeats(content.report) {
                markdown += "This habit \(HabitReport.repeatsCalendar) above.\n"
                continue
            }
            let section = MarkdownReport(report: habit.report, rules: rules, firstWeekday: firstWeekday).render()
            markdown += section.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("#") ? "#" + $0 : String($0) }.joined(separator: "\n")
        }
        if let line = content.unmatchedLine(escape: MarkdownReport.escape) { markdown += "\n\(line).\n" }
        return markdown
    }
}
