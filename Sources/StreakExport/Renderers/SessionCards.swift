public import CalendarDiagnostics
public import Streaks

/// One day's sessions in start order, with points and local start and end times: the tutorial's session cards.
///
/// Text for a terminal: control characters in summaries, UIDs and the zone's name are shown as
/// `\u{XX}` (`String.escapingControlCharacters`), so a calendar cannot move the cursor, clear the
/// screen or make links.
///
/// ```
/// Sessions on 2024-02-25 (UTC): 100 of 100 points, met
///   03:12–04:04     20 points  Early practice
///   06:30–09:50     80 points  Morning session
/// ```
public struct SessionCards: Sendable {
    /// The day to list.
    public var day: Day
    /// The zone and day start that decide which sessions belong to the day.
    public var goal: StreakGoal
    /// The day's sessions (others are left out).
    public var sessions: [Session]
    /// The day's total in its report, whose status and requirement the cards show; `nil`: scored
    /// by `goal` alone.
    public var total: DayTotal?

    /// Picks the sessions of `day` from `sessions` and sorts them by start.
    public init<S: Sequence>(day: Day, goal: StreakGoal, from sessions: S, total: DayTotal? = nil) where S.Element == Session {
        self.day = day
        self.total = total
        self.goal = goal
        self.sessions = sessions
            .filter { $0.day(in: goal.timeZone, dayStart: goal.dayStart) == day }
            .enumerated()
            .sorted { ($0.element.start.instant(in: goal.timeZone), $0.offset) < ($1.element.start.instant(in: goal.timeZone), $1.offset) }
            .map(\.element)
    }

    /// The day's points.
    public var points: Int { sessions.reduce(0) { $0 &+ $1.points } }

    /// The cards as text, ending with a newline.
    public func render() -> String {
        let status = total?.status ?? goal.status(forPoints: points)
        let required = total?.required ?? goal.requiredPoints
        let zone = goal.timeZone.identifier.escapingControlCharacters()
        var lines = [status == .rest
            ? "Sessions on \(day) (\(zone)): \(points) points, rest day"
            : "Sessions on \(day) (\(zone)): \(points) of \(required) points, \(status.rawValue)"]
        if sessions.isEmpty {
            lines.append("  no sessions")
        }
        for session in sessions {
            let points = String(session.points)
            let paddedPoints = String(repeating: " ", count: max(0, 6 - points.count)) + points
            let title = (session.summary.isEmpty ? session.id : session.summary).escapingControlCharacters()
            lines.append("  \(timeRange(of: session))  \(paddedPoints) \(session.points == 1 ? "point " : "points")  \(title)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The cards as JSON (`streakcal sessions --format json`), in the report JSON's layout and
    /// with its key order: `date`, `diagnostics` (as the report's), `generator`, `points`, `required`,
    /// `sessions` (each `allDay`, `categories`, `end`, `id`, `points`, `source` with `file` and
    /// `line` or `null`, `start`, `summary`), `status` and `timeZone`. A session's `start` and
    /// `end` are local times in the zone, `YYYY-MM-DDTHH:MM:SS`, or days for an all-day session
    /// (its `end` the day after its last, as RFC 5545's DTEND).
    public func json(diagnostics: [Diagnostic] = []) -> String {
        var json = JSONWriter()
        json.open("{")
        json.key("date", indent: 2, first: true)
        json.date(day)
        json.key("diagnostics", indent: 2)
        json.diagnostics(diagnostics, indent: 2)
        json.key("generator", indent: 2)
        json.string(StreakCalVersion.generator)
        json.key("points", indent: 2)
        json.integer(points)
        json.key("required", indent: 2)
        json.integer(total?.required ?? goal.requiredPoints)
        json.key("sessions", indent: 2)
        json.open("[")
        for (index, session) in sessions.enumerated() {
            json.element(indent: 4, first: index == 0)
            writeSession(session, into: &json)
        }
        json.close("]", indent: 2, empty: sessions.isEmpty)
        json.key("status", indent: 2)
        json.string((total?.status ?? goal.status(forPoints: points)).rawValue)
        json.key("timeZone", indent: 2)
        json.string(goal.timeZone.identifier)
        return json.document()
    }

    /// One session as an object whose members are at indent 6.
    private func writeSession(_ session: Session, into json: inout JSONWriter) {
        json.open("{")
        json.key("allDay", indent: 6, first: true)
        json.boolean(session.isAllDay)
        json.key("categories", indent: 6)
        json.open("[")
        for (index, category) in session.categories.enumerated() {
            json.element(indent: 8, first: index == 0)
            json.string(category)
        }
        json.close("]", indent: 6, empty: session.categories.isEmpty)
        json.key("end", indent: 6)
        json.string(localText(session.end))
        json.key("id", indent: 6)
        json.string(session.id)
        json.key("points", indent: 6)
        json.integer(session.points)
        json.key("source", indent: 6)
        json.optional(session.source) { json, source in
            json.open("{")
            json.key("file", indent: 8, first: true)
            json.string(source.file)
            json.key("line", indent: 8)
            json.integer(source.line)
            json.close("}", indent: 6, empty: false)
        }
        json.key("start", indent: 6)
        json.string(localText(session.start))
        json.key("summary", indent: 6)
        json.string(session.summary)
        json.close("}", indent: 4, empty: false)
    }

    /// A session time in the goal's zone: `YYYY-MM-DDTHH:MM:SS`, or the day of a date.
    private func localText(_ time: SessionTime) -> String {
        if case .date(let day) = time { return day.description }
        return time.localDateTime(in: goal.timeZone).description
    }

    /// `HH:MM–HH:MM`, with the end's date when it ends on another day, or `all day`.
    public func timeRange(of session: Session) -> String {
        if case .date(let first) = session.start {
            if case .date(let end) = session.end, end.daysSince1970 - first.daysSince1970 > 1 {
                return "all day, to \(end.advanced(by: -1))".padding(11)
            }
            return "all day".padding(11)
        }
        let start = session.start.localDateTime(in: goal.timeZone)
        let end = session.end.localDateTime(in: goal.timeZone)
        let endText = end.day == start.day ? end.hourMinute : "\(end.day) \(end.hourMinute)"
        return "\(start.hourMinute)–\(endText)".padding(11)
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
