import Foundation
import Testing
@testable import StreakCal
import ICalendar
@testable import Streaks

/// Where the time went (issue 47): sessions, minutes and points per group and period, counted by
/// the report's own accumulator, so that they agree with the report's.
@Suite("Time totals")
struct TimeTotalsTests {
    /// A work log: two categories on one event, a session across midnight, an all-day vacation,
    /// a weekly series of three with a hostile category, and the report's zone UTC.
    static let workLog = CalendarSource.string("""
        BEGIN:VCALENDAR
        X-WR-CALNAME:Work log
        BEGIN:VEVENT
        UID:1
        DTSTART:20240101T090000Z
        DTEND:20240101T103000Z
        SUMMARY:Deep work
        CATEGORIES:Work,Focus
        END:VEVENT
        BEGIN:VEVENT
        UID:2
        DTSTART:20240102T233000Z
        DTEND:20240103T013000Z
        SUMMARY:  Late session\u{20}
        CATEGORIES:Work
        END:VEVENT
        BEGIN:VEVENT
        UID:3
        DTSTART;VALUE=DATE:20240105
        DTEND;VALUE=DATE:20240108
        SUMMARY:Vacation
        END:VEVENT
        BEGIN:VEVENT
        UID:4
        DTSTART:20240110T070000Z
        DTEND:20240110T080000Z
        SUMMARY:=cmd|' /C calc'!A0
        CATEGORIES:<b>x</b>
        RRULE:FREQ=WEEKLY;COUNT=3
        END:VEVENT
        END:VCALENDAR
        """, name: "work.ics")

    static let january = try! Day(year: 2024, month: 1, day: 1)...Day(year: 2024, month: 1, day: 31)

    static func settings(zone: TimeZoneRules = "UTC", window: ClosedRange<Day> = january) -> ReportSettings {
        var settings = ReportSettings(pointsRule: .minutes, timeZone: zone, from: window.lowerBound, to: window.upperBound)
        settings.firstWeekday = .monday
        return settings
    }

    /// 2025-06-01, long after every session of the fixtures.
    static let later: Int64 = 1_748_736_000

    static func figures(_ totals: TimeTotals, _ period: String, _ group: String) -> TimeTotals.Figures? {
        totals.rows.first { $0.period.description == period && $0.group == group }?.figures
    }

    @Test("By category per week: an event with two categories counts in each, one with none under (none)")
    func categoriesPerWeek() throws {
        let totals = try #require(try Self.settings().totals([Self.workLog], by: .category, per: .week, now: Self.later).timeTotals)
        #expect(totals.periods.map(\.description) == ["2024-01-01", "2024-01-08", "2024-01-15", "2024-01-22", "2024-01-29"])
        #expect(Self.figures(totals, "2024-01-01", "Work") == TimeTotals.Figures(sessions: 2, minutes: 210, points: 210))
        #expect(Self.figures(totals, "2024-01-01", "Focus") == TimeTotals.Figures(sessions: 1, minutes: 90, points: 90))
        #expect(Self.figures(totals, "2024-01-01", "(none)") == TimeTotals.Figures(sessions: 1, minutes: 0, points: 0))
        for week in ["2024-01-08", "2024-01-15", "2024-01-22"] {
            #expect(Self.figures(totals, week, "<b>x</b>") == TimeTotals.Figures(sessions: 1, minutes: 60, points: 60))
        }
        #expect(totals.groups.map(\.group) == ["Work", "<b>x</b>", "Focus", "(none)"])
        #expect(totals.groups[0].averageMinutes == 42)
        // Every session once: the Deep work session is not counted twice.
        #expect(totals.overall == TimeTotals.Figures(sessions: 6, minutes: 390, points: 390))
    }

    @Test("A session across midnight counts its minutes in both days, its session and points on the day it starts")
    func acrossMidnight() throws {
        let totals = try #require(try Self.settings().totals([Self.workLog], by: .summary, per: .day, now: Self.later).timeTotals)
        #expect(Self.figures(totals, "2024-01-02", "Late session") == TimeTotals.Figures(sessions: 1, minutes: 30, points: 120))
        #expect(Self.figures(totals, "2024-01-03", "Late session") == TimeTotals.Figures(sessions: 0, minutes: 90, points: 0))
        #expect(Self.figures(totals, "2024-01-05", "Vacation") == TimeTotals.Figures(sessions: 1, minutes: 0, points: 0))
        #expect(totals.groups.contains { $0.group == "=cmd|' /C calc'!A0" })
    }

