/// How a day measures up against the goal.
public enum DayStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// No points at all.
    case none
    /// Some points, fewer than required.
    case partial
    /// At least the required points.
    case met
    /// The day requires no points (`GoalSchedule`): it neither breaks nor extends a streak.
    case rest
    /// The day is skipped (`StreakRules.skippedDays`, a skip category): it neither breaks nor
    /// extends a streak.
    case skipped
    /// A missed day covered by a freeze (`FreezePolicy`): it extends a streak as a met day does.
    case frozen
    /// Above the limit of an at-most goal (`StreakRules.atMost`): missed.
    case over
    /// After today: not scored yet. It neither breaks nor extends a streak, and the score, the
    /// streaks and freezes end with today (a report given `today`, ``StreakReport``).
    case upcoming
    /// Under a rolling goal (`7 days:3 days`): a day not met itself that lies in a window that
    /// holds the goal (``PeriodGoal``). It extends a streak as a met day does.
    case covered

    /// Whether the day (or period) extends a streak: `met`, `covered` and `frozen`.
    public var extendsStreak: Bool { self == .met || self == .covered || self == .frozen }

    /// Whether the day (or period) is passed over by a streak, the score and the weekday figures:
    /// `rest`, `skipped` and `upcoming`.
    public var isPassedOver: Bool { self == .rest || self == .skipped || self == .upcoming }
}

/// One day's total: its points, its number of sessions, what it required and its status.
///
/// As `Codable`, a total is `date`, `points`, `sessions` and `status` (`required` is read when present).
public struct DayTotal: Hashable, Sendable, Codable {
    /// The day.
    public var date: Day
    /// The sum of the points of the sessions that count toward the day.
    public var points: Int
    /// How many sessions count toward the day.
    public var sessions: Int
    /// The day's status against the goal.
    public var status: DayStatus
    /// The points the day required (0 on a rest day; 0 when not known, for totals made by
    /// `init(date:points:sessions:status:)`).
    public var required: Int

    public init(date: Day, points: Int, sessions: Int, status: DayStatus, required: Int) {
        self.date = date
        self.points = points
        self.sessions = sessions
        self.status = status
        self.required = required
    }

    /// A total whose requirement is not known (`required` is 0).
    public init(date: Day, points: Int, sessions: Int, status: DayStatus) {
        self.init(date: date, points: points, sessions: sessions, status: status, required: 0)
    }

    private enum CodingKeys: String, CodingKey { case date, points, sessions, status, required }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            date: try container.decode(Day.self, forKey: .date), points: try container.decode(Int.self, forKey: .points),
            sessions: try container.decode(Int.self, forKey: .sessions), status: try container.decode(DayStatus.self, forKey: .status),
            required: try container.decodeIfPresent(Int.self, forKey: .required) ?? 0)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(points, forKey: .points)
        try container.encode(sessions, forKey: .sessions)
        try container.encode(status, forKey: .status)
    }

    /// The day's points as a fraction of what it required, at most 1; `nil` when it required none.
    /// A met day is 1 and a day over an at-most limit 0, whatever its points.
    public var fraction: Double? {
        guard required > 0 else { return nil }
        switch status {
        case .met: return 1
        case .over: return 0
        case .upcoming: return nil
        default: return min(1, Double(points) / Double(required))
        }
    }
}

/// A week's or a month's total under a `PeriodGoal`.
public struct PeriodTotal: Hashable, Sendable {
    /// The period's days inside the report's window.
    public var days: ClosedRange<Day>
    /// The points of those days.
    public var points: Int
    /// How many of those days met their own requirement.
    public var metDays: Int
    /// What the period needed.
    public var target: PeriodGoal.Target
    /// `met` when the target is reached, `frozen` when a freeze covered it, `partial` or `none`
    /// by its progress, `skipped` when every day of it is skipped.
    public var status: DayStatus

    public init(days: ClosedRange<Day>, points: Int, metDays: Int, target: PeriodGoal.Target, status: DayStatus) {
        self.days = days
        self.points = points
        self.metDays = metDays
        self.target = target
        self.status = status
    }

    /// The progress toward the target, at most 1.
    public var fraction: Double {
        switch target {
        case .points(let points): min(1, Double(self.points) / Double(max(1, points)))
        case .metDays(let days): min(1, Double(metDays) / Double(max(1, days)))
        }
    }
}

/// A run of consecutive days (or periods) that met the goal, passing over rest and skipped days.
public struct Streak: Hashable, Sendable {
    /// The first day of the run, `nil` for an empty streak.
    public var start: Day?
    /// The last day of the run, `nil` for an empty streak.
    public var end: Day?
    /// The days (or, under a period goal, periods) that count: met and frozen ones; rest and skipped
    /// days between them do not.
    public var length: Int

    /// The empty streak.
    public static let empty = Streak(start: nil, end: nil)

