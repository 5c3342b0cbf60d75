import Foundation
import Streaks

/// A VTIMEZONE (RFC 5545 section 3.6.5) made from the IANA rules StreakCal reads a TZID with, for a
/// calendar that uses the TZID without defining it (`DTSTART;TZID=Europe/Berlin:...` written bare, or
/// a Windows name such as `W. Europe Standard Time`).
///
/// The observances cover the years asked for: the zone's last transition before them, then every
/// transition in them, grouped into one STANDARD or DAYLIGHT per kind of change (the first onset its
/// DTSTART, the others RDATEs). Where the zone's transitions follow one yearly rule to the end of
/// its table (2200), as most zones' current rules do (`lastSun` of March, `Sun>=8`, `Fri>=23`), each
/// of the rule's transitions is one observance with an RRULE and no end, so that a recurring event
/// is covered in any later year. Each observance has TZOFFSETFROM and TZOFFSETTO, DTSTART as the
/// wall-clock time before the onset, and the abbreviation the zone's tzdata file gives it as
/// TZNAME, when there is one.
///
/// Made in Swift rather than taken from libical's built-in zones (`icaltimezone_get_builtin_timezone`):
/// those carry libical's own TZID (`/freeassociation.sourceforge.net/Europe/Berlin`), and libical
/// 3.0 builds them from the 32-bit part of the tzdata files: its America/Sao_Paulo ends in a made-up
/// observance at 2038-01-19T00:14:07 and has an RRULE whose BYMONTHDAY lacks the 20th. The rules
/// here are the ones the import reads the same times with (`TimeZoneRules`), so that a calendar
/// read before and after annotating gives the same instants.
///
/// ```swift
/// let zone = TimeZoneComponent(
///     tzid: "W. Europe Standard Time", rules: TimeZoneRules(identifier: "Europe/Berlin")!,
///     ianaIdentifier: "Europe/Berlin", years: 2024...2024)
/// print(zone.contentLines.joined(separator: "\n"))
/// // Prints "BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time", a STANDARD from 2023-10-29T03:00 with
/// // RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU and a DAYLIGHT from 2024-03-31T02:00 with
/// // RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU (TZNAMEs CET and CEST), "END:VTIMEZONE"
/// ```
struct TimeZoneComponent: Sendable {
    /// One STANDARD or DAYLIGHT.
    struct Observance: Hashable, Sendable {
        var isDaylight: Bool
        /// The first onset: a wall-clock time in `offsetFrom`.
        var start: LocalDateTime
        var offsetFrom: Int
        var offsetTo: Int
        var name: String?
        /// The RRULE value, for a yearly rule.
        var rule: String?
        /// More onsets (RDATE), wall-clock times in `offsetFrom`.
        var onsets: [LocalDateTime] = []
    }

    /// The TZID, exactly as the calendar's events use it.
    var tzid: String
    /// In DTSTART order.
    var observances: [Observance]

    /// Where the observances of a zone with no transitions start (and those of a zone whose
    /// transitions all come after the years asked for, if those start later).
    static let fixedOffsetStartYear = 1970

