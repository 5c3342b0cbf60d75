import ICalendar
import Streaks

/// Sessions scored toward a report one at a time, as both `ReportSettings.scored` paths give them
/// (a whole import, or batches as they are read): chooses the report's zone at the first session,
/// reads floating times in it, matches each session with the habits once, and totals the days of
/// the calendar and of each habit; keeps the sessions only when the rendering lists them.
///
/// The import is asked for what the report needs (`needs`) instead of its sessions whole: only
/// times and points when nothing reads more, which it then hands on as counted sessions; with
/// habits or skip categories, the import sorts each event once (`classifier`) and each counted
/// session carries its event's bits. Both kinds of session are counted by one step (`count`).
struct ReportAccumulator {
    let settings: ReportSettings
    /// Whether the sessions themselves are kept (floating times read in the report's zone).
    let keepsSessions: Bool
    /// The instant the report is made at, in seconds since 1970: a session that starts after it
    /// is planned, and counts only with ``ReportSettings/countsPlannedSessions``.
    let now: Int64
    /// Sessions not counted because they start after `now`.
    private(set) var plannedSessions = 0
    /// All-day sessions counted (not skip markers): under minutes they count none, which a note says.
    private(set) var allDaySessions = 0
    private let filters: [CompiledSessionFilter]
    /// `streakRules.skipWhen`, compiled once.
    private let skipWhen: CompiledSessionFilter?
    /// Each habit's own way of counting its sessions, if it has one.
    private let habitPoints: [HabitPoints?]
    /// The calendar's totals, of every session whichever habit took it (and skip markers); `nil`
    /// until the zone is chosen.
    private var totals: DayTotals?
    private var habitTotals: [DayTotals] = []
    /// With `PointsRule.automatic`, the same totals with each session's minutes as its points: the
    /// report's when the import finds no event that carries the points property.
    private var minuteTotals: DayTotals?
    private var minuteHabitTotals: [DayTotals] = []
    private(set) var unmatchedSessions = 0
    /// The summaries of the sessions no habit took, each with a token (shared with the classifier,
    /// which runs on the import's workers), and the sessions counted by token.
    private let unmatchedNames = Locked(SummaryTokens())
    private var unmatchedByToken: [UInt32: Int] = [:]
    private(set) var sessions: [Session] = []
    /// Minutes by weekday and hour, of the calendar and of each habit (`countsWeekdayHours`), and
    /// the instants they are counted within (the days a report may show).
    private var hours: WeekdayHours?
    private var habitHours: [WeekdayHours] = []
    private var hourLimits: Range<Int64>?
    /// With `streakcal totals`: how sessions are grouped, and the counter of their time per group
    /// and day (made when the zone is chosen).
    private let groups: TotalsGroups?
    private let period: TimeTotals.Period
    private(set) var timeCounter: TimeTotals.Counter?
    /// The groups of each token of `groups`, as far as known (taken from `groups` when a new token comes).
    private var groupSets: [[Int]] = []
    /// Grouping by calendar: each input's file and its token, by input index.
    private var inputTokens: [(file: String, token: UInt32)] = []
    /// For each kept session, its place in the input (`ImportBatch.places`): a series held until its
    /// group is complete comes in a later batch, and is put back where its event stands.
    private var places: [Int] = []
    /// The report's zone, once chosen.
    private var zone: TimeZoneRules?
    /// Where warnings about the whole input point: the first session's file, at the earliest
    /// line of that file that has a session.
    private(set) var firstSession: SourceLocation?
    /// The inputs (by index) of the first session's file, found once: a folder's every batch
    /// need not look through all of its files again.
    private var inputsOfFirstFile: (file: String, inputs: Set<Int>)?

    init(
        settings: ReportSettings, keepingSessions: Bool, now: Int64, grouping: TimeTotals.Grouping? = nil, period: TimeTotals.Period = .week
    ) {
        self.settings = settings
        self.groups = grouping.map(TotalsGroups.init)
        self.period = period
        self.keepsSessions = keepingSessions
        self.now = now
        self.filters = settings.habits.map { $0.filter.compiled() }
        self.skipWhen = settings.streakRules.skipWhen?.compiled()
        self.habitPoints = settings.habits.map(\.rules.points)
    }

