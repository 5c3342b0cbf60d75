public import Foundation
import ICalendar
import StreakExport
import Streaks

/// A streaming map step: calendars named one per line of JSON Lines in, one JSON Line per calendar
/// out, as each is done — what `streakcal batch --jsonl` runs, and what Spark's `RDD.pipe`, Hadoop
/// Streaming and GNU parallel expect of a program.
///
/// Each input line is a JSON object naming one calendar by `path` (a file, read where it is, and
/// only under one of ``roots``), giving its text in `ics`, or its bytes exactly as stored in
/// `icsBase64` (base64: for bytes that are not UTF-8, such as a Latin-1 or UTF-16 file read from
/// HDFS or S3), with an `id` (a string or a number) to find it by. A key given twice counts once,
/// the last:
///
/// ```json
/// {"id": "alice", "path": "calendars/alice.ics"}
/// {"id": 42, "ics": "BEGIN:VCALENDAR\r\n...END:VCALENDAR\r\n"}
/// {"id": "s3://bucket/bob.ics", "icsBase64": "QkVHSU46VkNBTEVOREFS..."}
/// {"id": "team", "url": "https://calendar.example.com/team.ics"}
/// ```
///
/// A `url` (an `https://`, `http://` or `webcal://` subscription, or a CalDAV calendar) is fetched
/// by ``fetcher`` (`StreakCalRemote` makes the command's), and only from a host its
/// ``CalendarFetcher/permittedHosts`` names: records come from elsewhere, and must not make the
/// batch ask hosts the user did not name (such as the machine's own services).
///
/// A calendar given as text or bytes is named by its `id` in diagnostics and in its report (so an
/// `id` that is the file's path gives the same report as the file).
///
/// Records come from elsewhere, so a `path` is read only if it resolves (links followed) inside one
/// of ``roots``, is a regular file (never a device, a named pipe or a socket, which could block or
/// never end), and starts as a calendar does (`BEGIN:`); otherwise its record says why, and no byte
/// of the file is shown (`ConfinedFiles`).
///
/// Each output line is one JSON object (keys sorted, no line breaks inside), for every input line
/// that is not blank:
///
/// ```json
/// {"currentStreak":{...},"days":10,"daysMet":3,"diagnostics":[...],"error":null,"id":"alice","line":1,
///  "longestStreak":{...},"name":"Piano","points":350,"report":"...","sessions":5}
/// ```
///
/// - `report` is the report in the batch's format, as a string: exactly the bytes `streakcal batch`
///   writes to the calendar's file (`null` when the calendar failed).
/// - `diagnostics` are what the import said (as in the report JSON), `error` why the calendar
///   failed (`null` if it did not): unreadable or refused, not JSON, no `id`, not exactly one of
///   `path`, `ics`, `icsBase64` and `url`, or, with `strict`, problems in the input.
/// - `line` is the input line's number (1-based), `id` its `id` as given (`null` when the line has
///   none), `name` the calendar's name (`X-WR-CALNAME`, else the file's or the id's), and the
///   figures those of `summary.json`.
///
/// A bad line is an error record for that line, never the end of the stream. Calendars are worked
/// on `jobs` at a time; lines come out in input order (``Order/input``) or as each calendar is done
/// (``Order/completion``, tagged by `id` and `line`). Memory holds at most ``window`` calendars in
/// flight (and ``bytesInFlight`` of their lines) and their reports, whatever the length of the stream.
///
/// ```swift
/// let batch = JSONLinesBatch(settings: ReportSettings(timeZone: "UTC"), format: .json, jobs: 2, roots: ["Fixtures"])
/// let tally = batch.run(lines: ["{\"id\": 1, \"path\": \"Fixtures/tutorial-sample.ics\"}"]) { line in
///     print(line.prefix(40))
/// }
/// print(tally.records, tally.failed)
/// // Prints "{"currentStreak":{"end":null,"length":0" and "1 0"
/// ```
public struct JSONLinesBatch: Sendable {
    /// The order output lines come in.
    public enum Order: String, Hashable, Sendable, CaseIterable {
        /// The order of the input lines: each line as soon as it and every line before it are done.
        case input
        /// As each calendar is done; lines carry `id` and `line` to match them with their inputs.
        case completion
    }

    /// What a run did: lines read, records written, and how many of them failed.
    public struct Tally: Hashable, Sendable {
        /// Records written, one per input line that is not blank.
        public var records = 0
        /// Records with an `error`.
        public var failed = 0
    }

    /// The report options every calendar is scored with.
    public var settings: ReportSettings
    /// The format of each record's `report`.
    public var format: ReportFormat
    /// How many calendars are worked on at once (at least 1).
    public var jobs: Int
    /// Whether a calendar with a warning or an error counts as failed (its report is still given).
    public var strict: Bool
    /// The order of the output lines.
    public var order: Order
    /// The instant "today" is taken from for every calendar, in seconds since 1970.
    public var now: Int64
    /// The folders whose files `path` records may name (`--root`), resolved when given; without
    /// any, `path` records are refused.
    public var roots: [String] {
        didSet { files = ConfinedFiles(roots: roots) }
    }
    /// How `path` records are opened: under ``roots`` only.
    private(set) var files: ConfinedFiles
    /// How `url` records are fetched (`StreakCalRemote`'s `CalendarFetcher.subscriptions(_:)` for the
    /// command); without one, or with one that names no ``CalendarFetcher/permittedHosts``
    /// (`--allow-host`), they are refused.
    public var fetcher: CalendarFetcher?

