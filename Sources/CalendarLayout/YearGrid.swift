public import CalendarDays

/// A year as a contribution graph shows it: one column per week, one row per weekday.
///
/// The first column is the week that holds 1 January, beginning on `firstWeekday`; the last is
/// the week that holds 31 December: 53 columns, or 54 when a leap year starts on the last weekday
/// of a week. Cells before 1 January and after 31 December belong to no day of the year. Every
/// query is arithmetic on day numbers: no cell is made until asked for.
///
/// ```swift
/// let grid = YearGrid(year: 2024, firstWeekday: .sunday)
/// print(grid.weekCount, grid.position(of: Day("2024-02-20"))!)
/// // Prints "53 (week: 7, row: 2)"
/// ```
public struct YearGrid: Hashable, Sendable {
    /// The year (of a rolling grid, the year of its last day).
    public let year: Int
    /// The weekday of the first row.
    public let firstWeekday: Weekday
    /// The first day of the first column: 1 January or the days before it in its week.
    public let firstDay: Day
    /// The number of columns (weeks): 53 or 54 (a rolling grid's own count).
    public let weekCount: Int
    /// The days the grid shows: 1 January through 31 December, or a rolling grid's first day
    /// through its last.
    public let days: ClosedRange<Day>

    public init(year: Int, firstWeekday: Weekday = .sunday) {
        self.year = year
        self.firstWeekday = firstWeekday
        let january1 = Day(normalizingYear: year, month: 1, day: 1)
        firstDay = january1.advanced(by: -january1.weekday.daysSince(firstWeekday))
        let december31 = Day(normalizingYear: year, month: 12, day: 31)
        weekCount = (december31.daysSince1970 - firstDay.daysSince1970) / 7 + 1
        days = january1...december31
    }

    /// The last `weekCount` weeks through the week of `lastDay`, as GitHub's contribution graph
    /// shows a year: every day from the first column's first day through `lastDay`.
    ///
    /// ```swift
    /// let grid = YearGrid(weeksEndingWith: Day("2026-11-28"), firstWeekday: .sunday)
    /// print(grid.firstDay, grid.weekCount, grid.monthColumns.first!)
    /// // Prints "2025-11-23 53 (month: 11, week: 0)"
    /// ```
    public init(weeksEndingWith lastDay: Day, weekCount: Int = 53, firstWeekday: Weekday = .sunday) {
        self.year = lastDay.components.year
        self.firstWeekday = firstWeekday
        self.weekCount = max(1, weekCount)
        let lastWeekStart = lastDay.advanced(by: -lastDay.weekday.daysSince(firstWeekday))
        firstDay = lastWeekStart.advanced(by: -7 * (self.weekCount - 1))
        days = firstDay...lastDay
    }

    /// The column and row of `day`, or `nil` when it is not in the year.
    public func position(of day: Day) -> (week: Int, row: Int)? {
        guard days.contains(day) else { return nil }
        let offset = day.daysSince1970 - firstDay.daysSince1970
        return (offset / 7, offset % 7)
    }

    /// The day in column `week` and row `row`, or `nil` when that cell lies outside the year (or the grid).
    public func day(week: Int, row: Int) -> Day? {
        guard (0..<weekCount).contains(week), (0..<7).contains(row) else { return nil }
        let day = firstDay.advanced(by: week * 7 + row)
        return days.contains(day) ? day : nil
    }

    /// The weekday of row `row`.
    public func weekday(ofRow row: Int) -> Weekday {
        firstWeekday.advanced(by: row)
    }

    /// Where each month's label goes: the first column whose first row lies in the month (for
    /// January, column 0), so that labels sit over the weeks they name.
    ///
    /// ```swift
    /// print(YearGrid(year: 2024).monthColumns.prefix(3).map { "\($0.month):\($0.week)" })
    /// // Prints "["1:0", "2:5", "3:9"]"
    /// ```
    public var monthColumns: [(month: Int, week: Int)] {
        var columns = [(month: days.lowerBound.components.month, week: 0)]
        var components = days.lowerBound.components
        while true {
            components = components.month == 12 ? (components.year + 1, 1, 1) : (components.year, components.month + 1, 1)
            let first = Day(normalizingYear: components.year, month: components.month, day: 1)
            guard first <= days.upperBound else { break }
            // The first column that starts in the month; a month whose 1st falls inside the last
            // column (its first whole week is past the grid, as on a rolling grid ending in the
            // month's first days) takes that column, so every column named is one of the grid's.
            let offset = first.daysSince1970 - firstDay.daysSince1970
            let firstWholeWeek = (offset + 6) / 7
            columns.append((components.month, firstWholeWeek < weekCount ? firstWholeWeek : offset / 7))
        }
        return columns
    }
}