    /// What the import must give: every instance's id for kept sessions; descriptions when habits
    /// must read a property's value for their points (only a `Session` carries it); otherwise no
    /// `Session` at all, habits and skip categories sorted at the import (`classifier`).
    var needs: SessionNeeds {
        if keepsSessions { return .everything }
        if sortsSessions || groups?.readsDescriptions == true, classifier == nil { return .descriptions }
        return []
    }

    /// Whether sessions are sorted into habits or skip markers.
    private var sortsSessions: Bool { !settings.habits.isEmpty || settings.streakRules.marksSkippedDays }

    /// What sorts counted sessions at the import: a bit per habit whose filter takes the event, and
    /// the skip-category bit; `nil` when sessions are kept, when nothing sorts them, or when some
    /// habit's points are a property's value.
    ///
    /// Grouping totals by summary or categories (with no habits), the low 32 bits hold the token of
    /// the event's groups (`TotalsGroups`).
    var classifier: SessionClassifier? {
        let groupsByDescription = groups?.readsDescriptions == true ? groups : nil
        guard !keepsSessions, sortsSessions || groupsByDescription != nil, settings.habits.count <= SessionClassifier.maximumHabits,
              groupsByDescription == nil || filters.isEmpty,
              !settings.habits.contains(where: { $0.rules.points?.readsProperty == true }) else { return nil }
        let (filters, skipCategories, skipWhen) = (self.filters, settings.streakRules.skipCategories, self.skipWhen)
        let unmatchedNames = self.unmatchedNames
        // Only groups by summary or categories to sort (no habit filters then): the groups' table,
        // keyed by the trimmed summary or categories, is the memo, and a second one would cost a
        // second lock and a hash of the whole description per event (issue 47).
        let memoizing = !(groupsByDescription != nil && skipCategories.isEmpty && skipWhen == nil)
        return SessionClassifier(memoizing: memoizing) { summary, categories, properties in
            var bits: UInt64 = groupsByDescription.map { UInt64($0.token(summary: summary, categories: categories)) } ?? 0
            for (index, filter) in filters.enumerated()
            where filter.matches(summary: summary, categories: categories, properties: properties) {
                bits |= 1 << UInt64(index)
            }
            if bits == 0, !filters.isEmpty {
                bits = SessionClassifier.unmatchedBit | UInt64(unmatchedNames.withLock { $0.token(for: summary) })
            }
            // Whether the event would mark skipped days if all-day (the count checks that).
            if (!skipCategories.isEmpty && categories.contains(where: { skipCategories.contains($0.lowercased()) }))
                || skipWhen?.matches(summary: summary, categories: categories, properties: properties) == true {
                bits |= SessionClassifier.skipCategoryBit
            }
            return bits
        }
    }

    /// Chooses the report's zone, once: the requested one, else the calendar's declared one (known
    /// at its first session, as X-WR-TIMEZONE comes before the events), else the zone of the
    /// events' times (known from the first pass), else the settings' fallback (``/ICalendar/ZoneEvidence``).
    mutating func chooseZone(evidence: ZoneEvidence, firstSession: SourceLocation?) {
        guard totals == nil else { return }
        let zone = evidence.reportZone(requested: settings.timeZone, fallback: settings.fallbackTimeZone, firstSession: firstSession).zone
        self.zone = zone
        let goal = StreakGoal(requiredPoints: settings.requiredPoints, timeZone: zone, dayStart: settings.dayStart)
        totals = DayTotals(goal: goal, rules: settings.streakRules)
        habitTotals = settings.habits.map { DayTotals(goal: goal, rules: $0.rules.applied(to: settings.streakRules)) }
        if case .automatic = settings.pointsRule {
            minuteTotals = totals
            minuteHabitTotals = habitTotals
        }
        if settings.countsWeekdayHours {
            let last = settings.to ?? goal.day(containing: now)
            let first = min(last, settings.from ?? last.advanced(by: 1 - StreakReport.maximumDefaultDays))
            let secondOfDay = settings.dayStart.secondsAfterMidnight
            let beginning = { (day: Day) in zone.instant(for: LocalDateTime(day: day, secondOfDay: secondOfDay)) }
            hours = WeekdayHours()
            habitHours = settings.habits.map { _ in WeekdayHours() }
            hourLimits = beginning(first)..<max(beginning(first), beginning(last.advanced(by: 1)))
        }
        if groups != nil {
            // Time after the last day or before the earliest first day a report may have is never shown.
            let last = settings.to ?? goal.day(containing: now)
            let first = settings.from ?? last.advanced(by: 1 - StreakReport.maximumDefaultDays)
            timeCounter = TimeTotals.Counter(
                timeZone: zone, dayStart: settings.dayStart, days: min(first, last)...last, period: period, firstWeekday: settings.firstWeekday)
        }
    }

