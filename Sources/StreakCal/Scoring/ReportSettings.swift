import Foundation
public import ICalendar
public import Streaks

/// The formats a report can be rendered in, as `streakcal report --format` and `batch --format` name them.
///
/// ```swift
/// print(ReportFormat.md.fileExtension)
/// // Prints "md"
/// ```
public enum ReportFormat: String, Hashable, Sendable, Codable, CaseIterable {
    case text, json, csv, md, svg, html

    /// The extension of a file in this format, without the dot (`txt` for text).
    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .json: "json"
        case .csv: "csv"
        case .md: "md"
        case .svg: "svg"
        case .html: "html"
        }
    }

    /// A scored calendar in this format, with the settings' presentation (first weekday, rules);
    /// `terminalColors` colours a text report for a terminal (its marks stay).
    ///
    /// ```swift
    /// let scored = try settings.scored([.file("work.ics")])
    /// print(try ReportFormat.csv.render(scored, with: settings))
    /// ```
    public func render(_ scored: ScoredCalendar, with settings: ReportSettings, terminalColors: Bool = false) throws -> String {
        let report = scored.report
        let rules = settings.rules
        let firstWeekday = settings.firstWeekday
        let (sources, diagnostics) = (scored.sources, scored.imported.diagnostics)
        let view = settings.view ?? .automatic(for: report)
        switch self {
        case .text:
            var text = TextReport(
                report: report, colors: terminalColors, firstWeekday: firstWeekday, rules: rules, sources: sources,
                diagnostics: diagnostics, view: view, today: scored.today).render()
            for habit in scored.habits {
                text += "\nHabit: \(habit.habit.name.escapingControlCharacters()) (\(habit.habit.filter.description.escapingControlCharacters()))\n"
                text += TextReport(
                    report: habit.report, colors: terminalColors, firstWeekday: firstWeekday, rules: rules, view: view,
                    today: scored.today).render()
            }
            if !scored.habits.isEmpty {
                text += "\nSessions no habit took: \(scored.unmatchedSessions)\n"
            }
            return text
        case .json:
            return try JSONReport(
                report: report, diagnostics: diagnostics, habits: scored.habits,
                unmatchedSessions: scored.unmatchedSessions, sources: sources).render()
        case .csv: return CSVReport(report: report, habits: scored.habits).render()
        case .md:
            var markdown = MarkdownReport(
                report: report, rules: rules, firstWeekday: firstWeekday, sources: sources, diagnostics: diagnostics).render()
            for habit in scored.habits {
                let section = MarkdownReport(report: habit.report, rules: rules, firstWeekday: firstWeekday).render()
                markdown += "\n## Habit: \(MarkdownReport.escape(habit.habit.name))\n\nFilter: `\(habit.habit.filter.description.replacingOccurrences(of: "`", with: "'"))`\n\n"
                // The habit's own headings, one level down.
                markdown += section.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.hasPrefix("#") ? "#" + $0 : String($0) }.joined(separator: "\n")
            }
            if !scored.habits.isEmpty { markdown += "\nSessions no habit took: \(scored.unmatchedSessions).\n" }
            return markdown
        case .svg:
            return SVGReport(
                report: report, rules: rules, firstWeekday: firstWeekday, habits: scored.habits, sources: sources,
                diagnostics: diagnostics, view: view, today: scored.today, palette: settings.palette).render()
        case .html:
            return HTMLReport(
                report: report, sessions: scored.imported.sessions, rules: rules, firstWeekday: firstWeekday,
                habits: scored.habits, sources: sources, diagnostics: diagnostics, view: view, today: scored.today,
                palette: settings.palette).render()
        }
    }
}

