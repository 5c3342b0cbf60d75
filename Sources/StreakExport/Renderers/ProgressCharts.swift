import CalendarLayout
import Streaks

/// The pictures of progress a habit tracker has, as SVG elements with whole-number coordinates:
/// the habit score over time (Loop Habit Tracker's exponential score, a point a day, month ticks),
/// the totals per week and per month as bars against the goal their days required, and how often
/// each weekday is met. SVG reports draw them below the days; HTML pages hold each in an inline
/// `<svg>` that scales with the page.
///
/// Elements are painted by role (`Role`), so that an SVG file can give each role its colour in
/// attributes and an HTML page by classes, with its dark mode.
struct ProgressCharts {
    /// What an element shows, which decides its colour.
    enum Role: String {
        /// The data: the score's line, the bars.
        case data = "c-data"
        /// The goal line and the goal's part of a bar.
        case goal = "c-goal"
        /// Titles and figures.
        case text = "c-text"
        /// Axis labels and ticks.
        case secondary = "c-secondary"
    }

    let report: StreakReport
    /// The drawing's width.
    let width: Int
    let firstWeekday: Weekday
    /// How an element of a role is painted: attributes such as `fill="#0A5C45"`, or a class.
    let paint: (Role, _ isStroke: Bool) -> String

    /// The height of each chart's plot.
    static let plotHeight = 90
    /// The most bars a bar chart draws: the last ones.
    static let maximumBars = 26

    /// Every chart, one below the other from `top`: their elements and the height they take.
    func charts(top: Int) -> (elements: [String], height: Int) {
        var elements: [String] = []
        var y = top
        for chart in [scoreChart(top:), weekBars(top:), monthBars(top:), weekdayChart(top:)] {
            let (drawn, height) = chart(y)
            elements += drawn
            y += height
        }
        return (elements, y - top)
    }

    private func text(_ content: String, x: Int, y: Int, size: Int, role: Role, anchor: String? = nil, bold: Bool = false) -> String {
        "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" \(paint(role, false))"
            + (anchor.map { " text-anchor=\"\($0)\"" } ?? "") + (bold ? " font-weight=\"bold\"" : "") + ">\(Markup.escape(content))</text>"
    }

    /// The score after each day as a line, 0 to 100 %, with a tick at the first of each month.
    func scoreChart(top: Int) -> ([String], Int) {
        let history = report.scoreHistory
        let plotTop = top + 30, plotLeft = 40, plotWidth = max(1, width - 40)
        var elements = [text("Habit score over time: \(TextReport.percent(report.score)) now", x: 0, y: top + 18, size: 14, role: .text, bold: true)]
        for percent in [0, 50, 100] {
            let y = plotTop + Self.plotHeight - percent * Self.plotHeight / 100
            elements.append(text("\(percent)%", x: plotLeft - 6, y: y + 4, size: 10, role: .secondary, anchor: "end"))
            elements.append("<line x1=\"\(plotLeft)\" y1=\"\(y)\" x2=\"\(plotLeft + plotWidth)\" y2=\"\(y)\" \(paint(.secondary, true)) stroke-width=\"1\" stroke-opacity=\"0.3\"/>")
        }
        let step = history.count > 1 ? Double(plotWidth) / Double(history.count - 1) : 0
        // A point per day, or, for windows wider in days than the plot in points, one per point
        // of width (the day ending it): a picture's size does not grow with the window.
        let indices = history.count <= plotWidth + 1
            ? Array(history.indices)
            : (0...plotWidth).map { Int((Double($0) * Double(history.count - 1) / Double(plotWidth)).rounded()) }
        let points = indices.map { index in
            "\(plotLeft + Int((Double(index) * step).rounded())),\(plotTop + Self.plotHeight - Int((history[index] * Double(Self.plotHeight)).rounded()))"
        }
        if !points.isEmpty {
            elements.append("<polyline fill=\"none\" \(paint(.data, true)) stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>")
        }
        // Month ticks at least 4 points apart, labelled where there is room: a label starts at its
        // tick, or, near the right edge, ends at the edge, so that it is never cut ("De", issue 46.9).
        var (lastTick, lastLabelEnd) = (-1_000, -1_000)
        for (index, day) in report.days.enumerated() where day.date.dayOfMonth == 1 {
            let x = plotLeft + Int((Double(index) * step).rounded())
            guard x - lastTick >= 4 else { continue }
            lastTick = x
            elements.append("<line x1=\"\(x)\" y1=\"\(plotTop + Self.plotHeight)\" x2=\"\(x)\" y2=\"\(plotTop + Self.plotHeight + 4)\" \(paint(.secondary, true)) stroke-width=\"1\"/>")
            let name = String(CalendarNames.months[day.date.month - 1].prefix(3))
            let label = day.date.month == 1 ? "\(name) \(day.date.year)" : name
            let labelWidth = Self.labelWidth(label)
            let start = min(x, width - labelWidth)
            guard start - lastLabelEnd >= 8 else { continue }
            lastLabelEnd = start + labelWidth
            elements.append(start == x
                ? text(label, x: x, y: plotTop + Self.plotHeight + 16, size: 10, role: .secondary)
                : text(label, x: width, y: plotTop + Self.plotHeight + 16, size: 10, role: .secondary, anchor: "end"))
        }
        return (elements, 30 + Self.plotHeight + 30)
    }

