public import Streaks

/// A rules file: the streak rules and habits kept next to a calendar, as JSON.
///
/// ```json
/// {
///   "required": 60,
///   "schedule": ["mon-fri:60,sat-sun:0", "from 2024-06-01: 90"],
///   "periodGoal": "week:3 days",
///   "weekStarts": "mon",
///   "skip": ["2024-02-21", "2024-03-01..2024-03-07"],
///   "skipCategories": ["vacation", "rest"],
///   "freezes": "1 + every 7, max 2",
///   "todayGrace": true,
///   "bestStreaks": 5,
///   "habits": [
///     {"name": "Piano", "filter": "categories:piano", "required": 30, "points": "minutes"},
///     {"name": "Running", "filter": "summary:run", "periodGoal": "week:3 days"},
///     {"name": "Coffee", "filter": "summary:coffee", "required": 1, "points": "count", "atMost": true}
///   ]
/// }
/// ```
///
/// Every key is optional; texts are read as the command-line options read them (`--schedule`,
/// `--period-goal`, `--skip`, `--freezes`, `--habit`), and habits keep the file's order. A key the
/// file does not know is an error, so that a typo never goes unnoticed.
///
/// Each habit has a `name` and a `filter`, and may set its own `required`, `points` (`minutes`,
/// `count`, `x-points` or `property:NAME`), `schedule`, `freezes`, `periodGoal` and `atMost` (a
/// limit: met at or under `required`, `over` above it); what it does not set it takes from the
/// calendar's rules (`HabitRules`). `"habits": {"Piano": "categories:piano"}`, names and filters
/// alone, is read too.
///
/// A file is at most ``maximumBytes`` long, holds at most ``maximumEntries`` texts in each of
/// `schedule`, `skip` and `skipCategories` and at most ``maximumHabits`` habits, each filter at
/// most `SessionFilter.maximumTextLength` long and `SessionFilter.maximumDepth` deep; past a
/// limit, the error points at the first entry too many.
///
/// ```swift
/// let rules = try RulesFile(parsing: #"{"required": 30, "freezes": "2"}"#, file: "rules.json")
/// print(rules.rules.schedule.defaultPoints, rules.rules.freezes.budget)
/// // Prints "30 2"
/// ```
public struct RulesFile: Sendable {
    /// The rules the file gives (on top of `StreakRules()`).
    public var rules: StreakRules
    /// The file's habits, in its order.
    public var habits: [Habit]
    /// Whether the file names `required` (which then is the schedule's default).
    public var namesRequiredPoints: Bool { rules.schedule.givesDefaultPoints }
    /// The file's `weekStarts`, when it names one: the first day of its weekly goals' weeks (else
    /// Monday, or what the command line says: `--week-starts`, `--first-weekday`).
    public var weekStart: Weekday?

    /// The longest rules file, in bytes.
    public static let maximumBytes = 4 << 20
    /// The most texts each of `schedule`, `skip` and `skipCategories` may hold.
    public static let maximumEntries = 10_000
    /// The most habits a file (and a command line with it) may name.
    public static let maximumHabits = 50

    /// The keys a habit of a rules file may have.
    package static let habitKeys = ["name", "filter", "required", "points", "schedule", "freezes", "periodGoal", "atMost"]

    /// The keys a rules file may have.
    package static let keys = [
        "required", "schedule", "periodGoal", "weekStarts", "skip", "skipCategories", "skipWhen", "freezes", "todayGrace",
        "bestStreaks", "habits",
    ]

    /// Reads a rules file's text.
    ///
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - file: The file's name, for errors.
    /// - Throws: `RulesFileError`, with the line and column of the problem.
    public init(parsing text: String, file: String) throws(RulesFileError) {
        guard text.utf8.count <= Self.maximumBytes else {
            throw RulesFileError(.tooLarge, file: file, line: 1, column: 1, "a rules file is at most \(Self.maximumBytes) bytes (4 MiB)")
        }
        var reader = LocatedJSONReader(Array(text.utf8), file: file)
        let root = try reader.document()
        guard case .object(let members) = root.value else {
            throw RulesFileError(.invalidValue, file: file, line: root.line, column: root.column, "a rules file is a JSON object, such as {\"required\": 60}")
        }
        var reading = RulesFileReading(file: file)
        // The week's first day first: period goals, the calendar's and each habit's, read by it.
        for (key, value) in members where key.text == "weekStarts" { try reading.read(key, value) }
        for (key, value) in members where key.text != "weekStarts" { try reading.read(key, value) }
        try reading.readPeriodGoal()
        self.rules = reading.rules
        self.habits = reading.habits
        self.weekStart = reading.namesWeekStart ? reading.weekStarts : nil
    }

