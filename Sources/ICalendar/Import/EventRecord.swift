import Foundation
import Streaks

/// What a VEVENT says, read out of libical's tree into Swift values; times are not yet resolved to zones.
struct EventRecord: Sendable {
    var uid: String?
    var start: ICalTime?
    var end: ICalTime?
    var duration: ICalDuration?
    var isCancelled = false
    var summary = ""
    var categories: [String] = []
    /// The first value of each property kept for habit filters, by uppercased name.
    var kept: [String: String] = [:]
    /// The points property's value and the line it is on, if the event has one.
    var points: (text: String, line: ContentLine)?
    /// RRULE values as written, with their lines (read by `RecurrenceRule` when the series is expanded).
    var recurrenceRules: [RuleText] = []
    /// EXRULE values as written, with their lines.
    var exceptionRules: [RuleText] = []
    /// RDATE values: DATE, DATE-TIME, or PERIOD (a start with its own end or duration).
    var recurrenceDates: [RecurrenceDate] = []
    /// EXDATE values.
    var exceptionDates: [ICalTime] = []
    /// The instance a RECURRENCE-ID override replaces.
    var recurrenceID: ICalTime?
    /// RECURRENCE-ID;RANGE=THISANDFUTURE: the override applies to the instances that follow too.
    var isThisAndFuture = false
    /// The event is a day annotation StreakCal wrote (`X-STREAKCAL-ANNOTATION`), not a session.
    var isAnnotation = false
    /// A DTSTART, DTEND or RECURRENCE-ID names a date or time that does not exist (February 30,
    /// 25:00): the reader has said so where it is, and the event stands for no session.
    var hasImpossibleTime = false
    /// The first recurrence property's line, for diagnostics about the series.
    var recurrenceLine: ContentLine?
    /// The BEGIN:VEVENT line.
    var begin: ContentLine
    /// Lines of the properties that diagnostics may name.
    var startLine: ContentLine?
    var endLine: ContentLine?
    var durationLine: ContentLine?

    /// Which copy of an event is the latest (RFC 5545 3.8.7.4, RFC 5546 2.1.5): the highest
    /// SEQUENCE, then the latest DTSTAMP, then the latest LAST-MODIFIED.
    var revision = Revision()

    /// The event has an RDATE line (its values may all lie outside the window, or be unreadable).
    var hasRecurrenceDates = false

    /// Whether the event has recurrence properties (RRULE, RDATE; EXRULE and EXDATE only subtract).
    var isRecurring: Bool { !recurrenceRules.isEmpty || hasRecurrenceDates }

    /// Reads a text property's value (its UTF-8 bytes) for what its name stands for: the last UID
    /// (`knownUID` when the caller made it already), the last SUMMARY, every CATEGORIES value, the
    /// first points property (on `line`, made only then).
    mutating func readText(
        _ value: UnsafeBufferPointer<UInt8>, roles: ComponentParsing.TextRoles, name: String, uid knownUID: String? = nil,
        line: @autoclosure () -> ContentLine
    ) {
        if roles.contains(.kept), kept[name] == nil { kept[name] = TextValue.decode(bytes: value) }
        if roles.contains(.uid) { uid = knownUID ?? TextValue.decode(bytes: value) }
        if roles.contains(.summary) { summary = TextValue.decode(bytes: value) }
        if roles.contains(.categories) { categories += TextValue.decodeList(bytes: value).filter { !$0.isEmpty } }
        if roles.contains(.annotation) { isAnnotation = true }
        if roles.contains(.points), points == nil { points = (TextValue.decode(bytes: value), line()) }
    }
}

/// What orders the copies of one event: SEQUENCE, then DTSTAMP, then LAST-MODIFIED (seconds since
/// 1970, as written); a missing value counts as the lowest.
struct Revision: Comparable, Sendable {
    var sequence = 0
    var stamp: Int64 = .min
    var lastModified: Int64 = .min

    static func < (lhs: Revision, rhs: Revision) -> Bool {
        (lhs.sequence, lhs.stamp, lhs.lastModified) < (rhs.sequence, rhs.stamp, rhs.lastModified)
    }

    /// Reads a SEQUENCE, DTSTAMP or LAST-MODIFIED value (`name` uppercased) into the revision;
    /// a value that cannot be read leaves it as it is.
    mutating func read(_ name: String, value: UnsafeBufferPointer<UInt8>) {
        var start = 0
        var end = value.count
        while start < end, value[start] == 0x20 || value[start] == 0x09 { start += 1 }
        while end > start, value[end - 1] == 0x20 || value[end - 1] == 0x09 { end -= 1 }
        let trimmed = UnsafeBufferPointer(rebasing: value[start..<end])
        if name == "SEQUENCE" {
            var number = 0
            for byte in trimmed {
                guard byte >= 0x30, byte <= 0x39, number < Int.max / 10 - 9 else { return }
                number = number * 10 + Int(byte - 0x30)
            }
            if !trimmed.isEmpty { sequence = number }
            return
        }
        guard let time = ICalTime(iCalendarBytes: trimmed) else { return }
        if name == "DTSTAMP" { stamp = time.local.secondsSince1970 } else { lastModified = time.local.secondsSince1970 }
    }
}

/// An RRULE or EXRULE value as written, and its line (for diagnostics that name the rule).
struct RuleText: Sendable {
    var text: String
    var line: ContentLine?

}

/// One RDATE value.
///
/// A PERIOD's end and duration are boxed: most values are dates or times, and a list of many values
/// then costs 40 bytes a value rather than 88.
struct RecurrenceDate: Sendable {
    var start: ICalTime
    private let period: Period?

    private indirect enum Period: Sendable {
        case period(end: ICalTime?, duration: ICalDuration?)
    }

    init(start: ICalTime, end: ICalTime?, duration: ICalDuration?) {
        self.start = start
        period = end == nil && duration == nil ? nil : .period(end: end, duration: duration)
    }

    /// A PERIOD's end, if it gives one.
    var end: ICalTime? {
        guard case .period(let end, _)? = period else { return nil }
        return end
    }

    /// A PERIOD's duration, if it gives one.
    var duration: ICalDuration? {
        guard case .period(_, let duration)? = period else { return nil }
        return duration
    }
}
