import CalendarDays

/// A day cell with its frame.
///
/// ```swift
/// let layout = MonthLayout(grid: MonthGrid(month: CalendarMonth(year: 2024, month: 3)), metrics: LayoutMetrics(width: 390))
/// let placed = layout.cells[12]
/// print(placed.day, placed.isInMonth, placed.frame)
/// // Prints "2024-03-08 true (x: 278, y: 99, width: 56, height: 55)"
/// ```
public struct PlacedDayCell: Hashable, Sendable {
    /// The cell: date, row, column, in-month and hidden flags.
    public var cell: DayCell
    /// Where the cell is drawn.
    public var frame: LayoutFrame

    /// Creates a placed cell.
    public init(cell: DayCell, frame: LayoutFrame) {
        self.cell = cell
        self.frame = frame
    }

    /// The cell's date.
    public var day: Day { cell.day }
    /// Whether the date is in the grid's month.
    public var isInMonth: Bool { cell.isInMonth }
    /// Whether the cell is left blank (an out-of-month day in a grid that hides them).
    public var isHidden: Bool { cell.isHidden }
}

/// The frames of one month grid (or week grid) laid out at an origin: a header, then the rows.
///
/// The header spans the full width; below it, row `r` and column `c` are at
/// `x + columnX(c)`, `y + header + r × rowHeight`. Together the frames tile the month's frame:
/// no gaps and no overlaps.
///
/// ```swift
/// let grid = MonthGrid(month: CalendarMonth(year: 2015, month: 2), firstWeekday: .sunday)
/// let layout = MonthLayout(grid: grid, metrics: LayoutMetrics(width: 390, headerHeight: 44))
/// print(layout.frame, layout.headerFrame)
/// print(layout.cellFrame(row: 3, column: 6))
/// // Prints "(x: 0, y: 0, width: 390, height: 264) (x: 0, y: 0, width: 390, height: 44)"
/// // Prints "(x: 334, y: 209, width: 56, height: 55)"
/// ```
public struct MonthLayout: Hashable, Sendable {
    /// The grid being laid out.
    public let grid: MonthGrid
    /// Widths and heights.
    public let metrics: LayoutMetrics
    /// The left edge of the month.
    public let x: Int
    /// The top edge of the month (of its header).
    public let y: Int

    /// Lays out `grid` with its top-left corner at (`x`, `y`).
    public init(grid: MonthGrid, metrics: LayoutMetrics, x: Int = 0, y: Int = 0) {
        self.grid = grid
        self.metrics = metrics
        self.x = x
        self.y = y
    }

    /// The month's height: header + rows × row height.
    public var height: Int { metrics.monthHeight(rows: grid.rowCount) }

    /// The whole month: header and rows.
    public var frame: LayoutFrame { LayoutFrame(x: x, y: y, width: metrics.width, height: height) }

    /// The header, across the full width above the first row.
    public var headerFrame: LayoutFrame { LayoutFrame(x: x, y: y, width: metrics.width, height: metrics.headerHeight) }

    /// The frame of the cell at `row` and `column` (rows may run past the grid's; the formula holds).
    @inline(__always)
    public func cellFrame(row: Int, column: Int) -> LayoutFrame {
        let left = metrics.columnX(column)
        return LayoutFrame(
            x: x + left, y: y + metrics.headerHeight + row * metrics.rowHeight,
            width: metrics.columnX(column + 1) - left, height: metrics.rowHeight
        )
    }

    /// The frame of `day`'s cell, or nil when the grid has no cell for it (an out-of-month day in
    /// the first or last row has one; in `.hidden` grids it is blank but still placed).
    ///
    /// ```swift
    /// let layout = MonthLayout(grid: MonthGrid(month: CalendarMonth(year: 2024, month: 3)), metrics: LayoutMetrics(width: 390))
    /// print(layout.frame(of: Day("2024-03-01"))!)
    /// // Prints "(x: 278, y: 44, width: 56, height: 55)"
    /// ```
    public func frame(of day: Day) -> LayoutFrame? {
        grid.position(of: day).map { cellFrame(row: $0.row, column: $0.column) }
    }

    /// Every cell with its frame, row by row.
    public var cells: [PlacedDayCell] {
        grid.map { PlacedDayCell(cell: $0, frame: cellFrame(row: $0.row, column: $0.column)) }
    }

    /// The cells with their frames, one array of 7 per row.
    public var weeks: [[PlacedDayCell]] {
        (0..<grid.rowCount).map { row in
            (0..<7).map { column in PlacedDayCell(cell: grid.cell(row: row, column: column), frame: cellFrame(row: row, column: column)) }
        }
    }
}
