import Foundation
public import CalendarDiagnostics
public import Streaks

/// A streak report as JSON, in the shape `streakcal report --format json` promises.
///
/// The keys `generator` (`StreakCal 0.1.0`), `timeZone`, `requiredPoints`, `from`, `to`, `days`
/// (`date`, `points`, `sessions`, `status`), `currentStreak` and `longestStreak` (`length`, `start`,
/// `end`; the days `null` for an empty streak) and `diagnostics` (`severity`, `file`, `line`,
/// `column`, `message`) and `sources` (the calendars: `file` as given, `name` from `X-WR-CALNAME`
/// or the file's name) are a contract; other keys may be added.
///
/// Scored by `StreakRules` other than the simple case, a report adds each day's `required` and
/// `fraction`, `schedule`, `streakUnit`, `bestStreaks`, `score`, `freezesUsed`, `freezesLeft`,
/// `freezesEarned`, more `totals` (`daysRest`, `daysSkipped`, `daysFrozen`, `skipMarkers`) and,
/// under a period goal, `periods`; an at-most goal adds `atMost` (`true`) and `totals.daysOver`.
/// With named habits, `habits` holds one section per habit (the same keys as the report's, by the
/// habit's own rules, plus `name`, `filter` and, for a habit that counts its sessions its own
/// way, `pointsFrom`) and `totals.unmatchedSessions` counts the sessions no habit took.
///
/// ```swift
/// let json = JSONReport(report: report, diagnostics: []).render()
/// // {"timeZone": "UTC", "requiredPoints": 100, "from": "2024-02-20", ...}
/// ```
public struct JSONReport: Sendable {
    /// The maker and its version (`StreakCalVersion.generator`).
    public var generator = StreakCalVersion.generator
    /// What the import said.
    public var diagnostics: [Diagnostic]
    /// The report the JSON shows: its days, streaks and totals, and what rules add. The members
    /// below it are read from it, so that the JSON cannot show one report's days under another's
    /// header.
    public var report: StreakReport
    /// The report's zone (`timeZone`).
    public var timeZone: String { report.goal.timeZone.identifier }
    /// The points a day needs, where the schedule says nothing else (`requiredPoints`).
    public var requiredPoints: Int { report.goal.requiredPoints }
    /// When each day begins (`dayStart`, `HH:MM`).
    public var dayStart: String { report.goal.dayStart.description }
    /// The window's first day (`from`).
    public var from: Day { report.from }
    /// The window's last day (`to`).
    public var to: Day { report.to }
    /// Each day of the window (`days`).
    public var days: [DayTotal] { report.days }
    /// The streak that reaches the window's end (`currentStreak`).
    public var currentStreak: Streak { report.currentStreak }
    /// The longest streak (`longestStreak`).
    public var longestStreak: Streak { report.longestStreak }
    /// Whole-window figures (`totals`).
    public var totals: Totals {
        let counts = report.statusCounts
        return Totals(
            points: report.totalPoints, sessions: report.totalSessions,
            daysMet: counts[.met] ?? 0, daysPartial: counts[.partial] ?? 0, daysNone: counts[.none] ?? 0)
    }
    /// One section per named habit.
    public var habits: [HabitReport]
    /// Sessions that matched no habit (when habits are named).
    public var unmatchedSessions: Int
    /// Their most frequent summaries (when habits are named): `unmatchedSummaries`, each `summary`
    /// and `sessions`.
    public var unmatchedSummaries: [SummaryCount]
    /// The calendars the report is about: `sources`, each `file` and `name`.
    public var sources: [ReportSource]
    /// Today, in the report's zone: when the window ends today, the JSON says how it stands (`today`).
    public var today: Day?

    /// Whole-window figures.
    public struct Totals: Hashable, Sendable {
        /// Every session's points.
        public var points: Int
        /// How many sessions counted.
        public var sessions: Int
        /// Days whose points met what they required.
        public var daysMet: Int
        /// Days with some points, short of what they required.
        public var daysPartial: Int
        /// Days with no points that required some.
        public var daysNone: Int
    }

