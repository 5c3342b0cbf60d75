import CalendarDays

/// How many week rows a month grid has.
///
/// ```swift
/// let february = CalendarMonth(year: 2015, month: 2)  // 28 days from a Sunday
/// print(MonthGrid(month: february, rowPolicy: .variable).rowCount, MonthGrid(month: february, rowPolicy: .six).rowCount)
/// // Prints "4 6"
/// ```
public enum RowPolicy: String, CaseIterable, Hashable, Sendable {
    /// As many rows as the month touches: 4 to 6.
    case variable
    /// Always 6 rows (the most a month can need), so every month has the same height.
    case six
}

/// Whether a grid shows the days of the neighbouring months that fill its first and last rows.
///
/// A hidden cell keeps its date; it is only marked hidden (and, like every shown out-of-month cell,
/// not in the month):
///
/// ```swift
/// let grid = MonthGrid(month: CalendarMonth(year: 2024, month: 3), outOfMonthDays: .hidden)
/// print(grid[0, 0].day, grid[0, 0].isInMonth, grid[0, 0].isHidden)
/// // Prints "2024-02-25 false true"
/// ```
public enum OutOfMonthDays: String, CaseIterable, Hashable, Sendable {
    /// Out-of-month days are drawn (usually dimmed).
    case shown
    /// Out-of-month days are left blank.
    case hidden
}

/// One cell of a month grid: a date, its place in the grid, and whether it belongs to the month.
///
/// ```swift
/// let cell = MonthGrid(month: CalendarMonth(year: 2024, month: 3))[4, 6]
/// print(cell.day, cell.row, cell.column, cell.isInMonth)
/// // Prints "2024-03-30 4 6 true"
/// ```
public struct DayCell: Hashable, Sendable {
    /// The date the cell shows (out-of-month and hidden cells carry theirs too).
    public var day: Day
    /// The week row, 0 at the top.
    public var row: Int
    /// The column, 0 (the first weekday) to 6.
    public var column: Int
    /// Whether `day` is in the grid's month.
    public var isInMonth: Bool
    /// Whether the cell is left blank: an out-of-month day in a grid that hides them.
    public var isHidden: Bool

    /// Creates a cell.
    public init(day: Day, row: Int, column: Int, isInMonth: Bool, isHidden: Bool) {
        self.day = day
        self.row = row
        self.column = column
        self.isInMonth = isInMonth
        self.isHidden = isHidden
    }
}

/// The weeks × 7 day cells of one month (or of one week, in week mode), for a first weekday.
///
/// A grid stores no cells: it is a few integers, and each cell is computed on demand with integer
/// day arithmetic, so grids of any year cost the same. It is a random-access collection of its
/// cells, row by row:
///
/// ```swift
/// let grid = MonthGrid(month: CalendarMonth(year: 2024, month: 2), firstWeekday: .monday)
/// print(grid.rowCount, grid.count, grid.first!.day, grid.last!.day)
/// print(grid)
/// // Prints "5 35 2024-01-29 2024-03-03"
/// // Prints:
/// // 29 30 31  1  2  3  4
/// //  5  6  7  8  9 10 11
/// // 12 13 14 15 16 17 18
/// // 19 20 21 22 23 24 25
/// // 26 27 28 29  1  2  3
/// ```
public struct MonthGrid: Hashable, Sendable {
    /// Whether a grid shows a whole month or the one week containing a date.
    ///
    /// ```swift
    /// let day = Day("2024-03-14")
    /// print(MonthGrid(month: CalendarMonth(containing: day)).mode, MonthGrid(weekContaining: day).mode)
    /// // Prints "month week"
    /// ```
    public enum Mode: String, Hashable, Sendable {
        /// Every week the month touches (see `RowPolicy`).
        case month
        /// One row: the week that contains a given date.
        case week
    }

    /// The month whose days are "in month".
    public let month: CalendarMonth
    /// The weekday of column 0.
    public let firstWeekday: Weekday
    /// The row policy (month mode; a week grid has one row whatever its policy).
    public let rowPolicy: RowPolicy
    /// Whether out-of-month days are shown.
    public let outOfMonthDays: OutOfMonthDays
    /// Month or week mode.
    public let mode: Mode
    /// The date of the top-left cell.
    public let firstDay: Day
    /// The number of week rows: 4–6 (`.variable`), 6 (`.six`) or 1 (week mode).
    public let rowCount: Int
    /// The day numbers (days since 1970) of `month`, kept so that cells cost no date conversion.
    private let monthDayNumbers: Range<Int>

