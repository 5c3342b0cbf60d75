import Foundation
public import ICalendar
public import StreakExport
public import Streaks

/// Everything that turns a calendar into a report, as the report options say it: where points
/// come from, the goal, the window and how days look.
///
/// ```swift
/// var settings = ReportSettings(requiredPoints: 60, pointsRule: .minutes, timeZone: "Europe/Berlin")
/// settings.to = Day("2024-02-29")
/// let scored = try settings.scored([.file("runs.ics")], now: now)
/// print(scored.report.longestStreak.length)
/// // Prints "2"
/// ```
public struct ReportSettings: Sendable {
    /// Points a day needs to count as met where the schedule says nothing else: the default of
    /// `streakRules.schedule`, 100 until given. Under a period goal, until one is given a day
    /// needs any points at all (1: ``/Streaks/StreakRules/scoresActiveDays``), and this reads 1:
    /// no daily goal that nobody set. A number outside ``/Streaks/GoalSchedule/pointsRange``
    /// (1 to 1,000,000,000) stops the program: check one from elsewhere first.
    public var requiredPoints: Int {
        get { ownStreakRules.daySchedule.defaultPoints }
        set { ownStreakRules.schedule.defaultPoints = newValue }
    }
    /// What a streak means: the schedule, skips, freezes, a period goal, today-grace.
    ///
    /// Rules whose schedule gives no required points (`StreakRules()`) keep the required points
    /// given before: `settings.streakRules = StreakRules()` does not reset a goal of 60 to 100;
    /// `StreakRules(requiredPoints: 30)` sets it to 30.
    public var streakRules: StreakRules {
        get { ownStreakRules }
        set {
            let given = ownStreakRules.schedule.givesDefaultPoints ? ownStreakRules.schedule.defaultPoints : nil
            ownStreakRules = newValue
            if !newValue.schedule.givesDefaultPoints, let given { ownStreakRules.schedule.defaultPoints = given }
        }
    }
    private var ownStreakRules: StreakRules
    /// Named habits to report side by side; none: every session counts toward one report.
    public var habits: [Habit] = []
    /// Where the points come from (default `PointsRule.auto`: `X-POINTS` where events carry it, else minutes).
    public var pointsRule: PointsRule
    /// The zone of the days; `nil`: the calendar's `X-WR-TIMEZONE`, else the zone of its events'
    /// times, else ``fallbackTimeZone``. A zone it is, never an unknown name: a name in code is a
    /// string literal (`"Europe/Berlin"`, which stops the program if the database lacks it), a
    /// name from elsewhere goes through `TimeZoneRules(identifier:)`, which is `nil` for an unknown one.
    public var timeZone: TimeZoneRules?
    /// The zone of the days when neither ``timeZone`` nor the calendar names one: UTC unless given.
    /// The library reads no zone of the machine (`TZ`, `/etc/localtime`); `streakcal` passes the
    /// system's here.
    public var fallbackTimeZone: TimeZoneRules = .utc
    /// When a day begins.
    public var dayStart: DayStart
    /// The first day of the report; `nil`: the day of the earliest session.
    public var from: Day?
    /// The last day of the report; `nil`: today in the report's zone.
    public var to: Day?
    /// Most instances one recurrence rule may add.
    public var maximumInstancesPerRule: Int
    /// How days look (their fills, marks and labels in Markdown, SVG, HTML and the text legend):
    /// `palette`'s until your own are set (then those, whatever the palette). What a streak is,
    /// ``streakRules`` says.
    public var dayPresentation: DayPresentationRules {
        get { ownRules ?? palette.rules }
        set { ownRules = newValue }
    }
    /// The rules set with ``dayPresentation`` or the initializer; `nil`: the palette's.
    private var ownRules: DayPresentationRules?
    /// The colours of the page and of the days (SVG, HTML, the text legend): setting
    /// `palette = .github` colours the days in it too, unless a ``dayPresentation`` of your own was set.
    public var palette: ReportPalette = .standard
    /// Month grids or heatmaps (text, SVG, HTML); `nil`: for windows longer than about three
    /// months, the rolling view when the window ends today, else the year view
    /// (``/StreakExport/ReportView/automatic(for:today:)``).
    public var view: ReportView?
    /// The first column of month grids and the first row of year heatmaps, and the first day of
    /// the weeks totals count by. Until set: the first day of a weekly period goal's weeks (so that
    /// each grid row is one of its weeks), else Sunday, as `cal` has it.
    public var firstWeekday: Weekday {
        get {
            if let ownFirstWeekday { return ownFirstWeekday }
            if case .week(let first)? = ownStreakRules.periodGoal?.length { return first }
            return .sunday
        }
        set { ownFirstWeekday = newValue }
    }
    /// The first weekday set with ``firstWeekday`` or the initializer; `nil`: from the rules.
    private var ownFirstWeekday: Weekday?
    /// The most threads one import parses on at a time (``/ICalendar/SessionImporter/parallelism``):
    /// the processors this process may use by default, 1 for the calling thread alone.
    /// `BatchReport` sets 1, as it reads one file per job. At least 1 (less stops the program).
    public var parallelism = SessionImporter.defaultParallelism {
        didSet { SessionImporter.check(parallelism) }
    }
    /// Whether sessions that start after now count (`--count-planned`). By default they are
    /// planned, not done: a calendar holds plans as well as history (a weekly series runs on into
    /// the future), so they count no points, make no day met or partial, and the days after
    /// today are ``/Streaks/DayStatus/upcoming``; a note says how many were left out. Set it for
    /// a calendar whose future events are done on purpose (logged ahead).
    public var countsPlannedSessions = false
    /// Whether each report counts its minutes by weekday and hour (``/Streaks/StreakReport/weekdayHours``,
    /// each session spread over the hours it covers, in the report's zone). Off by default: it
    /// costs a little per session. ``scored(_:for:now:)-1vq6s`` turns it on for the hours view
    /// (`--view hours`), whose pictures draw it and whose JSON has it (`weekdayHours`).
    public var countsWeekdayHours = false

