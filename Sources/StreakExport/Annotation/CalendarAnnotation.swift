public import ICalendar
public import Streaks

/// The annotated calendar `streakcal annotate` writes: the original calendars with one all-day event
/// per evaluated day that has sessions (or every day), carrying the day's status; with named
/// habits, one such event per habit and day.
///
/// Each day's event reads well in a calendar app (`✓ 120/100 points · streak 3`, coloured by RFC 7986
/// `COLOR`) and carries machine-readable `X-STREAKCAL-STATUS`, `-POINTS`, `-REQUIRED`, `-STREAK` and
/// `-SESSIONS`. Its UID names the day, the calendar (and the habit) and a domain
/// (`2024-02-20.piano@streakcal.local`, ``uid(for:habit:)``), so that importing again updates
/// instead of duplicating, while two calendars' annotations imported into one calendar app stay
/// apart. Annotating an annotated calendar replaces the old annotations.
///
/// ```swift
/// let annotation = CalendarAnnotation(report: report, calendar: CalendarSlug(name: "Piano"))
/// print(annotation.events().first?.uid ?? "", annotation.events().first?.summary ?? "")
/// // Prints "2024-02-20.piano@streakcal.local ✓ 100/100 points · streak 1" for the tutorial's 2024-02-20
/// ```
public struct CalendarAnnotation: Sendable {
    /// The scored days: of every session or, with ``habits``, of the sessions some habit took.
    public var report: StreakReport
    /// Named habits, each annotated on its own (its name in the events' summaries and UIDs); none:
    /// the days of ``report`` are annotated.
    public var habits: [HabitReport]
    /// Annotate every day of the window, not only days with sessions.
    public var includesEmptyDays: Bool
    /// Names the annotated calendar in the UIDs (``CalendarSlug/init(names:)`` of its calendars' names).
    public var calendar: CalendarSlug
    /// The domain of the UIDs.
    public var uidDomain: UIDDomain

    /// - Parameters:
    ///   - report: The scored days.
    ///   - habits: Named habits to annotate one by one instead of `report`'s days.
    ///   - includesEmptyDays: Annotate every day of the window, not only days with sessions.
    ///   - calendar: Names the calendar in the UIDs; default `calendar`.
    ///   - uidDomain: The UIDs' domain; default `streakcal.local`.
    public init(
        report: StreakReport, habits: [HabitReport] = [], includesEmptyDays: Bool = false,
        calendar: CalendarSlug = CalendarSlug(names: []), uidDomain: UIDDomain = .standard
    ) {
        self.report = report
        self.habits = habits
        self.includesEmptyDays = includesEmptyDays
        self.calendar = calendar
        self.uidDomain = uidDomain
    }

    /// The prefix of every property StreakCal writes; inputs' properties with it are replaced.
    public static let propertyPrefix = "X-STREAKCAL-"

    /// RFC 7986 colour names (CSS3) by status: the tutorial's green, red and gray; light blue for
    /// rest, light gray for skipped, steel blue for frozen days and dark orange for days over an
    /// at-most limit.
    public static let colors: [DayStatus: String] = [
        .met: "green", .partial: "red", .none: "gray", .rest: "lightblue", .skipped: "lightgray", .frozen: "steelblue",
        .over: "darkorange",
    ]

    /// The UID of a day's annotation: `YYYY-MM-DD.<calendar>@<domain>`, or with a habit
    /// `YYYY-MM-DD.<calendar>.<habit>@<domain>` (each part a ``CalendarSlug``; a dot never occurs
    /// inside one, so no calendar's UIDs can be another's or a habit's).
    ///
    /// ```swift
    /// let piano = CalendarAnnotation(report: report, calendar: CalendarSlug(name: "Piano"))
    /// print(piano.uid(for: Day("2024-02-20")))
    /// print(piano.uid(for: Day("2024-02-20"), habit: "Scales"))
    /// // Prints "2024-02-20.piano@streakcal.local" and "2024-02-20.piano.scales@streakcal.local"
    /// ```
    public func uid(for day: Day, habit: String? = nil) -> String {
        let habitPart = habit.map { name in
            "." + (habitSlugs.first { $0.name == name }?.slug ?? CalendarSlug(name: name)).text
        } ?? ""
        return "\(day).\(calendar.text)\(habitPart)@\(uidDomain.text)"
    }

