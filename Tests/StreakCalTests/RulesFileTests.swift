import Foundation
import StreakCal
import Streaks
import Testing
import FixedClock

private let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

@Suite("Rules files")
struct RulesFileTests {
    @Test("Every key, read as the options read it")
    func everyKey() throws {
        let text = """
            {
              "required": 60,
              "schedule": ["mon-fri:60,sat-sun:0", "from 2024-06-01: 90"],
              "periodGoal": "week:3 days",
              "weekStarts": "sun",
              "skip": ["2024-02-21", "2024-03-01..2024-03-07"],
              "skipCategories": ["Vacation", "rest"],
              "freezes": "1 + every 7, max 2",
              "todayGrace": false,
              "bestStreaks": 3,
              "habits": {"Piano": "categories:piano", "Running": "summary:run or categories:running"}
            }
            """
        let file = try RulesFile(parsing: text, file: "rules.json")
        let rules = file.rules
        #expect(file.namesRequiredPoints)
        #expect(rules.schedule.defaultPoints == 60)
        #expect(rules.schedule.requiredPoints(on: Day("2024-02-24")) == 0)
        #expect(rules.schedule.requiredPoints(on: Day("2024-06-03")) == 90)
        #expect(rules.periodGoal == PeriodGoal(length: .week(firstWeekday: .sunday), target: .metDays(3)))
        #expect(rules.skippedDays == [Day("2024-02-21")...Day("2024-02-21"), Day("2024-03-01")...Day("2024-03-07")])
        #expect(rules.skipCategories == ["vacation", "rest"])
        #expect(rules.freezes == FreezePolicy(budget: 1, earnedEvery: 7, maximumHeld: 2))
        #expect(!rules.todayGrace)
        #expect(rules.bestStreakCount == 3)
        #expect(file.habits.map(\.name) == ["Piano", "Running"])
        #expect(file.habits[1].filter == .or(.summaryContains("run"), .category("running")))
    }

    @Test("An empty object is the simple case")
    func empty() throws {
        let file = try RulesFile(parsing: "{}\n", file: "r.json")
        #expect(file.rules.isSimple)
        #expect(file.habits.isEmpty)
        #expect(!file.namesRequiredPoints)
    }

