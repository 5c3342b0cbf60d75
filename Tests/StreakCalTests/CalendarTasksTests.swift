import Foundation
import ICalendar
import StreakCal
import Streaks
import Testing
import FixedClock

private let tutorial = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/tutorial-sample.ics").path

private let now = Int64(1_709_164_800)  // 2024-02-29T00:00:00Z

/// What `streakcal sessions`, `layout --calendar` and `annotate` do, as library calls.
@Suite("Calendar tasks")
struct CalendarTasksTests {
    @Test("A score over an exact window: those days, whatever the settings' own from and to")
    func scoredOverWindow() throws {
        let settings = ReportSettings(timeZone: "UTC", from: try! Day(year: 2020, month: 1, day: 1), to: try! Day(year: 2020, month: 1, day: 2))
        let window = try! Day(year: 2024, month: 2, day: 24)...Day(year: 2024, month: 2, day: 26)
        let scored = try settings.scored([.file(tutorial)], over: window, now: now)
        #expect(scored.report.days.map(\.date) == Array(window))
        #expect(scored.report.days.map(\.points) == [30, 100, 120])
        #expect(scored.report.days.map(\.status) == [.partial, .met, .met])
        #expect(scored.report.longestStreak.length == 2)
    }

    @Test("One day's sessions: the cards, their points and the import's diagnostics")
    func daySessions() throws {
        let day = try! Day(year: 2024, month: 2, day: 26)
        let listed = try ReportSettings(timeZone: "UTC").sessions(on: day, in: [.file(tutorial)], now: now)
        #expect(listed.cards.day == day)
        #expect(listed.cards.sessions.map(\.summary) == ["Success"])
        #expect(listed.cards.points == 120)
        #expect(listed.cards.render().hasPrefix("Sessions on 2024-02-26 (UTC): 120 of 100 points, met\n"))
        #expect(listed.diagnostics.map(\.message) == ["the event ends before it starts; the session is kept with its points"])
        let empty = try ReportSettings(timeZone: "UTC").sessions(on: try! Day(year: 2024, month: 3, day: 1), in: [.file(tutorial)], now: now)
        #expect(empty.cards.sessions.isEmpty)
        #expect(empty.cards.points == 0)
    }

