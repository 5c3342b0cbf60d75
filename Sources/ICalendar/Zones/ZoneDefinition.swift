import Foundation
import Streaks

/// A calendar's VTIMEZONE as read: its STANDARD and DAYLIGHT observances, not yet expanded.
///
/// Reading one is cheap; `rules(throughYear:onsetBudget:)` expands its onsets (each observance's
/// DTSTART, its RRULEs by `RecurrenceIterator`, its RDATEs) into `TimeZoneRules`, which an import
/// does only for the zones its times use (`CalendarZones`).
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

    /// The zone's rules with every onset up to the end of `lastYear`, taking at most `onsetBudget`
    /// onsets (and lowering it by those taken); what was left out is said in `problems`.
    func rules(throughYear lastYear: Int, onsetBudget: inout Int) -> (rules: TimeZoneRules, problems: [String]) {
        var problems: [String] = []
        var transitions: [(instant: Int64, offset: Int)] = []
        var earliest: (instant: Int64, offsetFrom: Int)?
        let horizon = LocalDateTime(day: Day(normalizingYear: lastYear + 1, month: 1, day: 1), secondOfDay: 0)
        var budgetNoted = false
        func add(_ onset: LocalDateTime, _ observance: Observance) -> Bool {
            guard onsetBudget > 0 else {
                if !budgetNoted {
                    budgetNoted = true
                    problems.append("the file's time zones have more onsets than \(CalendarZones.maximumOnsetsPerFile); later ones are ignored")
                }
                return false
            }
            onsetBudget -= 1
            // An onset is a wall-clock time in the offset in force before it.
            let instant = onset.secondsSince1970 - Int64(observance.offsetFrom)
            transitions.append((instant, observance.offsetTo))
            if earliest.map({ instant < $0.instant }) ?? true { earliest = (instant, observance.offsetFrom) }
            return true
        }
        for observance in observances {
            guard add(observance.start, observance) else { break }
            for text in observance.rules {
                let rule: RecurrenceRule
                do {
                    rule = try RecurrenceRule(parsing: text)
                } catch {
                    problems.append("the \(observance.name) rule \(text) cannot be read (\(error)); it is ignored")
                    continue
                }
                if let reason = rule.impossibility {
                    problems.append("the \(observance.name) rule \(text) has no onsets (\(reason))")
                    continue
                }
                var iterator = RecurrenceIterator(
                    rule: rule, dtstart: observance.start, isDate: false, stepBudget: Self.stepBudgetPerRule)
                var count = 0
                var remaining = rule.count.map { $0 - 1 } ?? Int.max
                let until = rule.until.map { $0.isUTC ? $0.local.advanced(bySeconds: Int64(observance.offsetFrom)) : $0.local }
                while remaining > 0, let onset = iterator.next(), onset < horizon {
                    if onset == observance.start { continue }
                    if let until, onset > until { break }
                    remaining -= 1
                    count += 1
                    if count > Self.maximumOnsetsPerRule {
                        problems.append("the \(observance.name) rule \(text) has more than \(Self.maximumOnsetsPerRule) onsets; later ones are ignored")
                        break
                    }
                    guard add(onset, observance) else { break }
                }
                if iterator.isOverBudget {
                    problems.append("the \(observance.name) rule \(text) matches too rarely; it was given up after \(iterator.stepBudget) steps")
                }
            }
            for onset in observance.onsets {
                let local = onset.isUTC ? onset.local.advanced(bySeconds: Int64(observance.offsetFrom)) : onset.local
                guard add(local, observance) else { break }
            }
        }
        guard let earliest else {
            return (.fixed(identifier: timeZoneID, offset: 0), problems)
        }
        return (TimeZoneRules(identifier: timeZoneID, initialOffset: earliest.offsetFrom, transitions: transitions), problems)
    }
}

/// The VTIMEZONEs of one import, by calendar and TZID, expanded into rules the first time a time
/// uses them, up to a year after the import's window and within one budget of onsets per file.
///
/// Copies of a `SessionResolver` working in parallel share one store, so a zone is expanded once;
/// what its expansion has to say is handed to the first caller only.
final class CalendarZones: @unchecked Sendable {
    /// Onsets all of a file's zones may have together.
    static let maximumOnsetsPerFile = 200_000

    private let lock = NSLock()
    // Guarded by `lock`.
    private var definitions: [Int: [String: (definition: ZoneDefinition, begin: ContentLine)]] = [:]
    private var expanded: [Int: [String: TimeZoneRules]] = [:]
    private var onsetBudget = CalendarZones.maximumOnsetsPerFile
    private var definitionCount = 0
    /// The last year whose onsets are computed.
    let lastYear: Int

    init(lastYear: Int) {
        self.lastYear = lastYear
    }

    /// Records a calendar's VTIMEZONE. The first VTIMEZONE of a TZID in the input defines it, as
    /// in the one calendar an annotated copy of the input has; returns the BEGIN line of an
    /// earlier one with other rules that this one gives way to, if any.
    func define(_ definition: ZoneDefinition, begin: ContentLine, calendar: Int) -> ContentLine? {
        lock.withLock {
            for zones in definitions.values {
                guard let earlier = zones[definition.timeZoneID] else { continue }
                return earlier.definition.observances == definition.observances ? nil : earlier.begin
            }
            definitions[calendar, default: [:]][definition.timeZoneID] = (definition, begin)
            definitionCount += 1
            return nil
        }
    }

    /// How many TZIDs are defined so far: while it stays the same, `rules(for:calendar:)` gives
    /// every TZID the answer it gave before (one it found stands for good).
    var generation: Int {
        lock.withLock { definitionCount }
    }

    /// Whether `calendar` defines `timeZoneID`.
    func defines(_ timeZoneID: String, calendar: Int) -> Bool {
        lock.withLock { definitions[calendar]?[timeZoneID] != nil }
    }

    /// Whether any calendar of the input defines `timeZoneID`.
    func definesAnywhere(_ timeZoneID: String) -> Bool {
        lock.withLock { definitions.values.contains { $0[timeZoneID] != nil } }
    }

    /// The rules for a TZID: `calendar`'s own VTIMEZONE, else another calendar's (the first by
    /// index); `nil` if none defines it. A zone's first use expands it; its problems come with it.
    func rules(for timeZoneID: String, calendar: Int) -> (rules: TimeZoneRules, problems: [(String, ContentLine)])? {
        lock.withLock {
            var owner: Int?
            if definitions[calendar]?[timeZoneID] != nil {
                owner = calendar
            } else {
                // The first calendar by index that defines it (looked for without sorting: this runs for every time).
                for (other, zones) in definitions where zones[timeZoneID] != nil && owner.map({ other < $0 }) ?? true {
                    owner = other
                }
            }
            guard let owner else { return nil }
            if let rules = expanded[owner]?[timeZoneID] { return (rules, []) }
            guard let (definition, begin) = definitions[owner]?[timeZoneID] else { return nil }
            let (rules, problems) = definition.rules(throughYear: lastYear, onsetBudget: &onsetBudget)
            expanded[owner, default: [:]][timeZoneID] = rules
            return (rules, problems.map { ($0, begin) })
        }
    }
}
