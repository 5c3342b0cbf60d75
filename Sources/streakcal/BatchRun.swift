import ArgumentParser
import Foundation
import StreakCal
import StreakCalRemote

/// How `batch` writes to standard error: lines for people, or JSON Lines for a log collector.
enum LogFormat: String, CaseIterable, ExpressibleByArgument {
    case text, jsonl
}

/// `batch`'s notes, warnings, errors and progress on standard error, as `--log-format` says:
/// `streakcal: note: …` lines, or one JSON object a line (`{"level":"note","message":…}`, with
/// the event's own fields, keys sorted).
struct BatchLog: Sendable {
    var format: LogFormat

    func note(_ message: String, fields: [String: String] = [:]) { write("note", message, fields: fields) }
    func warning(_ message: String) { write("warning", message) }
    func error(_ message: String) { write("error", message) }

    /// A calendar that failed: a line of its own only in JSON Lines (the table says it for people).
    func failure(_ input: String, _ reason: String) {
        guard format == .jsonl else { return }
        write("error", "\(input): \(reason)", fields: ["event": "failed", "input": input, "reason": reason])
    }

    /// A progress line: in text, `streakcal: progress: 4182 of 20200 files (3 failed), 1210.5 files/s, 0:13 left`.
    func progress(_ progress: BatchProgress) {
        guard format == .jsonl else {
            var line = "\(progress.completed) of \(progress.total) files"
            if progress.failed > 0 { line += " (\(progress.failed) failed)" }
            if let rate = progress.filesPerSecond { line += String(format: ", %.1f files/s", rate) }
            if let left = progress.estimatedTimeRemaining { line += ", \(ProgressBar.clockTime(left)) left" }
            StandardError.print("streakcal: progress: " + line)
            return
        }
        var object: [String: Any] = [
            "level": "info", "event": "progress", "completed": progress.completed, "total": progress.total,
            "failed": progress.failed, "elapsedSeconds": (progress.elapsed / .milliseconds(100)).rounded() / 10,
        ]
        if let rate = progress.filesPerSecond { object["filesPerSecond"] = (rate * 10).rounded() / 10 }
        StandardError.print(Self.line(object))
    }

    private func write(_ level: String, _ message: String, fields: [String: String] = [:]) {
        guard format == .jsonl else {
            StandardError.print("streakcal: \(level): \(message)".escapingControlCharacters(keepingTabs: false))
            return
        }
        var object: [String: Any] = fields
        object["level"] = level
        object["message"] = message
        StandardError.print(Self.line(object))
    }