    public init(
        requiredPoints: Int? = nil, pointsRule: PointsRule = .auto, timeZone: TimeZoneRules? = nil,
        dayStart: DayStart = .midnight, from: Day? = nil, to: Day? = nil,
        maximumInstancesPerRule: Int = RecurrenceExpansion.defaultMaximumInstancesPerRule,
        dayPresentation: DayPresentationRules? = nil, firstWeekday: Weekday? = nil
    ) {
        self.ownStreakRules = StreakRules(requiredPoints: requiredPoints)
        self.pointsRule = pointsRule
        self.timeZone = timeZone
        self.dayStart = dayStart
        self.from = from
        self.to = to
        self.maximumInstancesPerRule = maximumInstancesPerRule
        self.ownRules = dayPresentation
        self.ownFirstWeekday = firstWeekday
    }

    /// The importer for these settings: recurring events expanded over the report's window.
    ///
    /// - Parameter now: The instant "today" is taken from, in seconds since 1970; the library reads no clock (`streakcal` gives it the time it started).
    public func importer(now: Int64) -> SessionImporter {
        // The report zone is known only after reading (X-WR-TIMEZONE); today in UTC plus a day is
        // later than today anywhere, and the report drops what lies after its last day.
        let expansion = RecurrenceExpansion(
            from: from, through: to ?? Day(daysSince1970: Int((Double(now) / 86_400).rounded(.down)) + 1),
            maximumInstancesPerRule: maximumInstancesPerRule)
        var importer = SessionImporter(pointsRule: pointsRule, expansion: expansion)
        importer.keptProperties = habits.reduce(into: streakRules.skipWhen?.propertyNames ?? []) { kept, habit in
            kept.formUnion(habit.filter.propertyNames)
            if case .property(let name) = habit.rules.points { kept.insert(name) }
        }
        return importer
    }

    /// Scores an import: works out the zone and the goal, reads floating times in that zone, and
    /// totals the window, exactly as `streakcal report` does.
    ///
    /// - Parameters:
    ///   - imported: A whole import, such as `importer(now:).importSessions(from:)` gives.
    ///   - now: The instant "today" is taken from, in seconds since 1970; the library reads no clock (`streakcal` gives it the time it started).
    public func scored(_ imported: CalendarImport, now: Int64) -> ScoredCalendar {
        scored(imported, keepingSessions: true, now: now, grouping: nil).scored
    }

