import ICalendar
import Streaks
import Testing

/// The RFC 5545 behaviour behind each entry of `scripts/reference/known-differences.tsv`, where the
/// reference implementation (icalendar + recurring-ical-events) differs from the RFC.
/// (`vtimezone-gap` and `vtimezone-ignored` are pinned by `SessionImportTests`, the PERIOD of dates by
/// `RecurrenceRegressionTests.rdatePeriods`, blank lines inside folds by `UnfoldingTests.orphanContinuation`.)
@Suite("Where the reference differs, RFC 5545 decides")
struct ReferenceDifferenceTests {
    @Test("ref:id-collision — EXDATE and RECURRENCE-ID match an instance's instant, not its wall-clock digits (RFC 5545 3.8.4.4, 3.8.5.1)")
    func matchByInstant() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:s", "DTSTART;TZID=America/New_York:20240701T090000", "DURATION:PT1H",
            "RRULE:FREQ=DAILY;COUNT=3", "EXDATE:20240702T090000Z", "X-POINTS:10", "END:VEVENT",
            "BEGIN:VEVENT", "UID:s", "RECURRENCE-ID:20240703T090000Z", "DTSTART:20240703T200000Z", "X-POINTS:99",
            "END:VEVENT",
        ], expansion: RecurrenceExpansion(through: day("2024-12-31")))
        // 09:00Z is 05:00 in New York: no instance is there, so nothing is removed or replaced.
        #expect(result.sessions.map(\.points) == [10, 10, 10, 99])
        #expect(result.sessions.prefix(3).map(\.start) == [
            .instant(secondsSince1970: utc(2024, 7, 1, 13)), .instant(secondsSince1970: utc(2024, 7, 2, 13)),
            .instant(secondsSince1970: utc(2024, 7, 3, 13)),
        ])
    }

    @Test("ref:wallclock-duration — a DTEND series gives every instance the first one's exact length (RFC 5545 3.8.5.3)")
    func exactLength() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:s", "DTSTART;TZID=Europe/Berlin:20240330T010000", "DTEND;TZID=Europe/Berlin:20240330T040000",
            "RRULE:FREQ=DAILY;COUNT=2", "END:VEVENT",
        ], points: .minutes, expansion: RecurrenceExpansion(through: day("2024-12-31")))
        // On 31 March the clocks skip 02:00-03:00: three exact hours end at 05:00 CEST, not 04:00.
        #expect(result.sessions.map(\.points) == [180, 180])
        #expect(result.sessions.last?.end == .instant(secondsSince1970: utc(2024, 3, 31, 3)))
    }

    @Test("ref:wallclock-duration — DURATION hours and minutes are exact across a switch (RFC 5545 3.3.6)")
    func exactDuration() {
        let result = importLines([
            "BEGIN:VEVENT", "UID:s", "DTSTART;TZID=America/New_York:20071104T013000", "DURATION:PT30M", "END:VEVENT",
        ], points: .minutes)
        #expect(result.sessions.map(\.points) == [30])
    }
}
