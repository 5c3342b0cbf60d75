import Foundation
@testable import ICalendar
import Streaks
import Testing
import FixedClock

@Suite("Sessions from VEVENTs")
struct SessionImportTests {
    @Test("The tutorial's sample: five floating sessions, one ending before it starts")
    func tutorialSample() throws {
        let result = try importFixture("tutorial-sample.ics")
        #expect(result.sessions.map(\.points) == [100, 30, 80, 20, 120])
        #expect(result.sessions.map(\.id).first == "tutorial-1@streakcal.example")
        let first = try #require(result.sessions.first)
        #expect(first.start == .floating(wallClock(2024, 2, 20, 8)))
        #expect(first.end == .floating(wallClock(2024, 2, 20, 9, 4)))
        #expect(first.summary == "Success")
        #expect(first.source == SourceLocation(file: fixturesDirectory.appendingPathComponent("tutorial-sample.ics").path, line: 6))
        #expect(result.diagnosticSummary == ["18:warning:bad-end"])
    }

    @Test("DTSTART as DATE, UTC DATE-TIME, DATE-TIME with TZID, and floating")
    func startForms() {
        let result = importLines([
            "BEGIN:VCALENDAR",
            "BEGIN:VEVENT", "UID:date", "DTSTART;VALUE=DATE:20240301", "X-POINTS:1", "END:VEVENT",
            "BEGIN:VEVENT", "UID:utc", "DTSTART:20240301T101500Z", "X-POINTS:1", "END:VEVENT",
            "BEGIN:VEVENT", "UID:tzid", "DTSTART;TZID=America/New_York:20240301T101500", "X-POINTS:1", "END:VEVENT",
            "BEGIN:VEVENT", "UID:floating", "DTSTART:20240301T101500", "X-POINTS:1", "END:VEVENT",
            "END:VCALENDAR",
        ])
        #expect(result.session("date")?.start == .date(day("2024-03-01")))
        #expect(result.session("date")?.isAllDay == true)
        #expect(result.session("utc")?.start == .instant(secondsSince1970: utc(2024, 3, 1, 10, 15)))
        #expect(result.session("tzid")?.start == .instant(secondsSince1970: utc(2024, 3, 1, 15, 15)))
        #expect(result.session("floating")?.start == .floating(wallClock(2024, 3, 1, 10, 15)))
        #expect(result.diagnostics.isEmpty)
    }

