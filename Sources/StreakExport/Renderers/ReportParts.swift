import CalendarDiagnostics
public import CalendarLayout
public import Streaks

/// How a report draws its days: month grids, or a heatmap (a column per week, a row per weekday,
/// as a contribution graph) for long windows: per calendar year, or the last 53 weeks.
///
/// ```swift
/// print(ReportView.automatic(for: report))
/// // Prints "month" for a report of 10 days, "year" for one of a year
/// ```
public enum ReportView: String, Hashable, Sendable, CaseIterable {
    /// A grid per month, each day with its number and mark.
    case month
    /// A heatmap per calendar year the window touches, stacked, each day a small cell.
    case year
    /// One heatmap of the last 53 weeks, ending with the week of the window's last day, as
    /// GitHub's contribution graph: a year that is not cut at New Year.
    case rolling
    /// When the time goes: a 7 × 24 heatmap of the minutes by weekday and hour
    /// (``/Streaks/StreakReport/weekdayHours``), in place of the days; per habit where habits are given.
    case hours

    /// The longest window the month view is chosen for: about three months.
    public static let longestMonthWindow = 92

    /// The weeks the rolling view shows.
    public static let rollingWeeks = 53

    /// `month` for windows of at most ``longestMonthWindow`` days; for longer ones `rolling` when
    /// the window ends `today`, else `year`.
    public static func automatic(for report: StreakReport, today: Day? = nil) -> ReportView {
        guard report.days.count > longestMonthWindow else { return .month }
        return today != nil && report.to == today ? .rolling : .year
    }

    /// Whether the view draws heatmaps of days (`year`, `rolling`) rather than month grids.
    public var drawsHeatmaps: Bool { self == .year || self == .rolling }

    /// The heatmaps the view draws of `report`, in order, each with its title and its id: a grid
    /// per drawn calendar year, or the one rolling grid; none for `month`.
    public func heatmaps(of report: StreakReport, firstWeekday: Weekday) -> [(grid: YearGrid, title: String, id: String)] {
        switch self {
        case .month, .hours: return []
        case .year: return ReportView.drawnYears(of: report).map { (YearGrid(year: $0, firstWeekday: firstWeekday), String($0), "year-\($0)") }
        case .rolling:
            let grid = YearGrid(weeksEndingWith: report.to, weekCount: ReportView.rollingWeeks, firstWeekday: firstWeekday)
            return [(grid, "The last \(ReportView.rollingWeeks) weeks, \(grid.days.lowerBound) to \(report.to)", "rolling")]
        }
    }
}

extension ReportView {
    /// The most calendar years SVG and HTML draw day by day: the last ones of the window. A
    /// picture of 0001–9999 would be hundreds of megabytes; its figures still count every day.
    public static let maximumDrawnYears = 100

    /// The calendar years a picture draws: the window's, at most the last ``maximumDrawnYears``.
    public static func drawnYears(of report: StreakReport) -> [Int] {
        Array(report.years.suffix(maximumDrawnYears))
    }

    /// The months a picture draws: those of ``drawnYears(of:)`` the window touches.
    public static func drawnMonths(of report: StreakReport) -> [CalendarMonth] {
        guard let first = drawnYears(of: report).first else { return [] }
        return report.months.filter { $0.year >= first }
    }

    /// What a picture says when it draws fewer years than its window has; `nil` when it draws them all.
    ///
    /// ```swift
    /// print(ReportView.drawingNote(for: report) ?? "")
    /// // Prints "the days of 1925 to 2024 are drawn (at most 100 years); the figures count every day from 1900-01-01"
    /// ```
    public static func drawingNote(for report: StreakReport) -> String? {
        let drawn = drawnYears(of: report)
        guard let first = drawn.first, let last = drawn.last, report.years.count > drawn.count else { return nil }
        return "the days of \(first) to \(last) are drawn (at most \(maximumDrawnYears) years); the figures count every day from \(report.from)"
    }
}

/// What every report says about itself: the calendars it is about, in one wording.
struct ReportHeading {
    let sources: [ReportSource]
    let report: StreakReport

    /// `Piano practice`, `Piano and Running`, or `nil` without sources.
    var subject: String? { sources.subject }

