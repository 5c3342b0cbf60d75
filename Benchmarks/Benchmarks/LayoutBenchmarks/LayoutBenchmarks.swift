// Viewport queries on a lazily laid-out stack of 100,000 years of months (1.2 million months), at
// the top (offset 0) and at the very bottom (100,000 years in): the time, the mallocs and the peak
// memory per query should be the same, since a query only computes what the viewport shows.
import Benchmark
import StreakCal

/// A phone-sized viewport: 390 × 844 points.
let viewportWidth = 390
let viewportHeight = 844

/// 100,000 years of months from January 2000, Sunday first, variable rows, laid out 390 points wide.
let hundredThousandYears = MonthStack(
    firstMonth: CalendarMonth(year: 2000, month: 1), monthCount: 1_200_000,
    metrics: LayoutMetrics(width: viewportWidth), firstWeekday: .sunday, rowPolicy: .variable)

/// One year of months: the same query on a range 100,000 times smaller.
let oneYear = MonthStack(
    firstMonth: CalendarMonth(year: 2000, month: 1), monthCount: 12,
    metrics: LayoutMetrics(width: viewportWidth), firstWeekday: .sunday, rowPolicy: .variable)

/// The first 844 points: January and February 2000 and the top of March (3 months, 91 cells).
let top = LayoutFrame(x: 0, y: 0, width: viewportWidth, height: viewportHeight)
/// The last 844 points of the range: the end of December 101999, 100,000 years in (3 months, 98 cells).
let bottom = LayoutFrame(x: 0, y: hundredThousandYears.totalHeight - viewportHeight, width: viewportWidth, height: viewportHeight)
/// January 101600, 99,600 years in: the same place in the 400-year cycle as offset 0, so exactly the
/// same 3 months and 91 cells as `top`, 400 years before the end.
let samePhase = LayoutFrame(
    x: 0, y: hundredThousandYears.frame(of: CalendarMonth(year: 101_600, month: 1))!.y, width: viewportWidth, height: viewportHeight)

/// The visible months (one array) and every visible cell's frame, folded into a checksum so that
/// nothing is optimized away.
@inline(never)
func queryMonthsAndCells(_ stack: MonthStack, _ viewport: LayoutFrame) -> Int {
    var checksum = 0
    for month in stack.visibleMonths(in: viewport) {
        checksum &+= month.frame.y
        month.forEachCell { checksum &+= $0.frame.x &+ $0.frame.y &+ $0.day.daysSince1970 }
    }
    return checksum
}

/// The same walk through the allocation-free visitor.
@inline(never)
func visitMonthsAndCells(_ stack: MonthStack, _ viewport: LayoutFrame) -> Int {
    var checksum = 0
    stack.forEachVisibleMonth(in: viewport) { month in
        checksum &+= month.frame.y
        month.forEachCell { checksum &+= $0.frame.x &+ $0.frame.y &+ $0.day.daysSince1970 }
    }
    return checksum
}

/// The visible cells as one flat array of placed cells.
@inline(never)
func queryCells(_ stack: MonthStack, _ viewport: LayoutFrame) -> Int {
    stack.visibleCells(in: viewport).count
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: .kilo(10)
    )

    let cases: [(String, MonthStack, LayoutFrame)] = [
        ("100,000-year range, offset 0", hundredThousandYears, top),
        ("100,000-year range, offset 100,000 years", hundredThousandYears, bottom),
        ("100,000-year range, offset 99,600 years", hundredThousandYears, samePhase),
        ("1-year range, offset 0", oneYear, top),
    ]
    for (name, stack, viewport) in cases {
        Benchmark("visibleMonths + cells, \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(queryMonthsAndCells(stack, viewport))
            }
        }
        Benchmark("forEachVisibleMonth (no allocation), \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(visitMonthsAndCells(stack, viewport))
            }
        }
        Benchmark("visibleCells (flat array), \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(queryCells(stack, viewport))
            }
        }
    }
}
