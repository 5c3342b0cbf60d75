import CalendarDays

/// Months stacked vertically over any range, laid out lazily: only what a viewport shows is computed.
///
/// Each month is a header and its rows (`MonthLayout`), directly below the previous one. The
/// Gregorian calendar repeats every 400 years (146,097 days, exactly 20,871 weeks, 4,800 months),
/// and so do the months' row counts for a first weekday: one fixed table of the rows before each
/// month of the cycle turns any month into its y offset, and any y offset into its month (a binary
/// search in the cycle), with integer arithmetic. A viewport query walks only the months it
/// intersects, so its time and memory depend on the viewport, not on the range or the offset;
/// a stack itself is a few integers.
///
/// ```swift
/// let stack = MonthStack(
///     firstMonth: CalendarMonth(year: 2000, month: 1), monthCount: 1_200_000,  // 100,000 years
///     metrics: LayoutMetrics(width: 390), firstWeekday: .monday)
/// let viewport = LayoutFrame(x: 0, y: stack.totalHeight - 844, width: 390, height: 844)
/// let months = stack.visibleMonths(in: viewport)
/// print(stack.totalHeight, months.map(\.month), months.map(\.visibleCellCount))
/// // Prints "396371250 [+101999-10, +101999-11, +101999-12] [28, 35, 35]"
/// ```
public struct MonthStack: Hashable, Sendable {
    /// The months laid out, first to last.
    public let months: ClosedRange<CalendarMonth>
    /// Widths and heights.
    public let metrics: LayoutMetrics
    /// The weekday of every grid's first column.
    public let firstWeekday: Weekday
    /// The row policy of every month.
    public let rowPolicy: RowPolicy
    /// Whether out-of-month days are shown.
    public let outOfMonthDays: OutOfMonthDays
    /// The height of the whole stack: the sum of its months' heights.
    public private(set) var totalHeight: Int

    /// The 400-year cycle the first month falls in (cycle 0 starts in January of year 0).
    private let firstCycle: Int
    /// The first month's y in its cycle, as if the stack started at the cycle's start.
    private let firstCycleY: Int
    /// The height of 4,800 consecutive months starting in any January of a year divisible by 400.
    private let cycleHeight: Int

    /// Stacks the months of `months`.
    public init(
        months: ClosedRange<CalendarMonth>,
        metrics: LayoutMetrics,
        firstWeekday: Weekday = .sunday,
        rowPolicy: RowPolicy = .variable,
        outOfMonthDays: OutOfMonthDays = .shown
    ) {
        self.months = months
        self.metrics = metrics
        self.firstWeekday = firstWeekday
        self.rowPolicy = rowPolicy
        self.outOfMonthDays = outOfMonthDays
        let first = months.lowerBound.index
        firstCycle = (first).dividedRoundingDown(by: Cycle.months)
        cycleHeight = Cycle.height(before: Cycle.months, metrics: metrics, firstWeekday: firstWeekday, rowPolicy: rowPolicy)
        firstCycleY = Cycle.height(before: first - firstCycle * Cycle.months, metrics: metrics, firstWeekday: firstWeekday, rowPolicy: rowPolicy)
        totalHeight = 0
        totalHeight = offset(ofIndex: months.upperBound.index + 1)
    }

    /// Stacks `monthCount` months (at least 1) from `firstMonth`.
    ///
    /// ```swift
    /// let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 2, metrics: LayoutMetrics(width: 390))
    /// print(stack.months, stack.totalHeight)
    /// // Prints "2015-01...2015-02 583"
    /// ```
    public init(
        firstMonth: CalendarMonth,
        monthCount: Int,
        metrics: LayoutMetrics,
        firstWeekday: Weekday = .sunday,
        rowPolicy: RowPolicy = .variable,
        outOfMonthDays: OutOfMonthDays = .shown
    ) {
        precondition(monthCount >= 1, "MonthStack: at least one month, got \(monthCount)")
        self.init(
            months: firstMonth...firstMonth.advanced(by: monthCount - 1), metrics: metrics,
            firstWeekday: firstWeekday, rowPolicy: rowPolicy, outOfMonthDays: outOfMonthDays
        )
    }

    /// The number of months in the stack.
    public var monthCount: Int { months.lowerBound.distance(to: months.upperBound) + 1 }

