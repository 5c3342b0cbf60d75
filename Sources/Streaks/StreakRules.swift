/// What a streak means: how many points each day requires, which days are skipped, how missed days
/// can be frozen, whether the goal is per day or per week or month, and whether the open last day
/// may still be missing.
///
/// The default rules are StreakCal's simple case: every day requires the goal's points, no day is
/// skipped, nothing is frozen, and the last day of the window (today, still open) does not break the
/// current streak.
///
/// ```swift
/// var rules = StreakRules(requiredPoints: 60)
/// rules.schedule.require(0, on: [.saturday, .sunday])            // weekends are rest days
/// rules.skippedDays = [Day("2024-02-21")...Day("2024-02-22")]   // two days away
/// rules.freezes = FreezePolicy(budget: 1)                        // one missed day forgiven
/// print(rules.schedule.requiredPoints(on: Day("2024-02-24")))
/// // Prints "0"
/// ```
public struct StreakRules: Hashable, Sendable {
    /// The points each day requires; a day that requires 0 is a rest day.
    public var schedule: GoalSchedule
    /// A goal per week or month instead of per day: the streak then counts periods.
    public var periodGoal: PeriodGoal?
    /// Days that neither break nor extend a streak (vacations, sick days), besides the days of
    /// all-day events in `skipCategories`.
    public var skippedDays: [ClosedRange<Day>]
    /// Categories (compared without case) whose all-day events mark their days as skipped; those
    /// events count no points.
    public var skipCategories: Set<String>
    /// Which all-day events mark their days as skipped, by the habit filter language
    /// (``SessionFilter``: `summary:vacation`, any case; `summary~(?i)^sick`): for calendars without
    /// CATEGORIES (Google's exports), beside ``skipCategories``. Those events count no points.
    public var skipWhen: SessionFilter?
    /// How missed days can be covered.
    public var freezes: FreezePolicy
    /// Whether the window's last day, while it is not met, is passed over by the current streak
    /// (it is still open): `true` by default, as StreakCal has always done.
    public var todayGrace: Bool
    /// How many of the longest streaks `StreakReport.bestStreaks` lists.
    public var bestStreakCount: Int
    /// Whether the requirement is a limit, for a habit to cut down (at most one coffee, at most 60
    /// minutes of games): a day is `met` at or under its required points (none at all included)
    /// and `over` above them; a period goal of points is a limit too.
    public var atMost = false

    /// Rules with a constant daily requirement and nothing else: the simple case.
    ///
    /// - Parameter requiredPoints: What every day requires; `nil` (the default): 100 here, and
    ///   whatever `ReportSettings.requiredPoints` was when these rules are given to the settings
    ///   (so `settings.streakRules = StreakRules()` keeps the settings' goal).
    public init(requiredPoints: Int? = nil) {
        self.schedule = requiredPoints.map { GoalSchedule(requiredPoints: $0) } ?? GoalSchedule()
        self.periodGoal = nil
        self.skippedDays = []
        self.skipCategories = []
        self.freezes = .none
        self.todayGrace = true
        self.bestStreakCount = 5
    }

    /// Whether days are scored as active (any points: `met`) or not (`none`) rather than against
    /// a daily goal: under a period goal of points or days when no daily goal was given
    /// (`schedule.givesDefaultPoints` false), as Loop Habit Tracker's "3 times per week" counts
    /// days with a check. A month of `month:900 points` is met by its total; its days were
    /// coloured partial against a default of 100 a day that nobody set (issue 46.5). An at-most
    /// goal keeps its days' limit.
    public var scoresActiveDays: Bool {
        periodGoal != nil && !atMost && !schedule.givesDefaultPoints
    }

    /// The schedule days are scored by: ``schedule``, whose default is 1 point (any activity)
    /// when ``scoresActiveDays``.
    public var daySchedule: GoalSchedule {
        guard scoresActiveDays else { return schedule }
        var active = schedule
        active.defaultPoints = 1
        return active
    }

    /// Whether these are the simple case (`init(requiredPoints:)` with nothing changed but the
    /// required points and the number of best streaks): its reports are the ones StreakCal has
    /// always made, and renderers show nothing of the rules.
    public var isSimple: Bool {
        schedule.entries.isEmpty && periodGoal == nil && skippedDays.isEmpty && skipCategories.isEmpty && skipWhen == nil
            && freezes == .none && todayGrace && !atMost
    }