    public init(
        settings: ReportSettings = ReportSettings(), format: ReportFormat = .json,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, strict: Bool = false, order: Order = .input, now: Int64,
        roots: [String] = []
    ) {
        self.settings = settings
        self.format = format
        self.jobs = max(1, jobs)
        self.strict = strict
        self.order = order
        self.now = now
        self.roots = roots
        files = ConfinedFiles(roots: roots)
    }

    /// Why a `path` record is refused when no root is given.
    static let pathNeedsRoot = "a \"path\" is read only under a folder given with --root: pass --root DIR, or give the calendar's text as \"ics\" or its bytes as \"icsBase64\""

    /// Why a `url` record is refused when no host is allowed.
    static let urlNeedsHost = "a \"url\" is fetched only from a host given with --allow-host: pass --allow-host HOST"

    /// The most calendars read ahead of the oldest one not yet written: each worker's, and as many
    /// again waiting, so that workers never wait for input, and memory stays bounded.
    public var window: Int { max(8, 4 * jobs) }

    /// The most bytes of input lines in flight (512 MiB): a line that would go past it waits until
    /// the lines before it are written, and a longer line goes alone.
    public static let bytesInFlight = 512 << 20

    /// ``bytesInFlight``, for this batch (tests make it small).
    var byteBudget = JSONLinesBatch.bytesInFlight

    /// An `ics` text longer than this (1 MiB) is decoded into an unlinked temporary file, which the
    /// import reads a chunk at a time as it reads a file, rather than into memory.
    static let longestTextInMemory = 1 << 20

    /// ``longestTextInMemory``, for this batch (tests make it small).
    var textInMemoryLimit = JSONLinesBatch.longestTextInMemory

    /// Runs the batch over the JSON Lines of a file descriptor, read to its end (standard input,
    /// by default), writing each record with `emit` (without its line end; called one record at a
    /// time).
    ///
    /// - Throws: `CalendarReadError` when the input cannot be read; whatever `emit` throws, which
    ///   stops the run (the calendars in flight are finished, their records not written).
    package func run(reading descriptor: Int32 = STDIN_FILENO, emit: @escaping @Sendable (String) throws -> Void) throws -> Tally {
        var reader = LineReader(descriptor: descriptor)
        let (tally, readError) = try run(nextLine: { () throws(CalendarReadError) -> InputLine? in try reader.next() }, emit: emit)
        if let readError { throw readError }
        return tally
    }

    /// Runs the batch over lines already in memory, one JSON Lines record each, writing each
    /// answer with `emit` (without its line end; called one record at a time). `streakcal batch
    /// --jsonl` reads its standard input the same way.
    ///
    /// - Throws: whatever `emit` throws, which stops the run (the calendars in flight are
    ///   finished, their records not written); nothing else.
    public func run<Failure: Error>(lines: [String], emit: @escaping @Sendable (String) throws(Failure) -> Void) throws(Failure) -> Tally {
        var iterator = lines.makeIterator()
        // Lines in memory cannot fail to be read: the second value is always nil.
        return try run(nextLine: { () throws(CalendarReadError) -> InputLine? in iterator.next().map { .text(Array($0.utf8)) } }, emit: emit).tally
    }

    /// The longest input line kept (512 MiB): a longer one is read through without being kept and
    /// gets an error record, so that one line cannot take the memory of the machine. A calendar
    /// that large goes by `path`.
    public static let longestLine = 512 << 20

    /// An input line as the reader gives it.
    enum InputLine: Sendable {
        /// The line's bytes, without its end.
        case text([UInt8])
        /// A line longer than ``longestLine``, with its length in bytes.
        case tooLong(Int)

        /// The bytes the line holds in memory.
        var byteCount: Int {
            if case .text(let bytes) = self { bytes.count } else { 0 }
        }

        /// Whether the line is empty or white space only (as `Character.isWhitespace` tells).
        var isBlank: Bool {
            guard case .text(let bytes) = self else { return false }
            var isASCII = true
            for byte in bytes {
                switch byte {
                case 0x09...0x0D, 0x20: continue
                case 0x80...: isASCII = false
                default: return false
                }
            }
            return isASCII || String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
        }
    }