    /// Scores a whole import, keeping its sessions or not and grouping their time or not; returns
    /// the accumulator too, with what it counted.
    private func scored(
        _ imported: CalendarImport, keepingSessions: Bool, now: Int64, grouping: TimeTotals.Grouping?, period: TimeTotals.Period = .week
    ) -> (scored: ScoredCalendar, accumulator: ReportAccumulator) {
        var settings = self
        // The import has settled `.automatic` already (`imported.pointsRule`).
        if case .automatic = pointsRule { settings.pointsRule = imported.pointsRule }
        var accumulator = ReportAccumulator(settings: settings, keepingSessions: keepingSessions, now: now, grouping: grouping, period: period)
        accumulator.chooseZone(evidence: imported.zoneEvidence, firstSession: imported.sessions.first?.source)
        for session in imported.sessions {
            if let source = session.source { accumulator.note(source) }
        }
        accumulator.add(imported.sessions)
        // The whole import has said already that no session carries the points property.
        return (accumulator.scored(imported, warnsOfMissingPoints: false, now: accumulator.now), accumulator)
    }

    /// The note for a report whose default window cuts off its earliest sessions, if it does: a
    /// note, not a warning, since it is about the report, not the input (`--strict` does not fail
    /// a healthy calendar on it; issue 49).
    static func windowNote(from: Day?, earliest: Day?, to: Day, at location: SourceLocation?) -> [Diagnostic] {
        guard from == nil, let cutOff = StreakReport.defaultWindow(earliestSessionDay: earliest, to: to).cutOff else { return [] }
        let start = StreakReport.defaultWindow(earliestSessionDay: earliest, to: to).window.lowerBound
        return [Diagnostic(
            .note, .reportWindow, at: SourceLocation(file: location?.file ?? "-", line: location?.line ?? 1),
            "sessions go back to \(cutOff), but without a first day a report covers at most \(StreakReport.maximumDefaultDays) days: it starts on \(start); give a first day to include the earlier ones")]
    }

    /// Reads and scores calendars as a stream, exactly as `scored(_:now:)` scores their import,
    /// without keeping their sessions: each is counted on its day as it is read, so memory does not
    /// grow with the input. Several sources are read as one, so that copies of an event in two of
    /// them count once.
    ///
    /// ```swift
    /// let settings = ReportSettings(requiredPoints: 60, timeZone: "UTC")
    /// let scored = try settings.scored([.file("runs.ics"), .file("swims.ics")], now: now)
    /// print(scored.report.longestStreak.length)
    /// ```
    ///
    /// - Parameters:
    ///   - sources: The calendars, in order.
    ///   - keepingSessions: Keep the sessions too (floating times read in the report's zone), for
    ///     renderings that show them (``ReportFormat/needsSessions``); otherwise `imported.sessions` is empty.
    ///   - now: The instant "today" is taken from, in seconds since 1970; the library reads no clock (`streakcal` gives it the time it started).
    /// - Returns: The report and every diagnostic; `imported.declaredTimeZone` and
    ///   `sessionsWithPointsProperty` as a whole import gives them.
    /// - Throws: `CalendarReadError` when a source cannot be read.
    public func scored(
        _ sources: [CalendarSource], keepingSessions: Bool = false, now: Int64
    ) throws(CalendarReadError) -> ScoredCalendar {
        let accumulator = ReportAccumulator(settings: self, keepingSessions: keepingSessions, now: now)
        return try scored(sources, with: accumulator).scored
    }

    /// ``scored(_:keepingSessions:now:)-9gzva`` from Swift concurrency: the import and scoring run on a
    /// Dispatch thread, the calling task suspended until they are done (no thread of the cooperative
    /// pool waits on them; at most ``parallelism`` threads parse). Not cancelled with its task.
    ///
    /// ```swift
    /// let scored = try await ReportSettings(timeZone: "UTC").scored([.file("runs.ics")], now: 1_709_164_800)
    /// ```
    public func scored(
        _ sources: [CalendarSource], keepingSessions: Bool = false, now: Int64
    ) async throws(CalendarReadError) -> ScoredCalendar {
        try await BlockingWork.run { () throws(CalendarReadError) -> ScoredCalendar in
            try self.scored(sources, keepingSessions: keepingSessions, now: now)
        }
    }

