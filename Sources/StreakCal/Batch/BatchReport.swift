public import Foundation
public import ICalendar

/// Reports for many calendars at once: one report per calendar, in parallel, and a summary.
///
/// Each calendar is read, scored and rendered by one worker from start to end (its libical trees
/// never leave that worker), at most `jobs` at a time; results come back in input order whatever
/// the timing. A calendar that cannot be read fails alone: the others are still reported.
///
/// ```swift
/// let batch = BatchReport(paths: ["exports"], settings: ReportSettings(timeZone: "UTC"), format: .json, jobs: 4)
/// let summary = try batch.write(to: "reports")
/// print(summary.files.map { "\($0.input) \($0.output ?? "-") \($0.daysMet ?? 0)" })
/// // Prints "["exports/home.ics home.json 12", "exports/work.ics work.json 30"]"
/// ```
public struct BatchReport: Sendable {
    /// The calendars, in the order their results are given.
    public let inputs: [BatchInput]
    /// Entries of the folders walked that are not regular files, passed over (listed in the summary).
    public let skipped: [SkippedInput]
    /// The report options every calendar is scored with.
    public let settings: ReportSettings
    /// The format of each report.
    public let format: ReportFormat
    /// How many calendars are worked on at once (at least 1; at most the processors run at once).
    public let jobs: Int
    /// Whether a calendar with a warning or an error counts as failed (its report is still written).
    public let strict: Bool
    /// Whether results carry elapsed times; without, the same inputs give the same summary, byte for byte.
    public let recordsElapsedTime: Bool
    /// The instant "today" is taken from for every calendar, in seconds since 1970.
    public let now: Int64

    /// The summary's file name in the output folder; no report takes it.
    public static let summaryFileName = "summary.json"

    /// A batch over inputs already named; their output names are made safe and distinct again
    /// (clashes as ``BatchInput/outputNames(for:reserving:fileExtension:)`` resolves them, by
    /// each input's `name`).
    /// `skipped` are files passed over before, for the summary.
    public init(
        inputs: [BatchInput], skipped: [SkippedInput] = [], settings: ReportSettings = ReportSettings(), format: ReportFormat = .text,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, strict: Bool = false,
        recordsElapsedTime: Bool = true, now: Int64
    ) {
        let stems = inputs.map { BatchInput.safeFileName(BatchInput.sanitized($0.outputName)) }
        let names = BatchInput.resolvingClashes(
            stems, exact: zip(inputs, stems).map { $0.outputName == $1 && $1 == $1.lowercased() }, keys: inputs.map(\.name),
            reserving: [Self.summaryFileName], suffix: "." + format.fileExtension)
        self.init(
            named: zip(inputs, names).map { BatchInput(name: $0.name, outputName: $1, content: $0.content, relativePath: $0.relativePath, overrides: $0.overrides) }, skipped: skipped,
            settings: settings, format: format, jobs: jobs, strict: strict, recordsElapsedTime: recordsElapsedTime, now: now)
    }

    /// A batch over inputs whose output names are already safe and distinct, as
    /// `BatchInput.walk` and `BatchInput.sources` name them (for this format, reserving the summary's name).
    private init(
        named inputs: [BatchInput], skipped: [SkippedInput], settings: ReportSettings, format: ReportFormat,
        jobs: Int, strict: Bool, recordsElapsedTime: Bool, now: Int64
    ) {
        self.inputs = inputs
        self.skipped = skipped
        self.settings = settings
        self.format = format
        self.jobs = max(1, jobs)
        self.strict = strict
        self.recordsElapsedTime = recordsElapsedTime
        self.now = now
    }

    /// A batch over files and folders (see ``BatchInput/walk(_:reserving:fileExtension:)``); the
    /// entries of folders that are not regular files are passed over, as ``skipped`` lists.
    public init(
        paths: [String], settings: ReportSettings = ReportSettings(), format: ReportFormat = .text,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, strict: Bool = false,
        recordsElapsedTime: Bool = true, now: Int64
    ) {
        let discovery = BatchInput.walk(paths, reserving: [Self.summaryFileName], fileExtension: format.fileExtension)
        self.init(
            named: discovery.inputs, skipped: discovery.skipped,
            settings: settings, format: format, jobs: jobs, strict: strict, recordsElapsedTime: recordsElapsedTime, now: now)
    }

