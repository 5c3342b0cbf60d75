import Foundation
@testable import StreakCal
import Testing
import FixedClock

@Suite("Batch settings per calendar")
struct BatchSettingsTests {
    @Test("RFC 4180 records: quotes, doubled quotes, commas and line breaks inside, CRLF, LF or CR ends, the line each starts on")
    func csvRecords() {
        let text = "\u{FEFF}path,habits\r\n\"a,b.ics\",\"P=summary:\"\"x\"\"\"\n\"multi\nline.ics\",\rlast.ics,"
        let records = CSVRecords.parse(text)
        #expect(records.map(\.fields) == [["path", "habits"], ["a,b.ics", "P=summary:\"x\""], ["multi\nline.ics", ""], ["last.ics", ""]])
        #expect(records.map(\.line) == [1, 2, 3, 5])
        #expect(CSVRecords.parse("").isEmpty)
        #expect(CSVRecords.parse("x").map(\.fields) == [["x"]])
    }

    @Test("A settings file's rows by path: relative to the folder given, ./ dropped, or the path as given")
    func rows() throws {
        let file = try BatchSettingsFile(parsing: "path,tz,required,points,dayStart,habits\n./team/a.ics,Europe/Berlin,30,minutes,04:00,Piano=summary:piano;Run=categories:run\n/abs/b.ics,,,,,\n", file: "s.csv")
        let a = try #require(file.overrides(relativePath: "team/a.ics", name: "cals/team/a.ics"))
        #expect(a.timeZone == "Europe/Berlin" && a.requiredPoints == 30 && a.pointsRule == .minutes)
        #expect(a.dayStart == DayStart(hour: 4) && a.habits?.map(\.name) == ["Piano", "Run"])
        #expect(file.overrides(relativePath: "b.ics", name: "/abs/b.ics") == CalendarOverrides())
        #expect(file.overrides(relativePath: "c.ics", name: "c.ics") == nil)
        #expect(file.unmatched(relativePaths: ["team/a.ics"], names: ["x"]).map(\.line) == [3])
    }

