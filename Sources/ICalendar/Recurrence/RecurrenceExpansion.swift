public import Streaks

/// How far recurring events are expanded into sessions.
///
/// Expansion is bounded: only instances whose start falls within the window (with two days of margin
/// for time zones and day starts) become sessions, and a rule never yields more than
/// `maximumInstancesPerRule` of them; an endless rule costs what the window holds, not what it could.
///
/// ```swift
/// let expansion = RecurrenceExpansion(from: Day("2024-01-01"),
///                                     through: Day("2024-12-31"))
/// let importer = SessionImporter(pointsRule: .xPoints, expansion: expansion)
/// ```
public struct RecurrenceExpansion: Hashable, Sendable {
    /// The first day whose instances are wanted; `nil` for every instance from each series' start.
    public var from: Day?
    /// The last day whose instances are wanted.
    public var through: Day
    /// The most instances one RRULE, EXRULE or RDATE list may add; more ends the series with a warning.
    public var maximumInstancesPerRule: Int

    /// The default cap: an hourly rule over 22 years, a daily one over 500; no real calendar reaches it.
    public static let defaultMaximumInstancesPerRule = 200_000

    public init(from: Day? = nil, through: Day, maximumInstancesPerRule: Int = defaultMaximumInstancesPerRule) {
        self.from = from
        self.through = through
        self.maximumInstancesPerRule = max(1, maximumInstancesPerRule)
    }

    /// Every instance from each series' start up to a year after `today` (UTC).
    public static func untilNextYear(today: Day) -> RecurrenceExpansion {
        RecurrenceExpansion(through: today.advanced(by: 366))
    }

    /// Days of margin either side of the window: a report zone and day start can move an instance's
    /// day by up to a day and a half from its UTC or wall-clock date.
    public static let marginDays = 2

    /// The dates whose RDATE and EXDATE values can give or take an instance of the window (with a
    /// day more than the margins, for values in another zone than their series').
    var wantedDays: ClosedRange<Day> {
        let margin = Self.marginDays + 1
        let last = through.advanced(by: margin)
        return min(from.map { $0.advanced(by: -margin) } ?? Day(daysSince1970: -1 << 40), last)...last
    }
}

/// The clock a series is computed on: RFC 5545 computes instances in the start's own time zone.
enum SeriesClock {
    /// All-day series: days.
    case date
    /// Floating wall-clock times.
    case floating
    /// UTC times.
    case utc
    /// Wall-clock times in a zone, converted with its rules (gap and overlap rules included).
    case zoned(TimeZoneRules)

    /// The instance's identity within the series: a day number, wall-clock seconds or an instant.
    func key(_ local: LocalDateTime) -> Int64 {
        switch self {
        case .date: Int64(local.day.daysSince1970)
        case .floating, .utc: local.secondsSince1970
        case .zoned(let rules): rules.instant(for: local)
        }
    }

    /// `key(_:)` for times in ascending order, `hint` kept from one to the next
    /// (`TimeZoneRules.instant(for:hint:)`).
    func key(_ local: LocalDateTime, hint: inout Int) -> Int64 {
        switch self {
        case .date: Int64(local.day.daysSince1970)
        case .floating, .utc: local.secondsSince1970
        case .zoned(let rules): rules.instant(for: local, hint: &hint)
        }
    }

    func sessionTime(_ local: LocalDateTime) -> SessionTime {
        switch self {
        case .date: .date(local.day)
        case .floating: .floating(local)
        case .utc: .instant(secondsSince1970: local.secondsSince1970)
        case .zoned(let rules): .instant(secondsSince1970: rules.instant(for: local))
        }
    }

    /// The wall-clock value of a session time on this clock.
    func local(_ time: SessionTime) -> LocalDateTime {
        switch (self, time) {
        case (.zoned(let rules), .instant(let seconds)): rules.localDateTime(at: seconds)
        case (_, .instant(let seconds)): LocalDateTime(secondsSince1970: seconds)
        case (_, .floating(let local)): local
        case (_, .date(let day)): LocalDateTime(day: day, secondOfDay: 0)
        }
    }
}

/// The wall-clock starts one RRULE or EXRULE gives within a window, with RFC 5545's rules for the
/// recurrence set: UNTIL is compared on the series' own clock, DTSTART is always the first instance
/// and counts toward COUNT, and the cost is bounded by the window, the cap and a budget of steps.
struct RuleIterator {
    /// What stopped a rule early or changed how it was read; each becomes a warning that names the rule.
    enum Problem: Hashable, Sendable {
        /// More than the cap of instances fell in the window; the rest are left out.
        case capped(Int)
        /// The rule took more than its budget of steps (it matches rarely or never).
        case overBudget(steps: Int)
        /// No date can match the rule's parts; only DTSTART counts.
        case impossible(String)
        /// The rule cannot be read; it adds nothing.
        case unreadable(String)
        /// A part that cannot apply to the rule's frequency, and how it was read.
        case misplaced(String)
    }

