import CalendarLayout
import Foundation
import Streaks
import Testing

@Suite("Year grids: a column per week, a row per weekday")
struct YearGridTests {
    @Test("The doc comments' examples print what they say")
    func documentationExamples() {
        let grid = YearGrid(year: 2024, firstWeekday: .sunday)
        #expect(printed(grid.weekCount, grid.position(of: try! Day(year: 2024, month: 2, day: 20))!) == "53 (week: 7, row: 2)")
        #expect(printed(YearGrid(year: 2024).monthColumns.prefix(3).map { "\($0.month):\($0.week)" }) == #"["1:0", "2:5", "3:9"]"#)
        let layout = YearLayout(grid: YearGrid(year: 2024), cellSize: 12, gap: 3, labelWidth: 30, labelHeight: 16)
        #expect(printed(layout.frame, layout.frame(of: try! Day(year: 2024, month: 1, day: 1))!)
            == "(x: 0, y: 0, width: 822, height: 118) (x: 30, y: 31, width: 12, height: 12)")
        #expect(YearLayout.cellSize(fitting: 976, grid: YearGrid(year: 2024), gap: 3, labelWidth: 34, maximum: 16) == 14)
    }

    @Test("Columns: 53, and 54 only for a leap year that starts on the last weekday of a week", arguments: [
        (2024, Weekday.sunday, 53),  // Monday 1 January, leap
        (2023, .sunday, 53),  // Sunday 1 January: 365 days from the first row
        (2028, .sunday, 54),  // Saturday 1 January, leap: 1 January in row 6, 31 December in row 0 of column 53
        (2028, .monday, 53),  // the same year from Monday: Saturday is row 5
        (2012, .monday, 54),  // Sunday 1 January, leap, Monday first
        (2017, .monday, 53),
    ])
    func weekCount(year: Int, firstWeekday: Weekday, expected: Int) {
        #expect(YearGrid(year: year, firstWeekday: firstWeekday).weekCount == expected)
    }

    @Test("Every day of a year has one cell, in its weekday's row, each column seven days later", arguments: [2023, 2024, 2028, 1900, 2000])
    func everyDayOnce(year: Int) throws {
        for firstWeekday in Weekday.allCases {
            let grid = YearGrid(year: year, firstWeekday: firstWeekday)
            var seen = Set<String>()
            var previous: (week: Int, row: Int)?
            for day in grid.days.lowerBound.daysSince1970...grid.days.upperBound.daysSince1970 {
                let date = Day(daysSince1970: day)
                let position = try #require(grid.position(of: date))
                #expect(grid.weekday(ofRow: position.row) == date.weekday)
                #expect(grid.day(week: position.week, row: position.row) == date)
                #expect(seen.insert("\(position.week):\(position.row)").inserted)
                if let previous {
                    #expect(position.week * 7 + position.row == previous.week * 7 + previous.row + 1)
                }
                previous = position
            }
            #expect(seen.count == (grid.days.upperBound.daysSince1970 - grid.days.lowerBound.daysSince1970 + 1))
            #expect(grid.position(of: grid.days.lowerBound.advanced(by: -1)) == nil)
            #expect(grid.position(of: grid.days.upperBound.advanced(by: 1)) == nil)
            #expect(grid.day(week: 0, row: -1) == nil && grid.day(week: grid.weekCount, row: 0) == nil)
            #expect(grid.position(of: grid.days.upperBound)?.week == grid.weekCount - 1)
        }
    }

    @Test("Columns are the weeks Foundation counts (first weekday, one day in the first week)")
    func weeksAgreeWithFoundation() throws {
        for firstWeekday in [Weekday.sunday, .monday, .saturday] {
            let calendar = try foundationCalendar(firstWeekday: firstWeekday)
            for year in [2021, 2024, 2028] {
                let grid = YearGrid(year: year, firstWeekday: firstWeekday)
                for month in 1...12 {
                    for dayOfMonth in [1, 15, 28] {
                        let day = try! Day(year: year, month: month, day: dayOfMonth)
                        let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth)))
                        let foundationWeek = calendar.component(.weekOfYear, from: date)
                        // Foundation counts the week of 1 January as week 1 of the year (weekOfYear
                        // wraps in the last days of December when they belong to next year's week 1).
                        if month == 12, foundationWeek == 1 { continue }
                        #expect(grid.position(of: day)?.week == foundationWeek - 1, "\(day) from \(firstWeekday)")
                    }
                }
            }
        }
    }

    @Test("Month labels sit over the first column that begins in the month, in order, at least four weeks apart")
    func monthColumns() {
        for year in 2020...2030 {
            for firstWeekday in Weekday.allCases {
                let grid = YearGrid(year: year, firstWeekday: firstWeekday)
                let columns = grid.monthColumns
                #expect(columns.map(\.month) == Array(1...12))
                #expect(columns[0].week == 0)
                for (month, week) in columns.dropFirst() {
                    let top = grid.firstDay.advanced(by: week * 7)
                    #expect(top.components.month == month, "\(year) \(firstWeekday) month \(month)")
                    #expect(grid.firstDay.advanced(by: (week - 1) * 7).components.month != month)
                }
                for (first, second) in zip(columns, columns.dropFirst()) {
                    #expect(second.week - first.week >= 4)
                }
            }
        }
    }

    @Test("Frames: cells a pitch apart, labels in their bands, nothing overlaps")
    func frames() throws {
        let layout = YearLayout(grid: YearGrid(year: 2028, firstWeekday: .sunday), cellSize: 10, gap: 2, labelWidth: 28, labelHeight: 14, x: 5, y: 7)
        #expect(layout.pitch == 12)
        #expect(layout.frame == LayoutFrame(x: 5, y: 7, width: 28 + 54 * 12 - 2, height: 14 + 7 * 12 - 2))
        let january1 = try #require(layout.frame(of: try! Day(year: 2028, month: 1, day: 1)))
        #expect(january1 == LayoutFrame(x: 33, y: 7 + 14 + 6 * 12, width: 10, height: 10))
        let january2 = try #require(layout.frame(of: try! Day(year: 2028, month: 1, day: 2)))
        #expect(january2 == LayoutFrame(x: 33 + 12, y: 21, width: 10, height: 10))
        #expect(layout.weekdayLabelFrame(row: 3) == LayoutFrame(x: 5, y: 21 + 36, width: 28, height: 10))
        let labels = (1...12).compactMap { layout.monthLabelFrame(month: $0) }
        #expect(labels.count == 12)
        #expect(labels.allSatisfy { $0.y == 7 && $0.height == 14 && $0.width > 0 && $0.maxX <= layout.frame.maxX })
        for (first, second) in zip(labels, labels.dropFirst()) { #expect(!first.intersects(second)) }
        #expect(layout.monthLabelFrame(month: 13) == nil)
    }

    @Test("A viewport query gives exactly the cells that meet it, whichever rectangle")
    func viewportQueries() {
        let layout = YearLayout(grid: YearGrid(year: 2024, firstWeekday: .monday), cellSize: 11, gap: 3, labelWidth: 30, labelHeight: 15)
        let all = layout.grid.days.lowerBound.daysSince1970...layout.grid.days.upperBound.daysSince1970
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<200 {
            let rect = LayoutFrame(
                x: Int.random(in: -50...800, using: &generator), y: Int.random(in: -30...120, using: &generator),
                width: Int.random(in: 0...300, using: &generator), height: Int.random(in: 0...90, using: &generator))
            let expected = all.compactMap { number -> String? in
                let day = Day(daysSince1970: number)
                guard let frame = layout.frame(of: day), frame.intersects(rect) else { return nil }
                return "\(day)"
            }
            #expect(layout.days(in: rect).map { "\($0.day)" }.sorted() == expected.sorted(), "\(rect)")
        }
    }

    @Test("A rolling grid: the last 53 weeks through the week of its last day, as GitHub's graph")
    func rolling() throws {
        let last = try! Day(year: 2026, month: 11, day: 28)  // a Saturday
        let grid = YearGrid(weeksEndingWith: last, firstWeekday: .sunday)
        #expect(printed(grid.firstDay, grid.weekCount, grid.monthColumns.first!) == "2025-11-23 53 (month: 11, week: 0)")
        #expect(grid.days == (try! Day(year: 2025, month: 11, day: 23))...last)
        #expect(grid.position(of: last)! == (week: 52, row: 6))
        #expect(grid.day(week: 52, row: 6) == last)
        #expect(grid.position(of: last.advanced(by: 1)) == nil)
        #expect(grid.year == 2026)
        // Its months in order, November at both ends, each label over the first column that begins in it.
        #expect(grid.monthColumns.map(\.month) == [11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        #expect(grid.monthColumns[1].week == 2 && grid.monthColumns.last!.week == 49)
        let layout = YearLayout(grid: grid, cellSize: 10, gap: 2, labelWidth: 20, labelHeight: 12)
        #expect(layout.monthLabelFrame(at: 12)?.x == 20 + 49 * 12)
        #expect(layout.monthLabelFrame(month: 11)?.x == 20)  // the first of the two
        // A Wednesday: the last column is that week, its later days not in the grid.
        let midweek = YearGrid(weeksEndingWith: try! Day(year: 2026, month: 11, day: 25), weekCount: 2, firstWeekday: .monday)
        #expect(printed(midweek.firstDay, midweek.weekCount) == "2026-11-16 2")
        #expect(midweek.day(week: 1, row: 2) == (try! Day(year: 2026, month: 11, day: 25)) && midweek.day(week: 1, row: 3) == nil)
    }
}
