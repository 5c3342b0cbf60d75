import Foundation
import Testing

/// A folder of calendars for `streakcal batch`, removed when the test ends.
private final class BatchFolder {
    let root: URL

    /// `in/` holds nested calendars, a name clash with the summary, crafted names, a file that is
    /// not a calendar, and a link back to `in/` itself.
    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("batch-cli-\(UUID().uuidString)")
        let files = [
            "in/a/x.ics": "tutorial-sample.ics",
            "in/b/x.ics": "folding.ics",
            "in/b/deep/Bad.ICS": "bad-properties.ics",
            "in/..ics": "all-day-events.ics",
            "in/..\\..\\evil.ics": "encoding-utf8-bom.ics",
            "in/.hidden.ics": "line-endings-lf.ics",
            "in/summary.ics": "several-vcalendars.ics",
            "in/notes.txt": "folding.ics",
        ]
        for (path, name) in files {
            let target = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: fixture(name), toPath: target.path)
        }
        try FileManager.default.createSymbolicLink(atPath: path("in/b/deep/loop"), withDestinationPath: "../..")
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The files of a folder, sorted.
    func listing(_ relative: String) throws -> [String] {
        try batchOutputListing(path(relative))
    }

    func contents(_ relative: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relative))
    }
}

/// The report options every run uses: UTC days up to a fixed last day.
private let reportOptions = ["--tz", "UTC", "--to", "2024-12-31"]