    /// The run from `start` to `end`, every day of it counted.
    public init(start: Day?, end: Day?) {
        self.start = start
        self.end = end
        if let start, let end { self.length = start.distance(to: end) + 1 } else { self.length = 0 }
    }

    /// The run from `start` to `end`, both included, every day of it counted.
    public init(from start: Day, through end: Day) {
        self.init(start: start, end: end)
    }

    /// The run from `start` to `end` counting `length` days or periods.
    public init(from start: Day, through end: Day, length: Int) {
        self.start = start
        self.end = end
        self.length = length
    }
}

extension Streak: Codable {
    private enum CodingKeys: String, CodingKey { case length, start, end }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decodeIfPresent(Day.self, forKey: .start)
        let end = try container.decodeIfPresent(Day.self, forKey: .end)
        if let start, let end, let length = try container.decodeIfPresent(Int.self, forKey: .length) {
            self.init(from: start, through: end, length: length)
        } else {
            self.init(start: start, end: end)
        }
    }

    /// Encodes `length`, `start` and `end`; the days are `null` for an empty streak.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(length, forKey: .length)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
    }
}

/// What a day's points count, so that a report says "30 minutes a day" or "1 session a day"
/// rather than "points" when the points are minutes or sessions.
public enum PointsUnit: String, Hashable, Sendable, CaseIterable {
    /// A property's value (`X-POINTS`): the points are counted as themselves.
    case points
    /// Each session's length in whole minutes.
    case minutes
    /// One per session.
    case sessions

    /// The unit's name for one: "point", "minute", "session".
    public var singular: String {
        switch self {
        case .points: "point"
        case .minutes: "minute"
        case .sessions: "session"
        }
    }

    /// `count` in this unit, singular for 1: "1 point", "30 minutes", "2 sessions".
    public func describe(_ count: Int) -> String {
        count == 1 ? "\(count) \(singular)" : "\(count) \(rawValue)"
    }

    /// `count` right-aligned in `width` columns, then the unit's name, a space after the singular
    /// so that a column of them keeps one width: `"    20 points"`, `"     1 point "`.
    public func describe(_ count: Int, padded width: Int) -> String {
        let number = String(count)
        return String(repeating: " ", count: max(0, width - number.count)) + number + " " + (count == 1 ? singular + " " : rawValue)
    }

    /// The width of ``describe(_:padded:)`` with a width of 6: what a column of them takes.
    public var columnWidth: Int { 7 + rawValue.count }
}

/// The goal and the frame in which sessions are totalled and days scored.
public struct StreakGoal: Hashable, Sendable {
    /// The points a day needs to be `met`, in ``GoalSchedule/pointsRange``; another number stops the program.
    public var requiredPoints: Int {
        didSet { GoalSchedule.check(requiredPoints, in: GoalSchedule.pointsRange, "required points") }
    }
    /// What the points count, for the words reports use; scoring does not read it.
    public var unit: PointsUnit = .points
    /// The zone whose local days the sessions are totalled by.
    public var timeZone: TimeZoneRules
    /// When each day begins.
    public var dayStart: DayStart

    /// - Precondition: `requiredPoints` lies in ``GoalSchedule/pointsRange``.
    public init(requiredPoints: Int = 100, timeZone: TimeZoneRules, dayStart: DayStart = .midnight) {
        GoalSchedule.check(requiredPoints, in: GoalSchedule.pointsRange, "required points")
        self.requiredPoints = requiredPoints
        self.timeZone = timeZone
        self.dayStart = dayStart
    }

    /// The status of a day with `points` points.
    @inlinable
    public func status(forPoints points: Int) -> DayStatus {
        points <= 0 ? .none : points < requiredPoints ? .partial : .met
    }

    /// The local day, in this goal's zone and day start, that an instant belongs to.
    public func day(containing instant: Int64) -> Day {
        timeZone.localDateTime(at: instant).advanced(bySeconds: -Int64(dayStart.secondsAfterMidnight)).day
    }
}