    /// - Parameters:
    ///   - tzid: The TZID the calendar's events use.
    ///   - rules: The zone's rules (an IANA zone's: `TimeZoneDatabase`).
    ///   - ianaIdentifier: The IANA name of the zone, for its daylight-saving flags (Foundation) and
    ///     TZNAMEs (its tzdata file); `nil` for neither.
    ///   - years: The years the events use the TZID in.
    init(tzid: String, rules: TimeZoneRules, ianaIdentifier: String?, years: ClosedRange<Int>) {
        self.tzid = tzid
        let zone = ianaIdentifier.flatMap(TimeZone.init(identifier:))
        let abbreviations = ianaIdentifier.flatMap { ZoneAbbreviations(identifier: $0) }
        func observance(_ transition: TimeZoneRules.Transition) -> Observance {
            let type = abbreviations?.type(offset: transition.offsetAfter, at: transition.instant)
            let isDaylight = zone.map { $0.isDaylightSavingTime(for: Date(timeIntervalSince1970: TimeInterval(transition.instant))) }
                ?? type?.isDaylight ?? (transition.offsetAfter > transition.offsetBefore)
            return Observance(
                isDaylight: isDaylight, start: Self.onset(transition), offsetFrom: transition.offsetBefore,
                offsetTo: transition.offsetAfter, name: type.flatMap { $0.abbreviation.isEmpty ? nil : $0.abbreviation })
        }

        let all = rules.transitions(in: Int64.min...Int64.max)
        let tail = YearlyRule.tail(of: all)
        // The last transition before the first year sets the offset the years start in.
        let first = all.lastIndex { Self.onset($0).day.year < years.lowerBound } ?? all.startIndex
        var explicit: [Observance] = []
        var ruled: [Observance] = []
        var ruledStartYear: Int?
        for transition in all[first...] {
            let year = Self.onset(transition).day.year
            if year > years.upperBound { break }
            if let tail, year >= tail.startYear {
                ruledStartYear = year
                break
            }
            let made = observance(transition)
            // One observance per kind of change; its later onsets are RDATEs.
            if let index = explicit.firstIndex(where: {
                $0.isDaylight == made.isDaylight && $0.offsetFrom == made.offsetFrom && $0.offsetTo == made.offsetTo && $0.name == made.name
            }) {
                explicit[index].onsets.append(made.start)
            } else {
                explicit.append(made)
            }
        }
        if let tail, let year = ruledStartYear {
            for (slot, rule) in tail.rules.enumerated() {
                let transition = tail.transition(slot, inYear: year)
                var made = observance(transition)
                made.rule = rule.recurrenceRule
                ruled.append(made)
            }
        }
        var observances = (explicit + ruled).sorted { $0.start < $1.start }
        if observances.isEmpty {
            // No transition in or before the years: one observance with the offset in force then.
            let start = LocalDateTime(normalizingYear: min(years.lowerBound, Self.fixedOffsetStartYear), month: 1, day: 1)
            let offset = rules.utcOffset(at: start.secondsSince1970)
            let instant = start.secondsSince1970 - Int64(offset)
            let type = abbreviations?.type(offset: offset, at: instant)
            observances = [Observance(
                isDaylight: zone.map { $0.isDaylightSavingTime(for: Date(timeIntervalSince1970: TimeInterval(instant))) } ?? false,
                start: start, offsetFrom: offset, offsetTo: offset,
                name: type.flatMap { $0.abbreviation.isEmpty ? nil : $0.abbreviation })]
        }
        self.observances = observances
    }

    /// A transition's onset as a VTIMEZONE gives it: the wall-clock time in the offset before it.
    static func onset(_ transition: TimeZoneRules.Transition) -> LocalDateTime {
        LocalDateTime(secondsSince1970: transition.instant + Int64(transition.offsetBefore))
    }

