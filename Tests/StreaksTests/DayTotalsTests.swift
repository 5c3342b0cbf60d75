import Streaks
import Testing

/// `DayTotals` must give the report `StreakReport(sessions:goal:window:)` gives for the same sessions.
@Suite("DayTotals")
struct DayTotalsTests {
    /// Sessions spread over two months in Berlin time, some on the same day, some across midnight.
    private static func sessions(seed: UInt64) -> [Session] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<400).map { index in
            let start = utcInstant(2024, 3, 1) + Int64(next() % (61 * 86_400))
            return Session(
                id: "s\(index)", start: .instant(secondsSince1970: start),
                end: .instant(secondsSince1970: start + Int64(next() % 7_200)), points: next() % 70)
        }
    }

    @Test("The same days, points, counts and streaks as a report over the sessions", arguments: [1, 2, 3] as [UInt64])
    func matchesReport(seed: UInt64) {
        let goal = StreakGoal(requiredPoints: 100, timeZone: TimeZoneRules(identifier: "Europe/Berlin")!, dayStart: DayStart(hour: 4)!)
        let sessions = Self.sessions(seed: seed)
        var totals = DayTotals(goal: goal)
        for session in sessions { totals.add(session) }
        for from in [nil, ymd(2024, 3, 10)] as [Day?] {
            let to = ymd(2024, 4, 20)
            let window = StreakReport.window(for: sessions, goal: goal, from: from, to: to)
            let expected = StreakReport(sessions: sessions, goal: goal, window: window)
            let streamed = totals.report(from: from, to: to)
            #expect(streamed == expected)
            #expect(streamed.totalSessions > 0)
        }
        #expect(totals.earliestDay == sessions.map { $0.day(in: goal.timeZone, dayStart: goal.dayStart) }.min())
    }

    @Test("No sessions: the window is just the last day, with nothing in it")
    func empty() {
        let totals = DayTotals(goal: StreakGoal(requiredPoints: 10, timeZone: .utc))
        let report = totals.report(from: nil, to: ymd(2024, 5, 1))
        #expect(report.days.map(\.date) == [ymd(2024, 5, 1)])
        #expect(report.days.map(\.points) == [0])
        #expect(totals.earliestDay == nil)
    }
}
