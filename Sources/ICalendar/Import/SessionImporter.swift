import Foundation
public import Streaks

/// The sessions of one or more calendars, with everything worth saying about their content.
public struct CalendarImport: Sendable {
    /// The sessions, in input order.
    public var sessions: [Session]
    /// Problems in the content, in input order (by file, then line).
    public var diagnostics: [Diagnostic]
    /// The first `X-WR-TIMEZONE` a calendar declares: the zone its author reads it in
    /// (`zoneEvidence.declared.first`).
    public var declaredTimeZone: String? {
        get { zoneEvidence.declared.first }
        set { zoneEvidence.declared = (newValue.map { [$0] } ?? []) + zoneEvidence.declared.dropFirst() }
    }
    /// Every declared zone and the zones the events' times name: what the report's zone is chosen by.
    public var zoneEvidence = ZoneEvidence()
    /// How many sessions carry the points property (with `PointsRule.property` or `.automatic`).
    public var sessionsWithPointsProperty: Int
    /// The rule the points were found with (`.automatic` comes to `.property` or `.minutes`).
    public var pointsRule: PointsRule = .xPoints
    /// The calendars read, in order, each named by its `X-WR-CALNAME` or its file.
    public var sources: [ReportSource] = []

    public init(
        sessions: [Session] = [], diagnostics: [Diagnostic] = [], declaredTimeZone: String? = nil,
        sessionsWithPointsProperty: Int = 0, pointsRule: PointsRule = .xPoints
    ) {
        self.sessions = sessions
        self.diagnostics = diagnostics
        self.zoneEvidence = ZoneEvidence(declared: declaredTimeZone.map { [$0] } ?? [])
        self.sessionsWithPointsProperty = sessionsWithPointsProperty
        self.pointsRule = pointsRule
    }
}

/// Reads iCalendar data into sessions, through libical, with located diagnostics.
///
/// Two verbs: ``importSessions(from:)-8sm77`` reads calendars whole, ``sessionBatches(from:)`` streams
/// them. Several sources are read as one, so that a later copy of an event, a cancellation or an
/// override in one counts for another's events.
///
/// ```swift
/// let importer = SessionImporter(expansion: RecurrenceExpansion(through: lastDay))
/// let result = try importer.importSessions(from: .string("""
///     BEGIN:VEVENT
///     UID:run-1
///     DTSTART:20240226T090000Z
///     DTEND:20240226T100000Z
///     X-POINTS:120
///     END:VEVENT
///     """))
/// print(result.sessions.map(\.points))
/// // Prints "[120]"
/// ```
public struct SessionImporter: Sendable {
    /// Where the points come from.
    public var pointsRule: PointsRule
    /// How far recurring events are expanded.
    public var expansion: RecurrenceExpansion
    /// The most threads one import parses, resolves and scans on at a time: 1 does it all on the
    /// calling thread; the default is ``defaultParallelism``. The results are the same whatever the
    /// number. A server that runs many imports at once sets it (with how many it runs) to bound the
    /// threads they take. At least 1 (less stops the program, as a programmer's error).
    public var parallelism = SessionImporter.defaultParallelism {
        didSet { Self.check(parallelism) }
    }

    /// The parallelism an importer starts with: the processors the system lets this process use.
    public static var defaultParallelism: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Whether the import uses threads beside the calling one.
    var isParallel: Bool { parallelism > 1 }

    /// Stops the program on a parallelism below 1.
    package static func check(_ parallelism: Int) {
        precondition(parallelism >= 1, "parallelism must be at least 1, got \(parallelism)")
    }
    /// Properties whose first value each session carries in `Session.properties` (names in any
    /// case), for habit filters (`SessionFilter.propertyNames`); none by default.
    public var keptProperties: Set<String> = []
    /// Whether every line of a VEVENT is kept (none stepped over as the scanner cuts) and every
    /// property a session uses is read by libical's parser (`ComponentParsing.EventReading.reference`):
    /// the general path, which the session path must agree with on every input (a fuzz target holds
    /// them equal, Fuzz/README.md). Slower; for tests.
    package var readsThroughLibical = false
    /// Bytes read from a file at a time (tests make it small to put chunk edges everywhere).
    var readChunkSize = InputBytes.defaultChunkSize
    /// What the caller needs of each session; everything by default. A report that only counts
    /// its sessions on their days asks for less, and the import then makes less: no string per
    /// instance of a series, or no `Session` at all (`ImportBatch.counted`).
    package var needs = SessionNeeds.everything
    /// With counted sessions (`needs` without `.sessions`), what sorts each into habits: the
    /// import then reads SUMMARY, CATEGORIES and the kept properties, and tests each event once.
    package var classifier: SessionClassifier?