    /// The component as unfolded content lines, BEGIN to END.
    var contentLines: [String] {
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + LineCheck.escapedText(tzid)]
        for observance in observances {
            let kind = observance.isDaylight ? "DAYLIGHT" : "STANDARD"
            lines.append("BEGIN:" + kind)
            lines.append("DTSTART:" + Self.text(observance.start))
            lines.append("TZOFFSETFROM:" + Self.offsetText(observance.offsetFrom))
            lines.append("TZOFFSETTO:" + Self.offsetText(observance.offsetTo))
            if let name = observance.name { lines.append("TZNAME:" + LineCheck.escapedText(name)) }
            if let rule = observance.rule { lines.append("RRULE:" + rule) }
            // An observance without RRULE repeats its DTSTART as an RDATE: RFC 5545 counts DTSTART as
            // an onset, but Python's ical (14.3) takes onsets from RRULE and RDATE only, and reads a
            // zone of DTSTARTs alone as UTC.
            let onsets = observance.rule == nil ? [observance.start] + observance.onsets : observance.onsets
            if !onsets.isEmpty { lines.append("RDATE:" + onsets.map(Self.text).joined(separator: ",")) }
            lines.append("END:" + kind)
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    private static func text(_ time: LocalDateTime) -> String {
        SessionResolver.recurrenceIDText(time, isDate: false, isUTC: false)
    }

    /// A UTC-OFFSET value (RFC 5545 3.3.14): `+0100`, `-0330`, `+005328` with seconds.
    static func offsetText(_ offset: Int) -> String {
        let magnitude = abs(offset)
        var text = (offset < 0 ? "-" : "+") + twoDigits(magnitude / 3600) + twoDigits(magnitude / 60 % 60)
        if magnitude % 60 != 0 { text += twoDigits(magnitude % 60) }
        return text

        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    }
}

/// A zone's transitions in a year as one yearly rule: which day of a month each falls on, at what
/// wall-clock time, from which offset to which.
struct YearlyRule: Hashable, Sendable {
    /// Which day of the month.
    enum DayRule: Hashable, Sendable {
        /// The last `weekday` of the month (`BYDAY=-1SU`).
        case last(Weekday)
        /// The `n`th `weekday`, 1 to 4 (`BYDAY=2SU`).
        case nth(Int, Weekday)
        /// The first `weekday` on or after the day (`BYMONTHDAY=23,...,29;BYDAY=FR`, tzdata's `Fri>=23`).
        case onOrAfter(Int, Weekday)
        /// The same day every year (`BYMONTHDAY=21`).
        case fixed(Int)

        /// The day of the month the rule picks in a year.
        func day(year: Int, month: Int) -> Int {
            let first = Day(normalizingYear: year, month: month, day: 1)
            let length = Day.daysInMonth(year: year, month: month)
            func firstOnOrAfter(_ dayOfMonth: Int, _ weekday: Weekday) -> Int {
                let start = first.advanced(by: dayOfMonth - 1)
                return dayOfMonth + weekday.daysSince(start.weekday)
            }
            switch self {
            case .last(let weekday): return firstOnOrAfter(length - 6, weekday)
            case .nth(let n, let weekday): return firstOnOrAfter(7 * (n - 1) + 1, weekday)
            case .onOrAfter(let dayOfMonth, let weekday): return firstOnOrAfter(dayOfMonth, weekday)
            case .fixed(let dayOfMonth): return dayOfMonth
            }
        }

        /// The rule that picks every day of `days` (the same month in consecutive years), if one does.
        static func fitting(_ days: [(year: Int, month: Int, day: Int)]) -> DayRule? {
            guard let sample = days.first else { return nil }
            let weekday = Day(normalizingYear: sample.year, month: sample.month, day: sample.day).weekday
            let candidates: [DayRule]
            if days.allSatisfy({ Day(normalizingYear: $0.year, month: $0.month, day: $0.day).weekday == weekday }) {
                let earliest = days.map(\.day).min() ?? 1
                candidates = [.last(weekday), .nth((sample.day - 1) / 7 + 1, weekday), .onOrAfter(earliest, weekday)]
            } else {
                candidates = [.fixed(sample.day)]
            }
            return candidates.first { rule in days.allSatisfy { rule.day(year: $0.year, month: $0.month) == $0.day } }
        }

        /// The RRULE parts after BYMONTH.
        var recurrenceRuleParts: String {
            switch self {
            case .last(let weekday): "BYDAY=-1" + weekday.iCalendarCode
            case .nth(let n, let weekday): "BYDAY=\(n)" + weekday.iCalendarCode
            case .onOrAfter(let dayOfMonth, let weekday):
                "BYMONTHDAY=" + (dayOfMonth...(dayOfMonth + 6)).map(String.init).joined(separator: ",") + ";BYDAY=" + weekday.iCalendarCode
            case .fixed(let dayOfMonth): "BYMONTHDAY=\(dayOfMonth)"
            }
        }
    }

