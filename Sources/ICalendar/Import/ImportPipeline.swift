import CalendarDiagnostics
import Dispatch
import Foundation
import Streaks

/// One input, imported as a stream: cut into chunks of components on the calling thread, each chunk
/// parsed by libical on a worker (where `EventReadiness` sends every event that nothing else can
/// change straight into its sessions), and the chunks consumed in the order they were cut: what
/// waits for other events is held (`HeldGroups`) and resolved when its group is complete.
///
/// An event reaches its session by one of two routes: on the worker that parsed it, or with its
/// group (when its UID's last event is read, or at the end). The batches do not depend on thread
/// timing: chunks are consumed in the order they were cut, and what a worker decides depends on
/// the event and on what the first pass found (`InputOutline`, `InputZones`) alone.
final class ImportPipeline {
    private var cutter: ComponentCutter
    private let settings: WorkerSettings
    /// The threads chunks and groups are parsed and resolved on (`SessionImporter.parallelism`).
    private let workerThreads: Workers
    /// Chunks cut ahead of the one being consumed: enough to keep every worker busy.
    private let chunksInFlight: Int
    private var inFlight: [ChunkWork] = []
    /// Every chunk's work; waited for at the end, so that no worker still holds a chunk once the
    /// pipeline is gone.
    private let workers = DispatchGroup()
    /// Each calendar's METHOD as cut so far, which workers need to resolve its events.
    private var cutMethods: [Int: String] = [:]
    private var cutterFinished = false
    /// The input's segments, when workers cut it (`Segments`); the cutter is then not used.
    private var segments: Segments?
    /// The descriptor the segments are read with, closed at the end.
    private let segmentDescriptor: Int32?
    /// Whether workers cut the input, a segment at a time.
    var cutsSegments: Bool { segmentDescriptor != nil }
    /// The VCALENDAR the next segment starts in, as the segments before it were cut.
    private var segmentCalendar = ComponentCutter.CalendarState(index: -1, isOpen: false)
    /// Segments cut again on this thread because the first pass's VCALENDAR was not the one the
    /// segment before ended in (for tests).
    private(set) var segmentsCutAgain = 0
    /// The notes said once per input (`ComponentCutter.onceKey(of:)`), which segments each say.
    private var saidOnce: Set<String> = []
    /// Why a segment's reading stopped early, if it did.
    private var segmentReadError: String?

    /// The consumer's resolver: groups, held events and what workers said once per input.
    private var resolver: SessionResolver
    private var groups = HeldGroups()
    private var timeZones = TimeZoneDefinitions()
    private var limit = DiagnosticLimit()
    private var phase = Phase.reading
    private var workerSessionsWithPointsProperty = 0
    /// The `X-WR-TIMEZONE`s read so far, and the zones the times name (from the first pass).
    private(set) var zoneEvidence: ZoneEvidence
    /// Every non-empty `X-WR-CALNAME` read so far, with its line (an input's first one names it).
    private(set) var calendarNames: [(line: Int, name: String)] = []

    private enum Phase {
        case reading
        /// The held events' units, resolved `heldUnitsPerBatch` at a time.
        case resolvingHeld(units: ArraySlice<SessionResolver.Unit>, events: [HeldGroups.Event])
        case finished
    }

    /// Components per chunk: large enough that scheduling costs nothing, small enough to balance.
    static let chunkSize = 256
    /// Held units (a series with its overrides counts once) resolved per batch at the end.
    private static let heldUnitsPerBatch = 64

    /// - Parameter segments: When given, workers cut the input a segment at a time, and `input` is
    ///   not read.
    init(input: InputBytes, outline: InputOutline, zones: InputZones, importer: SessionImporter, segments: Segments? = nil) {
        self.segments = segments
        segmentDescriptor = segments?.descriptor
        _ = Libical.ready  // process-wide libical state, set up before any concurrency
        settings = WorkerSettings(importer: importer, outline: outline, zones: zones)
        zoneEvidence = ZoneEvidence(eventZones: ZoneEvidence.eventZones(named: outline.referencedTimeZoneIDs))
        workerThreads = Workers(width: importer.parallelism)
        chunksInFlight = 2 * max(2, importer.parallelism)
        resolver = settings.resolver()
        limit.perKind = SessionImporter.diagnosticsPerKind
        cutter = ComponentCutter(
            scanner: ContentLineScanner(input: input), eventProperties: settings.eventProperties, sinksPropertyLines: true)
    }

    deinit {
        // A pipeline dropped part-way still lets its workers finish with their chunks.
        workers.wait()
        if let segmentDescriptor { close(segmentDescriptor) }
    }

