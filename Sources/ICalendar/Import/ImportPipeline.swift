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
    private let isParallel: Bool
    private var inFlight: [ChunkWork] = []
    /// Every chunk's work; waited for at the end, so that no worker still holds a chunk once the
    /// pipeline is gone.
    private let workers = DispatchGroup()
    /// Each calendar's METHOD as cut so far, which workers need to resolve its events.
    private var cutMethods: [Int: String] = [:]
    private var cutterFinished = false

    /// The consumer's resolver: groups, held events and what workers said once per input.
    private var resolver: SessionResolver
    private var groups = HeldGroups()
    private var timeZones = TimeZoneDefinitions()
    private var limit = DiagnosticLimit()
    private var phase = Phase.reading
    private var workerSessionsWithPointsProperty = 0
    /// The first `X-WR-TIMEZONE` read so far.
    private(set) var declaredTimeZone: String?
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
    /// Chunks cut ahead of the one being consumed: enough to keep every core busy.
    private static let chunksInFlight = 2 * max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Held units (a series with its overrides counts once) resolved per batch at the end.
    private static let heldUnitsPerBatch = 64

    init(input: InputBytes, outline: InputOutline, zones: InputZones, importer: SessionImporter) {
        _ = Libical.ready  // process-wide libical state, set up before any concurrency
        settings = WorkerSettings(importer: importer, outline: outline, zones: zones)
        isParallel = importer.isParallel
        resolver = settings.resolver()
        limit.perKind = SessionImporter.diagnosticsPerKind
        cutter = ComponentCutter(
            scanner: ContentLineScanner(input: input), eventProperties: settings.eventProperties, sinksPropertyLines: true)
    }

    deinit {
        // A pipeline dropped part-way still lets its workers finish with their chunks.
        workers.wait()
    }

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
            let result = chunk.result.wait()
            fill()
            batch = consume(chunk.items, result)
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
            batch.append(resolver.sessions(of: taken, in: events, expansion: settings.expansion, parallel: isParallel))
            batch.diagnostics = limit.admit(SessionImporter.inSourceOrder(resolver.takeDiagnostics()))
        }
        batch.declaredTimeZone = declaredTimeZone
        batch.calendarNames = calendarNames
        return batch
    }

    // MARK: Cutting

    /// Cuts chunks until enough are in flight or the input ends; each is parsed on a worker (at
    /// once, on this thread, when the import is not parallel).
    private func fill() {
        while !cutterFinished, inFlight.count < (isParallel ? Self.chunksInFlight : 1) {
            let (items, methods) = cutChunk()
            let work = ChunkWork(items: items)
            let cutDiagnostics = cutter.takeDiagnostics()
            let settings = settings
            if isParallel {
                DispatchQueue.global().async(group: workers) {
                    work.result.set(ChunkParser(settings).parse(items, methods: methods, cutDiagnostics: cutDiagnostics))
                }
            } else {
                work.result.set(ChunkParser(settings).parse(items, methods: methods, cutDiagnostics: cutDiagnostics))
            }
            inFlight.append(work)
        }
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
    private func consume(_ items: [CalendarItem], _ result: ChunkResult) -> ImportBatch {
        var batch = ImportBatch()
        batch.append(result.sessions)
        workerSessionsWithPointsProperty += result.sessionsWithPointsProperty
        var diagnostics = result.diagnostics
        for (key, note) in result.onceNotes { resolver.say(key: key, note) }
        for item in result.items {
            switch item {
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
            for group in groups.takeComplete(through: last) {
                var events = group
                let units = resolver.units(of: &events)
                batch.append(resolver.sessions(of: units[...], in: events, expansion: settings.expansion, parallel: false))
            }
        }
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
        case "X-WR-TIMEZONE" where declaredTimeZone == nil:
            let value = String(line.value).trimmingSpaces
            if !value.isEmpty { declaredTimeZone = value }
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

    // MARK: The end

    /// Groups every event still held into units, once the input is read: every VTIMEZONE and
    /// override is known.
    private func beginResolvingHeld() {
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
        if let reason = cutter.readError {
            diagnostics.append(Diagnostic(
                .error, .input, at: SourceLocation(file: InputMap.name, line: limit.lastLine),
                "reading stopped before the end of the input: \(reason); what came before is imported"))
        }
        batch.diagnostics = limit.admit(SessionImporter.inSourceOrder(diagnostics)) + limit.notes
        return batch
    }
}

/// One chunk on its way through a worker: its items, and what the worker made of them.
private final class ChunkWork: Sendable {
    let items: [CalendarItem]
    let result = WorkerResult<ChunkResult>()

    init(items: [CalendarItem]) {
        self.items = items
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
