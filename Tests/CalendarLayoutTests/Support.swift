import CalendarLayout
import Foundation
import Streaks
import Testing

/// What `print(items...)` would print, without the newline.
func printed(_ items: Any...) -> String {
    items.map { String(describing: $0) }.joined(separator: " ")
}

/// A small deterministic generator (64-bit LCG), so that "random" viewports are the same every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}

/// Foundation's Gregorian calendar in UTC, whose first weekday and minimum days in the first week
/// make `weekOfMonth` count the rows of a month grid.
func foundationCalendar(firstWeekday: Weekday) throws -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    calendar.firstWeekday = firstWeekday.rawValue + 1
    calendar.minimumDaysInFirstWeek = 1
    return calendar
}

/// An independent, brute-force model of a month stack: it walks every month from the first one,
/// counts each month's rows by collecting the distinct week starts of its days, and tests every
/// header and cell frame against the viewport. Slow and obvious; `MonthStack` must agree with it.
struct BruteForceStack {
    struct Month {
        var month: CalendarMonth
        var y: Int
        var rows: Int
    }

    let metrics: LayoutMetrics
    let firstWeekday: Weekday
    let rowPolicy: RowPolicy
    let hidesOutOfMonthDays: Bool
    let monthList: [Month]

    init(firstMonth: CalendarMonth, monthCount: Int, metrics: LayoutMetrics, firstWeekday: Weekday,
         rowPolicy: RowPolicy, outOfMonthDays: OutOfMonthDays = .shown) {
        self.metrics = metrics
        self.firstWeekday = firstWeekday
        self.rowPolicy = rowPolicy
        self.hidesOutOfMonthDays = outOfMonthDays == .hidden
        var list: [Month] = []
        var y = 0
        var (year, month) = (firstMonth.year, firstMonth.month)
        for _ in 0..<monthCount {
            let first = try! Day(year: year, month: month, day: 1)
            let length = Day.daysInMonth(year: year, month: month)
            var weekStarts = Set<Int>()
            for offset in 0..<length {
                let day = first.advanced(by: offset)
                weekStarts.insert(day.daysSince1970 - day.weekday.daysSince(firstWeekday))
            }
            let rows = rowPolicy == .six ? 6 : weekStarts.count
            list.append(Month(month: CalendarMonth(year: year, month: month), y: y, rows: rows))
            y += metrics.headerHeight + rows * metrics.rowHeight
            month += 1
            if month == 13 { (year, month) = (year + 1, 1) }
        }
        monthList = list
    }

    var totalHeight: Int { monthList.last.map { $0.y + metrics.headerHeight + $0.rows * metrics.rowHeight } ?? 0 }

    /// Everything the viewport intersects, as comparable text lines.
    func visibleItems(in viewport: LayoutFrame) -> [String] {
        var lines: [String] = []
        for entry in monthList {
            let height = metrics.headerHeight + entry.rows * metrics.rowHeight
            let frame = LayoutFrame(x: 0, y: entry.y, width: metrics.width, height: height)
            guard frame.intersects(viewport) else { continue }
            let header = LayoutFrame(x: 0, y: entry.y, width: metrics.width, height: metrics.headerHeight)
            lines.append("month \(entry.month) \(frame) header \(header.intersects(viewport))")
            let first = try! Day(year: entry.month.year, month: entry.month.month, day: 1)
            let gridStart = first.advanced(by: -first.weekday.daysSince(firstWeekday))
            for row in 0..<entry.rows {
                for column in 0..<7 {
                    let x0 = column * metrics.width / 7, x1 = (column + 1) * metrics.width / 7
                    let cellFrame = LayoutFrame(
                        x: x0, y: entry.y + metrics.headerHeight + row * metrics.rowHeight,
                        width: x1 - x0, height: metrics.rowHeight)
                    guard cellFrame.intersects(viewport) else { continue }
                    let day = gridStart.advanced(by: row * 7 + column)
                    let inMonth = day.year == entry.month.year && day.month == entry.month.month
                    lines.append("  \(day) \(row),\(column) in \(inMonth) hidden \(!inMonth && hidesOutOfMonthDays) \(cellFrame)")
                }
            }
        }
        return lines
    }
}

extension MonthStack {
    /// The same lines as `BruteForceStack.visibleItems`, from the lazy layout.
    func visibleItemLines(in viewport: LayoutFrame) -> [String] {
        var lines: [String] = []
        forEachVisibleMonth(in: viewport) { month in
            lines.append("month \(month.month) \(month.frame) header \(month.isHeaderVisible)")
            month.forEachCell { placed in
                lines.append("  \(placed.day) \(placed.cell.row),\(placed.cell.column) in \(placed.isInMonth) hidden \(placed.isHidden) \(placed.frame)")
            }
        }
        return lines
    }
}

/// Shifts the dates and offsets in lines of `visibleItemLines` by whole 400-year cycles, so that a
/// query far down a stack can be compared with one on a small stack.
func shiftLines(_ lines: [String], cycles: Int, cycleHeight: Int) -> [String] {
    lines.map { line in
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for index in words.indices {
            let word = words[index]
            if let day = Day(word) {
                words[index] = Day(daysSince1970: day.daysSince1970 + cycles * 146_097).description
            } else if word.count >= 7, let month = Day(word + "-01") {
                words[index] = CalendarMonth(containing: month).advanced(by: cycles * 4_800).description
            } else if word.hasPrefix("y:"), index + 1 < words.count, let y = Int(words[index + 1].dropLast()) {
                words[index + 1] = "\(y + cycles * cycleHeight),"
            }
        }
        return words.joined(separator: " ")
    }
}