    /// Whether chunks and groups go to other threads (else all is done on the calling one).
    private var isParallel: Bool { workerThreads.width > 1 }

    /// How many sessions so far carry the points property.
    var sessionsWithPointsProperty: Int { resolver.sessionsWithPointsProperty + workerSessionsWithPointsProperty }

    /// The next batch, or `nil` when the input is done.
    func next() -> ImportBatch? {
        var batch: ImportBatch
        switch phase {
        case .finished:
            return nil
        case .reading:
            fill()
            guard !inFlight.isEmpty else {
                beginResolvingHeld()
                return next()
            }
            let chunk = inFlight.removeFirst()
            var result = chunk.result.wait()
            if let segment = chunk.segment { result = checked(segment, result) }
            fill()
            // (Handed on, not copied: the consumer moves the held events out of it.)
            batch = consume(consume result)
        case .resolvingHeld(var units, let events):
            guard !units.isEmpty else {
                phase = .finished
                workers.wait()
                batch = finish()
                break
            }
            let taken = units.prefix(Self.heldUnitsPerBatch)
            units = units.dropFirst(taken.count)
            phase = .resolvingHeld(units: units, events: events)
            batch = ImportBatch()
            batch.append(resolver.sessions(of: taken, in: events, expansion: settings.expansion, parallelism: workerThreads.width))
            batch.diagnostics = limit.admit(SessionImporter.inSourceOrder(resolver.takeDiagnostics()))
        }
        batch.zoneEvidence = zoneEvidence
        batch.calendarNames = calendarNames
        return batch
    }

    // MARK: Cutting

    /// Cuts chunks until enough are in flight or the input ends; each is parsed on a worker (at
    /// once, on this thread, when the import is not parallel).
    private func fill() {
        while !cutterFinished, inFlight.count < (isParallel ? chunksInFlight : 1) {
            if segments != nil {
                fillSegment()
                continue
            }
            let (items, methods) = cutChunk()
            let work = ChunkWork()
            let cutDiagnostics = cutter.takeDiagnostics()
            let settings = settings
            if isParallel {
                workerThreads.run(in: workers) {
                    work.result.set(ChunkParser(settings).parse(items, methods: methods, cutDiagnostics: cutDiagnostics))
                }
            } else {
                work.result.set(ChunkParser(settings).parse(items, methods: methods, cutDiagnostics: cutDiagnostics))
            }
            inFlight.append(work)
        }
    }

    /// Hands the next segment to a worker, which cuts and parses it.
    private func fillSegment() {
        guard let segment = segments?.next() else {
            cutterFinished = true
            return
        }
        if segment.end == nil { cutterFinished = true }
        let work = ChunkWork(segment: segment)
        let settings = settings
        workerThreads.run(in: workers) { work.result.set(Self.cutAndParse(segment, settings)) }
        inFlight.append(work)
    }

    /// A segment cut into components as one cutter reading the whole input would cut it, given the
    /// VCALENDAR it starts in, then parsed.
    private static func cutAndParse(_ segment: Segment, _ settings: WorkerSettings) -> ChunkResult {
        let input = InputBytes(reading: segment.descriptor, from: segment.offset, to: segment.end, chunkSize: segment.readChunkSize)
        var cutter = ComponentCutter(
            scanner: ContentLineScanner(input: input, firstLine: segment.line), eventProperties: settings.eventProperties,
            sinksPropertyLines: true, segment: (segment.calendar, segment.nextEventLine))
        var items: [CalendarItem] = []
        while let item = cutter.next() { items.append(item) }
        // Segments are only cut alone in inputs without iTIP messages, where no METHOD matters to a worker.
        var result = ChunkParser(settings).parse(
            items, methods: Array(repeating: nil, count: items.count), cutDiagnostics: cutter.takeDiagnostics())
        result.segmentEnd = (cutter.calendarState, cutter.readError)
        return result
    }

    /// A segment's result as the consumer takes it: cut again here when the VCALENDAR the first pass
    /// predicted is not the one the segment before ended in; after a read error, the last.
    private func checked(_ segment: Segment, _ result: consuming ChunkResult) -> ChunkResult {
        if segment.calendar != segmentCalendar {
            var again = segment
            again.calendar = segmentCalendar
            segmentsCutAgain += 1
            result = Self.cutAndParse(again, settings)
        }
        segmentCalendar = result.segmentEnd?.state ?? segmentCalendar
        if let reason = result.segmentEnd?.readError {
            // Reading stopped: what came before is imported, as when one cutter reads the input.
            segmentReadError = reason
            inFlight.removeAll()
            cutterFinished = true
            segments = nil
        }
        return result
    }

