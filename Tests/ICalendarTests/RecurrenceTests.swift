import ICalendar
import Streaks
import Testing

/// Imports a fixture with recurring events expanded over 2024 and returns `date: points` for each day
/// that has sessions, in UTC.
private func dailyPoints(_ name: String, from: String = "2024-01-01", through: String = "2024-12-31",
                         cap: Int = RecurrenceExpansion.defaultMaximumInstancesPerRule) throws -> (days: [String], result: CalendarImport) {
    let expansion = RecurrenceExpansion(from: day(from), through: day(through), maximumInstancesPerRule: cap)
    let result = try SessionImporter(expansion: expansion).importSessions(from: .file(fixturesDirectory.appendingPathComponent(name).path))
    var totals: [Day: Int] = [:]
    for session in result.sessions {
        totals[session.day(in: .utc, dayStart: .midnight), default: 0] += session.points
    }
    let window = day(from)...day(through)
    return (totals.filter { window.contains($0.key) }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }, result)
}

@Suite("Recurrence")
struct RecurrenceTests {
    @Test("A weekly 07:00 Europe/Berlin event stays at 07:00 local across the DST switch")
    func weeklyAcrossDST() throws {
        let (days, result) = try dailyPoints("recurring-weekly-across-dst.ics")
        #expect(days == ["2024-03-15: 100", "2024-03-22: 100", "2024-03-29: 100", "2024-04-05: 100"])
        #expect(result.sessions.map(\.start) == [
            .instant(secondsSince1970: utc(2024, 3, 15, 6)), .instant(secondsSince1970: utc(2024, 3, 22, 6)),
            .instant(secondsSince1970: utc(2024, 3, 29, 6)), .instant(secondsSince1970: utc(2024, 4, 5, 5)),
        ])
        #expect(result.sessions.last?.end == .instant(secondsSince1970: utc(2024, 4, 5, 6)))
        #expect(result.sessions.map(\.id) == [
            "weekly-berlin/20240315T070000", "weekly-berlin/20240322T070000",
            "weekly-berlin/20240329T070000", "weekly-berlin/20240405T070000",
        ])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("COUNT with INTERVAL; UNTIL as a UTC instant (inclusive) for a zoned series; UNTIL as a DATE")
    func countAndUntil() throws {
        let (days, result) = try dailyPoints("recurring-count-and-until.ics")
        #expect(days == [
            "2024-01-01: 10", "2024-01-03: 10", "2024-01-05: 10", "2024-01-11: 20", "2024-01-12: 20",
            "2024-01-20: 30", "2024-01-21: 30", "2024-01-22: 30",
        ])
        #expect(result.session("all-day-until-date/20240122")?.end == .date(day("2024-01-23")))
    }

    @Test("BYDAY with ordinals, BYSETPOS, WKST, two RRULEs, negative BYMONTHDAY")
    func byRules() throws {
        let (days, _) = try dailyPoints("recurring-byday-bysetpos.ics")
        #expect(days == [
            "2024-01-08: 2", "2024-01-15: 2", "2024-01-26: 5", "2024-01-31: 11", "2024-02-12: 2", "2024-02-23: 5",
            "2024-02-29: 11", "2024-03-29: 12", "2024-03-31: 4",
            // WKST=SU: weeks start on Sunday, so the Sunday after a Tuesday is in the next (skipped) week.
            "2024-08-06: 1", "2024-08-18: 1", "2024-08-20: 1", "2024-09-01: 1",
        ])
    }

    @Test("EXDATE (zoned, DATE on a timed series, UTC), EXRULE, RDATE (other zone, PERIOD, DATE)")
    func rdateExdateExrule() throws {
        let (days, result) = try dailyPoints("recurring-rdate-exdate-exrule.ics")
        #expect(days == [
            "2024-04-01: 10", "2024-04-05: 10", "2024-04-07: 10", "2024-04-10: 10", "2024-04-12: 10",
            "2024-04-13: 10", "2024-04-14: 10",
        ])
        let period = try #require(result.sessions.first { $0.start == .instant(secondsSince1970: utc(2024, 4, 12, 10)) })
        #expect(period.end == .instant(secondsSince1970: utc(2024, 4, 12, 12)))
        let explicitEnd = try #require(result.sessions.first { $0.start == .instant(secondsSince1970: utc(2024, 4, 13, 10)) })
        #expect(explicitEnd.end == .instant(secondsSince1970: utc(2024, 4, 13, 10, 30)))
        // A DATE RDATE on a timed series is that date's midnight in the series' zone (Berlin, CEST).
        #expect(result.sessions.last?.start == .instant(secondsSince1970: utc(2024, 4, 14, 22)))
        #expect(result.sessions.contains { $0.start == .instant(secondsSince1970: utc(2024, 4, 10, 15)) })
    }

    @Test("Overrides: moved with other points, cancelled, and one that an EXDATE removes anyway")
    func movedInstance() throws {
        let (days, result) = try dailyPoints("recurring-with-moved-instance.ics")
        #expect(days == ["2024-06-03: 100", "2024-06-05: 140", "2024-06-08: 100"])
        let moved = try #require(result.session("practice/20240604T070000"))
        #expect(moved.start == .instant(secondsSince1970: utc(2024, 6, 5, 19)))
        #expect(moved.points == 40)
        #expect(moved.summary == "Moved to the next evening, fewer points")
        #expect(result.session("practice/20240606T070000") == nil)
        #expect(result.session("practice/20240607T070000") == nil)
    }

    @Test("RANGE=THISANDFUTURE moves and rescores the named instance and every one after it")
    func thisAndFuture() throws {
        let (days, result) = try dailyPoints("recurring-this-and-future.ics")
        #expect(days == [
            "2024-07-01: 100", "2024-07-02: 100", "2024-07-03: 60", "2024-07-04: 60", "2024-07-05: 60", "2024-07-06: 60",
        ])
        let last = try #require(result.session("run/20240706T060000Z"))
        #expect(last.start == .instant(secondsSince1970: utc(2024, 7, 6, 20)))
        #expect(last.end == .instant(secondsSince1970: utc(2024, 7, 6, 20, 30)))
    }

    @Test("Overrides met in start order: before the window, on neighbouring instances, naming no instance, exact beside THISANDFUTURE")
    func overridesInOrder() {
        func override(_ id: String, start: String, points: Int, range: Bool = false) -> String {
            "BEGIN:VEVENT\r\nUID:walk\r\nRECURRENCE-ID\(range ? ";RANGE=THISANDFUTURE" : ""):\(id)\r\nDTSTART:\(start)\r\nDURATION:PT30M\r\nX-POINTS:\(points)\r\nEND:VEVENT\r\n"
        }
        // Overrides written out of order, the series between them.
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
            + override("20240320T070000Z", start: "20240320T070000Z", points: 7)  // names no instance
            + override("20240305T070000Z", start: "20240305T070000Z", points: 30)
            + "BEGIN:VEVENT\r\nUID:walk\r\nDTSTART:20240301T070000Z\r\nDURATION:PT30M\r\nRRULE:FREQ=DAILY;COUNT=10\r\nX-POINTS:10\r\nEND:VEVENT\r\n"
            + override("20240309T070000Z", start: "20240309T070000Z", points: 50)
            + override("20240301T070000Z", start: "20240305T120000Z", points: 5)  // an instance before the window
            + override("20240308T070000Z", start: "20240308T080000Z", points: 2, range: true)
            + override("20240304T070000Z", start: "20240304T070000Z", points: 20)
            + "END:VCALENDAR\r\n"
        let window = day("2024-03-04")...day("2024-03-31")
        let importer = SessionImporter(expansion: RecurrenceExpansion(from: window.lowerBound, through: window.upperBound))
        let result = importer.importText(text)
        var totals: [Day: Int] = [:]
        for session in result.sessions { totals[session.day(in: .utc, dayStart: .midnight), default: 0] += session.points }
        #expect(totals.filter { window.contains($0.key) }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" } == [
            "2024-03-04: 20", "2024-03-05: 35", "2024-03-06: 10", "2024-03-07: 10",
            "2024-03-08: 2", "2024-03-09: 50", "2024-03-10: 2", "2024-03-20: 7",
        ])
        // The instance of 1 March, before the window, comes in with its override.
        #expect(result.session("walk/20240301T070000Z")?.start == .instant(secondsSince1970: utc(2024, 3, 5, 12)))
        // The instance after the THISANDFUTURE override moves with it; the exact override keeps its time.
        #expect(result.session("walk/20240310T070000Z")?.start == .instant(secondsSince1970: utc(2024, 3, 10, 8)))
        #expect(result.session("walk/20240309T070000Z")?.start == .instant(secondsSince1970: utc(2024, 3, 9, 7)))
        #expect(result.session("walk/20240320T070000Z")?.points == 7)
    }

    @Test("Two overrides naming one instance (in the series' zone and in UTC): the later stands, the other counts nothing")
    func twoOverridesOfOneInstance() {
        func override(_ id: String, start: String, points: Int) -> String {
            "BEGIN:VEVENT\r\nUID:run\r\nRECURRENCE-ID\(id)\r\nDTSTART;TZID=Europe/Berlin:\(start)\r\nDURATION:PT30M\r\nX-POINTS:\(points)\r\nEND:VEVENT\r\n"
        }
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:run\r\nDTSTART;TZID=Europe/Berlin:20240603T090000\r\nDURATION:PT30M\r\nRRULE:FREQ=DAILY;COUNT=5\r\nX-POINTS:10\r\nEND:VEVENT\r\n"
            + override(";TZID=Europe/Berlin:20240605T090000", start: "20240605T100000", points: 5)
            + override(":20240605T070000Z", start: "20240605T110000", points: 7)
            + override(";TZID=Europe/Berlin:20240606T090000", start: "20240606T120000", points: 3)
            + "END:VCALENDAR\r\n"
        let window = day("2024-06-01")...day("2024-06-30")
        let result = SessionImporter(expansion: RecurrenceExpansion(from: window.lowerBound, through: window.upperBound)).importText(text)
        var totals: [Day: Int] = [:]
        for session in result.sessions { totals[session.day(in: .utc, dayStart: .midnight), default: 0] += session.points }
        #expect(totals.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" } == [
            "2024-06-03: 10", "2024-06-04: 10", "2024-06-05: 7", "2024-06-06: 3", "2024-06-07: 10",
        ])
        #expect(result.sessions.count == 5)
    }

    @Test("An override without its recurring event is a single session, with a warning")
    func orphanOverride() throws {
        let (days, result) = try dailyPoints("recurring-orphan-override.ics")
        #expect(days == ["2024-08-02: 70"])
        #expect(result.sessions.map(\.id) == ["lost-master/20240801T090000Z"])
        #expect(result.diagnosticSummary == ["5:warning:recurrence"])
    }

    @Test("A daily 02:30 Berlin instance in the spring gap uses the offset before the gap")
    func instanceInGap() throws {
        let (_, result) = try dailyPoints("recurring-in-dst-gap.ics")
        #expect(result.sessions.map(\.start) == [
            .instant(secondsSince1970: utc(2024, 3, 30, 1, 30)),
            .instant(secondsSince1970: utc(2024, 3, 31, 1, 30)),  // 02:30 does not exist: 03:30 CEST
            .instant(secondsSince1970: utc(2024, 4, 1, 0, 30)),
        ])
    }

    @Test("An endless SECONDLY rule is bounded by the window and the cap; impossible rules are diagnostics")
    func endlessAndImpossible() throws {
        let (days, result) = try dailyPoints("recurring-endless-and-impossible.ics", from: "2024-03-01", through: "2024-03-02", cap: 1_000)
        // The rule jumps to the window (less its margin) instead of walking from 2000, and stops at the
        // cap: 1,000 instances inside the window (the margin days before it have a cap of their own
        // and do not use this one up), so the window's first day gets them.
        #expect(days == ["2024-03-01: 1000"])
        #expect(result.sessions.filter { $0.id.hasPrefix("every-second/") }.count == 2_000)
        #expect(result.sessions.first?.id == "every-second/20240228T000000Z")
        #expect(result.diagnostics.map { "\($0.location.line):\($0.code)" } == ["8:recurrence", "14:recurrence", "20:libical"])
        // The rule without instances still has its DTSTART; the one libical rejects is a single event.
        let wide = try dailyPoints("recurring-endless-and-impossible.ics", from: "2024-01-01", through: "2024-01-02", cap: 10)
        #expect(wide.days.contains("2024-01-01: 13"))  // 10 seconds (the cap) and the DTSTART of February 30th
        #expect(wide.days.contains("2024-01-02: 4"))
    }

    @Test("Only the window's instances are made: a daily rule over 500 years holds a week's worth")
    func windowBounds() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:daily", "DTSTART:19000101T120000Z", "RRULE:FREQ=DAILY", "X-POINTS:1", "END:VEVENT",
        ], expansion: RecurrenceExpansion(from: day("2300-06-10"), through: day("2300-06-16")))
        #expect(result.sessions.count == 7 + 2 * RecurrenceExpansion.marginDays)
        #expect(result.sessions.first?.id == "daily/23000608T120000Z")
    }
}