    /// The frame of the whole stack: x 0, y 0, the metrics' width, the total height.
    public var frame: LayoutFrame { LayoutFrame(x: 0, y: 0, width: metrics.width, height: totalHeight) }

    // MARK: - Months to offsets and back

    /// The y of the month with absolute index `index` (months since January of year 0), relative to
    /// the stack's top; computed from cycle numbers first so that no intermediate value grows with
    /// the year, only with the distance from the first month.
    private func offset(ofIndex index: Int) -> Int {
        let cycle = (index).dividedRoundingDown(by: Cycle.months)
        let inCycle = index - cycle * Cycle.months
        let yInCycle = Cycle.height(before: inCycle, metrics: metrics, firstWeekday: firstWeekday, rowPolicy: rowPolicy)
        return (cycle - firstCycle) * cycleHeight + yInCycle - firstCycleY
    }

    /// The absolute index of the month at `y` (0 ≤ y < totalHeight).
    private func index(atY y: Int) -> Int {
        let fromCycleStart = y + firstCycleY
        let cycles = fromCycleStart / cycleHeight
        let rest = fromCycleStart - cycles * cycleHeight
        // The last month of the cycle whose top is at or above `rest`.
        var low = 0, high = Cycle.months - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Cycle.height(before: middle, metrics: metrics, firstWeekday: firstWeekday, rowPolicy: rowPolicy) <= rest {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return (firstCycle + cycles) * Cycle.months + low
    }

    /// The month whose frame contains `y`, or nil above the first or below the last month.
    ///
    /// ```swift
    /// let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: LayoutMetrics(width: 390))
    /// print(stack.month(atY: 0)!, stack.month(atY: 319)!, stack.month(atY: -1) as Any)
    /// // Prints "2015-01 2015-02 nil"
    /// ```
    public func month(atY y: Int) -> CalendarMonth? {
        guard y >= 0, y < totalHeight else { return nil }
        return CalendarMonth(index: index(atY: y))
    }

    /// The frame of `month` in the stack, or nil when the stack does not have it.
    ///
    /// ```swift
    /// let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: LayoutMetrics(width: 390))
    /// print(stack.frame(of: CalendarMonth(year: 2015, month: 3))!)
    /// // Prints "(x: 0, y: 583, width: 390, height: 319)"
    /// ```
    public func frame(of month: CalendarMonth) -> LayoutFrame? {
        layout(of: month)?.frame
    }

    /// The laid-out grid of `month` at its place in the stack, or nil when the stack does not have it.
    public func layout(of month: CalendarMonth) -> MonthLayout? {
        guard months.contains(month) else { return nil }
        return MonthLayout(grid: grid(of: month), metrics: metrics, x: 0, y: offset(ofIndex: month.index))
    }

    /// The frame of `day`'s cell in its own month's grid, or nil when the stack does not have that month.
    ///
    /// ```swift
    /// let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: LayoutMetrics(width: 390))
    /// print(stack.frame(of: Day("2015-02-01"))!)
    /// // Prints "(x: 0, y: 363, width: 55, height: 55)"
    /// ```
    public func frame(of day: Day) -> LayoutFrame? {
        layout(of: CalendarMonth(containing: day))?.frame(of: day)
    }

    private func grid(of month: CalendarMonth) -> MonthGrid {
        MonthGrid(month: month, firstWeekday: firstWeekday, rowPolicy: rowPolicy, outOfMonthDays: outOfMonthDays)
    }

    // MARK: - Viewport queries

    /// Calls `body` with each month that `viewport` intersects, top to bottom; allocates nothing.
    ///
    /// The stack spans x `0..<width` and y `0..<totalHeight`; the parts of a viewport outside it
    /// show nothing, and an empty viewport (width or height 0 or less) intersects no month.
    ///
    /// ```swift
    /// let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: LayoutMetrics(width: 390))
    /// stack.forEachVisibleMonth(in: LayoutFrame(x: 0, y: 560, width: 390, height: 80)) { month in
    ///     var days: [String] = []
    ///     month.forEachCell { days.append("\($0.day.dayOfMonth)") }
    ///     print(month.month, month.headerFrame, days.joined(separator: " "))
    /// }
    /// // Prints "2015-02 (x: 0, y: 319, width: 390, height: 44) 22 23 24 25 26 27 28"
    /// // Prints "2015-03 (x: 0, y: 583, width: 390, height: 44) 1 2 3 4 5 6 7"
    /// ```
    public func forEachVisibleMonth(in viewport: LayoutFrame, _ body: (VisibleMonth) throws -> Void) rethrows {
        guard !viewport.isEmpty else { return }
        // Far-off viewports are clipped first, so that their edges cannot overflow.
        let top = max(viewport.minY, 0)
        let bottom = min(MonthStack.saturatingSum(viewport.y, viewport.height), totalHeight)
        let left = max(viewport.minX, 0)
        let right = min(MonthStack.saturatingSum(viewport.x, viewport.width), metrics.width)
        guard top < bottom, left < right else { return }
        // Columns are found once: they are the same in every month.
        guard let firstColumn = metrics.column(atX: left), let lastColumn = metrics.column(atX: right - 1) else { return }
        let columns = firstColumn..<lastColumn + 1

        var index = index(atY: top)
        var y = offset(ofIndex: index)
        let lastIndex = months.upperBound.index
        let firstIndex = months.lowerBound.index
        let header = metrics.headerHeight
        let rowHeight = metrics.rowHeight
        while index <= lastIndex, y < bottom {
            let grid = grid(of: CalendarMonth(index: index))
            let rowsTop = y + header
            let firstRow = max(0, (top - rowsTop).dividedRoundingDown(by: rowHeight))
            let lastRow = min(grid.rowCount - 1, (bottom - 1 - rowsTop).dividedRoundingDown(by: rowHeight))
            try body(VisibleMonth(
                layout: MonthLayout(grid: grid, metrics: metrics, x: 0, y: y),
                position: index - firstIndex,
                isHeaderVisible: header > 0 && y < bottom && rowsTop > top,
                rows: firstRow <= lastRow ? firstRow..<lastRow + 1 : firstRow..<firstRow,
                columns: columns
            ))
            y = rowsTop + grid.rowCount * rowHeight
            index += 1
        }
    }

    /// The months that `viewport` intersects, top to bottom, each with its visible header and cells.
    ///
    /// One allocation (the array), however far down the stack the viewport is:
    ///
    /// ```swift
    /// let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: LayoutMetrics(width: 390))
    /// let visible = stack.visibleMonths(in: LayoutFrame(x: 0, y: 300, width: 390, height: 100))
    /// print(visible.map { "\($0.month) header \($0.isHeaderVisible) rows \($0.rows)" })
    /// // Prints "["2015-01 header false rows 4..<5", "2015-02 header true rows 0..<1"]"
    /// ```
    public func visibleMonths(in viewport: LayoutFrame) -> [VisibleMonth] {
        var result: [VisibleMonth] = []
        result.reserveCapacity(maximumVisibleMonths(height: viewport.height))
        forEachVisibleMonth(in: viewport) { result.append($0) }
        return result
    }

    /// The day cells that `viewport` intersects, with their frames, top to bottom and left to right.
    ///
    /// ```swift
    /// let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: LayoutMetrics(width: 390))
    /// let cells = stack.visibleCells(in: LayoutFrame(x: 0, y: 300, width: 55, height: 100))
    /// print(cells.map { "\($0.day) \($0.isInMonth)" })
    /// // Prints "["2015-01-25 true", "2015-02-01 true"]"
    /// ```
    public func visibleCells(in viewport: LayoutFrame) -> [PlacedDayCell] {
        var result: [PlacedDayCell] = []
        result.reserveCapacity(maximumVisibleMonths(height: viewport.height) * 6 * 7)
        forEachVisibleMonth(in: viewport) { month in
            month.forEachCell { result.append($0) }
        }
        return result
    }

    /// `a + b` for a positive `b`, or `Int.max` when that overflows.
    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    /// An upper bound on the months a viewport of `height` can intersect: every month is at least
    /// a header and 4 rows high (6 with `.six`).
    private func maximumVisibleMonths(height: Int) -> Int {
        guard height > 0 else { return 0 }
        let shortest = metrics.monthHeight(rows: rowPolicy == .six ? 6 : 4)
        return min(height / shortest + 2, monthCount)
    }
}

/// A month that a viewport intersects: its layout, and which of its header and cells are visible.
///
/// ```swift
/// let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: LayoutMetrics(width: 390))
/// let month = stack.visibleMonths(in: LayoutFrame(x: 100, y: 600, width: 100, height: 60))[0]
/// print(month.month, month.frame, month.isHeaderVisible, month.rows, month.columns, month.visibleCellCount)
/// // Prints "2015-03 (x: 0, y: 583, width: 390, height: 319) true 0..<1 1..<4 3"
/// ```
public struct VisibleMonth: Hashable, Sendable {
    /// The month's grid and frames, at its place in the stack.
    public let layout: MonthLayout
    /// How many months after the stack's first month this one is.
    public let position: Int
    /// Whether the viewport intersects the header.
    public let isHeaderVisible: Bool
    /// The rows the viewport intersects (empty when it sees only the header).
    public let rows: Range<Int>
    /// The columns whose spans the viewport intersects (zero-width columns, with widths under 7, are skipped).
    public let columns: Range<Int>

