import Streaks

/// A calendar's VTIMEZONE as read: its STANDARD and DAYLIGHT observances, not yet expanded.
///
/// Reading one is cheap; `rules(in:budget:)` expands its onsets (each observance's DTSTART, its
/// RRULEs by `RecurrenceIterator`, its RDATEs) into `TimeZoneRules`, which an import does only for
/// the zones its times name (`InputZones`).
struct ZoneDefinition: Sendable {
    /// One STANDARD or DAYLIGHT.
    struct Observance: Sendable, Equatable {
        var name: String
        /// DTSTART: the first onset, a wall-clock time in the offset in force before it.
        var start: LocalDateTime
        var offsetFrom: Int
        var offsetTo: Int
        /// RRULE values as written.
        var rules: [String]
        /// RDATE values.
        var onsets: [ICalTime]
    }

    var timeZoneID: String
    var observances: [Observance]
    /// Problems found while reading (an observance without DTSTART or TZOFFSETTO).
    var problems: [String]

    /// Onsets one STANDARD or DAYLIGHT rule gives at most (a yearly rule over 600 years needs 600).
    static let maximumOnsetsPerRule = 5_000
    /// RRULEs read in one STANDARD or DAYLIGHT; RFC 5545 zones have one, real ones at most a few.
    static let maximumRulesPerObservance = 16
    /// Steps one onset rule may take (`RecurrenceIterator`): a rule that rarely matches is given up.
    static let stepBudgetPerRule = 200_000
    /// Onsets before the years that count (`ZoneExpansionWindow.firstCountedYear`) one zone keeps:
    /// the latest of them, which are what a time before the report's window needs (a zone's whole
    /// history since 1601, as Outlook writes it, has fewer).
    static let maximumEarlyOnsets = 2_000

    /// The zone's rules with its onsets up to the end of `window.lastYear`: those from
    /// `window.firstCountedYear` on taken from `budget.onsets`, those before kept up to
    /// `maximumEarlyOnsets` (the latest). What was left out is said in `problems`.
    func rules(in window: ZoneExpansionWindow, budget: inout ZoneExpansionBudget) -> (rules: TimeZoneRules, problems: [String]) {
        var onsets = ZoneOnsets(window: window, limit: budget.onsets)
        var problems: [String] = []
        for observance in observances {
            guard budget.steps > 0 else {
                problems.append("the file's time zones take more than \(ZoneExpansionBudget.steps) steps to expand; later onsets are ignored")
                break
            }
            onsets.add(observance.start, observance)
            for text in observance.rules {
                problems += expand(rule: text, of: observance, into: &onsets, budget: &budget)
            }
            for onset in observance.onsets {
                onsets.add(onset.isUTC ? onset.local.advanced(bySeconds: Int64(observance.offsetFrom)) : onset.local, observance)
            }
        }
        if onsets.overflowed {
            problems.append("the file's time zones have more onsets than \(ZoneExpansionBudget.onsets) in the report's years; later ones are ignored")
        }
        if onsets.droppedEarly {
            problems.append("it has more than \(Self.maximumEarlyOnsets) onsets before \(window.firstCountedYear); the earliest are ignored")
        }
        budget.onsets -= onsets.counted
        return (onsets.rules(identifier: timeZoneID), problems)
    }

    /// Adds one RRULE's onsets (its DTSTART excepted, added already); returns what to say of it.
    private func expand(
        rule text: String, of observance: Observance, into onsets: inout ZoneOnsets, budget: inout ZoneExpansionBudget
    ) -> [String] {
        let rule: RecurrenceRule
        do {
            rule = try RecurrenceRule(parsing: text)
        } catch {
            return ["the \(observance.name) rule \(text) cannot be read (\(error)); it is ignored"]
        }
        if let reason = rule.impossibility { return ["the \(observance.name) rule \(text) has no onsets (\(reason))"] }
        var iterator = RecurrenceIterator(
            rule: rule, dtstart: observance.start, isDate: false, stepBudget: min(Self.stepBudgetPerRule, budget.steps))
        defer { budget.steps -= iterator.steps }
        var count = 0
        var remaining = rule.count.map { $0 - 1 } ?? Int.max
        let until = rule.until.map { $0.isUTC ? $0.local.advanced(bySeconds: Int64(observance.offsetFrom)) : $0.local }
        while remaining > 0, let onset = iterator.next(), onset < onsets.horizon {
            if onset == observance.start { continue }
            if let until, onset > until { break }
            remaining -= 1
            count += 1
            if count > Self.maximumOnsetsPerRule {
                return ["the \(observance.name) rule \(text) has more than \(Self.maximumOnsetsPerRule) onsets; later ones are ignored"]
            }
            onsets.add(onset, observance)
        }
        if iterator.isOverBudget {
            return ["the \(observance.name) rule \(text) matches too rarely; it was given up after \(iterator.stepBudget) steps"]
        }
        return []
    }
}

