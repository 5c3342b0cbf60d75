// Streams a calendar: each batch holds the sessions and diagnostics of one stretch of the input,
// so memory does not grow with the file.
import StreakCal

var sessions = 0
var points = 0
var diagnostics = 0
for try await batch in SessionImporter(expansion: RecurrenceExpansion(through: Day("2025-12-31"))).sessionBatches(from: [.file("Fixtures/tutorial-sample.ics")]) {
    sessions += batch.sessions.count
    points += batch.sessions.reduce(0) { $0 + $1.points }
    diagnostics += batch.diagnostics.count
}
print(sessions, "sessions,", points, "points,", diagnostics, "diagnostic")
// Prints "5 sessions, 350 points, 1 diagnostic"
