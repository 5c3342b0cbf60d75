import ArgumentParser
import Foundation
import StreakCal
import StreakCalRemote

extension StreakCalCommand {
    struct Batch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "batch",
            abstract: "Writes one report per calendar file into a folder, in parallel, and a summary.",
            discussion: """
                Folders are searched at any depth for *.ics files (any case), in sorted order; entries \
                that are not regular files (named pipes, sockets, devices) are skipped with a note and \
                listed in summary.json. A file named on its own is read whatever its extension or type \
                (a named pipe as a stream); a file found twice (a link) is read once. Each report is \
                named after its input's path relative to the folder given (folders joined with __; on a \
                clash, a hash of that path), and every file is written atomically. DIR also gets \
                summary.json (reports of earlier runs listed as stale; --clean removes them) and a \
                manifest for --resume; the table goes to standard output. A file that cannot be read, \
                or whose text is not iCalendar (empty, junk, a vCard), fails alone with its reason. \
                SIGINT or SIGTERM finishes the calendars in flight and writes the summary marked \
                incomplete. Exit status: 0 when every calendar is reported, 1 when some failed (once \
                all the others are done), 2 when nothing is usable (every one failed, or none was \
                found), 130 or 143 when stopped by SIGINT or SIGTERM. Problems with the input count \
                as diagnostics (failures with --strict; notes never are).

                With --jsonl, batch is a streaming map step instead (for Spark's RDD.pipe, Hadoop \
                Streaming, GNU parallel): it reads JSON Lines on standard input, each naming one \
                calendar ({"id": ..., "ics": TEXT}, {"id": ..., "icsBase64": BYTES}, {"id": ..., \
                "path": FILE} or {"id": ..., "url": ADDRESS}), and writes one JSON Line per input line as each calendar is done \
                ({"id", "line", "name", "report", "diagnostics", "error", and the figures of \
                summary.json}), in input order or, with --order completion, as they finish. A "path" \
                is read only under a folder given with --root (links resolved), only if it is a \
                regular file whose text is iCalendar, and is refused otherwise (as a folder's file or \
                "ics" bytes that are not iCalendar are: one rule for every way in); a "url" only from a \
                host given with --allow-host (redirects included). A bad line is an error \
                record, never the end of the stream; the exit status is 0 once every line has its record.
                """)

        @Argument(help: "iCalendar files and folders (searched at any depth for *.ics), and https://, http:// or webcal:// addresses (a CalDAV account gives a report per calendar); none with --jsonl.", completion: .file())
        var paths: [String] = []

        @Option(help: ArgumentHelp("The folder the reports and summary.json go to (created if need be); not with --jsonl.", valueName: "dir"),
                completion: .directory)
        var out: String?

        @Flag(help: "Read calendars named in JSON Lines on standard input and write a JSON Line per calendar to standard output.")
        var jsonl = false

        @Option(help: "With --jsonl: write the records in input order, or as each calendar is done (completion).")
        var order: JSONLinesBatch.Order = .input

        @Option(name: .customLong("root"), help: ArgumentHelp(
            "With --jsonl: a folder whose files \"path\" records may name (repeatable); without one, \"path\" records are refused.",
            valueName: "dir"), completion: .directory)
        var roots: [String] = []

        @Option(name: .customLong("allow-host"), help: ArgumentHelp(
            "With --jsonl: a host whose addresses \"url\" records may name (repeatable); without one, \"url\" records are refused.",
            valueName: "host"))
        var allowedHosts: [String] = []

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "How many files to work on at once, \(OptionRange.text(OptionRange.jobs)); no more than the processors run at once (default: the number of processors).",
            valueName: "n"))
        var jobs: Int?

        @Option(help: "Format of each report.")
        var format: ReportFormat = .text

        @OptionGroup var scoring: ScoringOptions

        @OptionGroup(title: "Streak rules") var streakRules: RulesOptions

        @OptionGroup var window: WindowOptions

        @Flag(help: "Count a file with any warning or error as failed (its report is still written).")
        var strict = false

        @Flag(help: "Leave elapsed times out of summary.json and the table, so the same inputs give the same bytes.")
        var noTimings = false

        @Option(help: ArgumentHelp(
            "A CSV (or JSON) file of settings per calendar: a header naming path and any of tz, required, points, dayStart, habits; paths relative to the folder given.",
            valueName: "file"), completion: .file())
        var settings: String?

        @Option(help: "What standard output gets: table (for people), csv or jsonl (a row per calendar as each is done, machine column names), json (summary.json).")
        var summaryFormat: SummaryFormat = .table

        @Flag(help: "Skip the calendars whose report in --out is complete and whose bytes and settings are unchanged (by the manifest an earlier run kept there); do the rest.")
        var resume = false

        @Flag(help: "Remove the reports in --out that no input of this run is named for (without, they are listed).")
        var clean = false

        @Flag(help: "List the inputs, their report names, what is skipped and each calendar's settings; read and write nothing.")
        var dryRun = false

        @Option(help: "How progress and problems go to standard error: text, or jsonl (one JSON object per line).")
        var logFormat: LogFormat = .text

        @OptionGroup var presentation: PresentationOptions

        @OptionGroup(title: "Addresses") var downloads: DownloadArguments

        @Option(help: "Month grids, or heatmaps (text, svg, html): auto (for windows longer than \(ReportView.longestMonthWindow) days, rolling when the window ends today, else year), month, year, rolling (the last \(ReportView.rollingWeeks) weeks), or hours (a 7 × 24 heatmap of the minutes by weekday and hour, which JSON gets as weekdayHours).")
        var view: ViewChoice = .auto

        func validate() throws {
            if let jobs { try OptionRange.check(jobs, OptionRange.jobs, option: "--jobs") }
            if jsonl {
                for (given, option) in [(settings != nil, "--settings"), (resume, "--resume"), (clean, "--clean"), (dryRun, "--dry-run"), (summaryFormat != .table, "--summary-format")] where given {
                    throw ValidationError("\(option) is for a batch over files and folders: with --jsonl, give a record's settings in its line (tz, required, points, dayStart, habits).")
                }
                guard paths.isEmpty else {
                    throw ValidationError("--jsonl reads the calendars named on standard input: give no paths (put them in the lines' \"path\").")
                }
                guard out == nil else { throw ValidationError("--jsonl writes its records to standard output: give no --out.") }
                for root in roots {
                    var isFolder: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
                        throw ValidationError("--root \(root.escapingControlCharacters()): not a folder.")
                    }
                }
                return
            }
            guard roots.isEmpty else { throw ValidationError("--root is for --jsonl's \"path\" records: give it with --jsonl.") }
            guard allowedHosts.isEmpty else { throw ValidationError("--allow-host is for --jsonl's \"url\" records: give it with --jsonl.") }
            guard !paths.isEmpty else { throw ValidationError("Name at least one iCalendar file or folder (or give --jsonl).") }
            guard !paths.contains("-") else { throw ValidationError("batch reads files and folders, not standard input (-); --jsonl reads JSON Lines there.") }
            guard let out, !out.isEmpty else { throw ValidationError("--out needs a folder.") }
        }

        func run() throws {
            try failing { jsonl ? try runJSONLines() : try runBatch() }
        }

        /// The report options, as every calendar is scored.
        private func reportSettings() throws -> ReportSettings {
            let (from, to) = try window.days(scoring)
            var settings = try scoring.settings(from: from, to: to, rules: streakRules, presentation: presentation)
            settings.view = view.view
            return settings
        }

        /// `--jsonl`: JSON Lines in, a JSON Line per calendar out.
        private func runJSONLines() throws {
            var batch = JSONLinesBatch(
                settings: try reportSettings(), format: format, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                strict: strict, order: order, now: startTime, roots: roots)
            var options = downloads.options
            (options.firstDay, options.lastDay) = (batch.settings.from, batch.settings.to)
            options.permittedHosts = Set(allowedHosts.map { $0.lowercased() })
            // Records are fetched on workers, several at once: one progress line would be many.
            options.progress = nil
            batch.fetcher = .subscriptions(options)
            _ = try batch.run { line in try StandardStream.output.write(line + "\n") }
        }

        /// The batch over the paths: files and folders walked, addresses fetched now (after the
        /// files, in the order given), a CalDAV server asked for the window's events; each
        /// calendar with its row of `--settings`, if any.
        private func batchReport(settings: ReportSettings, rows: BatchSettingsFile?, log: BatchLog) -> BatchReport {
            let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
            let addresses = paths.filter(CalendarAddress.isAddress)
            var options = downloads.options
            (options.firstDay, options.lastDay) = (settings.from, settings.to)
            let files = BatchInput.walk(paths.filter { !CalendarAddress.isAddress($0) }, reserving: [BatchReport.summaryFileName], fileExtension: format.fileExtension)
            let fetched = dryRun || addresses.isEmpty ? BatchDiscovery(inputs: [], skipped: []) : BatchInput.fetched(addresses, downloads: options)
            var inputs = files.inputs + fetched.inputs
            if let rows {
                for index in inputs.indices {
                    inputs[index].overrides = rows.overrides(relativePath: inputs[index].relativePath, name: inputs[index].name)
                }
                for row in rows.unmatched(relativePaths: inputs.map { $0.relativePath }, names: inputs.map { $0.name }) {
                    log.warning("\(rows.file):\(row.line): \(row.path) is no calendar of this batch (paths are relative to the folder given)")
                }
            }
            return BatchReport(
                inputs: inputs, skipped: files.skipped + fetched.skipped,
                settings: settings, format: format, jobs: jobs, strict: strict, recordsElapsedTime: !noTimings, now: startTime)
        }

        /// `--settings`, read and checked before any calendar is.
        private func settingsFile() throws -> BatchSettingsFile? {
            guard let settings else { return nil }
            do {
                return try BatchSettingsFile(contentsOf: settings)
            } catch {
                StandardError.print("streakcal: error: --settings: \(error.description)".escapingControlCharacters(keepingTabs: false))
                throw ExitCode.validationFailure
            }
        }

        private func runBatch() throws {
            let out = out ?? ""
            let settings = try reportSettings()
            let log = BatchLog(format: logFormat)
            let batch = batchReport(settings: settings, rows: try settingsFile(), log: log)
            for skip in batch.skipped {
                log.note("skipped \(skip.input): \(skip.reason)", fields: ["input": skip.input, "reason": skip.reason])
            }
            if batch.inputs.isEmpty {
                log.warning("no *.ics files in \(paths.joined(separator: ", "))")
            }
            if dryRun {
                try emit(BatchPlan(batch: batch, addresses: paths.filter(CalendarAddress.isAddress)).table(), to: nil)
                return
            }
            let summary = try write(batch, to: out, log: log)
            try finish(summary, log: log)
        }

        /// Runs the batch into `out`: rows to standard output as `--summary-format` says, progress
        /// to standard error, a stop on SIGINT or SIGTERM.
        private func write(_ batch: BatchReport, to out: String, log: BatchLog) throws -> BatchSummary {
            var options = BatchRunOptions()
            options.resume = resume
            options.clean = clean
            let signals = BatchSignals(log: log)
            options.stop = signals.stop
            let progress = BatchProgressReporter(log: log, bar: logFormat == .text && isatty(STDERR_FILENO) == 1)
            options.progress = { progress.show($0) }
            switch summaryFormat {
            case .csv:
                try StandardStream.output.write(BatchSummaryTable.csvHeader)
                options.rows = { try? StandardStream.output.write(BatchSummaryTable.csvLine($0)) }
            case .jsonl:
                options.rows = { try? StandardStream.output.write(BatchSummaryTable.jsonLine($0)) }
            case .table, .json: break
            }
            let rows = options.rows
            options.rows = { row in
                if let error = row.error { log.failure(row.input, error) }
                rows?(row)
            }
            defer { progress.clear() }
            do {
                let summary = try batch.write(to: out, options: options)
                signals.summaryWritten = true
                return summary
            } catch {
                throw CommandFailure(String(describing: error))
            }
        }

        /// The summary's table or JSON, what is stale, and the exit status.
        private func finish(_ summary: BatchSummary, log: BatchLog) throws {
            switch summaryFormat {
            case .table: try emit(summary.table(), to: nil)
            case .json: try emit(summary.json(), to: nil)
            case .csv, .jsonl: break
            }
            if !summary.stale.isEmpty {
                let list = summary.stale.prefix(5).joined(separator: ", ") + (summary.stale.count > 5 ? ", …" : "")
                log.note(summary.removedStale
                    ? "removed \(summary.stale.count) reports of earlier runs that no input of this one is named for: \(list)"
                    : "\(summary.stale.count) reports in \(out ?? "") are from earlier runs (no input of this one is named for them; --clean removes them): \(list)")
            }
            if !summary.isComplete {
                log.error("interrupted: \(summary.files.count) of \(summary.files.count + summary.remaining) calendars done; summary.json says \"complete\": false; run again with --resume to do the rest")
                throw ExitCode(BatchSignals.exitStatus)
            }
            // 0: every calendar reported; 1: some failed, the others reported; 2: nothing usable
            // (every one failed, or there was none), so that a job can tell the three apart.
            let failures = summary.failed.count
            if summary.files.isEmpty || failures == summary.files.count {
                if failures > 0 { log.error("every file failed (\(failures) of \(failures)): nothing usable") }
                throw ExitCode(2)
            }
            if failures > 0 {
                log.error("\(failures) of \(summary.files.count) \(summary.files.count == 1 ? "file" : "files") failed")
                throw ExitCode(1)
            }
        }

        /// What `--summary-format` writes on standard output.
        enum SummaryFormat: String, CaseIterable, ExpressibleByArgument {
            case table, csv, jsonl, json
        }
    }
}