    /// Notes where a session stands, for `firstSession`.
    mutating func note(_ location: SourceLocation) {
        guard let known = firstSession else {
            firstSession = location
            return
        }
        if location.line < known.line, location.file == known.file { firstSession = location }
    }

    /// How one session counts, once its floating times are read: its times and points, the days
    /// it skips (a skip marker: they are skipped in every habit too), and the habits that take it
    /// (`nil` when no habit is named: it counts toward the calendar).
    private struct Counted<Habits: Sequence<Int>> {
        var start: SessionTime
        var end: SessionTime
        var points: Int
        var skipped: ClosedRange<Day>?
        var habits: Habits?
        /// With habits, the token of its summary when no habit takes it (`SummaryTokens`).
        var unmatchedToken: UInt32?
        /// With totals by summary, category or calendar: the token of its groups (`TotalsGroups`).
        var groupToken: UInt32 = 0
    }

    /// The habits a counted session's classes name, by index.
    private struct HabitIndices: Sequence, IteratorProtocol {
        var bits: UInt64

        mutating func next() -> Int? {
            guard bits != 0 else { return nil }
            defer { bits &= bits - 1 }
            return bits.trailingZeroBitCount
        }
    }

    /// Counts one session toward the calendar and the habits that take it (with its points for
    /// habit `index` by `habitPoints(index)`), and in the minute totals when they are kept; a
    /// session no habit takes counts toward the calendar and among the unmatched, by its summary.
    private mutating func count<Habits: Sequence<Int>>(
        _ session: Counted<Habits>, into counting: inout DayTotals, habitPoints: (Int) -> Int
    ) {
        if isPlanned(session.start, in: counting.goal.timeZone) { return }
        if let days = session.skipped {
            counting.skip(days)
            for index in habitTotals.indices { habitTotals[index].skip(days) }
            minuteTotals?.skip(days)
            for index in minuteHabitTotals.indices { minuteHabitTotals[index].skip(days) }
            return
        }
        if case .date = session.start { allDaySessions += 1 }
        counting.add(points: session.points, startingAt: session.start)
        let minutes = minuteTotals == nil ? 0 : session.start.wholeMinutes(until: session.end)
        minuteTotals?.add(points: minutes, startingAt: session.start)
        if timeCounter != nil { countTime(session, habitPoints: habitPoints) }
        if hours != nil {
            countHours(from: session.start, to: session.end, in: counting.goal.timeZone,
                       habits: session.unmatchedToken == nil ? session.habits : nil)
        }
        if let token = session.unmatchedToken {
            unmatchedSessions += 1
            unmatchedByToken[token, default: 0] += 1
            return
        }
        guard let habits = session.habits else { return }
        for index in habits {
            habitTotals[index].add(points: habitPoints(index), startingAt: session.start)
        }
        guard minuteTotals != nil else { return }
        for index in habits {
            let points = self.habitPoints[index] == nil ? minutes : habitPoints(index)
            minuteHabitTotals[index].add(points: points, startingAt: session.start)
        }
    }

    /// Counts a session's time in its groups (`streakcal totals`): a habit's with the habit's own
    /// points, the others' with the session's.
    private mutating func countTime<Habits: Sequence<Int>>(_ session: Counted<Habits>, habitPoints: (Int) -> Int) {
        guard let grouping = groups?.grouping else { return }
        let minutes = session.start.wholeMinutes(until: session.end)
        guard grouping == .habit else {
            countTime(from: session.start, to: session.end, points: session.points, minutes: minutes, token: session.groupToken)
            return
        }
        timeCounter?.add(start: session.start, end: session.end, points: session.points, minutePoints: minutes, group: nil)
        guard let habits = session.habits, session.unmatchedToken == nil else { return }
        for index in habits {
            let points = habitPoints(index)
            timeCounter?.add(
                start: session.start, end: session.end, points: points, minutePoints: self.habitPoints[index] == nil ? minutes : points,
                group: index, countsInWhole: false)
        }
    }

