import Dispatch
import Foundation
public import Streaks

/// The sessions and diagnostics of one stretch of an input, as a streaming import yields them.
///
/// Batches come in input order. Events that must wait for the whole input (recurring events and
/// their overrides, which are matched by UID; events whose VTIMEZONE comes later) come in the last
/// batches, 64 series at a time; the very last batch has the diagnostics only the end can give.
/// Diagnostics are in source order within a batch, at most 100 of each kind per input.
public struct ImportBatch: Sendable {
    /// The sessions, in input order within the batch.
    public var sessions: [Session] = []
    /// For each session, the line of the event whose place in the input it takes.
    var places: [Int] = []
    /// When sessions are only counted (`SessionImporter.countsOnly`), their counted form, in input
    /// order; `sessions` is then empty.
    package var counted: [CountedSession] = []
    /// The diagnostics, in source order within the batch.
    public var diagnostics: [Diagnostic] = []
    /// The first `X-WR-TIMEZONE` of the input read so far.
    public var declaredTimeZone: String?
    /// The calendars read so far, each named by its first `X-WR-CALNAME` (else by its file).
    public var sources: [ReportSource] = []
    /// The `X-WR-CALNAME`s read so far, by the line where each stands (`InputMap` makes `sources` of them).
    var calendarNames: [(line: Int, name: String)] = []
}

/// What an event a worker (or the consumer, ahead of its turn) resolved came to.
enum ResolvedEvent: Sendable {
    /// No session: an annotation, a cancelled event, an event without a usable start.
    case nothing
    case session(Session)
    /// The session's counted form (`SessionImporter.countsOnly`).
    case counted(CountedSession)
}

extension SessionResolver {
    /// What an event comes to: its session, or its counted form when sessions are only counted.
    mutating func resolved(_ record: EventRecord, calendar: Int) -> ResolvedEvent {
        if countsOnly { return counted(from: record, calendar: calendar).map(ResolvedEvent.counted) ?? .nothing }
        return session(from: record, calendar: calendar).map(ResolvedEvent.session) ?? .nothing
    }

    /// What an event comes to if resolving it says nothing (no diagnostic, no note given once per
    /// input); `nil` when it would, and the resolver is as it was: what it said is taken back with
    /// the TZIDs and METHODs it noted and the sessions it counted with the points property. (Zones
    /// it looked up stay looked up: that changes no answer.) The resolver is not copied for this:
    /// it holds the tables of every zone and note, and an event waiting for a VTIMEZONE is one of
    /// thousands.
    mutating func resolvedIfSilent(_ record: EventRecord, calendar: Int) -> ResolvedEvent? {
        let diagnosticsBefore = diagnostics.count
        let notesBefore = onceNotes.count
        let pointsBefore = sessionsWithPointsProperty
        let reportedBefore = reportedTimeZoneIDs
        let notedBefore = notedCancelMethod
        let resolved = resolved(record, calendar: calendar)
        guard diagnostics.count != diagnosticsBefore || onceNotes.count != notesBefore else { return resolved }
        diagnostics.removeSubrange(diagnosticsBefore...)
        takeBackOnceNotes(from: notesBefore)
        sessionsWithPointsProperty = pointsBefore
        reportedTimeZoneIDs = reportedBefore
        notedCancelMethod = notedBefore
        return nil
    }
}

extension ImportBatch {
    /// Appends what an event came to, with the line of the event whose place it takes.
    mutating func append(_ resolved: ResolvedEvent, place: Int) {
        switch resolved {
        case .nothing:
            break
        case .session(let session):
            sessions.append(session)
            places.append(place)
        case .counted(let session):
            counted.append(session)
        }
    }

    /// Appends sessions resolved together (moved whole into a batch that holds none).
    mutating func append(_ made: PlacedSessions) {
        if sessions.isEmpty {
            sessions = made.sessions
            places = made.places
        } else {
            sessions += made.sessions
            places += made.places
        }
        if counted.isEmpty {
            counted = made.counted
        } else {
            counted += made.counted
        }
    }
}

/// One input, imported as a stream: cut into components a chunk at a time on the calling thread,
/// parsed by libical on every core (where events that nothing later can change also become
/// sessions), and the rest turned into sessions in input order as the parsed chunks come back.
///
/// Memory holds a bounded number of chunks in flight, the recurring events and overrides (matched by
/// UID at the end), and the events that wait for a VTIMEZONE further on (`InputOutline`). Each
/// libical tree lives and dies on the worker that parsed it. The batches do not depend on thread
/// timing: chunks are consumed in the order they were cut.
final class ImportPipeline {
    private var cutter: ComponentCutter
    private var resolver: SessionResolver
    private let outline: InputOutline
    private let expansion: RecurrenceExpansion
    private let pointsProperty: String
    private let keptProperties: Set<String>
    /// The session properties' roles, made once for every worker's reader.
    private let sessionLineRoles: PropertyNameTable<ComponentParsing.SessionLineRole>
    private let isParallel: Bool
    /// The property names a VEVENT keeps (the others are stepped over as they are cut).
    private let eventProperties: Set<String>
    private var inFlight: [PendingChunk] = []
    /// Every chunk's work; waited for at the end, so that no worker still holds (and frees) a chunk
    /// once the pipeline is done (Dispatch releases a block's captures before it leaves its group).
    private let workers = DispatchGroup()
    private var cutterFinished = false
    private var finished = false
    /// Events that wait for the end: recurring series, overrides, their possible masters, and events
    /// whose zone a later VTIMEZONE defines (unless read ahead).
    private var held = HeldEvents()
    private var limit: DiagnosticLimit
    /// The first `X-WR-TIMEZONE` read so far.
    private(set) var declaredTimeZone: String?
    /// Every non-empty `X-WR-CALNAME` read so far, with its line (an input's first one names it).
    private(set) var calendarNames: [(line: Int, name: String)] = []

