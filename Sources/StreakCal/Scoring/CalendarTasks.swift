import Foundation
public import ICalendar
public import StreakExport
public import Streaks

/// One day's sessions, as `streakcal sessions` lists them, and what the import said.
public struct DaySessions: Sendable {
    /// The day's sessions in start order, with their local times and points.
    public var cards: SessionCards
    public var diagnostics: [Diagnostic]
}

/// The days of a window, each with its sessions, as `streakcal sessions --from --to` lists them.
public struct DayAgenda: Sendable {
    /// Every day of the window, in order, with its sessions (none on many).
    public var days: [SessionCards]
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
        _ sources: [CalendarSource], over window: ClosedRange<Day>, now: Int64
    ) throws(CalendarReadError) -> ScoredCalendar {
        var settings = self
        settings.from = window.lowerBound
        settings.to = window.upperBound
        return settings.scored(try settings.importer(now: now).importSessions(from: sources), now: now)
    }

    /// One day's sessions, as `streakcal sessions --on` lists them.
    ///
    /// ```swift
    /// let day = try ReportSettings(timeZone: "UTC").sessions(on: Day("2024-02-25"), in: [.file("work.ics")])
    /// print(day.cards.render())
    /// ```
    public func sessions(on day: Day, in sources: [CalendarSource], now: Int64) throws(CalendarReadError) -> DaySessions {
        let agenda = try sessions(over: day...day, in: sources, now: now)
        return DaySessions(cards: agenda.days[0], diagnostics: agenda.diagnostics)
    }

    /// The sessions of every day of `window`, a day's cards each, as `streakcal sessions --from
    /// --to` lists them (an agenda); sessions that start after `now` are planned (listed as such,
    /// not counted) unless ``countsPlannedSessions``.
    ///
    /// ```swift
    /// let week = try ReportSettings(timeZone: "UTC").sessions(
    ///     over: Day("2024-02-19")...Day("2024-02-25"), in: [.file("work.ics")])
    /// print(week.days.filter { !$0.sessions.isEmpty }.map(\.day))
    /// ```
    public func sessions(over window: ClosedRange<Day>, in sources: [CalendarSource], now: Int64) throws(CalendarReadError) -> DayAgenda {
        let scored = try scored(sources, over: window, now: now)
        let goal = scored.report.goal
        // Each session to its day once, rather than every day looking through all of them.
        var byDay: [Day: [Session]] = [:]
        for session in scored.imported.sessions { byDay[session.day(in: goal.timeZone, dayStart: goal.dayStart), default: []].append(session) }
        let plannedAfter = countsPlannedSessions ? nil : now
        let days = (0...window.lowerBound.distance(to: window.upperBound)).map { offset in
            let day = window.lowerBound.advanced(by: offset)
            return SessionCards(day: day, goal: goal, from: byDay[day] ?? [], total: scored.report.total(on: day), plannedAfter: plannedAfter)
        }
        return DayAgenda(days: days, diagnostics: scored.imported.diagnostics)
    }

    /// The calendars written back out with each day's status (`CalendarAnnotation`), as
    /// `streakcal annotate` writes them, in memory (``annotatedCopy(_:includingEmptyDays:markingSessions:onlyAnnotations:uidDomain:now:)``
    /// writes a piece at a time).
    ///
    /// ```swift
    /// var settings = ReportSettings(requiredPoints: 100, timeZone: "UTC")
    /// settings.to = Day("2024-02-29")
    /// let annotated = try settings.annotated([.file("Fixtures/tutorial-sample.ics")], onlyAnnotations: true, now: 1_709_164_800)
    /// print(annotated.text.split(separator: "\r\n").first { $0.hasPrefix("UID:") } ?? "")
    /// // Prints "UID:2024-02-20.fscalendar-streaks-tutorial-sample@streakcal.local"
    /// ```
    ///
    /// - Parameters: As ``annotatedCopy(_:includingEmptyDays:markingSessions:onlyAnnotations:uidDomain:now:)``.
    /// - Throws: `CalendarReadError` when a source cannot be read.
    public func annotated(
        _ sources: [CalendarSource], includingEmptyDays: Bool = false, markingSessions: Bool = false,
        onlyAnnotations: Bool = false, uidDomain: UIDDomain = .standard, now: Int64
    ) throws(CalendarReadError) -> AnnotatedCalendar {
        do {
            let copy = try annotatedCopy(
                sources, includingEmptyDays: includingEmptyDays, markingSessions: markingSessions,
                onlyAnnotations: onlyAnnotations, uidDomain: uidDomain, now: now, inMemory: true)
            let (report, diagnostics) = (copy.report, copy.diagnostics)
            var output = CalendarBytes()
            try copy.write(to: &output)
            return AnnotatedCalendar(text: output.text, report: report, diagnostics: diagnostics)
        } catch .unreadable(let error) {
            throw error
        } catch {
            // A copy held in memory has no file to fail, and memory takes every byte.
            preconditionFailure("an annotated copy in memory failed: \(error)")
        }
    }

    /// The calendars read, scored and copied for `streakcal annotate`, ready to be written with each
    /// day's status (`CalendarAnnotation`) by ``AnnotatedCalendarCopy/write(to:)``: what the copy
    /// holds does not grow with the inputs (`CalendarWriter.copy(_:marks:noticingAnnotation:)`),
    /// and the diagnostics are known before anything is written.
    ///
    /// Each source is opened once and read twice, by the import and by the copy
    /// (`RereadableSources`): what the import reads is what the writer copies, standard input
    /// included. The annotations' UIDs name the calendar by the names of `sources`
    /// (`X-WR-CALNAME`, else the file's name; `CalendarSlug`), or by the slug the inputs' earlier
    /// annotations have, so that an annotated calendar keeps its UIDs whatever its file is called.
    /// With ``habits``, each habit is annotated on its own.
    ///
    /// ```swift
    /// let copy = try settings.annotatedCopy([.file("piano.ics")])
    /// for diagnostic in copy.diagnostics { print(diagnostic) }
    /// var file = try AtomicFileStream(path: "piano-annotated.ics")
    /// try copy.write(to: &file)
    /// try file.commit()
    /// ```
    ///
    /// - Parameters:
    ///   - sources: The calendars, read as one.
    ///   - includingEmptyDays: Annotate every day of the window, not only days with sessions.
    ///   - markingSessions: Give each single event its day's status too (not with `onlyAnnotations`,
    ///     which writes no event of the inputs); the copy then keeps each session's day.
    ///   - onlyAnnotations: Write the annotations alone, in a calendar named after the sources
    ///     (`Piano (StreakCal)`), for a calendar app that has the sessions already.
    ///   - uidDomain: The domain of the annotations' UIDs.
    ///   - now: "Today", and the annotations' DTSTAMP, in seconds since 1970; the library reads no clock (`streakcal` gives it the time it started).
    /// - Throws: ``/ICalendar/CalendarCopyError/unreadable(_:)`` when a source cannot be read,
    ///   ``/ICalendar/CalendarCopyError/scratch(_:)`` when the copy cannot be kept in its temporary file.
    public func annotatedCopy(
        _ sources: [CalendarSource], includingEmptyDays: Bool = false, markingSessions: Bool = false,
        onlyAnnotations: Bool = false, uidDomain: UIDDomain = .standard, now: Int64
    ) throws(CalendarCopyError<Never>) -> AnnotatedCalendarCopy {
        try annotatedCopy(
            sources, includingEmptyDays: includingEmptyDays, markingSessions: markingSessions,
            onlyAnnotations: onlyAnnotations, uidDomain: uidDomain, now: now, inMemory: false)
    }

    private func annotatedCopy(
        _ sources: [CalendarSource], includingEmptyDays: Bool, markingSessions: Bool, onlyAnnotations: Bool,
        uidDomain: UIDDomain, now: Int64, inMemory: Bool
    ) throws(CalendarCopyError<Never>) -> AnnotatedCalendarCopy {
        let inputs = try Self.rereadable(sources)
        let scored: ScoredCalendar
        do {
            scored = try self.scored(inputs.sources, keepingSessions: markingSessions && !onlyAnnotations, now: now)
        } catch {
            throw .unreadable(error)
        }
        var annotation = CalendarAnnotation(
            report: scored.report, habits: scored.habits, includesEmptyDays: includingEmptyDays, uidDomain: uidDomain)
        var earlier = CalendarAnnotation.EarlierSlugs()
        if onlyAnnotations {
            do {
                try CalendarAnnotation.writer.annotationUIDs(in: inputs.sources) { earlier.add(uid: $0) }
            } catch {
                throw .unreadable(error)
            }
            annotation.calendar = earlier.slug ?? CalendarSlug(names: scored.sources.calendars.map(\.name))
            let name = scored.sources.subject.map { $0 + " (StreakCal)" } ?? "StreakCal"
            return AnnotatedCalendarCopy(
                annotation: annotation, diagnostics: scored.imported.diagnostics, timestamp: now, body: .annotationsOnly(calendarName: name))
        }
        let marks = markingSessions ? annotation.sessionMarks(for: scored.imported.sessions) : [:]
        let copy = try CalendarAnnotation.writer.copy(inputs.sources, marks: marks, inMemory: inMemory) { earlier.add(uid: $0) }
        annotation.calendar = earlier.slug ?? CalendarSlug(names: scored.sources.calendars.map(\.name))
        // The writer cuts the same text the import read: what both say (a missing END line) is said once.
        let said = Set(scored.imported.diagnostics.map(\.description))
        let diagnostics = scored.imported.diagnostics + copy.diagnostics.filter { !said.contains($0.description) }
        return AnnotatedCalendarCopy(annotation: annotation, diagnostics: diagnostics, timestamp: now, body: .copied(copy))
    }

    /// The sources, standard input and other streams kept so that they can be read twice.
    private static func rereadable(_ sources: [CalendarSource]) throws(CalendarCopyError<Never>) -> RereadableSources {
        do {
            return try RereadableSources(sources)
        } catch {
            throw .unreadable(error)
        }
    }
}