    @Test("RFC 5545 gap and overlap rules in Berlin, New York and Sydney (IANA zones)")
    func daylightSavingSwitches() throws {
        let result = try importFixture("dst-gap-and-overlap.ics")
        let expected: [(String, Int64)] = [
            // libical 3.0.16's own conversion gives 00:28Z for this one; RFC 5545 3.3.5 says 01:28Z.
            ("berlin-gap", utc(2016, 3, 27, 1, 28)),
            ("berlin-overlap", utc(2016, 10, 30, 0, 30)),
            ("new-york-gap", utc(2007, 3, 11, 7, 30)),
            ("new-york-overlap", utc(2007, 11, 4, 5, 30)),
            ("sydney-gap", utc(2016, 10, 1, 16, 30)),
            ("sydney-overlap", utc(2016, 4, 2, 15, 30)),
        ]
        for (id, instant) in expected {
            #expect(result.session(id)?.start == .instant(secondsSince1970: instant), "\(id)")
            #expect(result.session(id)?.end == .instant(secondsSince1970: instant + 1800), "\(id)")
        }
        // Each time in a gap is said (issue 46.9: "03:30–03:30, 0 points" came with no word); the
        // overlaps' first occurrences are real times and say nothing.
        #expect(result.diagnostics.map(\.code) == [.nonexistentTime, .nonexistentTime, .nonexistentTime])
        #expect(result.diagnostics.map(\.location.line) == [7, 21, 35])
        #expect(result.diagnostics.map(\.severity) == [.warning, .warning, .warning])
        #expect(result.diagnostics.first?.message == "2016-03-27 02:28 does not exist in Europe/Berlin, whose clocks skip forward that night; "
            + "read as 03:28, with the offset before the gap (RFC 5545 §3.3.5)")
    }

    @Test("A VTIMEZONE after the events that use it: its rules apply, gap rule included")
    func timeZoneDefinedLater() throws {
        let result = try importFixture("vtimezone-after-events.ics")
        #expect(result.session("custom-gap")?.start == .instant(secondsSince1970: utc(2016, 3, 27, 1, 28)))
        #expect(result.session("custom-gap")?.end == .instant(secondsSince1970: utc(2016, 3, 27, 1, 28)))
        #expect(result.session("custom-summer")?.start == .instant(secondsSince1970: utc(2016, 7, 1, 10)))
        // 02:28–03:28 on the night of the gap lasts no time, and says why, at its DTSTART.
        #expect(result.diagnostics.map(\.code) == [.nonexistentTime])
        #expect(result.diagnostics.first?.location.line == 7)
        #expect(result.diagnostics.first?.message.contains("does not exist in Custom Central European") == true)
    }

    @Test("A calendar's VTIMEZONE wins over the IANA zone of the same name")
    func calendarZoneWins() throws {
        let result = try importFixture("vtimezone-overrides-iana.ics")
        #expect(result.session("odd-berlin")?.start == .instant(secondsSince1970: utc(2024, 1, 14, 22)))
    }

    @Test("All-day events: no end lasts a day, DTEND exclusive, DURATION in days")
    func allDay() throws {
        let result = try importFixture("all-day-events.ics")
        #expect(result.session("all-day-one")?.end == .date(day("2024-03-02")))
        #expect(result.session("all-day-three")?.start == .date(day("2024-03-05")))
        #expect(result.session("all-day-three")?.end == .date(day("2024-03-08")))
        #expect(result.session("all-day-duration")?.end == .date(day("2024-03-12")))
        #expect(result.sessions.map(\.isAllDay) == [true, true, true])
    }

    @Test("DURATION exact and nominal, a missing end, an end before the start")
    func ends() throws {
        let result = try importFixture("duration-and-missing-end.ics")
        #expect(result.session("duration-exact")?.end == .instant(secondsSince1970: utc(2024, 1, 2, 11, 30)))
        // P1D is a nominal day: 12:00 local the next day, across the spring switch (23 hours).
        #expect(result.session("duration-nominal")?.start == .instant(secondsSince1970: utc(2024, 3, 30, 11)))
        #expect(result.session("duration-nominal")?.end == .instant(secondsSince1970: utc(2024, 3, 31, 10)))
        #expect(result.session("no-end-timed")?.end == result.session("no-end-timed")?.start)
        #expect(result.session("end-before-start")?.points == 30)
        #expect(result.diagnosticSummary == ["27:warning:bad-end"])
    }

    @Test("STATUS:CANCELLED events are not sessions")
    func cancelled() throws {
        let result = try importFixture("cancelled-event.ics")
        #expect(result.sessions.map(\.id) == ["kept"])
    }

    @Test("An unknown TZID: one warning per TZID, times read as floating (the report's zone)")
    func unknownTimeZone() throws {
        let result = try importFixture("unknown-tzid.ics")
        #expect(result.session("unknown-1")?.start == .floating(wallClock(2024, 6, 1, 23, 30)))
        #expect(result.session("unknown-2")?.start == .floating(wallClock(2024, 6, 2, 23, 30)))
        #expect(result.diagnosticSummary == ["6:warning:unknown-time-zone"])
        #expect(result.diagnostics.first?.message.contains("Mars/Olympus_Mons") == true)
    }

    @Test("Floating times and X-WR-TIMEZONE")
    func floating() throws {
        let result = try importFixture("floating-times.ics")
        #expect(result.declaredTimeZone == "America/Los_Angeles")
        #expect(result.session("floating-late")?.start == .floating(wallClock(2024, 6, 10, 23, 30)))
        let losAngeles = try #require(TimeZoneRules(identifier: "America/Los_Angeles"))
        let days = result.sessions.map { $0.day(in: losAngeles, dayStart: .midnight) }
        #expect(days == [day("2024-06-10"), day("2024-06-10")])
        let utcDays = result.sessions.map { $0.day(in: .utc, dayStart: .midnight) }
        #expect(utcDays == [day("2024-06-10"), day("2024-06-11")])
    }

    @Test("Summary, categories and UID; a VEVENT without UID gets a located id")
    func descriptiveFields() {
        let result = importLines([
            "BEGIN:VCALENDAR",
            "BEGIN:VEVENT", "UID:described", "DTSTART:20240301T101500Z", "SUMMARY:Run\\, then swim",
            "CATEGORIES:sport,outdoor", "CATEGORIES:morning", "X-POINTS:3", "END:VEVENT",
            "BEGIN:VEVENT", "DTSTART:20240302T101500Z", "X-POINTS:4", "END:VEVENT",
            "END:VCALENDAR",
        ])
        #expect(result.session("described")?.summary == "Run, then swim")
        #expect(result.session("described")?.categories == ["sport", "outdoor", "morning"])
        #expect(result.session("test.ics:10")?.points == 4)
        #expect(result.diagnosticSummary == ["10:note:missing-uid"])
    }
}

