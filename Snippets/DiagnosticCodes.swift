// Every problem in a calendar's content is a `Diagnostic`: a severity, a stable code, the file,
// line and column, a message and the source line. Printed, it reads like a compiler's.
import StreakCal

let imported = try SessionImporter(expansion: RecurrenceExpansion(through: Day("2025-12-31"))).importSessions(from: .string("""
    BEGIN:VCALENDAR
    BEGIN:VEVENT
    UID:a
    DTSTART:20240230T090000Z
    X-POINTS:10
    END:VEVENT
    BEGIN:VEVENT
    DTSTART;TZID=Mars/Olympus_Mons:20240226T090000
    X-POINTS:lots
    END:VEVENT
    END:VCALENDAR
    """, name: "damaged.ics"))

for diagnostic in imported.diagnostics {
    print(diagnostic.severity, diagnostic.code, diagnostic.location.line)
}
// Prints:
// error missing-start 4
// note missing-uid 7
// warning unknown-time-zone 8
// warning points 9

print(imported.diagnostics[0])
// Prints:
// damaged.ics:4:9: error: DTSTART 20240230T090000Z is not a real date and time; the event is skipped
//  4 | DTSTART:20240230T090000Z
//    |         ^