    /// Whether `session` marks its days as skipped: an all-day session with a category of
    /// `skipCategories`, or one `skipWhen` matches.
    public func isSkipMarker(_ session: Session) -> Bool {
        guard marksSkippedDays, session.isAllDay else { return false }
        return session.categories.contains { skipCategories.contains($0.lowercased()) } || skipWhen?.matches(session) == true
    }

    /// Whether some all-day events may mark days as skipped (`skipCategories` or `skipWhen`).
    public var marksSkippedDays: Bool { !skipCategories.isEmpty || skipWhen != nil }

    /// The days a skip-marking session covers: from its start date up to, not including, its end
    /// date (RFC 5545's exclusive DTEND), at least its first day.
    public static func skippedDays(of session: Session) -> ClosedRange<Day>? {
        skippedDays(from: session.start, to: session.end)
    }

    /// The days an all-day session from `start` to `end` covers; `nil` when it is not all-day.
    public static func skippedDays(from start: SessionTime, to end: SessionTime) -> ClosedRange<Day>? {
        guard case .date(let first) = start else { return nil }
        var last = first
        if case .date(let end) = end, end > first { last = end.advanced(by: -1) }
        return first...last
    }
}

/// The points each day requires: a default, and entries that set some weekdays from a day on.
///
/// Entries apply in order; for a day, the last entry that names its weekday and has begun decides,
/// else the default. So `mon-fri:60,sat-sun:0` and then `from 2024-06-01: 90` require 60 on
/// weekdays and nothing at weekends until May 31, and 90 every day from June 1.
///
/// ```swift
/// var schedule = GoalSchedule(requiredPoints: 100)
/// try schedule.add(parsing: "mon-fri:60,sat-sun:0")
/// try schedule.add(parsing: "from 2024-06-01: 90")
/// print(schedule.requiredPoints(on: Day("2024-05-31")), schedule.requiredPoints(on: Day("2024-06-01")))
/// // Prints "60 90"
/// ```
public struct GoalSchedule: Hashable, Sendable {
    /// Required points on the weekdays it names, from `start` on (`nil`: from the first day).
    public struct Entry: Hashable, Sendable {
        public var weekdays: Set<Weekday>
        /// In ``GoalSchedule/entryPointsRange`` (0: a rest day); another number stops the program.
        public var requiredPoints: Int {
            didSet { GoalSchedule.check(requiredPoints, in: GoalSchedule.entryPointsRange, "an entry's required points") }
        }
        public var start: Day?

        /// - Precondition: `requiredPoints` lies in ``GoalSchedule/entryPointsRange``.
        public init(weekdays: Set<Weekday>, requiredPoints: Int, start: Day? = nil) {
            GoalSchedule.check(requiredPoints, in: GoalSchedule.entryPointsRange, "an entry's required points")
            self.weekdays = weekdays
            self.requiredPoints = requiredPoints
            self.start = start
        }
    }

    /// The points a day requires when no entry names it, in ``pointsRange``: 100 until given.
    /// Another number stops the program (issue 50.3: 0 or −5 became 1 without a word); a number
    /// from elsewhere is checked against ``pointsRange`` first, as the rules file and the command
    /// line check theirs.
    public var defaultPoints: Int {
        get { givenDefaultPoints ?? Self.standardPoints }
        set {
            Self.check(newValue, in: Self.pointsRange, "required points")
            givenDefaultPoints = newValue
        }
    }
    /// The points a day can require: at least 1, at most ``maximumPoints``.
    public static let pointsRange = 1...maximumPoints
    /// The points an entry can require: 0 (a rest day) to ``maximumPoints``.
    public static let entryPointsRange = 0...maximumPoints

    /// Stops the program, naming what and the range, when `value` lies outside `range`: a number
    /// a rule cannot hold is a programmer's error, as an index out of range is.
    static func check(_ value: Int, in range: ClosedRange<Int>, _ what: @autoclosure () -> String) {
        precondition(range.contains(value), "\(what()) are \(range.lowerBound)...\(range.upperBound), not \(value)")
    }
    /// Whether `defaultPoints` was given (`init(requiredPoints:)` or set) rather than left at 100:
    /// `ReportSettings.streakRules` keeps the settings' own required points for a schedule
    /// that gives none.
    public var givesDefaultPoints: Bool { givenDefaultPoints != nil }
    private var givenDefaultPoints: Int?
    /// What a day requires when nothing says otherwise.
    public static let standardPoints = 100
    /// The entries, in the order they apply: a later one overrides an earlier one where both apply.
    public var entries: [Entry]