/// Everything that turns a calendar into a report, as the report options say it: where points
/// come from, the goal, the window and how days look.
///
/// ```swift
/// var settings = ReportSettings(requiredPoints: 60, pointsRule: .minutes, timeZone: "Europe/Berlin")
/// settings.to = Day(year: 2024, month: 2, day: 29)!
/// let scored = try settings.scored([.file("runs.ics")])
/// print(scored.report.longestStreak.length)
/// // Prints "2"
/// ```
public struct ReportSettings: Sendable {
    /// Points a day needs to count as met (at least 1) where the schedule says nothing else: the
    /// default of `streakRules.schedule`.
    public var requiredPoints: Int {
        get { streakRules.schedule.defaultPoints }
        set { streakRules.schedule.defaultPoints = max(1, newValue) }
    }
    /// What a streak means: the schedule, skips, freezes, a period goal, today-grace.
    public var streakRules: StreakRules
    /// Named habits to report side by side; none: every session counts toward one report.
    public var habits: [Habit] = []
    /// Where the points come from.
    public var pointsRule: PointsRule
    /// The IANA zone of the days; `nil`: the calendar's `X-WR-TIMEZONE`, else the system zone.
    public var timeZone: String?
    /// When a day begins.
    public var dayStart: DayStart
    /// The first day of the report; `nil`: the day of the earliest session.
    public var from: Day?
    /// The last day of the report; `nil`: today in the report's zone.
    public var to: Day?
    /// Most instances one recurrence rule may add.
    public var maximumInstancesPerRule: Int
    /// How days look (Markdown, SVG, HTML, text legend): by default the palette's rules.
    public var rules: DayPresentationRules
    /// The colours of the page and its days' dark mode (SVG, HTML); set `rules` to `palette.rules`
    /// (with any fills of your own) to colour the days with it too.
    public var palette: ReportPalette = .standard
    /// Month grids or year heatmaps (text, SVG, HTML); `nil`: a year view for windows longer than
    /// about three months (``/StreakExport/ReportView/automatic(for:)``).
    public var view: ReportView?
    /// The first column of month grids.
    public var firstWeekday: Weekday
    /// Parse each file's components on every core (the default); `BatchReport` turns it off, as it
    /// reads one file per core.
    public var isParallel = true

    public init(
        requiredPoints: Int = 100, pointsRule: PointsRule = .xPoints, timeZone: String? = nil,
        dayStart: DayStart = .midnight, from: Day? = nil, to: Day? = nil,
        maximumInstancesPerRule: Int = RecurrenceExpansion.defaultMaximumInstancesPerRule,
        rules: DayPresentationRules = .standard, firstWeekday: Weekday = .sunday
    ) {
        self.streakRules = StreakRules(requiredPoints: requiredPoints)
        self.pointsRule = pointsRule
        self.timeZone = timeZone
        self.dayStart = dayStart
        self.from = from
        self.to = to
        self.maximumInstancesPerRule = maximumInstancesPerRule
        self.rules = rules
        self.firstWeekday = firstWeekday
    }

    /// The importer for these settings: recurring events expanded over the report's window.
    ///
    /// - Parameter now: The instant "today" is taken from, in seconds since 1970 (default: now).
    public func importer(now: Int64? = nil) -> SessionImporter {
        let now = now ?? Self.now()
        // The report zone is known only after reading (X-WR-TIMEZONE); today in UTC plus a day is
        // later than today anywhere, and the report drops what lies after its last day.
        let expansion = RecurrenceExpansion(
            from: from, through: to ?? Day(daysSince1970: Int((Double(now) / 86_400).rounded(.down)) + 1),
            maximumInstancesPerRule: maximumInstancesPerRule)
        var importer = SessionImporter(pointsRule: pointsRule, expansion: expansion)
        importer.keptProperties = habits.reduce(into: []) { $0.formUnion($1.filter.propertyNames) }
        return importer
    }