@Suite("streakcal batch")
struct BatchCommandTests {
    @Test("Nested folders, a clash, crafted names and a missing file: every report, the failure recorded, exit status 1")
    func mixed() throws {
        let folder = try BatchFolder()
        let missing = folder.path("in/missing.ics")
        let result = try streakcal(["batch", folder.path("in"), missing, "--out", folder.path("out"), "--format", "json", "--jobs", "2"] + reportOptions)
        #expect(result.status == 1)
        #expect(result.standardError.contains("streakcal: error: 1 of 8 files failed"))
        #expect(!result.standardError.contains("\r"), "no progress bar without a terminal")

        let outputs = [
            "___.._evil", "_", "_hidden", "a__x", "b__deep__Bad", "b__x", "summary-" + stableNameHash("summary.ics"),
        ].map { $0 + ".json" }
        #expect(try folder.listing("out") == (outputs + ["summary.json"]).sorted())
        // Nothing was written beside the output folder, and nothing outside the root.
        #expect(try folder.listing("") == ["in", "out"])

        let summary = try jsonObject(String(decoding: try folder.contents("out/summary.json"), as: UTF8.self))
        let files = try #require(summary["files"] as? [[String: Any]])
        #expect(files.map { $0["input"] as? String } == [
            "in/..\\..\\evil.ics", "in/..ics", "in/.hidden.ics", "in/a/x.ics", "in/b/deep/Bad.ICS", "in/b/x.ics", "in/summary.ics", "in/missing.ics",
        ].map(folder.path))
        #expect(files.map { $0["output"] as? String } == outputs.map(Optional.some) + [nil])

        // Each report is what `streakcal report` prints for that file alone, and the summary's figures are its figures.
        for file in files.dropLast() {
            let input = try #require(file["input"] as? String)
            let output = try #require(file["output"] as? String)
            let single = try streakcal(["report", input, "--format", "json"] + reportOptions)
            #expect(String(decoding: try folder.contents("out/" + output), as: UTF8.self) == single.standardOutput, "\(input)")
            let report = try jsonObject(single.standardOutput)
            let totals = try #require(report["totals"] as? [String: Int])
            #expect(file["sessions"] as? Int == totals["sessions"], "\(input)")
            #expect(file["daysMet"] as? Int == totals["daysMet"], "\(input)")
            #expect(file["points"] as? Int == totals["points"], "\(input)")
            #expect((file["currentStreak"] as? [String: Any])?["length"] as? Int == (report["currentStreak"] as? [String: Any])?["length"] as? Int)
            #expect((file["longestStreak"] as? [String: Any])?["length"] as? Int == (report["longestStreak"] as? [String: Any])?["length"] as? Int)
            let severities = (report["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["severity"] as? String }
            #expect(file["diagnostics"] as? [String: Int] == [
                "errors": severities.filter { $0 == "error" }.count,
                "warnings": severities.filter { $0 == "warning" }.count,
                "notes": severities.filter { $0 == "note" }.count,
            ], "\(input)")
            #expect(file["error"] is NSNull)
            #expect(file["elapsedSeconds"] is Double)
        }
        // The figures themselves, for the files whose numbers the other tests know.
        #expect(files[3]["sessions"] as? Int == 5)
        #expect(files[3]["daysMet"] as? Int == 3)
        #expect((files[3]["longestStreak"] as? [String: Any])?["length"] as? Int == 2)
        #expect(files[4]["diagnostics"] as? [String: Int] == ["errors": 1, "warnings": 5, "notes": 0])

        let failure = try #require(files.last)
        #expect(failure["error"] as? String == "cannot read \(missing): no such file")
        #expect(failure["sessions"] is NSNull)
        #expect(failure["output"] is NSNull)
        let totals = try #require(summary["totals"] as? [String: Any])
        #expect(totals["files"] as? Int == 8)
        #expect(totals["failed"] as? Int == 1)
        #expect(totals["sessions"] as? Int == files.reduce(0) { $0 + ($1["sessions"] as? Int ?? 0) })
        #expect(totals["points"] as? Int == files.reduce(0) { $0 + ($1["points"] as? Int ?? 0) })
        #expect(totals["pointsByUnit"] as? [String: Int] == ["points": totals["points"] as? Int ?? -1])

        // The table: a header, one line per file in input order, the totals.
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 10)
        #expect(lines.first?.split(separator: " ") == ["FILE", "NAME", "SESSIONS", "DAYS", "MET", "CURRENT", "LONGEST", "DIAGNOSTICS", "ERROR"])
        #expect(lines[4].hasPrefix(folder.path("in/a/x.ics")))
        #expect(lines[4].hasSuffix("5         3        0        2  1 warning"))
        #expect(lines[8].hasSuffix("cannot read \(missing): no such file"))
        #expect(lines[9].hasPrefix("8 files, 1 failed, in "))
    }

    @Test("One worker or two: the same reports, summary and table, byte for byte")
    func deterministic() throws {
        let folder = try BatchFolder()
        var runs: [CommandResult] = []
        for jobs in ["1", "2"] {
            runs.append(try streakcal([
                "batch", folder.path("in"), fixture("tutorial-sample.ics"), fixture("recurring-weekly-across-dst.ics"),
                folder.path("in/gone.ics"), "--out", folder.path("out\(jobs)"), "--format", "svg", "--jobs", jobs, "--no-timings",
            ] + reportOptions))
        }
        #expect(runs.map(\.status) == [1, 1])
        #expect(runs[0].standardOutput == runs[1].standardOutput)
        #expect(runs[0].standardOutput.hasSuffix("10 files, 1 failed\n"))
        let names = try folder.listing("out1")
        #expect(names.count == 10)
        #expect(try folder.listing("out2") == names)
        for name in names {
            #expect(try folder.contents("out1/" + name) == folder.contents("out2/" + name), "\(name)")
        }
        let summary = String(decoding: try folder.contents("out1/summary.json"), as: UTF8.self)
        #expect(!summary.contains(#""elapsedSeconds" : 0"#))
        #expect(summary.contains(#""elapsedSeconds" : null"#))
    }

    @Test("All files good: exit status 0, reports complete, no temporary files", arguments: ["text", "csv", "md", "html"])
    func success(format: String) throws {
        let folder = try BatchFolder()
        let result = try streakcal(["batch", folder.path("in/a"), folder.path("in/b"), "--out", folder.path("out"), "--format", format] + reportOptions)
        #expect(result.status == 0)
        let ext = format == "text" ? "txt" : format
        // Each name is the path relative to the folder given: in/a/x.ics and in/b/x.ics are both
        // x.ics, and the second, its name taken, gets its own path's hash (issue 49.4).
        let clash = "x-" + stableNameHash(folder.path("in/b/x.ics"))
        #expect(try folder.listing("out") == ["deep__Bad.\(ext)", "summary.json", "\(clash).\(ext)", "x.\(ext)"])
        // Each report is whole: the same bytes `report` writes for the file (a CSV report with its id first).
        let single = try streakcal(["report", folder.path("in/a/x.ics"), "--format", format] + reportOptions)
        var expected = single.standardOutput
        if format == "csv" {
            expected = single.standardOutput.split(separator: "\r\n").enumerated()
                .map { ($0.offset == 0 ? "id," : "x.ics,") + $0.element }.joined(separator: "\r\n") + "\r\n"
        }
        #expect(String(decoding: try folder.contents("out/x.\(ext)"), as: UTF8.self) == expected)
    }

    @Test("--strict: files with problems fail, their reports are still written")
    func strict() throws {
        let folder = try BatchFolder()
        let result = try streakcal(["batch", folder.path("in/b"), "--out", folder.path("out"), "--strict"] + reportOptions)
        // Both failed: nothing usable, exit status 2 (issue 49.1); with a good file beside them, 1.
        #expect(result.status == 2)
        #expect(try folder.listing("out") == ["deep__Bad.txt", "summary.json", "x.txt"])
        #expect(result.standardOutput.contains("6 problems in the input (strict)"))
        #expect(result.standardError.contains("every file failed (2 of 2): nothing usable"))
        try FileManager.default.copyItem(atPath: fixture("habits.ics"), toPath: folder.path("in/b/good.ics"))
        let mixed = try streakcal(["batch", folder.path("in/b"), "--out", folder.path("out2"), "--strict", "--tz", "UTC", "--from", "2024-01-01", "--to", "2024-01-10"])
        #expect(mixed.status == 1, "\(mixed.standardOutput)")
        #expect(mixed.standardError.contains("2 of 3 files failed"))
    }

    @Test("Links planted in --out (repro batch-out-writes-through-symlink.sh): refused and left as they are, nothing outside written or created")
    func plantedLinks() throws {
        let folder = try BatchFolder()
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        try "precious\n".write(toFile: folder.path("victim.txt"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/x.csv"), withDestinationPath: "../victim.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/summary.json"), withDestinationPath: folder.path("created-outside.json"))
        let result = try streakcal(["batch", folder.path("in/a"), "--out", folder.path("out"), "--format", "csv"] + reportOptions)
        #expect(result.status == 1)
        #expect(result.standardError.contains("streakcal: error: cannot write \(folder.path("out/summary.json")): a symbolic link, not a regular file; it is left as it is"))
        #expect(try String(contentsOfFile: folder.path("victim.txt"), encoding: .utf8) == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("created-outside.json")))
        #expect(try folder.listing("out") == ["summary.json", "x.csv"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("out/x.csv")) == "../victim.txt")
        #expect(try folder.listing("") == ["in", "out", "victim.txt"])

        // Without the summary's link, the run ends: the report over a link fails alone.
        try FileManager.default.removeItem(atPath: folder.path("out/summary.json"))
        let second = try streakcal(["batch", folder.path("in/a"), folder.path("in/b"), "--out", folder.path("out"), "--format", "csv"] + reportOptions)
        #expect(second.status == 1)
        #expect(second.standardOutput.contains("cannot write \(folder.path("out/x.csv")): a symbolic link, not a regular file; it is left as it is"))
        #expect(second.standardError.contains("streakcal: error: 1 of 3 files failed"))
        #expect(try String(contentsOfFile: folder.path("victim.txt"), encoding: .utf8) == "precious\n")
    }

    @Test("Usage errors and an output folder that is a file")
    func errors() throws {
        let folder = try BatchFolder()
        for arguments in [["--jobs", "0"], ["--required", "0"], ["--from", "2024-03-01", "--to", "2024-02-01"], ["--day-start", "25:00"]] {
            let result = try streakcal(["batch", folder.path("in"), "--out", folder.path("out")] + arguments)
            #expect(result.status == 64, "\(arguments)")
        }
        #expect(try streakcal(["batch", "-", "--out", folder.path("out")]).status == 64)
        #expect(try streakcal(["batch", folder.path("in")]).status == 64)
        let blocked = try streakcal(["batch", folder.path("in/a"), "--out", folder.path("in/notes.txt")] + reportOptions)
        #expect(blocked.status == 1)
        #expect(blocked.standardError.contains("streakcal: error: cannot write \(folder.path("in/notes.txt")): not a folder"))
    }
}

@Suite("streakcal batch and named pipes")
struct BatchNamedPipeTests {
    /// A folder `in/` with the tutorial's calendar as `a.ics` and a named pipe `b.ics`, removed when the test ends.
    private final class PipeFolder {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("batch-fifo-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("in"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: fixture("tutorial-sample.ics"), toPath: path("in/a.ics"))
            #expect(mkfifo(path("in/b.ics"), 0o644) == 0)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

        func summary() throws -> [String: Any] {
            try jsonObject(String(decoding: try Data(contentsOf: root.appendingPathComponent("out/summary.json")), as: UTF8.self))
        }
    }

    @Test("A named pipe called *.ics in a folder (repro/batch-fifo.sh): skipped with a note, the batch ends promptly and reports the rest")
    func pipeInFolder() throws {
        let folder = try PipeFolder()
        let result = try streakcal(
            ["batch", folder.path("in"), "--out", folder.path("out"), "--no-timings", "--tz", "UTC", "--to", "2024-02-29"],
            timeLimit: .seconds(120))
        #expect(!result.timedOut, "batch still blocked on the named pipe after 120 s")
        #expect(result.status == 0)
        #expect(result.standardError.contains(
            "streakcal: note: skipped \(folder.path("in/b.ics")): a named pipe (FIFO), not a regular file\n"))
        #expect(result.standardOutput.hasSuffix("1 file, 0 failed, 1 skipped\n"))
        #expect(try batchOutputListing(folder.path("out")) == ["a.txt", "summary.json"])
        let summary = try folder.summary()
        let skipped = try #require(summary["skipped"] as? [[String: String]])
        #expect(skipped == [["input": folder.path("in/b.ics"), "reason": "a named pipe (FIFO), not a regular file"]])
        let files = try #require(summary["files"] as? [[String: Any]])
        #expect(files.map { $0["input"] as? String } == [folder.path("in/a.ics")])
        #expect(files.first?["sessions"] as? Int == 5)
    }

    @Test("A named pipe named on the command line is read as a stream, fed by a writer")
    func pipeArgument() throws {
        let folder = try PipeFolder()
        let pipe = folder.path("in/b.ics")
        let calendar = try Data(contentsOf: URL(fileURLWithPath: fixture("tutorial-sample.ics")))
        let written = DispatchSemaphore(value: 0)
        // Opening for writing waits for the reader: streakcal.
        Thread.detachNewThread {
            let descriptor = open(pipe, O_WRONLY)
            if descriptor >= 0 {
                calendar.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        if count <= 0 { break }
                        offset += count
                    }
                }
                close(descriptor)
            }
            written.signal()
        }
        let result = try streakcal(
            ["batch", pipe, "--out", folder.path("out"), "--no-timings", "--tz", "UTC", "--to", "2024-02-29"],
            timeLimit: .seconds(120))
        if written.wait(timeout: .now() + 120) == .timedOut {
            // streakcal never opened the pipe: open it for reading to release the writer, then fail.
            close(open(pipe, O_RDONLY | O_NONBLOCK))
            Issue.record("streakcal did not read the named pipe")
        }
        #expect(!result.timedOut)
        #expect(result.status == 0)
        #expect(!result.standardError.contains("skipped"))
        let files = try #require(try folder.summary()["files"] as? [[String: Any]])
        #expect(files.map { $0["input"] as? String } == [pipe])
        #expect(files.first?["sessions"] as? Int == 5)
        #expect(files.first?["daysMet"] as? Int == 3)
        #expect(files.first?["output"] as? String == "b.txt")
    }
}

