import Foundation
import Testing
@testable import StreakCal

/// A calendar holds plans as well as history (issue 46): sessions that start after now are not
/// done, and days after today are upcoming, whatever the day the report is made on.
@Suite("Planned sessions")
struct PlannedSessionsTests {
    /// A daily one-hour gym session at 07:00 UTC from 2026-11-01 on, for ever, with X-POINTS 60.
    static let gym = CalendarSource.string("""
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:gym
        DTSTART:20261101T070000Z
        DURATION:PT1H
        RRULE:FREQ=DAILY
        X-POINTS:60
        SUMMARY:Gym
        END:VEVENT
        END:VCALENDAR
        """, name: "gym.ics")

    static func settings(counting: Bool = false) throws -> ReportSettings {
        var settings = ReportSettings(requiredPoints: 60, timeZone: "UTC", from: try Day(year: 2026, month: 12, day: 1), to: try Day(year: 2026, month: 12, day: 31))
        settings.countsPlannedSessions = counting
        return settings
    }

    /// Seconds since 1970 of `day` at `hour`:00 UTC.
    static func instant(_ day: Day, hour: Int) -> Int64 {
        Int64(day.daysSince1970) * 86_400 + Int64(hour) * 3_600
    }

    @Test("Whatever today is in the window, the days after it are upcoming and their sessions are not counted", arguments: 1...31)
    func everyDayOfDecember(dayOfMonth: Int) throws {
        let today = try Day(year: 2026, month: 12, day: dayOfMonth)
        // At 07:30 today's session has begun: it counts; tomorrow's has not.
        let scored = try Self.settings().scored([Self.gym], now: Self.instant(today, hour: 7) + 1_800)
        let report = scored.report
        #expect(report.days.filter { $0.date <= today }.allSatisfy { $0.status == .met && $0.points == 60 })
        #expect(report.days.filter { $0.date > today }.allSatisfy { $0.status == .upcoming && $0.points == 0 && $0.sessions == 0 })
        #expect(report.currentStreak.length == dayOfMonth && report.currentStreak.end == today)
        #expect(report.totalPoints == 60 * dayOfMonth)
        #expect(scored.today == today)
        let note = scored.imported.diagnostics.first { $0.code == .planned }
        if dayOfMonth < 31 {
            #expect(note?.message.hasPrefix("\(31 - dayOfMonth) session\(31 - dayOfMonth == 1 ? "" : "s") start") == true, "\(String(describing: note))")
        } else {
            #expect(note == nil)
        }
    }

    @Test("Before a session's start it is planned, from its start on it counts")
    func startIsTheLine() throws {
        let today = try Day(year: 2026, month: 12, day: 6)
        let before = try Self.settings().scored([Self.gym], now: Self.instant(today, hour: 7) - 1).report
        let at = try Self.settings().scored([Self.gym], now: Self.instant(today, hour: 7)).report
        #expect(before.total(on: today)?.points == 0 && before.total(on: today)?.status == DayStatus.none, "\(String(describing: before.total(on: today)))")
        #expect(at.total(on: today)?.points == 60 && at.total(on: today)?.status == .met)
    }

    @Test("countsPlannedSessions counts them as done, as before: no upcoming day, no note")
    func countingPlanned() throws {
        let scored = try Self.settings(counting: true).scored([Self.gym], now: Self.instant(try Day(year: 2026, month: 12, day: 6), hour: 12))
        #expect(scored.report.days.allSatisfy { $0.status == .met })
        #expect(scored.report.totalPoints == 31 * 60)
        #expect(!scored.imported.diagnostics.contains { $0.code == .planned })
    }

    @Test("A whole import scores as the stream does, planned sessions and all")
    func wholeImportToo() throws {
        let now = Self.instant(try Day(year: 2026, month: 12, day: 10), hour: 12)
        let settings = try Self.settings()
        let whole = settings.scored(try settings.importer(now: now).importSessions(from: [Self.gym]), now: now)
        let streamed = try settings.scored([Self.gym], now: now)
        #expect(whole.report == streamed.report)
    }

    @Test("The agenda lists planned sessions as planned and counts only the others")
    func agenda() throws {
        let today = try Day(year: 2026, month: 12, day: 6)
        let agenda = try Self.settings().sessions(over: today.advanced(by: -1)...today.advanced(by: 1), in: [Self.gym], now: Self.instant(today, hour: 12))
        #expect(agenda.days.map(\.points) == [60, 60, 0])
        #expect(agenda.days[2].isPlanned(agenda.days[2].sessions[0]))
        #expect(agenda.days[2].render() == "Sessions on 2026-12-07 (UTC): upcoming, 1 planned\n  07:00–08:00  planned        Gym\n")
        let json = try JSONSerialization.jsonObject(with: Data(SessionCards.json(agenda: agenda.days).utf8)) as? [String: Any]
        let days = try #require(json?["days"] as? [[String: Any]])
        #expect(days.map { ($0["sessions"] as? [[String: Any]])?.first?["planned"] as? Bool } == [false, false, true])
    }
}