/// A ``YearGrid`` placed on a plane: square cells of `cellSize` points with `gap` points between
/// them, a band on the left for weekday labels and one on top for month labels.
///
/// ```swift
/// let layout = YearLayout(grid: YearGrid(year: 2024), cellSize: 12, gap: 3, labelWidth: 30, labelHeight: 16)
/// print(layout.frame, layout.frame(of: Day("2024-01-01"))!)
/// // Prints "(x: 0, y: 0, width: 822, height: 118) (x: 30, y: 31, width: 12, height: 12)"
/// ```
public struct YearLayout: Hashable, Sendable {
    /// The grid.
    public let grid: YearGrid
    /// The side of a cell.
    public let cellSize: Int
    /// The space between cells.
    public let gap: Int
    /// The width of the band for weekday labels, left of the cells.
    public let labelWidth: Int
    /// The height of the band for month labels, above the cells.
    public let labelHeight: Int
    /// The top left corner.
    public let x: Int
    public let y: Int

    /// - Precondition: `cellSize` ≥ 1, `gap`, `labelWidth` and `labelHeight` ≥ 0.
    public init(grid: YearGrid, cellSize: Int, gap: Int, labelWidth: Int, labelHeight: Int, x: Int = 0, y: Int = 0) {
        precondition(cellSize >= 1 && gap >= 0 && labelWidth >= 0 && labelHeight >= 0, "a year layout needs a positive cell size")
        self.grid = grid
        self.cellSize = cellSize
        self.gap = gap
        self.labelWidth = labelWidth
        self.labelHeight = labelHeight
        self.x = x
        self.y = y
    }

    /// The largest cell size (at most `maximum`, at least 1) whose layout of `grid` fits `width`,
    /// labels included.
    ///
    /// ```swift
    /// print(YearLayout.cellSize(fitting: 976, grid: YearGrid(year: 2024), gap: 3, labelWidth: 34, maximum: 16))
    /// // Prints "14"
    /// ```
    public static func cellSize(fitting width: Int, grid: YearGrid, gap: Int, labelWidth: Int, maximum: Int) -> Int {
        let available = width - labelWidth - (grid.weekCount - 1) * gap
        return max(1, min(maximum, available / grid.weekCount))
    }

    /// The distance from one column (or row) to the next.
    public var pitch: Int { cellSize + gap }

    /// The whole layout, labels included.
    public var frame: LayoutFrame {
        LayoutFrame(x: x, y: y, width: labelWidth + grid.weekCount * pitch - gap, height: labelHeight + 7 * pitch - gap)
    }

    /// The frame of the cell in column `week` and row `row` (inside the grid or not).
    public func cellFrame(week: Int, row: Int) -> LayoutFrame {
        LayoutFrame(x: x + labelWidth + week * pitch, y: y + labelHeight + row * pitch, width: cellSize, height: cellSize)
    }

    /// The frame of `day`'s cell, or `nil` when it is not in the year.
    public func frame(of day: Day) -> LayoutFrame? {
        grid.position(of: day).map { cellFrame(week: $0.week, row: $0.row) }
    }

    /// Where row `row`'s weekday label goes: the band left of the row.
    public func weekdayLabelFrame(row: Int) -> LayoutFrame {
        LayoutFrame(x: x, y: y + labelHeight + row * pitch, width: labelWidth, height: cellSize)
    }

    /// Where a month's label goes: the band above its column (``YearGrid/monthColumns``), as wide
    /// as the columns up to the next month's.
    public func monthLabelFrame(month: Int) -> LayoutFrame? {
        grid.monthColumns.firstIndex(where: { $0.month == month }).flatMap(monthLabelFrame(at:))
    }

    /// Where the label of the `index`th month of ``YearGrid/monthColumns`` goes (a rolling grid
    /// may show one month at both ends).
    public func monthLabelFrame(at index: Int) -> LayoutFrame? {
        let columns = grid.monthColumns
        guard columns.indices.contains(index) else { return nil }
        let end = index + 1 < columns.count ? columns[index + 1].week : grid.weekCount
        let start = columns[index].week
        return LayoutFrame(x: x + labelWidth + start * pitch, y: y, width: max(0, end - start) * pitch - gap, height: labelHeight)
    }

    /// The days whose cells meet `rect`, column by column: only the columns and rows the
    /// rectangle touches are visited, so the cost follows what is visible.
    public func days(in rect: LayoutFrame) -> [(day: Day, frame: LayoutFrame)] {
        guard rect.intersects(frame), pitch > 0 else { return [] }
        let left = x + labelWidth, top = y + labelHeight
        let firstWeek = max(0, (rect.minX - left) / pitch - 1), lastWeek = min(grid.weekCount - 1, (rect.maxX - left) / pitch + 1)
        let firstRow = max(0, (rect.minY - top) / pitch - 1), lastRow = min(6, (rect.maxY - top) / pitch + 1)
        guard firstWeek <= lastWeek, firstRow <= lastRow else { return [] }
        var result: [(day: Day, frame: LayoutFrame)] = []
        for week in firstWeek...lastWeek {
            for row in firstRow...lastRow {
                let cell = cellFrame(week: week, row: row)
                if let day = grid.day(week: week, row: row), cell.intersects(rect) { result.append((day, cell)) }
            }
        }
        return result
    }
}