/// Every day of a window scored against a goal and its rules, with the streaks.
///
/// ```swift
/// let report = StreakReport(sessions: sessions, goal: StreakGoal(timeZone: .utc),
///                           window: Day("2024-02-20")...Day("2024-02-26"))
/// print(report.longestStreak.length, report.currentStreak.length)
/// // Prints "2 2" for the tutorial's sample data
/// ```
///
/// With `StreakRules`, days can require different points (0 makes a rest day), be skipped or
/// frozen, and the streak can count weeks or months; see `init(sessions:goal:rules:window:)`.
public struct StreakReport: Hashable, Sendable {
    /// The zone and day start the days were totalled in; its `requiredPoints` is the rules'
    /// default requirement.
    public var goal: StreakGoal
    /// The rules the days were scored by.
    public var rules: StreakRules
    /// Every day of the window, ascending.
    public var days: [DayTotal]
    /// Under a period goal, every week or month that overlaps the window, ascending; else empty.
    public var periods: [PeriodTotal]
    /// The run of met (and frozen) days ending on the window's last day or, if that day is not
    /// met and `rules.todayGrace` holds (it is still open), on the day before; rest and skipped
    /// days are passed over. Under a period goal, a run of periods.
    public var currentStreak: Streak
    /// The longest run in the window; the earliest of equally long runs.
    public var longestStreak: Streak
    /// The longest runs, longest first (the earliest first among equally long ones), at most
    /// `rules.bestStreakCount` of them.
    public var bestStreaks: [Streak]
    /// Freezes held after the last day.
    public var freezesLeft: Int
    /// Freezes used (days or periods that are `frozen`).
    public var freezesUsed: Int
    /// Freezes earned by met days (`FreezePolicy.earnedEvery`), besides the budget.
    public var freezesEarned: Int
    /// The habit score after the last day, 0...1: it rises with each day's fraction of its goal and
    /// decays with missed days; rest, skipped and frozen days leave it as it is (Loop Habit
    /// Tracker's exponential score, `StreakReport.scoreMultiplier`), from ``scoreBeforeWindow``.
    public var score: Double
    /// The habit score on the day before the window: what the days read before it left
    /// (``DayTotals/report(from:to:today:)`` carries it in), 0 when none. Loop Habit Tracker scores
    /// a habit over its whole history and a window only chooses the days shown, so a report from
    /// a later day shows the same score (issue 46.8). Setting it scores the window's days again.
    public var scoreBeforeWindow: Double = 0 {
        didSet { score = Self.scores(of: days, todayGrace: rules.todayGrace, from: scoreBeforeWindow).last ?? scoreBeforeWindow }
    }
    /// All-day sessions that marked their days as skipped (`StreakRules.skipCategories`); their
    /// points do not count.
    public var skipMarkers: Int
    /// Minutes by weekday and hour in the report's zone, when counted
    /// (`ReportSettings.countsWeekdayHours`, which `--view hours` sets); else `nil`.
    public var weekdayHours: WeekdayHours?

    /// The first day of the window.
    public var from: Day { days.first?.date ?? Day(daysSince1970: 0) }
    /// The last day of the window.
    public var to: Day { days.last?.date ?? Day(daysSince1970: 0) }

    /// Totals `sessions` per day of `window` and scores the days against `goal`, in the simple
    /// case: every day requires `goal.requiredPoints`.
    ///
    /// Sessions whose day falls outside the window are not counted.
    public init<S: Sequence>(sessions: S, goal: StreakGoal, window: ClosedRange<Day>) where S.Element == Session {
        self.init(sessions: sessions, goal: goal, rules: StreakRules(requiredPoints: goal.requiredPoints), window: window)
    }

    /// Totals `sessions` per day of `window` in `goal`'s zone and day start, and scores the days
    /// by `rules` (whose schedule decides what each day requires; `goal.requiredPoints` is not used).
    ///
    /// ```swift
    /// var rules = StreakRules(requiredPoints: 100)
    /// rules.schedule.require(0, on: [.sunday])
    /// let report = StreakReport(sessions: sessions, goal: StreakGoal(timeZone: .utc), rules: rules,
    ///                           window: Day("2024-02-20")...Day("2024-02-26"))
    /// ```
    ///
    /// Sessions whose day falls outside the window are not counted, but those before it give the
    /// score its start (``scoreBeforeWindow``); all-day sessions with a skip category mark their
    /// days (inside the window) as skipped and count no points. The report is the one
    /// ``DayTotals`` gives for the same sessions: it is made by one.
    public init<S: Sequence>(sessions: S, goal: StreakGoal, rules: StreakRules, window: ClosedRange<Day>) where S.Element == Session {
        var totals = DayTotals(goal: goal, rules: rules)
        for session in sessions { totals.add(session) }
        self = totals.report(from: window.lowerBound, to: window.upperBound)
    }

    /// Scores days whose totals are already known, in the simple case: `points[i]` and
    /// `sessionCounts[i]` belong to `firstDay.advanced(by: i)`.
    public init(goal: StreakGoal, firstDay: Day, points: [Int], sessionCounts: [Int]) {
        self.init(goal: goal, rules: StreakRules(requiredPoints: goal.requiredPoints), firstDay: firstDay,
                  points: points, sessionCounts: sessionCounts)
    }