    /// A batch over calendars in memory.
    public init(
        sources: [CalendarSource], settings: ReportSettings = ReportSettings(), format: ReportFormat = .text,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, strict: Bool = false,
        recordsElapsedTime: Bool = true, now: Int64
    ) {
        self.init(
            named: BatchInput.sources(sources, reserving: [Self.summaryFileName], fileExtension: format.fileExtension), skipped: [],
            settings: settings, format: format, jobs: jobs, strict: strict, recordsElapsedTime: recordsElapsedTime, now: now)
    }

    /// The file name of an input's report in the output folder.
    public func outputFileName(of input: BatchInput) -> String {
        input.outputName + "." + format.fileExtension
    }

    /// Writes each calendar's report into `directory` (created if need be), then `summary.json`;
    /// every file is written atomically. Returns the summary.
    ///
    /// A calendar that fails is recorded in the summary and gets no report; only a folder that
    /// cannot be created, or a summary that cannot be written, throws (after every report).
    ///
    /// - Parameters:
    ///   - directory: The output folder.
    ///   - progress: Called after each calendar (and once before the first), one call at a time.
    public func write(to directory: String, progress: (@Sendable (BatchProgress) -> Void)? = nil) throws(AtomicFile.WriteError) -> BatchSummary {
        var options = BatchRunOptions()
        options.progress = progress
        return try write(to: directory, options: options)
    }

    /// `write(to:progress:)` with the options of a long run: resuming an earlier one, stopping
    /// when asked, each row as it is done, reports of earlier runs listed or removed.
    ///
    /// As it goes, the batch keeps a manifest in `directory` (`.streakcal-batch.jsonl`: each
    /// calendar done, with a hash of its bytes and settings, and its row): with
    /// ``BatchRunOptions/resume``, a calendar whose bytes and settings are those of a report the
    /// manifest lists, and whose report is still there, is not read again. When
    /// ``BatchRunOptions/stop`` is requested, the calendars in flight are finished, no other is
    /// started, and the summary is written with ``BatchSummary/remaining`` above 0.
    public func write(to directory: String, options: BatchRunOptions) throws(AtomicFile.WriteError) -> BatchSummary {
        let folder = try OutputDirectory(opening: directory, creating: true)
        let clock = ContinuousClock()
        let start = clock.now
        let work = BatchWork(
            folder: folder, earlier: options.resume ? BatchManifest.entries(in: folder) : [:],
            manifest: BatchManifest.Writer(in: folder, keeping: options.resume), fingerprint: fingerprint(of: settings),
            keepsEntries: options.resume)
        let reports = run(work, options: options)
        var summary = BatchSummary(format: format, files: reports.map(\.result), skipped: skipped)
        summary.remaining = inputs.count - reports.count
        if summary.remaining == 0 {
            // A resumed run appended to the manifest: it now says each report once, this run's.
            if options.resume { BatchManifest.rewrite(reports.compactMap(\.manifestEntry), in: folder) }
            let names = Set(inputs.map { outputFileName(of: $0) })
            summary.stale = BatchStaleReports.find(in: folder, keeping: names)
            if options.clean { summary.removedStale = BatchStaleReports.remove(summary.stale, from: folder) }
        }
        if recordsElapsedTime { summary.elapsedSeconds = Self.seconds(clock.now - start) }
        let json = summary.jsonBytes(entries: reports.compactMap(\.summaryEntry))
        try folder.write(json, named: Self.summaryFileName)
        return summary
    }

    /// Every calendar's report, rendered but not written, in input order; each result's `output`
    /// is the file name the report would get.
    public func render(progress: (@Sendable (BatchProgress) -> Void)? = nil) -> [RenderedReport] {
        var options = BatchRunOptions()
        options.progress = progress
        return run(BatchWork(folder: nil), options: options)
    }