    /// The next `chunkSize` components (with the calendar properties between them), and each
    /// item's calendar's METHOD as cut so far.
    private func cutChunk() -> (items: [CalendarItem], methods: [String?]) {
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
        return (items, methods)
    }

    // MARK: Consuming

    /// What a parsed chunk says, in input order: its sessions, its calendar properties, its
    /// VTIMEZONEs' problems, and the events it holds; then the groups it completes.
    private func consume(_ result: consuming ChunkResult) -> ImportBatch {
        var batch = ImportBatch()
        batch.append(result.sessions)
        workerSessionsWithPointsProperty += result.sessionsWithPointsProperty
        // What is said once per input is said once, though segments cut apart may each say it.
        var diagnostics = result.diagnostics.filter { ComponentCutter.onceKey(of: $0).map { saidOnce.insert($0).inserted } ?? true }
        for (key, note) in result.onceNotes { resolver.say(key: key, note) }
        for index in result.items.indices {
            // Each item is moved out, not copied: a held event's record has many fields to retain.
            var item = ChunkResult.Item.taken
            swap(&item, &result.items[index])
            switch consume item {
            case .taken:
                break
            case .calendarProperty(let line, let calendar):
                read(line, calendar: calendar)
            case .timeZone(let definition, let begin):
                diagnostics += timeZones.define(definition, begin: begin)
            case .unparsable(let name, let begin):
                diagnostics.append(Diagnostic(
                    .error, .libical, at: begin.location(), "libical could not parse this \(name); it is skipped",
                    sourceLine: begin.text))
            case .held(let record, let calendar, let readiness):
                hold(record, calendar: calendar, readiness: readiness, diagnostics: &diagnostics)
            }
        }
        if !settings.outline.hasMessageMethod, let last = result.lastLine {
            // A group is complete once its UID's last VEVENT is read (an iTIP message anywhere may
            // cancel any event: such inputs resolve their groups at the end).
            resolveInBackground(groups.takeComplete(through: last))
        }
        // Groups a worker resolved come back a fixed number of chunks later (all of them once the
        // input is cut): which batch they go out in never depends on timing.
        applyGroups(keeping: cutterFinished ? 0 : Self.groupJobsAhead, to: &batch)
        diagnostics += resolver.takeDiagnostics()
        batch.diagnostics = limit.admit(SessionImporter.inSourceOrder(diagnostics))
        return batch
    }

    /// Reads a calendar property: the METHOD that decides what its events are (RFC 5546), the
    /// zone its author reads it in, its name.
    private func read(_ line: ContentLine, calendar: Int) {
        switch line.name {
        case "METHOD":
            resolver.methods[calendar] = String(line.value).trimmingSpaces.uppercased()
        case "X-WR-TIMEZONE":
            zoneEvidence.declare(String(line.value.prefix(200)).trimmingSpaces)
        case "X-WR-CALNAME":
            // A name longer than a report shows is read no further (ReportSource cuts it).
            let name = TextValue.decode(line.value.prefix(4 * ReportSource.maximumNameLength))
            if !name.isEmpty { calendarNames.append((line.line, name)) }
        default:
            break
        }
    }

    private func hold(_ record: consuming EventRecord, calendar: Int, readiness: EventReadiness, diagnostics: inout [Diagnostic]) {
        let lastLine = readiness == .withItsGroup ? record.uid.flatMap(settings.outline.lastEventLine(of:)) : nil
        if let warning = groups.hold(record, calendar: calendar, completesAt: lastLine) { diagnostics.append(warning) }
    }

    // MARK: Groups

    /// Complete groups on their way through a worker, oldest first.
    private var groupJobs: [WorkerResult<(SessionResolver, PlacedSessions)>] = []
    /// Group jobs left running while later chunks are consumed.
    private static let groupJobsAhead = 2

    /// Resolves complete groups on a worker (at once when the import is not parallel), with a copy
    /// of the consumer's resolver that keeps what it says once per input for the consumer to say.
    private func resolveInBackground(_ complete: [[HeldGroups.Event]]) {
        guard !complete.isEmpty else { return }
        var copy = resolver
        copy.diagnostics = []
        copy.defersOnceNotes = true
        copy.sessionsWithPointsProperty = 0
        let template = copy
        let expansion = settings.expansion
        let job = WorkerResult<(SessionResolver, PlacedSessions)>()
        let work: @Sendable () -> Void = {
            var resolver = template
            var placed = PlacedSessions()
            for group in complete {
                var events = group
                let units = resolver.units(of: &events)
                placed.append(resolver.sessions(of: units[...], in: events, expansion: expansion, parallelism: 1))
            }
            job.set((resolver, placed))
        }
        if isParallel {
            workerThreads.run(in: workers, work)
        } else {
            work()
        }
        groupJobs.append(job)
    }

