public import Foundation
public import Streaks

/// The sessions of one or more calendars, with everything worth saying about their content.
public struct CalendarImport: Sendable {
    /// The sessions, in input order.
    public var sessions: [Session]
    /// Problems in the content, in input order (by file, then line).
    public var diagnostics: [Diagnostic]
    /// The first `X-WR-TIMEZONE` a calendar declares: the zone its author reads it in.
    public var declaredTimeZone: String?
    /// How many sessions carry the points property (with `PointsRule.property`).
    public var sessionsWithPointsProperty: Int
    /// The rule the points were found with.
    public var pointsRule: PointsRule = .xPoints

    public init(sessions: [Session] = [], diagnostics: [Diagnostic] = [], declaredTimeZone: String? = nil, sessionsWithPointsProperty: Int = 0) {
        self.sessions = sessions
        self.diagnostics = diagnostics
        self.declaredTimeZone = declaredTimeZone
        self.sessionsWithPointsProperty = sessionsWithPointsProperty
    }
}

/// A file that could not be read at all (as opposed to content problems, which are diagnostics).
public struct CalendarReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    /// Why it could not be read.
    public var reason: String

    public var description: String { "cannot read \(path): \(reason)" }
}

/// Reads iCalendar data into sessions, through libical, with located diagnostics.
///
/// ```swift
/// let importer = SessionImporter()
/// let result = importer.importCalendar(text: """
///     BEGIN:VEVENT
///     UID:run-1
///     DTSTART:20240226T090000Z
///     DTEND:20240226T100000Z
///     X-POINTS:120
///     END:VEVENT
///     """)
/// print(result.sessions.map(\.points))
/// // Prints "[120]"
/// ```
public struct SessionImporter: Sendable {
    /// Where the points come from.
    public var pointsRule: PointsRule
    /// How far recurring events are expanded.
    public var expansion: RecurrenceExpansion
    /// Parse components on every core (the default), or on the calling thread only; the results are
    /// the same either way.
    public var isParallel = true

    /// - Parameters:
    ///   - pointsRule: Where the points come from.
    ///   - expansion: The window of recurring instances wanted; by default every instance up to a
    ///     year from today.
    public init(pointsRule: PointsRule = .xPoints, expansion: RecurrenceExpansion? = nil) {
        self.pointsRule = pointsRule
        self.expansion = expansion ?? .untilNextYear(today: SessionImporter.todayUTC())
    }

    /// The property that marks the day annotations `streakcal annotate` writes: such events are not sessions.
    public static let annotationMarker = "X-STREAKCAL-ANNOTATION"

    /// Reads several inputs already in memory into one result, in the order given.
    public func importCalendars(_ sources: [CalendarSource]) -> CalendarImport {
        var merged = CalendarImport()
        for source in sources {
            let one = importInput(source.bytes, file: source.name)
            merged.sessions += one.sessions
            merged.diagnostics += one.diagnostics
            merged.declaredTimeZone = merged.declaredTimeZone ?? one.declaredTimeZone
            merged.sessionsWithPointsProperty += one.sessionsWithPointsProperty
        }
        merged.pointsRule = pointsRule
        return merged.finished(pointsRule: pointsRule)
    }