    /// Every day requires 100 points until `defaultPoints` is set.
    public init() {
        self.entries = []
    }

    /// Every day requires `requiredPoints`.
    ///
    /// - Precondition: `requiredPoints` lies in ``pointsRange``.
    public init(requiredPoints: Int) {
        Self.check(requiredPoints, in: Self.pointsRange, "required points")
        self.givenDefaultPoints = requiredPoints
        self.entries = []
    }

    /// Schedules are equal when they require the same points of every day, whether or not the
    /// default was given.
    public static func == (left: GoalSchedule, right: GoalSchedule) -> Bool {
        left.defaultPoints == right.defaultPoints && left.entries == right.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(defaultPoints)
        hasher.combine(entries)
    }

    /// Requires `points` on `weekdays` from `start` on (every day, and from the first day, by default).
    public mutating func require(_ points: Int, on weekdays: Set<Weekday> = Set(Weekday.allCases), from start: Day? = nil) {
        entries.append(Entry(weekdays: weekdays, requiredPoints: points, start: start))
    }

    /// The points `day` requires; 0 makes it a rest day. To ask for many days, use `lookup()`.
    public func requiredPoints(on day: Day) -> Int {
        let weekday = day.weekday
        for entry in entries.reversed() where entry.weekdays.contains(weekday) {
            if let start = entry.start, day < start { continue }
            return entry.requiredPoints
        }
        return defaultPoints
    }

    /// Adds the entries a schedule text gives, in the form `[from YYYY-MM-DD:] WEEKDAYS:POINTS[,...]`
    /// or `[from YYYY-MM-DD:] POINTS` (every day): `mon-fri:60,sat-sun:0`, `from 2024-06-01: 90`,
    /// `from 2025-01-01: sat:30`. Weekdays are `mon` ... `sun` (or their full names), ranges such as
    /// `mon-fri` or `fri-mon` (they wrap), `daily`, `weekdays` and `weekends`; weekdays listed
    /// before one with points share them (`mon,wed,fri:90`).
    ///
    /// - Throws: `StreakRulesSyntaxError`, with the offset (in characters) of the problem in `text`.
    public mutating func add(parsing text: String) throws(StreakRulesSyntaxError) {
        entries += try Self.entries(parsing: text)
    }

    /// The entries of a schedule text (see `add(parsing:)`), without adding them.
    public static func entries(parsing text: String) throws(StreakRulesSyntaxError) -> [Entry] {
        var scanner = RuleTextScanner(text)
        scanner.skipSpaces()
        var start: Day?
        if scanner.consumeWord("from") {
            scanner.skipSpaces()
            let offset = scanner.offset
            let word = scanner.take { $0 != ":" && $0 != " " }
            guard let day = Day(String(word)) else {
                throw StreakRulesSyntaxError(.syntax, "'from' takes a date, YYYY-MM-DD, not '\(word)'", offset: offset)
            }
            start = day
            scanner.skipSpaces()
            guard scanner.consume(":") else {
                throw StreakRulesSyntaxError(.syntax, "a ':' goes after 'from \(day)'", offset: scanner.offset)
            }
            scanner.skipSpaces()
        }
        if scanner.isAtEnd { throw StreakRulesSyntaxError(.syntax, "a schedule needs points, such as 60 or mon-fri:60", offset: scanner.offset) }
        var entries: [Entry] = []
        // Weekdays listed before the one that has points share them: `mon,wed,fri:90`.
        var pending: Set<Weekday> = []
        var pendingOffset = 0
        repeat {
            scanner.skipSpaces()
            let itemOffset = scanner.offset
            let item = scanner.take { $0 != "," }
            let parts = item.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let weekdays: Set<Weekday>
            let pointsText: Substring
            var pointsOffset = itemOffset
            if parts.count == 1 {
                if Int(parts[0].trimmingSpaces) == nil, let days = try? Self.weekdays(parsing: parts[0], offset: itemOffset) {
                    if pending.isEmpty { pendingOffset = itemOffset }
                    pending.formUnion(days)
                    continue
                }
                guard pending.isEmpty else {
                    throw StreakRulesSyntaxError(.syntax, "the weekdays before this need points, as in mon,wed:30", offset: itemOffset)
                }
                weekdays = Set(Weekday.allCases)
                pointsText = parts[0]
            } else {
                weekdays = try Self.weekdays(parsing: parts[0], offset: itemOffset).union(pending)
                pending = []
                pointsText = parts[1]
                pointsOffset += parts[0].count + 1
            }
            let trimmed = pointsText.trimmingSpaces
            guard let points = Int(trimmed), Self.entryPointsRange.contains(points) else {
                throw StreakRulesSyntaxError(
                    .syntax, "required points are a whole number from 0 to \(Self.maximumPoints), not '\(trimmed)'",
                    offset: pointsOffset + pointsText.prefix { $0 == " " }.count)
            }
            entries.append(Entry(weekdays: weekdays, requiredPoints: points, start: start))
        } while scanner.consume(",")
        guard pending.isEmpty else {
            throw StreakRulesSyntaxError(.syntax, "these weekdays need points, as in mon,wed:30", offset: pendingOffset)
        }
        return entries
    }

