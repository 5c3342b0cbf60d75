public import Foundation

/// The UTC offsets a time zone uses over time, as a sorted table of transitions.
///
/// Converting between instants and wall-clock times is a binary search in the table, with
/// RFC 5545's rules for wall-clock times that a transition skips or repeats (section 3.3.5):
///
/// ```swift
/// let berlin = TimeZoneRules(timeZone: TimeZone(identifier: "Europe/Berlin")!)
/// // 02:28 does not exist on 2016-03-27 in Berlin: the offset before the gap (+01:00) applies.
/// let instant = berlin.instant(for: LocalDateTime(year: 2016, month: 3, day: 27, hour: 2, minute: 28)!)
/// print(instant)
/// // Prints "1459042080" (01:28 UTC)
/// ```
public struct TimeZoneRules: Sendable, Hashable {
    /// The zone's name, such as `Europe/Berlin` or the TZID of a calendar's VTIMEZONE.
    public let identifier: String

    /// The offset in force before the first transition, in seconds east of UTC.
    let initialOffset: Int32
    /// Instants (seconds since 1970 UTC) at which the offset changes, ascending.
    let transitionInstants: [Int64]
    /// The offset in force from each transition on.
    let offsetsAfterTransition: [Int32]
    /// Where the table ends, Foundation answers (zones from the IANA database only).
    let fallback: TimeZone?
    /// The instants the table covers exactly; outside them `fallback` is asked, if there is one.
    let coveredInstants: ClosedRange<Int64>

    /// Creates rules from explicit transitions, as a calendar's VTIMEZONE defines them.
    ///
    /// - Parameters:
    ///   - identifier: The zone's name.
    ///   - initialOffset: Seconds east of UTC before the first transition.
    ///   - transitions: Instants (seconds since 1970 UTC) and the offset in force from each; any order.
    public init(identifier: String, initialOffset: Int, transitions: [(instant: Int64, offset: Int)]) {
        let sorted = transitions.sorted { $0.instant < $1.instant }
        var instants: [Int64] = []
        var offsets: [Int32] = []
        instants.reserveCapacity(sorted.count)
        offsets.reserveCapacity(sorted.count)
        var current = Int32(clamping: initialOffset)
        for transition in sorted {
            let offset = Int32(clamping: transition.offset)
            if let last = instants.last, last == transition.instant {
                offsets[offsets.count - 1] = offset
            } else if offset != current {
                instants.append(transition.instant)
                offsets.append(offset)
            }
            current = offsets.last ?? current
        }
        self.identifier = identifier
        self.initialOffset = Int32(clamping: initialOffset)
        self.transitionInstants = instants
        self.offsetsAfterTransition = offsets
        self.fallback = nil
        self.coveredInstants = Int64.min...Int64.max
    }

    /// A zone with one fixed offset, such as UTC.
    public static func fixed(identifier: String, offset: Int) -> TimeZoneRules {
        TimeZoneRules(identifier: identifier, initialOffset: offset, transitions: [])
    }

    /// Coordinated Universal Time.
    public static let utc = TimeZoneRules.fixed(identifier: "UTC", offset: 0)

    /// The first instant the precomputed table of an IANA zone covers (1900-01-01T00:00Z).
    static let tableStart: Int64 = -2_208_988_800
    /// The last instant the precomputed table of an IANA zone covers (2200-01-01T00:00Z).
    static let tableEnd: Int64 = 7_258_118_400

    /// Creates rules for a Foundation time zone (the IANA database), tabulating its transitions
    /// from 1900 to 2200; instants outside that range are asked of Foundation directly.
    public init(timeZone: TimeZone) {
        self.init(timeZone: timeZone, identifier: timeZone.identifier)
    }