@Suite("Points")
struct PointsTests {
    @Test("Invalid values keep the session with 0 points and a located warning")
    func invalidValues() throws {
        let result = try importFixture("bad-properties.ics")
        #expect(result.session("errors-1")?.points == 0)
        #expect(result.session("errors-2")?.points == 0)
        #expect(result.session("errors-3")?.points == 42)
        let pointWarnings = result.diagnostics.filter { $0.code == .points }
        #expect(pointWarnings.map(\.location.line) == [9, 15])
        #expect(pointWarnings.map(\.location.column) == [10, 10])
    }

    @Test("A configurable points property")
    func customProperty() {
        let lines = ["BEGIN:VEVENT", "UID:a", "DTSTART:20240301T101500Z", "X-SCORE:7", "X-POINTS:3", "END:VEVENT"]
        #expect(importLines(lines, points: .property("X-SCORE")).sessions.map(\.points) == [7])
        #expect(importLines(lines, points: .property("x-score")).sessions.map(\.points) == [7])
        #expect(importLines(lines).sessions.map(\.points) == [3])
    }

    @Test("Minutes: whole minutes of the session's length; count: one per session")
    func minutesAndCount() throws {
        let minutes = try importFixture("no-points-property.ics", points: .minutes)
        #expect(minutes.sessions.map(\.points) == [90, 45])
        #expect(minutes.diagnostics.isEmpty)
        let count = try importFixture("no-points-property.ics", points: .count)
        #expect(count.sessions.map(\.points) == [1, 1])
        let allDay = try importFixture("all-day-events.ics", points: .minutes)
        // All-day events mark days and are no time spent (issue 46.3).
        #expect(allDay.sessions.map(\.points) == [0, 0, 0])
        let backwards = try importFixture("duration-and-missing-end.ics", points: .minutes)
        #expect(backwards.session("end-before-start")?.points == 0)
        #expect(backwards.session("duration-nominal")?.points == 23 * 60)
    }

    @Test("No session with the points property: said once, suggesting the minutes rule")
    func noPointsAnywhere() throws {
        let result = try importFixture("no-points-property.ics")
        let notes = result.diagnostics.filter { $0.code == .points }
        #expect(notes.count == 1)
        #expect(notes.first?.message.contains("PointsRule.minutes") == true)
        let twice = try SessionImporter(expansion: testExpansion).importSessions(from: [
            .file(fixturesDirectory.appendingPathComponent("no-points-property.ics").path),
            .file(fixturesDirectory.appendingPathComponent("no-points-property.ics").path),
        ])
        #expect(twice.sessions.count == 2)  // the same events given twice are copies: they count once
        #expect(twice.diagnostics.filter { $0.code == .points }.count == 1)
    }
}