    /// Each habit's slug; habits whose names give the same slug (`Piano`, `piano!`) get the hash of
    /// their whole name after it, so that their UIDs stay apart.
    private var habitSlugs: [(name: String, slug: CalendarSlug)] {
        let plain = habits.map { CalendarSlug(name: $0.name) }
        return zip(habits, plain).map { habit, slug in
            let name = habit.name
            guard plain.filter({ $0 == slug }).count > 1 else { return (name, slug) }
            let suffix = "-" + CalendarSlug.hash(name)
            let kept = String(slug.text.prefix(CalendarSlug.maximumLength - suffix.count))
            return (name, CalendarSlug(verbatim: kept + suffix) ?? slug)
        }
    }

    /// The calendar slug the UIDs of earlier annotations name (`2024-02-20.piano@...` names `piano`),
    /// if they all name one: re-annotating an annotated calendar keeps its UIDs, whatever its file is
    /// called now. The day-only UIDs of earlier development builds (`streakcal-day-2024-02-20`) name none.
    ///
    /// ```swift
    /// print(CalendarAnnotation.calendarSlug(inUIDs: ["2024-02-20.piano@streakcal.local", "2024-02-21.piano.scales@example.com"]) as Any)
    /// // Prints "Optional(piano)"
    /// ```
    public static func calendarSlug(inUIDs uids: [String]) -> CalendarSlug? {
        var slugs = EarlierSlugs()
        for uid in uids { slugs.add(uid: uid) }
        return slugs.slug
    }

    /// The calendar slugs earlier annotations' UIDs name, gathered a UID at a time as an input is
    /// read (`calendarSlug(inUIDs:)`): at most two are kept, since two mean none.
    ///
    /// ```swift
    /// var slugs = CalendarAnnotation.EarlierSlugs()
    /// slugs.add(uid: "2024-02-20.piano@streakcal.local")
    /// print(slugs.slug as Any)
    /// // Prints "Optional(piano)"
    /// ```
    public struct EarlierSlugs: Sendable {
        private var found: Set<CalendarSlug> = []

        public init() {}

        /// Adds the slug an earlier annotation's UID names, if it names one.
        public mutating func add(uid: String) {
            guard found.count < 2, let at = uid.lastIndex(of: "@") else { return }
            let local = uid[..<at]
            guard local.count > 11, Day(String(local.prefix(10))) != nil, local.dropFirst(10).first == "." else { return }
            let parts = local.dropFirst(11).split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let slug = CalendarSlug(verbatim: String(parts[0])) else { return }
            found.insert(slug)
        }

        /// The one slug the UIDs name; `nil` for none or several.
        public var slug: CalendarSlug? { found.count == 1 ? found.first : nil }
    }

    /// The streak each day of the window ends, counted as `StreakReport` counts: met and frozen
    /// days extend it, rest and skipped days keep it, others end it (0).
    public var streakLengths: [Int] {
        Self.streakLengths(of: report)
    }

    private static func streakLengths(of report: StreakReport) -> [Int] {
        var run = 0
        return report.days.map { day in
            run = day.status.extendsStreak ? run + 1 : day.status.isPassedOver ? run : 0
            return run
        }
    }

    /// One all-day event per annotated day; with habits, per habit and annotated day, in the order
    /// of the habits.
    public func events() -> [AllDayEvent] {
        Array(lazyEvents)
    }

    /// The events of `events()`, each made when it is reached: a long window's events are written
    /// without all being held at once.
    public var lazyEvents: some Sequence<AllDayEvent> {
        let reports = habits.isEmpty ? [(report, nil)] : habits.map { ($0.report, Optional($0.name)) }
        return reports.lazy.flatMap { report, habit in
            zip(report.days, Self.streakLengths(of: report)).lazy.compactMap { day, streak in
                self.event(on: day, streak: streak, habit: habit, activeDays: report.rules.scoresActiveDays)
            }
        }
    }