    /// Counts a session's time in the groups of `token` (grouping by summary, category or
    /// calendar), in place: the counter is never copied.
    private mutating func countTime(from start: SessionTime, to end: SessionTime, points: Int, minutes: Int, token: UInt32) {
        if Int(token) >= groupSets.count, let groups { groupSets = groups.snapshot.sets }
        let sets = groupSets[Int(token)]
        timeCounter?.add(start: start, end: end, points: points, minutePoints: minutes, groups: sets)
    }

    /// The token of a counted session's groups: its calendar's, or the one its classes carry
    /// (grouping by summary or category: the low 32 bits).
    private mutating func groupToken(of session: CountedSession, in sources: [ReportSource]) -> UInt32 {
        guard groups?.grouping == .calendar else { return UInt32(truncatingIfNeeded: session.classes) }
        return calendarToken(input: session.input, file: session.input < sources.count ? sources[session.input].file : "-")
    }

    /// Counts a session's minutes by weekday and hour, in the calendar's table and in those of
    /// the habits that take it; an all-day session has no hours.
    private mutating func countHours<Habits: Sequence<Int>>(
        from start: SessionTime, to end: SessionTime, in zone: TimeZoneRules, habits: Habits? = [Int]?.none
    ) {
        if case .date = start { return }
        let (start, end) = (start.instant(in: zone), end.instant(in: zone))
        hours?.add(from: start, to: end, in: zone, within: hourLimits)
        guard let habits else { return }
        for index in habits {
            habitHours[index].add(from: start, to: end, in: zone, within: hourLimits)
        }
    }

    /// The token of the groups of `file`'s sessions when totals are grouped by calendar (else 0).
    private mutating func calendarToken(input: Int, file: String) -> UInt32 {
        guard let groups, groups.grouping == .calendar else { return 0 }
        if input < inputTokens.count, inputTokens[input].file == file { return inputTokens[input].token }
        let token = groups.token(file: file)
        if input < inputTokens.count {
            inputTokens[input] = (file, token)
        } else if input == inputTokens.count {
            inputTokens.append((file, token))
        }
        return token
    }

    /// Whether a session that starts at `start` is planned: it starts after ``now`` and planned
    /// sessions do not count. A calendar holds plans as well as history (a weekly series runs
    /// on): what starts after now is not done yet. Counts it among ``plannedSessions``.
    private mutating func isPlanned(_ start: SessionTime, in zone: TimeZoneRules) -> Bool {
        guard !settings.countsPlannedSessions, start.instant(in: zone) > now else { return false }
        // Counted where the report shows them: up to its last day (recurring events are expanded
        // a little beyond it, for zones and day starts).
        let goal = totals?.goal ?? StreakGoal(timeZone: zone, dayStart: settings.dayStart)
        if start.day(in: zone, dayStart: settings.dayStart) <= settings.to ?? goal.day(containing: now) { plannedSessions += 1 }
        return true
    }

    /// Counts sessions (as imported: floating times not read yet) toward the calendar and the
    /// habits that take each; the zone must be chosen.
    mutating func add(_ sessions: [Session]) {
        guard var counting = totals else { preconditionFailure("the zone is chosen before the first session") }
        // Counted in a local, taken out of the optional so that the totals are not copied.
        totals = nil
        defer { totals = counting }
        let zone = counting.goal.timeZone
        for session in sessions {
            let read = session.start.isFloating || session.end.isFloating
                ? session.readingFloatingTimes(in: zone, pointsRule: settings.pointsRule) : session
            if keepsSessions { self.sessions.append(read) }
            let rules = settings.streakRules
            let isMarker = read.isAllDay && rules.marksSkippedDays
                && (read.categories.contains { rules.skipCategories.contains($0.lowercased()) } || skipWhen?.matches(read) == true)
            let habitPoints = self.habitPoints
            let habits = filters.isEmpty || isMarker ? nil : filters.indices.filter { filters[$0].matches(read) }
            let unmatchedToken = habits?.isEmpty == true ? unmatchedNames.withLock { $0.token(for: read.summary) } : nil
            count(Counted(
                start: read.start, end: read.end, points: read.points,
                skipped: isMarker ? StreakRules.skippedDays(of: read) : nil, habits: habits, unmatchedToken: unmatchedToken,
                groupToken: groupToken(of: read)),
                into: &counting, habitPoints: { habitPoints[$0]?.points(of: read) ?? read.points })
        }
    }