    /// Scores an import: works out the zone and the goal, reads floating times in that zone, and
    /// totals the window, exactly as `streakcal report` does.
    ///
    /// - Parameters:
    ///   - imported: A whole import, such as `importer(now:).importSessions(from:)` gives.
    ///   - now: The instant "today" is taken from, in seconds since 1970 (default: now).
    public func scored(_ imported: CalendarImport, now: Int64? = nil) -> ScoredCalendar {
        let now = now ?? Self.now()
        let (zoned, zone) = imported.inReportZone(requested: timeZone)
        var result = zoned
        let goal = StreakGoal(requiredPoints: requiredPoints, timeZone: zone, dayStart: dayStart)
        let last = to ?? goal.day(containing: now)
        guard !habits.isEmpty else {
            // Skip markers count no points: the window starts at the first session that does.
            let counted = streakRules.skipCategories.isEmpty ? result.sessions : result.sessions.filter { !streakRules.isSkipMarker($0) }
            let window = StreakReport.window(for: counted, goal: goal, from: from, to: last)
            result.diagnostics += Self.windowNote(
                from: from, earliest: StreakReport.earliestDay(of: counted, goal: goal), to: last,
                at: counted.first?.source)
            return ScoredCalendar(
                imported: result, report: StreakReport(sessions: result.sessions, goal: goal, rules: streakRules, window: window),
                today: goal.day(containing: now))
        }
        // Each habit takes its sessions (skip markers apply to all); the calendar's report is of the
        // sessions some habit took, and its window is theirs.
        let filters = habits.map { $0.filter.compiled() }
        var taken: [[Session]] = Array(repeating: [], count: habits.count)
        var anyHabit: [Session] = []
        var unmatched = 0
        for session in result.sessions {
            if streakRules.isSkipMarker(session) {
                for index in taken.indices { taken[index].append(session) }
                anyHabit.append(session)
                continue
            }
            var matched = false
            for (index, filter) in filters.enumerated() where filter.matches(session) {
                taken[index].append(session)
                matched = true
            }
            if matched { anyHabit.append(session) } else { unmatched += 1 }
        }
        let counted = anyHabit.filter { !streakRules.isSkipMarker($0) }
        let window = StreakReport.window(for: counted, goal: goal, from: from, to: last)
        result.diagnostics += Self.windowNote(
            from: from, earliest: StreakReport.earliestDay(of: counted, goal: goal), to: last, at: counted.first?.source)
        let habitReports = zip(habits, taken).map { habit, sessions in
            HabitReport(habit: habit, report: StreakReport(sessions: sessions, goal: goal, rules: streakRules, window: window))
        }
        return ScoredCalendar(
            imported: result, report: StreakReport(sessions: anyHabit, goal: goal, rules: streakRules, window: window),
            habits: habitReports, unmatchedSessions: unmatched, today: goal.day(containing: now))
    }

    /// The warning for a report whose default window cuts off its earliest sessions, if it does.
    static func windowNote(from: Day?, earliest: Day?, to: Day, at location: SourceLocation?) -> [Diagnostic] {
        guard from == nil, let cutOff = StreakReport.defaultWindow(earliestSessionDay: earliest, to: to).cutOff else { return [] }
        let start = StreakReport.defaultWindow(earliestSessionDay: earliest, to: to).window.lowerBound
        return [Diagnostic(
            .warning, .reportWindow, at: SourceLocation(file: location?.file ?? "-", line: location?.line ?? 1),
            "sessions go back to \(cutOff), but without a first day a report covers at most \(StreakReport.maximumDefaultDays) days: it starts on \(start); give a first day to include the earlier ones")]
    }