    /// The month.
    public var month: CalendarMonth { layout.grid.month }
    /// The month's grid.
    public var grid: MonthGrid { layout.grid }
    /// The whole month: header and rows.
    public var frame: LayoutFrame { layout.frame }
    /// The header's frame.
    public var headerFrame: LayoutFrame { layout.headerFrame }

    /// The number of visible cells.
    public var visibleCellCount: Int {
        rows.count * columns.reduce(0) { $0 + (layout.metrics.columnWidth($1) > 0 ? 1 : 0) }
    }

    /// Calls `body` with each visible cell and its frame, row by row; allocates nothing.
    @inline(__always)
    public func forEachCell(_ body: (PlacedDayCell) throws -> Void) rethrows {
        for row in rows {
            for column in columns {
                let frame = layout.cellFrame(row: row, column: column)
                if frame.width > 0 {
                    try body(PlacedDayCell(cell: layout.grid.cell(row: row, column: column), frame: frame))
                }
            }
        }
    }

    /// The visible cells with their frames, row by row.
    public var cells: [PlacedDayCell] {
        var result: [PlacedDayCell] = []
        result.reserveCapacity(visibleCellCount)
        forEachCell { result.append($0) }
        return result
    }
}

/// The 400-year cycle of month heights.
enum Cycle {
    /// Months in 400 years.
    static let months = 4_800