    /// Reads and scores `sources` as a stream through `accumulator`; returns it too, with what it counted.
    private func scored(
        _ sources: [CalendarSource], with accumulator: ReportAccumulator
    ) throws(CalendarReadError) -> (scored: ScoredCalendar, accumulator: ReportAccumulator) {
        var accumulator = accumulator
        let now = accumulator.now
        var importer = importer(now: now)
        importer.parallelism = parallelism
        importer.needs = accumulator.needs
        importer.classifier = accumulator.classifier
        var imported = CalendarImport(pointsRule: pointsRule)
        let streamed = try importer.forEachBatch(from: sources) { batch in
            imported.diagnostics += batch.diagnostics
            imported.zoneEvidence = batch.zoneEvidence
            accumulator.take(batch, evidence: batch.zoneEvidence)
        }
        imported.zoneEvidence = streamed.zoneEvidence
        imported.sessionsWithPointsProperty += streamed.sessionsWithPointsProperty
        imported.sources = streamed.sources
        // Batches say what each stage of the import found as it found it: the report lists it in source order.
        imported.diagnostics = SessionImporter.inSourceOrder(imported.diagnostics, sources: streamed.sources)
        return (accumulator.scored(imported, warnsOfMissingPoints: true, now: now), accumulator)
    }

    /// Where the time went: reads `sources` as ``scored(_:keepingSessions:now:)-9gzva`` does (as a
    /// stream, memory independent of the sessions) and totals their sessions, minutes and points
    /// per group and period over the report's window (``ScoredCalendar/timeTotals``), as
    /// `streakcal totals` does. Weeks begin on ``firstWeekday``.
    ///
    /// ```swift
    /// var settings = ReportSettings(pointsRule: .minutes, timeZone: "UTC")
    /// settings.firstWeekday = .monday
    /// let scored = try settings.totals([.file("work.ics")], by: .category, per: .month)
    /// for group in scored.timeTotals!.groups { print(group.group, group.total.minutes) }
    /// ```
    ///
    /// - Parameters:
    ///   - sources: The calendars, in order, read as one (as ``scored(_:keepingSessions:now:)-9gzva`` reads them).
    ///   - grouping: What a group is. Habits (``habits``) count only when grouping by habit.
    ///   - period: How long each period is.
    ///   - now: The instant "today" is taken from, in seconds since 1970; the library reads no clock (`streakcal` gives it the time it started): sessions
    ///     after it are planned and not counted (unless ``countsPlannedSessions``).
    public func totals(
        _ sources: [CalendarSource], by grouping: TimeTotals.Grouping, per period: TimeTotals.Period, now: Int64
    ) throws(CalendarReadError) -> ScoredCalendar {
        let settings = forTotals(by: grouping)
        let accumulator = ReportAccumulator(settings: settings, keepingSessions: false, now: now, grouping: grouping, period: period)
        let (scored, counted) = try settings.scored(sources, with: accumulator)
        return counted.totalled(scored)
    }

    /// ``totals(_:by:per:now:)-4nmty`` from Swift concurrency, as ``scored(_:keepingSessions:now:)-9gzva`` is.
    public func totals(
        _ sources: [CalendarSource], by grouping: TimeTotals.Grouping, per period: TimeTotals.Period, now: Int64
    ) async throws(CalendarReadError) -> ScoredCalendar {
        try await BlockingWork.run { () throws(CalendarReadError) -> ScoredCalendar in
            try self.totals(sources, by: grouping, per: period, now: now)
        }
    }

    /// The totals of a whole import, as `totals(_:by:per:now:)` makes them of a stream: the same
    /// table from sessions already read (such as `importer(now:).importSessions(from:)` gives).
    public func totals(
        _ imported: CalendarImport, by grouping: TimeTotals.Grouping, per period: TimeTotals.Period, now: Int64
    ) -> ScoredCalendar {
        let (scored, counted) = forTotals(by: grouping).scored(imported, keepingSessions: false, now: now, grouping: grouping, period: period)
        return counted.totalled(scored)
    }

