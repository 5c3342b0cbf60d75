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

    /// Days in the array around the first day counted, days far from it (a stray year 9999 or
    /// year 1) in the dictionary, and days the array reaches when it grows toward them later.
    @Test("Days far apart, first far ones then near ones the array grows to: each day's points and count as a report over the sessions")
    func farDays() {
        let goal = StreakGoal(requiredPoints: 10, timeZone: .utc)
        let days = [ymd(2024, 3, 1), ymd(9999, 12, 31), ymd(1, 1, 1), ymd(2024, 3, 1), ymd(2023, 1, 1), ymd(2030, 6, 1),
                    ymd(2250, 1, 1), ymd(2024, 2, 29), ymd(1900, 1, 1), ymd(2250, 1, 1), ymd(2100, 1, 1), ymd(9999, 12, 31)]
        let sessions = days.enumerated().map { index, day in
            Session(id: "s\(index)", start: .date(day), end: .date(day.advanced(by: 1)), points: 3 + index)
        }
        var totals = DayTotals(goal: goal)
        for session in sessions { totals.add(session) }
        for (from, to) in [(ymd(1, 1, 1), ymd(1, 1, 3)), (ymd(1899, 12, 30), ymd(2031, 1, 1)), (ymd(2249, 12, 31), ymd(2250, 1, 2)),
                           (ymd(9999, 12, 30), ymd(9999, 12, 31))] {
            let expected = StreakReport(sessions: sessions, goal: goal, window: from...to)
            let streamed = totals.report(from: from, to: to)
            #expect(streamed == expected)
            #expect(streamed.totalSessions > 0)
        }
        let twice = totals.report(from: ymd(2250, 1, 1), to: ymd(2250, 1, 1))
        #expect(twice.days.map(\.points) == [9 + 12])
        #expect(twice.days.map(\.sessions) == [2])
        #expect(totals.earliestDay == ymd(1, 1, 1))
    }

    @Test("A start and points alone count as the session they come from: instants, floating times and dates, around a 04:00 day start")
    func startAndPoints() {
        let goal = StreakGoal(requiredPoints: 50, timeZone: TimeZoneRules(identifier: "America/New_York")!, dayStart: DayStart(hour: 4)!)
        let starts: [SessionTime] = [
            .instant(secondsSince1970: utcInstant(2024, 3, 10) + 7 * 3600),  // 03:00 EDT on the day DST begins: the day before
            .instant(secondsSince1970: utcInstant(2024, 3, 10) + 9 * 3600),  // 05:00 EDT
            .floating(LocalDateTime(secondsSince1970: utcInstant(2024, 3, 11) + 3 * 3600 + 59 * 60)),  // 03:59: the day before
            .date(ymd(2024, 3, 12)),
        ]
        var bySession = DayTotals(goal: goal)
        var byStart = DayTotals(goal: goal)
        for (index, start) in starts.enumerated() {
            bySession.add(Session(id: "s\(index)", start: start, end: start, points: 20 * index + 10))
            byStart.add(points: 20 * index + 10, startingAt: start)
        }
        byStart.add(points: -5, startingAt: .date(ymd(2024, 3, 12)))  // counted as 0, as a session's points are
        let report = byStart.report(from: ymd(2024, 3, 9), to: ymd(2024, 3, 12))
        #expect(report.days.map(\.points) == [10, 30 + 50, 0, 70])
        #expect(report.days.map(\.sessions) == [1, 2, 0, 2])
        #expect(bySession.report(from: ymd(2024, 3, 9), to: ymd(2024, 3, 12)).days.map(\.points) == report.days.map(\.points))
        #expect(byStart.earliestDay == ymd(2024, 3, 9))
        #expect(starts.map { $0.day(in: goal.timeZone, dayStart: goal.dayStart) } == [ymd(2024, 3, 9), ymd(2024, 3, 10), ymd(2024, 3, 10), ymd(2024, 3, 12)])
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