/// The years whose onsets a zone's expansion counts: from a year before the report's window (or,
/// without a first day, before the ten years a report covers) to a year after it.
struct ZoneExpansionWindow: Sendable, Hashable {
    /// The first year whose onsets count toward the file's budget.
    var firstCountedYear: Int
    /// The last year whose onsets are computed.
    var lastYear: Int

    init(_ expansion: RecurrenceExpansion) {
        lastYear = min(RecurrenceIterator.lastYear, expansion.through.year + 1)
        let firstDay = expansion.from ?? expansion.through.advanced(by: -StreakReport.maximumDefaultDays)
        firstCountedYear = min(lastYear, firstDay.year - 1)
    }
}

/// What all of one input's zones may take together to expand.
struct ZoneExpansionBudget: Sendable {
    /// Onsets all of a file's zones may have together in the years that count.
    static let onsets = 200_000
    /// Steps all of a file's onset rules may take together (ten times one rule's).
    static let steps = 10 * ZoneDefinition.stepBudgetPerRule * ZoneDefinition.maximumRulesPerObservance

    var onsets = ZoneExpansionBudget.onsets
    var steps = ZoneExpansionBudget.steps
}

/// One zone's onsets as they are expanded: those in the years that count (as many as the file's
/// budget has room for), and the latest of the earlier ones, which a bounded heap keeps.
private struct ZoneOnsets {
    /// The end of the last year computed.
    let horizon: LocalDateTime
    /// The first wall-clock time whose onsets count.
    private let countedFrom: LocalDateTime
    /// The counted onsets this zone may have: what is left of the file's budget.
    private let limit: Int
    private var late: [(instant: Int64, offset: Int)] = []
    private(set) var overflowed = false
    /// The earlier onsets kept, the earliest first (it is dropped first).
    private var early = MinHeap<(instant: Int64, offset: Int)> { $0.instant }
    /// The latest onset dropped from `early`: the offset in force before the first one kept.
    private var lastDropped: (instant: Int64, offset: Int)?
    var droppedEarly: Bool { lastDropped != nil }
    /// The offset in force before the earliest onset of all.
    private var earliest: (instant: Int64, offsetFrom: Int)?

    init(window: ZoneExpansionWindow, limit: Int) {
        horizon = LocalDateTime(day: Day(normalizingYear: window.lastYear + 1, month: 1, day: 1), secondOfDay: 0)
        countedFrom = LocalDateTime(day: Day(normalizingYear: window.firstCountedYear, month: 1, day: 1), secondOfDay: 0)
        self.limit = limit
    }

    var counted: Int { late.count }

    /// Adds an onset: a wall-clock time in the offset in force before it.
    mutating func add(_ onset: LocalDateTime, _ observance: ZoneDefinition.Observance) {
        guard onset < horizon else { return }
        let instant = onset.secondsSince1970 - Int64(observance.offsetFrom)
        if earliest.map({ instant < $0.instant }) ?? true { earliest = (instant, observance.offsetFrom) }
        if onset >= countedFrom {
            guard late.count < limit else {
                overflowed = true
                return
            }
            late.append((instant, observance.offsetTo))
            return
        }
        keepEarly((instant, observance.offsetTo))
    }

    /// Keeps an onset before the counted years, dropping the earliest kept when there are too many.
    private mutating func keepEarly(_ onset: (instant: Int64, offset: Int)) {
        guard early.count == ZoneDefinition.maximumEarlyOnsets, let earliest = early.first else {
            early.insert(onset)
            return
        }
        var dropped = onset
        if onset.instant > earliest.instant {
            dropped = earliest
            early.replaceFirst(with: onset)
        }
        if lastDropped.map({ dropped.instant > $0.instant }) ?? true { lastDropped = dropped }
    }

    /// The rules; with no onset at all, a fixed UTC+00:00.
    func rules(identifier: String) -> TimeZoneRules {
        guard let earliest else { return .fixed(identifier: identifier, offset: 0) }
        // Without its earliest onsets, a zone starts in the offset the last one dropped put in force.
        let initial = lastDropped?.offset ?? earliest.offsetFrom
        return TimeZoneRules(identifier: identifier, initialOffset: initial, transitions: early.elements + late)
    }
}