    /// Scores days whose totals are already known by `rules`: `points[i]`, `sessionCounts[i]` and
    /// `skipped[i]` (when given; a shorter array leaves the days after it unskipped) belong to
    /// `firstDay.advanced(by: i)`.
    ///
    /// Given `today`, the days after it are ``DayStatus/upcoming``: the days through today are
    /// scored as a window ending today would be (the current streak, freezes and the score end
    /// there, today-grace applying to today), and under a period goal a period after today is
    /// upcoming, the one holding today scored by its days so far.
    ///
    /// ```swift
    /// let report = StreakReport(goal: StreakGoal(timeZone: .utc), rules: StreakRules(requiredPoints: 100),
    ///                           firstDay: Day("2026-12-01"), points: [100, 100, 0, 0],
    ///                           sessionCounts: [1, 1, 0, 0], today: Day("2026-12-02"))
    /// print(report.days.map(\.status.rawValue), report.currentStreak.length)
    /// // Prints "["met", "met", "upcoming", "upcoming"] 2"
    /// ```
    public init(
        goal: StreakGoal, rules: StreakRules, firstDay: Day, points: [Int], sessionCounts: [Int],
        skipped: [Bool] = [], skipMarkers: Int = 0, today: Day? = nil
    ) {
        let scored = today.map { max(0, min(points.count, firstDay.distance(to: $0) + 1)) } ?? points.count
        guard scored < points.count else {
            self.init(scoring: goal, rules: rules, firstDay: firstDay, points: points, sessionCounts: sessionCounts,
                      skipped: skipped, skipMarkers: skipMarkers)
            return
        }
        self.init(scoring: goal, rules: rules, firstDay: firstDay, points: Array(points.prefix(scored)),
                  sessionCounts: Array(sessionCounts.prefix(scored)), skipped: Array(skipped.prefix(scored)), skipMarkers: skipMarkers)
        appendUpcoming(from: scored, firstDay: firstDay, points: points, sessionCounts: sessionCounts)
    }

    /// Adds the days from index `start` on as ``DayStatus/upcoming``, and, under a period goal,
    /// the periods after the scored ones (the one holding the last scored day taking its whole days).
    private mutating func appendUpcoming(from start: Int, firstDay: Day, points: [Int], sessionCounts: [Int]) {
        let daySchedule = rules.daySchedule
        let schedule = daySchedule.entries.isEmpty ? nil : daySchedule.lookup()
        for index in start..<points.count {
            let date = firstDay.advanced(by: index)
            let required = schedule?.requiredPoints(on: date) ?? daySchedule.defaultPoints
            days.append(DayTotal(
                date: date, points: points[index], sessions: index < sessionCounts.count ? sessionCounts[index] : 0, status: .upcoming,
                required: required))
        }
        guard let periodGoal = rules.periodGoal, let last = days.last?.date else { return }
        // The period holding today runs on to its end (or the window's); those after it are upcoming.
        if let open = periods.indices.last {
            let whole = periodGoal.period(containing: periods[open].days.lowerBound)
            periods[open].days = periods[open].days.lowerBound...min(whole.upperBound, last)
        }
        var next = periods.last.map { $0.days.upperBound.advanced(by: 1) } ?? firstDay.advanced(by: start)
        while next <= last {
            let whole = periodGoal.period(containing: next)
            periods.append(PeriodTotal(days: next...min(whole.upperBound, last), points: 0, metDays: 0, target: periodGoal.target, status: .upcoming))
            next = whole.upperBound.advanced(by: 1)
        }
    }

    /// Scores every day of `points` (see ``init(goal:rules:firstDay:points:sessionCounts:skipped:skipMarkers:today:)``).
    private init(
        scoring goal: StreakGoal, rules: StreakRules, firstDay: Day, points: [Int], sessionCounts: [Int],
        skipped: [Bool], skipMarkers: Int
    ) {
        var goal = goal
        let daySchedule = rules.daySchedule
        goal.requiredPoints = daySchedule.defaultPoints
        var days: [DayTotal] = []
        days.reserveCapacity(points.count)
        // Each day asks the schedule and the skipped ranges: in O(log n) and in passing, so that
        // thousands of entries over thousands of years cost no more than their sum.
        var skippedRanges = SkippedDayRanges(rules.skippedDays)
        let schedule = daySchedule.entries.isEmpty ? nil : daySchedule.lookup()
        for (index, dayPoints) in points.enumerated() {
            let date = firstDay.advanced(by: index)
            let required = schedule?.requiredPoints(on: date) ?? daySchedule.defaultPoints
            let isSkipped = (index < skipped.count && skipped[index])
                || (!skippedRanges.isEmpty && skippedRanges.contains(date.daysSince1970))
            let status: DayStatus =
                isSkipped ? .skipped
                : required == 0 ? .rest
                : rules.atMost ? (dayPoints <= required ? .met : .over)
                : dayPoints <= 0 ? .none
                : dayPoints < required ? .partial : .met
            let sessions = index < sessionCounts.count ? sessionCounts[index] : 0
            days.append(DayTotal(date: date, points: dayPoints, sessions: sessions, status: status, required: required))
        }
        self.goal = goal
        self.rules = rules
        self.skipMarkers = skipMarkers
        var periods: [PeriodTotal] = []
        var ledger = FreezeLedger(policy: rules.freezes)
        if let periodGoal = rules.periodGoal, periodGoal.isRolling {
            Self.cover(&days, by: periodGoal)
            Self.applyFreezes(to: &days, status: \.status, ledger: &ledger, todayGrace: rules.todayGrace)
            let runs = Self.runs(days.map { ($0.date, $0.date, $0.status) }, todayGrace: rules.todayGrace)
            (currentStreak, longestStreak, bestStreaks) = Self.streaks(runs, best: rules.bestStreakCount)
        } else if let periodGoal = rules.periodGoal {
            periods = Self.periods(of: days, goal: periodGoal, atMost: rules.atMost)
            Self.applyFreezes(to: &periods, status: \.status, ledger: &ledger, todayGrace: rules.todayGrace)
            let runs = Self.runs(periods.map { ($0.days.lowerBound, $0.days.upperBound, $0.status) }, todayGrace: rules.todayGrace)
            (currentStreak, longestStreak, bestStreaks) = Self.streaks(runs, best: rules.bestStreakCount)
        } else {
            Self.applyFreezes(to: &days, status: \.status, ledger: &ledger, todayGrace: rules.todayGrace)
            let runs = Self.runs(days.map { ($0.date, $0.date, $0.status) }, todayGrace: rules.todayGrace)
            (currentStreak, longestStreak, bestStreaks) = Self.streaks(runs, best: rules.bestStreakCount)
        }
        self.score = Self.scores(of: days, todayGrace: rules.todayGrace).last ?? 0
        self.days = days
        self.periods = periods
        self.freezesLeft = ledger.held
        self.freezesUsed = ledger.used
        self.freezesEarned = ledger.earned
    }

