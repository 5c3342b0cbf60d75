public import Foundation
import ICalendar
import StreakExport
import Streaks

/// A streaming map step: calendars named one per line of JSON Lines in, one JSON Line per calendar
/// out, as each is done — what `streakcal batch --jsonl` runs, and what Spark's `RDD.pipe`, Hadoop
/// Streaming and GNU parallel expect of a program.
///
/// Each input line is a JSON object naming one calendar by `path` (a file, read where it is),
/// giving its text in `ics`, or its bytes exactly as stored in `icsBase64` (base64: for bytes that
/// are not UTF-8, such as a Latin-1 or UTF-16 file read from HDFS or S3), with an `id` (a string
/// or a number) to find it by:
///
/// ```json
/// {"id": "alice", "path": "calendars/alice.ics"}
/// {"id": 42, "ics": "BEGIN:VCALENDAR\r\n...END:VCALENDAR\r\n"}
/// {"id": "s3://bucket/bob.ics", "icsBase64": "QkVHSU46VkNBTEVOREFS..."}
/// ```
///
/// A calendar given as text or bytes is named by its `id` in diagnostics and in its report (so an
/// `id` that is the file's path gives the same report as the file).
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
///   failed (`null` if it did not): unreadable, not JSON, no `id`, not exactly one of `path`, `ics`
///   and `icsBase64`, or, with `strict`, problems in the input.
/// - `line` is the input line's number (1-based), `id` its `id` as given (`null` when the line has
///   none), `name` the calendar's name (`X-WR-CALNAME`, else the file's or the id's), and the
///   figures those of `summary.json`.
///
/// A bad line is an error record for that line, never the end of the stream. Calendars are worked
/// on `jobs` at a time; lines come out in input order (``Order/input``) or as each calendar is done
/// (``Order/completion``, tagged by `id` and `line`). Memory holds at most ``window`` calendars in
/// flight and their reports, whatever the length of the stream.
///
/// ```swift
/// let batch = JSONLinesBatch(settings: ReportSettings(timeZone: "UTC"), format: .json, jobs: 2)
/// let tally = try batch.run(lines: ["{\"id\": 1, \"path\": \"Fixtures/tutorial-sample.ics\"}"]) { line in
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

    public init(
        settings: ReportSettings = ReportSettings(), format: ReportFormat = .json,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, strict: Bool = false, order: Order = .input, now: Int64? = nil
    ) {
        self.settings = settings
        self.format = format
        self.jobs = max(1, jobs)
        self.strict = strict
        self.order = order
        self.now = now ?? ReportSettings.now()
    }

    /// The most calendars read ahead of the oldest one not yet written: each worker's, and as many
    /// again waiting, so that workers never wait for input, and memory stays bounded.
    public var window: Int { max(8, 4 * jobs) }

    /// Runs the batch over the JSON Lines of a file descriptor, read to its end (standard input,
    /// by default), writing each record with `emit` (without its line end; called one record at a
    /// time).
    ///
    /// - Throws: `CalendarReadError` when the input cannot be read; whatever `emit` throws, which
    ///   stops the run (the calendars in flight are finished, their records not written).
    public func run(reading descriptor: Int32 = STDIN_FILENO, emit: @escaping @Sendable (String) throws -> Void) throws -> Tally {
        var reader = LineReader(descriptor: descriptor)
        return try run(nextLine: { () throws(CalendarReadError) -> InputLine? in try reader.next() }, emit: emit)
    }

    /// Runs the batch over lines already in memory (see ``run(reading:emit:)``).
    public func run(lines: [String], emit: @escaping @Sendable (String) throws -> Void) throws -> Tally {
        var iterator = lines.makeIterator()
        return try run(nextLine: { () throws(CalendarReadError) -> InputLine? in iterator.next().map(InputLine.text) }, emit: emit)
    }

    /// The longest input line kept (512 MiB): a longer one is read through without being kept and
    /// gets an error record, so that one line cannot take the memory of the machine. A calendar
    /// that large goes by `path`.
    public static let longestLine = 512 << 20

    /// An input line as the reader gives it.
    enum InputLine: Sendable {
        case text(String)
        /// A line longer than ``longestLine``, with its length in bytes.
        case tooLong(Int)
    }

    /// The run itself: `nextLine` gives the input lines (`nil` at the end).
    ///
    /// The calling thread reads; `jobs` workers, started on Dispatch's pool for this run and waited
    /// for before it returns, take the requests in order and hand their records to the emitter.
    func run(nextLine: () throws(CalendarReadError) -> InputLine?, emit: @escaping @Sendable (String) throws -> Void) throws -> Tally {
        let emitter = RecordEmitter(order: order, emit: emit)
        let queue = RequestQueue(window: window, workers: jobs)
        let workers = DispatchGroup()
        for _ in 0..<jobs {
            DispatchQueue.global().async(group: workers) {
                while let (position, request) = queue.take() {
                    queue.release(emitter.finish(position, record: self.record(for: request)))
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
            if case .text(let text) = line, !text.contains(where: { !$0.isWhitespace }) { continue }
            queue.put(Request(line: line, number: number))
        }
        queue.close()
        workers.wait()
        if let failure = emitter.failure { throw failure }
        if let readError { throw readError }
        return emitter.tally
    }

    /// One input line's record: the calendar read, scored and rendered, or why not.
    func record(for request: Request) -> Record {
        var record = Record(line: request.number)
        let source: CalendarSource
        switch request.parsed().flatMap({ parsed in request.source(parsed.calendar, id: parsed.id).map { (parsed.id, $0) } }) {
        case .failure(let problem):
            record.id = problem.id
            record.error = "line \(request.number): \(problem.reason)"
            return record
        case .success(let (id, calendar)):
            record.id = id
            source = calendar
        }
        var result = BatchFileResult(input: source.name)
        do {
            var settings = settings
            settings.isParallel = false
            let scored = try settings.scored([source], keepingSessions: format == .html, now: now)
            result.record(scored)
            record.name = scored.sources.first?.name ?? result.name
            record.diagnostics = scored.imported.diagnostics
            record.report = try format.render(scored, with: settings)
            let serious = result.diagnostics.errors + result.diagnostics.warnings
            if strict, serious > 0 {
                record.error = "\(serious) \(serious == 1 ? "problem" : "problems") in the input (strict)"
            }
        } catch {
            record.name = result.name
            record.error = String(describing: error)
        }
        record.result = result
        return record
    }

    /// One output line's content.
    struct Record: Sendable {
        var line: Int
        var id: RecordID?
        var name: String?
        var report: String?
        var diagnostics: [Diagnostic] = []
        var error: String?
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
            json.close("}", indent: 0, empty: false)
            return json.text
        }
    }
}