    @Test("A day start of 04:00 moves the line between days")
    func dayStart() throws {
        var settings = Self.settings()
        settings.dayStart = DayStart(hour: 4)!
        let totals = try #require(try settings.totals([Self.workLog], by: .summary, per: .day, now: Self.later).timeTotals)
        // 23:30 to 01:30 lies wholly in the day that began at 04:00 on the 2nd.
        #expect(Self.figures(totals, "2024-01-02", "Late session") == TimeTotals.Figures(sessions: 1, minutes: 120, points: 120))
        #expect(Self.figures(totals, "2024-01-03", "Late session") == nil)
    }

    @Test("Across the spring-forward night the minutes are the time that passed (Berlin, 2024-03-31)")
    func daylightSaving() throws {
        let night = CalendarSource.string("""
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:night
            DTSTART;TZID=Europe/Berlin:20240330T220000
            DTEND;TZID=Europe/Berlin:20240331T040000
            SUMMARY:Night shift
            END:VEVENT
            END:VCALENDAR
            """, name: "night.ics")
        let window = try Day(year: 2024, month: 3, day: 25)...Day(year: 2024, month: 3, day: 31)
        let totals = try #require(try Self.settings(zone: "Europe/Berlin", window: window).totals([night], by: .summary, per: .day, now: Self.later).timeTotals)
        #expect(Self.figures(totals, "2024-03-30", "Night shift")?.minutes == 120)
        #expect(Self.figures(totals, "2024-03-31", "Night shift")?.minutes == 180)
        #expect(totals.overall.minutes == 300)
    }

    @Test("Time outside the window is not counted; a session that began before it counts only its minutes in it")
    func window() throws {
        let window = try Day(year: 2024, month: 1, day: 3)...Day(year: 2024, month: 1, day: 10)
        let totals = try #require(try Self.settings(window: window).totals([Self.workLog], by: .summary, per: .day, now: Self.later).timeTotals)
        #expect(Self.figures(totals, "2024-01-03", "Late session") == TimeTotals.Figures(sessions: 0, minutes: 90, points: 0))
        #expect(!totals.rows.contains { $0.group == "Deep work" })
        #expect(totals.rows.allSatisfy { window.contains($0.period) })
    }

    /// A daily 30-minute session at 07:00 UTC through 2024, with X-POINTS 5.
    static let daily = CalendarSource.string("""
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:daily
        DTSTART:20240101T070000Z
        DURATION:PT30M
        RRULE:FREQ=DAILY;UNTIL=20241231T070000Z
        SUMMARY:Stretch
        CATEGORIES:Health
        X-POINTS:5
        END:VEVENT
        END:VCALENDAR
        """, name: "daily.ics")

    @Test("Whatever day it is, what starts after now is planned and not counted, and the totals are the report's",
          arguments: stride(from: 0, through: 365, by: 1).map { try! Day(year: 2024, month: 1, day: 1).advanced(by: $0) })
    func everyDayOf2024(today: Day) throws {
        var settings = ReportSettings(timeZone: "UTC", from: try Day(year: 2024, month: 1, day: 1), to: try Day(year: 2024, month: 12, day: 31))
        settings.firstWeekday = .monday
        // At 07:10 today's session has begun: it counts whole (its 30 minutes), as in the report.
        let now = Int64(today.daysSince1970) * 86_400 + 7 * 3_600 + 600
        let scored = try settings.totals([Self.daily], by: .category, per: .month, now: now)
        let totals = try #require(scored.timeTotals)
        let days = try Day(year: 2024, month: 1, day: 1).distance(to: today) + 1
        #expect(totals.overall == TimeTotals.Figures(sessions: days, minutes: 30 * days, points: 5 * days))
        #expect(totals.overall.sessions == scored.report.totalSessions && totals.overall.points == scored.report.totalPoints)
        #expect(totals.groups.map(\.group) == ["Health"])
        #expect(totals.rows.last?.period == today.firstOfMonth)
    }

    @Test("The streamed totals are a whole import's, for every grouping and period",
          arguments: TimeTotals.Grouping.allCases, TimeTotals.Period.allCases)
    func streamedIsWhole(grouping: TimeTotals.Grouping, period: TimeTotals.Period) throws {
        var settings = Self.settings()
        settings.habits = [try Habit(parsing: "Work=categories:work"), try Habit(parsing: "Calc=summary:calc")]
        let sources = [Self.workLog, Self.daily]
        let streamed = try settings.totals(sources, by: grouping, per: period, now: Self.later)
        let whole = settings.totals(try settings.importer(now: Self.later).importSessions(from: sources), by: grouping, per: period, now: Self.later)
        #expect(streamed.timeTotals == whole.timeTotals)
        #expect(streamed.timeTotals?.groups.isEmpty == false)
    }