    /// Freezes as days are scored: held, used and earned.
    struct FreezeLedger {
        let policy: FreezePolicy
        var held: Int
        var used = 0
        var earned = 0
        var metSinceEarned = 0

        init(policy: FreezePolicy) {
            self.policy = policy
            self.held = min(policy.budget, policy.maximumHeld)
        }

        /// Counts a met day (or period) toward the next earned freeze.
        mutating func met() {
            guard let every = policy.earnedEvery else { return }
            metSinceEarned += 1
            guard metSinceEarned == every else { return }
            metSinceEarned = 0
            if held < policy.maximumHeld {
                held += 1
                earned += 1
            }
        }

        /// Uses a freeze for a missed day, if one is held.
        mutating func cover() -> Bool {
            guard held > 0 else { return false }
            held -= 1
            used += 1
            return true
        }
    }

    /// Turns missed days (or periods) into frozen ones while freezes are held and a streak stands
    /// to be protected; the open last one is left alone under today-grace.
    ///
    /// A freeze protects a streak that exists, as Duolingo's does: it is used only on a miss that
    /// follows a met unit, directly or through rest, skipped or frozen ones. Before the first met
    /// unit, and after a miss no freeze covered, there is no streak to protect and none is used
    /// (`..MM.MM` with one freeze is `..MMfMM`, not `f.MM.MM`).
    private static func applyFreezes<Unit>(
        to units: inout [Unit], status: WritableKeyPath<Unit, DayStatus>, ledger: inout FreezeLedger, todayGrace: Bool
    ) {
        guard !ledger.policy.isNone else { return }
        var streakStands = false
        for index in units.indices {
            switch units[index][keyPath: status] {
            case .met:
                ledger.met()
                streakStands = true
            case .none, .partial, .over:
                if todayGrace, index == units.count - 1 { continue }
                if streakStands, ledger.cover() {
                    units[index][keyPath: status] = .frozen
                } else {
                    streakStands = false
                }
            case .covered: streakStands = true
            case .rest, .skipped, .frozen, .upcoming: break
            }
        }
    }

    /// The weeks or months that overlap the days, with their progress toward `goal` (under
    /// `atMost`, a points target is a limit: met at or under it, `over` above it).
    private static func periods(of days: [DayTotal], goal: PeriodGoal, atMost: Bool) -> [PeriodTotal] {
        var periods: [PeriodTotal] = []
        var index = 0
        while index < days.count {
            let whole = goal.period(containing: days[index].date)
            let end = min(days.count - 1, index + days[index].date.distance(to: whole.upperBound))
            let slice = days[index...end]
            let points = slice.reduce(0) { saturatingSum($0, $1.points) }
            let metDays = slice.count { $0.status == .met }
            let reached: Bool
            let progress: Bool
            switch goal.target {
            case .points(let target): (reached, progress) = (points >= target, points > 0)
            case .metDays(let target): (reached, progress) = (metDays >= target, points > 0)
            }
            var status: DayStatus =
                slice.allSatisfy({ $0.status == .skipped }) ? .skipped
                : reached ? .met : progress ? .partial : .none
            if atMost, case .points(let limit) = goal.target, status != .skipped { status = points <= limit ? .met : .over }
            periods.append(PeriodTotal(
                days: days[index].date...days[end].date, points: points, metDays: metDays, target: goal.target, status: status))
            index = end + 1
        }
        return periods
    }