    /// Reads and scores calendars as a stream, exactly as `scored(_:now:)` scores their import,
    /// without keeping their sessions: each is counted on its day as it is read, so memory does not
    /// grow with the input. Several sources are read as one, so that copies of an event in two of
    /// them count once.
    ///
    /// ```swift
    /// let settings = ReportSettings(requiredPoints: 60, timeZone: "UTC")
    /// let scored = try settings.scored([.file("runs.ics"), .file("swims.ics")])
    /// print(scored.report.longestStreak.length)
    /// ```
    ///
    /// - Parameters:
    ///   - sources: The calendars, in order.
    ///   - keepingSessions: Keep the sessions too (floating times read in the report's zone), for
    ///     renderings that show them (`ReportFormat.html`); otherwise `imported.sessions` is empty.
    ///   - now: The instant "today" is taken from, in seconds since 1970 (default: now).
    /// - Returns: The report and every diagnostic; `imported.declaredTimeZone` and
    ///   `sessionsWithPointsProperty` as a whole import gives them.
    /// - Throws: `CalendarReadError` when a source cannot be read.
    public func scored(
        _ sources: [CalendarSource], keepingSessions: Bool = false, now: Int64? = nil
    ) throws(CalendarReadError) -> ScoredCalendar {
        let now = now ?? Self.now()
        var importer = importer(now: now)
        importer.isParallel = isParallel
        // Sessions only counted on their days need nothing but their times, points and source;
        // habit filters and skip categories read descriptions; kept sessions are listed by id.
        importer.needs = []
        if !habits.isEmpty || !streakRules.skipCategories.isEmpty { importer.needs.formUnion(.descriptions) }
        if keepingSessions { importer.needs.formUnion(.everything) }
        var imported = CalendarImport(pointsRule: pointsRule)
        var totals: DayTotals?
        var firstSession: SourceLocation?
        var zoneWarning: Diagnostic?
        var habitTotals: [DayTotals] = []
        var unmatched = 0
        let filters = habits.map { $0.filter.compiled() }
        do {
            /// Counts a batch of counted sessions (`SessionImporter.countsOnly`: no habit, no skip
            /// category, no session kept), as the closure below counts the sessions they stand for.
            func count(_ batch: ImportBatch) {
                let first = batch.counted[0]
                if totals == nil {
                    let (zone, warning) = CalendarImport.reportZone(
                        requested: timeZone, declared: imported.declaredTimeZone,
                        firstSession: SourceLocation(file: batch.sources[first.input].file, line: first.line))
                    zoneWarning = warning
                    totals = DayTotals(goal: StreakGoal(requiredPoints: requiredPoints, timeZone: zone, dayStart: dayStart), rules: streakRules)
                }
                // The first session in input order, then the earliest line of its file.
                if firstSession == nil { firstSession = SourceLocation(file: batch.sources[first.input].file, line: first.line) }
                let known = firstSession!
                let inputsOfFile = batch.sources.indices.filter { batch.sources[$0].file == known.file }
                var earliest = known.line
                // The totals are counted in a local (a captured variable is checked for exclusive
                // access at each use); taken out first, so that they are not copied.
                var counting = totals!
                totals = nil
                let zone = counting.goal.timeZone
                for session in batch.counted {
                    if session.line < earliest, inputsOfFile.contains(session.input) { earliest = session.line }
                    if session.floats {
                        let read = session.readingFloatingTimes(in: zone, pointsRule: pointsRule)
                        counting.add(points: read.points, startingAt: read.start)
                    } else {
                        counting.add(points: session.points, startingAt: session.start)
                    }
                }
                totals = counting
                if earliest < known.line { firstSession = SourceLocation(file: known.file, line: earliest) }
            }

            let streamed = try importer.forEachBatch(from: sources) { batch in
                imported.diagnostics += batch.diagnostics
                imported.declaredTimeZone = imported.declaredTimeZone ?? batch.declaredTimeZone
                if !batch.counted.isEmpty { count(batch) }
                guard let first = batch.sessions.first else { return }
                // The first session in input order (held ones come later) is where whole-input
                // warnings point, as in a whole import. (Sessions are read in place, not copied.)
                for index in batch.sessions.indices {
                    guard let line = batch.sessions[index].source?.line else { continue }
                    if let known = firstSession, line >= known.line || batch.sessions[index].source?.file != known.file { continue }
                    firstSession = batch.sessions[index].source
                }
                if totals == nil {
                    // The zone is chosen at the first session: X-WR-TIMEZONE comes before the events.
                    let (zone, warning) = CalendarImport.reportZone(
                        requested: timeZone, declared: imported.declaredTimeZone, firstSession: first.source)
                    zoneWarning = warning
                    let goal = StreakGoal(requiredPoints: requiredPoints, timeZone: zone, dayStart: dayStart)
                    totals = DayTotals(goal: goal, rules: streakRules)
                    habitTotals = habits.map { _ in DayTotals(goal: goal, rules: streakRules) }
                }
                let zone = totals!.goal.timeZone
                if !keepingSessions, filters.isEmpty {
                    // Every session counts toward every total: added where it is, unless it floats.
                    for index in batch.sessions.indices {
                        if Self.floats(batch.sessions[index].start) || Self.floats(batch.sessions[index].end) {
                            let read = batch.sessions[index].readingFloatingTimes(in: zone, pointsRule: pointsRule)
                            totals!.add(read)
                            for total in habitTotals.indices { habitTotals[total].add(read) }
                        } else {
                            totals!.add(batch.sessions[index])
                            for total in habitTotals.indices { habitTotals[total].add(batch.sessions[index]) }
                        }
                    }
                    return
                }
                for session in batch.sessions {
                    let read = session.readingFloatingTimes(in: zone, pointsRule: pointsRule)
                    if keepingSessions { imported.sessions.append(read) }
                    if filters.isEmpty || streakRules.isSkipMarker(read) {
                        totals!.add(read)
                        for index in habitTotals.indices { habitTotals[index].add(read) }
                        continue
                    }
                    var matched = false
                    for (index, filter) in filters.enumerated() where filter.matches(read) {
                        habitTotals[index].add(read)
                        matched = true
                    }
                    if matched { totals!.add(read) } else { unmatched += 1 }
                }
            }
            imported.declaredTimeZone = imported.declaredTimeZone ?? streamed.declaredTimeZone
            imported.sessionsWithPointsProperty += streamed.sessionsWithPointsProperty

            imported.sources = streamed.sources
            // Batches say what each stage of the import found as it found it: the report lists it in source order.
            imported.diagnostics = SessionImporter.inSourceOrder(imported.diagnostics, sources: streamed.sources)
        }
        imported.diagnostics += zoneWarning.map { [$0] } ?? []
        if let warning = CalendarImport.missingPointsWarning(
            pointsRule: pointsRule, sessionsWithPointsProperty: imported.sessionsWithPointsProperty, firstSession: firstSession) {
            imported.diagnostics.append(warning)
        }
        let goal = totals?.goal ?? StreakGoal(
            requiredPoints: requiredPoints, timeZone: CalendarImport.reportZone(
                requested: timeZone, declared: imported.declaredTimeZone, firstSession: nil).zone,
            dayStart: dayStart)
        let last = to ?? goal.day(containing: now)
        let report = (totals ?? DayTotals(goal: goal, rules: streakRules)).report(from: from, to: last)
        imported.diagnostics += Self.windowNote(from: from, earliest: totals?.earliestDay, to: last, at: firstSession)
        if habitTotals.isEmpty { habitTotals = habits.map { _ in DayTotals(goal: goal, rules: streakRules) } }
        // Every habit covers the calendar's window, so that their days line up.
        let habitReports = zip(habits, habitTotals).map { habit, totals in
            HabitReport(habit: habit, report: totals.report(from: report.from, to: report.to))
        }
        return ScoredCalendar(
            imported: imported, report: report, habits: habitReports, unmatchedSessions: unmatched, today: goal.day(containing: now))
    }

