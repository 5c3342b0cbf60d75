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