/// The requests read and not yet written: the reader puts them in while fewer than `window` are in
/// flight, workers take them in order, and each record written frees its place.
final class RequestQueue: Sendable {
    private struct State {
        var waiting: [(position: Int, request: JSONLinesBatch.Request)] = []
        var next = 0
        var inFlight = 0
        var isClosed = false
    }

    private let state = Locked(State())
    private let window: Int
    private let workers: Int
    /// Signalled once per request put and once per worker at the close: a worker waits here for work.
    private let work = DispatchSemaphore(value: 0)
    /// Signalled once per place freed: the reader waits here while the window is full.
    private let freed = DispatchSemaphore(value: 0)

    init(window: Int, workers: Int) {
        self.window = window
        self.workers = workers
    }

    /// Adds a request once fewer than `window` are in flight (waiting until then).
    func put(_ request: JSONLinesBatch.Request) {
        while !state.withLock({ state in
            guard state.inFlight < window else { return false }
            state.inFlight += 1
            state.waiting.append((state.next, request))
            state.next += 1
            return true
        }) {
            freed.wait()
        }
        work.signal()
    }

    /// The oldest request not taken, with its position in the stream; `nil` once the queue is closed
    /// and empty (waiting until one of them).
    func take() -> (position: Int, request: JSONLinesBatch.Request)? {
        while true {
            work.wait()
            let taken = state.withLock { state -> (position: Int, request: JSONLinesBatch.Request)?? in
                if !state.waiting.isEmpty { return state.waiting.removeFirst() }
                return state.isClosed ? .some(nil) : nil
            }
            if let taken { return taken }
        }
    }