    /// A name as an error shows it: at most 40 characters.
    static func shown(_ name: String) -> String {
        name.count > 40 ? name.prefix(39) + "…" : name
    }

    /// A string, or an array of at most ``maximumEntries`` strings, with where each is.
    static func strings(_ value: LocatedJSON, key: String, file: String) throws(RulesFileError) -> [(text: String, line: Int, column: Int)] {
        switch value.value {
        case .string(let text): return [(text, value.line, value.column)]
        case .array(let items):
            if items.count > maximumEntries {
                let first = items[maximumEntries]
                throw RulesFileError(.tooMany, file: file, line: first.line, column: first.column, "\"\(key)\" holds at most \(maximumEntries) texts")
            }
            var result: [(text: String, line: Int, column: Int)] = []
            for item in items {
                guard case .string(let text) = item.value else {
                    throw RulesFileError(.invalidValue, file: file, line: item.line, column: item.column, "\"\(key)\" holds texts")
                }
                result.append((text, item.line, item.column))
            }
            return result
        default:
            throw RulesFileError(.invalidValue, file: file, line: value.line, column: value.column, "\"\(key)\" is a text or an array of texts")
        }
    }
}

/// A rules file's members read one at a time into rules and habits, each key by its own step.
private struct RulesFileReading {
    let file: String
    var rules = StreakRules()
    var habits: [Habit] = []
    var weekStarts = Weekday.monday
    var namesWeekStart = false
    /// `periodGoal` is read last, once `weekStarts` is known.
    var periodText: LocatedJSON?

    init(file: String) {
        self.file = file
    }

    private func error(_ message: String, at value: LocatedJSON, offset: Int = 0, code: RulesFileError.Code = .invalidValue) -> RulesFileError {
        RulesFileError(code, file: file, line: value.line, column: value.column + offset, message)
    }

