import CalendarLayout
public import Streaks

/// A streak report as a standalone SVG picture: the figures, a legend, and month grids coloured by status.
///
/// The geometry comes from `CalendarLayout` (`MonthLayout` for `monthWidth`): months are laid out
/// `monthsPerRow` to a row, each a header (title and weekday names) above its week rows; every
/// coordinate is a whole number, so the same input gives the same bytes. Each day of the window is
/// a group `<g id="day-YYYY-MM-DD">` with a `<title>` (date, status label, points), a `<rect>`
/// filled as the presentation rules say, the day number and the rule's mark, so status is readable
/// without colour too. Text from outside (zone name, labels, marks) is XML-escaped.
///
/// ```swift
/// let svg = SVGReport(report: report).render()
/// // <svg xmlns="http://www.w3.org/2000/svg" width="540" height="..." viewBox="0 0 540 ..." ...>
/// // ...
/// // <g id="day-2024-02-20" class="day met"><title>Tuesday, 20 February 2024: met, 100 of 100 points, 1 session</title>
/// // <rect x="..." y="..." width="40" height="40" rx="6" fill="#1E8336"/>...
/// ```
public struct SVGReport: Sendable {
    /// The report to draw.
    public var report: StreakReport
    /// How days look.
    public var rules: DayPresentationRules
    /// The first column of each week.
    public var firstWeekday: Weekday
    /// Months side by side (at least 1).
    public var monthsPerRow: Int
    /// The width of one month grid, in pixels (at least 140); cells are square.
    public var monthWidth: Int
    /// Named habits, each drawn below the report as a section of its own (ids prefixed `habitN-`).
    public var habits: [HabitReport]

    public init(
        report: StreakReport, rules: DayPresentationRules = .standard, firstWeekday: Weekday = .sunday,
        monthsPerRow: Int = 3, monthWidth: Int = 308, habits: [HabitReport] = []
    ) {
        self.report = report
        self.habits = habits
        self.rules = rules
        self.firstWeekday = firstWeekday
        self.monthsPerRow = max(1, monthsPerRow)
        self.monthWidth = max(140, monthWidth)
    }

    static let margin = 24
    static let gap = 24
    static let minimumContentWidth = 492
    static let textColor = "#1D1D1F"
    static let secondaryTextColor = "#3A3A3C"

    /// The SVG document, ending with a newline.
    public func render() -> String {
        let months = report.months
        let columns = max(1, min(monthsPerRow, months.count))
        let contentWidth = max(SVGReport.minimumContentWidth, columns * monthWidth + (columns - 1) * SVGReport.gap)
        let width = contentWidth + 2 * SVGReport.margin
        let metrics = LayoutMetrics(width: monthWidth, headerHeight: 56)

        var body: [String] = []
        var y = section(
            of: report, heading: "Streak report: \(report.from) to \(report.to)", idPrefix: "", top: SVGReport.margin,
            columns: columns, metrics: metrics, into: &body)
        for (index, habit) in habits.enumerated() {
            y = section(
                of: habit.report, heading: "Habit: \(habit.habit.name)", idPrefix: "habit\(index + 1)-", top: y,
                columns: columns, metrics: metrics, into: &body)
        }
        let height = y - SVGReport.gap + SVGReport.margin

        let description = ReportFigures(report).rows.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
                + " role=\"img\" aria-labelledby=\"title desc\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">",
            "<title id=\"title\">Streak report: \(report.from) to \(report.to)</title>",
            "<desc id=\"desc\">\(Markup.escape(description))</desc>",
            "<rect width=\"\(width)\" height=\"\(height)\" fill=\"#FFFFFF\"/>",
        ]
        svg.append(contentsOf: body)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// Draws a report's heading, figures, legend and months from `top` down; returns the top of
    /// what comes next.
    private func section(
        of report: StreakReport, heading: String, idPrefix: String, top: Int, columns: Int, metrics: LayoutMetrics,
        into body: inout [String]
    ) -> Int {
        let months = report.months
        let x0 = SVGReport.margin
        let figures = Dictionary(uniqueKeysWithValues: ReportFigures(report).rows.map { ($0.name, $0.value) })
        var y = top + 22
        body.append(text(heading, x: x0, y: y, size: 20, weight: "bold"))
        let goal = report.goal
        var lines = [
            "Goal: \(figures["Goal"] ?? ""), \(goal.timeZone.identifier), days start at \(goal.dayStart)",
            "Current streak: \(figures["Current streak"] ?? "")",
            "Longest streak: \(figures["Longest streak"] ?? "")",
            "Days: \(figures["Days"] ?? "") · Points: \(figures["Points"] ?? "")",
        ]
        lines += ReportFigures.ruleRows(report).map { "\($0.name): \($0.value)" }
        y += 8
        for line in lines {
            y += 22
            body.append(text(line, x: x0, y: y, size: 14))
        }

        // The legend: a swatch with the mark, then the label.
        y += 18
        var legendX = x0
        for presentation in rules.legend(for: report) {
            let label = presentation.label
            body.append("<rect x=\"\(legendX)\" y=\"\(y)\" width=\"22\" height=\"22\" rx=\"5\" fill=\"\(presentation.fill)\"\(outline(presentation))/>")
            body.append(text(String(presentation.mark), x: legendX + 11, y: y + 16, size: 13, color: "\(presentation.text)", anchor: "middle"))
            body.append(text(label, x: legendX + 30, y: y + 16, size: 14))
            legendX += 30 + SVGReport.estimatedWidth(of: label, size: 14) + 20
        }
        y += 22 + 20

        // The months, `columns` to a row.
        var rowTop = y
        var first = 0
        while first < months.count {
            var rowHeight = 0
            for (column, month) in months[first..<min(first + columns, months.count)].enumerated() {
                let grid = MonthGrid(month: month, firstWeekday: firstWeekday, outOfMonthDays: .hidden)
                let layout = MonthLayout(grid: grid, metrics: metrics, x: x0 + column * (monthWidth + SVGReport.gap), y: rowTop)
                body.append(contentsOf: draw(layout, of: report, idPrefix: idPrefix))
                rowHeight = max(rowHeight, layout.height)
            }
            rowTop += rowHeight + SVGReport.gap
            first += columns
        }
        return rowTop
    }

