import CalendarLayout
import Streaks

/// The figures every rich renderer shows (Markdown, SVG, HTML), in one wording.
struct ReportFigures {
    /// (name, value) pairs in reading order.
    let rows: [(name: String, value: String)]

    init(_ report: StreakReport, sources: [ReportSource] = [], today: Day? = nil) {
        let goal = report.goal
        let dayCount = report.days.count
        let rules = report.rules
        let goalText = rules.schedule.entries.isEmpty || rules.periodGoal != nil
            ? DayWords.goal(of: report)
            : (rules.atMost ? "at most " : "") + "by schedule: \(rules.schedule)"
        var rows: [(name: String, value: String)] = []
        if let calendars = ReportHeading(sources: sources, report: report).calendarsRow { rows.append(calendars) }
        rows += [
            ("Window", "\(report.from) to \(report.to) (\(dayCount) \(dayCount == 1 ? "day" : "days"))"),
            ("Goal", goalText),
            ("Time zone", goal.timeZone.identifier),
            ("Day starts at", goal.dayStart.description),
        ]
        rows += [
            ("Current streak", TextReport.describe(report.currentStreak, unit: report.streakUnit)),
            ("Longest streak", TextReport.describe(report.longestStreak, unit: report.streakUnit)),
            ("Days", TextReport.dayCounts(report)),
            DayWords.total(of: report),
        ]
        if let progress = today.flatMap(report.progress(on:)) { rows.append(("Today so far", Self.describe(progress, unit: report.streakUnit, points: goal.unit))) }
        rows += Self.ruleRows(report)
        self.rows = rows
    }

    /// How today stands, in words: "40 of 100 points, 60 to go; the 3-day streak is at risk".
    static func describe(_ progress: TodayProgress, unit: String, points: PointsUnit) -> String {
        let total = progress.total
        let streak = progress.currentStreak == 1 ? "the 1-\(unit) streak" : "the \(progress.currentStreak)-\(unit) streak"
        let risk = progress.streakAtRisk ? "; \(streak) is at risk" : progress.currentStreak > 0 ? "; \(streak) is safe" : ""
        switch total.status {
        case .rest: return "\(points.describe(total.points)), a rest day"
        case .skipped: return "\(points.describe(total.points)), skipped"
        default: break
        }
        if let allowed = progress.pointsAllowed {
            return total.status == .over
                ? "\(points.describe(total.points)), over the limit of \(total.required)" + risk
                : "\(total.points) of at most \(points.describe(total.required)), \(allowed) more allowed" + risk
        }
        if let period = progress.period {
            let needs: String = switch period.target {
            case .points(let target): "\(period.points) of \(points.describe(target)) this \(unit)"
            case .metDays(let target): "\(period.metDays) of \(target) days met this \(unit)"
            }
            return "\(points.describe(total.points)) today, \(needs)" + risk
        }
        if progress.pointsNeeded == 0 { return "\(total.points) of \(points.describe(total.required)), met" + risk }
        return "\(total.points) of \(points.describe(total.required)), \(progress.pointsNeeded) to go" + risk
    }

    /// Each period of a period goal: its days, its progress in words and its status.
    static func periodRows(_ report: StreakReport) -> [(days: String, progress: String, status: DayStatus)] {
        report.periods.map { period in
            let progress: String = switch period.target {
            case .points(let target): "\(period.points) of \(report.goal.unit.describe(target))"
            case .metDays(let target): "\(period.metDays) of \(target) days met"
            }
            return ("\(period.days.lowerBound) to \(period.days.upperBound)", progress, period.status)
        }
    }

    /// The best streaks as a compact table (issue 46.9: one line of them was a wall of text), each
    /// renderer drawing it in its own way: rank, length ("12 days") and days ("2024-02-24 to
    /// 2024-03-06", or the one day). None in the simple case, where the longest streak says it all.
    static func bestStreakRows(_ report: StreakReport) -> [(rank: Int, length: String, days: String)] {
        guard !report.rules.isSimple else { return [] }
        return report.bestStreaks.enumerated().compactMap { index, streak in
            guard let start = streak.start, let end = streak.end else { return nil }
            let unit = report.streakUnit
            return (index + 1, "\(streak.length) \(streak.length == 1 ? unit : unit + "s")", start == end ? "\(start)" : "\(start) to \(end)")
        }
    }