    /// ``write(to:progress:)`` without blocking a task of the caller's: the work runs on Dispatch's threads.
    public func write(to directory: String, progress: (@Sendable (BatchProgress) -> Void)? = nil) async throws(AtomicFile.WriteError) -> BatchSummary {
        try await BlockingWork.run { () throws(AtomicFile.WriteError) -> BatchSummary in try self.write(to: directory, progress: progress) }
    }

    /// ``render(progress:)-164lx`` without blocking a task of the caller's: the work runs on Dispatch's threads.
    public func render(progress: (@Sendable (BatchProgress) -> Void)? = nil) async -> [RenderedReport] {
        await BlockingWork.run { () -> [RenderedReport] in self.render(progress: progress) }
    }

    /// One calendar: read, score, render, and write if there is a folder (which must exist).
    public func report(_ input: BatchInput, writingTo directory: String? = nil) -> RenderedReport {
        guard let directory else { return report(input, in: BatchWork(folder: nil)) }
        do {
            return report(input, in: BatchWork(folder: try OutputDirectory(opening: directory, creating: false)))
        } catch {
            var result = BatchFileResult(input: input.name)
            result.id = input.id
            result.error = String(describing: error)
            return RenderedReport(result: result, text: nil)
        }
    }

    /// The one step for every calendar of the batch: ``BatchScoring``, then the report written.
    private var scoring: BatchScoring {
        BatchScoring(settings: settings, format: format, now: now, strict: strict)
    }

    private func report(_ input: BatchInput, in work: BatchWork) -> RenderedReport {
        let clock = ContinuousClock()
        let start = clock.now
        let fileName = outputFileName(of: input)
        // The settings' fingerprint, worked out once a batch (reflecting every setting costs
        // milliseconds), but for a calendar with settings of its own.
        let settingsPrint = input.overrides.map { self.fingerprint(of: $0.applied(to: settings)) } ?? work.fingerprint
        let key = work.folder == nil ? nil : BatchManifest.key(of: input, fingerprint: settingsPrint)
        if let key, let earlier = work.earlier[fileName], earlier.key == key, earlier.result.error == nil,
           let folder = work.folder, (try? folder.regularFile(named: fileName)) != nil {
            // Done before with these bytes and settings, its report still there (`--resume`).
            var report = RenderedReport(result: earlier.result, text: nil)
            report.summaryEntry = BatchSummary.jsonEntry(of: earlier.result)
            if work.keepsEntries { report.manifestEntry = earlier }
            return report
        }
        var outcome: BatchScoring.Outcome
        switch input.content {
        case .file(let path): outcome = scoring.score([.file(path)], input: input.name, id: input.id, overrides: input.overrides)
        case .sources(let given): outcome = scoring.score(given, input: input.name, id: input.id, overrides: input.overrides)
        case .unreadable(let error):
            outcome = BatchScoring.Outcome(result: BatchFileResult(input: input.name))
            outcome.result.id = input.id
            outcome.result.error = error.description
            outcome.result.errorCode = error.code
        }
        var text: String?
        if let rendered = outcome.report, outcome.result.sessions != nil {
            do {
                if let folder = work.folder { try folder.write(rendered, named: fileName) } else { text = rendered }
                outcome.result.output = fileName
            } catch {
                outcome.result.error = String(describing: error)
            }
        }
        if recordsElapsedTime { outcome.result.elapsedSeconds = Self.seconds(clock.now - start) }
        var report = RenderedReport(result: outcome.result, text: text)
        // Written here, on the worker, for `summary.json`: the summary is then only put together.
        if work.folder != nil {
            report.summaryEntry = BatchSummary.jsonEntry(of: outcome.result)
            if let key, outcome.result.output != nil {
                let entry = BatchManifest.Entry(key: key, result: outcome.result)
                work.manifest?.append(entry)
                if work.keepsEntries { report.manifestEntry = entry }
            }
        }
        return report
    }