    @Test("A bad rules file names the line and column of the problem", arguments: [
        ("{\n  \"required\": 0\n}", 2, 15, "\"required\" is a whole number of points"),
        ("{\n  \"schedule\": [\"mon-fry:60\"]\n}", 2, 17, "'mon-fry' is not a weekday"),
        ("{\n  \"schedule\": \"mon:60,tue:x\"\n}", 2, 27, "required points are a whole number"),
        ("{\n  \"habits\": {\"Piano\": \"colour:red\"}\n}", 2, 24, "'colour' is not summary"),
        ("{\n  \"sckip\": []\n}", 2, 3, "unknown key \"sckip\""),
        ("{\n  \"skip\": [\"2024-03-07..2024-03-01\"]\n}", 2, 12, "is not a day or a range of days"),
        ("{\n  \"freezes\": 2\n}", 2, 14, "\"freezes\" is a text"),
        ("{\n  \"todayGrace\": \"no\"\n}", 2, 17, "\"todayGrace\" is true or false"),
        ("{\n  \"required\": 30,\n}", 3, 1, "a key in double quotes is expected here"),
        ("{\"required\": 30 \"freezes\": \"1\"}", 1, 17, "',' or '}' is expected here"),
        ("{\"a\": \"open", 1, 12, "the file ends inside a text"),
        ("[1]", 1, 1, "a rules file is a JSON object"),
        ("{\"required\": 30, \"required\": 40}", 1, 18, "the key \"required\" is given twice"),
        (String(repeating: "[", count: 40), 1, 33, "nested more than 32 deep"),
        ("{\"periodGoal\": \"fortnight:3 days\"}", 1, 17, "a period goal starts with week, month or N days"),
        ("{\n  \"habits\": {\"Deep\": \"" + String(repeating: "not ", count: 33) + "all\"}\n}", 2, 23, "habit \"Deep\": the filter is nested more than 32 deep"),
        ("{\"habits\": {\"W\": \"summary~(a)\\\\1\"}}", 1, 30, "habit \"W\": '(a)\\1' is not a regular expression StreakCal reads: backreferences"),
        ("{\"freezes\": \"every 0\"}", 1, 20, "freezes are earned every 1 or more met days, not every 0"),
        ("{\"habits\": [{\"name\": \"Coffee\", \"filter\": \"all\", \"atMost\": 1}]}", 1, 59, "\"atMost\" is true or false"),
        ("{\"habits\": [{\"name\": \"Coffee\", \"filter\": \"all\", \"limit\": 1}]}", 1, 49, "unknown key \"limit\"; a habit has \"name\", \"filter\""),
        ("{\"habits\": [{\"name\": \"Coffee\", \"filter\": \"all\", \"points\": \"hours\"}]}", 1, 59, "a habit's \"points\" is \"minutes\""),
        ("{\"habits\": [{\"name\": \"Coffee\"}]}", 1, 13, "habit \"Coffee\" needs a \"filter\""),
        ("{\"habits\": [{\"filter\": \"all\"}]}", 1, 13, "a habit needs a \"name\""),
        ("{\"habits\": [\"Piano\"]}", 1, 13, "a habit is an object"),
        ("{\"habits\": 3}", 1, 12, "\"habits\" is an array of habits"),
        ("{\"habits\": [{\"name\": \"P\", \"filter\": \"all\", \"required\": 0}]}", 1, 56, "\"required\" is a whole number of points"),
        ("{\"habits\": [{\"name\": \"P\", \"filter\": \"all\", \"schedule\": \"mon:x\"}]}", 1, 61, "required points are a whole number"),
        ("{\"habits\": [{\"name\": \"P\", \"filter\": \"colour:red\"}]}", 1, 38, "habit \"P\": 'colour' is not summary"),
    ] as [(String, Int, Int, String)])
    func errors(text: String, line: Int, column: Int, message: String) {
        #expect {
            try RulesFile(parsing: text, file: "rules.json")
        } throws: { error in
            guard let error = error as? RulesFileError else { return false }
            return error.file == "rules.json" && error.line == line && error.column == column && error.message.contains(message)
                && error.description.hasPrefix("rules.json:\(line):\(column): error: ")
        }
    }

    @Test("Each kind of problem has its code (issue 50.5)", arguments: [
        ("{\"required\": 30, \"colour\": 1}", RulesFileError.Code.unknownKey),
        ("{\"required\": 30, \"required\": 40}", .duplicateKey),
        ("{\"required\": 30,}", .notJSON),
        ("[1]", .invalidValue),
        ("{\"bestStreaks\": 2000}", .invalidValue),
        ("{\"schedule\": \"mon:x\"}", .invalidRule),
        ("{\"freezes\": \"every 0\"}", .invalidRule),
        ("{\"periodGoal\": \"fortnight:3 days\"}", .invalidRule),
        ("{\"habits\": {\"P\": \"colour:red\"}}", .invalidRule),
        ("{\"habits\": {" + (0..<51).map { "\"H\($0)\": \"all\"" }.joined(separator: ",") + "}}", .tooMany),
    ] as [(String, RulesFileError.Code)])
    func errorCodes(text: String, code: RulesFileError.Code) {
        let error = #expect(throws: RulesFileError.self) { try RulesFile(parsing: text, file: "rules.json") }
        #expect(error?.code == code, "\(error.map(String.init(describing:)) ?? "no error")")
    }

    @Test("A rule text's own error says what kind it is: syntax, out of range, too long or a pattern")
    func ruleTextCodes() {
        #expect((#expect(throws: StreakRulesSyntaxError.self) { try FreezePolicy(parsing: "every 0") })?.code == .outOfRange)
        #expect((#expect(throws: StreakRulesSyntaxError.self) { try FreezePolicy(parsing: "each 3") })?.code == .syntax)
        #expect((#expect(throws: StreakRulesSyntaxError.self) { try PeriodGoal(parsing: "week:9 days") })?.code == .outOfRange)
        #expect((#expect(throws: StreakRulesSyntaxError.self) { try Habit(parsing: "W=summary~(a)\\1") })?.code == .pattern)
        let deep = String(repeating: "not ", count: 33) + "all"
        #expect((#expect(throws: StreakRulesSyntaxError.self) { try Habit(parsing: "D=" + deep) })?.code == .tooLong)
        #expect(DayError(year: 2024, month: 13, day: 1).code == .noSuchMonth)
        #expect(DayError(year: 2023, month: 2, day: 29).code == .noSuchDay)
    }

    @Test("Habits from one calendar: each its sessions, skips for all, the rest counted apart; streamed or whole alike")
    func habitsFromOneCalendar() throws {
        let text = try String(contentsOf: fixtures.appendingPathComponent("habits-rules.json"), encoding: .utf8)
        let file = try RulesFile(parsing: text, file: "habits-rules.json")
        var settings = ReportSettings(timeZone: "UTC", from: Day("2024-01-01"), to: Day("2024-01-07"))
        settings.streakRules = file.rules
        settings.habits = file.habits
        let source = CalendarSource.file(fixtures.appendingPathComponent("habits.ics").path)
        let streamed = try settings.scored([source], now: testNow)
        let whole = settings.scored(try settings.importer(now: testNow).importSessions(from: [source]), now: testNow)
        for scored in [streamed, whole] {
            #expect(scored.unmatchedSessions == 1)  // the dentist
            #expect(scored.habits.map(\.habit.name) == ["Piano", "Running"])
            #expect(scored.habits[0].report.days.map(\.points) == [30, 30, 0, 0, 0, 0, 0])
            #expect(scored.habits[1].report.days.map(\.points) == [40, 0, 40, 0, 0, 0, 0])
            #expect(scored.habits[0].report.days.map(\.status) == [.met, .met, .frozen, .skipped, .skipped, .none, .none])
            #expect(scored.habits[1].report.days.map(\.status) == [.met, .frozen, .met, .skipped, .skipped, .none, .none])
            #expect(scored.report.days.map(\.points) == [70, 30, 40, 0, 0, 0, 0])
            #expect(scored.report.days.map(\.status) == [.met, .met, .met, .skipped, .skipped, .frozen, .none])
            #expect(scored.report.currentStreak.length == 4)
            #expect(scored.report.skipMarkers == 1)
        }
        #expect(streamed.report == whole.report)
        #expect(streamed.habits == whole.habits)
    }

    @Test("Habits with their own rules: a goal in minutes and a limit by count over one calendar, each its own statuses and streaks")
    func habitsWithOwnRules() throws {
        let text = """
            {
              "required": 100,
              "weekStarts": "sun",
              "habits": [
                {"name": "Piano", "filter": "summary:piano", "required": 30, "points": "minutes", "freezes": "1"},
                {"name": "Coffee", "filter": "summary:coffee", "required": 1, "points": "count", "atMost": true},
                {"name": "Weekly", "filter": "all", "periodGoal": "week:2 days", "schedule": ["sat:0"]}
              ]
            }
            """
        let file = try RulesFile(parsing: text, file: "rules.json")
        #expect(file.habits.map(\.name) == ["Piano", "Coffee", "Weekly"])
        #expect(file.habits[0].rules == HabitRules(requiredPoints: 30, freezes: FreezePolicy(budget: 1), points: .minutes))
        #expect(file.habits[1].rules == HabitRules(requiredPoints: 1, atMost: true, points: .count))
        #expect(file.habits[2].rules.periodGoal == PeriodGoal(length: .week(firstWeekday: .sunday), target: .metDays(2)))
        #expect(file.habits[2].rules.schedule?.count == 1)
        // Piano 40 and 10 minutes; coffee once, then twice; X-POINTS on nothing but the first piano session.
        let calendar = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r\nUID:p1\r\nDTSTART:20240101T080000Z\r\nDTEND:20240101T084000Z\r\nSUMMARY:Piano\r\nX-POINTS:5\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:p2\r\nDTSTART:20240102T080000Z\r\nDTEND:20240102T081000Z\r\nSUMMARY:Piano\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:c1\r\nDTSTART:20240101T070000Z\r\nDTEND:20240101T071000Z\r\nSUMMARY:Coffee\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:c2\r\nDTSTART:20240102T070000Z\r\nDTEND:20240102T071000Z\r\nSUMMARY:Coffee\r\nEND:VEVENT\r
            BEGIN:VEVENT\r\nUID:c3\r\nDTSTART:20240102T150000Z\r\nDTEND:20240102T151000Z\r\nSUMMARY:Coffee\r\nEND:VEVENT\r
            END:VCALENDAR\r

            """
        var settings = ReportSettings(timeZone: "UTC", from: Day("2024-01-01"), to: Day("2024-01-04"))
        settings.streakRules = file.rules
        settings.habits = file.habits
        let source = CalendarSource.string(calendar, name: "habits.ics")
        let streamed = try settings.scored([source], now: testNow)
        let whole = settings.scored(try settings.importer(now: testNow).importSessions(from: [source]), now: testNow)
        for scored in [streamed, whole] {
            let (piano, coffee) = (scored.habits[0].report, scored.habits[1].report)
            #expect(piano.days.map(\.points) == [40, 10, 0, 0])
            #expect(piano.days.map(\.status) == [.met, .frozen, .none, .none])  // its own freeze covers day 2
            #expect(piano.longestStreak.length == 1 && piano.currentStreak.length == 0)
            #expect(coffee.days.map(\.points) == [1, 2, 0, 0])
            #expect(coffee.days.map(\.status) == [.met, .over, .met, .met])
            #expect(coffee.currentStreak == Streak(from: Day("2024-01-03"), through: Day("2024-01-04"), length: 2))
            #expect(coffee.rules.atMost && coffee.goal.requiredPoints == 1)
            // The calendar keeps its own rule: X-POINTS, which one event carries.
            #expect(scored.imported.pointsRule == .xPoints)
            #expect(scored.report.days.map(\.points) == [5, 0, 0, 0])
        }
        #expect(streamed.habits == whole.habits)
        let json = ReportFormat.json.render(streamed, with: settings)
        #expect(json.contains("\"atMost\" : true"))
        #expect(json.contains("\"daysOver\" : 1"))
        #expect(json.contains("\"pointsFrom\" : \"count\""))
    }

    @Test("A rules file and options on top, into ReportSettings in one call, as the command line merges them")
    func applyRules() throws {
        let file = try RulesFile(parsing: """
            {"required": 30, "schedule": ["sat-sun:0"], "periodGoal": "week:3 days", "freezes": "2",
             "skipCategories": ["vacation"], "habits": [{"name": "Piano", "filter": "all", "required": 10}]}
            """, file: "rules.json")
        var settings = ReportSettings(requiredPoints: 50, timeZone: "UTC")
        try settings.applyRules(file)
        #expect(settings.requiredPoints == 30)  // the file's required wins over the settings' own
        #expect(settings.streakRules.freezes.budget == 2)
        #expect(settings.habits.map(\.name) == ["Piano"])
        var options = RuleOptions()
        options.requiredPoints = 45
        options.schedule = [GoalSchedule.Entry(weekdays: [.monday], requiredPoints: 0)]
        options.weekStarts = .sunday
        options.skipCategories = ["Sick"]
        options.freezes = FreezePolicy.none
        options.todayGrace = false
        options.bestStreakCount = 2
        options.habits = [try Habit(parsing: "Run=summary:run")]
        var merged = ReportSettings(timeZone: "UTC")
        try merged.applyRules(file, options: options)
        #expect(merged.requiredPoints == 45)  // an option wins over the file
        #expect(merged.streakRules.schedule.entries.count == 2)  // the file's entries, then the option's
        #expect(merged.streakRules.schedule.requiredPoints(on: Day("2024-01-01")) == 0)  // a Monday
        #expect(merged.streakRules.periodGoal == PeriodGoal(length: .week(firstWeekday: .sunday), target: .metDays(3)))
        #expect(merged.streakRules.skipCategories == ["vacation", "sick"])
        #expect(merged.streakRules.freezes == .none && !merged.streakRules.todayGrace && merged.streakRules.bestStreakCount == 2)
        #expect(merged.habits.map(\.name) == ["Piano", "Run"])
        // A habit's own required stands over the merged calendar's.
        #expect(merged.habits[0].rules.applied(to: merged.streakRules).schedule.defaultPoints == 10)
        var twice = RuleOptions()
        twice.habits = [try Habit(parsing: "Piano=summary:piano")]
        #expect(throws: RuleOptionsError(.duplicateHabit, "the habit 'Piano' is named twice.")) { try merged.applyRules(file, options: twice) }
        var none = ReportSettings(requiredPoints: 70, timeZone: "UTC")
        try none.applyRules(nil)
        #expect(none.requiredPoints == 70 && none.streakRules.isSimple && none.habits.isEmpty)
    }

    @Test("Entries past a limit: the first one too many is the error's place", arguments: [
        ("schedule", "\"mon:1\"", RulesFile.maximumEntries, "\"schedule\" holds at most 10000 texts"),
        ("skip", "\"2024-01-01\"", RulesFile.maximumEntries, "\"skip\" holds at most 10000 texts"),
        ("skipCategories", "\"x\"", RulesFile.maximumEntries, "\"skipCategories\" holds at most 10000 texts"),
    ])
    func entryLimits(key: String, item: String, limit: Int, message: String) throws {
        // One entry a line, after the line of the key: entry n (1-based) on line n + 1.
        let atLimit = "{\"\(key)\": [\n" + Array(repeating: item, count: limit).joined(separator: ",\n") + "\n]}"
        #expect(throws: Never.self) { try RulesFile(parsing: atLimit, file: "r.json") }
        let past = "{\"\(key)\": [\n" + Array(repeating: item, count: limit + 1).joined(separator: ",\n") + "\n]}"
        #expect {
            try RulesFile(parsing: past, file: "r.json")
        } throws: { error in
            (error as? RulesFileError).map { $0.line == limit + 2 && $0.column == 1 && $0.message == message } ?? false
        }
    }

    @Test("At most 50 habits, and a file of at most 4 MiB")
    func habitAndSizeLimits() throws {
        let habits = (0..<51).map { "\"H\($0)\": \"all\"" }
        let fifty = try RulesFile(parsing: "{\"habits\": {\n" + habits.prefix(50).joined(separator: ",\n") + "}}", file: "r.json")
        #expect(fifty.habits.count == 50)
        #expect {
            try RulesFile(parsing: "{\"habits\": {\n" + habits.joined(separator: ",\n") + "}}", file: "r.json")
        } throws: { error in
            (error as? RulesFileError).map { $0.line == 52 && $0.column == 1 && $0.message == "a rules file names at most 50 habits" } ?? false
        }
        let big = "{\"skipCategories\": [\"" + String(repeating: "x", count: RulesFile.maximumBytes) + "\"]}"
        #expect {
            try RulesFile(parsing: big, file: "r.json")
        } throws: { error in
            (error as? RulesFileError).map { $0.line == 1 && $0.column == 1 && $0.message == "a rules file is at most 4194304 bytes (4 MiB)" } ?? false
        }
    }

    @Test("A filter of 30,000 terms joined by 'or' is read, as a tree 15 deep")
    func longFilter() throws {
        let chain = (0..<30_000).map { "summary:w\($0)" }.joined(separator: " or ")
        let file = try RulesFile(parsing: "{\"habits\": {\"Many\": \"\(chain)\"}}", file: "r.json")
        #expect(file.habits.first?.filter.depth == 15)
        #expect(file.habits.first?.filter.description == chain)
    }
}
