import CalendarLayout
import Foundation
import Streaks
import Testing

@Suite("MonthGrid")
struct MonthGridTests {
    // MARK: - Against Foundation, every month of a 400-year cycle

    /// For each month of 2000–2399 and this first weekday, both row policies and both out-of-month
    /// settings agree with Foundation's Gregorian calendar: the row count is Foundation's number of
    /// weeks in the month (`weekOfMonth` with a minimum of 1 day in the first week), the first cell is
    /// in the week of the 1st and starts on the first weekday, and exactly the month's days are in
    /// month, at Foundation's day numbers.
    @Test(arguments: Weekday.allCases)
    func fullCycleMatchesFoundation(firstWeekday: Weekday) throws {
        let calendar = try foundationCalendar(firstWeekday: firstWeekday)
        var mismatches: [String] = []
        var rowCounts: [Int: Int] = [:]
        for year in 2000..<2400 {
            for month in 1...12 {
                let firstDate = try #require(calendar.date(from: DateComponents(year: year, month: month, day: 1)))
                let firstNumber = Int((firstDate.timeIntervalSince1970 / 86_400).rounded(.down))
                let length = try #require(calendar.range(of: .day, in: .month, for: firstDate)).count
                let weeks = try #require(calendar.range(of: .weekOfMonth, in: .month, for: firstDate)).count
                let foundationWeekday = calendar.component(.weekday, from: firstDate) - 1  // 0 = Sunday
                let leading = (foundationWeekday - firstWeekday.rawValue + 7) % 7
                rowCounts[weeks, default: 0] += 1

                for policy in RowPolicy.allCases {
                    for outOfMonth in OutOfMonthDays.allCases {
                        let grid = MonthGrid(month: CalendarMonth(year: year, month: month), firstWeekday: firstWeekday,
                                             rowPolicy: policy, outOfMonthDays: outOfMonth)
                        let expectedRows = policy == .six ? 6 : weeks
                        var problems: [String] = []
                        if grid.rowCount != expectedRows { problems.append("rows \(grid.rowCount) != \(expectedRows)") }
                        if grid.count != expectedRows * 7 { problems.append("count \(grid.count)") }
                        if grid.firstDay.daysSince1970 != firstNumber - leading { problems.append("first cell \(grid.firstDay)") }
                        if grid.firstDay.weekday != firstWeekday { problems.append("first cell weekday \(grid.firstDay.weekday)") }
                        for (position, cell) in grid.enumerated() {
                            let offset = position - leading
                            let inMonth = offset >= 0 && offset < length
                            if cell.day.daysSince1970 != firstNumber + offset || cell.isInMonth != inMonth
                                || cell.isHidden != (!inMonth && outOfMonth == .hidden)
                                || cell.row != position / 7 || cell.column != position % 7
                                || (inMonth && cell.day.dayOfMonth != offset + 1) {
                                problems.append("cell \(position): \(cell)")
                                break
                            }
                        }
                        if !problems.isEmpty {
                            mismatches.append("\(year)-\(month) \(policy) \(outOfMonth): \(problems)")
                        }
                    }
                }
                if mismatches.count >= 10 { break }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // Every shape occurs in a cycle, and February can fit in 4 rows only when it is not leap.
        #expect(Set(rowCounts.keys) == [4, 5, 6])
        #expect(rowCounts.values.reduce(0, +) == 4_800)
    }

    // MARK: - Known months

    @Test func february2015HasFourRowsFromSunday() {
        let grid = MonthGrid(month: CalendarMonth(year: 2015, month: 2), firstWeekday: .sunday)
        #expect(grid.rowCount == 4)
        #expect(grid.allSatisfy { $0.isInMonth })
        #expect(grid.first?.day == (try! Day(year: 2015, month: 2, day: 1)))
        #expect(grid.last?.day == (try! Day(year: 2015, month: 2, day: 28)))
        // The same month from Monday needs 5 rows; with `.six`, 6 (the last two wholly in March).
        #expect(MonthGrid(month: CalendarMonth(year: 2015, month: 2), firstWeekday: .monday).rowCount == 5)
        let six = MonthGrid(month: CalendarMonth(year: 2015, month: 2), firstWeekday: .sunday, rowPolicy: .six)
        #expect(six.rowCount == 6)
        #expect(six.weeks[4].allSatisfy { !$0.isInMonth && $0.day.month == 3 })
        #expect(six.last?.day == (try! Day(year: 2015, month: 3, day: 14)))
    }

    @Test(arguments: [
        // (year, month, first weekday, rows, first cell)
        (2015, 8, Weekday.sunday, 6, "2015-07-26"),
        (2015, 8, Weekday.monday, 6, "2015-07-27"),
        (2015, 8, Weekday.saturday, 5, "2015-08-01"),
        (2024, 2, Weekday.thursday, 5, "2024-02-01"),
        (2021, 2, Weekday.monday, 4, "2021-02-01"),
        (2026, 2, Weekday.sunday, 4, "2026-02-01"),
        (2024, 12, Weekday.sunday, 5, "2024-12-01"),
        (2000, 1, Weekday.sunday, 6, "1999-12-26"),
    ] as [(Int, Int, Weekday, Int, String)])
    func knownMonths(year: Int, month: Int, firstWeekday: Weekday, rows: Int, firstCell: String) {
        let grid = MonthGrid(month: CalendarMonth(year: year, month: month), firstWeekday: firstWeekday)
        #expect(grid.rowCount == rows)
        #expect(grid.firstDay.description == firstCell)
    }

    @Test func hiddenCellsKeepTheirDates() {
        let shown = MonthGrid(month: CalendarMonth(year: 2024, month: 3), firstWeekday: .sunday, outOfMonthDays: .shown)
        let hidden = MonthGrid(month: CalendarMonth(year: 2024, month: 3), firstWeekday: .sunday, outOfMonthDays: .hidden)
        #expect(shown.map(\.day) == hidden.map(\.day))
        #expect(shown.map(\.isInMonth) == hidden.map(\.isInMonth))
        #expect(shown.filter(\.isHidden).isEmpty)
        #expect(hidden.filter(\.isHidden).map(\.day.description) == [
            "2024-02-25", "2024-02-26", "2024-02-27", "2024-02-28", "2024-02-29", "2024-04-01", "2024-04-02",
            "2024-04-03", "2024-04-04", "2024-04-05", "2024-04-06",
        ])
        #expect(hidden.description == """
                            1  2
             3  4  5  6  7  8  9
            10 11 12 13 14 15 16
            17 18 19 20 21 22 23
            24 25 26 27 28 29 30
            31                  
            """)
    }

    @Test func positionOfDays() throws {
        let grid = MonthGrid(month: CalendarMonth(year: 2024, month: 3), firstWeekday: .monday)
        for cell in grid {
            let position = try #require(grid.position(of: cell.day))
            #expect(position == (cell.row, cell.column))
        }
        #expect(grid.position(of: grid.firstDay.advanced(by: -1)) == nil)
        #expect(grid.position(of: grid.firstDay.advanced(by: grid.count)) == nil)
    }

    // MARK: - Negative and far years

    /// A month 400·n years away has the same shape, its days shifted by n·146,097; checked against
    /// 2000–2399 for years around 0, far in the past and far in the future.
    @Test(arguments: [-100_000_000_000, -1_000_000, -100_000, -400, 0, 100_000, 102_000, 1_000_000_000])
    func farYearsRepeatTheCycle(cycleStart: Int) {
        let cycles = (cycleStart - 2000) / 400
        var mismatches: [String] = []
        for firstWeekday in [Weekday.sunday, .monday, .wednesday] {
            for offset in stride(from: 0, to: 4_800, by: 7) {
                let near = CalendarMonth(year: 2000, month: 1).advanced(by: offset)
                let far = near.advanced(by: cycles * 4_800)
                for policy in RowPolicy.allCases {
                    let a = MonthGrid(month: near, firstWeekday: firstWeekday, rowPolicy: policy)
                    let b = MonthGrid(month: far, firstWeekday: firstWeekday, rowPolicy: policy)
                    if a.rowCount != b.rowCount || b.firstDay.daysSince1970 - a.firstDay.daysSince1970 != cycles * 146_097
                        || a.map(\.isInMonth) != b.map(\.isInMonth)
                        || b.first(where: \.isInMonth)?.day != far.firstDay || b.filter(\.isInMonth).count != far.dayCount {
                        mismatches.append("\(near) vs \(far)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func yearZeroAndNegativeYears() {
        // 0001-01-01 (proleptic Gregorian) was a Monday; year 0 is a leap year, -0001 is not.
        let january1 = MonthGrid(month: CalendarMonth(year: 1, month: 1), firstWeekday: .monday)
        #expect(january1.firstDay == (try! Day(year: 1, month: 1, day: 1)))
        #expect(january1.rowCount == 5)
        #expect(CalendarMonth(year: 0, month: 2).dayCount == 29)
        #expect(CalendarMonth(year: -1, month: 2).dayCount == 28)
        #expect(CalendarMonth(year: -4, month: 2).dayCount == 29)
        let december = MonthGrid(month: CalendarMonth(year: -1, month: 12), firstWeekday: .sunday)
        #expect(december.filter(\.isInMonth).map(\.day).last == (try! Day(year: 0, month: 1, day: 1)).advanced(by: -1))
        #expect(december.last!.day.description == "0000-01-01")
        #expect(CalendarMonth(year: -1, month: 12).description == "-0001-12")
        #expect(CalendarMonth(year: 123_456, month: 7).description == "+123456-07")
    }

    @Test func monthArithmetic() {
        #expect(CalendarMonth(year: 2024, month: 13) == CalendarMonth(year: 2025, month: 1))
        #expect(CalendarMonth(year: 2024, month: 0) == CalendarMonth(year: 2023, month: 12))
        #expect(CalendarMonth(year: 2024, month: -12) == CalendarMonth(year: 2022, month: 12))
        #expect(CalendarMonth(year: 0, month: 1).advanced(by: -1) == CalendarMonth(year: -1, month: 12))
        #expect(CalendarMonth(year: -5, month: 3).distance(to: CalendarMonth(year: 5, month: 3)) == 120)
        #expect((CalendarMonth(year: 2024, month: 11)...CalendarMonth(year: 2025, month: 2)).map(\.description)
                == ["2024-11", "2024-12", "2025-01", "2025-02"])
        #expect(CalendarMonth(containing: try! Day(year: -77, month: 4, day: 30)) == CalendarMonth(year: -77, month: 4))
        #expect(CalendarMonth(year: 2024, month: 2).contains(try! Day(year: 2024, month: 2, day: 29)))
        #expect(!CalendarMonth(year: 2024, month: 2).contains(try! Day(year: 2024, month: 3, day: 1)))
    }

    // MARK: - Week mode

    @Test(arguments: Weekday.allCases)
    func weekModeHoldsTheDate(firstWeekday: Weekday) {
        var day = try! Day(year: 2023, month: 12, day: 1)
        while day < (try! Day(year: 2024, month: 4, day: 1)) {
            let week = MonthGrid(weekContaining: day, firstWeekday: firstWeekday)
            #expect(week.mode == .week)
            #expect(week.rowCount == 1 && week.count == 7)
            #expect(week.firstDay.weekday == firstWeekday)
            #expect(week.contains { $0.day == day && $0.isInMonth })
            #expect(week.month == CalendarMonth(containing: day))
            #expect(week.map(\.isInMonth) == week.map { CalendarMonth(containing: $0.day) == week.month })
            day = day.advanced(by: 1)
        }
    }

    @Test func weekModeAcrossAMonthEnd() {
        let week = MonthGrid(weekContaining: try! Day(year: 2024, month: 2, day: 29), firstWeekday: .monday, outOfMonthDays: .hidden)
        #expect(week.map(\.day.description) == [
            "2024-02-26", "2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02", "2024-03-03",
        ])
        #expect(week.map(\.isInMonth) == [true, true, true, true, false, false, false])
        #expect(week.map(\.isHidden) == [false, false, false, false, true, true, true])
        #expect(week.description == "26 27 28 29         ")
    }
}