/// Cases the reference comparison (`scripts/reference-compare`) found.
@Suite("Recurrence: reference comparison regressions")
struct RecurrenceRegressionTests {
    @Test("A series whose DTSTART is in a DST gap repeats at the written wall-clock time; EXDATE and overrides match it")
    func startInGap() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:gap", "DTSTART;TZID=Europe/Berlin:20240331T023000", "DURATION:PT15M",
            "RRULE:FREQ=DAILY;COUNT=4", "EXDATE;TZID=Europe/Berlin:20240401T023000", "X-POINTS:10", "END:VEVENT",
            "BEGIN:VEVENT", "UID:gap", "RECURRENCE-ID;TZID=Europe/Berlin:20240402T023000",
            "DTSTART;TZID=Europe/Berlin:20240402T120000", "DURATION:PT15M", "X-POINTS:20", "END:VEVENT",
        ])
        #expect(result.sessions.map(\.start) == [
            .instant(secondsSince1970: utc(2024, 3, 31, 1, 30)),  // in the gap: the offset before it
            .instant(secondsSince1970: utc(2024, 4, 2, 10)),      // the override
            .instant(secondsSince1970: utc(2024, 4, 3, 0, 30)),   // 02:30 CEST again
        ])
        #expect(result.sessions.map(\.points) == [10, 20, 10])
    }

    @Test("WKST=SA with INTERVAL=2 (libical 3.0 misplaces these weeks; RFC 5545 3.3.10)", arguments: [
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;WKST=SA;COUNT=5",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;WKST=SA;UNTIL=20170707T235959Z",
    ])
    func saturdayWeekStart(_ rule: String) {
        let result = importLines([
            "BEGIN:VEVENT", "UID:w", "DTSTART:20170609T090000Z", "RRULE:\(rule)", "X-POINTS:1", "END:VEVENT",
        ], expansion: RecurrenceExpansion(through: day("2017-12-31")))
        #expect(result.sessions.map { $0.day(in: .utc, dayStart: .midnight).description } == [
            "2017-06-09", "2017-06-19", "2017-06-23", "2017-07-03", "2017-07-07",
        ])
    }

    @Test("WKST=SA with Saturday among the days and a window that starts on a Monday")
    func saturdayWeekStartSaturdays() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:w", "DTSTART;VALUE=DATE:20110715", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=WE,FR,SA;WKST=SA",
            "X-POINTS:1", "END:VEVENT",
        ], expansion: RecurrenceExpansion(from: day("2011-12-28"), through: day("2011-12-28")))
        #expect(result.sessions.map { "\($0.day(in: .utc, dayStart: .midnight))" } == ["2011-12-28", "2011-12-30"])
    }

    @Test("WKST=SA weeks stay in phase when the window starts long after DTSTART")
    func saturdayWeekStartJump() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:w", "DTSTART:20170609T090000Z", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;WKST=SA",
            "X-POINTS:1", "END:VEVENT",
        ], expansion: RecurrenceExpansion(from: day("2017-07-03"), through: day("2017-07-21")))
        let days = result.sessions.map { $0.day(in: .utc, dayStart: .midnight).description }
        #expect(days == ["2017-07-03", "2017-07-07", "2017-07-17", "2017-07-21"])
    }

    @Test("Floating times read in the report's zone: minutes are the exact length there")
    func floatingMinutes() throws {
        let result = importLines([
            "BEGIN:VEVENT", "UID:f", "DTSTART:20100925T121500", "DURATION:P2D", "END:VEVENT",
        ], points: .minutes)
        #expect(result.sessions.map(\.points) == [2880])
        let auckland = try #require(TimeZoneRules(identifier: "Pacific/Auckland"))
        let read = result.readingFloatingTimes(in: auckland)
        #expect(read.sessions.map(\.points) == [2820])  // the clocks go forward on 26 September
        #expect(read.sessions.first?.start == .instant(secondsSince1970: utc(2010, 9, 25, 0, 15)))
        #expect(read.sessions.first?.day(in: auckland, dayStart: .midnight) == day("2010-09-25"))
    }

    @Test("An RDATE period in an unknown zone ends in the same zone it starts in; an unreadable RDATE is a warning")
    func rdatePeriods() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:p", "DTSTART;TZID=Europe/Berlin:20240601T090000", "DURATION:PT1H",
            "RDATE;VALUE=PERIOD;TZID=Nowhere/Land:20240605T090000/20240605T093000",
            "RDATE;VALUE=PERIOD:20240606/20240607", "X-POINTS:1", "END:VEVENT",
        ], points: .minutes)
        #expect(result.sessions.map(\.points) == [60, 30])
        #expect(result.diagnostics.contains { $0.code == .recurrence && $0.location.line == 6 })
    }
}