@Suite("streakcal batch --jsonl")
struct BatchJSONLinesCommandTests {
    @Test("JSON Lines in, one record per line out, each report what batch writes into its folder")
    func records() throws {
        let folder = try BatchFolder()
        let files = ["in/a/x.ics", "in/b/x.ics", "in/b/deep/Bad.ICS"]
        let input = files.enumerated().map { "{\"id\": \($0.offset), \"path\": \"\(folder.path($0.element))\"}" }
            + ["oops", "{\"id\": \"inline\", \"ics\": \"BEGIN:VEVENT\\nUID:z\\nDTSTART:20240301T090000Z\\nX-POINTS:100\\nEND:VEVENT\"}"]
        let result = try streakcal(["batch", "--jsonl", "--root", folder.path("in"), "--format", "md", "--jobs", "2"] + reportOptions, input: input.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let records = try result.standardOutput.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(records.count == 5)
        #expect(records.map { $0["line"] as? Int } == [1, 2, 3, 4, 5])
        #expect((records[3]["error"] as? String)?.hasPrefix("line 4: not JSON") == true)
        #expect(records[4]["name"] as? String == "inline" && records[4]["sessions"] as? Int == 1)

        let written = try streakcal(["batch"] + files.map(folder.path) + ["--out", folder.path("out"), "--format", "md", "--no-timings"] + reportOptions)
        #expect(written.status == 0)
        // Files named on their own are named by their file names; the second x.ics by its path's hash too.
        for (index, name) in ["x.md", "x-\(stableNameHash(folder.path("in/b/x.ics"))).md", "Bad.md"].enumerated() {
            let expected = String(decoding: try folder.contents("out/" + name), as: UTF8.self)
            #expect(records[index]["report"] as? String == expected, "\(name)")
        }
    }

    @Test("--order completion gives every record once; bad combinations are usage errors", arguments: [
        (["batch", "--jsonl", "in.ics"], "give no paths"),
        (["batch", "--jsonl", "--out", "dir"], "give no --out"),
        (["batch", "in.ics"], "--out needs a folder"),
        (["batch", "--out", "dir"], "or give --jsonl"),
        (["batch", "--jsonl", "--order", "random"], "--order"),
    ])
    func usage(arguments: [String], message: String) throws {
        let result = try streakcal(arguments, input: "")
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test("An empty stream is no records and success; completion order tags every record")
    func emptyAndCompletion() throws {
        let empty = try streakcal(["batch", "--jsonl"], input: "")
        #expect(empty.status == 0 && empty.standardOutput.isEmpty)
        let lines = (1...12).map { "{\"id\": \($0), \"path\": \"\(fixture("tutorial-sample.ics"))\"}" }.joined(separator: "\r\n")
        let completion = try streakcal(["batch", "--jsonl", "--root", fixture(""), "--order", "completion", "--format", "csv"] + reportOptions, input: lines)
        let records = try completion.standardOutput.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(records.compactMap { $0["id"] as? Int }.sorted() == Array(1...12))
        // Each CSV report carries its record's id first; without it, they are one report.
        var reports: Set<String> = []
        for record in records {
            let id = try #require(record["id"] as? Int), report = try #require(record["report"] as? String)
            let lines = report.split(separator: "\r\n")
            #expect(lines.first == "id,date,points,sessions,status")
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("\(id),") }, "\(id)")
            reports.insert(lines.dropFirst().map { $0.drop { $0 != "," } }.joined(separator: "\n"))
        }
        #expect(reports.count == 1)
    }
}