    /// Components per chunk: large enough that scheduling costs nothing, small enough to balance.
    static let chunkSize = 256
    /// Chunks cut ahead of the one being consumed.
    private static let chunksInFlight = 2 * ProcessInfo.processInfo.activeProcessorCount + 2

    /// - Parameter segments: An open descriptor of the input (which the pipeline closes), when
    ///   the outline's segment starts are to be used: each segment is then cut on a worker too.
    init(input: InputBytes, outline: InputOutline, importer: SessionImporter, segments descriptor: Int32? = nil) {
        _ = Libical.ready  // process-wide libical state, set up before any concurrency
        let pointsProperty: String
        if case .property(let name) = importer.pointsRule { pointsProperty = name } else { pointsProperty = "X-POINTS" }
        self.pointsProperty = pointsProperty
        keptProperties = Set(importer.keptProperties.map { $0.uppercased() })
        sessionLineRoles = ComponentParsing.sessionLineRoles(
            pointsProperty: pointsProperty, kept: keptProperties, describing: !importer.countsOnly)
        self.outline = outline
        limit = DiagnosticLimit()
        limit.perKind = SessionImporter.diagnosticsPerKind
        expansion = importer.expansion
        isParallel = importer.isParallel
        // Zones are expanded a year past the window: a session just outside it still gets its day.
        resolver = SessionResolver(
            pointsRule: importer.pointsRule,
            zones: CalendarZones(lastYear: min(RecurrenceIterator.lastYear, expansion.through.year + 1)))
        resolver.makesInstanceIDs = importer.makesInstanceIDs
        resolver.countsOnly = importer.countsOnly
        // iTIP messages make an event's fate depend on METHODs not read yet: nothing is resolved early.
        if !outline.hasMessageMethod { resolver.lookahead = ZoneLookahead(outline: outline, lastYear: resolver.zones.lastYear) }
        eventProperties = ComponentParsing.sessionProperties(pointsProperty: pointsProperty, kept: keptProperties)
        cutter = ComponentCutter(scanner: ContentLineScanner(input: input), eventProperties: eventProperties, sinksPropertyLines: true)
        if let descriptor {
            // Segments are cut on workers with what the first pass saw; not where METHODs decide
            // what a worker does with an event, nor where the first pass found no place to cut.
            if isParallel, !outline.hasMessageMethod, !outline.segmentStarts.isEmpty {
                segments = Segments(descriptor: descriptor, starts: outline.segmentStarts, readChunkSize: importer.readChunkSize)
                segmentDescriptor = descriptor
            } else {
                close(descriptor)
            }
        }
    }

    deinit {
        // A pipeline dropped part-way still lets its workers finish with their chunks.
        workers.wait()
        if let segmentDescriptor { close(segmentDescriptor) }
    }

    /// How many sessions so far carry the points property.
    var sessionsWithPointsProperty: Int { resolver.sessionsWithPointsProperty + workerSessionsWithPointsProperty }
    private var workerSessionsWithPointsProperty = 0

    /// The next batch, or `nil` when the input is done.
    func next() -> ImportBatch? {
        guard !finished else { return nil }
        fill()
        var batch: ImportBatch
        if inFlight.isEmpty {
            if heldSteps == nil {
                applyEarlyGroups(to: &earlyAtEnd, keeping: 0)
                heldEvents = held.takeEvents()
                heldSteps = held.steps(resolver.units(of: &heldEvents))[...]
                held = HeldEvents()
            }
            if var steps = heldSteps, !steps.isEmpty {
                // 64 units a batch; events resolved early count where they stood, as they did when held.
                var units: [SessionResolver.Unit] = []
                var weight = 0
                while weight < Self.heldUnitsPerBatch, let step = steps.first {
                    switch step {
                    case .unit(let unit):
                        units.append(unit)
                        weight += 1
                        steps.removeFirst()
                    case .resolvedEarly(let count):
                        let taken = min(count, Self.heldUnitsPerBatch - weight)
                        weight += taken
                        if taken == count { steps.removeFirst() } else { steps[steps.startIndex] = .resolvedEarly(count - taken) }
                    }
                }
                batch = resolveHeld(units[...])
                heldSteps = steps
            } else {
                finished = true
                workers.wait()
                batch = finish()
            }
            // Groups resolved early in the last chunks go out with the first batch after them.
            batch.sessions += earlyAtEnd.sessions
            batch.places += earlyAtEnd.places
            batch.counted += earlyAtEnd.counted
            earlyAtEnd = ImportBatch()
        } else {
            let chunk = inFlight.removeFirst()
            chunk.wait()
            fill()
            batch = consume(chunk)
        }
        batch.declaredTimeZone = declaredTimeZone
        batch.calendarNames = calendarNames
        return batch
    }

    // MARK: Cutting and parsing

    /// One chunk of top-level items, parsed on a worker (or at once when not parallel).
    private final class PendingChunk: @unchecked Sendable {
        // Written by the worker before `done` is signalled, read by the consumer after waiting.
        /// The items cut; a worker drops those it resolved (`released`), so that their lines are
        /// freed on its thread, not the consumer's.
        private(set) var items: [CalendarItem]
        /// For each item, its calendar's iTIP METHOD as read so far.
        private(set) var methods: [String?]
        private(set) var cutDiagnostics: [Diagnostic]
        /// The segment of the input the chunk is, when a worker cuts it too.
        let segment: Segment?
        /// After a segment is cut: the VCALENDAR the next one starts in, and why reading stopped
        /// early, if it did.
        private(set) var endState: ComponentCutter.CalendarState?
        private(set) var readError: String?
        var outcomes: [ComponentParsing.Outcome?] = []
        /// For each item, what a worker resolved it to (see `ImportPipeline.workerResolution`); `nil`
        /// when the worker left it to the consumer.
        var sessions: [ResolvedEvent?] = []
        /// For each item, the line of its BEGIN (0 for a calendar property): where a session a worker
        /// made stands in the input.
        var places: [Int] = []
        var parseDiagnostics: [Diagnostic] = []
        var sessionsWithPointsProperty = 0
        /// For items a worker resolved, the notes said once per input that it kept for the consumer
        /// to say in input order, unless said before.
        var onceNotes: [Int: [(key: String, diagnostic: Diagnostic)]] = [:]
        /// The items a worker resolved that waited for a VTIMEZONE further on before the lookahead:
        /// each still counts as a held unit where it stands (`HeldEvents`).
        var resolvedEarly: Set<Int> = []
        private let done = DispatchSemaphore(value: 0)
        private var isParsed = false

