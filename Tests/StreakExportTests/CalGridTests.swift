import Foundation
import StreakExport
import Streaks
import Testing

/// The months the stored `cal` output covers, in the order it was written.
///
/// Snapshots/cal-sunday.txt is `cal M Y` and Snapshots/ncal-monday.txt is `ncal -b -M -h M Y` for
/// each month below, one after the other (Debian's ncal 12.1.8, run once with the months below;
/// this `cal` does not highlight today when its output is not a terminal, and takes no `-h`).
/// Each month is 8 lines: the title, the weekday names and six week lines (blank when unused).
let calMonths: [(year: Int, month: Int)] = [
    (2024, 2), (2023, 2), (2015, 2), (2021, 2), (2000, 2), (1900, 2), (2100, 2),
    (2015, 8), (2020, 5), (2023, 10), (2026, 3), (2024, 9), (2024, 12), (1970, 1),
]

@Suite("Text grids against cal")
struct CalGridTests {
    static let cases: [(file: String, weekday: Weekday)] = [("cal-sunday.txt", .sunday), ("ncal-monday.txt", .monday)]

    @Test("With the marks blanked, each month is what cal / ncal -b prints (trailing blanks aside)", arguments: cases)
    func matchesCal(file: String, firstWeekday: Weekday) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(file)")
        let stored = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(stored.count >= calMonths.count * 8)
        for (index, (year, month)) in calMonths.enumerated() {
            let expected = normalized(Array(stored[index * 8..<index * 8 + 8]))
            // A report over the whole month, so that every day carries a mark to blank.
            let first = try! Day(year: year, month: month, day: 1)
            let last = first.advanced(by: Day.daysInMonth(year: year, month: month) - 1)
            let points = (0...first.distance(to: last)).map { [0, 50, 100][$0 % 3] }
            let report = StreakReport(goal: StreakGoal(timeZone: .utc), firstDay: first, points: points, sessionCounts: points.map { $0 > 0 ? 1 : 0 })
            let lines = TextReport(report: report, firstWeekday: firstWeekday).monthLines(year: year, month: month)
            #expect(lines.allSatisfy { $0.count == 21 }, "\(year)-\(month): every line is 21 columns")
            let marked = lines.dropFirst(2).joined()
            #expect(marked.contains("✓") && marked.contains("◑") && marked.contains("·"), "\(year)-\(month): marks to blank")
            let blanked = lines.enumerated().map { $0.offset < 2 ? $0.element : blankMarks($0.element) }
            #expect(normalized(blanked) == expected, "\(file) \(year)-\(month)")
        }
    }

    /// Rows 4 to 6, as the stored output shows them, match the months chosen for it.
    @Test("The months cover 4, 5 and 6 week rows for both first weekdays")
    func rowCounts() {
        for firstWeekday in [Weekday.sunday, .monday] {
            let rows = Set(calMonths.map { TextReport(report: tutorialReport(), firstWeekday: firstWeekday).monthLines(year: $0.year, month: $0.month).count - 2 })
            #expect(rows == [4, 5, 6], "\(firstWeekday)")
        }
    }

    /// The line with the status column of each cell (the third of its three columns) made a space.
    private func blankMarks(_ line: String) -> String {
        String(line.enumerated().map { $0.offset % 3 == 2 ? " " : $0.element })
    }

    /// Lines without trailing spaces, and without the blank lines at the end.
    private func normalized(_ lines: [String]) -> [String] {
        var result = lines.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
        while result.last == "" { result.removeLast() }
        return result
    }
}