@Suite("streakcal batch --jsonl: path records from elsewhere")
struct BatchJSONLinesPathTests {
    private let options = ["--tz", "UTC", "--from", "2024-01-01", "--to", "2024-01-01", "--format", "csv"]
    private let calendar = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101T090000Z\r\nX-POINTS:5\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    /// A folder holding `a.ics`, removed when `body` returns.
    private func withRoot<T>(_ body: (String) throws -> T) throws -> T {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("jsonl-root-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try calendar.write(toFile: root + "/a.ics", atomically: false, encoding: .utf8)
        return try body(root)
    }

    private func parsed(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { try jsonObject(String($0)) }
    }

    @Test("Devices, a named pipe and a link to a device (repro jsonl-path-device-hangs.sh): an error record each at once, the records after them not held back")
    func devices() throws {
        try withRoot { (root: String) throws -> Void in
            #expect(mkfifo(root + "/pipe.ics", 0o644) == 0)
            try FileManager.default.createSymbolicLink(atPath: root + "/zero.ics", withDestinationPath: "/dev/zero")
            let input = [("ok1", root + "/a.ics"), ("zero", "/dev/zero"), ("pipe", root + "/pipe.ics"), ("link", root + "/zero.ics"), ("ok2", root + "/a.ics")]
                .map { "{\"id\":\"\($0.0)\",\"path\":\"\($0.1)\"}" }.joined(separator: "\n")
            for roots in [[root], ["/", root]] {
                let result = try streakcal(["batch", "--jsonl"] + roots.flatMap { ["--root", $0] } + options, input: input, timeLimit: .seconds(120))
                #expect(!result.timedOut, "still reading a device or a pipe")
                #expect(result.status == 0)
                let records = try parsed(result.standardOutput)
                #expect(records.map { $0["id"] as? String } == ["ok1", "zero", "pipe", "link", "ok2"])
                let device = roots.count == 2 ? "a character device, not a regular file" : "outside the folders given with --root"
                #expect(records.map { $0["error"] as? String } == [
                    nil, "cannot read /dev/zero: \(device)", "cannot read \(root)/pipe.ics: a named pipe (FIFO), not a regular file",
                    "cannot read \(root)/zero.ics: \(device)", nil,
                ])
                #expect(records.map { $0["sessions"] as? Int } == [1, nil, nil, nil, 1])
            }
        }
    }

    @Test("Files outside the roots and files that are not calendars (repro jsonl-path-reads-any-file.sh): refused, nothing of them shown")
    func outsideAndNotCalendars() throws {
        try withRoot { (root: String) throws -> Void in
            try "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n".write(toFile: root + "/passwd.ics", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: root + "/environ.ics", withDestinationPath: "/proc/self/environ")
            let folderName = URL(fileURLWithPath: root).lastPathComponent
            let paths: [String] = ["/etc/passwd", "/proc/self/environ", root + "/../" + folderName + "/a.ics",
                                   root + "/../../etc/passwd", root + "/passwd.ics", root + "/environ.ics", "a.ics"]
            var lines: [String] = []
            for (index, path) in paths.enumerated() { lines.append("{\"id\":\(index),\"path\":\"\(path)\"}") }
            let input = lines.joined(separator: "\n")
            let result = try streakcal(["batch", "--jsonl", "--root", root] + options, input: input, environment: ["LEAK_ME": "hunter2"])
            #expect(result.status == 0)
            #expect(!result.standardOutput.contains("hunter2") && !result.standardOutput.contains("root:x") && !result.standardOutput.contains("sourceLine"))
            let records = try parsed(result.standardOutput)
            #expect(records.map { $0["error"] as? String } == [
                "cannot read /etc/passwd: outside the folders given with --root",
                "cannot read /proc/self/environ: outside the folders given with --root",
                nil,
                "cannot read \(root)/../../etc/passwd: outside the folders given with --root",
                "cannot read \(root)/passwd.ics: not an iCalendar file (its text does not start with BEGIN:)",
                "cannot read \(root)/environ.ics: outside the folders given with --root",
                "cannot read a.ics: outside the folders given with --root",
            ])
            #expect(records.allSatisfy { ($0["diagnostics"] as? [Any])?.isEmpty == true })
            // A relative path is read from the current folder: inside the root when that is the root.
            let relative = try run("/bin/sh", ["-c", "cd \"$0\" && \"$1\" batch --jsonl --root . --tz UTC --from 2024-01-01 --to 2024-01-01 --format csv", root, try streakcalPath()],
                                   input: "{\"id\":1,\"path\":\"a.ics\"}\n")
            #expect(try parsed(relative.standardOutput).first?["sessions"] as? Int == 1)
        }
    }

    @Test("Without --root a path record says to pass it; --root must be a folder, and only with --jsonl")
    func rootOption() throws {
        try withRoot { (root: String) throws -> Void in
            let record = "{\"id\":1,\"path\":\"\(root)/a.ics\"}\n{\"id\":2,\"ics\":\"\(calendar.replacingOccurrences(of: "\r\n", with: "\\r\\n"))\"}\n"
            let without = try streakcal(["batch", "--jsonl"] + options, input: record)
            #expect(without.status == 0)
            let records = try parsed(without.standardOutput)
            #expect((records[0]["error"] as? String)?.hasPrefix("line 1: a \"path\" is read only under a folder given with --root: pass --root DIR") == true)
            #expect(records[1]["sessions"] as? Int == 1)
            for (arguments, message) in [
                (["--jsonl", "--root", root + "/missing"], "--root \(root)/missing: not a folder."),
                (["--jsonl", "--root", root + "/a.ics"], "--root \(root)/a.ics: not a folder."),
                (["--jsonl", "--root", "x\u{1B}[2J"], "--root x\\u{1B}[2J: not a folder."),
                ([root, "--out", root + "/out", "--root", root], "--root is for --jsonl's \"path\" records"),
            ] {
                let result = try streakcal(["batch"] + arguments, input: "")
                #expect(result.status == 64, "\(arguments)")
                #expect(result.standardError.contains(message), "\(result.standardError)")
            }
            let help = try streakcal(["batch", "--help"])
            #expect(help.standardOutput.contains("--root <dir>"))
        }
    }
}