    /// The token of a session's groups when totals are counted (else 0).
    private func groupToken(of session: Session) -> UInt32 {
        guard let groups else { return 0 }
        switch groups.grouping {
        case .summary, .category: return groups.token(summary: session.summary, categories: session.categories)
        case .calendar: return groups.token(file: session.source?.file ?? "-")
        case .habit: return 0
        }
    }

    /// Counts counted sessions (`SessionNeeds` without `.sessions`), as `add(_:)` counts the
    /// sessions they stand for: sorted into habits and skip markers by their classes; `sources`
    /// are the inputs their `input` indices name.
    mutating func add(_ sessions: [CountedSession], sources: [ReportSource] = []) {
        guard var counting = totals else { preconditionFailure("the zone is chosen before the first session") }
        totals = nil
        defer { totals = counting }
        let zone = counting.goal.timeZone
        let sorts = sortsSessions
        let habitBits: UInt64 = filters.isEmpty ? 0 : UInt64.max >> (64 - filters.count)
        let habitPoints = self.habitPoints
        for session in sessions {
            let read = session.floats ? session.readingFloatingTimes(in: zone, pointsRule: settings.pointsRule) : session
            guard sorts else {
                // Nothing sorts them: each counts toward the calendar (and its minutes, with auto points).
                if isPlanned(read.start, in: zone) { continue }
                if case .date = read.start { allDaySessions += 1 }
                counting.add(points: read.points, startingAt: read.start)
                let minutes = read.start.wholeMinutes(until: read.end)
                minuteTotals?.add(points: minutes, startingAt: read.start)
                if timeCounter != nil {
                    countTime(from: read.start, to: read.end, points: read.points, minutes: minutes, token: groupToken(of: read, in: sources))
                }
                if hours != nil { countHours(from: read.start, to: read.end, in: zone, habits: [Int]?.none) }
                continue
            }
            let isMarker = read.classes & SessionClassifier.skipCategoryBit != 0 && !read.start.isFloating
                && StreakRules.skippedDays(from: read.start, to: read.end) != nil
            let unmatched = !filters.isEmpty && !isMarker && read.classes & SessionClassifier.unmatchedBit != 0
            count(Counted(
                start: read.start, end: read.end, points: read.points,
                skipped: isMarker ? StreakRules.skippedDays(from: read.start, to: read.end) : nil,
                habits: filters.isEmpty || isMarker ? nil : HabitIndices(bits: unmatched ? 0 : read.classes & habitBits),
                unmatchedToken: unmatched ? UInt32(truncatingIfNeeded: read.classes) : nil,
                groupToken: groups == nil ? 0 : groupToken(of: read, in: sources)),
                into: &counting, habitPoints: { habitPoints[$0]?.points(from: read.start, to: read.end) ?? read.points })
        }
    }

    /// What to say of the report's zone, with everything the inputs declared: how it was chosen,
    /// or, when a zone declared after the first session would have been chosen had it come before
    /// (a later calendar's X-WR-TIMEZONE), that it was not and why.
    private func zoneDiagnostics(_ evidence: ZoneEvidence) -> [Diagnostic] {
        guard let zone, let firstSession else { return [] }
        let (wouldBe, said) = evidence.reportZone(requested: settings.timeZone, fallback: settings.fallbackTimeZone, firstSession: firstSession)
        guard wouldBe.identifier != zone.identifier else { return said }
        return [Diagnostic(
            .note, .reportZone, at: SourceLocation(file: firstSession.file, line: 1),
            "the report uses \(zone.identifier), chosen at the first session; X-WR-TIMEZONE \(wouldBe.identifier) comes after it (in a later calendar)")]
    }

