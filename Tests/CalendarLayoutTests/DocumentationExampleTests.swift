import CalendarLayout
import Foundation
import Streaks
import Testing

/// Each example in the doc comments of `Sources/CalendarLayout`, run, with the result it says it prints.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    @Test func calendarMonth() {
        let month = CalendarMonth(year: 2024, month: 11)
        #expect(printed(month, month.advanced(by: 3), month.dayCount, month.firstDay) == "2024-11 2025-02 30 2024-11-01")
        #expect(printed(CalendarMonth(year: 2024, month: 13), CalendarMonth(year: 2024, month: 0)) == "2025-01 2023-12")
        #expect(printed(CalendarMonth(containing: try! Day(year: 2024, month: 2, day: 29))) == "2024-02")
        let february = CalendarMonth(year: 2023, month: 2).days
        #expect(printed(february.count, february.lowerBound, february.upperBound) == "28 2023-02-01 2023-03-01")
    }

    @Test func monthGrid() {
        let february = CalendarMonth(year: 2015, month: 2)
        #expect(printed(MonthGrid(month: february, rowPolicy: .variable).rowCount, MonthGrid(month: february, rowPolicy: .six).rowCount) == "4 6")

        let hidden = MonthGrid(month: CalendarMonth(year: 2024, month: 3), outOfMonthDays: .hidden)
        #expect(printed(hidden[0, 0].day, hidden[0, 0].isInMonth, hidden[0, 0].isHidden) == "2024-02-25 false true")

        let cell = MonthGrid(month: CalendarMonth(year: 2024, month: 3))[4, 6]
        #expect(printed(cell.day, cell.row, cell.column, cell.isInMonth) == "2024-03-30 4 6 true")

        let grid = MonthGrid(month: CalendarMonth(year: 2024, month: 2), firstWeekday: .monday)
        #expect(printed(grid.rowCount, grid.count, grid.first!.day, grid.last!.day) == "5 35 2024-01-29 2024-03-03")
        #expect(printed(grid) == """
            29 30 31  1  2  3  4
             5  6  7  8  9 10 11
            12 13 14 15 16 17 18
            19 20 21 22 23 24 25
            26 27 28 29  1  2  3
            """)

        let sunday = MonthGrid(month: CalendarMonth(year: 2015, month: 2), firstWeekday: .sunday)
        #expect(printed(sunday.rowCount, sunday.firstDay) == "4 2015-02-01")

        let week = MonthGrid(weekContaining: try! Day(year: 2024, month: 3, day: 1), firstWeekday: .monday)
        #expect(printed(week.rowCount, week.first!.day, week.first!.isInMonth, week.last!.day) == "1 2024-02-26 false 2024-03-03")

        #expect(printed(MonthGrid.rowCount(month: CalendarMonth(year: 2015, month: 8), firstWeekday: .sunday, rowPolicy: .variable)) == "6")

        let day = try! Day(year: 2024, month: 3, day: 14)
        #expect(printed(MonthGrid(month: CalendarMonth(containing: day)).mode, MonthGrid(weekContaining: day).mode) == "month week")

        let march = MonthGrid(month: CalendarMonth(year: 2024, month: 3))
        #expect(printed(march.position(of: try! Day(year: 2024, month: 3, day: 14))!) == "(row: 2, column: 4)")
    }

    @Test func layoutFrame() {
        let header = LayoutFrame(x: 0, y: 0, width: 390, height: 44)
        let cell = LayoutFrame(x: 0, y: 44, width: 55, height: 55)
        #expect(printed(header.intersects(cell), header.maxY, cell) == "false 44 (x: 0, y: 44, width: 55, height: 55)")
        let viewport = LayoutFrame(x: 0, y: 100, width: 390, height: 0)
        #expect(printed(viewport.intersects(LayoutFrame(x: 0, y: 0, width: 390, height: 500))) == "false")
    }

    @Test func layoutFrameEncodesTheJSONContractShape() throws {
        let data = try JSONEncoder().encode(LayoutFrame(x: 1, y: 2, width: 3, height: 4))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Int])
        #expect(object == ["x": 1, "y": 2, "width": 3, "height": 4])
        #expect(try JSONDecoder().decode(LayoutFrame.self, from: data) == LayoutFrame(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func layoutMetrics() {
        #expect(printed(LayoutMetrics(width: 390, cellAspect: .square).rowHeight, LayoutMetrics(width: 390, cellAspect: CellAspect(height: 3, width: 4)).rowHeight) == "55 41")
        let metrics = LayoutMetrics(width: 390, headerHeight: 44)
        #expect(printed(metrics.columnWidths, metrics.rowHeight, metrics.monthHeight(rows: 5)) == "[55, 56, 56, 55, 56, 56, 56] 55 319")
        let narrow = LayoutMetrics(width: 320)
        #expect(printed(narrow.columnWidths, narrow.rowHeight, narrow.headerHeight) == "[45, 46, 46, 45, 46, 46, 46] 45 44")
        #expect(printed(LayoutMetrics(width: 700, headerHeight: 30, rowHeight: 40).monthHeight(rows: 6)) == "270")
        #expect(printed((0...7).map(LayoutMetrics(width: 10).columnX)) == "[0, 1, 2, 4, 5, 7, 8, 10]")
    }

    @Test func monthLayout() {
        let layout = MonthLayout(grid: MonthGrid(month: CalendarMonth(year: 2024, month: 3)), metrics: LayoutMetrics(width: 390))
        let placed = layout.cells[12]
        #expect(printed(placed.day, placed.isInMonth, placed.frame) == "2024-03-08 true (x: 278, y: 99, width: 56, height: 55)")
        #expect(printed(layout.frame(of: try! Day(year: 2024, month: 3, day: 1))!) == "(x: 278, y: 44, width: 56, height: 55)")

        let grid = MonthGrid(month: CalendarMonth(year: 2015, month: 2), firstWeekday: .sunday)
        let february = MonthLayout(grid: grid, metrics: LayoutMetrics(width: 390, headerHeight: 44))
        #expect(printed(february.frame, february.headerFrame) == "(x: 0, y: 0, width: 390, height: 264) (x: 0, y: 0, width: 390, height: 44)")
        #expect(printed(february.cellFrame(row: 3, column: 6)) == "(x: 334, y: 209, width: 56, height: 55)")
    }

    @Test func monthStack() {
        let stack = MonthStack(
            firstMonth: CalendarMonth(year: 2000, month: 1), monthCount: 1_200_000,  // 100,000 years
            metrics: LayoutMetrics(width: 390), firstWeekday: .monday)
        let viewport = LayoutFrame(x: 0, y: stack.totalHeight - 844, width: 390, height: 844)
        let months = stack.visibleMonths(in: viewport)
        #expect(printed(stack.totalHeight, months.map(\.month), months.map(\.visibleCellCount)) == "396371250 [+101999-10, +101999-11, +101999-12] [28, 35, 35]")

        let two = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 2, metrics: LayoutMetrics(width: 390))
        #expect(printed(two.months, two.totalHeight) == "2015-01...2015-02 583")

        let year = MonthStack(firstMonth: CalendarMonth(year: 2015, month: 1), monthCount: 12, metrics: LayoutMetrics(width: 390))
        #expect(printed(year.month(atY: 0)!, year.month(atY: 319)!, year.month(atY: -1) as Any) == "2015-01 2015-02 nil")
        #expect(printed(year.frame(of: CalendarMonth(year: 2015, month: 3))!) == "(x: 0, y: 583, width: 390, height: 319)")
        #expect(printed(year.frame(of: try! Day(year: 2015, month: 2, day: 1))!) == "(x: 0, y: 363, width: 55, height: 55)")

        let visible = year.visibleMonths(in: LayoutFrame(x: 0, y: 300, width: 390, height: 100))
        #expect(printed(visible.map { "\($0.month) header \($0.isHeaderVisible) rows \($0.rows)" }) == #"["2015-01 header false rows 4..<5", "2015-02 header true rows 0..<1"]"#)

        let cells = year.visibleCells(in: LayoutFrame(x: 0, y: 300, width: 55, height: 100))
        #expect(printed(cells.map { "\($0.day) \($0.isInMonth)" }) == #"["2015-01-25 true", "2015-02-01 true"]"#)

        var lines: [String] = []
        year.forEachVisibleMonth(in: LayoutFrame(x: 0, y: 560, width: 390, height: 80)) { month in
            var days: [String] = []
            month.forEachCell { days.append("\($0.day.dayOfMonth)") }
            lines.append(printed(month.month, month.headerFrame, days.joined(separator: " ")))
        }
        #expect(lines == [
            "2015-02 (x: 0, y: 319, width: 390, height: 44) 22 23 24 25 26 27 28",
            "2015-03 (x: 0, y: 583, width: 390, height: 44) 1 2 3 4 5 6 7",
        ])

        let month = year.visibleMonths(in: LayoutFrame(x: 100, y: 600, width: 100, height: 60))[0]
        #expect(printed(month.month, month.frame, month.isHeaderVisible, month.rows, month.columns, month.visibleCellCount) == "2015-03 (x: 0, y: 583, width: 390, height: 319) true 0..<1 1..<4 3")
    }

    @Test func firstWeekdayOfLocales() {
        #expect(printed(Weekday.firstWeekday(of: Locale(identifier: "en_US")), Weekday.firstWeekday(of: Locale(identifier: "de_DE"))) == "sunday monday")
        #expect(Weekday.firstWeekday(of: Locale(identifier: "en_GB")) == .monday)
        #expect(Weekday.firstWeekday(of: Locale(identifier: "ar_EG")) == .saturday)
        #expect(Weekday.firstWeekday(of: Locale(identifier: "en_US@fw=mon")) == .monday)
    }
}