    /// Frees the places of `count` records written (or dropped).
    func release(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.inFlight -= count }
        for _ in 0..<count { freed.signal() }
    }

    /// No more requests come: each worker gets `nil` once the rest are taken.
    func close() {
        state.withLock { $0.isClosed = true }
        for _ in 0..<workers { work.signal() }
    }
}

/// Writes records in the batch's order, one at a time.
final class RecordEmitter: Sendable {
    private struct State {
        var waiting: [Int: JSONLinesBatch.Record] = [:]
        var nextToWrite = 0
        var stopped = false
        var failure: (any Error)?
        var tally = JSONLinesBatch.Tally()
    }

    private let state = Locked(State())
    private let order: JSONLinesBatch.Order
    private let emit: @Sendable (String) throws -> Void

    init(order: JSONLinesBatch.Order, emit: @escaping @Sendable (String) throws -> Void) {
        self.order = order
        self.emit = emit
    }

    /// Whether a write failed: no more input is read.
    var stopped: Bool { state.withLock { $0.stopped } }

    /// What a write threw, if one failed.
    var failure: (any Error)? { state.withLock { $0.failure } }

    var tally: JSONLinesBatch.Tally { state.withLock { $0.tally } }

    /// Takes the record of input `position`; writes it, and any waiting for it, when their turn
    /// comes. Returns how many records were written (or dropped after a failed write).
    func finish(_ position: Int, record: JSONLinesBatch.Record) -> Int {
        state.withLock { state in
            switch order {
            case .completion:
                write(record, in: &state)
                return 1
            case .input:
                state.waiting[position] = record
                var written = 0
                while let next = state.waiting.removeValue(forKey: state.nextToWrite) {
                    write(next, in: &state)
                    state.nextToWrite += 1
                    written += 1
                }
                return written
            }
        }
    }

    /// Writes one record (under the lock); after a failure, records are dropped.
    private func write(_ record: JSONLinesBatch.Record, in state: inout State) {
        guard !state.stopped else { return }
        do {
            try emit(record.json)
            state.tally.records += 1
            if record.error != nil { state.tally.failed += 1 }
        } catch {
            state.failure = error
            state.stopped = true
        }
    }
}

/// Lines of a file descriptor, read a chunk at a time: LF or CRLF ends a line; a last line
/// without an end counts too. Lines are decoded as UTF-8 (invalid bytes become U+FFFD, which the
/// JSON reader then refuses with a record of its own). Each byte is looked at once, however long
/// the line; a line longer than `longest` is read through without being kept.
struct LineReader {
    private let descriptor: Int32
    private let longest: Int
    private var buffer: [UInt8] = []
    /// Where the current line starts in `buffer`, and how far it has been searched for its end.
    private var start = 0
    private var searched = 0
    /// Bytes of the current line already dropped because it is too long.
    private var dropped = 0
    private var atEnd = false

    init(descriptor: Int32, longest: Int = JSONLinesBatch.longestLine) {
        self.descriptor = descriptor
        self.longest = longest
    }

    mutating func next() throws(CalendarReadError) -> JSONLinesBatch.InputLine? {
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = finish(end: end)
                start = newline + 1
                searched = start
                return line
            }
            searched = buffer.count
            if atEnd {
                guard start < buffer.count || dropped > 0 else { return nil }
                let line = finish(end: buffer.count)
                start = buffer.count
                searched = start
                return line
            }
            // Keep only the current line; drop it too once it is too long.
            if start > 0 {
                buffer.removeSubrange(0..<start)
                searched -= start
                start = 0
            }
            if buffer.count > longest || dropped > 0 {
                dropped += buffer.count
                buffer.removeAll(keepingCapacity: true)
                searched = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CalendarReadError(path: descriptor == STDIN_FILENO ? "-" : "input", reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }

    /// The current line, ending at `end`: its text, or its length when it was too long.
    private mutating func finish(end: Int) -> JSONLinesBatch.InputLine {
        defer { dropped = 0 }
        let length = dropped + end - start
        guard dropped == 0, length <= longest else { return .tooLong(length) }
        return .text(String(decoding: buffer[start..<end], as: UTF8.self))
    }
}
