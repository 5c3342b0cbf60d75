// Lays out month grids with the `CalendarLayout` library alone (pure Swift, no libical): the cells
// of a month, their frames for a width, and a lazily laid-out stack of 100,000 years of months.
import CalendarLayout

let grid = MonthGrid(month: CalendarMonth(year: 2024, month: 2), firstWeekday: .monday)
print(grid)
// Prints:
// 29 30 31  1  2  3  4
//  5  6  7  8  9 10 11
// 12 13 14 15 16 17 18
// 19 20 21 22 23 24 25
// 26 27 28 29  1  2  3

let layout = MonthLayout(grid: grid, metrics: LayoutMetrics(width: 350))
print(layout.frame, layout.frame(of: Day("2024-02-29"))!)
// Prints "(x: 0, y: 0, width: 350, height: 294) (x: 150, y: 244, width: 50, height: 50)"

let stack = MonthStack(
    firstMonth: CalendarMonth(year: 2000, month: 1), monthCount: 1_200_000, metrics: LayoutMetrics(width: 390))
let viewport = LayoutFrame(x: 0, y: 123_456_789, width: 390, height: 844)
print(stack.visibleMonths(in: viewport).map(\.month))
// Prints "[+33151-01, +33151-02, +33151-03, +33151-04]"