    /// Whether each instance of a recurring event gets an id of its own (`UID/recurrence id`);
    /// otherwise it carries its event's UID.
    var makesInstanceIDs: Bool { needs.contains(.instanceIDs) }
    /// Whether sessions are only counted on their days: each then carries its times, points and
    /// source only (`CountedSession`), handed on in `ImportBatch.counted`.
    var countsOnly: Bool { !needs.contains(.sessions) }

    /// - Parameters:
    ///   - pointsRule: Where the points come from: `X-POINTS` unless given. Not `.automatic` as
    ///     `ReportSettings` has it: ``sessionBatches(from:)`` cannot settle that rule before the
    ///     end of the input, so a stream's sessions would differ from a whole import's.
    ///   - expansion: The window of recurring instances wanted, such as
    ///     `RecurrenceExpansion(through: lastDay)` or `.untilNextYear(today: today)`. There is no
    ///     default: the library reads no clock, so that a calendar gives the same sessions on any day.
    public init(pointsRule: PointsRule = .xPoints, expansion: RecurrenceExpansion) {
        self.pointsRule = pointsRule
        self.expansion = expansion
    }

    /// The property that marks the day annotations `streakcal annotate` writes: such events are not sessions.
    public static let annotationMarker = "X-STREAKCAL-ANNOTATION"

    /// Reads calendars whole: their sessions in input order, and every diagnostic.
    ///
    /// - Throws: `CalendarReadError` for the first source that cannot be read at all; problems in
    ///   the content are diagnostics.
    public func importSessions(from sources: [CalendarSource]) throws(CalendarReadError) -> CalendarImport {
        guard !sources.isEmpty else { return CalendarImport(pointsRule: pointsRule) }
        var importer = self
        importer.needs = .everything  // the sessions are the result
        let (pipeline, map) = try importer.pipeline(for: sources)
        var result = map.importResult(collect(pipeline)).finished(pointsRule: pointsRule)
        result.sources = map.sources(named: pipeline.calendarNames)
        return result
    }

    /// Reads calendars whole from Swift concurrency: as the blocking call does, on a Dispatch
    /// thread, the calling task suspended until it is done, so that no thread of the cooperative
    /// pool waits on the import (at most ``parallelism`` threads parse meanwhile). It is not
    /// cancelled with its task: it ends with the input.
    ///
    /// ```swift
    /// let imported = try await importer.importSessions(from: [.file("piano.ics")])
    /// ```
    ///
    /// - Throws: `CalendarReadError` for the first source that cannot be read at all.
    public func importSessions(from sources: [CalendarSource]) async throws(CalendarReadError) -> CalendarImport {
        try await BlockingWork.run { () throws(CalendarReadError) -> CalendarImport in try self.importSessions(from: sources) }
    }

    /// Reads one calendar whole (see ``importSessions(from:)-(CalendarSource...)``).
    public func importSessions(from sources: CalendarSource...) throws(CalendarReadError) -> CalendarImport {
        try importSessions(from: sources)
    }