    /// The scored calendar: `imported` (its sessions replaced by the kept ones) with what is said
    /// of the zone, the missing-points warning when `warnsOfMissingPoints` (a whole import has said it
    /// already), and the window's note added; the report over the window, and each habit's over
    /// the same days.
    func scored(_ imported: CalendarImport, warnsOfMissingPoints: Bool, now: Int64) -> ScoredCalendar {
        var imported = imported
        imported.sessions = places.count == sessions.count
            ? zip(places, sessions).enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
            : sessions
        imported.diagnostics += zoneDiagnostics(imported.zoneEvidence)
        if warnsOfMissingPoints, let warning = CalendarImport.missingPointsWarning(
            pointsRule: settings.pointsRule, sessionsWithPointsProperty: imported.sessionsWithPointsProperty, firstSession: firstSession) {
            imported.diagnostics.append(warning)
        }
        let countsMinutes = chooseRule(for: &imported)
        let totals = (countsMinutes ? minuteTotals : totals) ?? DayTotals(
            goal: StreakGoal(
                requiredPoints: settings.requiredPoints,
                timeZone: zone ?? imported.zoneEvidence.reportZone(
                    requested: settings.timeZone, fallback: settings.fallbackTimeZone, firstSession: nil).zone,
                dayStart: settings.dayStart),
            rules: settings.streakRules)
        let today = totals.goal.day(containing: now)
        let last = settings.to ?? today
        // Days after today are upcoming unless planned sessions count (then they are scored as any).
        let scoredThrough = settings.countsPlannedSessions ? nil : today
        var report = totals.report(from: settings.from, to: last, today: scoredThrough)
        report.weekdayHours = hours
        let unit = imported.pointsRule.unit
        report.goal.unit = unit
        imported.diagnostics += ReportSettings.windowNote(from: settings.from, earliest: totals.earliestDay, to: last, at: firstSession)
        if unit == .minutes, allDaySessions > 0 {
            let events = allDaySessions == 1 ? "1 all-day event counts" : "\(allDaySessions) all-day events count"
            imported.diagnostics.append(Diagnostic(
                .note, .points, at: SourceLocation(file: firstSession?.file ?? "-", line: firstSession?.line ?? 1),
                "\(events) no minutes: all-day events mark days (a vacation, a trip) and are no time spent; X-POINTS on one still counts"))
        }
        if plannedSessions > 0 {
            let sessions = plannedSessions == 1 ? "1 session starts" : "\(plannedSessions) sessions start"
            imported.diagnostics.append(Diagnostic(
                .note, .planned, at: SourceLocation(file: firstSession?.file ?? "-", line: firstSession?.line ?? 1),
                "\(sessions) after now (\(today), in the report's zone): planned, not done, they are not counted and the days after today are upcoming"))
        }
        let habitTotals = countsMinutes ? minuteHabitTotals : self.habitTotals.isEmpty
            ? settings.habits.map { DayTotals(goal: totals.goal, rules: $0.rules.applied(to: settings.streakRules)) } : self.habitTotals
        // Every habit covers the calendar's window, so that their days line up.
        let habits = zip(settings.habits, habitTotals).enumerated().map { index, pair in
            let (habit, totals) = pair
            var habitReport = totals.report(from: report.from, to: report.to, today: scoredThrough)
            habitReport.weekdayHours = index < habitHours.count ? habitHours[index] : nil
            habitReport.goal.unit = habit.rules.points?.unit ?? unit
            return HabitReport(habit: habit, report: habitReport)
        }
        return ScoredCalendar(
            imported: imported, report: report, habits: habits, unmatchedSessions: unmatchedSessions,
            unmatchedSummaries: unmatchedSummaries,
            today: today, presentation: settings.presentation())
    }
}

extension ReportAccumulator {
    /// The summaries of the sessions no habit took, most frequent first (then by summary), at most
    /// `SummaryTokens.reported` of them.
    private var unmatchedSummaries: [SummaryCount] {
        let names = unmatchedNames.withLock { $0.names }
        return unmatchedByToken
            .map { SummaryCount(summary: Int($0.key) < names.count ? names[Int($0.key)] : SummaryCount.otherSummaries, sessions: $0.value) }
            .sorted { ($0.sessions, $1.summary) > ($1.sessions, $0.summary) }
            .prefix(SummaryTokens.reported)
            .map { $0 }
    }
}

/// The summaries of unmatched sessions, each with a token: its index among the first
/// ``maximumNames`` distinct ones; later ones share ``otherToken``.
struct SummaryTokens: Sendable {
    private(set) var names: [String] = []
    private var tokens: [String: UInt32] = [:]
    static let maximumNames = 4_096
    static let otherToken = UInt32.max
    /// The most summaries a report names.
    static let reported = 10

    mutating func token(for summary: String) -> UInt32 {
        if let token = tokens[summary] { return token }
        guard names.count < Self.maximumNames else { return Self.otherToken }
        let token = UInt32(names.count)
        names.append(summary)
        tokens[summary] = token
        return token
    }
}