    /// A generous width of a label at font size 10: 7 points a character, wider than the average
    /// sans-serif letter, so that a label kept inside the drawing is whole.
    static func labelWidth(_ label: String) -> Int {
        label.count * 7
    }

    func weekBars(top: Int) -> ([String], Int) {
        bars(report.sums(byWeekStarting: firstWeekday), title: "\(DayWords.title(report.goal.unit)) per week", label: {
            "\(CalendarNames.months[$0.lowerBound.month - 1].prefix(3)) \($0.lowerBound.dayOfMonth)"
        }, top: top)
    }

    func monthBars(top: Int) -> ([String], Int) {
        bars(report.sums(), title: "\(DayWords.title(report.goal.unit)) per month", label: { String(CalendarNames.months[$0.lowerBound.month - 1].prefix(3)) }, top: top)
    }

    /// The last ``maximumBars`` periods as bars, each with a line at the goal its days required
    /// (none when days are met by any points, ``/Streaks/StreakRules/scoresActiveDays``: their
    /// 1 point a day is no goal anyone set).
    private func bars(_ all: [PeriodSum], title: String, label: (ClosedRange<Day>) -> String, top: Int) -> ([String], Int) {
        var sums = Array(all.suffix(Self.maximumBars))
        if report.rules.scoresActiveDays { sums = sums.map { var sum = $0; sum.required = 0; return sum } }
        let plotTop = top + 30, plotLeft = 40, plotWidth = max(1, width - 40)
        let against = report.rules.scoresActiveDays ? "" : report.rules.atMost ? ", against the limit" : ", against the goal"
        var elements = [text(title + against, x: 0, y: top + 18, size: 14, role: .text, bold: true)]
        let highest = max(1, sums.map { max($0.points, $0.required) }.max() ?? 1)
        elements.append(text("\(highest)", x: plotLeft - 6, y: plotTop + 4, size: 10, role: .secondary, anchor: "end"))
        elements.append(text("0", x: plotLeft - 6, y: plotTop + Self.plotHeight + 4, size: 10, role: .secondary, anchor: "end"))
        let slot = sums.isEmpty ? plotWidth : plotWidth / sums.count
        let barWidth = max(1, slot * 7 / 10)
        let height = { (value: Int) in Int((Double(value) / Double(highest) * Double(Self.plotHeight)).rounded()) }
        for (index, sum) in sums.enumerated() {
            let x = plotLeft + index * slot + (slot - barWidth) / 2
            let barHeight = height(sum.points)
            let bottom = plotTop + Self.plotHeight
            let figure = sum.required > 0 ? "\(sum.points) of \(report.goal.unit.describe(sum.required))" : report.goal.unit.describe(sum.points)
            let title = Markup.escape("\(sum.days.lowerBound) to \(sum.days.upperBound): \(figure)")
            elements.append("<rect x=\"\(x)\" y=\"\(bottom - barHeight)\" width=\"\(barWidth)\" height=\"\(barHeight)\" \(paint(.data, false))>"
                + "<title>\(title)</title></rect>")
            if sum.required > 0 {
                let goal = bottom - height(sum.required)
                elements.append("<line x1=\"\(x - 2)\" y1=\"\(goal)\" x2=\"\(x + barWidth + 2)\" y2=\"\(goal)\" \(paint(.goal, true)) stroke-width=\"2\"/>")
            }
            // Labels of up to six characters, at least 50 points apart.
            if index % ((50 + slot - 1) / max(1, slot)) == 0 {
                elements.append(text(label(sum.days), x: x, y: bottom + 16, size: 10, role: .secondary))
            }
        }
        return (elements, 30 + Self.plotHeight + 30)
    }

    /// How often each weekday is met: a bar per weekday (from `firstWeekday`), its share of the
    /// weekday's days that counted.
    func weekdayChart(top: Int) -> ([String], Int) {
        let frequency = report.weekdayFrequency
        var elements = [text("Days met by weekday", x: 0, y: top + 18, size: 14, role: .text, bold: true)]
        let plotTop = top + 30, plotLeft = 40, rowHeight = 16
        let plotWidth = max(1, width - plotLeft - 110)
        for row in 0..<7 {
            let weekday = firstWeekday.advanced(by: row)
            let entry = frequency[weekday.rawValue]
            let share = entry.counted > 0 ? Double(entry.met) / Double(entry.counted) : 0
            let y = plotTop + row * (rowHeight + 4)
            elements.append(text(String(CalendarNames.weekdays[weekday.rawValue].prefix(3)), x: 0, y: y + 12, size: 11, role: .secondary))
            let length = Int((share * Double(plotWidth)).rounded())
            elements.append("<rect x=\"\(plotLeft)\" y=\"\(y)\" width=\"\(length)\" height=\"\(rowHeight)\" \(paint(.data, false))/>")
            elements.append(text("\(TextReport.percent(share)) (\(entry.met) of \(entry.counted))", x: plotLeft + length + 6, y: y + 12, size: 11, role: .secondary))
        }
        return (elements, 30 + 7 * (rowHeight + 4) + 16)
    }
}
