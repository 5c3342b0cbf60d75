import CalendarLayout
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StreakExport
import Streaks
import Testing

/// Every renderer and view, with every day of three years as the last day (and as today), with
/// each first weekday: a view cannot fail on a date the tests did not pick (issue 46: the text
/// report crashed on about one day in nine, whenever the rolling heatmap's last column held a 1st).
@Suite("Every day as the last day, every first weekday")
struct DateSweepTests {
    /// 2025-01-01 through 2027-12-31: three years, a leap-free stretch around today and the leap
    /// day's neighbours of 2028 left to the other suites.
    static let lastDays: [Day] = {
        let first = try! Day(year: 2025, month: 1, day: 1), last = try! Day(year: 2027, month: 12, day: 31)
        return (0...first.distance(to: last)).map { first.advanced(by: $0) }
    }()

    static let weekdays: [Weekday] = (0..<7).map { Weekday.sunday.advanced(by: $0) }

    /// A report of the 400 days up to `last`, points repeating none, a fifth, half, met, more.
    static func report(to last: Day, days: Int = 400) -> StreakReport {
        let pattern = [0, 20, 50, 100, 130]
        let first = last.advanced(by: -(days - 1))
        let points = (0..<days).map { pattern[($0 + first.daysSince1970) % pattern.count] }
        return StreakReport(
            goal: StreakGoal(requiredPoints: 100, timeZone: .utc), rules: StreakRules(requiredPoints: 100), firstDay: first, points: points,
            sessionCounts: points.map { $0 > 0 ? 1 : 0 })
    }

    @Test("Heatmap grids: every month's label column is a column of the grid, in order, its label frame inside the grid's")
    func heatmapGrids() {
        var checked = 0
        for last in Self.lastDays {
            for weekday in Self.weekdays {
                for grid in [YearGrid(weeksEndingWith: last, firstWeekday: weekday), YearGrid(year: last.components.year, firstWeekday: weekday)] {
                    let columns = grid.monthColumns
                    let weeks = columns.map(\.week)
                    if !weeks.allSatisfy({ (0..<grid.weekCount).contains($0) }) || weeks != weeks.sorted() || Set(weeks).count != weeks.count {
                        Issue.record("\(last) \(weekday): columns \(weeks) of \(grid.weekCount)")
                    }
                    let layout = YearLayout(grid: grid, cellSize: 10, gap: 2, labelWidth: 30, labelHeight: 15)
                    for index in columns.indices {
                        guard let frame = layout.monthLabelFrame(at: index) else {
                            Issue.record("\(last) \(weekday): no frame for month \(columns[index].month)")
                            continue
                        }
                        if frame.width < 0 || frame.maxX > layout.frame.maxX { Issue.record("\(last) \(weekday): label frame \(frame) outside \(layout.frame)") }
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == Self.lastDays.count * 7 * 2)
    }

    @Test("Month grids and stacks: each day of the month once, in its weekday's column, rows within the grid")
    func monthGrids() {
        for last in Self.lastDays where last.components.day == 1 {
            for weekday in Self.weekdays {
                let month = CalendarMonth(containing: last)
                let grid = MonthGrid(month: month, firstWeekday: weekday)
                let inMonth = grid.filter(\.isInMonth)
                #expect(inMonth.map(\.day) == (0..<month.dayCount).map { month.firstDay.advanced(by: $0) })
                #expect(inMonth.allSatisfy { $0.column == $0.day.weekday.daysSince(weekday) && $0.row < grid.rowCount })
                let stack = MonthStack(firstMonth: month, monthCount: 3, metrics: LayoutMetrics(width: 390), firstWeekday: weekday)
                #expect(stack.totalHeight > 0)
            }
        }
    }

    static let views: [ReportView] = [.rolling, .year, .month]

    @Test("The text report: every last day with every first weekday, the views taking turns; whole, with its heatmap")
    func text() {
        for (dayIndex, last) in Self.lastDays.enumerated() {
            let reports = (long: Self.report(to: last), short: Self.report(to: last, days: 62))
            for (weekdayIndex, weekday) in Self.weekdays.enumerated() {
                let view = Self.views[(dayIndex + weekdayIndex) % Self.views.count]
                let report = view == .month ? reports.short : reports.long
                let text = TextReport(report: report, colors: weekday == .monday, firstWeekday: weekday, view: view, today: last).render()
                guard text.hasPrefix("Streak report: "), text.contains("Longest streak:") else {
                    Issue.record("\(view) \(last) \(weekday): \(text.prefix(200))")
                    continue
                }
                if view == .rolling, !text.contains("The last 53 weeks, ") { Issue.record("\(last) \(weekday): no rolling heatmap") }
            }
        }
    }

    @Test("SVG, HTML and Markdown: every last day, the views taking turns by day and the first weekdays by week; well-formed")
    func pictures() throws {
        for (index, last) in Self.lastDays.enumerated() {
            let weekday = Self.weekdays[(index / 7) % 7]
            let view = Self.views[index % Self.views.count]
            let report = Self.report(to: last, days: view == .month ? 62 : 400)
            let svg = SVGReport(report: report, firstWeekday: weekday, view: view, today: last).render()
            guard XMLParser(data: Data(svg.utf8)).parse() else {
                Issue.record("SVG \(view) \(last) \(weekday) is not XML")
                continue
            }
            let html = HTMLReport(report: report, sessions: [], firstWeekday: weekday, view: view, today: last).render()
            if !html.hasPrefix("<!DOCTYPE html>") || !html.hasSuffix("</html>\n") { Issue.record("HTML \(view) \(last) \(weekday) is cut short") }
            // Every day of a heatmap has its hover title, as GitHub's graph has (issue 46.9): a
            // cell is a filler (`<i class="x">`) or a day with a title.
            var heatmapDays = 0
            for heatmap in html.components(separatedBy: "<div class=\"hm\">").dropFirst() {
                let cells = heatmap.components(separatedBy: "</div>")[0]
                    .components(separatedBy: "<").filter { $0.hasPrefix("i ") || $0.hasPrefix("a ") }
                for cell in cells where cell != "i class=\"x\">" {
                    heatmapDays += 1
                    if !cell.contains(" title=\"") { Issue.record("HTML \(view) \(last): a heatmap day without a title: <\(cell)") }
                }
            }
            if view != .month, heatmapDays < 365 { Issue.record("HTML \(view) \(last): \(heatmapDays) heatmap days") }
            if index % 7 == 0 {
                let markdown = MarkdownReport(report: report, firstWeekday: weekday).render()
                if !markdown.hasPrefix("# Streak report") { Issue.record("Markdown \(last) \(weekday): \(markdown.prefix(100))") }
            }
        }
    }
}