/// An annotated calendar read and copied (``ReportSettings/annotatedCopy(_:includingEmptyDays:markingSessions:onlyAnnotations:uidDomain:now:)``),
/// ready to be written: its report and diagnostics are known; its text is written a piece at a
/// time by ``write(to:)``.
public struct AnnotatedCalendarCopy: ~Copyable {
    /// What is written: the inputs' copy with the annotations, or the annotations alone.
    enum Body: ~Copyable {
        case copied(CalendarCopy)
        case annotationsOnly(calendarName: String)
    }

    /// The annotations, of the report the import gave.
    let annotation: CalendarAnnotation
    /// The import's diagnostics, then the writer's own (what both say is said once).
    public let diagnostics: [Diagnostic]
    /// The annotations' DTSTAMP, in seconds since 1970 UTC.
    let timestamp: Int64
    let body: Body

    /// The report the annotations come from.
    public var report: StreakReport { annotation.report }

    /// Writes the annotated calendar to `output`.
    ///
    /// - Throws: ``/ICalendar/CalendarCopyError/output(_:)`` with what `output` threw, or
    ///   ``/ICalendar/CalendarCopyError/scratch(_:)`` when the copy cannot be read back from its temporary file.
    public consuming func write<Output: CalendarOutput & ~Copyable>(to output: inout Output) throws(CalendarCopyError<Output.Failure>) {
        switch consume body {
        case .copied(let copy):
            try annotation.write(copy, timestamp: timestamp, to: &output)
        case .annotationsOnly(let calendarName):
            do {
                try annotation.writeAnnotationsOnly(calendarName: calendarName, timestamp: timestamp, to: &output)
            } catch {
                throw .output(error)
            }
        }
    }
}

extension AtomicFileStream: CalendarOutput {}

extension StandardStream: CalendarOutput {
    /// Writes all of `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(WriteError) {
        if let code = FileDescriptorOutput.write(bytes, to: fileDescriptor) {
            throw WriteError(stream: name, reason: String(cString: strerror(code)))
        }
    }
}