    @Test("Values are checked as the options check them; the problem names the file, the line and the key", arguments: [
        ("path,tz\na.ics,GMT+5\n", "s.csv:2: \"tz\": "),
        ("path,required\na.ics,-5\n", "s.csv:2: \"required\": '-5' is not a whole number from 1 to 1000000000"),
        ("path,points\na.ics,hours\n", "s.csv:2: \"points\": 'hours' is none of auto, x-points, minutes and count"),
        ("path,habits\na.ics,P=summary:a;P=summary:b\n", "s.csv:2: \"habits\": the habit 'P' is named twice"),
        ("tz\nUTC\n", "s.csv:1: the header names no path column"),
        ("path,tz\na.ics\n", "s.csv:2: 1 fields, the header has 2"),
        ("", "s.csv:1: empty"),
        ("[{\"path\": \"a.ics\", \"required\": true}]", "s.csv:1: element 1: \"required\": a string"),
        ("[1]", "s.csv:1: element 1: an object with a \"path\" string"),
        ("[", "s.csv:1: not a JSON list of objects"),
    ])
    func problems(text: String, message: String) {
        #expect(throws: BatchSettingsFile.Problem.self) { try BatchSettingsFile(parsing: text, file: "s.csv") }
        do {
            _ = try BatchSettingsFile(parsing: text, file: "s.csv")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test("Overrides replace only what they give; auto and x-points keep the batch's property")
    func applied() throws {
        var batch = ReportSettings(requiredPoints: 60, pointsRule: .property("X-MINUTES"), timeZone: "UTC", dayStart: DayStart(hour: 3)!)
        batch.habits = [try Habit(parsing: "A=summary:a")]
        let none = CalendarOverrides().applied(to: batch)
        #expect(none.requiredPoints == 60 && none.timeZone == "UTC" && none.dayStart == DayStart(hour: 3) && none.habits.map(\.name) == ["A"])
        let own = try CalendarOverrides(values: ["tz": "Asia/Tokyo", "points": "auto", "required": "5", "habits": "B=summary:b"]).applied(to: batch)
        #expect(own.timeZone == "Asia/Tokyo" && own.requiredPoints == 5 && own.pointsRule == .automatic("X-MINUTES"))
        #expect(own.dayStart == DayStart(hour: 3) && own.habits.map(\.name) == ["B"])
        #expect(try CalendarOverrides(values: ["tz": ""]).isEmpty)
    }

    @Test("A manifest line and a summary.json entry read back as the result they were written from")
    func manifestLines() throws {
        var result = BatchFileResult(input: "in/a \"b\"\n.ics")
        result.id = "a.ics"
        result.output = "a.json"
        (result.sessions, result.points, result.days, result.daysMet) = (5, 350, 10, 3)
        result.currentStreak = Streak(start: nil, end: nil)
        result.longestStreak = Streak(from: try Day(year: 2024, month: 2, day: 25), through: try Day(year: 2024, month: 2, day: 26))
        result.diagnostics = DiagnosticCounts(errors: 0, warnings: 1, notes: 2)
        result.elapsedSeconds = 0.125
        result.unit = .minutes
        result.zone = "Europe/Berlin"
        let line = try #require(BatchManifest.line(BatchManifest.Entry(key: "00ff", result: result)))
        #expect(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")))
        let entry = try JSONDecoder().decode(BatchManifest.Entry.self, from: Data(line))
        #expect(entry.key == "00ff" && entry.result == result)
        // summary.json's entry leaves out habits when there are none.
        #expect(try JSONDecoder().decode(BatchFileResult.self, from: Data(BatchSummary.jsonEntry(of: result))) == result)
        result.habits = [BatchFileResult.HabitResult(name: "Piano", daysMet: 2, currentStreak: Streak(start: nil, end: nil), longestStreak: Streak(start: nil, end: nil), score: 0.5)]
        #expect(try JSONDecoder().decode(BatchFileResult.self, from: Data(BatchSummary.jsonEntry(of: result))) == result)
    }

    @Test("In process: a run keeps a manifest, a resumed one takes what is unchanged from it, a clean one removes stale reports only")
    func resumeAndClean() throws {
        try withTemporaryFolder { folder in
            try populate(folder, ["in/a.ics": "tutorial-sample.ics", "in/b.ics": "folding.ics", "in/sub/c.ics": "all-day-events.ics"])
            let out = folder.appendingPathComponent("out").path
            let settings = ReportSettings(timeZone: "UTC", to: try Day(year: 2024, month: 12, day: 31))
            let first = try BatchReport(paths: [folder.appendingPathComponent("in").path], settings: settings, format: .json, recordsElapsedTime: false, now: testNow).write(to: out)
            #expect(first.files.map(\.output) == ["a.json", "b.json", "sub__c.json"])
            let manifest = try String(contentsOfFile: out + "/" + BatchManifest.fileName, encoding: .utf8)
            #expect(manifest.split(separator: "\n").count == 3)
            try "old".write(toFile: out + "/old.json", atomically: false, encoding: .utf8)
            try "keep".write(toFile: out + "/notes.txt.orig", atomically: false, encoding: .utf8)

            var options = BatchRunOptions()
            (options.resume, options.clean) = (true, true)
            let started = Locked(0)
            options.rows = { _ in started.withLock { $0 += 1 } }
            let second = try BatchReport(paths: [folder.appendingPathComponent("in").path], settings: settings, format: .json, recordsElapsedTime: false, now: testNow)
                .write(to: out, options: options)
            #expect(second.files == first.files)
            #expect(started.withLock { $0 } == 3)
            #expect(second.stale == ["old.json"] && second.removedStale)
            #expect(!FileManager.default.fileExists(atPath: out + "/old.json"))
            #expect(FileManager.default.fileExists(atPath: out + "/notes.txt.orig"))
            // A stop requested before the first calendar: nothing done, the summary says so.
            var stopped = BatchRunOptions()
            stopped.stop = BatchStop()
            stopped.stop?.request()
            let none = try BatchReport(paths: [folder.appendingPathComponent("in").path], settings: settings, format: .json, now: testNow).write(to: out, options: stopped)
            #expect(none.files.isEmpty && none.remaining == 3 && !none.isComplete && none.stale.isEmpty)
        }
    }

    @Test("The manifest's settings text is the same in every run: sets sorted, objects by type alone")
    func stableDescription() throws {
        var settings = ReportSettings(timeZone: "UTC")
        settings.habits = [try Habit(parsing: "P=categories:a or categories:b or categories:c"), try Habit(parsing: "Q=summary:x")]
        let text = BatchManifest.stableDescription(of: settings)
        #expect(!text.contains("0x"), "no addresses")
        #expect(text == BatchManifest.stableDescription(of: settings))
        #expect(BatchManifest.stableDescription(of: Set(["b", "a", "c"])) == "[\"a\", \"b\", \"c\"]")
        let other = ReportSettings(requiredPoints: 30, timeZone: "UTC")
        #expect(BatchManifest.stableDescription(of: other) != BatchManifest.stableDescription(of: ReportSettings(timeZone: "UTC")))
    }
}