        init(items: [CalendarItem], methods: [String?], cutDiagnostics: [Diagnostic]) {
            self.items = items
            self.methods = methods
            self.cutDiagnostics = cutDiagnostics
            segment = nil
        }

        /// A segment, to be cut and parsed on a worker (`cutAndParseInBackground`) or here.
        init(segment: Segment) {
            items = []
            methods = []
            cutDiagnostics = []
            self.segment = segment
        }

        /// Cuts the segment into items, as the calling thread would cut them reading the whole
        /// input, given the VCALENDAR the segment starts in.
        private func cut(_ segment: Segment, settings: Settings) {
            let input = InputBytes(reading: segment.descriptor, from: segment.offset, to: segment.end, chunkSize: segment.readChunkSize)
            var cutter = ComponentCutter(
                scanner: ContentLineScanner(input: input, firstLine: segment.line), eventProperties: settings.eventProperties,
                sinksPropertyLines: true, segment: (segment.calendar, segment.nextEventLine))
            while let item = cutter.next() { items.append(item) }
            // METHODs: a segment is only cut alone in an input without iTIP messages, where none matters to a worker.
            methods = Array(repeating: nil, count: items.count)
            cutDiagnostics = cutter.takeDiagnostics()
            endState = cutter.calendarState
            readError = cutter.readError
        }

        func cutAndParseInBackground(_ settings: Settings, group: DispatchGroup) {
            guard let segment else { return parseInBackground(settings, group: group) }
            DispatchQueue.global().async(group: group) {
                self.cut(segment, settings: settings)
                self.parse(settings)
                self.done.signal()
            }
        }

        func cutAndParseNow(_ settings: Settings) {
            if let segment { cut(segment, settings: settings) }
            parseNow(settings)
        }

        /// Parses the components and resolves the events that need nothing read later.
        func parse(_ settings: Settings) {
            var reader = ComponentReader(
                pointsProperty: settings.pointsProperty, keptProperties: settings.keptProperties,
                sessionLineRoles: settings.sessionLineRoles)
            reader.wantedDays = settings.wantedDays
            reader.recurrenceDateLimit = settings.recurrenceDateLimit
            var resolver = SessionResolver(pointsRule: settings.pointsRule)
            resolver.countsOnly = settings.countsOnly
            resolver.lookahead = settings.lookahead
            resolver.defersOnceNotes = true
            // The worker's own VTIMEZONE store stays empty: each TZID's answer can be kept.
            resolver.memoizesZones = true
            var workerZones: [String: ImportPipeline.WorkerZone] = [:]
            outcomes = []
            sessions = []
            places = []
            outcomes.reserveCapacity(items.count)
            sessions.reserveCapacity(items.count)
            places.reserveCapacity(items.count)
            var told: (calendar: Int, method: String?)?  // the METHOD the resolver was last told, and its calendar
            for index in items.indices {
                let item = items[index]  // (items is changed in the loop: not iterated on a copy)
                guard case .component(let lines, let calendar) = item, lines.name == "VEVENT" || lines.name == "VTIMEZONE" else {
                    outcomes.append(nil)
                    sessions.append(nil)
                    places.append(0)
                    continue
                }
                places.append(lines.begin.line)
                guard lines.name == "VEVENT" else {
                    sessions.append(nil)
                    // A VTIMEZONE no time of the input names is not read at all (a file may hold thousands).
                    let timeZoneLine = lines.materializedProperty(named: "TZID")
                    if let timeZoneLine, !settings.outline.mayUse(timeZoneLine: timeZoneLine.value) {
                        outcomes.append(nil)
                    } else {
                        outcomes.append(ComponentParsing.parse(lines, reader: &reader))
                    }
                    continue
                }
                // The record is moved, never copied: an event record has many fields to retain.
                guard let record = ComponentParsing.parseEvent(lines, reader: &reader, reading: .sessionProperties) else {
                    sessions.append(nil)
                    outcomes.append(.unparsable)
                    continue
                }
                let resolution = ImportPipeline.workerResolution(
                    record, method: methods[index], outline: settings.outline, lookahead: settings.lookahead,
                    resolver: &resolver, zones: &workerZones)
                if resolution != .no, told?.calendar != calendar || told?.method != methods[index] {
                    resolver.methods[calendar] = methods[index]
                    told = (calendar, methods[index])
                }
                switch resolution {
                case .no:
                    sessions.append(nil)
                    outcomes.append(.event(record))
                    continue
                case .now:
                    let notesBefore = resolver.onceNotes.count
                    sessions.append(record.isAnnotation ? .nothing : resolver.resolved(record, calendar: calendar))
                    if resolver.onceNotes.count > notesBefore { onceNotes[index] = Array(resolver.onceNotes[notesBefore...]) }
                case .early:
                    // Nothing to say, no unit: as the consumer drops such an event that waited.
                    if record.isAnnotation || record.hasImpossibleTime {
                        sessions.append(.nothing)
                        break
                    }
                    // Resolved now only if that says nothing; else the consumer holds it, as before.
                    guard let session = resolver.resolvedIfSilent(record, calendar: calendar) else {
                        sessions.append(nil)
                        outcomes.append(.event(record))
                        continue
                    }
                    sessions.append(session)
                    resolvedEarly.insert(index)
                }
                outcomes.append(nil)
                items[index] = Self.released
            }
            parseDiagnostics = reader.diagnostics + resolver.diagnostics
            sessionsWithPointsProperty = resolver.sessionsWithPointsProperty
        }

