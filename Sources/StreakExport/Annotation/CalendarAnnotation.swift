public import ICalendar
public import Streaks

/// The annotated calendar `streakcal annotate` writes: the original calendars with one all-day event
/// per evaluated day that has sessions (or every day), carrying the day's status.
///
/// Each day's event reads well in a calendar app (`✓ 120/100 points · streak 3`, coloured by RFC 7986
/// `COLOR`) and carries machine-readable `X-STREAKCAL-STATUS`, `-POINTS`, `-REQUIRED`, `-STREAK` and
/// `-SESSIONS`. Its UID depends on the day only, so importing again updates instead of duplicating,
/// and annotating an annotated calendar replaces the old annotations.
///
/// ```swift
/// let annotation = CalendarAnnotation(report: report)
/// print(annotation.events().first?.summary ?? "")
/// // Prints "✓ 100/100 points · streak 1" for the tutorial's 2024-02-20
/// ```
public struct CalendarAnnotation: Sendable {
    /// The scored days.
    public var report: StreakReport
    /// Annotate every day of the window, not only days with sessions.
    public var includesEmptyDays: Bool

    public init(report: StreakReport, includesEmptyDays: Bool = false) {
        self.report = report
        self.includesEmptyDays = includesEmptyDays
    }

    /// The prefix of every property StreakCal writes; inputs' properties with it are replaced.
    public static let propertyPrefix = "X-STREAKCAL-"

    /// RFC 7986 colour names (CSS3) by status: the tutorial's green, red and gray; light blue for
    /// rest, light gray for skipped and steel blue for frozen days.
    public static let colors: [DayStatus: String] = [
        .met: "green", .partial: "red", .none: "gray", .rest: "lightblue", .skipped: "lightgray", .frozen: "steelblue",
    ]

    /// The stable UID of a day's annotation.
    public static func uid(for day: Day) -> String {
        "streakcal-day-\(day)"
    }

    /// The streak each day of the window ends, counted as `StreakReport` counts: met and frozen
    /// days extend it, rest and skipped days keep it, others end it (0).
    public var streakLengths: [Int] {
        var run = 0
        return report.days.map { day in
            run = day.status.extendsStreak ? run + 1 : day.status.isPassedOver ? run : 0
            return run
        }
    }

    /// One all-day event per annotated day.
    public func events() -> [AllDayEvent] {
        return zip(report.days, streakLengths).compactMap { day, streak in
            guard includesEmptyDays || day.sessions > 0 else { return nil }
            let mark = TextReport.marks[day.status, default: "·"]
            let required = day.required
            var summary = switch day.status {
            case .rest: "\(mark) \(day.points) points, rest day"
            case .skipped: "\(mark) \(day.points) points, skipped"
            case .frozen: "\(mark) \(day.points)/\(required) points, frozen"
            default: "\(mark) \(day.points)/\(required) points"
            }
            if streak > 0 { summary += " · streak \(streak)" }
            return AllDayEvent(
                uid: Self.uid(for: day.date), day: day.date, summary: summary,
                color: Self.colors[day.status], categories: ["StreakCal", day.status.rawValue],
                properties: [
                    WrittenProperty(SessionImporter.annotationMarker, "day"),
                    WrittenProperty("X-STREAKCAL-STATUS", day.status.rawValue),
                    WrittenProperty("X-STREAKCAL-POINTS", String(day.points)),
                    WrittenProperty("X-STREAKCAL-REQUIRED", String(required)),
                    WrittenProperty("X-STREAKCAL-STREAK", String(streak)),
                    WrittenProperty("X-STREAKCAL-SESSIONS", String(day.sessions)),
                ])
        }
    }

    /// Properties that give each single (non-recurring) session's event its day's status, by UID.
    ///
    /// A recurring event stands for many days, so it gets none.
    public func sessionMarks(for sessions: [Session]) -> [String: [WrittenProperty]] {
        var marks: [String: [WrittenProperty]] = [:]
        for session in sessions where !session.id.contains("/") {
            let day = session.day(in: report.goal.timeZone, dayStart: report.goal.dayStart)
            guard let total = report.total(on: day) else { continue }
            marks[session.id] = [
                WrittenProperty("X-STREAKCAL-DAY", day.description),
                WrittenProperty("X-STREAKCAL-DAY-STATUS", total.status.rawValue),
                WrittenProperty("X-STREAKCAL-DAY-POINTS", String(total.points)),
            ]
        }
        return marks
    }

    /// Writes `sources` with the annotations (and, given `markingSessions`, the sessions' marks).
    ///
    /// - Parameters:
    ///   - sources: The calendars to copy, in order.
    ///   - sessions: The sessions whose single events get their day's status (`X-STREAKCAL-DAY`, ...).
    ///   - timestamp: DTSTAMP of the annotations, in seconds since 1970 UTC.
    /// - Throws: `CalendarReadError` when a source cannot be read.
    public func write(
        _ sources: [CalendarSource], markingSessions sessions: [Session]? = nil, timestamp: Int64
    ) throws(CalendarReadError) -> CalendarWriter.Output {
        let writer = CalendarWriter(ownedPropertyPrefix: Self.propertyPrefix, annotationMarker: SessionImporter.annotationMarker)
        return try writer.write(sources, adding: events(), marks: sessions.map(sessionMarks(for:)) ?? [:], timestamp: timestamp)
    }
}