    /// The most points a schedule may require of a day.
    public static let maximumPoints = 1_000_000_000

    /// Weekdays as a schedule names them: `mon`, `monday`, `mon-fri`, `daily`, `weekdays`, `weekends`.
    static func weekdays(parsing text: Substring, offset: Int) throws(StreakRulesSyntaxError) -> Set<Weekday> {
        let trimmed = text.trimmingSpaces.lowercased()
        let leading = offset + text.prefix { $0 == " " }.count
        switch trimmed {
        case "daily", "all", "every day": return Set(Weekday.allCases)
        case "weekdays": return [.monday, .tuesday, .wednesday, .thursday, .friday]
        case "weekends", "weekend": return [.saturday, .sunday]
        default: break
        }
        let ends = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count <= 2, let first = Weekday(name: ends[0]), let last = Weekday(name: ends[ends.count - 1]) else {
            throw StreakRulesSyntaxError(
                .syntax, "'\(trimmed)' is not a weekday or a range of them (mon, tue, ..., sun; mon-fri; daily, weekdays, weekends)",
                offset: leading)
        }
        var days: Set<Weekday> = [first]
        var day = first
        while day != last {
            day = day.advanced(by: 1)
            days.insert(day)
        }
        return days
    }
}

extension Weekday {
    /// A weekday by its English name or its first three letters, in any case.
    public init?<S: StringProtocol>(name: S) {
        let lowered = name.lowercased()
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        guard lowered.count >= 3, let index = names.firstIndex(where: { $0.hasPrefix(lowered) }) else { return nil }
        self = Weekday.allCases[index]
    }

    /// The weekday's three-letter English name in lowercase: `mon`.
    public var shortName: String {
        ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][rawValue]
    }
}

/// A goal per week or per month, whose streak counts the periods that met it; or a goal in any
/// window of N days (a rolling goal, "3 days in any 7"), whose streak counts days.
///
/// ```swift
/// let goal = try PeriodGoal(parsing: "week:3 days", firstWeekday: .monday)
/// print(goal.period(containing: Day("2024-02-21")))
/// // Prints "2024-02-19...2024-02-25"
/// ```
///
/// A rolling goal (`7 days:3 days`, `7 days:300 points`) counts as Loop Habit Tracker counts its
/// frequency habits: a window of N days that begins on a met day (for points, a day with points) and
/// holds the goal makes its days count toward the streak; then, from the newest window back, a
/// window that overlaps the newer one moves back (into the past) until they only touch, as long as
/// it still holds the day that reached its goal (Loop's "interval snapping", `EntryList.kt`), so that
/// a streak grows as long as the goal is kept. The days a window covers that are not met themselves
/// are ``/Streaks/DayStatus/covered``. A calendar week (`week:3 days`) counts each Monday-to-Sunday
/// week as a whole instead: three days on Sunday and three on the next Tuesday meet a rolling goal
/// and miss neither week, while three days spread over a week's end miss both weeks of a calendar goal
/// when each holds only one or two.
public struct PeriodGoal: Hashable, Sendable {
    /// How long a period is.
    public enum Length: Hashable, Sendable {
        /// Seven days from the given weekday.
        case week(firstWeekday: Weekday)
        /// A calendar month.
        case month
        /// Any window of this many days (``PeriodGoal/rollingDays``): a rolling goal.
        case days(Int)
    }

    /// The lengths a rolling window may have, in days.
    public static let rollingDays = 2...366

