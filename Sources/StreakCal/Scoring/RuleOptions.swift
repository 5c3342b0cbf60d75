public import Streaks

/// What a caller adds on top of a rules file, as `streakcal`'s rule options do (`--required`,
/// `--schedule`, `--period-goal`, `--week-starts`, `--skip`, `--skip-category`, `--freezes`,
/// `--no-today-grace`, `--best-streaks`, `--habit`): set values replace the file's, lists add to it.
///
/// ```swift
/// let file = try RulesFile(parsing: #"{"required": 30, "habits": [{"name": "Piano", "filter": "all"}]}"#, file: "rules.json")
/// var options = RuleOptions()
/// options.freezes = FreezePolicy(budget: 1)
/// var settings = ReportSettings(timeZone: "UTC")
/// try settings.applyRules(file, options: options)
/// print(settings.requiredPoints, settings.streakRules.freezes.budget, settings.habits.map(\.name))
/// // Prints "30 1 ["Piano"]"
/// ```
public struct RuleOptions: Hashable, Sendable {
    /// The points a day requires: wins over the file's `required`. In `GoalSchedule.pointsRange`;
    /// another number stops the program when the rules are applied.
    public var requiredPoints: Int?
    /// Schedule entries after the file's (a later entry wins where both apply).
    public var schedule: [GoalSchedule.Entry] = []
    /// A period goal in place of the file's.
    public var periodGoal: PeriodGoal?
    /// The first day of the weeks of the weekly goals the file gives, its habits' included (a
    /// `periodGoal` here has its own).
    public var weekStarts: Weekday?
    /// Days skipped besides the file's.
    public var skippedDays: [ClosedRange<Day>] = []
    /// Skip categories besides the file's (compared without case).
    public var skipCategories: [String] = []
    /// Which all-day events mark their days as skipped, besides the file's `skipWhen` (either
    /// one marks them): a habit filter, such as `summary:vacation` (``/Streaks/StreakRules/skipWhen``).
    public var skipWhen: SessionFilter?
    /// Freezes in place of the file's.
    public var freezes: FreezePolicy?
    /// Today-grace in place of the file's.
    public var todayGrace: Bool?
    /// How many best streaks to list, in place of the file's.
    public var bestStreakCount: Int?
    /// Habits after the file's.
    public var habits: [Habit] = []

    public init() {}
}

/// Rules and habits that cannot go together: a habit named twice, or too many habits.
public struct RuleOptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable, Codable {
        /// Two habits of one name.
        case duplicateHabit = "duplicate-habit"
        /// More than ``RulesFile/maximumHabits`` habits.
        case tooManyHabits = "too-many-habits"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension ReportSettings {
    /// Takes a rules file's rules and habits (when given), then `options` on top of them: what
    /// `streakcal --rules FILE` with rule options does. The required points are the options',
    /// else the file's `required`, else these settings' own; each habit's own rules apply over
    /// the result (`HabitRules`).
    ///
    /// - Throws: `RuleOptionsError` when a habit is named twice or there are more than
    ///   `RulesFile.maximumHabits` habits in all.
    public mutating func applyRules(_ file: RulesFile?, options: RuleOptions = RuleOptions()) throws(RuleOptionsError) {
        // The daily goal given, if one was: under a period goal without one, days count as active.
        let own = streakRules.schedule
        let required = options.requiredPoints ?? (file?.namesRequiredPoints == true ? file?.rules.schedule.defaultPoints : nil)
            ?? (own.givesDefaultPoints ? own.defaultPoints : nil)
        var rules = file?.rules ?? StreakRules()
        rules.schedule.entries += options.schedule
        rules.periodGoal = options.periodGoal ?? Self.periodGoal(rules.periodGoal, weekStarts: options.weekStarts)
        rules.skippedDays += options.skippedDays
        rules.skipCategories.formUnion(options.skipCategories.map { $0.lowercased() })
        if let skipWhen = options.skipWhen { rules.skipWhen = rules.skipWhen.map { .or($0, skipWhen) } ?? skipWhen }
        if let freezes = options.freezes { rules.freezes = freezes }
        if let todayGrace = options.todayGrace { rules.todayGrace = todayGrace }
        if let bestStreakCount = options.bestStreakCount { rules.bestStreakCount = bestStreakCount }
        let fileHabits = (file?.habits ?? []).map { habit in
            var habit = habit
            habit.rules.periodGoal = Self.periodGoal(habit.rules.periodGoal, weekStarts: options.weekStarts)
            return habit
        }
        let habits = fileHabits + options.habits
        if let duplicate = Dictionary(grouping: habits, by: \.name).first(where: { $0.value.count > 1 })?.key {
            throw RuleOptionsError(.duplicateHabit, "the habit '\(duplicate.escapingControlCharacters())' is named twice.")
        }
        guard habits.count <= RulesFile.maximumHabits else {
            throw RuleOptionsError(.tooManyHabits, "at most \(RulesFile.maximumHabits) habits, the rules file's and the options' together, not \(habits.count).")
        }
        streakRules = rules
        if let required { requiredPoints = required }
        self.habits = habits
    }

    /// `goal` with its weeks starting on `weekStarts`, when both are given and it is a weekly goal.
    private static func periodGoal(_ goal: PeriodGoal?, weekStarts: Weekday?) -> PeriodGoal? {
        guard var goal, let weekStarts, case .week = goal.length else { return goal }
        goal.length = .week(firstWeekday: weekStarts)
        return goal
    }
}