    private func draw(_ layout: MonthLayout, of report: StreakReport, idPrefix: String) -> [String] {
        let header = layout.headerFrame
        var lines = ["<g class=\"month\" id=\"\(idPrefix)month-\(layout.grid.month)\">"]
        lines.append(text(CalendarNames.title(of: layout.grid.month), x: header.x + header.width / 2, y: header.y + 20, size: 16, weight: "bold", anchor: "middle"))
        for column in 0..<7 {
            let frame = layout.cellFrame(row: 0, column: column)
            let name = CalendarNames.weekdayAbbreviations[firstWeekday.advanced(by: column).rawValue]
            lines.append(text(name, x: frame.x + frame.width / 2, y: header.maxY - 10, size: 12, color: SVGReport.secondaryTextColor, anchor: "middle"))
        }
        for placed in layout.cells where placed.isInMonth {
            lines.append(contentsOf: draw(placed, of: report, idPrefix: idPrefix))
        }
        lines.append("</g>")
        return lines
    }

    private func draw(_ placed: PlacedDayCell, of report: StreakReport, idPrefix: String) -> [String] {
        let day = placed.day
        let frame = placed.frame
        let presentation = rules.presentation(of: day, in: report)
        let (x, y, w, h) = (frame.x + 2, frame.y + 2, frame.width - 4, frame.height - 4)
        let centre = x + w / 2
        var title = CalendarNames.long(day)
        var group = "<g"
        if let total = report.total(on: day) {
            title += ": \(presentation.label), \(total.points) of \(total.required) points, "
                + "\(total.sessions) \(total.sessions == 1 ? "session" : "sessions")"
            group += " id=\"\(idPrefix)day-\(day)\" class=\"day \(total.status.rawValue)\""
        } else {
            title += ": not in the report"
            group += " class=\"day outside\""
        }
        var lines = [
            group + "><title>\(Markup.escape(title))</title>",
            "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(w)\" height=\"\(h)\" rx=\"6\" fill=\"\(presentation.fill)\"\(outline(presentation))/>",
            text(String(day.dayOfMonth), x: centre, y: y + h / 2 + 2, size: 15, weight: "bold", color: "\(presentation.text)", anchor: "middle"),
        ]
        if presentation.mark != " " {
            lines.append(text(String(presentation.mark), x: centre, y: y + h - 5, size: 11, color: "\(presentation.text)", anchor: "middle"))
        }
        lines.append("</g>")
        return lines
    }

    /// A thin gray outline for fills too close to the white background to see.
    private func outline(_ presentation: DayPresentation) -> String {
        presentation.fill.contrastRatio(with: .white) < 1.5 ? " stroke=\"#8E8E93\" stroke-width=\"1\"" : ""
    }

    private func text(
        _ content: String, x: Int, y: Int, size: Int, weight: String? = nil,
        color: String = SVGReport.textColor, anchor: String? = nil
    ) -> String {
        var attributes = "x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" fill=\"\(color)\""
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
        return "<text \(attributes)>\(Markup.escape(content))</text>"
    }

    /// A generous estimate of a text's width: 0.6 em per character.
    static func estimatedWidth(of text: String, size: Int) -> Int {
        (text.count * size * 60 + 99) / 100
    }
}