    /// Whether the goal is a rolling one (``Length/days(_:)``): it marks days, not periods.
    public var isRolling: Bool {
        if case .days = length { return true }
        return false
    }

    /// What a period needs.
    public enum Target: Hashable, Sendable {
        /// At least this many points in all.
        case points(Int)
        /// At least this many days that met their own requirement.
        case metDays(Int)
    }

    public var length: Length
    /// At least 1 point or 1 day; another target stops the program.
    public var target: Target {
        didSet { Self.check(target) }
    }

    /// - Precondition: the target is at least 1 (point or day); `init(parsing:)` throws instead.
    public init(length: Length, target: Target) {
        Self.check(target)
        self.length = length
        self.target = target
    }

    /// Stops the program for a target of less than 1 (issue 50.3: 0 became 1 without a word).
    private static func check(_ target: Target) {
        switch target {
        case .points(let points): GoalSchedule.check(points, in: GoalSchedule.pointsRange, "a period's target points")
        case .metDays(let days): GoalSchedule.check(days, in: 1...Int.max, "a period's target days")
        }
    }

    /// A period goal as text: `week:300` or `week:300 points`, `week:3 days`, `month:20 days`.
    ///
    /// - Throws: `StreakRulesSyntaxError` with the offset of the problem.
    public init(parsing text: String, firstWeekday: Weekday = .monday) throws(StreakRulesSyntaxError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let unit = parts[0].trimmingSpaces.lowercased()
        let length: Length
        switch unit {
        case "week", "weekly": length = .week(firstWeekday: firstWeekday)
        case "month", "monthly": length = .month
        default:
            length = .days(try Self.rollingLength(unit))
        }
        guard parts.count == 2 else {
            throw StreakRulesSyntaxError(.syntax, "a period goal needs a target after ':', as in \(unit):3 days or \(unit):300 points", offset: text.count)
        }
        let offset = parts[0].count + 1
        let words = parts[1].split(separator: " ")
        guard (1...2).contains(words.count), let number = Int(words[0]), number >= 1, number <= GoalSchedule.maximumPoints else {
            throw StreakRulesSyntaxError(.syntax, "a period's target is a whole number of points or days, at least 1, such as 3 days", offset: offset)
        }
        let kind = words.count == 2 ? words[1].lowercased() : "points"
        switch kind {
        case "points", "point": self.init(length: length, target: .points(number))
        case "days", "day":
            let most = switch length {
            case .week: 7
            case .month: 31
            case .days(let days): days
            }
            guard number <= most else {
                throw StreakRulesSyntaxError(.outOfRange, "a \(unit) has at most \(most) days, not \(number)", offset: offset)
            }
            self.init(length: length, target: .metDays(number))
        default:
            throw StreakRulesSyntaxError(.syntax, "a period's target counts points or days, not '\(kind)'", offset: offset)
        }
    }

    /// The length of a rolling window, `N days` with N in ``rollingDays``.
    private static func rollingLength(_ unit: String) throws(StreakRulesSyntaxError) -> Int {
        let words = unit.split(separator: " ")
        guard words.count == 2, ["days", "day"].contains(words[1]), let days = Int(words[0]) else {
            throw StreakRulesSyntaxError(.syntax, "a period goal starts with week, month or N days, as in week:3 days or '7 days:3 days', not '\(unit)'", offset: 0)
        }
        guard rollingDays.contains(days) else {
            throw StreakRulesSyntaxError(.outOfRange, "a rolling window is \(rollingDays.lowerBound) to \(rollingDays.upperBound) days, not \(days)", offset: 0)
        }
        return days
    }

    /// The period `day` falls in: for a rolling goal, which has no fixed periods, the day itself.
    public func period(containing day: Day) -> ClosedRange<Day> {
        switch length {
        case .days:
            return day...day
        case .week(let firstWeekday):
            let first = day.advanced(by: -day.weekday.daysSince(firstWeekday))
            return first...first.advanced(by: 6)
        case .month:
            let first = day.firstOfMonth
            return first...first.advanced(by: Day.daysInMonth(year: first.year, month: first.month) - 1)
        }
    }

    /// The unit a streak of these periods counts: `week` or `month`; `day` for a rolling goal.
    public var unitName: String {
        switch length {
        case .week: "week"
        case .month: "month"
        case .days: "day"
        }
    }
}

