// Wall-clock times in a daylight-saving switch, read as RFC 5545 reads them: a time the spring
// gap skips takes the offset from before the gap; a time the autumn overlap repeats is the first.
import StreakCal

let berlin = TimeZoneRules(identifier: "Europe/Berlin")!
let gap = LocalDateTime(year: 2024, month: 3, day: 31, hour: 2, minute: 30)!
let overlap = LocalDateTime(year: 2024, month: 10, day: 27, hour: 2, minute: 30)!

print(utcTime(berlin.instant(for: gap)), utcTime(berlin.instant(for: overlap)))
// Prints "2024-03-31T01:30:00 2024-10-27T00:30:00"

// A weekly 07:00 series in Berlin stays at 07:00 local time across the switch.
let imported = try SessionImporter(expansion: RecurrenceExpansion(through: Day("2025-12-31"))).importSessions(from: .string("""
    BEGIN:VEVENT
    UID:practice
    DTSTART;TZID=Europe/Berlin:20240323T070000
    RRULE:FREQ=WEEKLY;COUNT=3
    X-POINTS:10
    END:VEVENT
    """))
for session in imported.sessions {
    print(session.id, session.start.localDateTime(in: berlin), utcTime(session.start.instant(in: berlin)))
}
// Prints:
// practice/20240323T070000 2024-03-23T07:00:00 2024-03-23T06:00:00
// practice/20240330T070000 2024-03-30T07:00:00 2024-03-30T06:00:00
// practice/20240406T070000 2024-04-06T07:00:00 2024-04-06T05:00:00

func utcTime(_ instant: Int64) -> LocalDateTime {
    TimeZoneRules.utc.localDateTime(at: instant)
}
