import Foundation
public import ICalendar
public import Streaks

/// One calendar's own settings in a batch, over the batch's: its zone, its goal, where its points
/// come from, when its days begin, its habits. From a settings file (`streakcal batch --settings`,
/// ``BatchSettingsFile``) or a JSON Lines record's keys; what is not given is the batch's.
///
/// The keys are `tz`, `required`, `points`, `dayStart` and `habits`, as the options `--tz`,
/// `--required`, `--points`, `--day-start` and `--habit` read them; each value is checked when
/// read, so that a typo fails its row rather than scoring 200 calendars in UTC.
///
/// ```swift
/// let overrides = try CalendarOverrides(values: ["tz": "Europe/Berlin", "required": "30"])
/// let settings = overrides.applied(to: ReportSettings(requiredPoints: 60))
/// print(settings.timeZone?.identifier ?? "", settings.requiredPoints)
/// // Prints "Europe/Berlin 30"
/// ```
public struct CalendarOverrides: Hashable, Sendable {
    /// The report's zone.
    public var timeZone: TimeZoneRules?
    /// The points a day needs, in `GoalSchedule.pointsRange` (`init(values:habitList:)` checks a
    /// text's; another number stops the program when applied).
    public var requiredPoints: Int?
    /// Where points come from.
    public var pointsRule: PointsRule?
    /// When each day begins.
    public var dayStart: DayStart?
    /// The named habits, in place of the batch's.
    public var habits: [Habit]?

    /// The keys a settings file's header or a record may name, besides `path` (and a record's `id`).
    package static let keys = ["tz", "required", "points", "dayStart", "habits"]

    public init(timeZone: TimeZoneRules? = nil, requiredPoints: Int? = nil, pointsRule: PointsRule? = nil, dayStart: DayStart? = nil, habits: [Habit]? = nil) {
        self.timeZone = timeZone
        self.requiredPoints = requiredPoints
        self.pointsRule = pointsRule
        self.dayStart = dayStart
        self.habits = habits
    }

    /// Reads values as the options read them; an empty value is not given. `habits` holds
    /// `NAME=FILTER` habits separated by `;` (a JSON settings file or record gives a list).
    ///
    /// - Throws: What is wrong with the first value that cannot be read, naming its key.
    public init(values: [String: String], habitList: [String]? = nil) throws(CalendarOverrides.Problem) {
        self.init()
        for (key, value) in values where !value.isEmpty {
            try read(key: key, value: value)
        }
        if let habitList { habits = try Self.habits(habitList) }
    }

    /// Why a value cannot be taken.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The key whose value is wrong.
        public var key: String
        /// What is wrong with it.
        public var reason: String
        public var description: String { "\"\(key)\": \(reason)" }
    }

    private mutating func read(key: String, value: String) throws(Problem) {
        let shown = value.escapingControlCharacters()
        switch key {
        case "tz":
            if let problem = TimeZoneRules.offsetSpellingProblem(value) { throw Problem(key: key, reason: problem) }
            guard let zone = TimeZoneRules(identifier: value) else {
                throw Problem(key: key, reason: "unknown time zone '\(shown)'; use an IANA name such as Europe/Berlin")
            }
            timeZone = zone
        case "required":
            guard let points = Int(value.trimmingCharacters(in: .whitespaces)), GoalSchedule.pointsRange.contains(points) else {
                throw Problem(key: key, reason: "'\(shown)' is not a whole number from 1 to 1000000000")
            }
            requiredPoints = points
        case "points":
            guard let rule = Self.pointsRules[value] else {
                throw Problem(key: key, reason: "'\(shown)' is none of auto, x-points, minutes and count")
            }
            pointsRule = rule
        case "dayStart":
            guard let start = DayStart(value) else { throw Problem(key: key, reason: "'\(shown)' is not a time HH:MM") }
            dayStart = start
        case "habits":
            habits = try Self.habits(value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        default:
            throw Problem(key: key, reason: "not a setting (the keys are path, \(Self.keys.joined(separator: ", ")))")
        }
    }

    /// `--points`' words; `auto` and `x-points` read the batch's property (see ``applied(to:)``).
    private static let pointsRules: [String: PointsRule] = [
        "auto": .auto, "x-points": .xPoints, "minutes": .minutes, "count": .count,
    ]

    /// Habits as `--habit` reads them, named once each.
    private static func habits(_ texts: [String]) throws(Problem) -> [Habit] {
        var habits: [Habit] = []
        for text in texts {
            do {
                habits.append(try Habit(parsing: text))
            } catch {
                throw Problem(key: "habits", reason: "'\(text.escapingControlCharacters())': \(error.message)")
            }
        }
        if let twice = Dictionary(grouping: habits, by: \.name).first(where: { $0.value.count > 1 })?.key {
            throw Problem(key: "habits", reason: "the habit '\(twice.escapingControlCharacters())' is named twice")
        }
        return habits
    }

    /// Whether nothing is given.
    public var isEmpty: Bool { self == CalendarOverrides() }

    /// `settings` with what is given here in place of theirs. `auto` and `x-points` keep the
    /// property the batch's settings read (`--points-property`).
    public func applied(to settings: ReportSettings) -> ReportSettings {
        var settings = settings
        if let timeZone { settings.timeZone = timeZone }
        if let requiredPoints { settings.requiredPoints = requiredPoints }
        if let dayStart { settings.dayStart = dayStart }
        if let habits { settings.habits = habits }
        if let pointsRule {
            let property = settings.pointsRule.propertyName ?? "X-POINTS"
            switch pointsRule {
            case .automatic: settings.pointsRule = .automatic(property)
            case .property: settings.pointsRule = .property(property)
            case .minutes, .count: settings.pointsRule = pointsRule
            }
        }
        return settings
    }

    /// The settings as the words a settings file uses, for `--dry-run` and the manifest: each
    /// given key with its value, in the order `tz`, `required`, `points`, `dayStart`, `habits`.
    public var summary: [(key: String, value: String)] {
        var parts: [(String, String)] = []
        if let timeZone { parts.append(("tz", timeZone.identifier)) }
        if let requiredPoints { parts.append(("required", String(requiredPoints))) }
        if let pointsRule { parts.append(("points", Self.pointsRules.first { $0.value == pointsRule }?.key ?? "auto")) }
        if let dayStart { parts.append(("dayStart", dayStart.description)) }
        if let habits { parts.append(("habits", habits.map(\.name).joined(separator: ";"))) }
        return parts
    }
}