    /// - Parameters:
    ///   - report: The report (of every session, or of those the habits took).
    ///   - diagnostics: What the import said.
    ///   - habits: Each named habit's report.
    ///   - unmatchedSessions: The sessions no habit took.
    ///   - unmatchedSummaries: Their most frequent summaries.
    ///   - sources: The calendars the report is about.
    ///   - today: Today, in the report's zone: when the window ends today, `today` says how it stands.
    public init(
        report: StreakReport, diagnostics: [Diagnostic], habits: [HabitReport] = [], unmatchedSessions: Int = 0,
        unmatchedSummaries: [SummaryCount] = [], sources: [ReportSource] = [], today: Day? = nil
    ) {
        self.diagnostics = diagnostics
        self.report = report
        self.habits = habits
        self.unmatchedSessions = unmatchedSessions
        self.unmatchedSummaries = unmatchedSummaries
        self.sources = sources
        self.today = today
    }

    /// A number as the JSON shows it: rounded to 4 decimals.
    static func rounded(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }

    /// A report's members (besides the document's own), as the writer writes them.
    private enum Member {
        case streak(Streak)
        case streaks([Streak])
        case integer(Int)
        case boolean(Bool)
        case object([(String, Member)])
        case number(Double)
        case string(String)
        case days([DayTotal], extended: Bool)
        case periods([PeriodTotal])
        case totals([(key: String, value: Int)])
        case diagnostics([Diagnostic])
        case habits([(HabitReport, today: Day?)], unmatched: Int)
        case sources([ReportSource])
        case summaries([SummaryCount])
        /// Minutes by weekday (Monday first) and hour: 7 arrays of 24.
        case hours([[Int]])
    }

    /// The members of `report`'s body: what a habit section has too.
    private static func body(of report: StreakReport, extended: Bool, unmatchedSessions: Int?, today: Day?) -> [(String, Member)] {
        let counts = report.statusCounts
        var totals: [(key: String, value: Int)] = [
            ("daysMet", counts[.met] ?? 0), ("daysNone", counts[.none] ?? 0), ("daysPartial", counts[.partial] ?? 0),
            ("points", report.totalPoints), ("sessions", report.totalSessions),
        ]
        // Only a report with days after today has the count: reports of past windows stay as they were.
        if let upcoming = counts[.upcoming] { totals.append(("daysUpcoming", upcoming)) }
        // Only under a rolling goal: other reports stay as they were.
        if let covered = counts[.covered] { totals.append(("daysCovered", covered)) }
        var members: [(String, Member)] = [
            ("currentStreak", .streak(report.currentStreak)),
            ("days", .days(report.days, extended: extended)),
            ("longestStreak", .streak(report.longestStreak)),
            ("requiredPoints", .integer(report.goal.requiredPoints)),
        ]
        if extended {
            totals += [
                ("daysFrozen", counts[.frozen] ?? 0), ("daysRest", counts[.rest] ?? 0),
                ("daysSkipped", counts[.skipped] ?? 0), ("skipMarkers", report.skipMarkers),
            ]
            if report.rules.atMost { totals.append(("daysOver", counts[.over] ?? 0)) }
            members += [
                ("bestStreaks", .streaks(report.bestStreaks)),
                ("freezesEarned", .integer(report.freezesEarned)),
                ("freezesLeft", .integer(report.freezesLeft)),
                ("freezesUsed", .integer(report.freezesUsed)),
                ("schedule", .string(report.rules.schedule.description)),
                ("score", .number(rounded(report.score))),
                ("streakUnit", .string(report.streakUnit)),
            ]
            if let goal = report.rules.periodGoal, !goal.isRolling { members.append(("periods", .periods(report.periods))) }
            if report.rules.atMost { members.append(("atMost", .boolean(true))) }
        }
        if let unmatchedSessions { totals.append(("unmatchedSessions", unmatchedSessions)) }
        members.append(("totals", .totals(totals.sorted { $0.key < $1.key })))
        if let progress = today.flatMap(report.progress(on:)) { members.append(("today", todayMember(progress))) }
        if let hours = report.weekdayHours { members.append(("weekdayHours", .hours(hours.minutes))) }
        return members
    }

    /// `today`: the day's `date`, `points`, `required`, `status`, `pointsNeeded`, `streakAtRisk`
    /// and, with an at-most goal, `pointsAllowed`.
    private static func todayMember(_ progress: TodayProgress) -> Member {
        var members: [(String, Member)] = [
            ("date", .string(progress.day.description)), ("points", .integer(progress.total.points)),
            ("pointsNeeded", .integer(progress.pointsNeeded)), ("required", .integer(progress.total.required)),
            ("status", .string(progress.total.status.rawValue)), ("streakAtRisk", .boolean(progress.streakAtRisk)),
        ]
        if let allowed = progress.pointsAllowed { members.append(("pointsAllowed", .integer(allowed))) }
        return .object(members.sorted { $0.0 < $1.0 })
    }