    /// One JSON object as a line: keys sorted, no spaces, every control character escaped.
    static func line(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Progress on standard error: the bar on a terminal, else (cron, CI, a log) a line every
/// ``interval`` — never the first or the last, so a short batch says nothing.
final class BatchProgressReporter: Sendable {
    private let log: BatchLog
    private let bar: ProgressBar?
    private let lastLine = Locked<ContinuousClock.Instant?>(nil)
    private let clock = ContinuousClock()
    /// How often a line goes out when standard error is not a terminal.
    static let interval = Duration.seconds(5)

    init(log: BatchLog, bar: Bool) {
        self.log = log
        self.bar = bar ? ProgressBar() : nil
    }

    func show(_ progress: BatchProgress) {
        if let bar {
            bar.show(progress)
            return
        }
        let now = clock.now
        let due = lastLine.withLock { last -> Bool in
            guard let previous = last else {
                last = now  // the start: the first line comes one interval later
                return false
            }
            guard now - previous >= Self.interval, progress.completed < progress.total else { return false }
            last = now
            return true
        }
        if due { log.progress(progress) }
    }

    /// Erases the bar, if there is one.
    func clear() { bar?.clear() }
}

/// SIGINT and SIGTERM during a batch: the first asks it to stop after the calendars in flight
/// (``BatchStop``), so that the summary is written, marked incomplete, and `--resume` can go on;
/// a second stops the process at once. The exit status is then 128 plus the signal's number
/// (130 for SIGINT, 143 for SIGTERM), as shells report a process a signal ended.
///
/// `sources` is set once, in `init`, and only kept alive after: the class is `@unchecked Sendable`
/// for the Dispatch sources, which are not `Sendable` themselves.
final class BatchSignals: @unchecked Sendable {
    let stop = BatchStop()
    private let sources: [any DispatchSourceSignal]
    private let received = Locked<Int32?>(nil)
    private let written = Locked(false)

    /// The signal that stopped the last batch, if one did.
    private static let stopping = Locked<Int32?>(nil)

    /// The exit status of a batch a signal stopped.
    static var exitStatus: Int32 { 128 + (stopping.withLock { $0 } ?? SIGINT) }

    /// Set once the summary is written: a signal after it ends the process as usual.
    var summaryWritten: Bool {
        get { written.withLock { $0 } }
        set { written.withLock { $0 = newValue } }
    }

    init(log: BatchLog) {
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            sources.append(source)
        }
        self.sources = sources
        for (source, signalNumber) in zip(sources, [SIGINT, SIGTERM]) {
            source.setEventHandler { [self] in self.received(signalNumber, log: log) }
            source.resume()
        }
    }

    private func received(_ signalNumber: Int32, log: BatchLog) {
        let first = received.withLock { received -> Bool in
            defer { if received == nil { received = signalNumber } }
            return received == nil
        }
        guard first, !summaryWritten else {
            // Again (or after the summary): stop now, as the signal would have.
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
            return
        }
        Self.stopping.withLock { $0 = signalNumber }
        stop.request()
        log.note("\(signalNumber == SIGINT ? "SIGINT" : "SIGTERM"): finishing the calendars in flight, then writing the summary (again to stop at once)")
    }
}

/// What `batch --dry-run` shows: each calendar, its report's name and its settings; nothing is read.
struct BatchPlan {
    var batch: BatchReport
    var addresses: [String]

    /// A table: INPUT, REPORT, SETTINGS (the zone, the goal, the points, the day start and the
    /// habits it will be scored with), then what is skipped and a line of totals.
    func table() -> String {
        var rows = [["INPUT", "REPORT", "SETTINGS"]]
        for input in batch.inputs {
            rows.append([
                input.name.escapingControlCharacters(keepingTabs: false), batch.outputFileName(of: input),
                describe(input.overrides?.applied(to: batch.settings) ?? batch.settings, own: input.overrides),
            ])
        }
        for address in addresses {
            rows.append([CalendarAddress.redacted(address).escapingControlCharacters(keepingTabs: false), "(fetched when run)", describe(batch.settings, own: nil)])
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = rows.map { row in
            zip(row, widths).enumerated().map { index, cell in index == 2 ? cell.0 : cell.0.padding(toLength: cell.1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n") + "\n"
        for skip in batch.skipped {
            text += "skipped \(skip.input): \(skip.reason)".escapingControlCharacters(keepingTabs: false) + "\n"
        }
        let count = batch.inputs.count + addresses.count
        text += "\(count) \(count == 1 ? "calendar" : "calendars"), \(batch.skipped.count) skipped; dry run: nothing read or written\n"
        return text
    }

    /// `tz=Europe/Berlin required=30 points=auto dayStart=00:00 habits=Piano,Run`, `*` after each
    /// setting the calendar's own row gives.
    private func describe(_ settings: ReportSettings, own: CalendarOverrides?) -> String {
        let ownKeys = Set((own?.summary ?? []).map(\.key))
        func mark(_ key: String) -> String { ownKeys.contains(key) ? "*" : "" }
        var parts = [
            "tz=\(settings.timeZone?.identifier ?? "(its own)")\(mark("tz"))",
            "required=\(settings.requiredPoints)\(mark("required"))",
            "points=\(Self.words(settings.pointsRule))\(mark("points"))",
            "dayStart=\(settings.dayStart)\(mark("dayStart"))",
        ]
        if !settings.habits.isEmpty { parts.append("habits=\(settings.habits.map(\.name).joined(separator: ","))\(mark("habits"))") }
        return parts.joined(separator: " ").escapingControlCharacters(keepingTabs: false)
    }

    private static func words(_ rule: PointsRule) -> String {
        switch rule {
        case .automatic: "auto"
        case .property: "x-points"
        case .minutes: "minutes"
        case .count: "count"
        }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
