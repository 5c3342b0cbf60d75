// Reads sessions from calendar text in memory. Each session knows its points, its start and the
// line it came from; problems in the text are diagnostics, never a thrown error.
import StreakCal

let calendar = """
    BEGIN:VCALENDAR
    VERSION:2.0
    BEGIN:VEVENT
    UID:run-1
    DTSTART;TZID=Europe/Berlin:20240226T073000
    DTEND;TZID=Europe/Berlin:20240226T081500
    SUMMARY:Morning run
    X-POINTS:120
    END:VEVENT
    BEGIN:VEVENT
    UID:swim-1
    DTSTART:20240227T180000Z
    DURATION:PT45M
    SUMMARY:Swim
    X-POINTS:lots
    END:VEVENT
    END:VCALENDAR
    """

let imported = try SessionImporter(expansion: RecurrenceExpansion(through: Day("2025-12-31"))).importSessions(from: .string(calendar, name: "training.ics"))
for session in imported.sessions {
    print(session.id, session.summary, session.points, session.source!)
}
// Prints:
// run-1 Morning run 120 training.ics:3:1
// swim-1 Swim 0 training.ics:10:1

for diagnostic in imported.diagnostics {
    print(diagnostic.code, diagnostic.severity, diagnostic.location)
}
// Prints "points warning training.ics:15:10"
