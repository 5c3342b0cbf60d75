import Foundation
import StreakCal
import Testing
import FixedClock

/// `ReportSettings.scored(_:keepingSessions:now:)` counts sessions as they are read; it must score exactly as the
/// whole import does.
@Suite("Streamed reports")
struct StreamedReportTests {
    /// Every fixture (`calendarFixtureNames()`: in the sanitizer runs, all but the slowest).
    private static var fixtures: [String] {
        calendarFixtureNames().map { fixtureFolder.appendingPathComponent($0).path }
    }

    @Test func thereAreFixtures() {
        #expect(Self.fixtures.count > 20)
    }

    /// One case per fixture, so that the cases share the cores (the sanitizer runs wait for the slowest test).
    @Test("Every fixture, in several zones and day starts: the same report and diagnostics as the whole import",
          arguments: fixtures)
    func sameAsWholeImport(path: String) throws {
        let now = Int64(1_735_689_600)  // 2025-01-01
        do {
            for (zone, dayStart) in [(nil, DayStart.midnight), ("America/New_York", DayStart(hour: 4)!)] as [(TimeZoneRules?, DayStart)] {
                // Every rule in a zone; floating times at midnight with `auto`, which also runs the
                // rule it takes (x-points or minutes) explicitly.
                for rule in zone == nil ? [PointsRule.auto] : [.xPoints, .minutes, .auto] {
                    let settings = ReportSettings(
                        pointsRule: rule, timeZone: zone, dayStart: dayStart, from: try! Day(year: 2023, month: 12, day: 1))
                    let whole = settings.scored(try settings.importer(now: now).importSessions(from: .file(path)), now: now)
                    let streamed = try settings.scored([.file(path)], keepingSessions: true, now: now)
                    #expect(streamed.report == whole.report, "\(path) \(zone ?? "-") \(rule)")
                    #expect(streamed.imported.sessions.count == whole.imported.sessions.count, "\(path)")
                    #expect(Set(streamed.imported.diagnostics.map(\.description)) == Set(whole.imported.diagnostics.map(\.description)), "\(path)")
                    #expect(streamed.imported.sessionsWithPointsProperty == whole.imported.sessionsWithPointsProperty, "\(path)")
                    #expect(streamed.imported.pointsRule == whole.imported.pointsRule, "\(path)")
                    #expect(streamed.imported.sessions.map(\.points) == whole.imported.sessions.map(\.points) || rule != .auto, "\(path)")
                    if rule == .auto {
                        // auto is x-points when some event has the property, else minutes, with the note.
                        var taken = settings
                        taken.pointsRule = whole.imported.sessionsWithPointsProperty > 0 ? .xPoints : .minutes
                        let expected = try taken.scored([.file(path)], keepingSessions: true, now: now)
                        #expect(streamed.report == expected.report, "\(path)")
                        #expect(streamed.imported.pointsRule == taken.pointsRule, "\(path)")
                        let notes = streamed.imported.diagnostics.filter { $0.message.hasPrefix("no event has the X-POINTS property") }
                        #expect(notes.count == (taken.pointsRule == .minutes && !streamed.imported.sessions.isEmpty ? 1 : 0), "\(path)")
                    }
                    // Counted without their sessions (`SessionImporter.countsOnly`): the same again,
                    // diagnostics in the same order (where floating times are read in a zone; the
                    // fixture whose rules spend their budgets, this suite's slowest, with one rule).
                    guard zone != nil, rule == .minutes || !path.hasSuffix("recurring-endless-and-impossible.ics") else { continue }
                    let counted = try settings.scored([.file(path)], now: now)
                    #expect(counted.report == streamed.report, "\(path) \(zone ?? "-") \(rule)")
                    #expect(counted.imported.sessions.isEmpty)
                    #expect(counted.imported.diagnostics.map(\.description) == streamed.imported.diagnostics.map(\.description), "\(path)")
                    #expect(counted.imported.sessionsWithPointsProperty == streamed.imported.sessionsWithPointsProperty, "\(path)")
                }
            }
        }
    }

    /// Habits (a pattern among them), skip categories and a schedule read descriptions: the
    /// accumulator matches each session once, on either path, and keeps it only when asked.
    @Test("Every fixture, with habits, skip categories and rules: the same reports, habits and diagnostics streamed, kept or whole",
          arguments: fixtures)
    func habitsSameAsWholeImport(path: String) throws {
        for rule in [PointsRule.minutes, .auto] { try habitsSameAsWholeImport(path: path, rule: rule) }
    }