        /// What stands in `items` for an item a worker resolved: the consumer skips it.
        private static let released = CalendarItem.calendarProperty(
            ContentLine(text: "", line: 0, name: "", valueColumn: nil), calendar: -1)

        /// Moves item `index`, its outcome and its session out of the chunk, leaving placeholders:
        /// the consumer reads each item once.
        func take(_ index: Int) -> (item: CalendarItem, outcome: ComponentParsing.Outcome?, session: ResolvedEvent?) {
            var item = Self.released
            swap(&item, &items[index])
            var outcome: ComponentParsing.Outcome?
            swap(&outcome, &outcomes[index])
            var session: ResolvedEvent?
            swap(&session, &sessions[index])
            return (item, outcome, session)
        }

        func parseInBackground(_ settings: Settings, group: DispatchGroup) {
            DispatchQueue.global().async(group: group) {
                self.parse(settings)
                self.done.signal()
            }
        }

        func parseNow(_ settings: Settings) {
            parse(settings)
            isParsed = true
        }

        func wait() {
            if !isParsed { done.wait() }
        }
    }

    /// What a worker needs to know.
    private struct Settings: Sendable {
        var eventProperties: Set<String>
        var pointsProperty: String
        var keptProperties: Set<String>
        var pointsRule: PointsRule
        var outline: InputOutline
        var sessionLineRoles: PropertyNameTable<ComponentParsing.SessionLineRole>
        /// The days whose RDATE and EXDATE values can matter (`ComponentReader.wantedDays`).
        var wantedDays: ClosedRange<Day>
        /// The most RDATE values an event keeps (`ComponentReader.recurrenceDateLimit`).
        var recurrenceDateLimit: Int
        /// The zones of the input's VTIMEZONEs, read ahead.
        var lookahead: ZoneLookahead
        /// Whether sessions are only counted (`SessionImporter.countsOnly`).
        var countsOnly: Bool
    }

    private var settings: Settings {
        Settings(
            eventProperties: eventProperties, pointsProperty: pointsProperty, keptProperties: keptProperties,
            pointsRule: resolver.pointsRule, outline: outline, sessionLineRoles: sessionLineRoles,
            wantedDays: expansion.wantedDays, recurrenceDateLimit: min(expansion.maximumInstancesPerRule, .max - 1) + 1,
            lookahead: resolver.lookahead, countsOnly: resolver.countsOnly)
    }

    /// Each calendar's METHOD as cut so far.
    private var cutMethods: [Int: String] = [:]

    // MARK: Segments

    /// One stretch of the input from a segment start (`InputOutline.SegmentStart`) to the next.
    struct Segment: Sendable {
        var descriptor: Int32
        var offset: Int
        /// Where the next segment starts; `nil` for the last.
        var end: Int?
        var line: Int
        var nextEventLine: Int?
        /// The VCALENDAR it is taken to start in (the first pass's prediction, checked when consumed).
        var calendar: ComponentCutter.CalendarState
        var readChunkSize: Int
    }

    /// The input's segments, handed out in order.
    private struct Segments {
        let descriptor: Int32
        let starts: [InputOutline.SegmentStart]
        let readChunkSize: Int
        /// The next segment's index: 0 is the input's start, `i` ends at `starts[i]`.
        var index = 0

        mutating func next() -> Segment? {
            guard index <= starts.count else { return nil }
            defer { index += 1 }
            let start = index == 0
                ? InputOutline.SegmentStart(offset: 0, line: 1, calendar: ComponentCutter.CalendarState(index: -1, isOpen: false))
                : starts[index - 1]
            let next = index < starts.count ? starts[index] : nil
            return Segment(
                descriptor: descriptor, offset: start.offset, end: next?.offset, line: start.line, nextEventLine: next?.line,
                calendar: start.calendar, readChunkSize: readChunkSize)
        }
    }

    private var segments: Segments?
    /// The descriptor the segments are read with, closed at the end.
    private var segmentDescriptor: Int32?
    /// Whether the input is cut in segments on workers.
    var cutsSegments: Bool { segmentDescriptor != nil }
    /// The VCALENDAR the next segment starts in, as the segments before it were cut.
    private var segmentCalendar = ComponentCutter.CalendarState(index: -1, isOpen: false)
    /// Why reading stopped early in a segment, if it did.
    private var segmentReadError: String?
    /// Segments cut again on the calling thread because the first pass's VCALENDAR was not the
    /// one the segment before ended in (for tests).
    private(set) var segmentsCutAgain = 0
    /// The notes said once per input that were said (`ComponentCutter.onceKey(of:)`).
    private var saidOnce: Set<String> = []

    /// A segment chunk as the consumer takes it: cut again here when the VCALENDAR it was cut in
    /// is not the one the segment before ended in; and after a read error, the last.
    private func checked(_ chunk: PendingChunk) -> PendingChunk {
        guard var segment = chunk.segment else { return chunk }
        var chunk = chunk
        if segment.calendar != segmentCalendar {
            segment.calendar = segmentCalendar
            segmentsCutAgain += 1
            chunk = PendingChunk(segment: segment)
            chunk.cutAndParseNow(settings)
        }
        segmentCalendar = chunk.endState ?? segmentCalendar
        if let reason = chunk.readError {
            // Reading stopped: what came before is imported, as when one cutter reads the input.
            segmentReadError = reason
            inFlight.removeAll()
            cutterFinished = true
            segments = nil
        }
        return chunk
    }