    /// The runs of streak-extending units (days or periods, as first day, last day and status),
    /// with whether the last one is still alive at the end.
    ///
    /// A run that a miss ends, ends with its last met (or covered) unit: frozen units after it bridged nothing,
    /// so a freeze never ends a streak (it was used all the same, and its day stays frozen). A run
    /// still alive at the end keeps them: they are what keeps it alive.
    private static func runs(_ units: [(first: Day, last: Day, status: DayStatus)], todayGrace: Bool) -> (runs: [Streak], lastIsCurrent: Bool) {
        var runs: [Streak] = []
        var start: Day?
        var end: Day?
        var length = 0
        // The run as of its last met unit: where it ends if a miss follows.
        var lastMet: (end: Day, length: Int)?
        for (index, unit) in units.enumerated() {
            if unit.status.extendsStreak {
                if start == nil { start = unit.first }
                end = unit.last
                length += 1
                if unit.status == .met || unit.status == .covered { lastMet = (unit.last, length) }
            } else if unit.status.isPassedOver || (todayGrace && index == units.count - 1) {
                continue
            } else {
                if let start, let lastMet { runs.append(Streak(from: start, through: lastMet.end, length: lastMet.length)) }
                start = nil
                end = nil
                length = 0
                lastMet = nil
            }
        }
        if let start, let end, lastMet != nil {
            runs.append(Streak(from: start, through: end, length: length))
            return (runs, true)
        }
        return (runs, false)
    }

    /// The current, the longest and the best streaks of the runs.
    private static func streaks(_ found: (runs: [Streak], lastIsCurrent: Bool), best: Int) -> (Streak, Streak, [Streak]) {
        let current = found.lastIsCurrent ? found.runs.last ?? .empty : .empty
        // Runs are in order: a stable sort by length keeps the earliest first among equals.
        let ranked = found.runs.enumerated()
            .sorted { ($0.element.length, -$0.offset) > ($1.element.length, -$1.offset) }
            .map(\.element)
        return (current, ranked.first ?? .empty, Array(ranked.prefix(max(0, best))))
    }

    /// How much of the score one day keeps: Loop Habit Tracker's `0.5^(sqrt(frequency) / 13)` for a
    /// daily habit (frequency 1), so a missed day halves the distance to 0 in 13 days.
    public static let scoreMultiplier = 0.948_072_403_884_921_9

    /// The score after the days, from `initial`: each scored day moves it toward its fraction of
    /// the goal; with `todayGrace`, a last day not met leaves it as it is (the day is still open).
    static func scores(of days: [DayTotal], todayGrace: Bool, from initial: Double = 0) -> [Double] {
        var score = initial
        var scores: [Double] = []
        scores.reserveCapacity(days.count)
        for (index, day) in days.enumerated() {
            defer { scores.append(score) }
            guard let fraction = day.fraction, !day.status.isPassedOver, day.status != .frozen else { continue }
            if todayGrace, index == days.count - 1, day.status != .met { continue }
            score = score * scoreMultiplier + fraction * (1 - scoreMultiplier)
        }
        return scores
    }

    /// The habit score after each day of the window, as ``score`` is after the last: Loop Habit
    /// Tracker's score over time.
    public var scoreHistory: [Double] { Self.scores(of: days, todayGrace: rules.todayGrace, from: scoreBeforeWindow) }

    /// The number of days with each status: `none`, `partial` and `met` always (0 when no day has
    /// it), `rest`, `skipped`, `frozen`, `over`, `upcoming` and `covered` when some day has it.
    public var statusCounts: [DayStatus: Int] {
        // Counted in integers, then put in a dictionary: a `DayStatus` key hashes its String
        // raw value, which costs more per day than the count itself.
        var none = 0, partial = 0, met = 0, rest = 0, skipped = 0, frozen = 0, over = 0, upcoming = 0, covered = 0
        for day in days {
            switch day.status {
            case .none: none += 1
            case .partial: partial += 1
            case .met: met += 1
            case .rest: rest += 1
            case .skipped: skipped += 1
            case .frozen: frozen += 1
            case .over: over += 1
            case .upcoming: upcoming += 1
            case .covered: covered += 1
            }
        }
        var counts: [DayStatus: Int] = [.none: none, .partial: partial, .met: met]
        if rest > 0 { counts[.rest] = rest }
        if skipped > 0 { counts[.skipped] = skipped }
        if frozen > 0 { counts[.frozen] = frozen }
        if over > 0 { counts[.over] = over }
        if upcoming > 0 { counts[.upcoming] = upcoming }
        if covered > 0 { counts[.covered] = covered }
        return counts
    }

    /// The sum of all days' points (saturating at `Int.max`).
    public var totalPoints: Int { days.reduce(0) { Self.saturatingSum($0, $1.points) } }