    /// `Streak report: Piano practice, 2024-02-20 to 2024-02-29` (without sources, no name).
    var title: String {
        "Streak report: " + (subject.map { "\($0), " } ?? "") + "\(report.from) to \(report.to)"
    }

    /// The most calendars a heading names; the rest are counted (`and 12 more`).
    static let namedCalendars = 5

    /// `Calendar` or `Calendars` and each calendar's name with its file (a folder's or a
    /// collection's files as the one calendar they make): `Piano (a.ics), Running (b.ics)`; beyond
    /// ``namedCalendars``, `and N more`.
    var calendarsRow: (name: String, value: String)? {
        let calendars = sources.calendars
        guard !calendars.isEmpty else { return nil }
        var names = calendars.prefix(Self.namedCalendars).map { $0.file == "-" ? $0.name : "\($0.name) (\($0.file))" }
        if calendars.count > Self.namedCalendars { names.append("and \(calendars.count - Self.namedCalendars) more") }
        return (calendars.count == 1 ? "Calendar" : "Calendars", names.joined(separator: ", "))
    }

    /// Whether a text header needs a line of its own for the calendars: several of them, or one
    /// whose name is not its file's.
    var needsCalendarsLine: Bool {
        let calendars = sources.calendars
        return calendars.count > 1 || calendars.contains { $0.name != ReportSource.name(ofFile: $0.file) }
    }
}

/// What an import said, counted: `3 diagnostics (1 error, 2 warnings)`, and the first few.
struct DiagnosticTally {
    let diagnostics: [Diagnostic]

    /// How many diagnostics the short forms (text, SVG) show.
    static let shownInBrief = 5

    /// `1 diagnostic (1 warning)`, `3 diagnostics (1 error, 2 warnings)`; `nil` for none.
    var summary: String? {
        guard !diagnostics.isEmpty else { return nil }
        var parts: [String] = []
        for severity in [Diagnostic.Severity.error, .warning, .note] {
            let count = diagnostics.filter { $0.severity == severity }.count
            if count > 0 { parts.append("\(count) \(severity.rawValue)\(count == 1 ? "" : "s")") }
        }
        let count = diagnostics.count
        return "\(count) \(count == 1 ? "diagnostic" : "diagnostics") (" + parts.joined(separator: ", ") + ")"
    }

    /// A diagnostic on one line, `file:line:column: severity: message` (not escaped).
    static func line(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.location): \(diagnostic.severity.rawValue): \(diagnostic.message)"
    }

    /// The first ``shownInBrief`` diagnostics on one line each, and how many more there are.
    var brief: (lines: [String], more: Int) {
        (diagnostics.prefix(Self.shownInBrief).map(Self.line), max(0, diagnostics.count - Self.shownInBrief))
    }
}

extension DayPresentationRules {
    /// A heatmap's legend, from less to more: how the rules show a day without points, partial
    /// days at a sixth, a half and five sixths of their goal, and a met day (one entry per label),
    /// then how they show every other status the report has (rest, skipped, frozen, over).
    ///
    /// ```swift
    /// print(DayPresentationRules.standard.intensityLegend(for: report).scale.map(\.mark))
    /// // Prints "["·", "◔", "◑", "◕", "✓"]"
    /// ```
    public func intensityLegend(for report: StreakReport) -> (scale: [DayPresentation], others: [DayPresentation]) {
        let day = report.from
        let probes = [
            DayTotal(date: day, points: 0, sessions: 0, status: .none, required: 6),
            DayTotal(date: day, points: 1, sessions: 1, status: .partial, required: 6),
            DayTotal(date: day, points: 3, sessions: 1, status: .partial, required: 6),
            DayTotal(date: day, points: 5, sessions: 1, status: .partial, required: 6),
            DayTotal(date: day, points: 6, sessions: 1, status: .met, required: 6),
        ]
        var labels = Set<String>()
        let scale = probes.map(presentation(for:)).filter { labels.insert($0.label).inserted }
        let present = Set(report.days.map(\.status))
        let others = [DayStatus.rest, .skipped, .frozen, .over].filter(present.contains).compactMap { status -> DayPresentation? in
            let shown = report.days.first { $0.status == status }.map(presentation(for:)) ?? .standard(for: status)
            return labels.insert(shown.label).inserted ? shown : nil
        }
        return (scale, others)
    }
}