    /// Whether the JSON shows what rules add: anything but the simple case, or named habits.
    private var isExtended: Bool { !report.rules.isSimple || !habits.isEmpty }

    private var members: [(String, Member)] {
        var members = Self.body(of: report, extended: isExtended, unmatchedSessions: habits.isEmpty ? nil : unmatchedSessions, today: today)
        members += [
            ("dayStart", .string(dayStart)),
            ("diagnostics", .diagnostics(diagnostics)),
            ("from", .string(from.description)),
            ("generator", .string(generator)),
            ("sources", .sources(sources.calendars)),
            ("timeZone", .string(timeZone)),
            ("to", .string(to.description)),
        ]
        if !habits.isEmpty {
            members.append(("habits", .habits(habits.map { ($0, today) }, unmatched: unmatchedSessions)))
            members.append(("unmatchedSummaries", .summaries(unmatchedSummaries)))
        }
        return members.sorted { $0.0 < $1.0 }
    }

    /// The JSON text, pretty-printed with keys sorted (the same input gives the same bytes), ending with a newline.
    ///
    /// Written directly, in the layout `JSONEncoder` gives with `.prettyPrinted`, `.sortedKeys` and
    /// `.withoutEscapingSlashes` (`JSONWriter`): a ten-year report has thousands of days, and
    /// `JSONEncoder` took 7 to 9 times as long (docs/performance.md, "The JSON writer"). Each
    /// member with a `Codable` type (streaks, diagnostics, sources) is that type's `Codable` form.
    public func render() -> String {
        var json = PrettyJSON()
        json.bytes.reserveCapacity(1_024 + (days.count * 110) * (1 + habits.count) + diagnostics.count * 300)
        json.open("{")
        Self.write(members, into: &json, indent: 2)
        return json.document()
    }

    private static func write(_ members: [(String, Member)], into json: inout PrettyJSON, indent: Int) {
        for (index, (name, member)) in members.enumerated() {
            json.key(name, indent: indent, first: index == 0)
            write(member, into: &json, indent: indent)
        }
    }

    private static func write(_ member: Member, into json: inout PrettyJSON, indent: Int) {
        switch member {
        case .streak(let streak): json.streak(streak, indent: indent)
        case .streaks(let streaks):
            json.open("[")
            for (index, streak) in streaks.enumerated() {
                json.element(indent: indent + 2, first: index == 0)
                json.streak(streak, indent: indent + 2)
            }
            json.close("]", indent: indent, empty: streaks.isEmpty)
        case .integer(let value): json.integer(value)
        case .boolean(let value): json.boolean(value)
        case .object(let members):
            json.open("{")
            write(members, into: &json, indent: indent + 2)
            json.close("}", indent: indent, empty: members.isEmpty)
        case .number(let value): json.number(value)
        case .string(let value): json.string(value)
        case .totals(let members):
            json.open("{")
            for (index, member) in members.enumerated() {
                json.key(member.key, indent: indent + 2, first: index == 0)
                json.integer(member.value)
            }
            json.close("}", indent: indent, empty: members.isEmpty)
        case .days(let days, let extended): writeArray(days, into: &json, indent: indent) { writeDay($1, extended: extended, into: &$0, indent: $2) }
        case .periods(let periods): writeArray(periods, into: &json, indent: indent, writePeriod)
        case .diagnostics(let diagnostics): writeArray(diagnostics, into: &json, indent: indent, writeDiagnostic)
        case .sources(let sources):
            writeArray(sources, into: &json, indent: indent) { json, source, inner in
                json.key("file", indent: inner, first: true)
                json.string(source.file)
                json.key("name", indent: inner)
                json.string(source.name)
            }
        case .summaries(let summaries):
            writeArray(summaries, into: &json, indent: indent) { json, summary, inner in
                json.key("sessions", indent: inner, first: true)
                json.integer(summary.sessions)
                json.key("summary", indent: inner)
                json.string(summary.summary)
            }
        case .habits(let habits, _):
            writeArray(habits, into: &json, indent: indent) { json, habit, inner in write(habitMembers(habit.0, today: habit.today), into: &json, indent: inner) }
        case .hours(let rows):
            json.open("[")
            for (index, row) in rows.enumerated() {
                json.element(indent: indent + 2, first: index == 0)
                json.open("[")
                for (hour, minutes) in row.enumerated() {
                    json.element(indent: indent + 4, first: hour == 0)
                    json.integer(minutes)
                }
                json.close("]", indent: indent + 2, empty: row.isEmpty)
            }
            json.close("]", indent: indent, empty: rows.isEmpty)
        }
    }