    /// Takes what the group jobs resolved, all but the `keeping` newest, oldest first.
    private func applyGroups(keeping: Int, to batch: inout ImportBatch) {
        while groupJobs.count > keeping {
            let (copy, placed) = groupJobs.removeFirst().wait()
            batch.append(placed)
            resolver.merge(copy, countedBefore: 0)
        }
    }

    // MARK: The end

    /// Groups every event still held into units, once the input is read: every VTIMEZONE and
    /// override is known.
    private func beginResolvingHeld() {
        var rest = ImportBatch()
        applyGroups(keeping: 0, to: &rest)
        precondition(rest.sessions.isEmpty && rest.counted.isEmpty, "ImportPipeline: group jobs outlived the input")
        if !settings.zones.isReadAhead {
            // The zones could not be read ahead: they are those the import met, now all known.
            resolver.zones = InputZones(definitions: timeZones.all, outline: settings.outline, window: settings.zoneWindow)
        }
        var events = groups.takeAll()
        let units = resolver.units(of: &events)
        phase = .resolvingHeld(units: units[...], events: events)
    }

    /// The diagnostics that can only be given at the end.
    private func finish() -> ImportBatch {
        var batch = ImportBatch()
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

/// One chunk on its way through a worker (a segment, when the worker cuts it too), and what the
/// worker made of it.
private final class ChunkWork: Sendable {
    let segment: Segment?
    let result = WorkerResult<ChunkResult>()

    init(segment: Segment? = nil) {
        self.segment = segment
    }
}

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

/// An input's segments, handed out in order, each read with `pread` from a descriptor of its own,
/// which the pipeline closes.
struct Segments: Sendable {
    let descriptor: Int32
    let starts: [InputOutline.SegmentStart]
    let readChunkSize: Int
    /// The next segment's index: 0 is the input's start, `i` ends at `starts[i]`.
    private var index = 0

    init(descriptor: Int32, starts: [InputOutline.SegmentStart], readChunkSize: Int) {
        self.descriptor = descriptor
        self.starts = starts
        self.readChunkSize = readChunkSize
    }

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

/// A value a worker hands to the thread that waits for it.
final class WorkerResult<Value: Sendable>: @unchecked Sendable {
    // `value` is guarded by `lock`; `ready` is signalled once it is set, and `wait()` takes it once.
    private let lock = NSLock()
    private var value: Value?
    private let ready = DispatchSemaphore(value: 0)

    func set(_ value: Value) {
        lock.withLock { self.value = value }
        ready.signal()
    }

    /// The value, once it is set; taken out, so that it is given once.
    func wait() -> Value {
        ready.wait()
        return lock.withLock {
            guard let value else { preconditionFailure("WorkerResult: the value was taken already") }
            self.value = nil
            return value
        }
    }
}

/// The first VTIMEZONE of each TZID the import met, and what is wrong with later ones.
struct TimeZoneDefinitions {
    private(set) var all: [(definition: ZoneDefinition, begin: ContentLine)] = []
    private var firstByTZID: [String: Int] = [:]

    /// Records a VTIMEZONE; returns what to say of it: its own problems, and another VTIMEZONE of
    /// its TZID with other rules before it (the first in the input defines the TZID).
    mutating func define(_ definition: ZoneDefinition?, begin: ContentLine) -> [Diagnostic] {
        guard let definition else {
            return [Diagnostic(.warning, .badTimeZone, at: begin.location(), "VTIMEZONE without TZID; ignored", sourceLine: begin.text)]
        }
        var said = definition.problems.map { problem in
            Diagnostic(
                .warning, .badTimeZone, at: begin.location(), "VTIMEZONE \(definition.timeZoneID): \(problem)",
                sourceLine: begin.text)
        }
        if let index = firstByTZID[definition.timeZoneID] {
            let earlier = all[index]
            if earlier.definition.observances != definition.observances {
                said.append(Diagnostic(
                    .warning, .badTimeZone, at: begin.location(),
                    "another VTIMEZONE \(definition.timeZoneID), with other rules, comes first (line \(earlier.begin.line)); this one is ignored",
                    sourceLine: begin.text))
            }
            return said
        }
        // (Beyond the TZIDs an input may name, nothing uses a zone: it is not kept.)
        guard all.count < InputOutline.maximumTimeZoneIDs else { return said }
        firstByTZID[definition.timeZoneID] = all.count
        all.append((definition, begin))
        return said
    }
}
