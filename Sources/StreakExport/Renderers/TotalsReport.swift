public import CalendarDiagnostics
public import Streaks

/// `streakcal totals` in each format: a ``/Streaks/TimeTotals`` table as text, JSON, CSV,
/// Markdown, SVG or HTML.
///
/// Group names are user text (a SUMMARY, a category, a calendar's name): CSV neutralises formulas
/// (as a CSV report's are), HTML and SVG escape them, text for a terminal shows their control
/// characters as `\u{XX}`.
///
/// ```swift
/// let page = TotalsReport(totals, sources: scored.sources, timeZone: "UTC")
/// print(page.csv(lineEnding: .lf), terminator: "")
/// // period,group,sessions,minutes,points,metDays,days
/// // 2024-01-01,Work,12,720,720,,
/// ```
public struct TotalsReport: Sendable {
    public var totals: TimeTotals
    /// The calendars counted, for the heading.
    public var sources: [ReportSource]
    /// The report's zone, for the heading.
    public var timeZone: String
    /// What the import said (listed under the text, Markdown and HTML tables, and in JSON).
    public var diagnostics: [Diagnostic]
    /// The page's colours (SVG, HTML), light and dark.
    public var palette: ReportPalette

    public init(
        _ totals: TimeTotals, sources: [ReportSource] = [], timeZone: String, diagnostics: [Diagnostic] = [],
        palette: ReportPalette = .standard
    ) {
        self.totals = totals
        self.sources = sources
        self.timeZone = timeZone
        self.diagnostics = diagnostics
        self.palette = palette
    }

    /// The CSV columns, exactly.
    public static let columns = ["period", "group", "sessions", "minutes", "points", "metDays", "days"]

    /// "Time by category per week, 2024-01-01 to 2024-03-31 (UTC)": what the table is.
    public var title: String {
        "\(Self.groupTitle(totals.grouping)) per \(totals.period.rawValue), \(totals.window.lowerBound) to \(totals.window.upperBound) (\(timeZone))"
    }

    static func groupTitle(_ grouping: TimeTotals.Grouping) -> String {
        switch grouping {
        case .category: "Time by category"
        case .summary: "Time by summary"
        case .calendar: "Time by calendar"
        case .habit: "Habits"
        }
    }

    /// Whether the table needs a points column: points that are not the sessions' minutes.
    var showsPoints: Bool { totals.unit != .minutes }

    /// Whether it is a habit table, with met days.
    var hasDays: Bool { totals.grouping == .habit }

    // MARK: CSV

    /// One line per row: `period,group,sessions,minutes,points,metDays,days` (met days and days
    /// empty outside habits); lines end as `lineEnding` says (CRLF, as RFC 4180 and the report's
    /// CSV have it).
    public func csv(lineEnding: CSVLineEnding = .crlf) -> String {
        var lines = [Self.columns.joined(separator: ",")]
        for row in totals.rows {
            let figures = row.figures
            lines.append([
                row.period.description, CSVReport.field(row.group), String(figures.sessions), String(figures.minutes),
                String(figures.points), figures.metDays.map(String.init) ?? "", figures.days.map(String.init) ?? "",
            ].joined(separator: ","))
        }
        return lines.joined(separator: lineEnding.text) + lineEnding.text
    }

    // MARK: JSON