    var month: Int
    var day: DayRule
    /// The onset's wall-clock time in `offsetBefore`, in seconds since midnight.
    var secondOfDay: Int
    var offsetBefore: Int
    var offsetAfter: Int

    /// The RRULE value: `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`.
    var recurrenceRule: String {
        "FREQ=YEARLY;BYMONTH=\(month);" + day.recurrenceRuleParts
    }

    /// The transition the rule gives in `year`.
    func transition(inYear year: Int) -> TimeZoneRules.Transition {
        let onset = LocalDateTime(day: Day(normalizingYear: year, month: month, day: day.day(year: year, month: month)), secondOfDay: secondOfDay)
        return TimeZoneRules.Transition(instant: onset.secondsSince1970 - Int64(offsetBefore), offsetBefore: offsetBefore, offsetAfter: offsetAfter)
    }

    /// The yearly rules a zone's transitions follow from `startYear` to the end of its table.
    struct Tail: Hashable, Sendable {
        /// One rule per transition of a year, in the order they come in the year.
        var rules: [YearlyRule]
        /// The first year all of them hold in (with none but them).
        var startYear: Int

        func transition(_ slot: Int, inYear year: Int) -> TimeZoneRules.Transition {
            rules[slot].transition(inYear: year)
        }
    }

    /// Years a rule is first worked out from: a full cycle of weekdays and leap years.
    static let sampleYears = 28
    /// A zone whose transitions end before this year has no yearly rule: its table (up to 2200)
    /// would go on to its end if it had one.
    static let lastTableYear = 2198

    /// The yearly rules the zone's transitions follow to the end of its table, from the first year
    /// they all hold in; `nil` if the transitions end before the table does or follow no such rules.
    static func tail(of transitions: [TimeZoneRules.Transition]) -> Tail? {
        var byYear: [Int: [TimeZoneRules.Transition]] = [:]
        for transition in transitions { byYear[TimeZoneComponent.onset(transition).day.year, default: []].append(transition) }
        guard let lastYear = byYear.keys.max(), lastYear >= lastTableYear, let last = byYear[lastYear], !last.isEmpty else {
            return nil
        }
        let sampled = (lastYear - sampleYears + 1)...lastYear
        guard sampled.allSatisfy({ byYear[$0]?.count == last.count }) else { return nil }
        var rules: [YearlyRule] = []
        for slot in last.indices {
            let samples = sampled.map { byYear[$0]![slot] }
            let onsets = samples.map(TimeZoneComponent.onset)
            let month = onsets[0].day.month
            guard onsets.allSatisfy({ $0.day.month == month && $0.secondOfDay == onsets[0].secondOfDay }),
                  samples.allSatisfy({ $0.offsetBefore == samples[0].offsetBefore && $0.offsetAfter == samples[0].offsetAfter }),
                  let day = DayRule.fitting(onsets.map { ($0.day.year, month, $0.day.dayOfMonth) })
            else { return nil }
            rules.append(YearlyRule(
                month: month, day: day, secondOfDay: onsets[0].secondOfDay,
                offsetBefore: samples[0].offsetBefore, offsetAfter: samples[0].offsetAfter))
        }
        // Back from the last year while every year has exactly the rules' transitions.
        var startYear = lastYear
        while let earlier = byYear[startYear - 1], earlier == rules.map({ $0.transition(inYear: startYear - 1) }) {
            startYear -= 1
        }
        guard startYear <= sampled.lowerBound else { return nil }
        return Tail(rules: rules, startYear: startYear)
    }
}

extension Weekday {
    /// The two-letter code of RRULE's BYDAY: `SU`, `MO`, ...
    var iCalendarCode: String {
        switch self {
        case .sunday: "SU"
        case .monday: "MO"
        case .tuesday: "TU"
        case .wednesday: "WE"
        case .thursday: "TH"
        case .friday: "FR"
        case .saturday: "SA"
        }
    }
}
