import Streaks
import Testing

@Suite("Huge point values")
struct SaturationTests {
    @Test("Day totals and the window total saturate at Int.max instead of wrapping negative")
    func saturates() {
        let day = try! Day(year: 2024, month: 1, day: 1)
        let sessions = (0..<3).map {
            Session(id: "\($0)", start: .date(day), end: .date(day.advanced(by: 1)), points: Int.max - 1)
        } + [Session(id: "next", start: .date(day.advanced(by: 1)), end: .date(day.advanced(by: 2)), points: 5)]
        let report = StreakReport(sessions: sessions, goal: StreakGoal(timeZone: .utc), window: day...day.advanced(by: 1))
        #expect(report.days.map(\.points) == [Int.max, 5])
        #expect(report.days.map(\.status) == [.met, .partial])
        #expect(report.totalPoints == Int.max)
    }
}