    /// `a + b`, or `Int.max` where that overflows (points are never negative).
    static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    /// The number of sessions counted in the window.
    public var totalSessions: Int { days.reduce(0) { $0 + $1.sessions } }

    /// The total for `day`, or `nil` outside the window.
    public func total(on day: Day) -> DayTotal? {
        guard let first = days.first else { return nil }
        let index = first.date.distance(to: day)
        return days.indices.contains(index) ? days[index] : nil
    }
}

extension StreakReport {
    /// The most days a report covers when the user names no first day: ten years up to its last
    /// day. A calendar with an event in year 1 would otherwise make a report of 2,000 years (a
    /// gigabyte of SVG); say so when it cuts (`defaultWindow(earliestSessionDay:to:)`).
    public static let maximumDefaultDays = 3_653

    /// The window a report covers when the user names no first day: from the day of the earliest
    /// session (or `to`, if there is none, or it is later) to `to`, at most `maximumDefaultDays`
    /// long; `cutOff` is the earliest session's day when the window starts after it.
    ///
    /// ```swift
    /// let (window, cutOff) = StreakReport.defaultWindow(
    ///     earliestSessionDay: Day("0001-01-01"), to: Day("2024-12-31"))
    /// print(window.lowerBound, cutOff!)
    /// // Prints "2015-01-01 0001-01-01"
    /// ```
    public static func defaultWindow(earliestSessionDay: Day?, to: Day) -> (window: ClosedRange<Day>, cutOff: Day?) {
        let earliest = min(earliestSessionDay ?? to, to)
        let limit = to.advanced(by: -(maximumDefaultDays - 1))
        return earliest < limit ? (limit...to, earliest) : (earliest...to, nil)
    }

    /// The window a report covers: `from...to` when the user names a first day, else
    /// `defaultWindow(earliestSessionDay:to:)`'s.
    ///
    /// - Parameters:
    ///   - sessions: The sessions to be totalled.
    ///   - goal: The zone and day start that decide each session's day.
    ///   - from: The first day the user asked for, if any.
    ///   - to: The last day: the user's, or today.
    public static func window<S: Sequence>(
        for sessions: S, goal: StreakGoal, from: Day?, to: Day
    ) -> ClosedRange<Day> where S.Element == Session {
        if let from { return from...max(from, to) }
        return defaultWindow(earliestSessionDay: earliestDay(of: sessions, goal: goal), to: to).window
    }

    /// The day of the earliest session, in the goal's zone and day start.
    public static func earliestDay<S: Sequence>(of sessions: S, goal: StreakGoal) -> Day? where S.Element == Session {
        var earliest: Day?
        for session in sessions {
            let day = session.day(in: goal.timeZone, dayStart: goal.dayStart)
            if earliest.map({ day < $0 }) ?? true { earliest = day }
        }
        return earliest
    }
}

/// Per-day totals accumulated one session at a time, for imports too large to keep their sessions.
///
/// ```swift
/// var totals = DayTotals(goal: goal)
/// for session in sessions { totals.add(session) }
/// let report = totals.report(from: nil, to: today)
/// ```
///
/// The report is the one `StreakReport(sessions:goal:window:)` gives for the same sessions and the
/// window `StreakReport.window(for:goal:from:to:)` chooses.
public struct DayTotals: Sendable {
    /// The zone and day start that decide each session's day, and the points a day needs.
    public let goal: StreakGoal
    /// The rules the report scores by.
    public let rules: StreakRules
    /// Points and sessions by day (days since 1970).
    private var totals = DayTable()
    /// The days that skip-marking sessions cover.
    private var skippedRanges: [ClosedRange<Day>] = []
    /// The day of the earliest session added, if any.
    public private(set) var earliestDay: Day?

    /// Totals for the simple case: every day requires `goal.requiredPoints`.
    public init(goal: StreakGoal) {
        self.init(goal: goal, rules: StreakRules(requiredPoints: goal.requiredPoints))
    }

    /// Totals for a report by `rules` (see `StreakReport.init(sessions:goal:rules:window:)`).
    public init(goal: StreakGoal, rules: StreakRules) {
        self.goal = goal
        self.rules = rules
    }

    /// Counts a session on its day, or marks its days as skipped when it is a skip marker.
    public mutating func add(_ session: Session) {
        if rules.isSkipMarker(session), let days = StreakRules.skippedDays(of: session) {
            skip(days)
            return
        }
        add(points: session.points, startingAt: session.start)
    }

    /// Marks days as skipped, as a skip marker over them does.
    public mutating func skip(_ days: ClosedRange<Day>) {
        skippedRanges.append(days)
    }