    @Test("An annotated calendar from a file and the same bytes in memory: the same text, report and diagnostics")
    func annotated() throws {
        let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 2, day: 29))
        let fromFile = try settings.annotated([.file(tutorial)], markingSessions: true, now: now)
        let bytes = try CalendarSource.file(tutorial).read()
        let fromMemory = try settings.annotated([.bytes(bytes, name: tutorial)], markingSessions: true, now: now)
        #expect(fromFile.text == fromMemory.text)
        #expect(fromFile.report == fromMemory.report)
        #expect(fromFile.diagnostics.map(\.description) == fromMemory.diagnostics.map(\.description))
        #expect(fromFile.text.contains("UID:2024-02-26.fscalendar-streaks-tutorial-sample@streakcal.local\r\n"))
        #expect(fromFile.text.contains("X-STREAKCAL-DAY-STATUS:met\r\n"))
        #expect(fromFile.text.contains("DTSTAMP:20240229T000000Z\r\n"))
        #expect(fromFile.report.statusCounts[.met] == 3)
        let everyDay = try settings.annotated([.file(tutorial)], includingEmptyDays: true, now: now)
        let annotations = { (text: String) in text.components(separatedBy: "X-STREAKCAL-ANNOTATION:day").count - 1 }
        #expect(annotations(fromFile.text) == 4)
        #expect(annotations(everyDay.text) == fromFile.report.days.count)
        #expect(!everyDay.text.contains("X-STREAKCAL-DAY-STATUS"))
    }

    @Test("UIDs name the day and the calendar: the same on every run, kept by an annotated calendar under another file name")
    func annotationUIDs() throws {
        let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 2, day: 29))
        let first = try settings.annotated([.file(tutorial)], now: now)
        let expected = ["2024-02-20", "2024-02-24", "2024-02-25", "2024-02-26"].map { "\($0).fscalendar-streaks-tutorial-sample@streakcal.local" }
        #expect(uids(first.text) == expected)
        #expect(uids(try settings.annotated([.file(tutorial)], now: now + 3600).text) == expected)
        // Re-annotating the output, saved under another name: the old annotations are replaced, the UIDs kept.
        let again = try settings.annotated([.string(first.text, name: "exported/from-my-app.ics")], now: now)
        #expect(uids(again.text) == expected)
        #expect(again.text.components(separatedBy: "X-STREAKCAL-ANNOTATION:day").count - 1 == 4)
        // A calendar without X-WR-CALNAME is named by its file; another domain.
        let piano = calendar(name: nil, events: [("p1", "20240220T100000Z")])
        let named = try settings.annotated([.string(piano, name: "exports/Piano.ics")], uidDomain: try UIDDomain("example.org"), now: now)
        #expect(uids(named.text) == ["2024-02-20.piano@example.org"])
        // Old-style annotations are recognised by their marker and replaced.
        let old = first.text.replacingOccurrences(of: ".fscalendar-streaks-tutorial-sample@streakcal.local", with: "")
            .replacingOccurrences(of: "UID:2024", with: "UID:streakcal-day-2024")
        let replaced = try settings.annotated([.string(old, name: "tutorial-sample.ics")], now: now)
        #expect(uids(replaced.text) == expected)
        #expect(!replaced.text.contains("streakcal-day-"))
    }

    @Test("Two calendars annotated on their own, and two habits of one calendar, get disjoint UIDs")
    func disjointUIDs() throws {
        let settings = ReportSettings(requiredPoints: 30, timeZone: "UTC", to: try! Day(year: 2024, month: 1, day: 3))
        let piano = try settings.annotated([.string(calendar(name: "Piano", events: [("p", "20240101T100000Z")]), name: "a.ics")], now: now)
        let running = try settings.annotated([.string(calendar(name: "Running", events: [("r", "20240101T100000Z")]), name: "a.ics")], now: now)
        #expect(uids(piano.text) == ["2024-01-01.piano@streakcal.local"])
        #expect(uids(running.text) == ["2024-01-01.running@streakcal.local"])
        let both = try settings.annotated([
            .string(calendar(name: "Running", events: [("r", "20240101T100000Z")]), name: "b.ics"),
            .string(calendar(name: "Piano", events: [("p", "20240101T100000Z")]), name: "a.ics"),
        ], now: now)
        #expect(uids(both.text) == ["2024-01-01.piano--running@streakcal.local"])

        var habits = settings
        habits.habits = [Habit(name: "Piano", filter: .category("piano")), Habit(name: "Running", filter: .property("X-HABIT", value: "running"))]
        habits.from = try Day(year: 2024, month: 1, day: 1)
        let path = URL(fileURLWithPath: tutorial).deletingLastPathComponent().appendingPathComponent("habits.ics").path
        let annotated = try habits.annotated([.file(path)], now: now)
        let all = uids(annotated.text)
        let pianoUIDs = Set(all.filter { $0.contains(".habits.piano@") })
        let runningUIDs = Set(all.filter { $0.contains(".habits.running@") })
        #expect(pianoUIDs == ["2024-01-01.habits.piano@streakcal.local", "2024-01-02.habits.piano@streakcal.local"])
        #expect(runningUIDs.count == 2)
        #expect(pianoUIDs.isDisjoint(with: runningUIDs))
        #expect(all.count == Set(all).count)
        #expect(annotated.text.contains("SUMMARY:Piano: ✓ 30/30 points · streak 2\r\n"))
        #expect(annotated.text.contains("X-STREAKCAL-HABIT:Running\r\n"))
    }

    @Test("Only the annotations: a calendar of the day events, which libical reads and which imports as no session")
    func onlyAnnotations() throws {
        let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 2, day: 29))
        let annotated = try settings.annotated([.file(tutorial)], onlyAnnotations: true, now: now)
        let lines = annotated.text.components(separatedBy: "\r\n")
        #expect(Array(lines.prefix(6)) == [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//StreakCal//StreakCal \(StreakCalVersion.current)//EN", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:FSCalendar streaks tutorial sample (StreakCal)", "BEGIN:VEVENT",
        ])
        #expect(lines.suffix(2) == ["END:VCALENDAR", ""])
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 4)
        #expect(lines.filter { $0 == "X-STREAKCAL-ANNOTATION:day" }.count == 4)
        #expect(uids(annotated.text).count == 4)
        #expect(!annotated.text.contains("X-POINTS"))
        #expect(!annotated.text.contains("UID:tutorial-"))
        #expect(annotated.report.statusCounts[.met] == 3)
        #expect(Libical.parseErrors(in: annotated.text) == [])
        let reimported = try SessionImporter(expansion: testExpansion).importSessions(from: .string(annotated.text, name: "annotations.ics"))
        #expect(reimported.sessions.isEmpty)
        #expect(reimported.sources.map(\.name) == ["FSCalendar streaks tutorial sample (StreakCal)"])
        // Its annotations are StreakCal's own: annotating the calendar with them replaces them, UIDs kept.
        let merged = try settings.annotated([.file(tutorial), .string(annotated.text, name: "annotations.ics")], now: now)
        #expect(uids(merged.text) == uids(annotated.text))
    }

    @Test("What the import and the writer both say of a damaged calendar is said once")
    func diagnosticsOnce() throws {
        let path = URL(fileURLWithPath: tutorial).deletingLastPathComponent().appendingPathComponent("missing-end-lines.ics").path
        let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 5, day: 5))
        let annotated = try settings.annotated([.file(path)], now: now)
        let imported = try settings.scored([.file(path)], now: now).imported.diagnostics
        // Four of the damage, and the note that sessions after now (2024-02-29) are planned.
        #expect(imported.count == 5 && imported.filter { $0.code == .planned }.count == 1)
        #expect(annotated.diagnostics.map(\.description) == imported.map(\.description))
    }

    @Test("A source that cannot be read throws, naming it")
    func unreadable() {
        let error = #expect(throws: CalendarReadError.self) {
            try ReportSettings().annotated([.file(tutorial), .file("/nonexistent.ics")], now: now)
        }
        #expect(error?.description == "cannot read /nonexistent.ics: no such file")
    }
}

/// The annotations' UIDs in an annotated calendar, in order.
private func uids(_ text: String) -> [String] {
    text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst().filter { $0.contains("X-STREAKCAL-ANNOTATION:day") }.compactMap { event in
        event.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }
}

/// A calendar (named, or not) of 100-point sessions.
private func calendar(name: String?, events: [(uid: String, start: String)]) -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
    if let name { lines.append("X-WR-CALNAME:" + name) }
    for event in events {
        lines += ["BEGIN:VEVENT", "UID:" + event.uid, "DTSTAMP:20240101T000000Z", "DTSTART:" + event.start, "DURATION:PT1H",
                  "CATEGORIES:piano", "X-HABIT:running", "X-POINTS:100", "END:VEVENT"]
    }
    return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
}
