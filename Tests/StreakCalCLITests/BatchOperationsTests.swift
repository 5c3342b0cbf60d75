import Foundation
import Testing

/// Batch as data engineers run it (issue 49): names from each input's own path, stale reports,
/// a summary table for machines, settings per calendar, dry runs, logs, and runs that are stopped
/// and resumed.
@Suite("streakcal batch: operating it")
struct BatchOperationsTests {
    /// The report options every run uses: UTC days up to a fixed last day.
    private static let window = ["--tz", "UTC", "--to", "2024-12-31", "--no-timings"]

    /// `cals/` with `team/alice.ics`, `team/Alice.ICS`, `bob.ics` and `x.txt` (not a calendar name).
    private static func calendars(in folder: URL) throws -> String {
        let files = ["cals/team/alice.ics": "tutorial-sample.ics", "cals/team/Alice.ICS": "folding.ics", "cals/bob.ics": "all-day-events.ics"]
        for (path, name) in files {
            let target = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: fixture(name), toPath: target.path)
        }
        return folder.appendingPathComponent("cals").path
    }

    @Test("A report's name is its own path's: the same over the folder and over a subfolder given; a clash gets its path's hash")
    func namesFromOwnPath() throws {
        try withTemporaryFolder("batch-names") { folder in
            let cals = try Self.calendars(in: folder)
            let out = folder.appendingPathComponent("out").path
            let whole = try streakcal(["batch", cals, "--out", out] + Self.window)
            #expect(whole.status == 0, "\(whole.standardError)")
            let clash = "team__Alice-" + stableNameHash("team/Alice.ICS")
            #expect(try batchOutputListing(out) == ["bob.txt", "summary.json", clash + ".txt", "team__alice.txt"])
            // Without Alice.ICS the other keeps its name: alice.ics spells its name exactly.
            try FileManager.default.removeItem(atPath: cals + "/team/Alice.ICS")
            let alone = try streakcal(["batch", cals, "--out", folder.appendingPathComponent("out2").path] + Self.window)
            #expect(try batchOutputListing(folder.appendingPathComponent("out2").path) == ["bob.txt", "summary.json", "team__alice.txt"])
            #expect(alone.status == 0)
        }
    }

    @Test("Reports of earlier runs in --out are listed (summary.json's stale), and removed with --clean; nothing else is")
    func staleReports() throws {
        try withTemporaryFolder("batch-stale") { folder in
            let cals = try Self.calendars(in: folder)
            let out = folder.appendingPathComponent("out").path
            _ = try streakcal(["batch", cals, "--out", out] + Self.window)
            try "notes\n".write(toFile: out + "/notes.md.bak", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: out + "/link.txt", withDestinationPath: cals + "/bob.ics")
            // The subfolder alone: its report is named by its path below the subfolder.
            let sub = try streakcal(["batch", cals + "/team", "--out", out] + Self.window)
            #expect(sub.status == 0)
            let stale = ["bob.txt", "team__Alice-" + stableNameHash("team/Alice.ICS") + ".txt", "team__alice.txt"]
            #expect(sub.standardError.contains("3 reports in \(out) are from earlier runs"), "\(sub.standardError)")
            let summary = try jsonObject(try String(contentsOfFile: out + "/summary.json", encoding: .utf8))
            #expect(summary["stale"] as? [String] == stale)
            #expect(summary["staleRemoved"] as? Bool == false)
            #expect(try batchOutputListing(out).contains("bob.txt"))

            let cleaned = try streakcal(["batch", cals + "/team", "--out", out, "--clean"] + Self.window)
            #expect(cleaned.status == 0)
            #expect(cleaned.standardError.contains("removed 3 reports of earlier runs"), "\(cleaned.standardError)")
            // Not a report's extension, a link and the run's own reports stay.
            #expect(try batchOutputListing(out) == [
                "Alice-" + stableNameHash("Alice.ICS") + ".txt", "alice.txt", "link.txt", "notes.md.bak", "summary.json",
            ])
            #expect(FileManager.default.fileExists(atPath: cals + "/bob.ics"))
        }
    }

    @Test("A hard link or a second link to a file found is listed under skipped with the file it repeats")
    func linkedDuplicates() throws {
        try withTemporaryFolder("batch-links") { folder in
            let cals = try Self.calendars(in: folder)
            try FileManager.default.linkItem(atPath: cals + "/bob.ics", toPath: cals + "/zz-bob-again.ics")
            let out = folder.appendingPathComponent("out").path
            let result = try streakcal(["batch", cals, "--out", out] + Self.window)
            #expect(result.status == 0)
            let reason = "the same file as \(cals)/bob.ics (a link), read once"
            #expect(result.standardError.contains("streakcal: note: skipped \(cals)/zz-bob-again.ics: \(reason)"))
            let summary = try jsonObject(try String(contentsOfFile: out + "/summary.json", encoding: .utf8))
            #expect(summary["skipped"] as? [[String: String]] == [["input": cals + "/zz-bob-again.ics", "reason": reason]])
        }
    }

    @Test("--summary-format csv and jsonl: a row per calendar with machine column names, the figures of summary.json")
    func summaryTable() throws {
        try withTemporaryFolder("batch-table") { folder in
            let cals = try Self.calendars(in: folder)
            try Data("junk".utf8).write(to: URL(fileURLWithPath: cals + "/junk.ics"))
            let csv = try streakcal(["batch", cals, "--out", folder.appendingPathComponent("a").path, "--summary-format", "csv", "--format", "csv"] + Self.window)
            #expect(csv.status == 1)
            let lines = csv.standardOutput.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "id,input,name,unit,zone,sessions,points,daysMet,currentStreak,longestStreak,warnings,errors,error,errorCode")
            #expect(lines.count == 5)
            #expect(lines[1] == "bob.ics,\(cals)/bob.ics,bob,points,UTC,3,220,1,0,1,0,0,,")
            #expect(lines[2].hasPrefix("junk.ics,\(cals)/junk.ics,junk,,,,,,,,,,cannot read "))
            #expect(lines[2].hasSuffix(",not-a-calendar"))
            // The per-day CSV report carries the same id first.
            let report = try String(contentsOfFile: folder.appendingPathComponent("a/bob.csv").path, encoding: .utf8)
            #expect(report.hasPrefix("id,date,points,sessions,status\r\nbob.ics,"))

            let jsonl = try streakcal(["batch", cals, "--out", folder.appendingPathComponent("b").path, "--summary-format", "jsonl"] + Self.window)
            let rows = try jsonl.standardOutput.split(separator: "\n").map { try jsonObject(String($0)) }
            let summary = try jsonObject(try String(contentsOfFile: folder.appendingPathComponent("b/summary.json").path, encoding: .utf8))
            let files = try #require(summary["files"] as? [[String: Any]])
            #expect(rows.count == files.count)
            for (row, file) in zip(rows, files) {
                #expect(Set(row.keys) == ["id", "input", "name", "unit", "zone", "sessions", "points", "daysMet", "currentStreak", "longestStreak", "warnings", "errors", "error", "errorCode"])
                for key in ["id", "input", "name", "unit", "zone", "sessions", "points", "daysMet", "error", "errorCode"] {
                    #expect("\(row[key] ?? "")" == "\(file[key] ?? "")", "\(key)")
                }
                #expect(row["currentStreak"] as? Int == (file["currentStreak"] as? [String: Any])?["length"] as? Int)
            }
            let json = try streakcal(["batch", cals, "--out", folder.appendingPathComponent("c").path, "--summary-format", "json"] + Self.window)
            #expect(json.standardOutput == (try String(contentsOfFile: folder.appendingPathComponent("c/summary.json").path, encoding: .utf8)))
        }
    }

    @Test("--settings: a zone, a goal and points per calendar by its path; a bad value names the file and line; an unknown path is a warning")
    func settingsFile() throws {
        try withTemporaryFolder("batch-settings") { folder in
            let cals = try Self.calendars(in: folder)
            let settings = folder.appendingPathComponent("people.csv").path
            try "path,tz,required,points\r\nteam/alice.ics,Pacific/Kiritimati,30,count\r\n\"bob.ics\",,50,\r\nnobody.ics,UTC,,\r\n"
                .write(toFile: settings, atomically: false, encoding: .utf8)
            let out = folder.appendingPathComponent("out").path
            let options = ["--to", "2024-12-31", "--no-timings", "--summary-format", "jsonl", "--settings", settings]
            let result = try streakcal(["batch", cals, "--out", out] + options)
            #expect(result.standardError.contains("streakcal: warning: \(settings):4: nobody.ics is no calendar of this batch"))
            let rows = try result.standardOutput.split(separator: "\n").map { try jsonObject(String($0)) }
            let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0) })
            #expect(byID["team/alice.ics"]?["zone"] as? String == "Pacific/Kiritimati")
            #expect(byID["team/alice.ics"]?["unit"] as? String == "sessions")
            #expect(byID["team/alice.ics"]?["points"] as? Int == 5)
            let bobJSON = try streakcal(["batch", cals + "/bob.ics", "--out", folder.appendingPathComponent("bob").path, "--format", "json"] + options)
            #expect(bobJSON.status == 0)
            let report = try jsonObject(try String(contentsOfFile: folder.appendingPathComponent("bob/bob.json").path, encoding: .utf8))
            #expect(report["requiredPoints"] as? Int == 50, "a file named on its own is matched by its file name")

            for (text, message) in [
                ("path,tz\nteam/alice.ics,Mars/Olympus\n", "\(settings):2: \"tz\": unknown time zone 'Mars/Olympus'"),
                ("path,required\nbob.ics,0\n", "\(settings):2: \"required\": '0' is not a whole number from 1 to 1000000000"),
                ("path,colour\nbob.ics,red\n", "\(settings):1: 'colour' is not a setting"),
                ("path,dayStart\nbob.ics,25:00\nbob.ics,04:00\n", "\(settings):2: \"dayStart\": '25:00' is not a time HH:MM"),
                ("path,points\nbob.ics,auto\n./bob.ics,count\n", "\(settings):3: ./bob.ics is given twice (first on line 2)"),
                ("[{\"path\": \"bob.ics\", \"habits\": [\"Piano=\"]}]", "\(settings):1: element 1: \"habits\": 'Piano='"),
            ] {
                try text.write(toFile: settings, atomically: false, encoding: .utf8)
                let refused = try streakcal(["batch", cals, "--out", folder.appendingPathComponent("refused").path] + options)
                #expect(refused.status == 64, "\(text)")
                #expect(refused.standardError.contains("streakcal: error: --settings: " + message), "\(refused.standardError)")
                #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refused").path), "nothing is read or written")
            }
            try #"[{"path": "team/alice.ics", "tz": "Asia/Tokyo", "required": 20, "habits": ["Piano=summary:piano"]}]"#
                .write(toFile: settings, atomically: false, encoding: .utf8)
            let json = try streakcal(["batch", cals, "--out", folder.appendingPathComponent("json").path] + options)
            let alice = try json.standardOutput.split(separator: "\n").map { try jsonObject(String($0)) }.first { $0["id"] as? String == "team/alice.ics" }
            #expect(alice?["zone"] as? String == "Asia/Tokyo")
        }
    }

    @Test("JSON Lines records take the same settings as keys of their own")
    func recordSettings() throws {
        let path = fixture("tutorial-sample.ics")
        let lines = [
            #"{"id": "a", "path": "\#(path)", "tz": "Europe/Berlin", "required": 30, "points": "count", "dayStart": "04:00"}"#,
            #"{"id": "b", "path": "\#(path)", "tz": "Mars/Olympus"}"#,
            #"{"id": "c", "path": "\#(path)", "habits": ["Piano=summary:piano"], "required": null}"#,
            #"{"id": "d", "path": "\#(path)", "required": "many"}"#,
        ]
        let result = try streakcal(["batch", "--jsonl", "--root", fixture(""), "--tz", "UTC", "--to", "2024-12-31", "--format", "json"], input: lines.joined(separator: "\n"))
        let records = try result.standardOutput.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(records.count == 4)
        #expect(records[0]["zone"] as? String == "Europe/Berlin" && records[0]["unit"] as? String == "sessions")
        let report = try jsonObject(try #require(records[0]["report"] as? String))
        #expect(report["requiredPoints"] as? Int == 30 && report["dayStart"] as? String == "04:00")
        #expect(records[1]["error"] as? String == "line 2: \"tz\": unknown time zone 'Mars/Olympus'; use an IANA name such as Europe/Berlin")
        #expect(records[2]["zone"] as? String == "UTC")
        #expect(((try jsonObject(try #require(records[2]["report"] as? String)))["habits"] as? [Any])?.count == 1)
        #expect(records[3]["error"] as? String == "line 4: \"required\": 'many' is not a whole number from 1 to 1000000000")
    }

    @Test("--dry-run lists each calendar's report name and settings and what is skipped; nothing is written")
    func dryRun() throws {
        try withTemporaryFolder("batch-dry") { folder in
            let cals = try Self.calendars(in: folder)
            try FileManager.default.linkItem(atPath: cals + "/bob.ics", toPath: cals + "/zz.ics")
            let settings = folder.appendingPathComponent("s.csv").path
            try "path,tz\nbob.ics,Asia/Tokyo\n".write(toFile: settings, atomically: false, encoding: .utf8)
            let out = folder.appendingPathComponent("out").path
            let result = try streakcal(["batch", cals, "--out", out, "--dry-run", "--settings", settings, "--required", "45"])
            #expect(result.status == 0, "\(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["INPUT", "REPORT", "SETTINGS"])
            #expect(lines.contains { $0.hasPrefix(cals + "/bob.ics") && $0.contains("bob.txt") && $0.hasSuffix("tz=Asia/Tokyo* required=45 points=auto dayStart=00:00") })
            #expect(lines.contains { $0.hasPrefix(cals + "/team/alice.ics") && $0.contains("team__alice.txt") && $0.contains("tz=(its own)") })
            #expect(lines.contains("skipped \(cals)/zz.ics: the same file as \(cals)/bob.ics (a link), read once"))
            #expect(lines.last == "3 calendars, 1 skipped; dry run: nothing read or written")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test("--log-format jsonl: notes, failures and the end as JSON objects, one a line")
    func jsonLog() throws {
        try withTemporaryFolder("batch-log") { folder in
            let cals = try Self.calendars(in: folder)
            try Data("junk".utf8).write(to: URL(fileURLWithPath: cals + "/junk.ics"))
            let result = try streakcal(["batch", cals, "--out", folder.appendingPathComponent("out").path, "--log-format", "jsonl"] + Self.window)
            #expect(result.status == 1)
            let events = try result.standardError.split(separator: "\n").map { try jsonObject(String($0)) }
            #expect(events.contains { $0["event"] as? String == "failed" && $0["input"] as? String == cals + "/junk.ics" && ($0["reason"] as? String)?.contains("not an iCalendar file") == true })
            #expect(events.last?["level"] as? String == "error" && events.last?["message"] as? String == "1 of 4 files failed")
        }
    }

    @Test("--strict fails a calendar on warnings and errors about its input, never on a note about the report's window", arguments: [false, true])
    func strictNotes(strict: Bool) throws {
        try withTemporaryFolder("batch-strict") { folder in
            // Sessions back to year 1, before a ten-year window: a note.
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:00010101T090000Z\r\nX-POINTS:1\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTART:20240101T090000Z\r\nX-POINTS:100\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            try text.write(toFile: folder.appendingPathComponent("old.ics").path, atomically: false, encoding: .utf8)
            let result = try streakcal(["batch", folder.appendingPathComponent("old.ics").path, "--out", folder.appendingPathComponent("out").path] + Self.window + (strict ? ["--strict"] : []))
            #expect(result.status == 0, "\(result.standardOutput)")
            #expect(result.standardOutput.contains("1 note"))
        }
    }

    /// Runs `batch --jobs 1` over a calendar, a named pipe and two more; once the batch has the pipe
    /// open (the test's own open for writing returns), sends `signal`, waits past a progress
    /// interval, then feeds the pipe. The pipe's calendar was in flight: it is finished; the two
    /// after it are not started.
    @Test("SIGINT or SIGTERM: the calendar in flight is finished, the summary marked incomplete, exit 128 + signal; --resume does the rest", arguments: [SIGINT, SIGTERM])
    func interruptedAndResumed(signalNumber: Int32) throws {
        try withTemporaryFolder("batch-stop") { folder in
            let input = folder.appendingPathComponent("in")
            try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
            for name in ["a", "c", "d"] {
                try FileManager.default.copyItem(atPath: fixture("tutorial-sample.ics"), toPath: input.appendingPathComponent("\(name).ics").path)
            }
            let pipe = input.appendingPathComponent("b.ics").path
            #expect(mkfifo(pipe, 0o600) == 0)
            let out = folder.appendingPathComponent("out").path
            let paths = ["a", "b", "c", "d"].map { input.appendingPathComponent("\($0).ics").path }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try streakcalPath())
            process.arguments = ["batch"] + paths + ["--out", out, "--jobs", "1"] + Self.window
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // Never left waiting: the batch is stopped after two minutes whatever happens.
            DispatchQueue.global().asyncAfter(deadline: .now() + 120) { if process.isRunning { process.terminate() } }
            // Opens once the batch reads the pipe (a.ics is done); without waiting, so that a batch
            // that never gets there fails the test rather than hangs it.
            var writer: Int32 = -1
            let deadline = Date().addingTimeInterval(60)
            while writer < 0, Date() < deadline, process.isRunning {
                writer = open(pipe, O_WRONLY | O_NONBLOCK)
                if writer < 0 { Thread.sleep(forTimeInterval: 0.02) }
            }
            try #require(writer >= 0, "the batch never opened the pipe")
            _ = fcntl(writer, F_SETFL, 0)  // blocking writes from here
            kill(process.processIdentifier, signalNumber)
            Thread.sleep(forTimeInterval: 5.5)  // past the progress interval: a line when b.ics is done
            let calendar = try Data(contentsOf: URL(fileURLWithPath: fixture("tutorial-sample.ics")))
            _ = calendar.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            close(writer)
            let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 128 + signalNumber, "\(log)")
            #expect(log.contains("finishing the calendars in flight"), "\(log)")
            #expect(log.contains("streakcal: progress: 2 of 4 files"), "\(log)")
            #expect(log.contains("interrupted: 2 of 4 calendars done"), "\(log)")
            let summary = try jsonObject(try String(contentsOfFile: out + "/summary.json", encoding: .utf8))
            #expect(summary["complete"] as? Bool == false && summary["remaining"] as? Int == 2)
            #expect((summary["files"] as? [[String: Any]])?.compactMap { $0["output"] as? String } == ["a.txt", "b.txt"])
            #expect(try batchOutputListing(out) == ["a.txt", "b.txt", "summary.json"])

            // The pipe becomes a file; --resume takes a.ics from the manifest (its report is not
            // written again) and does the rest; the summary is a whole run's.
            try FileManager.default.removeItem(atPath: pipe)
            try calendar.write(to: URL(fileURLWithPath: pipe))
            let before = try FileManager.default.attributesOfItem(atPath: out + "/a.txt")[.modificationDate] as? Date
            Thread.sleep(forTimeInterval: 0.05)
            let resumed = try streakcal(["batch"] + paths + ["--out", out, "--resume"] + Self.window)
            #expect(resumed.status == 0, "\(resumed.standardError)")
            #expect(try FileManager.default.attributesOfItem(atPath: out + "/a.txt")[.modificationDate] as? Date == before)
            let fresh = folder.appendingPathComponent("fresh").path
            _ = try streakcal(["batch"] + paths + ["--out", fresh] + Self.window)
            #expect(try String(contentsOfFile: out + "/summary.json", encoding: .utf8) == String(contentsOfFile: fresh + "/summary.json", encoding: .utf8))
            #expect(try batchOutputListing(out) == batchOutputListing(fresh))
            // The manifest says each report once again, as a whole run's does.
            let manifest = try String(contentsOfFile: out + "/.streakcal-batch.jsonl", encoding: .utf8)
            #expect(manifest.split(separator: "\n").count == 4)
            let freshManifest = try String(contentsOfFile: fresh + "/.streakcal-batch.jsonl", encoding: .utf8)
            #expect(manifest.split(separator: "\n").sorted() == freshManifest.split(separator: "\n").sorted())

            // A changed calendar, or changed settings, is done again.
            try Data(contentsOf: URL(fileURLWithPath: fixture("folding.ics"))).write(to: URL(fileURLWithPath: paths[0]))
            let changed = try streakcal(["batch"] + paths + ["--out", out, "--resume", "--summary-format", "jsonl"] + Self.window)
            let first = try jsonObject(String(try #require(changed.standardOutput.split(separator: "\n").first)))
            #expect(first["sessions"] as? Int == 1)
            let regoaled = try streakcal(["batch"] + paths + ["--out", out, "--resume", "--summary-format", "jsonl", "--required", "30"] + Self.window)
            let goals = try regoaled.standardOutput.split(separator: "\n").map { try jsonObject(String($0))["daysMet"] as? Int }
            let plain = try changed.standardOutput.split(separator: "\n").map { try jsonObject(String($0))["daysMet"] as? Int }
            #expect(goals != plain, "a lower goal meets more days: the rows were scored again")
        }
    }
}
