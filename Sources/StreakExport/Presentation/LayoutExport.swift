public import CalendarLayout
import Foundation
public import Streaks

/// Month layouts on their own, or coloured by a calendar's days: what `streakcal layout` prints.
///
/// The months are stacked top to bottom at the layouts' own frames; the JSON form is a contract:
/// `{"generator", "width", "months": [{"year", "month", "frame": {"x", "y", "width", "height"}, "weeks": [[{"date",
/// "inMonth", "frame"}, ...7 cells], ...]}]}`, hidden out-of-month cells still listed with their date.
///
/// ```swift
/// let metrics = LayoutMetrics(width: 350)
/// let grid = MonthGrid(month: CalendarMonth(year: 2024, month: 2))
/// let json = try LayoutExport(layouts: [MonthLayout(grid: grid, metrics: metrics)]).json()
/// // {"generator":"StreakCal 0.1.0","months":[{"frame":{"height":294,"width":350,"x":0,"y":0},"month":2,"weeks":[...],"year":2024}],"width":350}
/// ```
public struct LayoutExport: Sendable {
    /// The months (or weeks), each at its frame.
    public var layouts: [MonthLayout]
    /// Scored days to colour the cells with, if any.
    public var report: StreakReport?
    /// How scored days look.
    public var rules: DayPresentationRules

    public init(layouts: [MonthLayout], report: StreakReport? = nil, rules: DayPresentationRules = .standard) {
        self.layouts = layouts
        self.report = report
        self.rules = rules
    }

    /// Months from `first` on (or weeks from the one containing `week`), stacked from y = 0.
    public static func stacked(
        first: CalendarMonth, count: Int, week: Day? = nil, metrics: LayoutMetrics,
        firstWeekday: Weekday, rowPolicy: RowPolicy, outOfMonthDays: OutOfMonthDays
    ) -> [MonthLayout] {
        var layouts: [MonthLayout] = []
        var y = 0
        for index in 0..<max(1, count) {
            let grid = week.map {
                MonthGrid(weekContaining: $0.advanced(by: 7 * index), firstWeekday: firstWeekday, outOfMonthDays: outOfMonthDays)
            } ?? MonthGrid(month: first.advanced(by: index), firstWeekday: firstWeekday, rowPolicy: rowPolicy, outOfMonthDays: outOfMonthDays)
            let layout = MonthLayout(grid: grid, metrics: metrics, x: 0, y: y)
            layouts.append(layout)
            y += layout.height
        }
        return layouts
    }

    private struct Document: Encodable {
        var generator = StreakCalVersion.generator
        var width: Int
        var months: [Month]
    }

    private struct Month: Encodable {
        var year: Int
        var month: Int
        var mode: String
        var frame: LayoutFrame
        var header: LayoutFrame
        var weeks: [[Cell]]
    }

    private struct Cell: Encodable {
        var date: Day
        var inMonth: Bool
        var hidden: Bool
        var frame: LayoutFrame
        var status: DayStatus?
        var points: Int?
    }

    /// The layouts as JSON (keys sorted), ending with a newline.
    public func json() throws -> String {
        let months = layouts.map { layout in
            Month(
                year: layout.grid.month.year, month: layout.grid.month.month, mode: layout.grid.mode.rawValue,
                frame: layout.frame, header: layout.headerFrame,
                weeks: layout.weeks.map { week in
                    week.map { placed in
                        let total = report?.total(on: placed.day)
                        return Cell(date: placed.day, inMonth: placed.isInMonth, hidden: placed.isHidden,
                                    frame: placed.frame, status: total?.status, points: total?.points)
                    }
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Document(width: layouts.first?.metrics.width ?? 0, months: months))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The grids as `cal` prints them; with a report, each day in its window carries its mark.
    public func text() -> String {
        var lines: [String] = []
        for layout in layouts {
            let title = CalendarNames.title(of: layout.grid.month)
            let padding = max(0, 20 - title.count)
            lines.append(String(repeating: " ", count: padding / 2) + title)
            lines.append((0..<7).map { CalendarNames.weekdayAbbreviations[layout.grid.firstWeekday.advanced(by: $0).rawValue] }
                .joined(separator: " "))
            for week in layout.grid.weeks {
                let cells = week.map { cell -> String in
                    guard !cell.isHidden else { return "   " }
                    let number = cell.day.dayOfMonth < 10 ? " \(cell.day.dayOfMonth)" : "\(cell.day.dayOfMonth)"
                    guard let report, report.total(on: cell.day) != nil else { return number + " " }
                    return number + String(rules.presentation(of: cell.day, in: report).mark)
                }
                var line = cells.joined()
                while line.last == " " { line.removeLast() }
                lines.append(line)
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The layouts as a standalone SVG at their frames, cells filled by the rules when there is a report.
    public func svg() -> String {
        let width = layouts.first?.metrics.width ?? 0
        let height = layouts.map(\.frame.maxY).max() ?? 0
        var lines = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
                + " font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">",
            "<rect width=\"\(width)\" height=\"\(height)\" fill=\"#FFFFFF\"/>",
        ]
        for layout in layouts {
            let header = layout.headerFrame
            lines.append("<g class=\"month\" id=\"month-\(layout.grid.month)\">")
            lines.append("<text x=\"\(header.x + header.width / 2)\" y=\"\(header.y + header.height / 2 + 6)\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">\(Markup.escape(CalendarNames.title(of: layout.grid.month)))</text>")
            for placed in layout.cells where !placed.isHidden {
                let frame = placed.frame
                let presentation = report.map { rules.presentation(of: placed.day, in: $0) } ?? .outsideWindow
                let textColor = placed.isInMonth ? presentation.text.description : "#8E8E93"
                lines.append("<g id=\"day-\(placed.day)\"><rect x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(frame.width)\" height=\"\(frame.height)\" fill=\"\(presentation.fill)\" stroke=\"#C7C7CC\"/>"
                    + "<text x=\"\(frame.x + frame.width / 2)\" y=\"\(frame.y + frame.height / 2 + 5)\" font-size=\"13\" text-anchor=\"middle\" fill=\"\(textColor)\">\(placed.day.dayOfMonth)</text></g>")
            }
            lines.append("</g>")
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }
}
