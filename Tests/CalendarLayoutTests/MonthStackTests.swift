import CalendarLayout
import Streaks
import Testing

@Suite("MonthStack")
struct MonthStackTests {
    static let phone = LayoutMetrics(width: 390, headerHeight: 44)
    /// 100,000 years of months.
    static let hundredThousandYears = 1_200_000

    /// Random viewports over a stack of `height`, including ones that stick out at either end,
    /// sideways, or are empty.
    static func viewports(count: Int, height: Int, width: Int, seed: UInt64) -> [LayoutFrame] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let y = Int.random(in: -200...(height + 200), using: &generator)
            let h = [0, 1, 10, 55, 300, 844, 2_000].randomElement(using: &generator)!
            let x = [0, 0, 0, -10, 30, 200, width - 1, width].randomElement(using: &generator)!
            let w = [width, width, 1, 56, 100, 500].randomElement(using: &generator)!
            return LayoutFrame(x: x, y: y, width: w, height: h)
        }
    }

    // MARK: - Against the brute-force walk

    /// Over a few years from several starts, with several widths, header heights, first weekdays and
    /// both row policies, every viewport shows what the brute-force walk shows, and the total
    /// heights and month offsets agree.
    @Test(arguments: [
        (CalendarMonth(year: 2000, month: 1), Weekday.sunday, RowPolicy.variable, 390, 44),
        (CalendarMonth(year: 1999, month: 7), Weekday.monday, RowPolicy.variable, 375, 0),
        (CalendarMonth(year: -50_001, month: 11), Weekday.saturday, RowPolicy.variable, 414, 30),
        (CalendarMonth(year: 2015, month: 2), Weekday.thursday, RowPolicy.six, 320, 44),
        (CalendarMonth(year: 2399, month: 6), Weekday.wednesday, RowPolicy.variable, 6, 3),
        (CalendarMonth(year: 1_000_000_007, month: 12), Weekday.friday, RowPolicy.variable, 391, 44),
    ] as [(CalendarMonth, Weekday, RowPolicy, Int, Int)])
    func matchesBruteForce(first: CalendarMonth, firstWeekday: Weekday, policy: RowPolicy, width: Int, header: Int) {
        let metrics = LayoutMetrics(width: width, headerHeight: header)
        let count = 60
        let stack = MonthStack(firstMonth: first, monthCount: count, metrics: metrics, firstWeekday: firstWeekday,
                               rowPolicy: policy, outOfMonthDays: .hidden)
        let reference = BruteForceStack(firstMonth: first, monthCount: count, metrics: metrics, firstWeekday: firstWeekday,
                                        rowPolicy: policy, outOfMonthDays: .hidden)
        #expect(stack.totalHeight == reference.totalHeight)
        #expect(stack.monthCount == count)
        for entry in reference.monthList {
            #expect(stack.frame(of: entry.month)?.y == entry.y)
            #expect(stack.month(atY: entry.y) == entry.month)
            #expect(stack.month(atY: entry.y + metrics.headerHeight + entry.rows * metrics.rowHeight - 1) == entry.month)
        }
        var mismatches: [String] = []
        for viewport in Self.viewports(count: 400, height: stack.totalHeight, width: width, seed: UInt64(width * 31 + header)) {
            let expected = reference.visibleItems(in: viewport)
            let actual = stack.visibleItemLines(in: viewport)
            if actual != expected { mismatches.append("\(viewport): \(actual.count) vs \(expected.count) lines") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    // MARK: - Near 100,000 years

    /// Viewports near the end of a 100,000-year stack (and at offsets all the way down) show what
    /// viewports on a two-cycle brute-force stack show, shifted by whole 400-year cycles: the month
    /// and its days move by 4,800·n months and 146,097·n days, the y offsets by n cycle heights.
    @Test(arguments: [
        (CalendarMonth(year: 2000, month: 1), Weekday.sunday, RowPolicy.variable),
        (CalendarMonth(year: 1999, month: 7), Weekday.monday, RowPolicy.variable),
        (CalendarMonth(year: -100_000, month: 3), Weekday.saturday, RowPolicy.six),
    ] as [(CalendarMonth, Weekday, RowPolicy)])
    func hundredThousandYearsMatchShiftedBruteForce(first: CalendarMonth, firstWeekday: Weekday, policy: RowPolicy) {
        let metrics = Self.phone
        let stack = MonthStack(firstMonth: first, monthCount: Self.hundredThousandYears, metrics: metrics,
                               firstWeekday: firstWeekday, rowPolicy: policy)
        let reference = BruteForceStack(firstMonth: first, monthCount: 2 * 4_800 + 12, metrics: metrics,
                                        firstWeekday: firstWeekday, rowPolicy: policy)
        let cycleHeight = reference.monthList[4_800].y
        #expect(stack.totalHeight == 250 * cycleHeight)
        #expect(stack.months.upperBound == first.advanced(by: Self.hundredThousandYears - 1))

        var generator = SeededGenerator(seed: 42)
        var ys = [stack.totalHeight - 844, stack.totalHeight - 1, stack.totalHeight - cycleHeight, 0, 1, cycleHeight - 1]
        for _ in 0..<150 { ys.append(Int.random(in: 0..<stack.totalHeight, using: &generator)) }
        for _ in 0..<50 { ys.append(stack.totalHeight - Int.random(in: 1...100_000, using: &generator)) }
        var mismatches: [String] = []
        for y in ys {
            // The reference covers [0, 2 cycles): shift into its second cycle unless y is in the first.
            let cycles = y < cycleHeight ? 0 : y / cycleHeight - 1
            for viewport in [LayoutFrame(x: 0, y: y, width: 390, height: 844), LayoutFrame(x: 60, y: y, width: 100, height: 60)] {
                let actual = stack.visibleItemLines(in: viewport)
                // Nothing lies below the stack's end, so the viewport is clipped to it; the reference
                // covers [0, 2 cycles) and 12 months more, enough for any shifted viewport.
                let clipped = LayoutFrame(x: viewport.x, y: viewport.y, width: viewport.width,
                                          height: min(viewport.maxY, stack.totalHeight) - viewport.y)
                let shifted = clipped.offsetBy(dy: -cycles * cycleHeight)
                let expected = shiftLines(reference.visibleItems(in: shifted), cycles: cycles, cycleHeight: cycleHeight)
                if actual != expected || actual.isEmpty {
                    mismatches.append("y \(y): \(actual.prefix(2)) vs \(expected.prefix(2))")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    @Test func offsetsNearTheEndOfAHundredThousandYears() throws {
        let stack = MonthStack(firstMonth: CalendarMonth(year: 2000, month: 1), monthCount: Self.hundredThousandYears,
                               metrics: Self.phone, firstWeekday: .monday)
        let last = stack.months.upperBound
        #expect(last == CalendarMonth(year: 101_999, month: 12))
        let lastFrame = try #require(stack.frame(of: last))
        #expect(lastFrame.maxY == stack.totalHeight)
        #expect(stack.month(atY: stack.totalHeight - 1) == last)
        #expect(stack.month(atY: stack.totalHeight) == nil)
        #expect(stack.frame(of: last.advanced(by: 1)) == nil)
        #expect(stack.frame(of: CalendarMonth(year: 1999, month: 12)) == nil)
        // Months 400 years apart are one cycle height apart, anywhere in the stack.
        let cycle = try #require(stack.frame(of: CalendarMonth(year: 2400, month: 1))).y
        for year in [2000, 2_137, 50_000, 101_599] {
            let a = try #require(stack.frame(of: CalendarMonth(year: year, month: 5)))
            let b = try #require(stack.frame(of: CalendarMonth(year: year + 400, month: 5)))
            #expect(b.y - a.y == cycle)
            #expect(a.height == b.height)
        }
        // The last day's cell, found directly.
        let lastDay = try! Day(year: 101_999, month: 12, day: 31)
        let cell = try #require(stack.frame(of: lastDay))
        #expect(cell.maxY <= stack.totalHeight && cell.y >= lastFrame.y + 44)
        let visible = stack.visibleCells(in: cell)
        #expect(visible.map(\.day) == [lastDay])
        #expect(visible.first?.frame == cell)
    }

    /// Stacks starting at far years, near the limits of `Day`, keep exact integer offsets.
    @Test(arguments: [-1_000_000_000_000, -100_001, 0, 100_000, 1_000_000_000_000])
    func farStarts(year: Int) throws {
        let first = CalendarMonth(year: year, month: 1)
        let stack = MonthStack(firstMonth: first, monthCount: Self.hundredThousandYears, metrics: Self.phone)
        let nearby = MonthStack(firstMonth: CalendarMonth(year: 2000 + ((year % 400) + 400) % 400, month: 1),
                                monthCount: Self.hundredThousandYears, metrics: Self.phone)
        #expect(stack.totalHeight == nearby.totalHeight)
        let probe = first.advanced(by: 777_777)
        let frame = try #require(stack.frame(of: probe))
        #expect(stack.month(atY: frame.y) == probe)
        let months = stack.visibleMonths(in: LayoutFrame(x: 0, y: frame.y + 10, width: 390, height: 844))
        #expect(months.first?.month == probe)
        #expect(months.first?.grid.firstDay.weekday == .sunday)
        #expect(months.first?.grid.contains { $0.day == probe.firstDay && $0.isInMonth } == true)
    }

    // MARK: - Viewport edge cases

    @Test func viewportStraddlingTwoMonths() {
        // January 2015 (Sunday start): 5 rows, y 0..<319; February: 4 rows, y 319..<583.
        let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: Self.phone)
        let months = stack.visibleMonths(in: LayoutFrame(x: 0, y: 250, width: 390, height: 150))
        #expect(months.map(\.month.description) == ["2015-01", "2015-02"])
        #expect(months.map(\.frame) == [
            LayoutFrame(x: 0, y: 0, width: 390, height: 319), LayoutFrame(x: 0, y: 319, width: 390, height: 264),
        ])
        #expect(months.map(\.isHeaderVisible) == [false, true])
        #expect(months.map(\.rows) == [3..<5, 0..<1])
        #expect(months.map(\.position) == [0, 1])
        let cells = stack.visibleCells(in: LayoutFrame(x: 0, y: 250, width: 390, height: 150))
        #expect(cells.count == 21)
        #expect(cells.first?.day == (try! Day(year: 2015, month: 1, day: 18)))
        #expect(cells.last?.day == (try! Day(year: 2015, month: 2, day: 7)))
        // January's last two rows and February's first: 21 consecutive days, all in their months.
        #expect(cells.map(\.day) == Array(try! Day(year: 2015, month: 1, day: 18)..<Day(year: 2015, month: 2, day: 8)))
        #expect(cells.allSatisfy { $0.isInMonth })
    }

    @Test(arguments: [
        LayoutFrame(x: 0, y: 100, width: 390, height: 0),
        LayoutFrame(x: 0, y: 100, width: 0, height: 844),
        LayoutFrame(x: 0, y: 100, width: 390, height: -5),
        LayoutFrame(x: 390, y: 100, width: 390, height: 844),
        LayoutFrame(x: -390, y: 100, width: 390, height: 844),
        LayoutFrame(x: 0, y: -844, width: 390, height: 844),
        LayoutFrame(x: 0, y: Int.min / 2, width: 390, height: 844),
        LayoutFrame(x: 0, y: 1_000_000_000_000, width: 390, height: 844),
        LayoutFrame(x: Int.max - 10, y: Int.max - 10, width: Int.max, height: Int.max),
    ])
    func viewportsThatShowNothing(viewport: LayoutFrame) {
        let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: Self.phone)
        #expect(stack.visibleMonths(in: viewport).isEmpty)
        #expect(stack.visibleCells(in: viewport).isEmpty)
        #expect(stack.visibleItemLines(in: viewport).isEmpty)
    }

    @Test func viewportsBeyondTheEnds() {
        let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: Self.phone)
        // Sticking out above the first month: from the first month on.
        let above = stack.visibleMonths(in: LayoutFrame(x: 0, y: -500, width: 390, height: 600))
        #expect(above.map(\.month) == [CalendarMonth(year: 2015, month: 1)])
        #expect(above.first?.isHeaderVisible == true && above.first?.rows == 0..<2)
        // Sticking out below the last month: up to the last month.
        let below = stack.visibleMonths(in: LayoutFrame(x: 0, y: stack.totalHeight - 100, width: 390, height: 10_000))
        #expect(below.map(\.month) == [CalendarMonth(year: 2015, month: 12)])
        #expect(below.first?.rows.upperBound == below.first?.grid.rowCount)
        // Taller than the whole stack: all of it, every cell.
        let all = stack.visibleMonths(in: LayoutFrame(x: -10, y: -10, width: 1_000, height: 100_000))
        #expect(all.count == 12)
        #expect(all.allSatisfy { $0.isHeaderVisible && $0.rows == 0..<$0.grid.rowCount && $0.columns == 0..<7 })
        #expect(all.map(\.visibleCellCount).reduce(0, +) == stack.visibleCells(in: stack.frame).count)
        // One point at the very bottom.
        let bottom = stack.visibleCells(in: LayoutFrame(x: 389, y: stack.totalHeight - 1, width: 1, height: 1))
        #expect(bottom.count == 1 && bottom.first?.cell.column == 6)
    }

    @Test func headerOnlyViewport() throws {
        let stack = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: Self.phone)
        let march = try #require(stack.frame(of: CalendarMonth(year: 2015, month: 3)))
        let months = stack.visibleMonths(in: LayoutFrame(x: 0, y: march.y, width: 390, height: 44))
        #expect(months.count == 1)
        #expect(months.first?.isHeaderVisible == true)
        #expect(months.first?.rows.isEmpty == true)
        #expect(months.first?.cells.isEmpty == true)
    }

    @Test func hiddenCellsAreReportedAsHidden() {
        let stack = MonthStack(firstMonth: CalendarMonth(year: 2024, month: 3), monthCount: 1, metrics: Self.phone,
                               firstWeekday: .sunday, outOfMonthDays: .hidden)
        let cells = stack.visibleCells(in: stack.frame)
        #expect(cells.count == 42)
        #expect(cells.filter(\.isHidden).count == 11)
        #expect(cells.filter(\.isHidden).allSatisfy { !$0.isInMonth })
    }

    @Test func inverseForEveryDayOfAFewYears() throws {
        let stack = MonthStack(firstMonth: CalendarMonth(year: 2023, month: 11), monthCount: 30, metrics: Self.phone,
                               firstWeekday: .monday)
        var day = CalendarMonth(year: 2023, month: 11).firstDay
        while day <= stack.months.upperBound.lastDay {
            let frame = try #require(stack.frame(of: day))
            let at = stack.visibleCells(in: LayoutFrame(x: frame.x, y: frame.y, width: 1, height: 1))
            #expect(at.count == 1 && at.first?.day == day && at.first?.isInMonth == true && at.first?.frame == frame)
            day = day.advanced(by: 1)
        }
        #expect(stack.frame(of: try! Day(year: 2023, month: 10, day: 31)) == nil)
        #expect(stack.frame(of: stack.months.upperBound.lastDay.advanced(by: 1)) == nil)
    }

    @Test func sixRowsStackHasAFixedMonthHeight() {
        let stack = MonthStack(firstMonth: CalendarMonth(year: 1, month: 1), monthCount: Self.hundredThousandYears,
                               metrics: Self.phone, rowPolicy: .six)
        #expect(stack.totalHeight == Self.hundredThousandYears * (44 + 6 * 55))
        #expect(stack.frame(of: CalendarMonth(year: 50_000, month: 7))?.y == CalendarMonth(year: 1, month: 1).distance(to: CalendarMonth(year: 50_000, month: 7)) * 374)
    }

    @Test func visibleMonthsCountIsBoundedByTheViewport() {
        // Small months (header 0, row height 1): a 844-point viewport sees at most 844 / 4 + 2 months.
        let stack = MonthStack(firstMonth: CalendarMonth(year: 2000, month: 1), monthCount: Self.hundredThousandYears,
                               metrics: LayoutMetrics(width: 7, headerHeight: 0, rowHeight: 1))
        let months = stack.visibleMonths(in: LayoutFrame(x: 0, y: 123_456, width: 7, height: 844))
        #expect(months.count > 150 && months.count <= 844 / 4 + 2)
        #expect(months.first.map { $0.frame.y <= 123_456 && $0.frame.maxY > 123_456 } == true)
        #expect(months.last.map { $0.frame.y < 123_456 + 844 && $0.frame.maxY >= 123_456 + 844 } == true)
        #expect(zip(months, months.dropFirst()).allSatisfy { $0.frame.maxY == $1.frame.y && $0.month.advanced(by: 1) == $1.month })
    }
}