    /// What a calendar's report depends on besides its bytes, for ``BatchManifest``: the
    /// version, the format, strictness, the day "now" falls on, and every setting it is scored
    /// with (`settings`: the batch's, or a calendar's own over them).
    /// The fallback zone counts only where no zone is given: `--tz` makes the machine's zone
    /// (which `streakcal` passes as the fallback) no reason to score a calendar again.
    func fingerprint(of settings: ReportSettings) -> String {
        var settings = settings
        if settings.timeZone != nil { settings.fallbackTimeZone = .utc }
        return "\(StreakCalVersion.generator)|\(format.rawValue)|\(strict)|\(now / 86_400)|\(BatchManifest.stableDescription(of: settings))"
    }

    /// Runs every input on at most `jobs` workers; results in input order.
    ///
    /// The workers are `concurrentPerform`'s, the calling thread one of them; each takes the next
    /// input from the ledger until none is left (or a stop is requested), so the results do not
    /// depend on how many run at once.
    private func run(_ work: BatchWork, options: BatchRunOptions) -> [RenderedReport] {
        let count = inputs.count
        let ledger = BatchLedger(count: count, options: options)
        guard count > 0 else { return [] }
        ledger.start()
        let workers = min(jobs, count, ProcessInfo.processInfo.activeProcessorCount)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = ledger.claim() {
                ledger.finish(index, with: report(inputs[index], in: work))
            }
        }
        return ledger.takeResults()
    }

    /// A duration in seconds, to the millisecond.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) + Double(attoseconds) / 1e18) * 1000).rounded() / 1000
    }
}

/// A calendar's report as text (when not written) with its figures.
public struct RenderedReport: Sendable {
    /// The figures, and the error if the calendar failed.
    public var result: BatchFileResult
    /// The report, when the batch does not write files and the calendar did not fail.
    public var text: String?
    /// The calendar's object in `summary.json` (`BatchSummary.jsonEntry(of:)`), when the batch
    /// writes files.
    var summaryEntry: [UInt8]?
    /// Its line in the manifest, when it has one (a report written, or taken from an earlier run).
    var manifestEntry: BatchManifest.Entry?

    public init(result: BatchFileResult, text: String?) {
        self.result = result
        self.text = text
    }
}

/// How far a batch has got.
///
/// ```swift
/// let progress = BatchProgress(completed: 30, total: 120, failed: 1, elapsed: .seconds(3))
/// print(progress.filesPerSecond, progress.estimatedTimeRemaining)
/// // Prints "Optional(10.0) Optional(9.0 seconds)"
/// ```
public struct BatchProgress: Hashable, Sendable {
    /// Calendars done (reported or failed).
    public var completed: Int
    /// Calendars in the batch.
    public var total: Int
    /// Calendars failed so far.
    public var failed: Int
    /// Time since the first calendar started.
    public var elapsed: Duration

    public init(completed: Int, total: Int, failed: Int, elapsed: Duration) {
        self.completed = completed
        self.total = total
        self.failed = failed
        self.elapsed = elapsed
    }

    /// Calendars per second so far; `nil` before any is done.
    public var filesPerSecond: Double? {
        let seconds = BatchReport.seconds(elapsed)
        guard completed > 0, seconds > 0 else { return nil }
        return Double(completed) / seconds
    }

    /// The time the rest should take at the rate so far; `nil` before any is done.
    public var estimatedTimeRemaining: Duration? {
        guard let rate = filesPerSecond else { return nil }
        return .milliseconds(Int64((Double(total - completed) / rate * 1000).rounded()))
    }
}

/// A calendar that could not be reported: why, and the read error's code when it could not be read.
struct BatchFailure: Error, CustomStringConvertible {
    var description: String
    var code: CalendarReadError.Code?
}

/// The workers' shared state: the next input to take, results by index, and progress.
final class BatchLedger: Sendable {
    private struct State {
        var next = 0
        var finished: [RenderedReport?]
        /// Results handed to ``BatchRunOptions/rows`` so far: those before this index.
        var emitted = 0
        var completed = 0
        var failed = 0
        var started: ContinuousClock.Instant
    }

