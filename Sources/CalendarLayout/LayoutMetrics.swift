/// The shape of a day cell: its height to its width, as a ratio of two positive integers.
///
/// ```swift
/// print(LayoutMetrics(width: 390, cellAspect: .square).rowHeight, LayoutMetrics(width: 390, cellAspect: CellAspect(height: 3, width: 4)).rowHeight)
/// // Prints "55 41"
/// ```
public struct CellAspect: Hashable, Sendable {
    /// The height part of the ratio.
    public var height: Int
    /// The width part of the ratio.
    public var width: Int

    /// A ratio `height : width` (both positive).
    public init(height: Int, width: Int) {
        precondition(height > 0 && width > 0, "CellAspect: both parts must be positive, got \(height):\(width)")
        self.height = height
        self.width = width
    }

    /// Square cells (1 : 1), as MBCalendarKit draws them: row height = width / 7.
    public static let square = CellAspect(height: 1, width: 1)
}

/// Widths and heights, in integer points, of the month grids laid out for one width.
///
/// The 7 columns differ by at most one point and add up to the width exactly: column `c` spans
/// `⌊c·width/7⌋ ..< ⌊(c+1)·width/7⌋`, which spreads the `width % 7` extra points evenly across
/// the row (Bresenham's rule) rather than piling them up at one end. The row height is the narrow
/// column width `⌊width/7⌋` times the cell aspect, rounded down, and never less than 1 point.
/// A month is a header above its rows: height = header + rows × row height.
///
/// ```swift
/// let metrics = LayoutMetrics(width: 390, headerHeight: 44)
/// print(metrics.columnWidths, metrics.rowHeight, metrics.monthHeight(rows: 5))
/// // Prints "[55, 56, 56, 55, 56, 56, 56] 55 319"
/// ```
public struct LayoutMetrics: Hashable, Sendable {
    /// The width of a month, and of every row.
    public let width: Int
    /// The height of a month's header (title and weekday names), above its first row.
    public let headerHeight: Int
    /// The height of a week row, and of every day cell.
    public let rowHeight: Int

    /// The header height used when none is given: 44 points, a common title bar height.
    public static let defaultHeaderHeight = 44

    /// Metrics whose row height follows the column width and a cell aspect (square by default).
    ///
    /// ```swift
    /// let metrics = LayoutMetrics(width: 320)
    /// print(metrics.columnWidths, metrics.rowHeight, metrics.headerHeight)
    /// // Prints "[45, 46, 46, 45, 46, 46, 46] 45 44"
    /// ```
    public init(width: Int, headerHeight: Int = LayoutMetrics.defaultHeaderHeight, cellAspect: CellAspect = .square) {
        precondition(width >= 0, "LayoutMetrics: the width cannot be negative, got \(width)")
        let narrowColumn = width / 7
        let (product, overflow) = narrowColumn.multipliedReportingOverflow(by: cellAspect.height)
        precondition(!overflow, "LayoutMetrics: row height overflows for width \(width)")
        self.init(width: width, headerHeight: headerHeight, rowHeight: max(1, product / cellAspect.width))
    }

    /// Metrics with an explicit row height (at least 1 point).
    ///
    /// ```swift
    /// print(LayoutMetrics(width: 700, headerHeight: 30, rowHeight: 40).monthHeight(rows: 6))
    /// // Prints "270"
    /// ```
    public init(width: Int, headerHeight: Int, rowHeight: Int) {
        precondition(width >= 0, "LayoutMetrics: the width cannot be negative, got \(width)")
        precondition(headerHeight >= 0, "LayoutMetrics: the header height cannot be negative, got \(headerHeight)")
        precondition(rowHeight >= 1, "LayoutMetrics: the row height must be at least 1, got \(rowHeight)")
        self.width = width
        self.headerHeight = headerHeight
        self.rowHeight = rowHeight
    }

    /// The left edge of column `column` (0...7; column 7's edge is the width): `⌊column·width/7⌋`.
    ///
    /// ```swift
    /// print((0...7).map(LayoutMetrics(width: 10).columnX))
    /// // Prints "[0, 1, 2, 4, 5, 7, 8, 10]"
    /// ```
    @inline(__always)
    public func columnX(_ column: Int) -> Int {
        // ⌊c·w/7⌋ = c·⌊w/7⌋ + ⌊c·(w mod 7)/7⌋, which cannot overflow for any width.
        column * (width / 7) + column * (width % 7) / 7
    }

    /// The width of column `column` (0...6): `⌊width/7⌋` or one more.
    @inline(__always)
    public func columnWidth(_ column: Int) -> Int {
        columnX(column + 1) - columnX(column)
    }

    /// The 7 column widths, left to right.
    public var columnWidths: [Int] { (0..<7).map(columnWidth) }

    /// The column whose span contains `x`, or nil when `x` is outside `0..<width`.
    public func column(atX x: Int) -> Int? {
        guard x >= 0, x < width else { return nil }
        var column = 0
        while columnX(column + 1) <= x { column += 1 }  // ends by column 6, since columnX(7) == width > x
        return column
    }

    /// The height of a month grid with `rows` rows: `headerHeight + rows × rowHeight`.
    public func monthHeight(rows: Int) -> Int {
        headerHeight + rows * rowHeight
    }
}