    @Test("Every session once is the report's sessions and points, whatever the grouping")
    func overallIsTheReport() throws {
        for grouping in TimeTotals.Grouping.allCases {
            var settings = ReportSettings(timeZone: "UTC", from: try Day(year: 2024, month: 1, day: 1), to: try Day(year: 2024, month: 12, day: 31))
            settings.habits = [try Habit(parsing: "Health=categories:health")]
            let scored = try settings.totals([Self.workLog, Self.daily], by: grouping, per: .week, now: Self.later)
            let totals = try #require(scored.timeTotals)
            #expect(totals.overall.sessions == scored.report.totalSessions, "\(grouping)")
            #expect(totals.overall.points == scored.report.totalPoints, "\(grouping)")
        }
    }

    @Test("By calendar: each calendar under its name, the groups' sums are every session once")
    func calendars() throws {
        let totals = try #require(try Self.settings().totals([Self.workLog, Self.daily], by: .calendar, per: .month, now: Self.later).timeTotals)
        #expect(Set(totals.groups.map(\.group)) == ["Work log", "daily"])
        #expect(totals.groups.map(\.total.sessions).reduce(0, +) == totals.overall.sessions)
        #expect(totals.groups.first { $0.group == "daily" }?.total == TimeTotals.Figures(sessions: 31, minutes: 930, points: 930))
    }

    @Test("By habit: each habit's met days out of the days of each period, by its own goal; the days after today are not among them")
    func habits() throws {
        var settings = ReportSettings(requiredPoints: 5, timeZone: "UTC", from: try Day(year: 2024, month: 1, day: 1), to: try Day(year: 2024, month: 3, day: 31))
        settings.firstWeekday = .monday
        settings.habits = [try Habit(parsing: "Health=categories:health"), try Habit(parsing: "Work=categories:work")]
        // Now: 2024-02-10 at noon.
        let now = Int64(try Day(year: 2024, month: 2, day: 10).daysSince1970) * 86_400 + 43_200
        let scored = try settings.totals([Self.workLog, Self.daily], by: .habit, per: .month, now: now)
        let totals = try #require(scored.timeTotals)
        #expect(totals.groups.map(\.group) == ["Health", "Work"])
        #expect(Self.figures(totals, "2024-01-01", "Health")?.metDays == 31 && Self.figures(totals, "2024-01-01", "Health")?.days == 31)
        #expect(Self.figures(totals, "2024-02-01", "Health")?.metDays == 10 && Self.figures(totals, "2024-02-01", "Health")?.days == 10)
        #expect(Self.figures(totals, "2024-03-01", "Health")?.days == nil)
        // The same days as the habit's own report.
        let health = try #require(scored.habits.first)
        #expect(totals.groups[0].total.metDays == health.report.days.filter { $0.status == .met }.count)
        #expect(Self.figures(totals, "2024-01-01", "Work")?.days == 31)
    }

    @Test("The largest groups kept, the others folded into (other) with their sums")
    func keepingLargest() throws {
        let totals = try #require(try Self.settings().totals([Self.workLog], by: .summary, per: .month, now: Self.later).timeTotals)
        let top = totals.keepingLargest(2)
        #expect(top.groups.map(\.group) == ["=cmd|' /C calc'!A0", "Late session", "(other)"])
        #expect(top.groups[2].total == TimeTotals.Figures(sessions: 2, minutes: 90, points: 90))
        #expect(top.groups.map(\.total.minutes).reduce(0, +) == totals.groups.map(\.total.minutes).reduce(0, +))
        #expect(top.rows.map(\.group) == ["=cmd|' /C calc'!A0", "Late session", "(other)"])
        #expect(totals.keepingLargest(10) == totals)
    }

