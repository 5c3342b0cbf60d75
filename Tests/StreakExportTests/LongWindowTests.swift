import CalendarLayout
import StreakExport
import Streaks
import Testing

@Suite("Pictures of long windows")
struct DrawingLimitTests {
    /// A report of `years` calendar years from 2024, one met day in its first and in its last year.
    private func report(years: Int) -> StreakReport {
        let first = try! Day(year: 2024, month: 1, day: 1)
        let last = try! Day(year: 2024 + years - 1, month: 12, day: 31)
        var points = Array(repeating: 0, count: first.distance(to: last) + 1)
        points[0] = 100
        points[points.count - 1] = 100
        return StreakReport(goal: StreakGoal(timeZone: .utc), firstDay: first, points: points, sessionCounts: points.map { $0 > 0 ? 1 : 0 })
    }

    @Test("Up to 100 years, every year is drawn and nothing is said", arguments: [1, 99, 100])
    func everyYear(years: Int) {
        let report = report(years: years)
        #expect(ReportView.drawnYears(of: report) == Array(2024..<(2024 + years)))
        #expect(ReportView.drawnMonths(of: report).count == 12 * years)
        #expect(ReportView.drawingNote(for: report) == nil)
    }

    @Test("Past 100 years, the last 100 are drawn, with a note in the picture; the figures count every day")
    func lastHundred() {
        let report = report(years: 1_000)
        #expect(ReportView.drawnYears(of: report) == Array(2924...3023))
        #expect(ReportView.drawnMonths(of: report).first == CalendarMonth(year: 2924, month: 1))
        let note = "the days of 2924 to 3023 are drawn (at most 100 years); the figures count every day from 2024-01-01"
        #expect(ReportView.drawingNote(for: report) == note)
        let svg = SVGReport(report: report, view: .year).render()
        #expect(svg.components(separatedBy: "<g class=\"year\"").count - 1 == 100)
        #expect(svg.contains(">Note: \(note).</text>"))
        #expect(svg.contains("Days: 365242 (met 2, partial 0, none 365240)"))
        let html = HTMLReport(report: report, sessions: [], view: .year).render()
        #expect(html.components(separatedBy: "<figure class=\"year\"").count - 1 == 100)
        #expect(html.components(separatedBy: "<details class=\"year-months\">").count - 1 == 100)
        // Met days are counted per year: the last year has its one.
        #expect(html.contains("<summary>3023: 12 months, 1 day met</summary>"))
        #expect(html.contains("<summary>2924: 12 months, 0 days met</summary>"))
        let months = HTMLReport(report: report, sessions: [], view: .month).render()
        #expect(months.components(separatedBy: "<table class=\"month\">").count - 1 == 1_200)
    }
}
