import CalendarLayout
import Streaks
import Testing

@Suite("Geometry")
struct GeometryTests {
    static let widths: [Int] = Array(0...1_000) + [1_023, 1_024, 1_366, 2_048, 4_095, 100_003, 1 << 40, Int.max / 2, Int.max]

    /// Column widths add up to the width and differ by at most one point, for widths 0…1000 (below
    /// 7, odd, multiples of 7) and a few large ones up to `Int.max`.
    @Test func columnWidthsAddUpAndDifferByAtMostOne() {
        var failures: [String] = []
        for width in Self.widths {
            let metrics = LayoutMetrics(width: width, headerHeight: 0, rowHeight: 1)
            let widths = metrics.columnWidths
            let edges = (0...7).map(metrics.columnX)
            if widths.reduce(0, &+) != width || widths.max()! - widths.min()! > 1 || widths.min()! != width / 7
                || edges.first != 0 || edges.last != width || zip(edges, edges.dropFirst()).contains(where: { $0 > $1 })
                || widths.filter({ $0 > width / 7 }).count != width % 7 {
                failures.append("\(width): \(widths)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// The extra points are spread by Bresenham's rule: column c starts at ⌊c·width/7⌋.
    @Test(arguments: [
        (390, [55, 56, 56, 55, 56, 56, 56]),
        (320, [45, 46, 46, 45, 46, 46, 46]),
        (375, [53, 54, 53, 54, 53, 54, 54]),
        (700, [100, 100, 100, 100, 100, 100, 100]),
        (701, [100, 100, 100, 100, 100, 100, 101]),
        (706, [100, 101, 101, 101, 101, 101, 101]),
        (3, [0, 0, 1, 0, 1, 0, 1]),
        (6, [0, 1, 1, 1, 1, 1, 1]),
        (0, [0, 0, 0, 0, 0, 0, 0]),
    ])
    func columnWidthsForKnownWidths(width: Int, expected: [Int]) {
        #expect(LayoutMetrics(width: width).columnWidths == expected)
    }

    @Test func columnAtX() {
        for width in [0, 3, 6, 7, 10, 390, 391] {
            let metrics = LayoutMetrics(width: width)
            #expect(metrics.column(atX: -1) == nil)
            #expect(metrics.column(atX: width) == nil)
            for x in 0..<width {
                let column = metrics.column(atX: x)
                #expect(column.map { metrics.columnX($0) <= x && x < metrics.columnX($0 + 1) } == true, "width \(width) x \(x)")
            }
        }
    }

    /// Row height: the narrow column width times the aspect, rounded down, at least 1.
    @Test(arguments: [
        (390, CellAspect.square, 55),
        (390, CellAspect(height: 3, width: 4), 41),
        (390, CellAspect(height: 2, width: 1), 110),
        (391, CellAspect.square, 55),
        (7, CellAspect.square, 1),
        (6, CellAspect.square, 1),
        (0, CellAspect.square, 1),
        (0, CellAspect(height: 5, width: 1), 1),
        (69, CellAspect(height: 1, width: 2), 4),
    ])
    func rowHeightRule(width: Int, aspect: CellAspect, rowHeight: Int) {
        let metrics = LayoutMetrics(width: width, headerHeight: 30, cellAspect: aspect)
        #expect(metrics.rowHeight == rowHeight)
        #expect(metrics.headerHeight == 30)
        for rows in 1...6 {
            #expect(metrics.monthHeight(rows: rows) == 30 + rows * rowHeight)
        }
    }

    /// The header and cells of month and week grids tile the month's frame: each lies inside it, no
    /// two overlap, and their areas add up to its area (so nothing is left uncovered); the month's
    /// height is header + rows × row height.
    @Test(arguments: [0, 1, 3, 6, 7, 8, 13, 44, 99, 100, 320, 375, 389, 390, 391, 393, 414, 768, 1_001])
    func framesTileTheMonth(width: Int) {
        let months = [
            CalendarMonth(year: 2015, month: 2), CalendarMonth(year: 2024, month: 2), CalendarMonth(year: 2015, month: 8),
            CalendarMonth(year: -7, month: 3),
        ]
        var grids: [MonthGrid] = []
        for month in months {
            for policy in RowPolicy.allCases {
                grids.append(MonthGrid(month: month, firstWeekday: .sunday, rowPolicy: policy, outOfMonthDays: .hidden))
            }
        }
        grids.append(MonthGrid(weekContaining: try! Day(year: 2024, month: 2, day: 29), firstWeekday: .monday))
        for header in [0, 44] {
            for aspect in [CellAspect.square, CellAspect(height: 2, width: 3)] {
                let metrics = LayoutMetrics(width: width, headerHeight: header, cellAspect: aspect)
                for grid in grids {
                    let layout = MonthLayout(grid: grid, metrics: metrics, x: 17, y: -1_000)
                    let whole = layout.frame
                    #expect(whole == LayoutFrame(x: 17, y: -1_000, width: width, height: header + grid.rowCount * metrics.rowHeight))
                    let frames = [layout.headerFrame] + layout.cells.map(\.frame)
                    #expect(frames.count == 1 + grid.rowCount * 7)
                    #expect(frames.allSatisfy { $0.width >= 0 && $0.height >= 0 })
                    #expect(frames.allSatisfy { $0.minX >= whole.minX && $0.maxX <= whole.maxX && $0.minY >= whole.minY && $0.maxY <= whole.maxY })
                    #expect(frames.reduce(0) { $0 + $1.area } == whole.area)
                    var overlaps = 0
                    for i in frames.indices {
                        for j in frames.indices where j > i && frames[i].intersects(frames[j]) { overlaps += 1 }
                    }
                    #expect(overlaps == 0, "width \(width) header \(header) \(grid.month)")
                    // Rows sit edge to edge under the header, columns edge to edge from the left.
                    for placed in layout.cells {
                        #expect(placed.frame.y == whole.y + header + placed.cell.row * metrics.rowHeight)
                        #expect(placed.frame.x == whole.x + metrics.columnX(placed.cell.column))
                        #expect(layout.frame(of: placed.day) == placed.frame)
                    }
                    #expect(layout.weeks.flatMap { $0 } == layout.cells)
                }
            }
        }
    }

    @Test func framesIntersectOnlyWithArea() {
        let frame = LayoutFrame(x: 10, y: 10, width: 10, height: 10)
        #expect(frame.intersects(LayoutFrame(x: 19, y: 19, width: 5, height: 5)))
        #expect(!frame.intersects(LayoutFrame(x: 20, y: 10, width: 5, height: 5)))  // touching edges
        #expect(!frame.intersects(LayoutFrame(x: 10, y: 20, width: 5, height: 5)))
        #expect(!frame.intersects(LayoutFrame(x: 12, y: 12, width: 0, height: 5)))  // empty
        #expect(!frame.intersects(LayoutFrame(x: 12, y: 12, width: 5, height: -1)))
        #expect(frame.offsetBy(dx: 1, dy: -2) == LayoutFrame(x: 11, y: 8, width: 10, height: 10))
        #expect(frame.area == 100 && LayoutFrame(x: 0, y: 0, width: -3, height: 4).area == 0)
    }
}