    /// Cuts chunks until enough are in flight or the input ends.
    private func fill() {
        let settings = settings
        if segments != nil {
            while !cutterFinished, inFlight.count < Self.chunksInFlight, let segment = segments?.next() {
                let chunk = PendingChunk(segment: segment)
                chunk.cutAndParseInBackground(settings, group: workers)
                inFlight.append(chunk)
                if segment.end == nil { cutterFinished = true }
            }
            return
        }
        while !cutterFinished, inFlight.count < (isParallel ? Self.chunksInFlight : 1) {
            var items: [CalendarItem] = []
            var methods: [String?] = []
            var components = 0
            while components < Self.chunkSize {
                guard let item = cutter.next() else {
                    cutterFinished = true
                    break
                }
                switch item {
                case .component(_, let calendar):
                    components += 1
                    methods.append(cutMethods[calendar])
                case .calendarProperty(let line, let calendar):
                    if line.name == "METHOD" { cutMethods[calendar] = String(line.value).trimmingSpaces.uppercased() }
                    methods.append(nil)
                }
                items.append(item)
            }
            let chunk = PendingChunk(items: items, methods: methods, cutDiagnostics: cutter.takeDiagnostics())
            if isParallel {
                chunk.parseInBackground(settings, group: workers)
            } else {
                chunk.parseNow(settings)
            }
            inFlight.append(chunk)
        }
    }

    /// How a worker treats an event.
    enum WorkerResolution: Equatable {
        /// The consumer resolves it (or holds it), in input order: it is (or may be) part of a group
        /// of one UID, its calendar is an iTIP message, its zone is unknown, or a VTIMEZONE defines it
        /// that was not read ahead.
        case no
        /// The worker turns it into its session: nothing later in the input can change it. What it
        /// says once per input (a TZID that is not an IANA name) it keeps for the consumer to say.
        case now
        /// The same for an event that waited for a VTIMEZONE further on before the lookahead: the
        /// worker resolves it if that says nothing, and it still counts as a held unit.
        case early
    }

    /// Whether a worker can resolve times in a TZID, and whether they wait for a VTIMEZONE.
    enum WorkerZone {
        /// A VTIMEZONE read ahead defines it, beginning on `line`; or the IANA database knows it (`nil`).
        case resolvable(line: Int?)
        /// An unknown zone (the consumer warns, once), or a VTIMEZONE that was not read ahead.
        case unresolvable
    }

    /// How a worker treats an event (see `WorkerResolution`). `zones` keeps what the worker found
    /// out about each TZID, and its `resolver` its answers from the IANA database
    /// (`SessionResolver.databaseZones`), which it resolves with: each TZID is looked up once per
    /// chunk, not once per time.
    static func workerResolution(
        _ record: EventRecord, method: String?, outline: InputOutline, lookahead: ZoneLookahead,
        resolver: inout SessionResolver, zones: inout [String: WorkerZone]
    ) -> WorkerResolution {
        if record.isRecurring || record.recurrenceID != nil || outline.mayHaveOverrides(record.uid)
            || method.map(SessionResolver.messageMethods.contains) == true {
            return .no
        }
        var early = false
        /// Whether the worker can resolve `time` (and notes in `early` when it waits for a VTIMEZONE).
        func resolvable(_ time: ICalTime?) -> Bool {
            guard let time, !time.isDate, !time.isUTC, let tzid = time.timeZoneID else { return true }
            guard !outline.hasUncertainTimeZoneIDs else { return false }
            let zone: WorkerZone
            if let known = zones[tzid] {
                zone = known
            } else {
                if outline.timeZoneIDs.contains(tzid) {
                    zone = lookahead.line(of: tzid).map { .resolvable(line: $0) } ?? .unresolvable
                } else {
                    zone = resolver.databaseZone(tzid) == nil ? .unresolvable : .resolvable(line: nil)
                }
                zones[tzid] = zone
            }
            guard case .resolvable(let line) = zone else { return false }
            if let line, line > record.begin.line { early = true }
            return true
        }
        guard resolvable(record.start), resolvable(record.end) else { return .no }
        return early ? .early : .now
    }

    // MARK: Resolving