    /// These settings for totals: habits only when grouping by them (the other groupings sort
    /// sessions by their own text).
    private func forTotals(by grouping: TimeTotals.Grouping) -> ReportSettings {
        var settings = self
        if grouping != .habit { settings.habits = [] }
        return settings
    }

    /// Reads and scores calendars for a rendering in `format`: the sessions are kept only when
    /// the format lists them (``ReportFormat/needsSessions``).
    ///
    /// ```swift
    /// let settings = ReportSettings(timeZone: "UTC")
    /// let scored = try settings.scored([.file("runs.ics")], for: .html)
    /// print(ReportFormat.html.render(scored).hasPrefix("<!DOCTYPE html>"))
    /// // Prints "true"
    /// ```
    public func scored(_ sources: [CalendarSource], for format: ReportFormat, now: Int64) throws(CalendarReadError) -> ScoredCalendar {
        var settings = self
        if view == .hours { settings.countsWeekdayHours = true }
        return try settings.scored(sources, keepingSessions: format.needsSessions, now: now)
    }

    /// ``scored(_:for:now:)-1vq6s`` from Swift concurrency, as ``scored(_:keepingSessions:now:)-9gzva`` is.
    public func scored(_ sources: [CalendarSource], for format: ReportFormat, now: Int64) async throws(CalendarReadError) -> ScoredCalendar {
        try await BlockingWork.run { () throws(CalendarReadError) -> ScoredCalendar in try self.scored(sources, for: format, now: now) }
    }

    /// How reports of these settings look: ``dayPresentation``, ``palette``, ``firstWeekday``, ``view``.
    public func presentation(terminalColors: Bool = false) -> ReportPresentation {
        ReportPresentation(rules: dayPresentation, palette: palette, firstWeekday: firstWeekday, view: view, terminalColors: terminalColors)
    }

}

/// A calendar scored against a goal: its sessions (floating times read in the report's zone), every
/// diagnostic, and the report over the window.
public struct ScoredCalendar: Sendable {
    /// The import, with floating times read in the report's zone and the zone's own diagnostics added.
    public var imported: CalendarImport
    /// The days, the streaks and the totals of every session, whichever habit took it.
    public var report: StreakReport
    /// Each named habit's report, over the same window.
    public var habits: [HabitReport]
    /// With named habits, the sessions none of them took.
    public var unmatchedSessions: Int
    /// With named habits, the most frequent summaries of the sessions none of them took.
    public var unmatchedSummaries: [SummaryCount]

    /// Today in the report's zone (with its day start), when scored: outlined in year views.
    public var today: Day?

    /// Sessions, minutes and points per group and period, when made by `ReportSettings.totals(_:by:per:now:)`.
    public var timeTotals: TimeTotals?

    /// How it is drawn: the presentation of the settings it was scored with (their rules,
    /// palette, first weekday and view), which ``ReportFormat/render(_:terminalColors:)`` uses.
    public var presentation: ReportPresentation

    /// The calendars scored, each with its name (`X-WR-CALNAME`, else the file's).
    public var sources: [ReportSource] { imported.sources }

    /// What a renderer shows of it (``/StreakExport/ReportRenderer``).
    public var content: ReportContent {
        ReportContent(
            report: report, habits: habits, unmatchedSessions: unmatchedSessions, unmatchedSummaries: unmatchedSummaries,
            sessions: imported.sessions,
            sources: imported.sources, diagnostics: imported.diagnostics, today: today)
    }

    public init(
        imported: CalendarImport, report: StreakReport, habits: [HabitReport] = [], unmatchedSessions: Int = 0,
        unmatchedSummaries: [SummaryCount] = [], today: Day? = nil, presentation: ReportPresentation = ReportPresentation()
    ) {
        self.imported = imported
        self.report = report
        self.habits = habits
        self.unmatchedSessions = unmatchedSessions
        self.unmatchedSummaries = unmatchedSummaries
        self.today = today
        self.presentation = presentation
    }
}