    /// The rows, each group's totals and average per period (over every period of the window),
    /// every session once (`total`), the periods, the calendars and the diagnostics.
    public func json() -> String {
        var json = JSONWriter()
        json.open("{")
        json.key("grouping", indent: 2, first: true)
        json.string(totals.grouping.rawValue)
        json.key("period", indent: 2)
        json.string(totals.period.rawValue)
        json.key("from", indent: 2)
        json.date(totals.window.lowerBound)
        json.key("to", indent: 2)
        json.date(totals.window.upperBound)
        json.key("timeZone", indent: 2)
        json.string(timeZone)
        json.key("firstWeekday", indent: 2)
        json.string(totals.firstWeekday.englishName)
        json.key("unit", indent: 2)
        json.string(totals.unit.rawValue)
        json.key("periods", indent: 2)
        json.open("[")
        for (index, period) in totals.periods.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.date(period)
        }
        json.close("]", indent: 2, empty: totals.periods.isEmpty)
        json.key("rows", indent: 2)
        json.open("[")
        for (index, row) in totals.rows.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.open("{")
            json.key("period", indent: 6, first: true)
            json.date(row.period)
            json.key("group", indent: 6)
            json.string(row.group)
            figures(row.figures, indent: 6, into: &json)
            json.close("}", indent: 4, empty: false)
        }
        json.close("]", indent: 2, empty: totals.rows.isEmpty)
        json.key("groups", indent: 2)
        json.open("[")
        for (index, group) in totals.groups.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.open("{")
            json.key("group", indent: 6, first: true)
            json.string(group.group)
            figures(group.total, indent: 6, into: &json)
            json.key("average", indent: 6)
            json.open("{")
            json.key("sessions", indent: 8, first: true)
            json.number(Self.rounded(group.averageSessions))
            json.key("minutes", indent: 8)
            json.number(Self.rounded(group.averageMinutes))
            json.key("points", indent: 8)
            json.number(Self.rounded(group.averagePoints))
            json.close("}", indent: 6, empty: false)
            json.close("}", indent: 4, empty: false)
        }
        json.close("]", indent: 2, empty: totals.groups.isEmpty)
        json.key("total", indent: 2)
        json.open("{")
        json.key("sessions", indent: 4, first: true)
        json.integer(totals.overall.sessions)
        json.key("minutes", indent: 4)
        json.integer(totals.overall.minutes)
        json.key("points", indent: 4)
        json.integer(totals.overall.points)
        json.close("}", indent: 2, empty: false)
        json.key("calendars", indent: 2)
        json.open("[")
        for (index, calendar) in sources.calendars.enumerated() {
            json.element(indent: 4, first: index == 0)
            json.open("{")
            json.key("file", indent: 6, first: true)
            json.string(calendar.file)
            json.key("name", indent: 6)
            json.string(calendar.name)
            json.close("}", indent: 4, empty: false)
        }
        json.close("]", indent: 2, empty: sources.isEmpty)
        json.key("diagnostics", indent: 2)
        json.diagnostics(diagnostics, indent: 2)
        return json.document()
    }

    /// Sessions, minutes and points, then met days and days (`null` outside habits).
    private func figures(_ figures: TimeTotals.Figures, indent: Int, into json: inout JSONWriter) {
        json.key("sessions", indent: indent)
        json.integer(figures.sessions)
        json.key("minutes", indent: indent)
        json.integer(figures.minutes)
        json.key("points", indent: indent)
        json.integer(figures.points)
        json.key("metDays", indent: indent)
        json.optional(figures.metDays) { $0.integer($1) }
        json.key("days", indent: indent)
        json.optional(figures.days) { $0.integer($1) }
    }

    /// An average to two decimals.
    static func rounded(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }

    // MARK: Text and Markdown

    /// The columns of a table: headings and, for each row, its cells (the period only on a
    /// period's first row).
    func tableRows(shown: (String) -> String) -> (headings: [String], rows: [[String]], totals: [[String]], averages: [[String]]) {
        var headings = [Self.periodHeading(totals.period), Self.groupHeading(totals.grouping), "Sessions", "Minutes"]
        if showsPoints { headings.append(Self.pointsHeading(totals.unit)) }
        if hasDays { headings.append("Met days") }
        func cells(_ figures: TimeTotals.Figures) -> [String] {
            var cells = [Self.grouped(figures.sessions), Self.grouped(figures.minutes)]
            if showsPoints { cells.append(Self.grouped(figures.points)) }
            if hasDays { cells.append(figures.days.map { "\(figures.metDays ?? 0)/\($0)" } ?? "") }
            return cells
        }
        var rows: [[String]] = []
        var previous: Day?
        for row in totals.rows {
            rows.append([row.period == previous ? "" : row.period.description, shown(row.group)] + cells(row.figures))
            previous = row.period
        }
        let groupTotals = totals.groups.enumerated().map { index, group in
            [index == 0 ? "Total" : "", shown(group.group)] + cells(group.total)
        } + [["All", "every session once"] + cells(totals.overall)]
        let averages = totals.groups.enumerated().map { index, group in
            var cells = [index == 0 ? "Per \(totals.period.rawValue)" : "", shown(group.group), Self.decimal(group.averageSessions), Self.decimal(group.averageMinutes)]
            if showsPoints { cells.append(Self.decimal(group.averagePoints)) }
            if hasDays { cells.append("") }
            return cells
        }
        return (headings, rows, groupTotals, averages)
    }

    static func periodHeading(_ period: TimeTotals.Period) -> String {
        switch period {
        case .day: "Day"
        case .week: "Week of"
        case .month: "Month of"
        case .year: "Year of"
        }
    }

    static func groupHeading(_ grouping: TimeTotals.Grouping) -> String {
        switch grouping {
        case .category: "Category"
        case .summary: "Summary"
        case .calendar: "Calendar"
        case .habit: "Habit"
        }
    }

    static func pointsHeading(_ unit: PointsUnit) -> String {
        switch unit {
        case .points: "Points"
        case .minutes: "Minutes"
        case .sessions: "Count"
        }
    }

    /// The widest a group's name is shown in a text table (longer ones end in `…`).
    static let groupWidth = 24
    /// The longest bar, in character cells.
    static let barWidth = 12

    /// An aligned table for a terminal: every row with a bar of its minutes (or points, when the
    /// sessions have no minutes) against the largest row; then each group's totals and its average
    /// per period, and every session once. At most 80 columns with the bars, whatever the names.
    public func text() -> String {
        let shown = { (name: String) in Self.cut(name.escapingControlCharacters(keepingTabs: false), to: Self.groupWidth) }
        let table = tableRows(shown: shown)
        let barValue: (TimeTotals.Figures) -> Int = usesMinutesForBars ? { $0.minutes } : { $0.points }
        let largest = max(1, totals.rows.map { barValue($0.figures) }.max() ?? 0)
        var bars = totals.rows.map { Self.bar(barValue($0.figures), of: largest, width: Self.barWidth) }
        let all = [table.headings] + table.rows + table.totals + table.averages
        let widths = table.headings.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String], bar: String = "") -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                text += column < 2 ? cell + padding : padding + cell
                text += "  "
            }
            return (text + bar).trimmingTrailingSpaces()
        }
        var lines = [title, ""]
        if totals.rows.isEmpty {
            lines.append("No sessions in the window.")
        } else {
            lines.append(line(table.headings))
            bars.reverse()
            lines += table.rows.map { line($0, bar: bars.popLast() ?? "") }
            lines.append("")
            lines += table.totals.map { line($0) }
            lines.append("")
            lines.append("Averages over \(totals.periods.count) \(totals.period.rawValue)\(totals.periods.count == 1 ? "" : "s"), empty ones included:")
            lines += table.averages.map { line($0) }
        }
        if !diagnostics.isEmpty {
            lines.append("")
            lines += diagnostics.map { $0.description.escapingControlCharacters() }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether bars measure minutes: unless no session has any (all-day events with X-POINTS).
    var usesMinutesForBars: Bool { totals.overall.minutes > 0 || totals.overall.points == 0 }

    /// A bar of `value` against `largest`, `width` cells at most, in eighths of a cell.
    static func bar(_ value: Int, of largest: Int, width: Int) -> String {
        let eighths = Int((Double(value) / Double(largest) * Double(width * 8)).rounded())
        let parts = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        let bar = String(repeating: "█", count: eighths / 8) + parts[eighths % 8]
        return value > 0 && bar.isEmpty ? "▏" : bar
    }

    /// `text` cut to `width` characters, ending in `…` when cut.
    static func cut(_ text: String, to width: Int) -> String {
        text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }

    /// 12,345: thousands grouped.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// An average with one decimal: 7.5.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(grouped(tenths / 10)).\(tenths % 10)"
    }

    /// A Markdown page: the title, the rows, each group's totals and its average per period.
    public func markdown() -> String {
        let table = tableRows(shown: { MarkdownReport.escape($0) })
        func line(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
        let rule = "| " + table.headings.indices.map { $0 < 2 ? "---" : "---:" }.joined(separator: " | ") + " |"
        var lines = ["# \(MarkdownReport.escape(title))", ""]
        if totals.rows.isEmpty {
            lines.append("No sessions in the window.")
        } else {
            lines += [line(table.headings), rule] + table.rows.map(line)
            lines += ["", "## Totals", "", line(table.headings), rule] + table.totals.map(line)
            lines += ["", "## Averages per \(totals.period.rawValue)", "",
                      "Over \(totals.periods.count) \(totals.period.rawValue)\(totals.periods.count == 1 ? "" : "s"), empty ones included.", "",
                      line(table.headings), rule] + table.averages.map(line)
        }
        if !diagnostics.isEmpty {
            lines += ["", "## Diagnostics", ""] + diagnostics.map { "- " + MarkdownReport.escape(DiagnosticTally.line($0)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Weekday {
    /// "monday".
    var englishName: String {
        ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][rawValue]
    }
}