    /// The grid of a month.
    ///
    /// ```swift
    /// let grid = MonthGrid(month: CalendarMonth(year: 2015, month: 2), firstWeekday: .sunday)
    /// print(grid.rowCount, grid.firstDay)
    /// // Prints "4 2015-02-01"
    /// ```
    public init(
        month: CalendarMonth,
        firstWeekday: Weekday = .sunday,
        rowPolicy: RowPolicy = .variable,
        outOfMonthDays: OutOfMonthDays = .shown
    ) {
        let first = month.firstDay
        let leading = MonthGrid.leadingDays(firstOfMonth: first, firstWeekday: firstWeekday)
        self.month = month
        self.firstWeekday = firstWeekday
        self.rowPolicy = rowPolicy
        self.outOfMonthDays = outOfMonthDays
        self.mode = .month
        self.firstDay = first.advanced(by: -leading)
        self.rowCount = MonthGrid.rowCount(leadingDays: leading, dayCount: month.dayCount, rowPolicy: rowPolicy)
        self.monthDayNumbers = first.daysSince1970..<first.daysSince1970 + month.dayCount
    }

    /// The one-row grid of the week that contains `day`; the days of `day`'s month are in month.
    ///
    /// ```swift
    /// let week = MonthGrid(weekContaining: Day("2024-03-01"), firstWeekday: .monday)
    /// print(week.rowCount, week.first!.day, week.first!.isInMonth, week.last!.day)
    /// // Prints "1 2024-02-26 false 2024-03-03"
    /// ```
    public init(weekContaining day: Day, firstWeekday: Weekday = .sunday, outOfMonthDays: OutOfMonthDays = .shown) {
        self.month = CalendarMonth(containing: day)
        self.firstWeekday = firstWeekday
        self.rowPolicy = .variable
        self.outOfMonthDays = outOfMonthDays
        self.mode = .week
        self.firstDay = day.advanced(by: -day.weekday.daysSince(firstWeekday))
        self.rowCount = 1
        let first = month.firstDay.daysSince1970
        self.monthDayNumbers = first..<first + month.dayCount
    }

    /// The number of rows the grid of `month` has, without building the grid.
    ///
    /// ```swift
    /// print(MonthGrid.rowCount(month: CalendarMonth(year: 2015, month: 8), firstWeekday: .sunday, rowPolicy: .variable))
    /// // Prints "6"
    /// ```
    public static func rowCount(month: CalendarMonth, firstWeekday: Weekday, rowPolicy: RowPolicy) -> Int {
        let leading = leadingDays(firstOfMonth: month.firstDay, firstWeekday: firstWeekday)
        return rowCount(leadingDays: leading, dayCount: month.dayCount, rowPolicy: rowPolicy)
    }

    /// The days of the previous month before the 1st in the first row, 0...6.
    static func leadingDays(firstOfMonth: Day, firstWeekday: Weekday) -> Int {
        // 1970-01-01 was a Thursday (raw value 4).
        (firstOfMonth.daysSince1970 + 4 - firstWeekday.rawValue).remainderRoundingDown(dividingBy: 7)
    }

    static func rowCount(leadingDays: Int, dayCount: Int, rowPolicy: RowPolicy) -> Int {
        switch rowPolicy {
        case .variable: (leadingDays + dayCount + 6) / 7
        case .six: 6
        }
    }

    /// The cell at `row` (0..<rowCount) and `column` (0...6).
    public subscript(row: Int, column: Int) -> DayCell {
        precondition((0..<rowCount).contains(row) && (0..<7).contains(column), "MonthGrid: no cell at (\(row), \(column))")
        return cell(row: row, column: column)
    }

    /// The cell at (row, column), unchecked.
    @inline(__always)
    func cell(row: Int, column: Int) -> DayCell {
        let offset = row * 7 + column
        let number = firstDay.daysSince1970 + offset
        let isInMonth = monthDayNumbers.contains(number)
        return DayCell(
            day: Day(daysSince1970: number), row: row, column: column,
            isInMonth: isInMonth, isHidden: !isInMonth && outOfMonthDays == .hidden
        )
    }

    /// The row and column of `day`'s cell, or nil when the grid has no cell for it.
    ///
    /// ```swift
    /// let grid = MonthGrid(month: CalendarMonth(year: 2024, month: 3))
    /// print(grid.position(of: Day("2024-03-14"))!)
    /// // Prints "(row: 2, column: 4)"
    /// ```
    public func position(of day: Day) -> (row: Int, column: Int)? {
        let offset = day.daysSince1970 - firstDay.daysSince1970
        guard offset >= 0, offset < rowCount * 7 else { return nil }
        return (offset / 7, offset % 7)
    }

    /// The grid's rows, each of 7 cells.
    public var weeks: [[DayCell]] {
        (0..<rowCount).map { row in (0..<7).map { cell(row: row, column: $0) } }
    }
}

extension MonthGrid: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { rowCount * 7 }

    /// The cell at `position`, counting row by row from the top-left cell.
    public subscript(position: Int) -> DayCell {
        precondition(indices.contains(position), "MonthGrid: index \(position) out of range")
        return cell(row: position / 7, column: position % 7)
    }
}

extension MonthGrid: CustomStringConvertible {
    /// The grid as `cal` prints its weeks: day numbers right-aligned in 2 columns, blanks for hidden cells.
    public var description: String {
        weeks.map { week in
            week.map { cell in
                if cell.isHidden { return "  " }
                let number = cell.day.dayOfMonth
                return number < 10 ? " \(number)" : "\(number)"
            }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}
