public import CalendarDiagnostics
/// When a session starts or ends: an exact instant, a wall-clock time, or a whole date.
///
/// ```swift
/// let start = SessionTime.instant(secondsSince1970: 1_708_416_000)   // 2024-02-20T08:00:00Z
/// let floating = SessionTime.floating(LocalDateTime(year: 2024, month: 2, day: 20, hour: 8)!)
/// let allDay = SessionTime.date(Day("2024-02-20"))
/// ```
public enum SessionTime: Hashable, Sendable {
    /// An exact moment, in seconds since 1970-01-01T00:00:00Z.
    case instant(secondsSince1970: Int64)
    /// A wall-clock time that belongs to no zone (RFC 5545 "floating"): it is read in the report's zone.
    case floating(LocalDateTime)
    /// A whole day (an all-day event's DATE value).
    case date(Day)

    /// The wall-clock time in `zone` (for a date: its midnight).
    public func localDateTime(in zone: TimeZoneRules) -> LocalDateTime {
        switch self {
        case .instant(let seconds): zone.localDateTime(at: seconds)
        case .floating(let local): local
        case .date(let day): LocalDateTime(day: day, secondOfDay: 0)
        }
    }

    /// The instant in `zone` (floating times and dates are read as wall-clock times in it).
    public func instant(in zone: TimeZoneRules) -> Int64 {
        switch self {
        case .instant(let seconds): seconds
        case .floating(let local): zone.instant(for: local)
        case .date(let day): zone.instant(for: LocalDateTime(day: day, secondOfDay: 0))
        }
    }
}

/// One session of activity: the unit whose points add up to a day's total.
///
/// ```swift
/// let session = Session(
///     id: "run-1",
///     start: .floating(LocalDateTime(year: 2024, month: 2, day: 26, hour: 9)!),
///     end: .floating(LocalDateTime(year: 2024, month: 2, day: 26, hour: 10)!),
///     points: 120)
/// print(session.day(in: .utc, dayStart: .midnight))
/// // Prints "2024-02-26"
/// ```
public struct Session: Hashable, Sendable, Identifiable {
    /// A stable identity: the event's UID (for an instance of a recurring event, with its recurrence id).
    public var id: String
    /// When the session starts.
    public var start: SessionTime
    /// When it ends (exclusive); never `nil`: an event without an end has a zero-length or one-day session.
    public var end: SessionTime
    /// The points the session earns, never negative.
    public var points: Int
    /// The event's title.
    public var summary: String
    /// The event's categories, in order.
    public var categories: [String]
    /// Other properties of the event that the importer was asked to keep
    /// (`SessionImporter.keptProperties`), by uppercased name: the first value of each. Empty
    /// unless a habit filter reads them.
    public var properties: [String: String]
    /// Where the event starts in its source, if it came from a file.
    public var source: SourceLocation?

    public init(
        id: String,
        start: SessionTime,
        end: SessionTime,
        points: Int,
        summary: String = "",
        categories: [String] = [],
        properties: [String: String] = [:],
        source: SourceLocation? = nil
    ) {
        self.id = id
        self.start = start
        self.end = end
        self.points = max(0, points)
        self.summary = summary
        self.categories = categories
        self.properties = properties
        self.source = source
    }

    /// Whether the session lasts whole days (its start is a date, not a time).
    public var isAllDay: Bool {
        if case .date = start { return true }
        return false
    }

    /// The day the session counts toward: the local day of its start in `zone`, shifted back by `dayStart`.
    ///
    /// All-day sessions count on their start date whatever the zone and day start.
    @inlinable
    public func day(in zone: TimeZoneRules, dayStart: DayStart) -> Day {
        start.day(in: zone, dayStart: dayStart)
    }
}

extension SessionTime {
    /// The day a session starting at this time counts toward: its local day in `zone`, shifted back
    /// by `dayStart`; a date is its own day whatever the zone and day start.
    ///
    /// ```swift
    /// let start = SessionTime.instant(secondsSince1970: 1_709_258_400)  // 2024-03-01 02:00 UTC
    /// print(start.day(in: .utc, dayStart: .midnight), start.day(in: .utc, dayStart: DayStart(hour: 4)!))
    /// // Prints "2024-03-01 2024-02-29"
    /// ```
    @inlinable
    public func day(in zone: TimeZoneRules, dayStart: DayStart) -> Day {
        switch self {
        case .date(let day):
            return day
        case .instant(let seconds):
            return zone.localDateTime(at: seconds).advanced(bySeconds: -Int64(dayStart.secondsAfterMidnight)).day
        case .floating(let local):
            return local.advanced(bySeconds: -Int64(dayStart.secondsAfterMidnight)).day
        }
    }
}

/// When a day begins, as a time after midnight: with 04:00, 00:00 to 03:59 belongs to the previous day.
public struct DayStart: Hashable, Sendable {
    /// Seconds after midnight, 0..<86400.
    public let secondsAfterMidnight: Int

    /// Midnight: days begin at 00:00.
    public static let midnight = DayStart(uncheckedSeconds: 0)

    /// A day start at `hour:minute`; `nil` outside 00:00...23:59.
    public init?(hour: Int, minute: Int = 0) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.secondsAfterMidnight = hour * 3600 + minute * 60
    }

    /// Parses `HH:MM` (or `H:MM`); `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    fileprivate init(uncheckedSeconds: Int) {
        self.secondsAfterMidnight = uncheckedSeconds
    }
}

extension DayStart: CustomStringConvertible {
    /// `HH:MM`.
    public var description: String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(secondsAfterMidnight / 3600)):\(twoDigits(secondsAfterMidnight / 60 % 60))"
    }
}

extension DayStart: Codable {
    private enum CodingKeys: String, CodingKey { case secondsAfterMidnight }

    /// Decodes `{"secondsAfterMidnight": N}`, rejecting values outside 0..<86400.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let seconds = try container.decode(Int.self, forKey: .secondsAfterMidnight)
        guard (0..<86_400).contains(seconds) else {
            throw DecodingError.dataCorruptedError(
                forKey: .secondsAfterMidnight, in: container,
                debugDescription: "A day start is 0..<86400 seconds after midnight, not \(seconds)")
        }
        self.init(uncheckedSeconds: seconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(secondsAfterMidnight, forKey: .secondsAfterMidnight)
    }
}

extension SessionTime {
    /// The whole minutes from this time to `other`, 0 when `other` is earlier: a session's length
    /// as points (`PointsRule.minutes`, `HabitPoints.minutes`). An all-day session (this time a
    /// date) counts none: it marks days, as a two-week vacation does, and is no time spent
    /// (it counted 20,160 on its first day).
    public func wholeMinutes(until other: SessionTime) -> Int {
        if case .date = self { return 0 }
        return max(0, seconds(until: other) / 60)
    }

    /// Seconds from this time to `other`; floating times and dates are compared on one wall clock.
    package func seconds(until other: SessionTime) -> Int {
        Int(other.comparableSeconds - comparableSeconds)
    }

    /// Whether this time is before `other` (floating times and dates read as UTC for the comparison).
    package func isBefore(_ other: SessionTime) -> Bool {
        comparableSeconds < other.comparableSeconds
    }

    private var comparableSeconds: Int64 {
        switch self {
        case .instant(let seconds): seconds
        case .floating(let local): local.secondsSince1970
        case .date(let day): Int64(day.daysSince1970) * 86_400
        }
    }
}