    /// Turns a parsed chunk into sessions, in input order.
    private func consume(_ chunk: PendingChunk) -> ImportBatch {
        let chunk = checked(chunk)
        var batch = ImportBatch()
        // Once the input is cut, nothing is left to overlap with: groups come out as soon as they can.
        applyEarlyGroups(to: &batch, keeping: cutterFinished ? 0 : Self.earlyJobsAhead)
        // What is said once per input is said once, though segments cut apart may each say it.
        var diagnostics = chunk.cutDiagnostics.filter { ComponentCutter.onceKey(of: $0).map { saidOnce.insert($0).inserted } ?? true }
            + chunk.parseDiagnostics
        workerSessionsWithPointsProperty += chunk.sessionsWithPointsProperty
        if let last = chunk.places.last(where: { $0 > 0 }) { consumedLine = max(consumedLine, last) }
        for index in chunk.items.indices {
            // Each item is read once: what the worker made is moved out, not copied and released twice.
            let (item, outcome, session) = chunk.take(index)
            // A session a worker made needs nothing more but what it says once per input, said here
            // in input order.
            if let session {
                for (key, note) in chunk.onceNotes[index] ?? [] { resolver.say(key: key, note) }
                if chunk.resolvedEarly.contains(index) { held.appendResolvedEarly() }
                batch.append(session, place: chunk.places[index])
                continue
            }
            switch item {
            case .calendarProperty(let line, let calendar):
                if line.name == "METHOD" {
                    resolver.methods[calendar] = String(line.value).trimmingSpaces.uppercased()
                }
                if line.name == "X-WR-TIMEZONE", declaredTimeZone == nil {
                    let value = String(line.value).trimmingSpaces
                    if !value.isEmpty { declaredTimeZone = value }
                }
                if line.name == "X-WR-CALNAME" {
                    // A name longer than a report shows is read no further (ReportSource cuts it).
                    let name = TextValue.decode(line.value.prefix(4 * ReportSource.maximumNameLength))
                    if !name.isEmpty { calendarNames.append((line.line, name)) }
                }
            case .component(let lines, let calendar):
                switch consume outcome {
                case .event(let record)?:
                    switch waiting(record, calendar: calendar) {
                    case .no:
                        if !record.isAnnotation { batch.append(resolver.resolved(record, calendar: calendar), place: record.begin.line) }
                    case .forZonesReadAhead:
                        if record.isAnnotation || record.hasImpossibleTime { break }  // no session, not a unit, nothing said
                        if let session = resolvedEarly(record, calendar: calendar) {
                            held.appendResolvedEarly()
                            batch.append(session, place: record.begin.line)
                        } else {
                            _ = held.append(record, calendar: calendar)
                        }
                    case .untilTheEnd:
                        hold(record, calendar: calendar)
                    }
                case .timeZone(let definition)?:
                    define(definition, lines: lines, calendar: calendar, diagnostics: &diagnostics)
                case .unparsable?:
                    diagnostics.append(Diagnostic(
                        .error, .libical, at: lines.begin.location(),
                        "libical could not parse this \(lines.name); it is skipped", sourceLine: lines.begin.text))
                case nil:
                    break
                }
            }
        }
        diagnostics += resolver.takeDiagnostics()
        batch.diagnostics = limit.admit(SessionImporter.inSourceOrder(diagnostics))
        resolveCompleteGroups()
        return batch
    }

    // MARK: Groups resolved before the end

    /// Whether groups of held events are resolved as soon as their UID's last event is read: when the
    /// first pass could tell where each UID last occurs, and the input has no iTIP message (whose
    /// METHOD decides what its events do).
    private var groupsResolveEarly: Bool { !outline.hasMessageMethod && !outline.hasUncertainUIDs }

    /// The held events of one UID read so far (an event without UID is a group of its own).
    private struct PendingGroup {
        var numbers: [Int] = []
        /// Whether every zone its events name is settled (`zonesAreSettled`).
        var isSettled = true
    }

    private var groups: [String: PendingGroup] = [:]
    /// The group the last event held joined, while no group has been added or removed since (its
    /// index stands until then): a series' overrides come one after another, and their UID is then
    /// compared, not hashed.
    private var lastGroupUID = ""
    private var lastGroupIndex: Dictionary<String, PendingGroup>.Index?
    /// The groups by the line of their UID's last VEVENT, the soonest complete first.
    private var groupsByLastLine = LineHeap()
    /// The BEGIN line of the last component consumed.
    private var consumedLine = 0
    /// The groups handed to workers, a job per chunk consumed, oldest first: each is applied
    /// `earlyJobsAhead` chunks later (or at the next chunk once the input is cut), so that the
    /// calling thread goes on cutting and consuming while workers resolve; a count of chunks, not
    /// the workers' timing, decides which batch the sessions go out in.
    private var earlyJobs: [EarlyGroups] = []
    /// Jobs of groups left to run while later chunks are consumed.
    private static let earlyJobsAhead = 2

    /// Holds an event until the end, or until every event of its UID is read.
    ///
    /// The record is taken, not copied: what is read of it is read before it is stored.
    private func hold(_ record: consuming EventRecord, calendar: Int) {
        guard groupsResolveEarly else {
            _ = held.append(record, calendar: calendar)
            return
        }
        let uid = record.uid ?? ""
        let line = record.begin.line
        // (The group is looked up once: a series may have thousands of overrides.)
        let index: Dictionary<String, PendingGroup>.Index?
        if uid.isEmpty {
            index = nil
        } else if let last = lastGroupIndex, lastGroupUID == uid {
            index = last
        } else {
            index = groups.index(forKey: uid)
            lastGroupUID = uid
            lastGroupIndex = index
        }
        // Zones matter only to a group settled so far, or to a new one.
        let isSettled = (index.map { groups.values[$0].isSettled } ?? true) && zonesAreSettled(record)
        let number = held.append(record, calendar: calendar)
        if let index {
            groups.values[index].numbers.append(number)
            if !isSettled { groups.values[index].isSettled = false }
            return
        }
        let key = uid.isEmpty ? "\u{0}\(number)" : uid
        // A UID no other VEVENT has (the filter misses no repeat) is complete with its event.
        let isAlone = uid.isEmpty || !outline.mayRepeat(uid)
        guard let lastLine = isAlone ? line : outline.lastEventLine(of: uid) else { return }
        groupsByLastLine.insert(lastLine, key)
        groups[key] = PendingGroup(numbers: [number], isSettled: isSettled)
        lastGroupIndex = nil
    }

    /// Whether every zone an event names is settled: read ahead (`ZoneLookahead`), or defined by no
    /// VTIMEZONE of the input. Resolving it now then reads the zones it would read at the end, and
    /// expands no zone whose expansion has something to say.
    private func zonesAreSettled(_ record: EventRecord) -> Bool {
        // (Every time is looked at where it is: a held event is one of thousands. The answers are
        // taken out of the pipeline for the event, not read through it at every time.)
        let generation = resolver.zones.generation
        var answers = SettledZones()
        swap(&answers, &settledZones)
        defer { swap(&answers, &settledZones) }
        if generation != answers.generation { answers = SettledZones(generation: generation) }
        func isSettled(_ time: ICalTime?) -> Bool { self.isSettled(time, answers: &answers) }
        guard isSettled(record.start), isSettled(record.end), isSettled(record.recurrenceID) else { return false }
        for time in record.exceptionDates where !isSettled(time) { return false }
        for date in record.recurrenceDates where !isSettled(date.start) || !isSettled(date.end) { return false }
        return true
    }