    static func todayUTC() -> Day {
        Day(daysSince1970: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)))
    }

    /// Reads a file; `-` reads standard input.
    public func importCalendar(path: String) throws(CalendarReadError) -> CalendarImport {
        importInput(try Self.read(path: path), file: path).finished(pointsRule: pointsRule)
    }

    /// Reads a file at a URL.
    public func importCalendar(contentsOf url: URL) throws(CalendarReadError) -> CalendarImport {
        try importCalendar(path: url.path)
    }

    /// Reads iCalendar text.
    public func importCalendar(text: String, fileName: String = "<string>") -> CalendarImport {
        importInput(Array(text.utf8), file: fileName).finished(pointsRule: pointsRule)
    }

    /// Reads iCalendar bytes in any encoding the scanner understands (UTF-8, UTF-16 with BOM, Latin-1).
    public func importCalendar(bytes: [UInt8], fileName: String) -> CalendarImport {
        importInput(bytes, file: fileName).finished(pointsRule: pointsRule)
    }

    /// Reads several files (`-` for standard input) into one result, in the order given.
    ///
    /// Throws for the first file that cannot be read; content problems are diagnostics.
    public func importCalendars(paths: [String]) throws(CalendarReadError) -> CalendarImport {
        var sources: [CalendarSource] = []
        for path in paths { sources.append(try CalendarSource.read(path: path)) }
        return importCalendars(sources)
    }

    static func read(path: String) throws(CalendarReadError) -> [UInt8] {
        if path == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CalendarReadError(path: path, reason: "no such file")
        }
        if isDirectory.boolValue {
            throw CalendarReadError(path: path, reason: "it is a directory")
        }
        // POSIX reads: Foundation's FileManager.contents(atPath:) leaks its buffer on Linux (seen
        // under LeakSanitizer).
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CalendarReadError(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CalendarReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    /// Reads one input: cuts it into top-level components one at a time, parses and reads them with
    /// libical in parallel (each tree stays on the thread that made it), and resolves them in input
    /// order, so the result is the same whatever the thread timing.
    func importInput(_ bytes: [UInt8], file: String) -> CalendarImport {
        _ = Libical.ready  // process-wide libical state, set up before any concurrency
        var cutter = ComponentCutter(scanner: ContentLineScanner(bytes: bytes, file: file), file: file)
        var resolver = SessionResolver(file: file, pointsRule: pointsRule)
        var declaredTimeZone: String?
        var work: [(lines: ComponentLines, calendar: Int)] = []

        while let item = cutter.next() {
            switch item {
            case .calendarProperty(let line, let calendar):
                if line.name == "METHOD" {
                    resolver.methods[calendar] = String(line.value).trimmingSpaces.uppercased()
                }
                if line.name == "X-WR-TIMEZONE", declaredTimeZone == nil {
                    let value = String(line.value).trimmingSpaces
                    if !value.isEmpty { declaredTimeZone = value }
                }
            case .component(let lines, let calendar):
                if lines.name == "VEVENT" || lines.name == "VTIMEZONE" { work.append((lines, calendar)) }
            }
        }

        let parsed = ComponentParsing.parse(work, file: file, pointsProperty: pointsProperty, parallel: isParallel)
        var events: [(record: EventRecord, calendar: Int)] = []
        var diagnostics: [Diagnostic] = []
        for (index, outcome) in parsed.outcomes.enumerated() {
            let calendar = work[index].calendar
            switch outcome {
            case .event(let record):
                events.append((record, calendar))
            case .timeZone(let definition):
                define(definition, lines: work[index].lines, file: file, calendar: calendar, resolver: &resolver, diagnostics: &diagnostics)
            case .unparsable:
                let begin = work[index].lines.begin
                diagnostics.append(Diagnostic(
                    .error, .libical, at: begin.location(file: file),
                    "libical could not parse this \(work[index].lines.name); it is skipped", sourceLine: begin.text))
            }
        }
        // VTIMEZONEs may follow the events that use them: events are resolved once the input is read.
        let sessions = resolver.sessions(from: events, expansion: expansion)
        let all = cutter.allDiagnostics + parsed.diagnostics + diagnostics + resolver.diagnostics
        var result = CalendarImport(
            sessions: sessions,
            diagnostics: Self.limited(Self.inSourceOrder(all), file: file),
            declaredTimeZone: declaredTimeZone,
            sessionsWithPointsProperty: resolver.sessionsWithPointsProperty)
        result.pointsRule = pointsRule
        return result
    }

    private func define(
        _ definition: ZoneDefinition.Result?, lines: ComponentLines, file: String, calendar: Int,
        resolver: inout SessionResolver, diagnostics: inout [Diagnostic]
    ) {
        guard let definition else {
            diagnostics.append(Diagnostic(
                .warning, .badTimeZone, at: lines.begin.location(file: file),
                "VTIMEZONE without TZID; ignored", sourceLine: lines.begin.text))
            return
        }
        for problem in definition.problems {
            diagnostics.append(Diagnostic(
                .warning, .badTimeZone, at: lines.begin.location(file: file),
                "VTIMEZONE \(definition.timeZoneID): \(problem)", sourceLine: lines.begin.text))
        }
        resolver.define(definition.rules, timeZoneID: definition.timeZoneID, calendar: calendar)
    }

    private var pointsProperty: String {
        if case .property(let name) = pointsRule { return name }
        return "X-POINTS"
    }

    /// Diagnostics of one kind that one input shows at most; a damaged file can have tens of thousands.
    static let diagnosticsPerKind = 100

    /// The first `diagnosticsPerKind` diagnostics of each code, and a note counting the rest.
    static func limited(_ diagnostics: [Diagnostic], file: String) -> [Diagnostic] {
        var counts: [Diagnostic.Code: Int] = [:]
        var kept: [Diagnostic] = []
        for diagnostic in diagnostics {
            counts[diagnostic.code, default: 0] += 1
            if counts[diagnostic.code, default: 0] <= diagnosticsPerKind { kept.append(diagnostic) }
        }
        let lastLine = diagnostics.last?.location.line ?? 1
        for (code, count) in counts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where count > diagnosticsPerKind {
            kept.append(Diagnostic(
                .note, code, at: SourceLocation(file: file, line: lastLine),
                "\(count - diagnosticsPerKind) more \(code) diagnostics in this file are not shown (\(count) in all)"))
        }
        return kept
    }

    /// Diagnostics sorted by line, stable for those on the same line.
    static func inSourceOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted {
            ($0.element.location.line, $0.element.location.column, $0.offset)
                < ($1.element.location.line, $1.element.location.column, $1.offset)
        }.map(\.element)
    }
}

