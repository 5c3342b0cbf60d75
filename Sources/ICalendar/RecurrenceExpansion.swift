internal import CLibical
import Foundation
public import Streaks

/// How far recurring events are expanded into sessions.
///
/// Expansion is bounded: only instances whose start falls within the window (with two days of margin
/// for time zones and day starts) become sessions, and a rule never yields more than
/// `maximumInstancesPerRule` of them; an endless rule costs what the window holds, not what it could.
///
/// ```swift
/// let expansion = RecurrenceExpansion(from: Day(year: 2024, month: 1, day: 1),
///                                     through: Day(year: 2024, month: 12, day: 31))
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

/// Wall-clock instance starts from libical's recurrence iterator, with RFC 5545's rules that libical
/// leaves to its caller: UNTIL is compared in the series' own clock, DTSTART is always the first
/// instance, and the window bounds the work.
struct RuleIterator {
    enum Outcome: Equatable {
        case finished
        case capped
        /// libical cannot iterate the rule (it has no instances, e.g. February 30).
        case impossible
        /// libical cannot read the rule at all.
        case unreadable
    }

    /// The starts (wall clock) a rule gives within `window`; with `includesStart` (an RRULE), DTSTART
    /// is the first of them whether the rule matches it or not.
    static func starts(
        rule text: String, dtstart: LocalDateTime, isDate: Bool, clock: SeriesClock,
        window: ClosedRange<LocalDateTime>?, cap: Int, includesStart: Bool = true
    ) -> (starts: [LocalDateTime], outcome: Outcome) {
        _ = Libical.ready
        var rule = text.withCString { icalrecurrencetype_from_string($0) }
        // icalrecurrencetype_from_string strdup()s an RSCALE; the caller frees it.
        defer { free(rule.rscale) }
        guard rule.freq != ICAL_NO_RECURRENCE else { return ([], .unreadable) }
        let until = rule.until
        rule.until = icaltime_null_time()
        let count = Int(rule.count)
        // libical 3.0 puts the weeks of a WEEKLY rule with INTERVAL > 1 and WKST=SA in the wrong
        // place; every other week start is right. Such a rule is iterated week by week and every
        // INTERVAL-th week (counted from the Saturday on or before DTSTART) kept here, COUNT included.
        var weekFilter: (interval: Int, firstWeek: Day)?
        if rule.freq == ICAL_WEEKLY_RECURRENCE, rule.interval > 1, rule.week_start == ICAL_SATURDAY_WEEKDAY,
           rule.by_set_pos.0 == Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue) {
            weekFilter = (Int(rule.interval), dtstart.day.advanced(by: -dtstart.day.weekday.daysSince(.saturday)))
            rule.interval = 1
            rule.week_start = ICAL_MONDAY_WEEKDAY
            rule.count = 0
            // libical keeps BYDAY sorted from the week start: parse the changed rule anew to re-sort it.
            if let text = icalrecurrencetype_as_string_r(&rule) {
                defer { icalmemory_free_buffer(text) }
                free(rule.rscale)
                rule = icalrecurrencetype_from_string(text)
            }
        }
        let untilLimit = untilLimit(until, clock: clock, isDate: isDate)

        var start = ICalTime(local: dtstart, isDate: isDate, isUTC: false, timeZoneID: nil).libicalTime
        start.zone = nil
        guard let iterator = icalrecur_iterator_new(rule, start) else {
            // The rule has no instances of its own; DTSTART still is one (RFC 5545 3.8.5.3).
            let startCounts = includesStart && (untilLimit?(dtstart) ?? true) && (window.map { $0.contains(dtstart) } ?? true)
            return (startCounts ? [dtstart] : [], .impossible)
        }
        defer { icalrecur_iterator_free(iterator) }

        // Without COUNT, libical can jump to the window instead of walking up to it.
        if count == 0, let window, window.lowerBound > dtstart {
            var jump = ICalTime(local: window.lowerBound, isDate: isDate, isUTC: false, timeZoneID: nil).libicalTime
            jump.zone = nil
            _ = icalrecur_iterator_set_start(iterator, jump)
        }
        var starts: [LocalDateTime] = []
        var produced = 0
        var first = true
        var remaining = count > 0 ? count : Int.max
        // DTSTART is always the first instance and counts toward COUNT (RFC 5545 3.3.10, 3.8.5.3).
        if includesStart, untilLimit?(dtstart) ?? true {
            if window.map({ $0.contains(dtstart) }) ?? true { starts.append(dtstart) }
            remaining -= 1
        }
        // Each call to libical is bounded by the cap too, so that skipping to the window cannot run away.
        var calls = 0
        while remaining > 0 {
            calls += 1
            if calls > (cap.multipliedReportingOverflow(by: 4).overflow ? Int.max : cap * 4) { return (starts, .capped) }
            let next = icalrecur_iterator_next(iterator)
            if icaltime_is_null_time(next) != 0 { return (starts, .finished) }
            guard let time = ICalTime(next, timeZoneID: nil) else { return (starts, .finished) }
            let local = time.local
            if first {
                first = false
                // libical gives DTSTART first when it matches the rule; it is already counted.
                if local == dtstart, includesStart { continue }
            }
            if let untilLimit, !untilLimit(local) { return (starts, .finished) }
            if let window, local > window.upperBound { return (starts, .finished) }
            if let weeks = weekFilter, (weeks.firstWeek.distance(to: local.day) / 7) % weeks.interval != 0 {
                continue  // instances never precede DTSTART, so the distance is never negative
            }
            remaining -= 1
            if local < dtstart { continue }
            if window.map({ $0.contains(local) }) ?? true {
                produced += 1
                if produced > cap { return (starts, .capped) }
                starts.append(local)
            }
        }
        return (starts, .finished)
    }

    /// UNTIL as a test on the series' clock (inclusive); `nil` without UNTIL. A UTC UNTIL is compared
    /// with each instance's instant, so that an instance in a DST gap is judged by when it really is.
    private static func untilLimit(_ until: icaltimetype, clock: SeriesClock, isDate: Bool) -> ((LocalDateTime) -> Bool)? {
        guard icaltime_is_null_time(until) == 0, let value = ICalTime(until, timeZoneID: nil) else { return nil }
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