/// How missed days can be covered by freezes (as Duolingo's streak freezes): a missed day, while a
/// freeze is held, is `frozen` instead, and uses the freeze.
///
/// Freezes come from a budget held from the first day and, with `earnedEvery`, one more after
/// every so many met days (counted over the whole window); no more than `maximumHeld` are held at
/// once (one earned beyond that is not kept). A frozen day extends a streak as a met day does, but
/// earns nothing.
///
/// ```swift
/// let policy = FreezePolicy(budget: 0, earnedEvery: 7, maximumHeld: 2)  // one per week of met days
/// print(policy.isNone)
/// // Prints "false"
/// ```
public struct FreezePolicy: Hashable, Sendable {
    /// Freezes held on the first day, in ``countRange``.
    public var budget: Int {
        didSet { GoalSchedule.check(budget, in: Self.countRange, "a freeze budget") }
    }
    /// One freeze more after every this many met days (at least 1); `nil`: none are earned.
    public var earnedEvery: Int? {
        didSet { earnedEvery.map { GoalSchedule.check($0, in: 1...Int.max, "met days a freeze is earned by") } }
    }
    /// The most freezes held at once, at least 0.
    public var maximumHeld: Int {
        didSet { GoalSchedule.check(maximumHeld, in: 0...Int.max, "freezes held") }
    }
    /// The freezes a budget can give: 0 to 1,000,000.
    public static let countRange = 0...1_000_000

    /// No freezes at all.
    public static let none = FreezePolicy(budget: 0, earnedEvery: nil, maximumHeld: 0)

    /// - Precondition: `budget` lies in ``countRange``, `earnedEvery` is at least 1 and
    ///   `maximumHeld` at least 0 (issue 50.3: −3 became 0 without a word); `init(parsing:)` throws instead.
    public init(budget: Int = 0, earnedEvery: Int? = nil, maximumHeld: Int = .max) {
        GoalSchedule.check(budget, in: Self.countRange, "a freeze budget")
        earnedEvery.map { GoalSchedule.check($0, in: 1...Int.max, "met days a freeze is earned by") }
        GoalSchedule.check(maximumHeld, in: 0...Int.max, "freezes held")
        self.budget = budget
        self.earnedEvery = earnedEvery
        self.maximumHeld = maximumHeld
    }

    /// Whether no freeze can ever be held.
    public var isNone: Bool { (budget == 0 && earnedEvery == nil) || maximumHeld == 0 }

    /// A policy as text: `N` (a budget of N), or `every K[, max M]` (earned, K at least 1), or both
    /// joined with `+`: `2 + every 7, max 3`.
    ///
    /// - Throws: `StreakRulesSyntaxError` with the offset of the problem.
    public init(parsing text: String) throws(StreakRulesSyntaxError) {
        var budget = 0
        var every: Int?
        var maximum = Int.max
        // Where a word starts in `text`, for the error's caret: `part` and its words share its indices.
        func position(_ word: Substring) -> Int { text.distance(from: text.startIndex, to: word.startIndex) }
        for part in text.split(separator: "+", omittingEmptySubsequences: false) {
            let words = part.split { $0 == " " || $0 == "," }
            func number(_ word: Substring) throws(StreakRulesSyntaxError) -> Int {
                guard let value = Int(word), Self.countRange.contains(value) else {
                    throw StreakRulesSyntaxError(.syntax, "freezes are counted in whole numbers from 0 to 1000000, not '\(word)'", offset: position(word))
                }
                return value
            }
            if words.count == 1 {
                budget += try number(words[0])
            } else if words.count >= 2, words[0].lowercased() == "every" {
                let count = try number(words[1])
                guard count >= 1 else {
                    throw StreakRulesSyntaxError(.outOfRange, "freezes are earned every 1 or more met days, not every 0", offset: position(words[1]))
                }
                every = count
                if words.count == 4, words[2].lowercased() == "max" {
                    maximum = try number(words[3])
                } else if words.count != 2 {
                    throw StreakRulesSyntaxError(.syntax, "write earned freezes as 'every K' or 'every K, max M'", offset: position(words[2]))
                }
            } else {
                throw StreakRulesSyntaxError(
                    .syntax, "freezes are 'N' (a budget), 'every K, max M' (earned) or both joined with '+'", offset: position(words.first ?? part))
            }
        }
        self.init(budget: budget, earnedEvery: every, maximumHeld: maximum)
    }
}

