// Several calendars read as one: a later copy of an event (a higher SEQUENCE) in one replaces the
// other's, and a METHOD:CANCEL in one removes it; every location still names its own input.
import StreakCal

let exported = """
    BEGIN:VCALENDAR
    BEGIN:VEVENT
    UID:gym-1
    SEQUENCE:0
    DTSTART:20240226T170000Z
    X-POINTS:60
    END:VEVENT
    BEGIN:VEVENT
    UID:gym-2
    SEQUENCE:0
    DTSTART:20240227T170000Z
    X-POINTS:60
    END:VEVENT
    END:VCALENDAR
    """
let updates = """
    BEGIN:VCALENDAR
    METHOD:REQUEST
    BEGIN:VEVENT
    UID:gym-1
    SEQUENCE:1
    DTSTART:20240226T180000Z
    X-POINTS:90
    END:VEVENT
    END:VCALENDAR
    BEGIN:VCALENDAR
    METHOD:CANCEL
    BEGIN:VEVENT
    UID:gym-2
    SEQUENCE:1
    DTSTART:20240227T170000Z
    END:VEVENT
    END:VCALENDAR
    """

let imported = try SessionImporter(expansion: RecurrenceExpansion(through: Day("2025-12-31"))).importSessions(from: [
    .string(exported, name: "export.ics"), .string(updates, name: "updates.ics"),
])
for session in imported.sessions { print(session.id, session.points, session.source!) }
// Prints "gym-1 90 updates.ics:3:1"

for diagnostic in imported.diagnostics { print(diagnostic.location, diagnostic.message) }
// Prints:
// export.ics:8:1 the event UID gym-2 is cancelled by the METHOD:CANCEL on line updates.ics:12; it counts no points
// updates.ics:3:1 2 copies of the event UID gym-1 count once: this one (SEQUENCE 1) is the latest; the others, on line export.ics:2, are left out
// updates.ics:12:1 this VCALENDAR is an iTIP cancellation (METHOD:CANCEL): its events are not sessions
