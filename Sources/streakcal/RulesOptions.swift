import ArgumentParser
import Foundation
import StreakCal

/// The streak rules and habits (report, sessions, annotate, batch): a rules file, then options on
/// top of it.
struct RulesOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A JSON file of streak rules and habits (see docs/command-line.md); the options below add to it.",
        valueName: "file"), completion: .file(extensions: ["json"]))
    var rules: String?

    @Option(help: ArgumentHelp(
        "Required points by weekday, optionally from a day on: mon-fri:60,sat-sun:0 or 'from 2024-06-01: 90'; 0 makes rest days. Repeatable; later ones win.",
        valueName: "spec"))
    var schedule: [String] = []

    @Option(help: ArgumentHelp(
        "A goal per week or month instead of per day: week:3 days, week:300 points, month:20 days.",
        valueName: "spec"))
    var periodGoal: String?

    @Option(help: ArgumentHelp("The first day of a --period-goal week (default: mon).", valueName: "day"))
    var weekStarts: String?

    @Option(help: ArgumentHelp("Days that neither break nor extend a streak: YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD. Repeatable.", valueName: "days"))
    var skip: [String] = []

    @Option(help: ArgumentHelp("All-day events with this category skip their days (e.g. vacation). Repeatable.", valueName: "name"))
    var skipCategory: [String] = []

    @Option(help: ArgumentHelp("Freezes that cover missed days: 2 (a budget), 'every 7, max 2' (earned by met days), or both: '1 + every 7'.", valueName: "spec"))
    var freezes: String?

    @Flag(help: "Count the last day as missed when it is not met (by default it is still open and breaks nothing).")
    var noTodayGrace = false

    @Option(parsing: .unconditional, help: ArgumentHelp("How many of the longest streaks to list (default: 5; 0 to 1000).", valueName: "n"))
    var bestStreaks: Int?

    @Option(help: ArgumentHelp(
        "A named habit: NAME=FILTER, such as Piano=categories:piano or 'Run=summary:run and not categories:walk'. Repeatable; habits are reported side by side.",
        valueName: "name=filter"))
    var habit: [String] = []

    func validate() throws {
        _ = try resolved(readingFile: false)
    }

    /// The rules and habits these options give on top of `requiredPoints` (the `--required` value);
    /// a rules file's `required` wins over the default but not over an explicit `--required`.
    func apply(to settings: inout ReportSettings, requiredGiven: Bool) throws {
        let (rules, habits, fileRequired) = try resolved(readingFile: true)
        let required = settings.requiredPoints
        settings.streakRules = rules
        settings.requiredPoints = requiredGiven || fileRequired == nil ? required : fileRequired!
        settings.habits = habits
    }

    /// The rules file (when `readingFile`), then each option, as rules and habits.
    private func resolved(readingFile: Bool) throws -> (StreakRules, [Habit], Int?) {
        var rules = StreakRules()
        var habits: [Habit] = []
        var fileRequired: Int?
        if readingFile, let path = self.rules {
            let text = try Self.readRulesFile(path)
            do {
                let file = try RulesFile(parsing: text, file: path)
                rules = file.rules
                habits = file.habits
                if file.namesRequiredPoints { fileRequired = file.rules.schedule.defaultPoints }
            } catch {
                StandardError.print(error.description.escapingControlCharacters())
                throw ExitCode.validationFailure
            }
        }
        func failure(_ option: String, _ value: String, _ error: StreakRulesSyntaxError) -> ValidationError {
            ValidationError("\(option) '\(Self.shown(value))': \(error.message) (at character \(error.offset + 1)).")
        }
        for spec in schedule {
            do { try rules.schedule.add(parsing: spec) } catch { throw failure("--schedule", spec, error) }
        }
        var firstWeekday = Weekday.monday
        if let weekStarts {
            guard let day = Weekday(name: weekStarts) else {
                throw ValidationError("--week-starts takes a weekday such as mon, not '\(weekStarts.escapingControlCharacters())'.")
            }
            firstWeekday = day
        }
        if let periodGoal {
            do { rules.periodGoal = try PeriodGoal(parsing: periodGoal, firstWeekday: firstWeekday) } catch {
                throw failure("--period-goal", periodGoal, error)
            }
        } else if weekStarts != nil, var goal = rules.periodGoal, case .week = goal.length {
            goal.length = .week(firstWeekday: firstWeekday)
            rules.periodGoal = goal
        }
        for text in skip {
            guard let range = SkipRange(text) else {
                throw ValidationError("--skip takes a day or a range of days, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD (in order), not '\(text.escapingControlCharacters())'.")
            }
            rules.skippedDays.append(range.days)
        }
        for category in skipCategory {
            guard !category.isEmpty else { throw ValidationError("--skip-category needs a category name.") }
            rules.skipCategories.insert(category.lowercased())
        }
        if let freezes {
            do { rules.freezes = try FreezePolicy(parsing: freezes) } catch { throw failure("--freezes", freezes, error) }
        }
        if noTodayGrace { rules.todayGrace = false }
        if let bestStreaks {
            try OptionRange.check(bestStreaks, 0...1000, option: "--best-streaks")
            rules.bestStreakCount = bestStreaks
        }
        for text in habit {
            do { habits.append(try Habit(parsing: text)) } catch {
                // The filter's problems name the habit (the value itself may be long).
                let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let named = name.isEmpty || !text.contains("=") ? error : StreakRulesSyntaxError("habit '\(Self.shown(name))': \(error.message)", offset: error.offset)
                throw failure("--habit", text, named)
            }
        }
        if let duplicate = Dictionary(grouping: habits, by: \.name).first(where: { $0.value.count > 1 })?.key {
            throw ValidationError("the habit '\(duplicate.escapingControlCharacters())' is named twice.")
        }
        guard habits.count <= RulesFile.maximumHabits else {
            throw ValidationError("at most \(RulesFile.maximumHabits) habits, those of --rules and --habit together, not \(habits.count).")
        }
        return (rules, habits, fileRequired)
    }

    /// An option's value as a message shows it: control characters escaped, at most 80 characters.
    static func shown(_ value: String) -> String {
        (value.count > 80 ? value.prefix(79) + "…" : value).escapingControlCharacters()
    }

    /// A rules file's text, read up to one byte past `RulesFile.maximumBytes` (so that a device
    /// such as /dev/zero or a huge file is not read whole: the size check refuses it).
    private static func readRulesFile(_ path: String) throws -> String {
        let shownPath = path.escapingControlCharacters()
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be opened" : "no such file"
            throw ValidationError("--rules: cannot read '\(shownPath)': \(reason)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: RulesFile.maximumBytes + 1) ?? Data()
        } catch {
            throw ValidationError("--rules: cannot read '\(shownPath)': \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            // Cut inside a character, a text past the limit is not UTF-8 either: say its size first.
            if data.count > RulesFile.maximumBytes { return String(decoding: data, as: UTF8.self) }
            throw ValidationError("--rules: cannot read '\(shownPath)': it is not UTF-8 text")
        }
        return text
    }
}
