import Foundation
import ICalendar
import StreakCal
import Streaks
import Testing

private let tutorial = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/tutorial-sample.ics").path

private let now = Int64(1_709_164_800)  // 2024-02-29T00:00:00Z

/// What `streakcal sessions`, `layout --calendar` and `annotate` do, as library calls.
@Suite("Calendar tasks")
struct CalendarTasksTests {
    @Test("A score over an exact window: those days, whatever the settings' own from and to")
    func scoredOverWindow() throws {
        let settings = ReportSettings(timeZone: "UTC", from: Day(year: 2020, month: 1, day: 1)!, to: Day(year: 2020, month: 1, day: 2)!)
        let window = Day(year: 2024, month: 2, day: 24)!...Day(year: 2024, month: 2, day: 26)!
        let scored = try settings.scored([.file(tutorial)], over: window, now: now)
        #expect(scored.report.days.map(\.date) == Array(window))
        #expect(scored.report.days.map(\.points) == [30, 100, 120])
        #expect(scored.report.days.map(\.status) == [.partial, .met, .met])
        #expect(scored.report.longestStreak.length == 2)
    }

    @Test("One day's sessions: the cards, their points and the import's diagnostics")
    func daySessions() throws {
        let day = Day(year: 2024, month: 2, day: 26)!
        let listed = try ReportSettings(timeZone: "UTC").sessions(on: day, in: [.file(tutorial)], now: now)
        #expect(listed.cards.day == day)
        #expect(listed.cards.sessions.map(\.summary) == ["Success"])
        #expect(listed.cards.points == 120)
        #expect(listed.cards.render().hasPrefix("Sessions on 2024-02-26 (UTC): 120 of 100 points, met\n"))
        #expect(listed.diagnostics.map(\.message) == ["the event ends before it starts; the session is kept with its points"])
        let empty = try ReportSettings(timeZone: "UTC").sessions(on: Day(year: 2024, month: 3, day: 1)!, in: [.file(tutorial)], now: now)
        #expect(empty.cards.sessions.isEmpty)
        #expect(empty.cards.points == 0)
    }

    @Test("An annotated calendar from a file and the same bytes in memory: the same text, report and diagnostics")
    func annotated() throws {
        let settings = ReportSettings(timeZone: "UTC", to: Day(year: 2024, month: 2, day: 29)!)
        let fromFile = try settings.annotated([.file(tutorial)], markingSessions: true, now: now)
        let bytes = try CalendarSource.file(tutorial).read()
        let fromMemory = try settings.annotated([.bytes(bytes, name: tutorial)], markingSessions: true, now: now)
        #expect(fromFile.text == fromMemory.text)
        #expect(fromFile.report == fromMemory.report)
        #expect(fromFile.diagnostics.map(\.description) == fromMemory.diagnostics.map(\.description))
        #expect(fromFile.text.contains("UID:streakcal-day-2024-02-26\r\n"))
        #expect(fromFile.text.contains("X-STREAKCAL-DAY-STATUS:met\r\n"))
        #expect(fromFile.text.contains("DTSTAMP:20240229T000000Z\r\n"))
        #expect(fromFile.report.statusCounts[.met] == 3)
        let everyDay = try settings.annotated([.file(tutorial)], includingEmptyDays: true, now: now)
        let annotations = { (text: String) in text.components(separatedBy: "X-STREAKCAL-ANNOTATION:day").count - 1 }
        #expect(annotations(fromFile.text) == 4)
        #expect(annotations(everyDay.text) == fromFile.report.days.count)
        #expect(!everyDay.text.contains("X-STREAKCAL-DAY-STATUS"))
    }

    @Test("What the import and the writer both say of a damaged calendar is said once")
    func diagnosticsOnce() throws {
        let path = URL(fileURLWithPath: tutorial).deletingLastPathComponent().appendingPathComponent("missing-end-lines.ics").path
        let settings = ReportSettings(timeZone: "UTC", to: Day(year: 2024, month: 5, day: 5)!)
        let annotated = try settings.annotated([.file(path)], now: now)
        let imported = try settings.scored([.file(path)], now: now).imported.diagnostics
        #expect(imported.count == 4)
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