    private func habitsSameAsWholeImport(path: String, rule: PointsRule) throws {
        let now = Int64(1_735_689_600)
        var settings = ReportSettings(pointsRule: rule, timeZone: "Europe/Berlin", dayStart: DayStart(hour: 4)!, from: try! Day(year: 2023, month: 6, day: 1))
        settings.habits = [
            try Habit(parsing: "Any=all"), try Habit(parsing: #"Digits=summary~\d|(?i)^[a-m]"#),
            try Habit(parsing: "Piano=categories:piano or property:X-HABIT=running"),
        ]
        settings.streakRules.skipCategories = ["vacation"]
        try settings.streakRules.schedule.add(parsing: "sat-sun:0")
        settings.streakRules.freezes = try FreezePolicy(parsing: "1 + every 3")
        let whole = settings.scored(try settings.importer(now: now).importSessions(from: .file(path)), now: now)
        let kept = try settings.scored([.file(path)], for: .html, now: now)
        let counted = try settings.scored([.file(path)], for: .json, now: now)
        for scored in [kept, counted] {
            #expect(scored.report == whole.report, "\(path)")
            #expect(scored.habits == whole.habits, "\(path)")
            #expect(scored.unmatchedSessions == whole.unmatchedSessions, "\(path)")
            #expect(Set(scored.imported.diagnostics.map(\.description)) == Set(whole.imported.diagnostics.map(\.description)), "\(path)")
        }
        // The same sessions (held series come at the end of a stream, in their place in a whole import).
        #expect(kept.imported.sessions.count == whole.imported.sessions.count, "\(path)")
        #expect(kept.imported.sessions.map(\.id).sorted() == whole.imported.sessions.map(\.id).sorted(), "\(path)")
        #expect(counted.imported.sessions.isEmpty)
        #expect(counted.imported.diagnostics.map(\.description) == kept.imported.diagnostics.map(\.description), "\(path)")
        // The habit that takes every session counts what the calendar counts, skip markers aside.
        #expect(whole.habits[0].report.days.map(\.points) == whole.report.days.map(\.points), "\(path)")
        #expect(whole.unmatchedSessions == 0)
    }

    @Test("A format asks for sessions only when it lists them")
    func sessionsByFormat() throws {
        let path = fixtureFolder.appendingPathComponent("tutorial-sample.ics").path
        let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 2, day: 29))
        for format in ReportFormat.allCases {
            let scored = try settings.scored([.file(path)], for: format, now: testNow)
            #expect(scored.imported.sessions.count == (format == .html ? 5 : 0), "\(format)")
            #expect(format.needsSessions == (format == .html))
        }
    }

    /// Each fixture read as one with the next (and the first twice): counted sessions are mapped back
    /// to their own inputs, and the warnings that point at the first session point where they do
    /// when the sessions are kept.
    @Test("Several sources, counted: the same report and diagnostics as with the sessions kept", arguments: fixtures.indices)
    func severalSourcesCounted(index: Int) throws {
        let fixtures = Self.fixtures
        let paths = [fixtures[index], fixtures[(index + 1) % fixtures.count]] + (index == 0 ? [fixtures[0]] : [])
        let now = Int64(1_735_689_600)
        let settings = ReportSettings(pointsRule: .xPoints, timeZone: "Asia/Tokyo", dayStart: DayStart(hour: 4)!)
        let kept = try settings.scored(paths.map { .file($0) }, keepingSessions: true, now: now)
        let counted = try settings.scored(paths.map { .file($0) }, now: now)
        #expect(counted.report == kept.report, "\(paths)")
        #expect(counted.imported.diagnostics.map(\.description) == kept.imported.diagnostics.map(\.description), "\(paths)")
        #expect(counted.sources == kept.sources)
    }

    @Test("Counted sessions: the warnings about the first session name the input it stands in, and its line")
    func firstSessionOfSeveralInputs() throws {
        // The first input's only event is a series, none has X-POINTS, and the calendar declares a
        // zone that is no IANA zone: the warnings point at the first session in input order, the
        // series' first instance, as a whole import's do.
        let series = "BEGIN:VCALENDAR\r\nX-WR-TIMEZONE:Mars/Olympus\r\nBEGIN:VEVENT\r\nUID:s\r\nDTSTART:20240101T090000Z\r\n"
            + "RRULE:FREQ=DAILY;COUNT=3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let plain = "BEGIN:VCALENDAR\r\n\r\nBEGIN:VEVENT\r\nUID:p\r\nDTSTART:20240102T090000Z\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:q\r\nDTSTART:20240103T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-first-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let seriesPath = folder.appendingPathComponent("series.ics").path
        let plainPath = folder.appendingPathComponent("plain.ics").path
        #expect(FileManager.default.createFile(atPath: seriesPath, contents: Data(series.utf8)))
        #expect(FileManager.default.createFile(atPath: plainPath, contents: Data(plain.utf8)))
        let settings = ReportSettings(to: try! Day(year: 2024, month: 1, day: 5))
        let kept = try settings.scored([.file(seriesPath), .file(plainPath)], keepingSessions: true, now: testNow)
        let counted = try settings.scored([.file(seriesPath), .file(plainPath)], now: testNow)
        let expected = counted.imported.diagnostics.filter { $0.code == .points }.map(\.location)
        #expect(expected == [SourceLocation(file: seriesPath, line: 3)])
        #expect(counted.imported.diagnostics.map(\.description) == kept.imported.diagnostics.map(\.description))
        #expect(counted.report == kept.report)
        #expect(counted.report.days.map(\.sessions) == [1, 2, 2, 0, 0])
    }

    @Test("Without keepingSessions no session is kept, and the report is the same")
    func sessionsNotKept() throws {
        let path = fixtureFolder.appendingPathComponent("tutorial-sample.ics").path
        let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 2, day: 29))
        let kept = try settings.scored([.file(path)], keepingSessions: true, now: testNow)
        let counted = try settings.scored([.file(path)], now: testNow)
        #expect(counted.imported.sessions.isEmpty)
        #expect(kept.imported.sessions.count == 5)
        #expect(counted.report == kept.report)
        #expect(counted.report.longestStreak.length == 2)
    }

    @Test("Output amplification: an event in year 1 makes a ten-year report by default, with a warning, streamed or not")
    func yearOne() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:00010101T090000Z\r\nX-POINTS:1\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20241230T090000Z\r\nX-POINTS:100\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("year-one.ics").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 12, day: 31))
        let streamed = try settings.scored([.file(path)], now: testNow)
        let whole = settings.scored(try settings.importer(now: testNow).importSessions(from: .file(path)), now: testNow)
        for scored in [streamed, whole] {
            #expect(scored.report.days.count == StreakReport.maximumDefaultDays)
            #expect(scored.report.days.first?.date == (try! Day(year: 2015, month: 1, day: 1)))
            #expect(scored.imported.diagnostics.map(\.message) == [
                "sessions go back to 0001-01-01, but without a first day a report covers at most 3653 days: it starts on 2015-01-01; give a first day to include the earlier ones",
            ])
        }
        #expect(ReportFormat.svg.render(streamed, with: settings).utf8.count < 2_000_000)
    }

    @Test("A file that cannot be opened throws CalendarReadError")
    func missingFile() {
        #expect(throws: CalendarReadError.self) { try ReportSettings().scored([.file("/nonexistent.ics")], now: testNow) }
    }

    /// The import sorts an event by a description it has sorted before (`SessionClassifier`'s
    /// memo, shared by the workers) until the memo is full and mostly misses; every answer must be
    /// the filters' own, as the kept path (which matches each session) gives it.
    @Test("Events sorted by a remembered description count as their filters say, repeated or all different",
          arguments: [("repeated", 9_000), ("different", 9_000)])
    func rememberedDescriptions(kind: String, events: Int) throws {
        let words = ["Übung", "Piano practice", "Scales", "Chamber music – trio", "Практика", "e\u{301}tude", "Run"]
        let categories = ["", "CATEGORIES:Piano\r\n", "CATEGORIES:Rehearsal,Voice\r\n", "CATEGORIES:vacation\r\n"]
        var text = "BEGIN:VCALENDAR\r\n"
        for index in 0..<events {
            let word = words[index % words.count], category = categories[(index / words.count) % categories.count]
            let summary = kind == "repeated" ? word : "\(word) #\(index)"
            let day = 1 + index % 28, month = 1 + (index / 28) % 12
            text += "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTART:2024\(month < 10 ? "0" : "")\(month)\(day < 10 ? "0" : "")\(day)T090000Z\r\n"
                + "DURATION:PT\(10 + index % 50)M\r\nSUMMARY:\(summary)\r\n\(category)END:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-memo-\(kind)-\(UUID().uuidString).ics").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var settings = ReportSettings(pointsRule: .minutes, timeZone: "UTC", from: try! Day(year: 2024, month: 1, day: 1),
                                      to: try! Day(year: 2024, month: 12, day: 31))
        settings.habits = [
            try Habit(parsing: "Practice=summary:übung or summary:SCALES or summary:étude"),
            try Habit(parsing: "Piano=categories:piano"), try Habit(parsing: #"Numbered=summary~(?i)^п|#\d*7$"#),
            try Habit(parsing: "Other=not categories:rehearsal"),
        ]
        settings.streakRules.skipCategories = ["vacation"]
        let kept = try settings.scored([.file(path)], for: .html, now: testNow)
        let counted = try settings.scored([.file(path)], for: .json, now: testNow)
        #expect(counted.report == kept.report)
        #expect(counted.habits == kept.habits)
        #expect(counted.unmatchedSessions == kept.unmatchedSessions)
        // Each habit takes some sessions and leaves others.
        for habit in counted.habits {
            let sessions = habit.report.days.map(\.sessions).reduce(0, +)
            #expect(sessions > 0 && sessions < events, "\(habit.name): \(sessions)")
        }
    }
}