    /// An array of objects, one per element, each written by `members` at the members' indent.
    private static func writeArray<Element>(
        _ elements: [Element], into json: inout PrettyJSON, indent: Int,
        _ members: (inout PrettyJSON, Element, Int) -> Void
    ) {
        json.open("[")
        for (index, element) in elements.enumerated() {
            json.element(indent: indent + 2, first: index == 0)
            json.open("{")
            members(&json, element, indent + 4)
            json.close("}", indent: indent + 2, empty: false)
        }
        json.close("]", indent: indent, empty: elements.isEmpty)
    }

    private static func writeDay(_ day: DayTotal, extended: Bool, into json: inout PrettyJSON, indent inner: Int) {
        json.key("date", indent: inner, first: true)
        json.date(day.date)
        if extended {
            json.key("fraction", indent: inner)
            json.optional(day.fraction) { $0.number(rounded($1)) }
        }
        json.key("points", indent: inner)
        json.integer(day.points)
        if extended {
            json.key("required", indent: inner)
            json.integer(day.required)
        }
        json.key("sessions", indent: inner)
        json.integer(day.sessions)
        json.key("status", indent: inner)
        json.string(day.status.rawValue)
    }

    private static func writePeriod(_ json: inout PrettyJSON, _ period: PeriodTotal, _ inner: Int) {
        json.key("end", indent: inner, first: true)
        json.date(period.days.upperBound)
        json.key("fraction", indent: inner)
        json.number(rounded(period.fraction))
        json.key("metDays", indent: inner)
        json.integer(period.metDays)
        json.key("points", indent: inner)
        json.integer(period.points)
        json.key("start", indent: inner)
        json.date(period.days.lowerBound)
        json.key("status", indent: inner)
        json.string(period.status.rawValue)
        json.key("target", indent: inner)
        switch period.target {
        case .points(let points): json.integerObject([("points", points)], indent: inner)
        case .metDays(let days): json.integerObject([("days", days)], indent: inner)
        }
    }

    private static func writeDiagnostic(_ json: inout PrettyJSON, _ diagnostic: Diagnostic, _ inner: Int) {
        json.key("code", indent: inner, first: true)
        json.string(diagnostic.code.rawValue)
        json.key("column", indent: inner)
        json.integer(diagnostic.location.column)
        json.key("file", indent: inner)
        json.string(diagnostic.location.file)
        json.key("line", indent: inner)
        json.integer(diagnostic.location.line)
        json.key("message", indent: inner)
        json.string(diagnostic.message)
        json.key("severity", indent: inner)
        json.string(diagnostic.severity.rawValue)
        if let sourceLine = diagnostic.sourceLine {
            json.key("sourceLine", indent: inner)
            json.string(sourceLine)
        }
    }

    private static func habitMembers(_ habit: HabitReport, today: Day?) -> [(String, Member)] {
        var members = body(of: habit.report, extended: true, unmatchedSessions: nil, today: today)
            + [("filter", .string(habit.habit.filter.description)), ("name", .string(habit.name))]
        if let points = habit.habit.rules.points { members.append(("pointsFrom", .string(points.description))) }
        return members.sorted { $0.0 < $1.0 }
    }
}

/// The JSON format: ``JSONReport``, with a section per habit.
public struct JSONReportRenderer: ReportRenderer {
    public static let needsSessions = false
    public static let drawsDays = false
    public var presentation: ReportPresentation

    public init(presentation: ReportPresentation = ReportPresentation()) {
        self.presentation = presentation
    }

    public func render(_ content: ReportContent) -> String {
        JSONReport(
            report: content.report, diagnostics: content.diagnostics, habits: content.habits,
            unmatchedSessions: content.unmatchedSessions, unmatchedSummaries: content.unmatchedSummaries, sources: content.sources,
            today: content.today).render()
    }
}