    @Test("More than the most groups named: the later ones count under (other), with a note")
    func groupLimit() throws {
        var text = "BEGIN:VCALENDAR\r\n"
        let events = TimeTotals.maximumGroups + 50
        for index in 0..<events {
            text += "BEGIN:VEVENT\r\nUID:\(index)\r\nDTSTART:20240101T070000Z\r\nDURATION:PT1M\r\nSUMMARY:Task \(index)\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let scored = try Self.settings().totals([.string(text, name: "many.ics")], by: .summary, per: .year, now: Self.later)
        let totals = try #require(scored.timeTotals)
        #expect(totals.groups.count == TimeTotals.maximumGroups + 1)
        #expect(totals.groups.last?.group == "(other)" && totals.groups.last?.total.sessions == 50)
        #expect(totals.overall.sessions == events)
        #expect(scored.imported.diagnostics.contains { $0.code == .limit && $0.message.contains("(other)") })
    }

    @Test("Summaries' tokens from many threads at once: one per name, the names past the limit under (other), the earlier ones kept")
    func summaryTokensAcrossThreads() throws {
        let groups = TotalsGroups(.summary)
        let names = (0..<TimeTotals.maximumGroups).map { "Task \($0)" }
        // Eight threads give every name its token, each in its own order, each name many times.
        let seen = Locked([String: Set<UInt32>]())
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var tokens: [String: Set<UInt32>] = [:]
            for round in 0..<3 {
                for index in names.indices {
                    let name = names[(index &* (thread + 1) &+ round * 7) % names.count]
                    tokens[name, default: []].insert(groups.token(summary: round == 1 ? " \(name)\t" : name, categories: []))
                }
            }
            seen.withLock { $0.merge(tokens) { $0.union($1) } }
        }
        let tokens = seen.withLock { $0 }
        #expect(tokens.count == names.count)
        #expect(tokens.values.allSatisfy { $0.count == 1 })
        #expect(Set(tokens.values.map { $0.first! }).count == names.count)
        // Past the limit: a new name counts under (other), a known one keeps its token.
        let late = Set((0..<100).map { groups.token(summary: "Late \($0)", categories: []) })
        #expect(late.count == 1)
        let (sets, groupNames, folded) = groups.snapshot
        #expect(folded && groupNames[sets[Int(late.first!)][0]] == TimeTotals.otherGroups)
        #expect(groups.token(summary: "Task 7", categories: []) == tokens["Task 7"]?.first)
        #expect(groups.token(summary: TimeTotals.otherGroups, categories: []) == late.first)
        for (name, token) in tokens { #expect(groupNames[sets[Int(token.first!)][0]] == name) }
    }

    @Test("Periods: each day's period begins on or before it and the next after it, weeks on the first weekday",
          arguments: Weekday.allCases)
    func periodsOfEveryDay(firstWeekday: Weekday) throws {
        var day = try Day(year: 2023, month: 1, day: 1)
        let last = try Day(year: 2025, month: 12, day: 31)
        while day <= last {
            for period in TimeTotals.Period.allCases {
                let first = period.first(of: day, firstWeekday: firstWeekday)
                #expect(first <= day && day < period.next(after: first), "\(period) \(day)")
                switch period {
                case .day: #expect(first == day)
                case .week: #expect(first.weekday == firstWeekday && first.distance(to: day) < 7)
                case .month: #expect(first.dayOfMonth == 1 && first.month == day.month)
                case .year: #expect(first.dayOfMonth == 1 && first.month == 1 && first.year == day.year)
                }
            }
            day = day.advanced(by: 1)
        }
        let window = try Day(year: 2023, month: 2, day: 15)...Day(year: 2025, month: 11, day: 3)
        for period in TimeTotals.Period.allCases {
            let firsts = period.periods(covering: window, firstWeekday: firstWeekday)
            #expect(firsts.first! <= window.lowerBound && period.next(after: firsts.last!) > window.upperBound)
            #expect(zip(firsts, firsts.dropFirst()).allSatisfy { period.next(after: $0) == $1 })
        }
    }

    @Test("Counted in rows or in the table (a window of too many periods for rows), the figures are the same")
    func rowsAndTable() throws {
        var text = "BEGIN:VCALENDAR\r\n"
        for index in 0..<40 {
            text += "BEGIN:VEVENT\r\nUID:\(index)\r\nDTSTART:2024\(index % 12 < 9 ? "0" : "")\(index % 12 + 1)05T2\(index % 4)0000Z\r\n"
            text += "DURATION:PT\(30 + index)M\r\nRRULE:FREQ=WEEKLY;COUNT=5\r\nSUMMARY:Task \(index % 25)\r\nX-POINTS:\(index)\r\nEND:VEVENT\r\n"
        }
        let source = CalendarSource.string(text + "END:VCALENDAR\r\n", name: "tasks.ics")
        let year = try Day(year: 2024, month: 1, day: 1)...Day(year: 2024, month: 12, day: 31)
        let short = try #require(try Self.settings(window: year).totals([source], by: .summary, per: .day, now: Self.later).timeTotals)
        // 100,000 days: rows for the whole and the first group, the table for the rest; 372,000
        // days: too many for rows, every cell in the table.
        for first in [try Day(year: 1750, month: 1, day: 1), try Day(year: 1000, month: 1, day: 1)] {
            let long = try #require(try Self.settings(window: first...year.upperBound)
                .totals([source], by: .summary, per: .day, now: Self.later).timeTotals)
            #expect(long.rows == short.rows && long.overall == short.overall && long.groups.map(\.total) == short.groups.map(\.total), "\(first)")
        }
        // Three December series end in 2025: one session each past the window.
        #expect(short.groups.count == 25 && short.overall.sessions == 197)
    }