    /// Counts `points` on the day a session starting at `start` counts toward, as `add(_:)` counts
    /// a session that marks no skipped days: for a caller that has a session's start and points
    /// only, such as an import that counts its sessions without making them.
    ///
    /// ```swift
    /// var totals = DayTotals(goal: StreakGoal(requiredPoints: 30, timeZone: .utc))
    /// totals.add(points: 45, startingAt: .date(Day("2024-03-01")))
    /// print(totals.report(from: nil, to: Day("2024-03-01")).days[0].status)
    /// // Prints "met"
    /// ```
    public mutating func add(points: Int, startingAt start: SessionTime) {
        let day = start.day(in: goal.timeZone, dayStart: goal.dayStart)
        if earliestDay.map({ day < $0 }) ?? true { earliestDay = day }
        totals.count(max(0, points), on: day.daysSince1970)
    }

    /// The report from `from` (default: the earliest session's day, or `to`) through `to`, its
    /// score carried in from the days before `from` (``StreakReport/scoreBeforeWindow``).
    public func report(from: Day?, to: Day, today: Day? = nil) -> StreakReport {
        let window = from.map { $0...max($0, to) } ?? StreakReport.defaultWindow(earliestSessionDay: earliestDay, to: to).window
        var report = report(over: window, today: today)
        if let before = scoreBefore(window.lowerBound, today: today) { report.scoreBeforeWindow = before }
        return report
    }

    /// The days of `window` scored, as they stand.
    private func report(over window: ClosedRange<Day>, today: Day?) -> StreakReport {
        let first = window.lowerBound.daysSince1970
        let days = first...window.upperBound.daysSince1970
        let skipped = SkippedDayRanges(skippedRanges).flags(first: first, count: days.count)
        return StreakReport(
            goal: goal, rules: rules, firstDay: window.lowerBound,
            points: days.map { totals[$0].points }, sessionCounts: days.map { totals[$0].sessions },
            skipped: skipped, skipMarkers: skippedRanges.count, today: today)
    }

    /// The most days before a window its score is carried in from: a day's weight falls by
    /// `StreakReport.scoreMultiplier` with each scored day after it, so after twenty years of days
    /// it is below 10^-160 — and a stray date in the year 1 costs no more than that.
    static let scoredHistoryDays = 7_305

    /// The score the days read before `first` leave (at most ``scoredHistoryDays`` of them), or
    /// `nil` when no session came before it.
    private func scoreBefore(_ first: Day, today: Day?) -> Double? {
        guard let earliest = earliestDay, earliest < first else { return nil }
        let start = max(earliest, first.advanced(by: -Self.scoredHistoryDays))
        let history = report(over: start...first.advanced(by: -1), today: today)
        // Every day of the history is a past one: none is still open.
        return StreakReport.scores(of: history.days, todayGrace: false).last
    }
}

/// Points and sessions by day (days since 1970), counted one session at a time: the days of the
/// stretch around the first one counted (a report's years) in an array, one index per session;
/// days far from them, which a few stray dates can name (the year 9999), in a dictionary.
struct DayTable {
    private var first = 0
    private var dense: [(points: Int, sessions: Int)] = []
    private var sparse: [Int: (points: Int, sessions: Int)] = [:]

    /// The most days the array covers: about 180 years, 1 MiB.
    static let maximumDenseDays = 1 << 16

    /// Adds a session of `points` to `day`.
    mutating func count(_ points: Int, on day: Int) {
        if let index = index(of: day) {
            Self.count(points, in: &dense[index])
        } else {
            Self.count(points, in: &sparse[day, default: (0, 0)])
        }
    }

    /// The points and sessions of `day`.
    subscript(day: Int) -> (points: Int, sessions: Int) {
        if day >= first, day - first < dense.count { return dense[day - first] }
        return sparse[day] ?? (0, 0)
    }

    private static func count(_ points: Int, in totals: inout (points: Int, sessions: Int)) {
        totals.points = StreakReport.saturatingSum(totals.points, points)
        totals.sessions += 1
    }

    /// `day`'s place in the array, which grows (doubling, toward `day`) to hold it when that keeps
    /// it within `maximumDenseDays`; `nil` for a day the dictionary keeps. The array only grows
    /// toward days within `maximumDenseDays` of every day it holds, so a day the dictionary keeps
    /// never comes into it later: each day is in one of the two.
    private mutating func index(of day: Int) -> Int? {
        if day >= first, day - first < dense.count { return day - first }
        if dense.isEmpty {
            first = day - 512
            dense = Array(repeating: (0, 0), count: 2048)
            return 512
        }
        let low = min(first, day)
        let high = max(first + dense.count - 1, day)
        guard high - low < Self.maximumDenseDays else { return nil }
        let count = min(Self.maximumDenseDays, max(2 * dense.count, high - low + 1))
        let newFirst = day < first ? high - count + 1 : low
        var grown = Array(repeating: (points: 0, sessions: 0), count: count)
        grown.replaceSubrange((first - newFirst)..<(first - newFirst + dense.count), with: dense)
        dense = grown
        first = newFirst
        return day - first
    }
}

extension PointsUnit: Codable {}