    /// The pipeline for sources, and the map that names their locations: one source is read where
    /// it is (a regular file in place, other input copied to a temporary file, bytes in memory),
    /// several one after another as one stream (`InputMap`).
    func pipeline(for sources: [CalendarSource]) throws(CalendarReadError) -> (ImportPipeline, InputMap) {
        if sources.count == 1, let source = sources.first {
            let map = InputMap(name: source.name, collection: source.collection)
            switch source.content {
            case .bytes(let bytes): return (pipeline(bytes: bytes), map)
            case .file(let path): return (pipeline(descriptor: try Self.openInput(path: path)), map)
            case .standardInput: return (pipeline(descriptor: try Self.openStandardInput()), map)
            case .unreadable(let error): throw error
            }
        }
        if sources.allSatisfy({ if case .bytes = $0.content { true } else { false } }) {
            let map = InputMap(sources: sources)
            return (pipeline(bytes: map.bytes), map)
        }
        let (descriptor, map) = try InputMap.files(sources)
        return (pipeline(descriptor: descriptor), map)
    }

    static func read(path: String) throws(CalendarReadError) -> [UInt8] {
        try readToEnd(try openInput(path: path), path: path)
    }

    /// Everything on standard input, read to its end.
    static func readStandardInput() throws(CalendarReadError) -> [UInt8] {
        try readToEnd(try openStandardInput(), path: "-")
    }

    private static func readToEnd(_ descriptor: Int32, path: String) throws(CalendarReadError) -> [UInt8] {
        let input = InputBytes(reading: descriptor, owning: true)
        input.readToEnd()
        if let code = input.readFailure { throw CalendarReadError(path: path, systemError: code) }
        return input.array
    }

