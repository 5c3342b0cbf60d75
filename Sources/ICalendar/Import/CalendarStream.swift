import Dispatch
public import Foundation
public import Streaks

/// What a streaming import knows once the whole input is read.
public struct StreamedImport: Sendable {
    /// The first `X-WR-TIMEZONE` the input declares.
    public var declaredTimeZone: String?
    /// How many sessions carry the points property.
    public var sessionsWithPointsProperty: Int
}

extension SessionImporter {
    /// Reads a file as a stream (`-`: standard input): `body` gets the sessions and diagnostics of
    /// each stretch of it in input order, as they are parsed on every core. Memory holds a few
    /// chunks of the file, the recurring events and the events that wait for a later VTIMEZONE,
    /// never the whole file or its sessions.
    ///
    /// ```swift
    /// var points = 0
    /// try SessionImporter().importCalendar(path: "years.ics") { batch in
    ///     points += batch.sessions.reduce(0) { $0 + $1.points }
    /// }
    /// ```
    ///
    /// - Throws: `CalendarReadError` when the file cannot be opened; content problems are
    ///   diagnostics, and so is a read error part-way (what came before it is imported).
    @discardableResult
    public func importCalendar(
        path: String, forEachBatch body: (ImportBatch) throws -> Void
    ) throws -> StreamedImport {
        let pipeline = try pipeline(path: path)
        while let batch = pipeline.next() { try body(batch) }
        return StreamedImport(
            declaredTimeZone: pipeline.declaredTimeZone, sessionsWithPointsProperty: pipeline.sessionsWithPointsProperty)
    }

    /// Reads several files as one stream (see `importCalendars(paths:)`): `body` gets the batches
    /// of all of them, with every location naming its own file and line.
    @discardableResult
    public func importCalendars(
        paths: [String], forEachBatch body: (ImportBatch) throws -> Void
    ) throws -> StreamedImport {
        guard paths.count > 1 else {
            guard let path = paths.first else { return StreamedImport(declaredTimeZone: nil, sessionsWithPointsProperty: 0) }
            return try importCalendar(path: path, forEachBatch: body)
        }
        let (descriptor, combined) = try CombinedInput.files(paths)
        let pipeline = pipeline(descriptor: descriptor, file: CombinedInput.name)
        while let batch = pipeline.next() { try body(combined.batch(batch)) }
        return StreamedImport(
            declaredTimeZone: pipeline.declaredTimeZone, sessionsWithPointsProperty: pipeline.sessionsWithPointsProperty)
    }

    /// The sessions and diagnostics of a file, as an asynchronous sequence read as it is consumed.
    ///
    /// ```swift
    /// for try await item in SessionImporter().events(contentsOf: url) {
    ///     switch item {
    ///     case .session(let session): print(session.id, session.points)
    ///     case .diagnostic(let diagnostic): print(diagnostic)
    ///     }
    /// }
    /// ```
    ///
    /// The order is that of `importCalendar(path:forEachBatch:)`: each batch's diagnostics, then
    /// its sessions. Iteration throws `CalendarReadError` when the file cannot be opened.
    public func events(contentsOf url: URL) -> CalendarEvents {
        CalendarEvents(importer: self, path: url.isFileURL ? url.path : url.absoluteString)
    }
}

/// One item of a streaming import.
public enum ImportEvent: Sendable {
    case session(Session)
    case diagnostic(Diagnostic)
}

/// A file's sessions and diagnostics as an `AsyncSequence` (see `SessionImporter.events(contentsOf:)`).
///
/// Each iterator reads the file from the start. The reading and parsing run on Dispatch's threads,
/// never blocking the consuming task's thread; the iterator asks for one batch at a time, so a slow
/// consumer holds back the reading.
public struct CalendarEvents: AsyncSequence, Sendable {
    public typealias Element = ImportEvent

    let importer: SessionImporter
    let path: String

    public func makeAsyncIterator() -> Iterator {
        Iterator(importer: importer, path: path)
    }

    public struct Iterator: AsyncIteratorProtocol {
        private let importer: SessionImporter
        private let path: String
        private var pipeline: PipelineHandle?
        private var pending: [ImportEvent] = []
        private var pendingIndex = 0
        private var isDone = false

        init(importer: SessionImporter, path: String) {
            self.importer = importer
            self.path = path
        }

        public mutating func next() async throws(CalendarReadError) -> ImportEvent? {
            while pendingIndex == pending.count {
                if isDone { return nil }
                let handle: PipelineHandle
                if let pipeline {
                    handle = pipeline
                } else {
                    handle = PipelineHandle()
                    try await handle.open(importer: importer, path: path)
                    pipeline = handle
                }
                guard let batch = await handle.next() else {
                    isDone = true
                    pipeline = nil
                    return nil
                }
                pending = batch.diagnostics.map(ImportEvent.diagnostic) + batch.sessions.map(ImportEvent.session)
                pendingIndex = 0
            }
            defer { pendingIndex += 1 }
            return pending[pendingIndex]
        }
    }

    /// A pipeline used on one serial Dispatch queue: it is opened and stepped there, one step at a
    /// time, so its state is only ever touched in that queue's order.
    final class PipelineHandle: @unchecked Sendable {
        private let queue = DispatchQueue(label: "StreakCal.CalendarEvents")
        /// Touched only on `queue`.
        private var pipeline: ImportPipeline?

        /// Opens the file and reads its outline, off the caller's thread.
        func open(importer: SessionImporter, path: String) async throws(CalendarReadError) {
            let result: Result<Void, CalendarReadError> = await withCheckedContinuation { continuation in
                queue.async {
                    do throws(CalendarReadError) {
                        self.pipeline = try importer.pipeline(path: path)
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
                queue.async { continuation.resume(returning: self.pipeline?.next()) }
            }
        }
    }
}
