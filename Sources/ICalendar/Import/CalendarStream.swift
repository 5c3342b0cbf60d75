import Dispatch
public import Streaks

/// What a streaming import knows once the whole input is read.
public struct StreamedImport: Sendable {
    /// The first `X-WR-TIMEZONE` the input declares (`zoneEvidence.declared.first`).
    public var declaredTimeZone: String? { zoneEvidence.declared.first }
    /// The declared zones and the zones the times name.
    public var zoneEvidence = ZoneEvidence()
    /// How many sessions carry the points property.
    public var sessionsWithPointsProperty: Int
    /// The calendars read, in order, each named by its `X-WR-CALNAME` or its file.
    public var sources: [ReportSource] = []

    public init(zoneEvidence: ZoneEvidence = ZoneEvidence(), sessionsWithPointsProperty: Int, sources: [ReportSource] = []) {
        self.zoneEvidence = zoneEvidence
        self.sessionsWithPointsProperty = sessionsWithPointsProperty
        self.sources = sources
    }
}

extension SessionImporter {
    /// Reads calendars as a stream of batches: the sessions and diagnostics of each stretch, in
    /// input order, as they are parsed on every core. Memory holds a few chunks of the input, the
    /// recurring events and the events that wait for a later VTIMEZONE or copy, never the whole
    /// input or its sessions.
    ///
    /// ```swift
    /// var points = 0
    /// for try await batch in SessionImporter(expansion: RecurrenceExpansion(through: lastDay)).sessionBatches(from: [.file("years.ics")]) {
    ///     points += batch.sessions.reduce(0) { $0 + $1.points }
    ///     for diagnostic in batch.diagnostics { print(diagnostic) }
    /// }
    /// ```
    ///
    /// Iteration throws `CalendarReadError` when a source cannot be read at all; problems in the
    /// content are diagnostics, and so is a read error part-way (what came before it is imported).
    ///
    /// With `PointsRule.automatic`, batches carry the property's points (0 for an event without
    /// it): whether any event carries the property is known only at the end. `ReportSettings`
    /// scores a stream with the rule settled; a caller of this one counts `.minutes` itself.
    public func sessionBatches(from sources: [CalendarSource]) -> SessionBatches {
        var importer = self
        importer.needs = .everything  // the sessions are the result
        return SessionBatches(importer: importer, sources: sources)
    }

    /// `sessionBatches(from:)` on the calling thread, for the application layer's streaming reports.
    @discardableResult
    package func forEachBatch(
        from sources: [CalendarSource], _ body: (ImportBatch) -> Void
    ) throws(CalendarReadError) -> StreamedImport {
        guard !sources.isEmpty else { return StreamedImport(sessionsWithPointsProperty: 0) }
        let (pipeline, map) = try pipeline(for: sources)
        var inputDiagnostics = map.inputDiagnostics
        while var batch = pipeline.next() {
            map.map(&batch)
            batch.diagnostics = inputDiagnostics + batch.diagnostics
            inputDiagnostics = []
            body(batch)
        }
        return StreamedImport(
            zoneEvidence: pipeline.zoneEvidence, sessionsWithPointsProperty: pipeline.sessionsWithPointsProperty,
            sources: map.sources(named: pipeline.calendarNames))
    }
}

/// Calendars' sessions and diagnostics as an `AsyncSequence` of batches (see
/// `SessionImporter.sessionBatches(from:)`).
///
/// Each iterator reads the sources from the start. The reading and parsing run on Dispatch's
/// threads, never blocking the consuming task's thread; the iterator asks for one batch at a time,
/// so a slow consumer holds back the reading.
public struct SessionBatches: AsyncSequence, Sendable {
    public typealias Element = ImportBatch

    let importer: SessionImporter
    let sources: [CalendarSource]

    public func makeAsyncIterator() -> Iterator {
        Iterator(importer: importer, sources: sources)
    }

    public struct Iterator: AsyncIteratorProtocol {
        private let importer: SessionImporter
        private let sources: [CalendarSource]
        private var pipeline: PipelineHandle?
        private var isDone = false

        init(importer: SessionImporter, sources: [CalendarSource]) {
            self.importer = importer
            self.sources = sources
        }

        public mutating func next() async throws(CalendarReadError) -> ImportBatch? {
            if isDone { return nil }
            let handle: PipelineHandle
            if let pipeline {
                handle = pipeline
            } else {
                handle = PipelineHandle()
                try await handle.open(importer: importer, sources: sources)
                pipeline = handle
            }
            guard let batch = await handle.next() else {
                isDone = true
                pipeline = nil
                return nil
            }
            return batch
        }
    }

    /// A pipeline used on one serial Dispatch queue: it is opened and stepped there, one step at a
    /// time, so its state is only ever touched in that queue's order.
    final class PipelineHandle: @unchecked Sendable {
        private let queue = DispatchQueue(label: "StreakCal.SessionBatches")
        /// Touched only on `queue`.
        private var pipeline: (ImportPipeline, InputMap)?
        /// Warnings for blank inputs, given with the first batch; touched only on `queue`.
        private var inputDiagnostics: [Diagnostic] = []

        /// Opens the sources and reads their outline, off the caller's thread.
        func open(importer: SessionImporter, sources: [CalendarSource]) async throws(CalendarReadError) {
            let result: Result<Void, CalendarReadError> = await withCheckedContinuation { continuation in
                queue.async {
                    do throws(CalendarReadError) {
                        self.pipeline = sources.isEmpty ? nil : try importer.pipeline(for: sources)
                        self.inputDiagnostics = self.pipeline?.1.inputDiagnostics ?? []
                        continuation.resume(returning: .success(()))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
            try result.get()
        }

        /// The next batch, parsed off the caller's thread.
        func next() async -> ImportBatch? {
            await withCheckedContinuation { continuation in
                queue.async {
                    guard let (pipeline, map) = self.pipeline, var batch = pipeline.next() else {
                        return continuation.resume(returning: nil)
                    }
                    map.map(&batch)
                    batch.diagnostics = self.inputDiagnostics + batch.diagnostics
                    self.inputDiagnostics = []
                    continuation.resume(returning: batch)
                }
            }
        }
    }
}