extension CalendarImport {
    /// The calendar as a report reads it: in `requested` if given, else in its `X-WR-TIMEZONE` when
    /// that is an IANA zone, else in the system zone (with a warning when `X-WR-TIMEZONE` names no
    /// zone), with floating times read in that zone (`readingFloatingTimes(in:)`).
    ///
    /// ```swift
    /// let (calendar, zone) = try SessionImporter().importCalendar(path: "work.ics").inReportZone(requested: nil)
    /// print(zone.identifier)
    /// // Prints the calendar's X-WR-TIMEZONE, such as "America/Los_Angeles"
    /// ```
    public func inReportZone(requested: String?) -> (calendar: CalendarImport, zone: TimeZoneRules) {
        var warnings: [Diagnostic] = []
        let name: String
        if let requested {
            name = requested
        } else if let declared = declaredTimeZone, TimeZone(identifier: declared) != nil {
            name = declared
        } else {
            name = TimeZone.current.identifier
            if let declared = declaredTimeZone, let location = sessions.first?.source {
                warnings.append(Diagnostic(
                    .warning, .unknownTimeZone, at: SourceLocation(file: location.file, line: 1),
                    "X-WR-TIMEZONE \"\(declared)\" is not an IANA time zone; the report uses \(name)"))
            }
        }
        let zone = TimeZoneRules(identifier: name) ?? .utc
        var calendar = readingFloatingTimes(in: zone)
        calendar.diagnostics += warnings
        return (calendar, zone)
    }

    /// The same sessions with floating times (and times whose zone is unknown) read as wall-clock
    /// times in `zone`, the report's zone: each becomes the instant it is there, by RFC 5545's gap and
    /// overlap rules, and with `PointsRule.minutes` a session's points are its exact length in that zone.
    ///
    /// ```swift
    /// let berlin = TimeZoneRules(identifier: "Europe/Berlin")!
    /// let sessions = try SessionImporter().importCalendar(path: "work.ics").readingFloatingTimes(in: berlin).sessions
    /// ```
    public func readingFloatingTimes(in zone: TimeZoneRules) -> CalendarImport {
        var result = self
        for index in result.sessions.indices {
            var session = result.sessions[index]
            guard session.start.isFloating || session.end.isFloating else { continue }
            session.start = session.start.readingFloatingTime(in: zone)
            session.end = session.end.readingFloatingTime(in: zone)
            if pointsRule == .minutes {
                session.points = session.start.wholeMinutes(until: session.end)
            }
            result.sessions[index] = session
        }
        return result
    }

    /// Adds what can only be said of the whole input: that no session carries the points property.
    func finished(pointsRule: PointsRule) -> CalendarImport {
        guard case .property(let name) = pointsRule, sessionsWithPointsProperty == 0,
              let first = sessions.first, let location = first.source else { return self }
        var result = self
        result.diagnostics.append(Diagnostic(
            .warning, .points, at: location,
            "no session has the \(name) property, so every day has 0 points; use --points minutes to count minutes, or --points count to count sessions"))
        return result
    }
}