@Suite("Real-world TZIDs")
struct RealWorldTimeZoneTests {
    @Test("Windows ids, display names, vendor paths, quotes and Exchange ids resolve to IANA zones")
    func aliases() throws {
        let result = try importFixture("real-world-tzids.ics")
        let expected: [(String, Int64)] = [
            ("windows", utc(2024, 7, 10, 7)),          // Europe/Berlin, CEST
            ("windows-romance", utc(2024, 7, 11, 7)),  // Europe/Paris
            ("display-name", utc(2024, 7, 12, 7)),
            ("mozilla", utc(2024, 7, 13, 13)),         // America/New_York, EDT
            ("softwarestudio", utc(2024, 7, 14, 13)),
            ("quoted", utc(2024, 7, 15, 0)),           // Asia/Tokyo
            ("exchange", utc(2024, 7, 16, 13)),
            ("windows-again", utc(2024, 7, 17, 7)),
        ]
        for (id, instant) in expected {
            #expect(result.session(id)?.start == .instant(secondsSince1970: instant), "\(id)")
        }
        #expect(result.session("unknown-once")?.start == .floating(wallClock(2024, 7, 18, 9)))
        // One note per aliased TZID, one warning for the unknown one, none per event.
        #expect(result.diagnostics.map { "\($0.severity):\($0.code)" } == Array(repeating: "note:time-zone-name", count: 7) + ["warning:unknown-time-zone"])
        #expect(result.diagnostics.first?.message == "TZID \"W. Europe Standard Time\" is not an IANA name; read as Europe/Berlin")
    }

    @Test("A VTIMEZONE of a later VCALENDAR serves a series of an earlier one; a Windows TZID on many events is noted once")
    func zonesAcrossCalendarsAndSegments() throws {
        // Single events (resolved on workers, which keep each TZID's answer) and a series in a
        // zone only the second VCALENDAR defines (resolved in input order, by the calendar that defines it).
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
        for index in 0..<600 {
            lines += [
                "BEGIN:VEVENT", "UID:tokyo-\(index)", "DTSTART;TZID=Tokyo Standard Time:20240301T090000",
                "DTEND;TZID=Tokyo Standard Time:20240301T100000", "X-POINTS:1", "END:VEVENT",
            ]
        }
        lines += [
            "BEGIN:VEVENT", "UID:plus-five-series", "DTSTART;TZID=Plus Five:20240301T090000",
            "DTEND;TZID=Plus Five:20240301T093000", "RRULE:FREQ=DAILY;COUNT=2", "X-POINTS:7", "END:VEVENT",
            "END:VCALENDAR",
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
            "BEGIN:VTIMEZONE", "TZID:Plus Five", "BEGIN:STANDARD", "DTSTART:19700101T000000",
            "TZOFFSETFROM:+0500", "TZOFFSETTO:+0500", "END:STANDARD", "END:VTIMEZONE",
            "END:VCALENDAR",
        ]
        let importer = SessionImporter(expansion: RecurrenceExpansion(through: try! Day(year: 2024, month: 12, day: 31)))
        let path = NSTemporaryDirectory() + "zones-across-\(UUID().uuidString).ics"
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try importer.importSessions(from: .file(path))
        let tokyo = result.sessions.filter { $0.id.hasPrefix("tokyo-") }
        #expect(tokyo.count == 600)
        #expect(Set(tokyo.map(\.start)) == [.instant(secondsSince1970: utc(2024, 3, 1, 0))])  // UTC+9
        let series = result.sessions.filter { $0.id.hasPrefix("plus-five-series") }
        #expect(series.map(\.start) == [.instant(secondsSince1970: utc(2024, 3, 1, 4)), .instant(secondsSince1970: utc(2024, 3, 2, 4))])
        #expect(series.map(\.end) == [.instant(secondsSince1970: utc(2024, 3, 1, 4, 30)), .instant(secondsSince1970: utc(2024, 3, 2, 4, 30))])
        // One note for the TZID, at its first use; one for the second VCALENDAR (merged into one).
        #expect(result.diagnosticSummary == ["6:note:time-zone-name", "3612:note:structure"])
        #expect(result.diagnostics.first?.message == "TZID \"Tokyo Standard Time\" is not an IANA name; read as Asia/Tokyo")
    }
}