extension StreakReport {
    /// The calendar years the window touches, in order.
    var years: [Int] {
        guard !days.isEmpty else { return [] }
        return Array(from.components.year...to.components.year)
    }
}

/// A day's points in words, in the report's unit (points, minutes or sessions), as every format
/// says them: titles of cells, cards, annotations.
///
/// ```swift
/// let day = DayTotal(date: Day("2024-02-25"), points: 60, sessions: 2, status: .met, required: 30)
/// print(DayWords.points(day, unit: .minutes), "|", DayWords.points(day, unit: .minutes, brief: true))
/// // Prints "60 of 30 minutes, 2 sessions | 60/30 minutes"
/// ```
enum DayWords {
    /// The window's total as a figure, named by the unit: `("Points", "350 in 5 sessions")`,
    /// `("Minutes", "90 in 2 sessions")`, `("Sessions", "6")`.
    static func total(of report: StreakReport) -> (name: String, value: String) {
        let unit = report.goal.unit
        let name = title(unit)
        guard unit != .sessions else { return (name, "\(report.totalPoints)") }
        return (name, "\(report.totalPoints) in \(PointsUnit.sessions.describe(report.totalSessions))")
    }

    /// The unit as a title's first word: `Points`, `Minutes`, `Sessions`.
    static func title(_ unit: PointsUnit) -> String {
        unit.rawValue.prefix(1).uppercased() + unit.rawValue.dropFirst()
    }

    /// The goal in words, as headings and figures say it: `30 minutes a day`, `at most 60 minutes a
    /// day`, `by schedule`; under a period goal, the period's after the daily goal when one was
    /// given (`30 minutes a day, 3 days met a week`), else alone, its days met by any points
    /// (`900 minutes a month (any minutes meet a day)`, `3 active days a week`).
    static func goal(of report: StreakReport) -> String {
        let rules = report.rules, unit = report.goal.unit
        let daily = (rules.atMost ? "at most " : "")
            + (rules.schedule.entries.isEmpty ? "\(unit.describe(report.goal.requiredPoints)) a day" : "by schedule")
        guard let period = rules.periodGoal else { return daily }
        let span = period.span
        switch (period.target, rules.scoresActiveDays) {
        case (.points(let target), true):
            return (rules.schedule.entries.isEmpty ? "" : daily + ", ") + "\(unit.describe(target)) \(span) (any \(unit.rawValue) meet a day)"
        case (.metDays(let target), true):
            return (rules.schedule.entries.isEmpty ? "" : daily + ", ") + "\(target) active \(target == 1 ? "day" : "days") \(span)"
        case (.points(let target), false):
            return daily + ", " + (rules.atMost ? "at most " : "") + "\(unit.describe(target)) \(span)"
        case (.metDays(let target), false):
            return daily + ", \(target) \(target == 1 ? "day" : "days") met \(span)"
        }
    }

    /// A day's points in words: `60 of 30 minutes, 2 sessions` (brief: `60/30 minutes`). Under a
    /// period goal without a daily goal (``/Streaks/StreakRules/scoresActiveDays``) there is no
    /// goal of the day to say: `60 minutes, 2 sessions` (brief: `60 minutes`).
    static func points(_ total: DayTotal, unit: PointsUnit, brief: Bool = false, activeDays: Bool = false) -> String {
        if total.status == .upcoming {
            return brief || activeDays ? "not scored yet" : "not scored yet, \(unit.describe(total.required)) required"
        }
        let sessions = PointsUnit.sessions.describe(total.sessions)
        if activeDays, total.required > 0 { return brief ? unit.describe(total.points) : "\(unit.describe(total.points)), \(sessions)" }
        let count = total.points == 1 && total.required <= 1 ? unit.singular : unit.rawValue
        if brief { return total.required == 0 ? unit.describe(total.points) : "\(total.points)/\(total.required) \(count)" }
        return total.required == 0 ? "\(unit.describe(total.points)), none required, \(sessions)"
            : "\(total.points) of \(unit.describe(total.required)), \(sessions)"
    }
}
