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
/// let json = LayoutExport(layouts: [MonthLayout(grid: grid, metrics: metrics)]).json()
/// // {"generator":"StreakCal 0.1.0","months":[{"frame":{"height":294,"width":350,"x":0,"y":0},"month":2,"weeks":[...],"year":2024}],"width":350}
/// ```
public struct LayoutExport: Sendable {
    /// The months (or weeks), each at its frame.
    public var layouts: [MonthLayout]
    /// Scored days to colour the cells with, if any.
    public var report: StreakReport?
    /// How scored days look.
    public var rules: DayPresentationRules
    /// The page's colours in SVG (background, labels, borders).
    public var palette: ReportPalette

    public init(
        layouts: [MonthLayout], report: StreakReport? = nil, rules: DayPresentationRules? = nil,
        palette: ReportPalette = .standard
    ) {
        self.layouts = layouts
        self.report = report
        self.rules = rules ?? palette.rules
        self.palette = palette
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
    ///
    /// It cannot fail: every value is an integer, a string, a Boolean or a day (JSONEncoder fails
    /// only on floating-point numbers that are not finite, and there are none).
    public func json() -> String {
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
        guard let data = try? encoder.encode(Document(width: layouts.first?.metrics.width ?? 0, months: months)) else {
            preconditionFailure("LayoutExport: JSONEncoder refused integers and strings")
        }
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

    /// The layouts as a standalone SVG at their frames: each month's title and weekday names in its
    /// header (the title alone in a header under 30 points, nothing in one under 12), its cells,
    /// filled by the rules when there is a report, with each scored day's mark when cells are at
    /// least 24 points; with a report, a legend below the months. Days of neighbouring months are
    /// labelled in the page's secondary text colour, at a contrast of at least 4.5.
    public func svg() -> String {
        let width = layouts.first?.metrics.width ?? 0
        let monthsHeight = layouts.map(\.frame.maxY).max() ?? 0
        let page = palette.page
        let scored = report.map { report in
            rules.legend(for: report).filter { presentation in
                layouts.contains { $0.cells.contains { !$0.isHidden && report.total(on: $0.day).map(rules.presentation(for:)) == presentation } }
            }
        } ?? []
        // The legend: rows of swatches, as many to a row as the width takes.
        var legend: [String] = []
        var (x, y) = (4, monthsHeight + 10)
        for presentation in scored {
            let needed = 26 + (presentation.label.count * 12 * 60 + 99) / 100 + 14
            if x > 4, x + needed > width {
                x = 4
                y += 24
            }
            legend.append("<rect x=\"\(x)\" y=\"\(y)\" width=\"18\" height=\"18\" rx=\"4\" \(paint(presentation))/>"
                + "<text x=\"\(x + 9)\" y=\"\(y + 13)\" font-size=\"11\" text-anchor=\"middle\" fill=\"\(presentation.text)\">\(Markup.escape(String(presentation.mark)))</text>"
                + "<text x=\"\(x + 24)\" y=\"\(y + 14)\" font-size=\"12\" fill=\"\(page.text)\">\(Markup.escape(presentation.label))</text>")
            x += needed
        }
        let height = scored.isEmpty ? monthsHeight : y + 18 + 10
        var lines = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
                + " font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">",
        ]
        if let title = layouts.first.map({ CalendarNames.title(of: $0.grid.month) }) {
            let last = layouts.last.map { CalendarNames.title(of: $0.grid.month) } ?? title
            lines.append("<title>\(Markup.escape(title == last ? title : "\(title) to \(last)"))</title>")
        }
        if scored.contains(where: { $0.pattern == .hatched }) {
            lines.append("<defs>" + Set(scored.filter { $0.pattern == .hatched }.map(\.fill)).sorted { $0.description < $1.description }.map { fill in
                "<pattern id=\"hatch-\(fill.description.dropFirst())\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                    + "<rect width=\"6\" height=\"6\" fill=\"\(page.background)\"/><rect width=\"3\" height=\"6\" fill=\"\(fill)\"/></pattern>"
            }.joined() + "</defs>")
        }
        lines.append("<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(page.background)\"/>")
        for layout in layouts {
            let header = layout.headerFrame
            lines.append("<g class=\"month\" id=\"month-\(layout.grid.month)\">")
            let title = Markup.escape(CalendarNames.title(of: layout.grid.month))
            if header.height >= 30 {
                lines.append("<text x=\"\(header.x + header.width / 2)\" y=\"\(header.y + min(20, header.height / 2 + 2))\" font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"\(page.text)\">\(title)</text>")
                for column in 0..<7 {
                    let cell = layout.cellFrame(row: 0, column: column)
                    let name = CalendarNames.weekdayAbbreviations[layout.grid.firstWeekday.advanced(by: column).rawValue]
                    lines.append("<text x=\"\(cell.x + cell.width / 2)\" y=\"\(header.maxY - 5)\" font-size=\"11\" text-anchor=\"middle\" fill=\"\(page.secondaryText)\">\(name)</text>")
                }
            } else if header.height >= 12 {
                let size = header.height * 7 / 10
                lines.append("<text x=\"\(header.x + header.width / 2)\" y=\"\(header.y + size)\" font-size=\"\(size)\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"\(page.text)\">\(title)</text>")
            }
            for placed in layout.cells where !placed.isHidden {
                lines.append(cell(placed, page: page))
            }
            lines.append("</g>")
        }
        lines += legend
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One cell: its frame filled as its day looks, the day number, and the mark of a scored day.
    private func cell(_ placed: PlacedDayCell, page: ReportPalette.Page) -> String {
        let frame = placed.frame
        let total = placed.isInMonth ? report?.total(on: placed.day) : nil
        let presentation = total.map(rules.presentation(for:))
        let fill = presentation.map { paint($0) } ?? "fill=\"\(page.background)\""
        let textColor = presentation?.text ?? (placed.isInMonth ? page.text : page.secondaryText)
        let title = total.map { "\(CalendarNames.long(placed.day)): \(rules.presentation(for: $0).label), \(DayWords.points($0, unit: report?.goal.unit ?? .points, brief: true, activeDays: report?.rules.scoresActiveDays ?? false))" }
        let big = frame.width >= 24 && frame.height >= 24
        let numberY = frame.y + (big && presentation != nil ? frame.height / 2 + 2 : frame.height / 2 + 5)
        var text = "<g id=\"day-\(placed.day)\"\(placed.isInMonth ? "" : " class=\"outside\"")>"
        if let title { text += "<title>\(Markup.escape(title))</title>" }
        let stroke = fill.contains("stroke=") ? "" : " stroke=\"\(page.border)\""
        text += "<rect x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(frame.width)\" height=\"\(frame.height)\" \(fill)\(stroke)/>"
            + "<text x=\"\(frame.x + frame.width / 2)\" y=\"\(numberY)\" font-size=\"13\" text-anchor=\"middle\" fill=\"\(textColor)\">\(placed.day.dayOfMonth)</text>"
        if big, let presentation, presentation.mark != " " {
            text += "<text x=\"\(frame.x + frame.width / 2)\" y=\"\(frame.y + frame.height - 5)\" font-size=\"10\" text-anchor=\"middle\" fill=\"\(presentation.text)\">\(Markup.escape(String(presentation.mark)))</text>"
        }
        return text + "</g>"
    }

    /// The paint of a presentation's cell: solid, the background with a border for an outline,
    /// or a hatch with a border.
    private func paint(_ presentation: DayPresentation) -> String {
        switch presentation.pattern {
        case .solid: "fill=\"\(presentation.fill)\""
        case .outline: "fill=\"\(palette.page.background)\" stroke=\"\(presentation.fill)\" stroke-width=\"1.5\""
        case .hatched: "fill=\"url(#hatch-\(presentation.fill.description.dropFirst()))\" stroke=\"\(presentation.fill)\""
        }
    }
}