    private let state: Locked<State>
    private let options: BatchRunOptions
    private let clock = ContinuousClock()
    private let count: Int

    init(count: Int, options: BatchRunOptions) {
        self.count = count
        self.options = options
        state = Locked(State(finished: Array(repeating: nil, count: count), started: clock.now))
    }

    /// Starts the clock and reports that nothing is done yet.
    func start() {
        state.withLock { state in
            state.started = clock.now
            options.progress?(BatchProgress(completed: 0, total: count, failed: 0, elapsed: .zero))
        }
    }

    /// The next input for a worker, or `nil` when all are taken or a stop was requested.
    func claim() -> Int? {
        if options.stop?.isRequested == true { return nil }
        return state.withLock { state in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Stores a result, hands on the rows now complete in input order, and reports progress
    /// (under the lock, so rows and reports arrive in order).
    func finish(_ index: Int, with report: RenderedReport) {
        state.withLock { state in
            state.finished[index] = report
            state.completed += 1
            if report.result.error != nil { state.failed += 1 }
            if let rows = options.rows {
                while state.emitted < count, let done = state.finished[state.emitted] {
                    rows(done.result)
                    state.emitted += 1
                }
            }
            options.progress?(BatchProgress(completed: state.completed, total: count, failed: state.failed, elapsed: clock.now - state.started))
        }
    }

    /// The results in input order, moved out: the ledger keeps none. After a stop, the inputs
    /// taken (always the first ones) are all finished: they are the results.
    func takeResults() -> [RenderedReport] {
        state.withLock { state in
            var results: [RenderedReport] = []
            results.reserveCapacity(state.completed)
            for index in state.finished.indices {
                if let report = state.finished[index].take() { results.append(report) }
            }
            return results
        }
    }
}

/// Where a run's reports go and what it knows of earlier runs.
struct BatchWork: Sendable {
    /// The output folder; `nil` when rendering only.
    var folder: OutputDirectory?
    /// The manifest's entries of an earlier run, by report name (`--resume`).
    var earlier: [String: BatchManifest.Entry] = [:]
    /// The manifest this run appends to.
    var manifest: BatchManifest.Writer?
    /// ``BatchReport/fingerprint(of:)`` of the batch's settings.
    var fingerprint = ""
    /// Whether each report keeps its manifest entry, for the manifest a resumed run rewrites at
    /// its end (a run that is not resumed wrote it whole as it went: 10 MB less for 20,000 files).
    var keepsEntries = false
}

/// How a long batch runs: see ``BatchReport/write(to:options:)``.
public struct BatchRunOptions: Sendable {
    /// Take a calendar's row from the output folder's manifest when its bytes and settings are
    /// unchanged and its report is there, rather than read it again.
    public var resume = false
    /// Remove the reports in the output folder that no input of this run is named for
    /// (``BatchSummary/stale``); without, they are only listed.
    public var clean = false
    /// Requested (from a signal handler, say), the batch finishes the calendars in flight and starts no other.
    public var stop: BatchStop?
    /// Called with each calendar's row in input order as soon as it and every one before it are
    /// done, one call at a time: for a summary that streams.
    public var rows: (@Sendable (BatchFileResult) -> Void)?
    /// Called after each calendar (and once before the first), one call at a time.
    public var progress: (@Sendable (BatchProgress) -> Void)?

    public init() {}
}

/// A request to stop a batch early, safe to make from any thread.
///
/// ```swift
/// let stop = BatchStop()
/// signal(SIGINT, SIG_IGN)
/// let source = DispatchSource.makeSignalSource(signal: SIGINT)
/// source.setEventHandler { stop.request() }
/// source.resume()
/// ```
public final class BatchStop: Sendable {
    private let requested = Locked(false)

    public init() {}

    /// Asks the batch to stop after the calendars in flight.
    public func request() { requested.withLock { $0 = true } }

    /// Whether a stop was requested.
    public var isRequested: Bool { requested.withLock { $0 } }
}