    /// Opens a file for reading. Standard input (`-`) and anything else that is not a regular file
    /// (a named pipe, `/dev/stdin`, a process substitution) are copied to an unlinked temporary
    /// file first, so that they can be read twice and in parts, as import's first pass needs.
    static func openInput(path: String) throws(CalendarReadError) -> Int32 {
        // POSIX reads: Foundation's FileManager.contents(atPath:) leaks its buffer on Linux (seen
        // under LeakSanitizer), and a file is read a chunk at a time. Opened first, looked at
        // after (one system call less a file, in a batch of thousands): what cannot be opened is
        // looked up only to say why.
        let descriptor = FileName.withSystemRepresentation(path) { open($0, O_RDONLY) }
        var status = stat()
        guard descriptor >= 0 else {
            let code = errno
            guard FileName.withSystemRepresentation(path, { stat($0, &status) }) == 0 else { throw CalendarReadError(path: path, code: .notFound, reason: FileName.missingReason(path), systemError: code) }
            if status.st_mode & S_IFMT == S_IFDIR { throw CalendarReadError(path: path, code: .isDirectory, reason: "it is a directory", systemError: EISDIR) }
            throw CalendarReadError(path: path, systemError: code)
        }
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            defer { close(descriptor) }
            if status.st_mode & S_IFMT == S_IFDIR { throw CalendarReadError(path: path, code: .isDirectory, reason: "it is a directory", systemError: EISDIR) }
            return try spool(descriptor, path: path)
        }
        return descriptor
    }

    /// Standard input, copied to an unlinked temporary file (named `-` in errors).
    static func openStandardInput() throws(CalendarReadError) -> Int32 {
        try spool(STDIN_FILENO, path: "-")
    }

    /// A descriptor of an unlinked temporary file holding everything `source` gives, at offset 0.
    private static func spool(_ source: Int32, path: String) throws(CalendarReadError) -> Int32 {
        guard let file = tmpfile() else { throw CalendarReadError(path: path, systemError: errno) }
        let descriptor = dup(fileno(file))
        fclose(file)
        guard descriptor >= 0 else { throw CalendarReadError(path: path, systemError: errno) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(source, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                let code = errno
                close(descriptor)
                throw CalendarReadError(path: path, systemError: code)
            }
            if count == 0 { break }
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, count) }
            if written != count {
                let code = written < 0 ? errno : ENOSPC
                close(descriptor)
                throw CalendarReadError(path: path, systemError: code, context: "cannot keep the input in a temporary file")
            }
        }
        lseek(descriptor, 0, SEEK_SET)
        return descriptor
    }

    /// The pipeline for an open regular file, which it closes at the end: its outline from a first
    /// pass (`InputOutline.scan`), its zones read ahead from where that pass found them
    /// (`InputZones`), then the file again. A file of at most `readChunkSize` bytes (most calendars
    /// of a batch) is read once, whole, and every pass goes over those bytes.
    func pipeline(descriptor: Int32) -> ImportPipeline {
        if let bytes = Self.wholeFile(descriptor, ifAtMost: readChunkSize) {
            close(descriptor)
            return pipeline(bytes: bytes)
        }
        let first = InputBytes(reading: descriptor, from: 0, to: nil, chunkSize: readChunkSize)
        if let transcoded = Self.transcodedUTF16(first) {
            close(descriptor)
            return pipeline(bytes: transcoded)
        }
        let outline = isParallel
            ? InputOutline.scan(
                descriptor: descriptor, parts: parallelism, chunkSize: readChunkSize,
                segmentSize: segmentSize)
            : InputOutline.scan(first)
        let zones = readAhead(outline) { range in Self.read(descriptor, range) }
        return ImportPipeline(
            input: InputBytes(reading: descriptor, owning: true, chunkSize: readChunkSize), outline: outline, zones: zones,
            importer: self, segments: segments(of: outline, descriptor: descriptor))
    }

    /// The bytes of input a worker cuts into components at a time (`Segments`); `nil` cuts the
    /// whole input on the calling thread (tests compare the two). On the rich benchmark shape the
    /// calling thread did most of a report's work without them (docs/performance.md).
    var segmentSize: Int? = 64 << 10

    /// How many times `segmentSize` a segment may hold (tests make it large, to cut everywhere).
    var segmentSpread = 4

    /// A file's segments, when workers cut it: an import on every core, of an input without iTIP
    /// messages (whose METHOD decides what a worker does with an event), where no segment is longer
    /// than `segmentSpread` times their size.
    private func segments(of outline: InputOutline, descriptor: Int32) -> Segments? {
        var status = stat()
        guard isParallel, let segmentSize, !outline.hasMessageMethod, fstat(descriptor, &status) == 0,
              outline.hasBoundedSegments(maximumBytes: segmentSpread.multipliedReportingOverflow(by: segmentSize).partialValue, size: Int(status.st_size)) else { return nil }
        let own = dup(descriptor)
        return own < 0 ? nil : Segments(descriptor: own, starts: outline.segmentStarts, readChunkSize: readChunkSize)
    }

    /// The bytes of a regular file of at most `limit` bytes, read with `pread` (the descriptor's
    /// offset does not move); `nil` for anything else, a file that grew while read, or a read that
    /// failed (the chunked path then reads the file again, and says why it stops).
    static func wholeFile(_ descriptor: Int32, ifAtMost limit: Int) -> [UInt8]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size >= 0,
              Int(status.st_size) <= limit else { return nil }
        var failed = false
        // One byte more than the size: a read that fills it means the file grew.
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(status.st_size) + 1) { buffer, count in
            count = 0
            while count < buffer.count {
                let got = pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(count))
                if got < 0, errno == EINTR { continue }
                if got < 0 { failed = true }
                if got <= 0 { break }
                count += got
            }
        }
        return failed || bytes.count > Int(status.st_size) ? nil : bytes
    }

    /// The bytes of `range` in a file, read with `pread`; `nil` when they cannot all be read.
    private static func read(_ descriptor: Int32, _ range: Range<Int>) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, count in
            count = 0
            while count < buffer.count {
                let got = pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(range.lowerBound + count))
                if got < 0, errno == EINTR { continue }
                if got <= 0 {
                    failed = true
                    break
                }
                count += got
            }
        }
        return failed ? nil : bytes
    }

    /// UTF-16 input (with its byte order mark) as UTF-8, read whole; `nil` for any other input.
    /// Every pass then reads UTF-8 (such files are small: no calendar program writes large ones).
    private static func transcodedUTF16(_ input: InputBytes) -> [UInt8]? {
        input.buffer(atLeast: 2)
        let head = Array(input.bytes.prefix(2))
        guard head == [0xFF, 0xFE] || head == [0xFE, 0xFF] else { return nil }
        return ContentLineScanner.transcodeUTF16(input, littleEndian: head == [0xFF, 0xFE])
    }

    /// The zones of the input, read ahead from the VTIMEZONEs the first pass placed (`bytes(range)`
    /// reads them); when it could not place them, none: events in their zones wait for the end.
    private func readAhead(_ outline: InputOutline, bytes: (Range<Int>) -> [UInt8]?) -> InputZones {
        guard let places = outline.timeZonePlaces else { return .notReadAhead }
        let pointsProperty = pointsRule.propertyName ?? "X-POINTS"
        return InputZones.readAhead(
            places, bytes: bytes, outline: outline, window: ZoneExpansionWindow(expansion), pointsProperty: pointsProperty)
    }

    /// The pipeline for bytes in memory.
    func pipeline(bytes: [UInt8]) -> ImportPipeline {
        let input = InputBytes(bytes: bytes)
        if let transcoded = Self.transcodedUTF16(input) { return pipeline(bytes: transcoded) }
        let outline = InputOutline.scan(input)
        let zones = bytes.withUnsafeBufferPointer { buffer in
            readAhead(outline) { range in range.upperBound <= buffer.count ? Array(buffer[range]) : nil }
        }
        return ImportPipeline(input: InputBytes(bytes: bytes), outline: outline, zones: zones, importer: self)
    }

    /// Everything a pipeline yields, as one result: sessions in input order (a recurring event's
    /// instances where the event stands), diagnostics in source order.
    func collect(_ pipeline: ImportPipeline) -> CalendarImport {
        var sessions: [(place: Int, session: Session)] = []
        var diagnostics: [Diagnostic] = []
        while let batch = pipeline.next() {
            sessions += zip(batch.places, batch.sessions).map { ($0, $1) }
            diagnostics += batch.diagnostics
        }
        // Held events (recurring series, events waiting for a zone) come at the end: put them back.
        let ordered = sessions.enumerated().sorted {
            ($0.element.place, $0.offset) < ($1.element.place, $1.offset)
        }.map(\.element.session)
        var result = CalendarImport(
            sessions: ordered,
            diagnostics: Self.inSourceOrder(diagnostics),
            sessionsWithPointsProperty: pipeline.sessionsWithPointsProperty)
        result.zoneEvidence = pipeline.zoneEvidence
        result.pointsRule = pointsRule
        return result
    }

    /// Diagnostics of one kind that one input shows at most; a damaged file can have tens of thousands.
    static let diagnosticsPerKind = 100

    /// Diagnostics of inputs read as one, mapped back to their files (`sources`, in the order they
    /// were read), in source order: by input, then line and column, stable for the rest. A report
    /// lists them so, whatever stage of the import said them first.
    package static func inSourceOrder(_ diagnostics: [Diagnostic], sources: [ReportSource]) -> [Diagnostic] {
        var order: [String: Int] = [:]
        for (index, source) in sources.enumerated() where order[source.file] == nil { order[source.file] = index }
        return diagnostics.enumerated().sorted {
            let (left, right) = ($0.element.location, $1.element.location)
            return (order[left.file] ?? Int.max, left.line, left.column, $0.offset)
                < (order[right.file] ?? Int.max, right.line, right.column, $1.offset)
        }.map(\.element)
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
    /// that is an IANA zone, else in the zone its events' times name, else in `fallback` (UTC
    /// unless given: the library reads no zone of the machine) (``ZoneEvidence``, with a note or
    /// warning saying how), with floating times read in that zone (`readingFloatingTimes(in:)`).
    ///
    /// ```swift
    /// let (calendar, zone) = try SessionImporter(expansion: RecurrenceExpansion(through: lastDay)).importSessions(from: .file("work.ics")).inReportZone(requested: nil, fallback: .utc)
    /// print(zone.identifier)
    /// // Prints the calendar's X-WR-TIMEZONE, such as "America/Los_Angeles"
    /// ```
    public func inReportZone(requested: TimeZoneRules?, fallback: TimeZoneRules = .utc) -> (calendar: CalendarImport, zone: TimeZoneRules) {
        let (zone, said) = zoneEvidence.reportZone(requested: requested, fallback: fallback, firstSession: sessions.first?.source)
        var calendar = readingFloatingTimes(in: zone)
        calendar.diagnostics += said
        return (calendar, zone)
    }

    /// The same sessions with floating times (and times whose zone is unknown) read as wall-clock
    /// times in `zone`, the report's zone: each becomes the instant it is there, by RFC 5545's gap and
    /// overlap rules, and with `PointsRule.minutes` a session's points are its exact length in that zone.
    ///
    /// ```swift
    /// let berlin = TimeZoneRules(identifier: "Europe/Berlin")!
    /// let sessions = try SessionImporter(expansion: RecurrenceExpansion(through: lastDay)).importSessions(from: .file("work.ics")).readingFloatingTimes(in: berlin).sessions
    /// ```
    public func readingFloatingTimes(in zone: TimeZoneRules) -> CalendarImport {
        var result = self
        for index in result.sessions.indices {
            result.sessions[index] = result.sessions[index].readingFloatingTimes(in: zone, pointsRule: pointsRule)
        }
        return result
    }

    /// The warning for an input where no session carries the points property, if that is so
    /// (`PointsRule.property` only: `.automatic` counts minutes then, with `minutesNote`).
    package static func missingPointsWarning(
        pointsRule: PointsRule, sessionsWithPointsProperty: Int, firstSession: SourceLocation?
    ) -> Diagnostic? {
        guard case .property(let name) = pointsRule, sessionsWithPointsProperty == 0, let location = firstSession else { return nil }
        return Diagnostic(
            .warning, .points, at: location,
            "no session has the \(name) property, so every day has 0 points; count minutes or sessions instead (PointsRule.minutes, .count)")
    }

    /// The rule `.automatic(name)` comes to for an input: the property when some session carries
    /// it, else minutes; other rules stay as they are.
    package static func takenRule(_ rule: PointsRule, sessionsWithPointsProperty: Int) -> PointsRule {
        guard case .automatic(let name) = rule else { return rule }
        return sessionsWithPointsProperty > 0 ? .property(name) : .minutes
    }

    /// The note that `.automatic(name)` counted minutes, at the first session.
    package static func minutesNote(property: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .note, .points, at: location,
            "no event has the \(property) property, so each session counts its length in minutes")
    }

    /// Adds what can only be said of the whole input: that no session carries the points property
    /// (a warning), or, with `.automatic`, that minutes were counted instead (a note, the sessions'
    /// points then their minutes).
    func finished(pointsRule: PointsRule) -> CalendarImport {
        var result = self
        result.pointsRule = Self.takenRule(pointsRule, sessionsWithPointsProperty: sessionsWithPointsProperty)
        if case .automatic(let name) = pointsRule, result.pointsRule == .minutes, let first = sessions.first?.source {
            for index in result.sessions.indices {
                result.sessions[index].points = result.sessions[index].start.wholeMinutes(until: result.sessions[index].end)
            }
            result.diagnostics.append(Self.minutesNote(property: name, at: first))
        }
        if let warning = Self.missingPointsWarning(
            pointsRule: pointsRule, sessionsWithPointsProperty: sessionsWithPointsProperty, firstSession: sessions.first?.source) {
            result.diagnostics.append(warning)
        }
        return result
    }
}

/// What a caller of the import needs of each session (`SessionImporter.needs`).
///
/// A report that only totals its days needs none of it; one with habit filters or skip categories
/// needs each session's description; one that lists sessions (HTML) needs every instance's id too.
package struct SessionNeeds: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Sessions as `Session` values; without it the import hands on `CountedSession`s (times,
    /// points and source line only), in `ImportBatch.counted`.
    package static let sessions = SessionNeeds(rawValue: 1)
    /// Each session's summary, categories and kept properties, for habit filters and skip
    /// categories (implies `sessions`).
    package static let descriptions: SessionNeeds = [SessionNeeds(rawValue: 2), .sessions]
    /// Each instance of a series its own id (`UID/recurrence id`), for renderings that list
    /// sessions (implies `sessions`).
    package static let instanceIDs: SessionNeeds = [SessionNeeds(rawValue: 4), .sessions]
    /// Everything: the public verbs' sessions.
    package static let everything: SessionNeeds = [.descriptions, .instanceIDs]
}