    /// The best streaks as text lines under a `Best streaks:` line, columns aligned for a
    /// fixed-width font (`  1.  12 days  2024-02-24 to 2024-03-06`), or, `aligned` false, for a
    /// proportional one, where spaces do not line up (`1. 12 days: 2024-02-24 to 2024-03-06`);
    /// none when there are none.
    static func bestStreakLines(_ report: StreakReport, aligned: Bool = true) -> [String] {
        let rows = bestStreakRows(report)
        guard !rows.isEmpty else { return [] }
        guard aligned else { return ["Best streaks:"] + rows.map { "\($0.rank). \($0.length): \($0.days)" } }
        let rankWidth = "\(rows.count).".count
        let lengthWidth = rows.map(\.length.count).max() ?? 0
        return ["Best streaks:"] + rows.map { row in
            let rank = "\(row.rank).", length = row.length
            return "  " + String(repeating: " ", count: rankWidth - rank.count) + rank + "  "
                + String(repeating: " ", count: lengthWidth - length.count) + length + "  " + row.days
        }
    }

    /// The figures only rules give (none in the simple case): score, freezes (the best streaks are
    /// a table of their own, ``bestStreakRows(_:)``).
    static func ruleRows(_ report: StreakReport) -> [(name: String, value: String)] {
        let rules = report.rules
        guard !rules.isSimple else { return [] }
        var rows: [(name: String, value: String)] = []
        rows.append(("Habit score", TextReport.percent(report.score)))
        if !rules.freezes.isNone {
            rows.append(("Freezes", "\(report.freezesUsed) used, \(report.freezesLeft) left (\(report.freezesEarned) earned; rule: \(rules.freezes))"))
        }
        if !rules.todayGrace { rows.append(("Today", "counted when missed (no today-grace)")) }
        return rows
    }
}

extension StreakReport {
    /// What the streaks count: `day`, or the period goal's `week` or `month`.
    var streakUnit: String { rules.periodGoal?.unitName ?? "day" }

    /// The months the window touches, in order.
    var months: [CalendarMonth] {
        guard !days.isEmpty else { return [] }
        return Array(CalendarMonth(containing: from)...CalendarMonth(containing: to))
    }
}

/// Names the renderers print.
enum CalendarNames {
    static let months = TextReport.monthNames
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let weekdayAbbreviations = TextReport.weekdayNames

    /// "February 2024".
    static func title(of month: CalendarMonth) -> String {
        "\(months[month.month - 1]) \(month.year)"
    }

    /// "20 Feb 2024".
    static func dayMonthYear(_ day: Day) -> String {
        let (year, month, dayOfMonth) = day.components
        return "\(dayOfMonth) \(months[month - 1].prefix(3)) \(year)"
    }

    /// "Tue 20 Feb 2024".
    static func short(_ day: Day) -> String {
        let (year, month, dayOfMonth) = day.components
        return "\(weekdays[day.weekday.rawValue].prefix(3)) \(dayOfMonth) \(months[month - 1].prefix(3)) \(year)"
    }

    /// "Tuesday, 20 February 2024".
    static func long(_ day: Day) -> String {
        let (year, month, dayOfMonth) = day.components
        return "\(weekdays[day.weekday.rawValue]), \(dayOfMonth) \(months[month - 1]) \(year)"
    }
}

/// Escaping for HTML and XML (SVG) text and attribute values.
enum Markup {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references: safe in text and in quoted attributes.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            // Control characters other than tab and line feed are not allowed in XML 1.0.
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension ReportContent {
    /// The longest summary a report names in full in `unmatchedLine`; longer ones are cut with "…".
    static let longestNamedSummary = 40

    /// With named habits, what the sessions no habit took are, in one wording: "Sessions no habit
    /// took: 144, most often Coffee (120), Lunch (20)" (at most five summaries, each made safe by
    /// `escape`); `nil` without habits.
    func unmatchedLine(escape: (String) -> String) -> String? {
        habits.isEmpty ? nil : Self.unmatchedLine(sessions: unmatchedSessions, summaries: unmatchedSummaries, escape: escape)
    }

    /// `unmatchedLine(escape:)` for a renderer that holds the counts itself.
    static func unmatchedLine(sessions: Int, summaries: [SummaryCount], escape: (String) -> String) -> String {
        let named = summaries.prefix(5).map { count -> String in
            let summary = count.summary.isEmpty ? "(no summary)" : count.summary
            let shown = summary.count > Self.longestNamedSummary ? summary.prefix(Self.longestNamedSummary - 1) + "…" : summary
            return "\(escape(String(shown))) (\(count.sessions))"
        }
        return "Sessions no habit took: \(sessions)" + (named.isEmpty ? "" : ", most often " + named.joined(separator: ", "))
    }
}

extension HabitReport {
    /// Whether its days are the calendar's (it took every session the calendar counts): a report
    /// then says so in a line instead of drawing the same section twice (issue 46.8).
    func repeats(_ calendar: StreakReport) -> Bool {
        report.days == calendar.days && report.periods == calendar.periods
    }

    /// What stands for the section of a habit that ``repeats(_:)`` the calendar.
    static let repeatsCalendar = "it took every session: its days and figures are the calendar's"
}