    mutating func read(_ key: LocatedString, _ value: LocatedJSON) throws(RulesFileError) {
        switch key.text {
        case "required":
            guard case .number(let number) = value.value, let points = Int(exactly: number), GoalSchedule.pointsRange.contains(points) else {
                throw error("\"required\" is a whole number of points from 1 to \(GoalSchedule.maximumPoints)", at: value)
            }
            rules.schedule.defaultPoints = points
        case "schedule": try readSchedule(value)
        case "periodGoal": periodText = value
        case "weekStarts":
            guard case .string(let name) = value.value, let weekday = Weekday(name: name) else {
                throw error("\"weekStarts\" is a weekday, such as \"mon\"", at: value)
            }
            weekStarts = weekday
            namesWeekStart = true
        case "skip": try readSkip(value)
        case "skipCategories":
            for item in try RulesFile.strings(value, key: "skipCategories", file: file) {
                rules.skipCategories.insert(item.text.lowercased())
            }
        case "skipWhen":
            guard case .string(let text) = value.value else { throw error("\"skipWhen\" is a habit filter, such as \"summary:vacation\"", at: value) }
            do { rules.skipWhen = try SessionFilter(parsing: text) } catch { throw self.error("\"skipWhen\": " + error.message, at: value, offset: 1 + error.offset, code: .invalidRule) }
        case "freezes":
            guard case .string(let text) = value.value else { throw error("\"freezes\" is a text such as \"2\" or \"every 7, max 2\"", at: value) }
            do { rules.freezes = try FreezePolicy(parsing: text) } catch { throw self.error(error.message, at: value, offset: 1 + error.offset, code: .invalidRule) }
        case "todayGrace":
            guard case .bool(let grace) = value.value else { throw error("\"todayGrace\" is true or false", at: value) }
            rules.todayGrace = grace
        case "bestStreaks":
            guard case .number(let number) = value.value, let count = Int(exactly: number), (0...1000).contains(count) else {
                throw error("\"bestStreaks\" is a whole number from 0 to 1000", at: value)
            }
            rules.bestStreakCount = count
        case "habits": try readHabits(value)
        default:
            throw RulesFileError(
                .unknownKey, file: file, line: key.line, column: key.column,
                "unknown key \"\(key.text)\"; a rules file has \(RulesFile.keys.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }

    mutating func readSchedule(_ value: LocatedJSON) throws(RulesFileError) {
        for item in try RulesFile.strings(value, key: "schedule", file: file) {
            do { try rules.schedule.add(parsing: item.text) } catch {
                throw RulesFileError(.invalidRule, file: file, line: item.line, column: item.column + 1 + error.offset, error.message)
            }
        }
    }

    private mutating func readSkip(_ value: LocatedJSON) throws(RulesFileError) {
        for item in try RulesFile.strings(value, key: "skip", file: file) {
            guard let range = SkipRange(item.text) else {
                throw RulesFileError(.invalidValue, file: file, line: item.line, column: item.column,
                                     "\"\(item.text)\" is not a day or a range of days (YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD, in order)")
            }
            rules.skippedDays.append(range.days)
        }
    }

    /// `habits`: an array of habit objects, or an object of names and filters.
    private mutating func readHabits(_ value: LocatedJSON) throws(RulesFileError) {
        let count: Int
        switch value.value {
        case .object(let entries): count = entries.count
        case .array(let items): count = items.count
        default:
            throw error("\"habits\" is an array of habits, such as [{\"name\": \"Piano\", \"filter\": \"categories:piano\"}]", at: value)
        }
        if count > RulesFile.maximumHabits {
            let place: (line: Int, column: Int) = switch value.value {
            case .object(let entries): (entries[RulesFile.maximumHabits].key.line, entries[RulesFile.maximumHabits].key.column)
            case .array(let items): (items[RulesFile.maximumHabits].line, items[RulesFile.maximumHabits].column)
            default: (value.line, value.column)
            }
            throw RulesFileError(.tooMany, file: file, line: place.line, column: place.column, "a rules file names at most \(RulesFile.maximumHabits) habits")
        }
        switch value.value {
        case .object(let entries):
            for (name, filter) in entries { habits.append(try habit(named: name, filter: filter)) }
        case .array(let items):
            for item in items { habits.append(try habit(item)) }
        default: break
        }
    }

    /// A habit from its name and its filter's text.
    private func habit(named name: LocatedString, filter: LocatedJSON, rules: HabitRules = HabitRules()) throws(RulesFileError) -> Habit {
        guard case .string(let text) = filter.value else {
            throw RulesFileError(.invalidValue, file: file, line: filter.line, column: filter.column, "the filter of habit \"\(RulesFile.shown(name.text))\" is a text, such as \"categories:piano\"")
        }
        guard !name.text.isEmpty else {
            throw RulesFileError(.invalidValue, file: file, line: name.line, column: name.column, "a habit needs a name")
        }
        do { return Habit(name: name.text, filter: try SessionFilter(parsing: text), rules: rules) } catch {
            throw RulesFileError(
                .invalidRule, file: file, line: filter.line, column: filter.column + 1 + error.offset,
                "habit \"\(RulesFile.shown(name.text))\": \(error.message)")
        }
    }

    /// A habit object: `name`, `filter` and the rules it sets for itself.
    private func habit(_ item: LocatedJSON) throws(RulesFileError) -> Habit {
        guard case .object(let members) = item.value else {
            throw error("a habit is an object, such as {\"name\": \"Piano\", \"filter\": \"categories:piano\"}", at: item)
        }
        var name: LocatedString?
        var filter: LocatedJSON?
        var rules = HabitRules()
        for (key, value) in members {
            switch key.text {
            case "name":
                guard case .string(let text) = value.value else { throw error("a habit's \"name\" is a text", at: value) }
                name = LocatedString(text: text, line: value.line, column: value.column)
            case "filter": filter = value
            default: try readHabitRule(key, value, into: &rules)
            }
        }
        guard let name else { throw error("a habit needs a \"name\"", at: item) }
        guard let filter else { throw error("habit \"\(RulesFile.shown(name.text))\" needs a \"filter\", such as \"categories:piano\" or \"all\"", at: item) }
        return try habit(named: name, filter: filter, rules: rules)
    }

    /// One of a habit's own rules.
    private func readHabitRule(_ key: LocatedString, _ value: LocatedJSON, into rules: inout HabitRules) throws(RulesFileError) {
        // Read by the calendar's steps on rules of their own, then taken from them.
        var reading = RulesFileReading(file: file)
        reading.weekStarts = weekStarts
        switch key.text {
        case "required":
            try reading.read(key, value)
            rules.requiredPoints = reading.rules.schedule.defaultPoints
        case "schedule":
            try reading.readSchedule(value)
            rules.schedule = reading.rules.schedule.entries
        case "freezes":
            try reading.read(key, value)
            rules.freezes = reading.rules.freezes
        case "periodGoal":
            reading.periodText = value
            try reading.readPeriodGoal()
            rules.periodGoal = reading.rules.periodGoal
        case "atMost":
            guard case .bool(let atMost) = value.value else { throw error("\"atMost\" is true or false", at: value) }
            rules.atMost = atMost
        case "points":
            guard case .string(let text) = value.value, let points = HabitPoints(text) else {
                throw error("a habit's \"points\" is \"minutes\", \"count\", \"x-points\" or \"property:NAME\"", at: value)
            }
            rules.points = points
        default:
            throw RulesFileError(
                .unknownKey, file: file, line: key.line, column: key.column,
                "unknown key \"\(key.text)\"; a habit has \(RulesFile.habitKeys.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }

    mutating func readPeriodGoal() throws(RulesFileError) {
        guard let periodText else { return }
        guard case .string(let text) = periodText.value else {
            throw error("\"periodGoal\" is a text such as \"week:3 days\"", at: periodText)
        }
        do { rules.periodGoal = try PeriodGoal(parsing: text, firstWeekday: weekStarts) } catch {
            throw self.error(error.message, at: periodText, offset: 1 + error.offset, code: .invalidRule)
        }
    }
}

/// Days to skip as the command line and rules files write them: `YYYY-MM-DD` or
/// `YYYY-MM-DD..YYYY-MM-DD` (both included, the first not after the second).
public struct SkipRange: Hashable, Sendable {
    /// The days.
    public var days: ClosedRange<Day>

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: true)
        if parts.count == 1, !text.contains("."), let day = Day(text) {
            days = day...day
        } else if parts.count == 2, text.contains(".."), let first = Day(String(parts[0])), let last = Day(String(parts[1])), first <= last,
                  text == "\(parts[0])..\(parts[1])" {
            days = first...last
        } else {
            return nil
        }
    }
}

/// A rules file that cannot be used: where, what kind of problem, and what is wrong in words.
public struct RulesFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is: what a program decides by.
    public enum Code: String, Hashable, Sendable, Codable {
        /// More than ``RulesFile/maximumBytes`` bytes.
        case tooLarge = "too-large"
        /// Not JSON (``message`` says where it stops being JSON).
        case notJSON = "not-json"
        /// A key no rules file (or habit) has.
        case unknownKey = "unknown-key"
        /// A key given twice in one object.
        case duplicateKey = "duplicate-key"
        /// A value of the wrong kind or out of range: a number where a text belongs, 2000 best streaks.
        case invalidValue = "invalid-value"
        /// A rule written as text (a schedule, a period goal, freezes, a habit's filter) that
        /// cannot be read: the column is where in the text.
        case invalidRule = "invalid-rule"
        /// More entries or habits than a rules file may hold.
        case tooMany = "too-many"
    }

    public var file: String
    public var line: Int
    public var column: Int
    public var code: Code
    public var message: String

    public init(_ code: Code, file: String, line: Int, column: Int, _ message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `rules.json:3:15: error: message`, as diagnostics are written.
    public var description: String { "\(file):\(line):\(column): error: \(message)" }
}

/// A JSON value with the line and column (1-based, in bytes) where it starts.
struct LocatedJSON: Sendable {
    enum Value: Sendable {
        case object([(key: LocatedString, value: LocatedJSON)])
        case array([LocatedJSON])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    var value: Value
    var line: Int
    var column: Int
}

/// An object's key and where it is.
struct LocatedString: Sendable {
    var text: String
    var line: Int
    var column: Int
}

/// Reads a rules file's JSON (`JSONReader`) into located values, for errors that point into the
/// file; a key given twice in one object is an error, so that a typo never goes unnoticed.
struct LocatedJSONReader {
    private var reader: JSONReader
    private let file: String

    init(_ bytes: [UInt8], file: String) {
        reader = JSONReader(bytes)
        self.file = file
    }

    mutating func document() throws(RulesFileError) -> LocatedJSON {
        let root: JSONReader.Value
        do {
            root = try reader.document()
        } catch {
            throw RulesFileError(.notJSON, file: file, line: error.line, column: error.column, error.message)
        }
        return try located(root)
    }

    private func located(_ value: JSONReader.Value) throws(RulesFileError) -> LocatedJSON {
        let kind: LocatedJSON.Value
        switch value.kind {
        case .object(let members):
            var keys = Set<String>()
            var located: [(key: LocatedString, value: LocatedJSON)] = []
            for member in members {
                guard keys.insert(member.key).inserted else {
                    throw RulesFileError(.duplicateKey, file: file, line: member.line, column: member.column, "the key \"\(member.key)\" is given twice")
                }
                located.append((LocatedString(text: member.key, line: member.line, column: member.column), try self.located(member.value)))
            }
            kind = .object(located)
        case .array(let items):
            var located: [LocatedJSON] = []
            for item in items { located.append(try self.located(item)) }
            kind = .array(located)
        case .string(let string): kind = .string(string.text(in: reader.bytes))
        case .number(let text): kind = .number(Double(text) ?? .nan)
        case .bool(let flag): kind = .bool(flag)
        case .null: kind = .null
        }
        return LocatedJSON(value: kind, line: value.line, column: value.column)
    }
}