extension ReportAccumulator {
    /// Settles `PointsRule.automatic` for a whole stream: the property when some session carried
    /// it, else minutes, with the kept sessions' points made their minutes and the note said.
    /// Returns whether the minute totals are the report's.
    private func chooseRule(for imported: inout CalendarImport) -> Bool {
        imported.pointsRule = CalendarImport.takenRule(settings.pointsRule, sessionsWithPointsProperty: imported.sessionsWithPointsProperty)
        guard case .automatic(let name) = settings.pointsRule, imported.pointsRule == .minutes, minuteTotals != nil else { return false }
        for index in imported.sessions.indices {
            imported.sessions[index].points = imported.sessions[index].start.wholeMinutes(until: imported.sessions[index].end)
        }
        if let firstSession { imported.diagnostics.append(CalendarImport.minutesNote(property: name, at: firstSession)) }
        return true
    }

    /// Counts a batch of the stream: its counted sessions or its sessions, choosing the zone at
    /// the first one (with the declared zone read so far) and noting where each stands.
    mutating func take(_ batch: ImportBatch, evidence: ZoneEvidence) {
        if let first = batch.counted.first {
            let location = SourceLocation(file: batch.sources[first.input].file, line: first.line)
            chooseZone(evidence: evidence, firstSession: location)
            note(location)
            // The earliest line of the first session's file, found by input index (the inputs of
            // that file) without a location per session.
            let known = firstSession!
            if inputsOfFirstFile?.file != known.file {
                inputsOfFirstFile = (known.file, Set(batch.sources.indices.filter { batch.sources[$0].file == known.file }))
            }
            let inputsOfFile = inputsOfFirstFile!.inputs
            var earliest = known.line
            for session in batch.counted where session.line < earliest && inputsOfFile.contains(session.input) {
                earliest = session.line
            }
            if earliest < known.line { firstSession = SourceLocation(file: known.file, line: earliest) }
            add(batch.counted, sources: batch.sources)
        }
        guard let first = batch.sessions.first else { return }
        // Held sessions come later in the stream: the first in input order is where whole-input
        // warnings point, as in a whole import.
        for index in batch.sessions.indices {
            if let source = batch.sessions[index].source { note(source) }
        }
        chooseZone(evidence: evidence, firstSession: first.source)
        if keepsSessions { places += batch.places }
        add(batch.sessions)
    }
}

extension ReportAccumulator {
    /// `scored` with the time counted per group (`TimeTotals`) over its report's window: calendar
    /// files named as their calendars, habits with their met days, and a note when more groups
    /// came than are named.
    func totalled(_ scored: ScoredCalendar) -> ScoredCalendar {
        guard let groups else { return scored }
        var scored = scored
        let window = scored.report.from...scored.report.to
        let counter = timeCounter ?? TimeTotals.Counter(
            timeZone: scored.report.goal.timeZone, dayStart: settings.dayStart, days: window, period: period, firstWeekday: settings.firstWeekday)
        let (_, names, folded) = groups.snapshot
        let countsMinutes = scored.imported.pointsRule == .minutes
        switch groups.grouping {
        case .habit:
            scored.timeTotals = TimeTotals(
                counter, groups: settings.habits.map(\.name), grouping: .habit, window: window,
                unit: scored.report.goal.unit, countsMinutes: countsMinutes,
                habitDays: scored.habits.map(\.report.days), keepsGroupOrder: true)
        case .calendar:
            let calendars = Dictionary(scored.imported.sources.map { ($0.file, $0.name) }, uniquingKeysWith: { first, _ in first })
            scored.timeTotals = TimeTotals(
                counter, groups: names.map { calendars[$0] ?? ReportSource.name(ofFile: $0) }, grouping: .calendar,
                window: window, unit: scored.report.goal.unit, countsMinutes: countsMinutes)
        case .summary, .category:
            scored.timeTotals = TimeTotals(
                counter, groups: names, grouping: groups.grouping, window: window,
                unit: scored.report.goal.unit, countsMinutes: countsMinutes)
        }
        if folded {
            let location = SourceLocation(file: firstSession?.file ?? "-", line: firstSession?.line ?? 1)
            scored.imported.diagnostics.append(Diagnostic(
                .note, .limit, at: location,
                "more than \(TotalsGroups.maximumGroups) different \(groups.grouping == .category ? "categories" : "summaries") or calendars: the sessions of the later ones count under \(TimeTotals.otherGroups)"))
        }
        return scored
    }
}
