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
    /// Sessions that start after this instant (seconds since 1970) are planned: listed as such,
    /// their points not counted; `nil`: none is (planned sessions counted as done).
    public var plannedAfter: Int64?

    /// Picks the sessions of `day` from `sessions` and sorts them by start.
    public init<S: Sequence>(
        day: Day, goal: StreakGoal, from sessions: S, total: DayTotal? = nil, plannedAfter: Int64? = nil
    ) where S.Element == Session {
        self.day = day
        self.total = total
        self.plannedAfter = plannedAfter
        self.goal = goal
        self.sessions = sessions
            .filter { $0.day(in: goal.timeZone, dayStart: goal.dayStart) == day }
            .enumerated()
            .sorted { ($0.element.start.instant(in: goal.timeZone), $0.offset) < ($1.element.start.instant(in: goal.timeZone), $1.offset) }
            .map(\.element)
    }

    /// Whether `session` is planned: it starts after ``plannedAfter``.
    public func isPlanned(_ session: Session) -> Bool {
        plannedAfter.map { session.start.instant(in: goal.timeZone) > $0 } ?? false
    }

    /// The day's points: of the sessions that are not planned.
    public var points: Int { sessions.reduce(0) { isPlanned($1) ? $0 : $0 &+ $1.points } }

    /// The cards as text, ending with a newline. A planned session says so where its points would
    /// stand; the day's points are those of the others.
    public func render() -> String {
        let status = total?.status ?? goal.status(forPoints: points)
        let required = total?.required ?? goal.requiredPoints
        let zone = goal.timeZone.identifier.escapingControlCharacters()
        let unit = goal.unit
        let planned = sessions.count(where: isPlanned)
        let header = switch status {
        case .rest: "\(unit.describe(points)), rest day"
        case .upcoming: "upcoming"
        default: "\(points) of \(unit.describe(required)), \(status.rawValue)"
        }
        var lines = ["Sessions on \(day) (\(zone)): \(header)" + (planned > 0 ? ", \(planned) planned" : "")]
        if sessions.isEmpty {
            lines.append("  no sessions")
        }
        for session in sessions {
            let column = isPlanned(session) ? "planned" : unit.describe(session.points, padded: 6)
            let title = (session.summary.isEmpty ? session.id : session.summary).escapingControlCharacters()
            lines.append("  \(timeRange(of: session))  \(column.padding(unit.columnWidth))  \(title)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The cards as JSON (`streakcal sessions --format json`), in the report JSON's layout and
    /// with its key order: `date`, `diagnostics` (as the report's), `generator`, `points`, `required`,
    /// `sessions` (each `allDay`, `categories`, `end`, `id`, `planned`, `points`, `source` with
    /// `file` and `line` or `null`, `start`, `summary`), `status` and `timeZone`. A session's
    /// `start` and `end` are local times in the zone, `YYYY-MM-DDTHH:MM:SS`, or days for an all-day
    /// session (its `end` the day after its last, as RFC 5545's DTEND); `planned` is whether it
    /// starts after now (its points are then not among the day's).
    public func json(diagnostics: [Diagnostic] = []) -> String {
        var json = JSONWriter()
        write(into: &json, indent: 0, diagnostics: diagnostics)
        return json.text + "\n"
    }

    /// Days' cards as one JSON document (`streakcal sessions --from --to --format json`): `days`
    /// (each day as ``json(diagnostics:)`` writes it, without `diagnostics` and `generator`),
    /// `diagnostics`, `from`, `generator`, `timeZone` and `to`.
    public static func json(agenda days: [SessionCards], diagnostics: [Diagnostic] = []) -> String {
        var json = JSONWriter()
        json.open("{")
        json.key("days", indent: 2, first: true)
        json.open("[")
        for (index, day) in days.enumerated() {
            json.element(indent: 4, first: index == 0)
            day.write(into: &json, indent: 4, diagnostics: nil)
        }
        json.close("]", indent: 2, empty: days.isEmpty)
        json.key("diagnostics", indent: 2)
        json.diagnostics(diagnostics, indent: 2)
        json.key("from", indent: 2)
        json.optional(days.first?.day) { $0.date($1) }
        json.key("generator", indent: 2)
        json.string(StreakCalVersion.generator)
        json.key("timeZone", indent: 2)
        json.optional(days.first?.goal.timeZone.identifier) { $0.string($1) }
        json.key("to", indent: 2)
        json.optional(days.last?.day) { $0.date($1) }
        return json.document()
    }

    /// The day as an object whose members are at `indent + 2`; with `diagnostics`, those and the
    /// generator too (a document of its own).
    private func write(into json: inout JSONWriter, indent: Int, diagnostics: [Diagnostic]?) {
        let inner = indent + 2
        json.open("{")
        json.key("date", indent: inner, first: true)
        json.date(day)
        if let diagnostics {
            json.key("diagnostics", indent: inner)
            json.diagnostics(diagnostics, indent: inner)
            json.key("generator", indent: inner)
            json.string(StreakCalVersion.generator)
        }
        json.key("points", indent: inner)
        json.integer(points)
        json.key("required", indent: inner)
        json.integer(total?.required ?? goal.requiredPoints)
        json.key("sessions", indent: inner)
        json.open("[")
        for (index, session) in sessions.enumerated() {
            json.element(indent: inner + 2, first: index == 0)
            writeSession(session, into: &json, indent: inner + 4)
        }
        json.close("]", indent: inner, empty: sessions.isEmpty)
        json.key("status", indent: inner)
        json.string((total?.status ?? goal.status(forPoints: points)).rawValue)
        json.key("timeZone", indent: inner)
        json.string(goal.timeZone.identifier)
        json.close("}", indent: indent, empty: false)
    }

    /// One session as an object whose members are at `indent`.
    private func writeSession(_ session: Session, into json: inout JSONWriter, indent: Int) {
        json.open("{")
        json.key("allDay", indent: indent, first: true)
        json.boolean(session.isAllDay)
        json.key("categories", indent: indent)
        json.open("[")
        for (index, category) in session.categories.enumerated() {
            json.element(indent: indent + 2, first: index == 0)
            json.string(category)
        }
        json.close("]", indent: indent, empty: session.categories.isEmpty)
        json.key("end", indent: indent)
        json.string(localText(session.end))
        json.key("id", indent: indent)
        json.string(session.id)
        json.key("planned", indent: indent)
        json.boolean(isPlanned(session))
        json.key("points", indent: indent)
        json.integer(session.points)
        json.key("source", indent: indent)
        json.optional(session.source) { json, source in
            json.open("{")
            json.key("file", indent: indent + 2, first: true)
            json.string(source.file)
            json.key("line", indent: indent + 2)
            json.integer(source.line)
            json.close("}", indent: indent, empty: false)
        }
        json.key("start", indent: indent)
        json.string(localText(session.start))
        json.key("summary", indent: indent)
        json.string(session.summary)
        json.close("}", indent: indent - 2, empty: false)
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