    /// Steps one rule may take at least: years of a rule that matches rarely, and little enough work
    /// that no rule holds a report up.
    static let minimumStepBudget = 2_000_000

    /// The starts (wall clock) a rule gives within `window`; with `includesStart` (an RRULE), DTSTART
    /// is the first of them whether the rule matches it or not.
    ///
    /// - Parameters:
    ///   - window: The wall-clock range whose instances are wanted (the report window with its margins).
    ///   - counted: The days whose instances count toward `cap`; instances in the margins outside them
    ///     are kept too, and bounded by a cap of their own.
    ///   - cap: The most instances the rule may add to `counted`.
    ///   - budget: Steps the rule may take; lowered by those it takes. A series' rules share one
    ///     budget (`stepBudget(cap:)`), so that many rules in one event cost no more than one.
    static func starts(
        rule text: String, dtstart: LocalDateTime, isDate: Bool, clock: SeriesClock,
        window: ClosedRange<LocalDateTime>?, counted: ClosedRange<Day>? = nil, cap: Int, includesStart: Bool = true,
        budget: inout Int
    ) -> (starts: [LocalDateTime], problems: [Problem]) {
        let rule: RecurrenceRule
        do {
            rule = try RecurrenceRule(parsing: text)
        } catch {
            let startCounts = includesStart && (window.map { $0.contains(dtstart) } ?? true)
            return (startCounts ? [dtstart] : [], [Problem.unreadable(error.description)])
        }
        var problems = rule.misplacedParts.map(Problem.misplaced)
        let withinUntil = rule.until.map { untilLimit($0, clock: clock) }
        // DTSTART is the first instance whatever the rule says (RFC 5545 3.8.5.3), UNTIL included.
        let startCounts = includesStart
        var starts: [LocalDateTime] = []
        if startCounts, window.map({ $0.contains(dtstart) }) ?? true { starts.append(dtstart) }
        if let withinUntil, !withinUntil(dtstart) {
            return (starts, problems + [.impossible("UNTIL is before DTSTART")])
        }
        if let reason = rule.impossibility {
            // The rule has no instances of its own; DTSTART still is one (RFC 5545 3.8.5.3).
            return (starts, problems + [.impossible(reason)])
        }
        var iterator = RecurrenceIterator(rule: rule, dtstart: dtstart, isDate: isDate, stepBudget: max(0, budget))
        defer { budget -= iterator.steps }
        // Without COUNT, the iterator can jump to the window instead of walking up to it.
        if rule.count == nil, let window { iterator.skip(toward: window.lowerBound) }
        var remaining = rule.count ?? Int.max
        if startCounts { remaining -= 1 }
        var inCounted = 0
        var inMargins = 0
        while remaining > 0, let local = iterator.next() {
            // DTSTART is the first instance, counted already, whether the rule gives it or not.
            if local == dtstart, includesStart { continue }
            if let withinUntil, !withinUntil(local) { break }
            if let window, local > window.upperBound { break }
            remaining -= 1
            guard window.map({ $0.contains(local) }) ?? true else { continue }
            if counted.map({ $0.contains(local.day) }) ?? true {
                inCounted += 1
                if inCounted > cap {
                    problems.append(.capped(cap))
                    break
                }
            } else {
                inMargins += 1
                if inMargins > cap { continue }
            }
            starts.append(local)
        }
        if iterator.isOverBudget { problems.append(.overBudget(steps: iterator.stepBudget)) }
        return (starts, problems)
    }

    /// The steps one series' rules may take together: four per instance the cap allows, and at
    /// least `minimumStepBudget`.
    static func stepBudget(cap: Int) -> Int {
        let (budget, overflow) = cap.multipliedReportingOverflow(by: 4)
        return overflow ? Int.max : max(budget, minimumStepBudget)
    }

    /// The same for a single rule on its own.
    static func starts(
        rule text: String, dtstart: LocalDateTime, isDate: Bool, clock: SeriesClock,
        window: ClosedRange<LocalDateTime>?, counted: ClosedRange<Day>? = nil, cap: Int, includesStart: Bool = true
    ) -> (starts: [LocalDateTime], problems: [Problem]) {
        var budget = stepBudget(cap: cap)
        return starts(
            rule: text, dtstart: dtstart, isDate: isDate, clock: clock, window: window, counted: counted, cap: cap,
            includesStart: includesStart, budget: &budget)
    }

    /// UNTIL as a test on the series' clock (inclusive). A UTC UNTIL is compared with each instance's
    /// instant, so that an instance in a DST gap is judged by when it really is.
    private static func untilLimit(_ value: ICalTime, clock: SeriesClock) -> (LocalDateTime) -> Bool {
        if value.isDate {
            // A DATE UNTIL includes its whole day, also for a timed series (as Exchange writes it).
            let lastDay = value.day
            return { $0.day <= lastDay }
        }
        let limit = value.local
        if value.isUTC, case .zoned = clock {
            return { clock.key($0) <= limit.secondsSince1970 }
        }
        return { $0 <= limit }
    }
}
