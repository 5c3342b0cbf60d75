public import ICalendar
public import StreakExport
public import Streaks

/// One day's sessions, as `streakcal sessions` lists them, and what the import said.
public struct DaySessions: Sendable {
    /// The day's sessions in start order, with their local times and points.
    public var cards: SessionCards
    public var diagnostics: [Diagnostic]
}

/// An annotated calendar, as `streakcal annotate` writes it, and what was said while making it.
public struct AnnotatedCalendar: Sendable {
    /// The iCalendar text.
    public var text: String
    /// The report the annotations come from.
    public var report: StreakReport
    /// The import's diagnostics, then the writer's own (what both say is said once).
    public var diagnostics: [Diagnostic]
}

extension ReportSettings {
    /// Reads calendars whole and scores them over exactly `window` (recurring events expanded over
    /// it), as `streakcal layout --calendar` colours its days.
    public func scored(
        _ sources: [CalendarSource], over window: ClosedRange<Day>, now: Int64? = nil
    ) throws(CalendarReadError) -> ScoredCalendar {
        var settings = self
        settings.from = window.lowerBound
        settings.to = window.upperBound
        return settings.scored(try settings.importer(now: now).importSessions(from: sources), now: now)
    }

    /// One day's sessions, as `streakcal sessions --on` lists them.
    ///
    /// ```swift
    /// let day = try ReportSettings(timeZone: "UTC").sessions(on: Day(year: 2024, month: 2, day: 25)!, in: [.file("work.ics")])
    /// print(day.cards.render())
    /// ```
    public func sessions(on day: Day, in sources: [CalendarSource], now: Int64? = nil) throws(CalendarReadError) -> DaySessions {
        let scored = try scored(sources, over: day...day, now: now)
        return DaySessions(
            cards: SessionCards(day: day, goal: scored.report.goal, from: scored.imported.sessions, total: scored.report.total(on: day)),
            diagnostics: scored.imported.diagnostics)
    }

    /// The calendars written back out with each day's status (`CalendarAnnotation`), as
    /// `streakcal annotate` writes them. Each source is read once: what the import reads is what
    /// the writer copies (standard input included).
    ///
    /// The annotations' UIDs name the calendar by the names of `sources` (`X-WR-CALNAME`, else the
    /// file's name; `CalendarSlug`), or by the slug the inputs' earlier annotations have, so that an
    /// annotated calendar keeps its UIDs whatever its file is called. With ``habits``, each habit
    /// is annotated on its own.
    ///
    /// ```swift
    /// var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
    /// settings.to = Day(year: 2024, month: 2, day: 29)
    /// let annotated = try settings.annotated([.file("Fixtures/tutorial-sample.ics")], onlyAnnotations: true, now: 1_709_164_800)
    /// print(annotated.text.split(separator: "\r\n").first { $0.hasPrefix("UID:") } ?? "")
    /// // Prints "UID:2024-02-20.fscalendar-streaks-tutorial-sample@streakcal.local"
    /// ```
    ///
    /// - Parameters:
    ///   - sources: The calendars, read as one.
    ///   - includingEmptyDays: Annotate every day of the window, not only days with sessions.
    ///   - markingSessions: Give each single event its day's status too (not with `onlyAnnotations`,
    ///     which writes no event of the inputs).
    ///   - onlyAnnotations: Write the annotations alone, in a calendar named after the sources
    ///     (`Piano (StreakCal)`), for a calendar app that has the sessions already.
    ///   - uidDomain: The domain of the annotations' UIDs.
    ///   - now: "Today", and the annotations' DTSTAMP, in seconds since 1970 (default: now).
    public func annotated(
        _ sources: [CalendarSource], includingEmptyDays: Bool = false, markingSessions: Bool = false,
        onlyAnnotations: Bool = false, uidDomain: UIDDomain = .standard, now: Int64? = nil
    ) throws(CalendarReadError) -> AnnotatedCalendar {
        let now = now ?? Self.now()
        var inMemory: [CalendarSource] = []
        for source in sources { inMemory.append(try source.inMemory()) }
        let scored = scored(try importer(now: now).importSessions(from: inMemory), now: now)
        let earlier = CalendarAnnotation.calendarSlug(inUIDs: try CalendarAnnotation.writer.annotationUIDs(in: inMemory))
        let annotation = CalendarAnnotation(
            report: scored.report, habits: scored.habits, includesEmptyDays: includingEmptyDays,
            calendar: earlier ?? CalendarSlug(names: scored.sources.map(\.name)), uidDomain: uidDomain)
        if onlyAnnotations {
            let name = scored.sources.subject.map { $0 + " (StreakCal)" } ?? "StreakCal"
            return AnnotatedCalendar(
                text: annotation.writeAnnotationsOnly(calendarName: name, timestamp: now), report: scored.report,
                diagnostics: scored.imported.diagnostics)
        }
        let written = try annotation.write(inMemory, markingSessions: markingSessions ? scored.imported.sessions : nil, timestamp: now)
        // The writer cuts the same text the import read: what both say (a missing END line) is said once.
        let said = Set(scored.imported.diagnostics.map(\.description))
        return AnnotatedCalendar(
            text: written.text, report: scored.report,
            diagnostics: scored.imported.diagnostics + written.diagnostics.filter { !said.contains($0.description) })
    }
}