/// A rule written as text that cannot be read: what kind of problem, what is wrong in words, and
/// where (characters from the start).
public struct StreakRulesSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable, Codable {
        /// The text does not follow the rule's grammar (a word where a number belongs, a missing ':').
        case syntax
        /// A number outside what the rule allows (a week of 8 days, a target of 0, freezes past 1,000,000).
        case outOfRange = "out-of-range"
        /// A text longer, or nested deeper, than a rule may be.
        case tooLong = "too-long"
        /// A regular expression (`summary~`) that cannot be read.
        case pattern
    }

    public var code: Code
    public var message: String
    /// The offset, in characters, of the problem in the text.
    public var offset: Int

    public init(_ code: Code, _ message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String { message }
}

/// Reads rule texts one character at a time.
struct RuleTextScanner {
    private let characters: [Character]
    private(set) var offset = 0

    init(_ text: String) {
        characters = Array(text)
    }

    var isAtEnd: Bool { offset >= characters.count }

    mutating func skipSpaces() {
        while offset < characters.count, characters[offset] == " " { offset += 1 }
    }

    mutating func consume(_ character: Character) -> Bool {
        guard offset < characters.count, characters[offset] == character else { return false }
        offset += 1
        return true
    }

    /// Consumes `word` (in any case) when it stands alone, followed by a space or the end.
    mutating func consumeWord(_ word: String) -> Bool {
        let end = offset + word.count
        guard end <= characters.count, String(characters[offset..<end]).lowercased() == word,
              end == characters.count || characters[end] == " " else { return false }
        offset = end
        return true
    }

    mutating func take(while predicate: (Character) -> Bool) -> Substring {
        let start = offset
        while offset < characters.count, predicate(characters[offset]) { offset += 1 }
        return Substring(String(characters[start..<offset]))
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return result
    }
}

extension GoalSchedule: CustomStringConvertible {
    /// The schedule in its own text form, entries joined with `; `: `100 a day; mon-fri:60,sat-sun:0;
    /// from 2024-06-01: daily:90`.
    public var description: String {
        var parts = ["\(defaultPoints) a day"]
        var index = 0
        while index < entries.count {
            // Consecutive entries with the same start were one text: join them again.
            let start = entries[index].start
            var items: [String] = []
            while index < entries.count, entries[index].start == start {
                items.append("\(Self.describe(entries[index].weekdays)):\(entries[index].requiredPoints)")
                index += 1
            }
            parts.append((start.map { "from \($0): " } ?? "") + items.joined(separator: ","))
        }
        return parts.joined(separator: "; ")
    }

    /// Weekdays as the shortest text that names them, Monday first: `daily`, `mon-fri`, `sat-sun`,
    /// `mon,wed,fri`.
    static func describe(_ weekdays: Set<Weekday>) -> String {
        if weekdays.count == 7 { return "daily" }
        let order = (0..<7).map { Weekday.monday.advanced(by: $0) }
        var runs: [String] = []
        var index = 0
        while index < order.count {
            guard weekdays.contains(order[index]) else { index += 1; continue }
            let first = index
            while index + 1 < order.count, weekdays.contains(order[index + 1]) { index += 1 }
            runs.append(first == index ? order[first].shortName : "\(order[first].shortName)-\(order[index].shortName)")
            index += 1
        }
        return runs.joined(separator: ",")
    }
}

extension PeriodGoal: CustomStringConvertible {
    /// `week:3 days`, `month:300 points`, `7 days:3 days`, as `init(parsing:)` reads them.
    public var description: String {
        let length = if case .days(let days) = self.length { "\(days) days" } else { unitName }
        return switch target {
        case .points(let points): "\(length):\(points) \(points == 1 ? "point" : "points")"
        case .metDays(let days): "\(length):\(days) \(days == 1 ? "day" : "days")"
        }
    }

    /// How a goal's words end: `a week`, `a month`, `in any 7 days`.
    public var span: String {
        switch length {
        case .week: "a week"
        case .month: "a month"
        case .days(let days): "in any \(days) days"
        }
    }
}

extension FreezePolicy: CustomStringConvertible {
    /// `2`, `every 7, max 3` or `2 + every 7, max 3`, as `init(parsing:)` reads them; `0` for none.
    public var description: String {
        var parts: [String] = []
        if budget > 0 || earnedEvery == nil { parts.append("\(budget)") }
        if let earnedEvery {
            parts.append("every \(earnedEvery)" + (maximumHeld == .max ? "" : ", max \(maximumHeld)"))
        }
        return parts.joined(separator: " + ")
    }
}