    /// Whether a time is a floating wall-clock time, which a report reads in its zone.
    private static func floats(_ time: SessionTime) -> Bool {
        if case .floating = time { return true }
        return false
    }

    static func now() -> Int64 {
        Int64(Date().timeIntervalSince1970.rounded(.down))
    }
}

/// A calendar scored against a goal: its sessions (floating times read in the report's zone), every
/// diagnostic, and the report over the window.
public struct ScoredCalendar: Sendable {
    /// The import, with floating times read in the report's zone and the zone's own diagnostics added.
    public var imported: CalendarImport
    /// The days, the streaks and the totals: of every session or, with named habits, of the
    /// sessions some habit took.
    public var report: StreakReport
    /// Each named habit's report, over the same window.
    public var habits: [HabitReport]
    /// With named habits, the sessions none of them took.
    public var unmatchedSessions: Int

    /// Today in the report's zone (with its day start), when scored: outlined in year views.
    public var today: Day?

    /// The calendars scored, each with its name (`X-WR-CALNAME`, else the file's).
    public var sources: [ReportSource] { imported.sources }

    public init(
        imported: CalendarImport, report: StreakReport, habits: [HabitReport] = [], unmatchedSessions: Int = 0, today: Day? = nil
    ) {
        self.imported = imported
        self.report = report
        self.habits = habits
        self.unmatchedSessions = unmatchedSessions
        self.today = today
    }
}