    /// A day's event, if the day is annotated.
    /// `activeDays`: the day is met by any points (a period goal without a daily goal), so its
    /// summary names no daily goal.
    private func event(on day: DayTotal, streak: Int, habit: String?, activeDays: Bool) -> AllDayEvent? {
        // A day after today is not scored yet: no annotation says anything of it.
        guard day.status != .upcoming, includesEmptyDays || day.sessions > 0 else { return nil }
        let mark = TextReport.marks[day.status, default: "·"]
        let required = day.required
        let unit = report.goal.unit
        var summary = switch day.status {
        case .rest: "\(mark) \(unit.describe(day.points)), rest day"
        case .skipped: "\(mark) \(unit.describe(day.points)), skipped"
        case .frozen: "\(mark) \(day.points)/\(required) \(unit.rawValue), frozen"
        case .over: "\(mark) \(unit.describe(day.points)), over the limit of \(required)"
        default: activeDays ? "\(mark) \(unit.describe(day.points))" : "\(mark) \(day.points)/\(required) \(unit.rawValue)"
        }
        if streak > 0 { summary += " · streak \(streak)" }
        if let habit { summary = habit + ": " + summary }
        var properties = [
            WrittenProperty(SessionImporter.annotationMarker, "day"),
            WrittenProperty("X-STREAKCAL-STATUS", day.status.rawValue),
            WrittenProperty("X-STREAKCAL-POINTS", String(day.points)),
            WrittenProperty("X-STREAKCAL-REQUIRED", String(required)),
            WrittenProperty("X-STREAKCAL-STREAK", String(streak)),
            WrittenProperty("X-STREAKCAL-SESSIONS", String(day.sessions)),
        ]
        if let habit { properties.append(WrittenProperty("X-STREAKCAL-HABIT", habit)) }
        return AllDayEvent(
            uid: uid(for: day.date, habit: habit), day: day.date, summary: summary,
            color: Self.colors[day.status], categories: ["StreakCal", day.status.rawValue], properties: properties)
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

    /// Writes `sources` with the annotations (and, given `markingSessions`, the sessions' marks), in memory.
    ///
    /// - Parameters:
    ///   - sources: The calendars to copy, in order.
    ///   - sessions: The sessions whose single events get their day's status (`X-STREAKCAL-DAY`, ...).
    ///   - timestamp: DTSTAMP of the annotations, in seconds since 1970 UTC.
    /// - Throws: `CalendarReadError` when a source cannot be read.
    public func write(
        _ sources: [CalendarSource], markingSessions sessions: [Session]? = nil, timestamp: Int64
    ) throws(CalendarReadError) -> CalendarWriter.Output {
        try Self.writer.write(sources, adding: events(), marks: sessions.map(sessionMarks(for:)) ?? [:], timestamp: timestamp)
    }

    /// Writes `copy` (calendars copied by ``writer``) with the annotations after its events, to
    /// `output`, a piece at a time.
    ///
    /// ```swift
    /// let copy = try CalendarAnnotation.writer.copy([.file("piano.ics")])
    /// var output = CalendarBytes()
    /// try annotation.write(copy, timestamp: 1_709_164_800, to: &output)
    /// ```
    public func write<Output: CalendarOutput & ~Copyable>(
        _ copy: consuming CalendarCopy, timestamp: Int64, to output: inout Output
    ) throws(CalendarCopyError<Output.Failure>) {
        try copy.write(adding: lazyEvents, timestamp: timestamp, to: &output)
    }

    /// A calendar of the annotations alone, for a calendar app that has the sessions already:
    /// VERSION, PRODID, CALSCALE and, given a name, `X-WR-CALNAME`, then the day events.
    ///
    /// ```swift
    /// let text = CalendarAnnotation(report: report, calendar: CalendarSlug(name: "Piano"))
    ///     .writeAnnotationsOnly(calendarName: "Piano (StreakCal)", timestamp: 1_709_164_800)
    /// print(text.split(separator: "\r\n").prefix(5).joined(separator: " "))
    /// // Prints "BEGIN:VCALENDAR VERSION:2.0 PRODID:-//StreakCal//StreakCal 0.1.0//EN CALSCALE:GREGORIAN X-WR-CALNAME:Piano (StreakCal)"
    /// ```
    ///
    /// - Parameters:
    ///   - calendarName: The name calendar apps show for the calendar, if any.
    ///   - timestamp: DTSTAMP of the annotations, in seconds since 1970 UTC.
    public func writeAnnotationsOnly(calendarName: String?, timestamp: Int64) -> String {
        Self.writer.write(events(), calendarName: calendarName, timestamp: timestamp)
    }

    /// `writeAnnotationsOnly(calendarName:timestamp:)` to `output`, a piece at a time.
    public func writeAnnotationsOnly<Output: CalendarOutput & ~Copyable>(
        calendarName: String?, timestamp: Int64, to output: inout Output
    ) throws(Output.Failure) {
        try Self.writer.write(lazyEvents, calendarName: calendarName, timestamp: timestamp, to: &output)
    }

    /// The writer of annotated calendars: StreakCal's properties are its own, the annotation marker
    /// says which events it wrote.
    public static let writer = CalendarWriter(ownedPropertyPrefix: propertyPrefix, annotationMarker: SessionImporter.annotationMarker)
}