    /// The run itself: `nextLine` gives the input lines (`nil` at the end).
    ///
    /// The calling thread reads; `jobs` workers take the requests in order and hand each record to
    /// a writer, a serial queue that writes them in the batch's order, so that a worker goes on to
    /// its next calendar while its last record is written. The workers and the writer are started
    /// on Dispatch's pool for this run, and the run waits for all of them before it returns.
    ///
    /// Throws what `emit` threw; returns, beside the tally, why the input could not be read to its
    /// end, if it could not (the records of the lines read before are all written).
    func run<Failure: Error>(
        nextLine: () throws(CalendarReadError) -> InputLine?, emit: @escaping @Sendable (String) throws(Failure) -> Void
    ) throws(Failure) -> (tally: Tally, readError: CalendarReadError?) {
        let emitter = RecordEmitter(order: order, emit: emit)
        let queue = RequestQueue(window: window, byteBudget: byteBudget, workers: jobs)
        let workers = DispatchGroup()
        let writer = DispatchQueue(label: "streakcal.jsonl-writer")
        for _ in 0..<jobs {
            DispatchQueue.global().async(group: workers) {
                while var taken = queue.take() {
                    let record = self.record(taking: &taken.request)
                    let position = taken.position
                    writer.async(group: workers) { queue.release(emitter.finish(position, record: record)) }
                }
            }
        }
        var number = 0
        var readError: CalendarReadError?
        while !emitter.stopped {
            let line: InputLine?
            do {
                line = try nextLine()
            } catch {
                readError = error
                break
            }
            guard let line else { break }
            number += 1
            if line.isBlank { continue }
            queue.put(Request(line: line, number: number))
        }
        queue.close()
        workers.wait()
        if let failure = emitter.failure { throw failure }
        return (emitter.tally, readError)
    }

    /// One input line's record: the calendar read, scored and rendered, or why not.
    func record(for request: Request) -> Record {
        var request = request
        return record(taking: &request)
    }

    /// ``record(for:)``, letting go of the request's line as soon as its calendar is taken from it
    /// (before the calendar is read), so that a long line is not held while it is worked on.
    func record(taking request: inout Request) -> Record {
        var record = Record(line: request.number)
        let calendar = request.calendar(files: files, fetcher: fetcher, textInMemoryLimit: textInMemoryLimit)
        request.line = .tooLong(0)
        switch calendar {
        case .failure(let problem):
            record.id = problem.id
            record.errorCode = problem.code
            if let file = problem.file {
                record.name = ReportSource.name(ofFile: file)
                record.error = problem.reason
            } else {
                record.error = "line \(request.number): \(problem.reason)"
            }
        case .success(let (id, source, overrides)):
            record.id = id
            // The import opens the file by its descriptor's path: the descriptor stays open until it is done.
            withExtendedLifetime(source.file) { score(source.calendars, overrides: overrides, into: &record) }
        }
        return record
    }

    /// Reads, scores and renders a calendar into its record: ``BatchScoring``, as `batch` does.
    private func score(_ sources: [CalendarSource], overrides: CalendarOverrides, into record: inout Record) {
        let input = sources.first?.collection?.location ?? sources.first?.name ?? ""
        let scoring = BatchScoring(settings: settings, format: format, now: now, strict: strict)
        let outcome = scoring.score(sources, input: input, id: record.id?.fileName, overrides: overrides.isEmpty ? nil : overrides)
        record.name = outcome.result.name
        record.diagnostics = outcome.diagnostics
        record.report = outcome.report
        record.error = outcome.result.error
        record.errorCode = outcome.result.errorCode
        record.result = outcome.result
    }

    /// One output line's content.
    struct Record: Sendable {
        var line: Int
        var id: RecordID?
        var name: String?
        var report: String?
        var diagnostics: [Diagnostic] = []
        var error: String?
        var errorCode: CalendarReadError.Code?
        var result: BatchFileResult?

        init(line: Int) {
            self.line = line
        }

        /// The record as one line of JSON (keys sorted), without its line end.
        var json: String {
            var json = JSONWriter(layout: .compact)
            json.open("{")
            json.key("currentStreak", indent: 2, first: true)
            json.optional(result?.currentStreak) { $0.streak($1, indent: 2) }
            json.key("days", indent: 2)
            json.optional(result?.days) { $0.integer($1) }
            json.key("daysMet", indent: 2)
            json.optional(result?.daysMet) { $0.integer($1) }
            json.key("diagnostics", indent: 2)
            json.diagnostics(diagnostics, indent: 2)
            json.key("error", indent: 2)
            json.optional(error) { $0.string($1) }
            json.key("errorCode", indent: 2)
            json.optional(errorCode) { $0.string($1.rawValue) }
            json.key("id", indent: 2)
            switch id {
            case .string(let text)?: json.string(text)
            case .number(let text)?: json.number(text: text)
            case nil: json.null()
            }
            json.key("line", indent: 2)
            json.integer(line)
            json.key("longestStreak", indent: 2)
            json.optional(result?.longestStreak) { $0.streak($1, indent: 2) }
            json.key("name", indent: 2)
            json.optional(name) { $0.string($1) }
            json.key("points", indent: 2)
            json.optional(result?.points) { $0.integer($1) }
            json.key("report", indent: 2)
            json.optional(report) { $0.string($1) }
            json.key("sessions", indent: 2)
            json.optional(result?.sessions) { $0.integer($1) }
            json.key("unit", indent: 2)
            json.optional(result?.unit) { $0.string($1.rawValue) }
            json.key("zone", indent: 2)
            json.optional(result?.zone) { $0.string($1) }
            json.close("}", indent: 0, empty: false)
            return json.text
        }
    }
}