/// A one-line progress bar on standard error: files done / total, rate and time left.
///
/// The batch calls it one call at a time; the lock only makes that visible to the compiler.
final class ProgressBar: Sendable {
    private let lastDrawn = Locked<ContinuousClock.Instant?>(nil)
    private let clock = ContinuousClock()
    static let width = 24

    /// Draws `progress`, at most ten times a second (always the first and the last time).
    func show(_ progress: BatchProgress) {
        let now = clock.now
        let due = lastDrawn.withLock { lastDrawn -> Bool in
            let finished = progress.completed == progress.total
            guard finished || lastDrawn.map({ now - $0 >= .milliseconds(100) }) ?? true else { return false }
            lastDrawn = now
            return true
        }
        guard due else { return }
        if progress.completed == progress.total {
            clear()
            return
        }
        let filled = progress.total == 0 ? 0 : Self.width * progress.completed / progress.total
        var line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled) + "]"
        line += " \(progress.completed)/\(progress.total) files"
        if progress.failed > 0 { line += ", \(progress.failed) failed" }
        if let rate = progress.filesPerSecond { line += String(format: "  %.1f files/s", rate) }
        if let left = progress.estimatedTimeRemaining { line += "  \(Self.clockTime(left)) left" }
        try? StandardStream.error.write("\r\u{1B}[K" + line)
    }

    /// Erases the bar.
    func clear() {
        try? StandardStream.error.write("\r\u{1B}[K")
    }

    /// "0:07", "12:30", "1:02:03".
    static func clockTime(_ duration: Duration) -> String {
        let total = max(0, Int(duration.components.seconds))
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let tail = String(format: "%02d", seconds)
        return hours > 0 ? "\(hours):" + String(format: "%02d", minutes) + ":" + tail : "\(minutes):" + tail
    }
}