    /// Whether a time's zone is settled (see `zonesAreSettled`), by `answers` when they know.
    private func isSettled(_ time: ICalTime?, answers: inout SettledZones) -> Bool {
        guard let time, !time.isDate, !time.isUTC, let tzid = time.timeZoneID else { return true }
        // A zone read ahead stays settled; another, until the input defines another TZID (which
        // may be this one): the answer is kept for the TZID last asked about, and for the others.
        if let last = answers.last, last.tzid == tzid { return last.isSettled }
        let isSettled: Bool
        if let known = answers.byTZID[tzid] {
            isSettled = known
        } else {
            isSettled = resolver.lookahead.line(of: tzid) != nil
                || !(outline.hasUncertainTimeZoneIDs || outline.timeZoneIDs.contains(tzid) || resolver.zones.definesAnywhere(tzid))
            answers.byTZID[tzid] = isSettled
        }
        answers.last = (tzid, isSettled)
        return isSettled
    }

    /// `isSettled`'s answers, at a count of VTIMEZONEs defined (`CalendarZones.generation`).
    private struct SettledZones {
        var generation = 0
        var last: (tzid: String, isSettled: Bool)?
        var byTZID: [String: Bool] = [:]
    }

    private var settledZones = SettledZones()

    /// Hands the groups whose UID's last event is read to a worker (at once when not parallel).
    private func resolveCompleteGroups() {
        var complete: [(numbers: [Int], events: [(record: EventRecord, calendar: Int)])] = []
        while let (line, key) = groupsByLastLine.first, line <= consumedLine {
            groupsByLastLine.removeFirst()
            lastGroupIndex = nil
            guard let group = groups.removeValue(forKey: key), group.isSettled else { continue }
            complete.append((group.numbers, held.take(group.numbers)))
        }
        guard !complete.isEmpty else { return }
        var template = resolver
        template.diagnostics = []
        template.defersOnceNotes = true
        let job = EarlyGroups(groups: complete)
        if isParallel {
            job.resolveInBackground(template: template, expansion: expansion, group: workers)
        } else {
            job.resolveNow(template: template, expansion: expansion)
        }
        earlyJobs.append(job)
    }

    /// Applies the groups workers resolved, all but the `keeping` newest jobs, oldest first: those
    /// that said nothing give their sessions now and count as units where they stood; the others
    /// are held again, to say what they say at the end.
    private func applyEarlyGroups(to batch: inout ImportBatch, keeping: Int) {
        while earlyJobs.count > keeping {
            apply(earlyJobs.removeFirst(), to: &batch)
        }
    }

    private func apply(_ job: EarlyGroups, to batch: inout ImportBatch) {
        job.wait()
        // The sessions of the groups that said nothing, made in one array on the worker: moved
        // into an empty batch whole, not copied one by one.
        batch.append(job.takeSessions())
        for (group, result) in zip(job.groups, job.results) {
            guard result.saidNothing else {
                held.putBack(group.events, numbers: group.numbers)
                continue
            }
            held.resolved(group.numbers, units: Set(result.unitPositions.map { group.numbers[$0] }))
            workerSessionsWithPointsProperty += result.sessionsWithPointsProperty
        }
    }

    /// What an event waits for before it can be resolved.
    private enum Waiting {
        /// Nothing: it is resolved now.
        case no
        /// A VTIMEZONE further on, whose zone was read ahead (`ZoneLookahead`), as every zone of the
        /// event was: it can be resolved now if that says nothing (`resolvedEarly`).
        case forZonesReadAhead
        /// The end of the input: it is part of a recurring series (or may be), or its zone is defined
        /// by a VTIMEZONE not read yet nor read ahead.
        case untilTheEnd
    }

    private func waiting(_ record: EventRecord, calendar: Int) -> Waiting {
        if record.isRecurring || record.recurrenceID != nil || outline.mayHaveOverrides(record.uid) {
            return .untilTheEnd
        }
        // A cancellation waits for the event it may cancel.
        if resolver.methods[calendar] == "CANCEL" { return .untilTheEnd }
        var waits = false
        var readAhead = true
        for time in [record.start, record.end] {
            guard let time, !time.isDate, !time.isUTC, let tzid = time.timeZoneID else { continue }
            let defined = resolver.zones.definesAnywhere(tzid)
            if outline.mustWait(for: tzid, definedInCalendar: defined) { waits = true }
            // Resolved early, a zone defined so far but not read ahead would be expanded by the
            // resolving, and what its expansion says would no longer come with its first use.
            if (defined || outline.timeZoneIDs.contains(tzid)) && resolver.lookahead.rules(for: tzid) == nil { readAhead = false }
        }
        if !waits { return .no }
        return readAhead ? .forZonesReadAhead : .untilTheEnd
    }

    /// The session of an event that waited for VTIMEZONEs read ahead, resolved now, when resolving
    /// it says nothing; `nil` when it does, and the event waits for the end, where what it says is
    /// said in its turn.
    private func resolvedEarly(_ record: EventRecord, calendar: Int) -> ResolvedEvent? {
        resolver.resolvedIfSilent(record, calendar: calendar)
    }