    private init(timeZone: TimeZone, identifier: String) {
        var instants: [Int64] = []
        var offsets: [Int32] = []
        let start = Date(timeIntervalSince1970: TimeInterval(TimeZoneRules.tableStart))
        let initial = Int32(timeZone.secondsFromGMT(for: start))
        var current = initial
        var cursor = start
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor),
              next.timeIntervalSince1970 < TimeInterval(TimeZoneRules.tableEnd), next > cursor {
            let offset = Int32(timeZone.secondsFromGMT(for: next))
            if offset != current {
                instants.append(Int64(next.timeIntervalSince1970.rounded(.down)))
                offsets.append(offset)
                current = offset
            }
            cursor = next
        }
        self.identifier = identifier
        self.initialOffset = initial
        self.transitionInstants = instants
        self.offsetsAfterTransition = offsets
        self.fallback = timeZone
        self.coveredInstants = TimeZoneRules.tableStart...TimeZoneRules.tableEnd
    }

    /// Rules for an IANA zone name such as `America/New_York`, or `nil` if the database has no such zone.
    ///
    /// The rules keep the name as given (Foundation may report an alias, such as `GMT` for `UTC`).
    /// Foundation also takes `GMT+5` and `UTC-03:30` as fixed offsets east of UTC, as calendars'
    /// TZIDs mean them; a zone the user names should not be one of those
    /// (``offsetSpellingProblem(_:)``).
    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.init(timeZone: zone, identifier: identifier)
    }

    /// The UTC offset, in seconds east of UTC, in force at `instant` (seconds since 1970 UTC).
    @inlinable
    public func utcOffset(at instant: Int64) -> Int {
        Int(offset(at: instant))
    }

    @usableFromInline
    func offset(at instant: Int64) -> Int32 {
        if let fallback, !coveredInstants.contains(instant) {
            return Int32(fallback.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
        }
        // The offset set by the last transition at or before `instant`.
        let next = firstTransition(after: instant)
        return next == 0 ? initialOffset : offsetsAfterTransition[next - 1]
    }

    /// The wall-clock time in this zone at `instant` (seconds since 1970 UTC).
    @inlinable
    public func localDateTime(at instant: Int64) -> LocalDateTime {
        LocalDateTime(secondsSince1970: instant + Int64(offset(at: instant)))
    }

    /// The instant (seconds since 1970 UTC) that a wall-clock time in this zone denotes.
    ///
    /// Follows RFC 5545 section 3.3.5: a wall-clock time that occurs twice (the autumn overlap) is the
    /// first occurrence; one that does not occur (the spring gap) is read with the offset in force
    /// before the gap, so 02:30 in a gap from 02:00 to 03:00 is 03:30 after it.
    public func instant(for local: LocalDateTime) -> Int64 {
        var hint = 0
        return instant(for: local, hint: &hint, searching: true)
    }

    /// `instant(for:)` for wall-clock times read in ascending order (a series' instances): `hint`
    /// keeps where in the table the last one fell (start it at 0), and the next is looked for from
    /// there rather than by a search of the whole table.
    public func instant(for local: LocalDateTime, hint: inout Int) -> Int64 {
        instant(for: local, hint: &hint, searching: false)
    }

    private func instant(for local: LocalDateTime, hint: inout Int, searching: Bool) -> Int64 {
        let wallClock = local.secondsSince1970
        let dayBefore = wallClock - 86_400
        let dayAfter = wallClock + 86_400
        // Outside the table, Foundation is asked around the wall-clock time (one transition at most).
        guard fallback == nil || (coveredInstants.contains(dayBefore) && coveredInstants.contains(dayAfter)) else {
            let before = Int64(offset(at: dayBefore))
            let candidates = [before, Int64(offset(at: wallClock - before)), Int64(offset(at: dayAfter))]
            let valid = candidates.map { wallClock - $0 }.filter { wallClock - $0 == Int64(offset(at: $0)) }
            return valid.min() ?? wallClock - before
        }
        // No transition within a day either side (nearly always): the one offset in force is the answer.
        let nearest = searching ? firstTransition(after: dayBefore) : firstTransition(after: dayBefore, from: &hint)
        if nearest == transitionInstants.count || transitionInstants[nearest] >= dayAfter {
            return wallClock - Int64(nearest == 0 ? initialOffset : offsetsAfterTransition[nearest - 1])
        }
        // Every offset in force within a day either side is a candidate; the earliest valid instant
        // is the first occurrence.
        var earliest: Int64?
        var offsetBefore = Int64(offset(at: dayBefore))
        var gapOffset: Int64?
        consider(offsetBefore)
        var index = firstTransition(after: dayBefore)
        while index < transitionInstants.count, transitionInstants[index] < dayAfter {
            let transition = transitionInstants[index]
            let offsetAfter = Int64(offsetsAfterTransition[index])
            consider(offsetAfter)
            if offsetAfter > offsetBefore, (transition + offsetBefore..<transition + offsetAfter).contains(wallClock) {
                gapOffset = offsetBefore
            }
            offsetBefore = offsetAfter
            index += 1
        }
        return earliest ?? wallClock - (gapOffset ?? Int64(offset(at: dayBefore)))

        func consider(_ candidate: Int64) {
            let instant = wallClock - candidate
            if Int64(offset(at: instant)) == candidate, earliest.map({ instant < $0 }) ?? true {
                earliest = instant
            }
        }
    }

    /// `firstTransition(after:)`, looked for from `hint` (a few steps forward, else a search), which
    /// is left at the answer.
    private func firstTransition(after instant: Int64, from hint: inout Int) -> Int {
        let count = transitionInstants.count
        var index = min(max(hint, 0), count)
        if index == 0 || transitionInstants[index - 1] <= instant {
            var steps = 0
            while index < count, transitionInstants[index] <= instant, steps < 4 {
                index += 1
                steps += 1
            }
            if index == count || transitionInstants[index] > instant {
                hint = index
                return index
            }
        }
        hint = firstTransition(after: instant)
        return hint
    }

    /// The index of the first transition strictly after `instant`.
    private func firstTransition(after instant: Int64) -> Int {
        var low = 0
        var high = transitionInstants.count
        while low < high {
            let middle = (low + high) / 2
            if transitionInstants[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension TimeZoneRules {
    /// A change of a zone's UTC offset.
    public struct Transition: Hashable, Sendable {
        /// The first instant of the new offset, in seconds since 1970 UTC.
        public var instant: Int64
        /// The offset in force until then, in seconds east of UTC.
        public var offsetBefore: Int
        /// The offset in force from then on, in seconds east of UTC.
        public var offsetAfter: Int

        public init(instant: Int64, offsetBefore: Int, offsetAfter: Int) {
            self.instant = instant
            self.offsetBefore = offsetBefore
            self.offsetAfter = offsetAfter
        }
    }

    /// The transitions at instants in `instants`, ascending: those the table holds, which for a
    /// zone of the IANA database are its transitions from 1900 to 2200.
    ///
    /// ```swift
    /// let berlin = TimeZoneRules(identifier: "Europe/Berlin")!
    /// let year2024 = Int64(1_704_067_200)...Int64(1_735_689_599)
    /// for transition in berlin.transitions(in: year2024) {
    ///     print(transition.instant, transition.offsetBefore, transition.offsetAfter)
    /// }
    /// // Prints "1711846800 3600 7200" (2024-03-31T01:00Z) and "1729990800 7200 3600" (2024-10-27T01:00Z)
    /// ```
    public func transitions(in instants: ClosedRange<Int64>) -> [Transition] {
        var result: [Transition] = []
        var index = instants.lowerBound == .min ? 0 : firstTransition(after: instants.lowerBound - 1)
        while index < transitionInstants.count, transitionInstants[index] <= instants.upperBound {
            let before = index == 0 ? initialOffset : offsetsAfterTransition[index - 1]
            result.append(Transition(
                instant: transitionInstants[index], offsetBefore: Int(before), offsetAfter: Int(offsetsAfterTransition[index])))
            index += 1
        }
        return result
    }
}

extension TimeZoneRules {
    /// Why `name` is not taken as the zone of a report, when it is a `GMT` or `UTC` offset such as
    /// `GMT+5`, `UTC-3` or `GMT+05:30`; `nil` for anything else (`GMT`, `UTC`, `GMT+0` and IANA
    /// names such as `Etc/GMT+5` included).
    ///
    /// Such a name is read two ways, 10 hours apart for `GMT+5`: Foundation (and ISO 8601) read it
    /// as UTC+05:00, while POSIX `TZ=GMT+5` and the IANA name `Etc/GMT+5` mean UTC−05:00. The
    /// answer names the IANA zone for the ISO reading where there is one.
    ///
    /// ```swift
    /// print(TimeZoneRules.offsetSpellingProblem("GMT+5") ?? "")
    /// // Prints "'GMT+5' is read two ways: as UTC+05:00 (ISO 8601) and as UTC-05:00 (POSIX TZ, and the IANA name Etc/GMT+5); name a zone such as Asia/Karachi, or write Etc/GMT-5 for UTC+05:00 (Etc/GMT+5 for UTC-05:00)"
    /// ```
    public static func offsetSpellingProblem(_ name: String) -> String? {
        guard let east = statedOffset(name), east != 0 else { return nil }
        func text(_ offset: Int) -> String {
            let (hours, minutes) = (abs(offset) / 3600, abs(offset) % 3600 / 60)
            return "UTC" + (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
        }
        // The IANA database's fixed zones, whose sign is POSIX's: Etc/GMT-14 to Etc/GMT+12.
        func etcZone(_ offset: Int) -> String? {
            let hours = abs(offset) / 3600
            guard offset % 3600 == 0, offset > 0 ? hours <= 14 : hours <= 12 else { return nil }
            return "Etc/GMT" + (offset > 0 ? "-" : "+") + "\(hours)"
        }
        let (iso, posix) = (text(east), text(-east))
        return "'\(name)' is read two ways: as \(iso) (ISO 8601) and as \(posix) (POSIX TZ"
            + (etcZone(-east).map { ", and the IANA name \($0)" } ?? "") + "); name a zone such as \(exampleZone(east))"
            + (etcZone(east).map { ", or write \($0) for \(iso)" } ?? "") + (etcZone(-east).map { " (\($0) for \(posix))" } ?? "")
    }

    /// A well-known zone for an offset, for messages.
    private static func exampleZone(_ east: Int) -> String {
        let zones = [
            -36_000: "Pacific/Honolulu", -28_800: "America/Los_Angeles", -25_200: "America/Denver", -21_600: "America/Chicago",
            -18_000: "America/New_York", -14_400: "America/Halifax", -12_600: "America/St_Johns", -10_800: "America/Sao_Paulo",
            3_600: "Europe/Berlin", 7_200: "Europe/Athens", 10_800: "Europe/Moscow", 12_600: "Asia/Tehran", 14_400: "Asia/Dubai",
            16_200: "Asia/Kabul", 18_000: "Asia/Karachi", 19_800: "Asia/Kolkata", 20_700: "Asia/Kathmandu", 21_600: "Asia/Dhaka",
            25_200: "Asia/Bangkok", 28_800: "Asia/Singapore", 32_400: "Asia/Tokyo", 34_200: "Australia/Darwin", 36_000: "Australia/Brisbane",
            39_600: "Pacific/Noumea", 43_200: "Pacific/Auckland", 46_800: "Pacific/Tongatapu", 50_400: "Pacific/Kiritimati",
            -39_600: "Pacific/Pago_Pago",
        ]
        return zones[east] ?? "Europe/Berlin"
    }

    /// The offset east of UTC, in seconds, that Foundation reads in `GMT±H`, `GMT±HH`, `GMT±HHMM`,
    /// `GMT±H:MM` or `GMT±HH:MM` (or `UTC` and the same), or `nil` for any other name.
    static func statedOffset(_ name: String) -> Int? {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count >= 5, name.hasPrefix("GMT") || name.hasPrefix("UTC"), scalars[3] == "+" || scalars[3] == "-" else { return nil }
        let rest = String(String.UnicodeScalarView(scalars[4...]))
        let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        let hours: Int, minutes: Int
        switch (fields.count, fields[0].count) {
        case (1, 1...2): (hours, minutes) = (Int(fields[0])!, 0)
        case (1, 4): (hours, minutes) = (Int(fields[0].prefix(2))!, Int(fields[0].suffix(2))!)
        case (2, 1...2) where fields[1].count == 2: (hours, minutes) = (Int(fields[0])!, Int(fields[1])!)
        default: return nil
        }
        return (scalars[3] == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
    }
}

extension TimeZoneRules: CustomStringConvertible {
    public var description: String { identifier }
}

extension TimeZoneRules: ExpressibleByStringLiteral {
    /// The zone a name in code stands for, such as `"Europe/Berlin"` where a `TimeZoneRules` is
    /// wanted (`ReportSettings(timeZone: "Europe/Berlin")`).
    ///
    /// A name the time zone database lacks is a programmer's typo and stops the program here, so
    /// that a report is never scored in some other zone; a name that comes from a user or a file
    /// goes through ``init(identifier:)``, which returns `nil` for it.
    public init(stringLiteral name: String) {
        guard let rules = TimeZoneRules(identifier: name) else {
            preconditionFailure("\"\(name)\" is not a time zone of the IANA database")
        }
        self = rules
    }
}