    /// The height of the first `count` months (0...4800) of a cycle that starts in January of a year
    /// divisible by 400.
    @inline(__always)
    static func height(before count: Int, metrics: LayoutMetrics, firstWeekday: Weekday, rowPolicy: RowPolicy) -> Int {
        count * metrics.headerHeight + rows(before: count, firstWeekday: firstWeekday, rowPolicy: rowPolicy) * metrics.rowHeight
    }

    /// The rows of the first `count` months of a cycle.
    @inline(__always)
    static func rows(before count: Int, firstWeekday: Weekday, rowPolicy: RowPolicy) -> Int {
        switch rowPolicy {
        case .six: 6 * count
        case .variable: Int(variableRowsBefore[firstWeekday.rawValue * (months + 1) + count])
        }
    }

    /// For each first weekday (7 blocks of 4,801 entries), the rows of the variable-height grids of
    /// the first 0...4800 months of years 0–399; built once, on first use, in about 34,000 steps.
    static let variableRowsBefore: [Int32] = {
        var table = [Int32](repeating: 0, count: 7 * (months + 1))
        for weekday in Weekday.allCases {
            let base = weekday.rawValue * (months + 1)
            var firstOfMonth = Day(normalizingYear: 0, month: 1, day: 1).daysSince1970
            for index in 0..<months {
                let month = CalendarMonth(index: index)
                let leading = MonthGrid.leadingDays(firstOfMonth: Day(daysSince1970: firstOfMonth), firstWeekday: weekday)
                let rows = MonthGrid.rowCount(leadingDays: leading, dayCount: month.dayCount, rowPolicy: .variable)
                table[base + index + 1] = table[base + index] + Int32(rows)
                firstOfMonth += month.dayCount
            }
        }
        return table
    }()
}