    @Test("A session of years costs only the window's days")
    func longSession() throws {
        let decade = CalendarSource.string("""
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:long
            DTSTART:19000101T000000Z
            DTEND:29000101T000000Z
            SUMMARY:Forever
            END:VEVENT
            END:VCALENDAR
            """, name: "long.ics")
        let totals = try #require(try Self.settings().totals([decade], by: .summary, per: .month, now: Self.later).timeTotals)
        #expect(Self.figures(totals, "2024-01-01", "Forever")?.minutes == 31 * 1_440)
    }
}

/// The pictures of `streakcal totals`: labels never overlap, whatever the periods and the names.
@Suite("Time totals pictures")
struct TimeTotalsPictureTests {
    /// A year of daily sessions under twelve long summaries, one a month.
    static func year() -> CalendarSource {
        var text = "BEGIN:VCALENDAR\r\n"
        for month in 1...12 {
            let name = "Activity number \(month) with a name much longer than a legend wants"
            text += "BEGIN:VEVENT\r\nUID:\(month)\r\nDTSTART:2024\(month < 10 ? "0" : "")\(month)01T070000Z\r\nDURATION:PT\(10 + month)M\r\n"
            text += "RRULE:FREQ=DAILY;COUNT=28\r\nSUMMARY:\(name)\r\nEND:VEVENT\r\n"
        }
        return .string(text + "END:VCALENDAR\r\n", name: "year.ics")
    }

    /// Each `<text>` element's x, y, anchor and text.
    static func labels(in svg: String) -> [(x: Int, y: Int, middle: Bool, text: String)] {
        svg.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("<text"), let x = attribute("x", in: line), let y = attribute("y", in: line),
                  let open = line.firstIndex(of: ">"), let close = line.range(of: "</text>") else { return nil }
            return (x, y, line.contains("text-anchor=\"middle\""), String(line[line.index(after: open)..<close.lowerBound]))
        }
    }

    static func attribute(_ name: String, in line: Substring) -> Int? {
        guard let start = line.range(of: " \(name)=\"") else { return nil }
        return Int(line[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test("Period labels and legend items never overlap, and stay inside the picture", arguments: TimeTotals.Period.allCases)
    func labelsApart(period: TimeTotals.Period) throws {
        var settings = ReportSettings(timeZone: "UTC", from: try Day(year: 2024, month: 1, day: 1), to: try Day(year: 2024, month: 12, day: 31))
        settings.firstWeekday = .monday
        let totals = try #require(try settings.totals([Self.year()], by: .summary, per: period, now: TimeTotalsTests.later).timeTotals)
        let svg = TotalsReport(totals, timeZone: "UTC").svg()
        let width = try #require(Self.attribute("width", in: Substring(svg.prefix { $0 != "\n" })))
        // Unescaped, a label's characters are what its width is estimated from (12 px text).
        let rows = Dictionary(grouping: Self.labels(in: svg).filter { !$0.text.isEmpty }, by: \.y)
        var periodLabels = 0
        for (_, labels) in rows {
            let spans = labels.map { label -> (Int, Int) in
                let length = label.text.replacingOccurrences(of: "&#39;", with: "'").count * 12 * 60 / 100
                return label.middle ? (label.x - length / 2, label.x + length / 2) : (label.x, label.x + length)
            }.sorted { $0.0 < $1.0 }
            #expect(zip(spans, spans.dropFirst()).allSatisfy { $0.1 <= $1.0 }, "\(period): \(labels.map(\.text))")
            #expect(spans.allSatisfy { $0.1 <= width }, "\(period): \(labels.map(\.text)) in \(width)")
            if labels.allSatisfy(\.middle) { periodLabels += labels.count }
        }
        #expect(periodLabels >= 1)
        // The legend: the seven largest and (other), each once.
        #expect(svg.components(separatedBy: "(other) (").count == 2)
        #expect(svg.components(separatedBy: "<rect x=").count > 8)
    }
}