    private func define(_ definition: ZoneDefinition?, lines: ComponentLines, calendar: Int, diagnostics: inout [Diagnostic]) {
        guard let definition else {
            diagnostics.append(Diagnostic(
                .warning, .badTimeZone, at: lines.begin.location(),
                "VTIMEZONE without TZID; ignored", sourceLine: lines.begin.text))
            return
        }
        for problem in definition.problems {
            diagnostics.append(Diagnostic(
                .warning, .badTimeZone, at: lines.begin.location(),
                "VTIMEZONE \(definition.timeZoneID): \(problem)", sourceLine: lines.begin.text))
        }
        if let earlier = resolver.zones.define(definition, begin: lines.begin, calendar: calendar) {
            diagnostics.append(Diagnostic(
                .warning, .badTimeZone, at: lines.begin.location(),
                "another VTIMEZONE \(definition.timeZoneID), with other rules, comes first (line \(earlier.line)); this one is ignored",
                sourceLine: lines.begin.text))
        }
    }

    /// The held events still to resolve, grouped as they are resolved, and where the events resolved
    /// early stood among them; `nil` until the input is cut.
    private var heldSteps: ArraySlice<HeldEvents.Step>?
    /// The events still held once the input is cut, as the units of `heldSteps` name them.
    private var heldEvents: [(record: EventRecord, calendar: Int)] = []
    /// Sessions of groups resolved early after the last chunk.
    private var earlyAtEnd = ImportBatch()
    /// Held events (a recurring event with its overrides counts once) resolved per batch: the
    /// instances of 64 series at a time, expanded on every core.
    private static let heldUnitsPerBatch = 64

    /// Some of the held events, resolved now that every VTIMEZONE and override is known.
    private func resolveHeld(_ units: ArraySlice<SessionResolver.Unit>) -> ImportBatch {
        var batch = ImportBatch()
        batch.append(resolver.sessions(of: units, in: &heldEvents, expansion: expansion, parallel: isParallel))
        batch.diagnostics = limit.admit(SessionImporter.inSourceOrder(resolver.takeDiagnostics()))
        return batch
    }

    /// The diagnostics that can only be given at the end.
    private func finish() -> ImportBatch {
        var batch = ImportBatch()
        heldEvents = []
        var diagnostics = cutter.takeDiagnostics() + resolver.takeDiagnostics()
        if let reason = cutter.readError ?? segmentReadError {
            diagnostics.append(Diagnostic(
                .error, .input, at: SourceLocation(file: InputMap.name, line: limit.lastLine),
                "reading stopped before the end of the input: \(reason); what came before is imported"))
        }
        batch.diagnostics = limit.admit(SessionImporter.inSourceOrder(diagnostics)) + limit.notes
        return batch
    }

}

/// Groups of held events (the events of one UID: a recurring event, its overrides, copies), each
/// resolved as it would be at the end, on a copy of the import's resolver that keeps what it says.
private final class EarlyGroups: @unchecked Sendable {
    /// The groups; each group's events are the same again once resolved (their records are moved
    /// out while they go into sessions and back after), to be held again if the group said something.
    private(set) var groups: [(numbers: [Int], events: [(record: EventRecord, calendar: Int)])]
    /// Written by the worker before `done` is signalled, read after waiting.
    private(set) var results: [Result] = []
    private let done = DispatchSemaphore(value: 0)
    private var isResolved = false

    /// The sessions of the groups that said nothing, in order; written with `results`.
    private var made = PlacedSessions()

    /// What a group came to.
    struct Result {
        /// Resolving it said nothing (no diagnostic, no note given once per input); its sessions
        /// are then among the job's.
        var saidNothing: Bool
        /// Where its units stand among its events.
        var unitPositions: [Int]
        /// How many of its sessions carry the points property.
        var sessionsWithPointsProperty: Int
    }

    init(groups: [(numbers: [Int], events: [(record: EventRecord, calendar: Int)])]) {
        self.groups = groups
    }

    private func resolve(template: SessionResolver, expansion: RecurrenceExpansion) {
        // Each group's sessions are kept apart and joined once at the end, at their total size: a
        // session appended group by group was copied again each time the array grew.
        var parts: [PlacedSessions] = []
        defer { made = PlacedSessions(joining: parts) }
        results = groups.indices.map { index in
            var resolver = template
            // The group's own array, moved out and back: a copy would be copied again, record by
            // record, when its records are moved out.
            var events: [(record: EventRecord, calendar: Int)] = []
            swap(&events, &groups[index].events)
            defer { swap(&events, &groups[index].events) }
            let units = resolver.units(of: &events)
            let placed = resolver.sessions(of: units[...], in: &events, expansion: expansion, parallel: false)
            let saidNothing = resolver.diagnostics.isEmpty && resolver.onceNotes.isEmpty
            if saidNothing { parts.append(placed) }
            return Result(
                saidNothing: saidNothing,
                unitPositions: units.map(\.position),
                sessionsWithPointsProperty: resolver.sessionsWithPointsProperty - template.sessionsWithPointsProperty)
        }
    }

    func resolveInBackground(template: SessionResolver, expansion: RecurrenceExpansion, group: DispatchGroup) {
        DispatchQueue.global().async(group: group) {
            self.resolve(template: template, expansion: expansion)
            self.done.signal()
        }
    }

    func resolveNow(template: SessionResolver, expansion: RecurrenceExpansion) {
        resolve(template: template, expansion: expansion)
        isResolved = true
    }

    func wait() {
        if !isResolved { done.wait() }
    }

    /// Moves the sessions out (after `wait()`).
    func takeSessions() -> PlacedSessions {
        defer { made = PlacedSessions() }
        return made
    }
}

/// Keys by line, the lowest first: a binary heap.
private struct LineHeap {
    private var items: [(line: Int, key: String)] = []

    var first: (line: Int, key: String)? { items.first }

    mutating func insert(_ line: Int, _ key: String) {
        items.append((line, key))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].line < items[parent].line else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left].line < items[smallest].line { smallest = left }
            if right < items.count, items[right].line < items[smallest].line { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
