// A plain loop over one viewport query, for measurements the benchmark plugin does not make:
// wall-clock time without the harness, and instruction counts under callgrind, which are
// repeatable whatever else the machine runs.
//
//   swift build -c release --product LayoutQueryLoop
//   .build/release/LayoutQueryLoop top 1000000          # prints ns per query
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null .build/release/LayoutQueryLoop bottom 100000
//
// The viewport is 390 × 844 on a stack of 100,000 years of months from January 2000 (width 390):
// `top` is offset 0, `bottom` the last 844 points (100,000 years in), `phase` January 101600
// (99,600 years in, the same place in the 400-year cycle as `top`).
import StreakCal

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3, let iterations = Int(arguments[2]), iterations >= 0 else {
    print("usage: LayoutQueryLoop top|bottom|phase ITERATIONS")
    exit(2)
}

let stack = MonthStack(
    firstMonth: CalendarMonth(year: 2000, month: 1), monthCount: 1_200_000,
    metrics: LayoutMetrics(width: 390), firstWeekday: .sunday, rowPolicy: .variable)
let y: Int
switch arguments[1] {
case "top": y = 0
case "bottom": y = stack.totalHeight - 844
case "phase": y = stack.frame(of: CalendarMonth(year: 101_600, month: 1))!.y
default:
    print("unknown position \(arguments[1])")
    exit(2)
}
let viewport = LayoutFrame(x: 0, y: y, width: 390, height: 844)

@inline(never)
func query(_ viewport: LayoutFrame) -> Int {
    var checksum = 0
    for month in stack.visibleMonths(in: viewport) {
        checksum &+= month.frame.y
        month.forEachCell { checksum &+= $0.frame.x &+ $0.frame.y &+ $0.day.daysSince1970 }
    }
    return checksum
}

// Build the cycle table (once per process) before timing.
var checksum = query(viewport)
let clock = ContinuousClock()
let start = clock.now
for _ in 0..<iterations {
    checksum &+= query(viewport)
}
let elapsed = clock.now - start
let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
let cells = stack.visibleMonths(in: viewport).map(\.visibleCellCount).reduce(0, +)
print("\(arguments[1]): y \(y), \(cells) cells, \(iterations) queries, \(iterations > 0 ? nanoseconds / Double(iterations) : 0) ns per query (checksum \(checksum))")
