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

    @Option(help: ArgumentHelp("The first day of a weekly goal's weeks (default: the rules file's weekStarts, else --first-weekday, else mon).", valueName: "day"))
    var weekStarts: String?

    @Option(help: ArgumentHelp("Days that neither break nor extend a streak: YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD. Repeatable.", valueName: "days"))
    var skip: [String] = []

    @Option(help: ArgumentHelp("All-day events with this category skip their days (e.g. vacation). Repeatable.", valueName: "name"))
    var skipCategory: [String] = []

    @Option(help: ArgumentHelp("All-day events this habit filter takes skip their days: summary:vacation (any case), or a pattern such as 'summary~(?i)^sick' (for calendars without categories, such as Google's). Repeatable.", valueName: "filter"))
    var skipWhen: [String] = []

    @Option(help: ArgumentHelp("Freezes that cover missed days: 2 (a budget), 'every 7, max 2' (earned by met days), or both: '1 + every 7'.", valueName: "spec"))
    var freezes: String?

    @Flag(help: "Count the last day as missed when it is not met (by default it is still open and breaks nothing).")
    var noTodayGrace = false

    @Option(parsing: .unconditional, help: ArgumentHelp("How many of the longest streaks to list (default: 5; 0 to 1000).", valueName: "n"))
    var bestStreaks: Int?

    @Option(help: ArgumentHelp(
        "A named habit: NAME=FILTER, such as Piano=categories:piano or 'Run=summary:run and not categories:walk'. Repeatable; each habit gets its own report, one after another.",
        valueName: "name=filter"))
    var habit: [String] = []

    func validate() throws {
        _ = try options(required: nil, weekStart: nil)
    }

    /// The rules file and these options on `settings` (`ReportSettings.applyRules`, the library's
    /// one call for it); `required` is `--required`, which wins over the file's `required`.
    ///
    /// Weekly goals' weeks start on `--week-starts`, else the file's `weekStarts`, else
    /// `firstWeekday` (`--first-weekday`, when given: grid rows and goal weeks then line up),
    /// else Monday.
    /// Returns the first day of the weeks.
    @discardableResult
    func apply(to settings: inout ReportSettings, required: Int?, firstWeekday: Weekday? = nil) throws -> Weekday {
        let file = try self.rules.map(Self.readRulesFile)
        let weekStart = file?.weekStart ?? firstWeekday
        do {
            let options = try options(required: required, weekStart: weekStart)
            try settings.applyRules(file, options: options)
            return options.weekStarts ?? .monday
        } catch let error as RuleOptionsError {
            throw ValidationError(error.message.replacingOccurrences(of: "the rules file's and the options'", with: "those of --rules and --habit"))
        }
    }

    /// The options, read into `RuleOptions`: an option that cannot be read is a usage error naming
    /// it. `weekStart` is the weeks' first day when `--week-starts` does not say.
    private func options(required: Int?, weekStart: Weekday?) throws -> RuleOptions {
        var options = RuleOptions()
        options.requiredPoints = required
        options.weekStarts = weekStart
        func failure(_ option: String, _ value: String, _ error: StreakRulesSyntaxError) -> ValidationError {
            ValidationError("\(option) '\(Self.shown(value))': \(error.message) (at character \(error.offset + 1)).")
        }
        var schedule = GoalSchedule(requiredPoints: 1)
        for spec in self.schedule {
            do { try schedule.add(parsing: spec) } catch { throw failure("--schedule", spec, error) }
        }
        options.schedule = schedule.entries
        if let weekStarts {
            guard let day = Weekday(name: weekStarts) else {
                throw ValidationError("--week-starts takes a weekday such as mon, not '\(weekStarts.escapingControlCharacters())'.")
            }
            options.weekStarts = day
        }
        if let periodGoal {
            do { options.periodGoal = try PeriodGoal(parsing: periodGoal, firstWeekday: options.weekStarts ?? .monday) } catch {
                throw failure("--period-goal", periodGoal, error)
            }
        }
        for text in skip {
            guard let range = SkipRange(text) else {
                throw ValidationError("--skip takes a day or a range of days, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD (in order), not '\(text.escapingControlCharacters())'.")
            }
            options.skippedDays.append(range.days)
        }
        for category in skipCategory {
            guard !category.isEmpty else { throw ValidationError("--skip-category needs a category name.") }
            options.skipCategories.append(category)
        }
        for text in skipWhen {
            let filter: SessionFilter
            do { filter = try SessionFilter(parsing: text) } catch { throw failure("--skip-when", text, error) }
            options.skipWhen = options.skipWhen.map { .or($0, filter) } ?? filter
        }
        if let freezes {
            do { options.freezes = try FreezePolicy(parsing: freezes) } catch { throw failure("--freezes", freezes, error) }
        }
        if noTodayGrace { options.todayGrace = false }
        if let bestStreaks {
            try OptionRange.check(bestStreaks, 0...1000, option: "--best-streaks")
            options.bestStreakCount = bestStreaks
        }
        for text in habit {
            do { options.habits.append(try Habit(parsing: text)) } catch {
                // The filter's problems name the habit (the value itself may be long).
                let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let named = name.isEmpty || !text.contains("=") ? error : StreakRulesSyntaxError(error.code, "habit '\(Self.shown(name))': \(error.message)", offset: error.offset)
                throw failure("--habit", text, named)
            }
        }
        // Checked here too, so that a duplicate among the options alone is a usage error before any file is read.
        if let duplicate = Dictionary(grouping: options.habits, by: \.name).first(where: { $0.value.count > 1 })?.key {
            throw ValidationError("the habit '\(duplicate.escapingControlCharacters())' is named twice.")
        }
        return options
    }

    /// An option's value as a message shows it: control characters escaped, at most 80 characters.
    static func shown(_ value: String) -> String {
        (value.count > 80 ? value.prefix(79) + "…" : value).escapingControlCharacters()
    }

    /// The rules file at `path`; one that cannot be used is a usage error, its message located.
    private static func readRulesFile(_ path: String) throws -> RulesFile {
        let text = try readRulesText(path)
        do { return try RulesFile(parsing: text, file: path) } catch {
            StandardError.print(error.description.escapingControlCharacters())
            throw ExitCode.validationFailure
        }
    }

    /// A rules file's text, read up to one byte past `RulesFile.maximumBytes` (so that a device
    /// such as /dev/zero or a huge file is not read whole: the size check refuses it). A file that
    /// cannot be read fails as a calendar that cannot be read does: "cannot read PATH: REASON", exit 1.
    private static func readRulesText(_ path: String) throws -> String {
        func failure(_ reason: String) -> CommandFailure { CommandFailure("--rules: cannot read \(path): \(reason)") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw failure(FileManager.default.fileExists(atPath: path) ? "it cannot be opened" : "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: RulesFile.maximumBytes + 1) ?? Data()
        } catch {
            var isFolder: ObjCBool = false
            let folder = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            throw failure(folder ? "it is a folder" : "it cannot be read (error \((error as NSError).code))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            // Cut inside a character, a text past the limit is not UTF-8 either: say its size first.
            if data.count > RulesFile.maximumBytes { return String(decoding: data, as: UTF8.self) }
            throw failure("it is not UTF-8 text")
        }
        return text
    }
}