@Suite("streakcal batch --jsonl: memory")
struct BatchJSONLinesMemoryTests {
    /// GNU time, which reports a child's peak resident memory (`-f %M`). The kernel's figure for a
    /// child the test process starts itself would count the test process's own memory too, as the
    /// child shares it until it runs `streakcal`.
    private static let time = "/usr/bin/time"

    @Test("An inline ics record is held at no more than twice its size (repro jsonl-inline-record-memory.sh: 5 times before)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: time), "needs GNU time at /usr/bin/time"))
    func inlineRecord() throws {
        let size = 96 << 20
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-record-\(UUID().uuidString).jsonl").path
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".out")
        }
        var lines = Data(#"{"id":"big","ics":"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101T090000Z\r\nX-POINTS:100\r\nDESCRIPTION:"#.utf8)
        lines.append(Data(repeating: UInt8(ascii: "A"), count: size))
        lines.append(Data(#"\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"}"#.utf8 + [0x0A]))
        try lines.write(to: URL(fileURLWithPath: path))
        let options = ["batch", "--jsonl", "--tz", "UTC", "--from", "2024-01-01", "--to", "2024-01-01", "--format", "csv"]
        let result = try run("/bin/sh", ["-c", "exec \(Self.time) -f %M \"$0\" \"$@\" < '\(path)' > '\(path).out'", try streakcalPath()] + options)
        #expect(result.status == 0)
        let kilobytes = try #require(result.standardError.split(separator: "\n").last.flatMap { Int($0) })
        #expect(kilobytes * 1024 <= 2 * size, "peak \(kilobytes >> 10) MiB for a record of \(size >> 20) MiB")
        // The record itself: the calendar read, its one session counted.
        let record = try jsonObject(try String(contentsOfFile: path + ".out", encoding: .utf8))
        #expect(record["id"] as? String == "big" && record["sessions"] as? Int == 1 && record["error"] is NSNull)
    }
}