@Suite("Recurrence: overrides that stand alone")
struct LoneOverrideTests {
    @Test("An override is one instance: without its master, its own RDATE is ignored, with a warning")
    func overrideWithRecurrence() {
        let result = importLines([
            "BEGIN:VEVENT", "DTSTART;TZID=America/Chicago:20180327T080000", "DTEND;TZID=America/Chicago:20180327T090000",
            "RECURRENCE-ID;RANGE=THISANDFUTURE:20180327T130000Z",
            "RDATE;VALUE=PERIOD:20180403T130000Z/20180403T140000Z", "X-POINTS:5", "END:VEVENT",
        ])
        #expect(result.sessions.map(\.start) == [.instant(secondsSince1970: utc(2018, 3, 27, 13))])
        #expect(result.diagnostics.contains { $0.code == .recurrence && $0.message.contains("ignored") })
    }
}

@Suite("Recurrence: UNTIL against instances in a DST gap")
struct UntilInGapTests {
    @Test("DTSTART in New York's spring gap is 07:36Z, after UNTIL=07:14Z: DTSTART is the one instance (RFC 5545 3.8.5.3), with a warning")
    func startAfterUntil() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:u", "DTSTART;TZID=America/New_York:20180311T023600",
            "DTEND;TZID=America/New_York:20180311T025100", "RRULE:FREQ=YEARLY;INTERVAL=2;UNTIL=20180311T071400Z",
            "X-POINTS:1", "END:VEVENT",
        ], expansion: RecurrenceExpansion(through: day("2030-01-01")))
        // "The DTSTART property value always counts as the first occurrence": an UNTIL before it
        // leaves the rule without instances of its own, which is said (python-recurring-ical-events
        // drops DTSTART too; scripts/reference/known-differences.tsv).
        #expect(result.sessions.map(\.start) == [.instant(secondsSince1970: utc(2018, 3, 11, 7, 36))])
        #expect(result.diagnostics.filter { $0.code == .recurrence }.map(\.message) == [
            "RRULE:FREQ=YEARLY;INTERVAL=2;UNTIL=20180311T071400Z has no instances (UNTIL is before DTSTART); only DTSTART counts",
        ])
        let later = importLines([
            "BEGIN:VEVENT", "UID:u", "DTSTART;TZID=America/New_York:20180311T023600",
            "RRULE:FREQ=YEARLY;INTERVAL=2;UNTIL=20180311T073600Z", "X-POINTS:1", "END:VEVENT",
        ], expansion: RecurrenceExpansion(through: day("2030-01-01")))
        #expect(later.sessions.map(\.start) == [.instant(secondsSince1970: utc(2018, 3, 11, 7, 36))])
    }
}
