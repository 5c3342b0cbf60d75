import Foundation
import SnapshotSupport
import Testing

/// Every fixture that is a calendar.
private let calendarFixtures = (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Fixtures").path))?
    .filter { $0.hasSuffix(".ics") }.sorted() ?? []

/// An annotated calendar with its annotations' DTSTAMP (the time of the run) as `DTSTAMP:NOW`.
private func stampless(_ text: String) -> String {
    var lines = text.components(separatedBy: "\r\n")
    for index in lines.indices.dropFirst() where lines[index].hasPrefix("DTSTAMP:")
        && lines[index - 1].hasPrefix("UID:") && lines[index - 1].hasSuffix("@streakcal.local") {
        lines[index] = "DTSTAMP:NOW"
    }
    return lines.joined(separator: "\r\n")
}

/// A folder of its own for a test, removed by `body`'s end.
private func withFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("annotate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// How a process ended.
private enum Ending: Equatable {
    case status(Int32)
    case signal(Int32)
}

/// Runs `arguments` (a path, then its arguments) with its output discarded and no signal blocked
/// (the test runner's threads block most, and `Process` passes that on), and waits for its end.
private func waitForUnblocked(_ arguments: [String]) throws -> Ending {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigfillset(&defaults)
    sigdelset(&defaults, SIGKILL)
    sigdelset(&defaults, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var process: pid_t = 0
    let code = posix_spawn(&process, arguments[0], &actions, &attributes, argv, environ)
    guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }
    var status: Int32 = 0
    while waitpid(process, &status, 0) < 0, errno == EINTR {}
    // The wait status: the signal in its low 7 bits, else the exit status above them.
    return status & 0x7F != 0 ? .signal(status & 0x7F) : .status(status >> 8 & 0xFF)
}

/// A calendar of `count` events over 2024 and 2025, as the reproducer's gen-events.py writes them.
private func generatedEvents(_ count: Int) -> String {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//adv//EN\r\n"
    let base = 1_704_067_200  // 2024-01-01 UTC
    for index in 0..<count {
        let seconds = base + index % 730 * 86_400 + index * 7_919 % 86_400
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime]
        text += "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTART:\(formatter.string(from: date))Z\r\nX-POINTS:\(index % 9 + 1)\r\nEND:VEVENT\r\n"
    }
    return text + "END:VCALENDAR\r\n"
}

@Suite("streakcal annotate")
struct AnnotateCommandTests {
    @Test("Writes the annotated calendar to -o; annotating that file again gives the same days, not twice as many")
    func writeAndReannotate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("annotate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.ics").path
        let second = directory.appendingPathComponent("second.ics").path
        let arguments = ["--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29", "--mark-sessions"]
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "-o", first] + arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        let again = try streakcal(["annotate", first, "-o", second] + arguments)
        #expect(again.status == 0)
        let firstText = try String(contentsOfFile: first, encoding: .utf8)
        let secondText = try String(contentsOfFile: second, encoding: .utf8)
        func annotations(_ text: String) -> [String] {
            text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:2024-") }
        }
        #expect(annotations(firstText) == ["2024-02-20", "2024-02-24", "2024-02-25", "2024-02-26"].map {
            "UID:\($0).fscalendar-streaks-tutorial-sample@streakcal.local"
        })
        #expect(annotations(secondText) == annotations(firstText))
        #expect(secondText.components(separatedBy: "X-STREAKCAL-DAY-STATUS").count == firstText.components(separatedBy: "X-STREAKCAL-DAY-STATUS").count)
        // The annotated file reports the same days as the original.
        let original = try streakcal(["report", fixture("tutorial-sample.ics"), "--format", "json"] + arguments.dropLast())
        let annotated = try streakcal(["report", second, "--format", "json"] + arguments.dropLast())
        #expect(try jsonObject(annotated.standardOutput)["days"] as? NSArray == jsonObject(original.standardOutput)["days"] as? NSArray)
    }

    @Test("A failed write leaves nothing behind and says why")
    func failedWrite() throws {
        let target = "/nonexistent-directory/annotated.ics"
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--tz", "UTC", "--to", "2024-02-29", "-o", target])
        #expect(run.status == 1)
        #expect(run.standardError.contains("streakcal: error: cannot write \(target)"))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("Every fixture's annotated calendar is as the release before streaming wrote it, byte for byte", arguments: calendarFixtures)
    func fixtureSnapshots(_ name: String) throws {
        let run = try streakcal(["annotate", fixture(name), "--tz", "UTC", "--to", "2030-12-31"])
        #expect(run.status == 0, "\(run.standardError)")
        try assertSnapshot(stampless(run.standardOutput), named: "annotated-\(name)")
    }

    @Test("annotate-memory-abort.sh: a calendar larger than the copy's memory comes out the same through -o, standard output and standard input")
    func largeCalendar() throws {
        try withFolder { folder in
            let input = folder.appendingPathComponent("events.ics").path
            let calendar = generatedEvents(20_000)
            try calendar.write(toFile: input, atomically: false, encoding: .utf8)
            let arguments = ["--tz", "UTC", "--from", "2024-01-01", "--to", "2025-12-31"]
            let output = folder.appendingPathComponent("annotated.ics").path
            let toFile = try streakcal(["annotate", input, "-o", output] + arguments)
            #expect(toFile.status == 0, "\(toFile.standardError)")
            let toStandardOutput = try streakcal(["annotate", input] + arguments)
            let fromStandardInput = try streakcal(["annotate", "-"] + arguments, input: calendar)
            let written = try String(contentsOfFile: output, encoding: .utf8)
            #expect(written.utf8.count > calendar.utf8.count)
            #expect(stampless(toStandardOutput.standardOutput) == stampless(written))
            #expect(stampless(fromStandardInput.standardOutput).replacingOccurrences(of: ".standard-input@", with: ".events@") == stampless(written))
            #expect(written.components(separatedBy: "BEGIN:VEVENT").count - 1 == 20_000 + 730)
            // The copy reports the input's days.
            let report = ["report", "--format", "csv"] + arguments
            #expect(try streakcal(report + [output]).standardOutput == streakcal(report + [input]).standardOutput)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["annotated.ics", "events.ics"])
        }
    }

    @Test("A write that fails part-way leaves the old file and no temporary file, whether the process is told or stopped", arguments: [true, false])
    func failedWritePartWay(toldOfIt: Bool) throws {
        let prlimit = try #require(["/usr/bin/prlimit", "/bin/prlimit"].first { FileManager.default.isExecutableFile(atPath: $0) })
        try withFolder { folder in
            let input = folder.appendingPathComponent("events.ics").path
            try generatedEvents(20_000).write(toFile: input, atomically: false, encoding: .utf8)
            let target = folder.appendingPathComponent("annotated.ics").path
            let arguments = ["annotate", input, "--tz", "UTC", "--from", "2024-01-01", "--to", "2025-12-31", "--all-days", "-o", target]
            #expect(try streakcal(arguments).status == 0)
            let size = try #require(FileManager.default.attributesOfItem(atPath: target)[.size] as? Int)
            try "the old calendar".write(toFile: target, atomically: false, encoding: .utf8)
            // Files may not grow past the copied events: the annotations after them do not fit. Told
            // of it (SIGXFSZ ignored), the write fails with EFBIG; else the signal stops the process.
            let limited = [prlimit, "--fsize=\(size - 100_000)", "--", try streakcalPath()] + arguments
            if toldOfIt {
                let run = try run("/bin/sh", ["-c", "trap '' XFSZ; exec \"$0\" \"$@\""] + limited)
                #expect(run.status == 1)
                #expect(run.standardError.contains("streakcal: error: cannot write \(target): File too large"), "\(run.standardError)")
            } else {
                #expect(try waitForUnblocked(limited) == .signal(SIGXFSZ))
            }
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "the old calendar")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["annotated.ics", "events.ics"])
        }
    }

    @Test("annotate-rewrites-bad-escapes.sh: the copy reports what the input reports, and each bad escape is said where it is")
    func badEscapes() throws {
        try withFolder { folder in
            let input = folder.appendingPathComponent("escapes.ics").path
            try [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//adv//EN",
                "BEGIN:VEVENT", "UID:run\\", "DTSTART:20240701T060000Z", "X-POINTS:10", "END:VEVENT",
                "BEGIN:VEVENT", "UID:run", "DTSTART:20240702T060000Z", "X-POINTS:20", "END:VEVENT",
                "BEGIN:VEVENT", "UID:q\\x", "DTSTART:20240703T060000Z", "X-POINTS:30", "SUMMARY:s\\x\\qz", "END:VEVENT",
                "END:VCALENDAR",
            ].joined(separator: "\n").write(toFile: input, atomically: false, encoding: .utf8)
            let arguments = ["--tz", "UTC", "--from", "2024-07-01", "--to", "2024-07-03"]
            let annotated = try streakcal(["annotate", input] + arguments)
            #expect(annotated.status == 0)
            #expect(annotated.standardOutput.contains("UID:run\\\\\r\n"))
            #expect(annotated.standardOutput.contains("UID:q\\\\x\r\n"))
            #expect(annotated.standardOutput.contains("SUMMARY:s\\\\x\\\\qz\r\n"))
            #expect(annotated.standardError.contains("escapes.ics:5:8: warning: UID ends in a lone backslash"))
            #expect(annotated.standardError.contains("escapes.ics:15:6: warning: UID has \\x, which is no escape of RFC 5545 (3.3.11)"))
            #expect(annotated.standardError.contains("escapes.ics:18:10: warning: SUMMARY has \\x, which is no escape of RFC 5545 (3.3.11)"))
            let report = ["report", "--format", "csv"] + arguments
            let original = try streakcal(report + [input])
            #expect(original.standardOutput == "date,points,sessions,status\r\n2024-07-01,10,1,partial\r\n2024-07-02,20,1,partial\r\n2024-07-03,30,1,partial\r\n")
            #expect(try streakcal(report + ["-"], input: annotated.standardOutput).standardOutput == original.standardOutput)
        }
    }

    @Test("--uid-domain replaces the domain of the UIDs")
    func uidDomain() throws {
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-20",
                                 "--uid-domain", "Practice.Example.ORG"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("UID:2024-02-20.fscalendar-streaks-tutorial-sample@practice.example.org\r\n"))
    }

    @Test("A --uid-domain that is no DNS name is a usage error that says why", arguments: [
        ("a..b", "a dot must stand between two labels"), ("under_score.com", "the label 'under_score' has a character other than"),
        ("-x.org", "the label '-x' starts or ends with a hyphen"), ("", "the domain is empty"),
    ])
    func badUIDDomain(domain: String, reason: String) throws {
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--uid-domain", domain])
        #expect(run.status == 64)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("streakcal: error: --uid-domain '\(domain)' is not a domain name: \(reason)"), "\(run.standardError)")
    }

    @Test("--only-annotations writes the day events alone; with --mark-sessions it is a usage error")
    func onlyAnnotations() throws {
        let run = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29",
                                 "--only-annotations"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.components(separatedBy: "\r\n")
        #expect(Array(lines.prefix(5)) == ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//StreakCal//StreakCal 0.1.0//EN",
                                           "CALSCALE:GREGORIAN", "X-WR-CALNAME:FSCalendar streaks tutorial sample (StreakCal)"])
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 4)
        #expect(lines.filter { $0 == "X-STREAKCAL-ANNOTATION:day" }.count == 4)
        #expect(!run.standardOutput.contains("X-POINTS"))
        // The annotations are no sessions.
        let report = try streakcal(["report", "-", "--tz", "UTC", "--from", "2024-02-20", "--to", "2024-02-29"], input: run.standardOutput)
        // No session holds X-POINTS, so the report counts minutes: none.
        #expect(report.standardOutput.contains("Minutes: 0 in 0 sessions"), "\(report.standardOutput)")

        let both = try streakcal(["annotate", fixture("tutorial-sample.ics"), "--only-annotations", "--mark-sessions"])
        #expect(both.status == 64)
        #expect(both.standardOutput.isEmpty)
        #expect(both.standardError.contains("streakcal: error: --mark-sessions marks the inputs' events, which --only-annotations leaves out"))
    }

    @Test("A Windows TZID without VTIMEZONE gets one: the annotated calendar reports the same days")
    func generatedZone() throws {
        let arguments = ["--tz", "Europe/Berlin", "--from", "2024-07-10", "--to", "2024-07-19", "--format", "json"]
        let run = try streakcal(["annotate", fixture("real-world-tzids.ics"), "--tz", "Europe/Berlin", "--from", "2024-07-10", "--to", "2024-07-19"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\n"))
        #expect(run.standardOutput.contains("BEGIN:VTIMEZONE\r\nTZID:(UTC+01:00) Amsterdam\\, Berlin\\, Bern\\, Rome\\, Stockholm\\, Vienna\r\n"))
        #expect(!run.standardOutput.contains("TZID:Customized Time Zone"))
        #expect(run.standardError.contains(
            "real-world-tzids.ics:47:1: warning: TZID \"Customized Time Zone\" is defined by no VTIMEZONE and names no time zone StreakCal knows"))
        let original = try streakcal(["report", fixture("real-world-tzids.ics")] + arguments)
        let annotated = try streakcal(["report", "-"] + arguments, input: run.standardOutput)
        #expect(try jsonObject(annotated.standardOutput)["days"] as? NSArray == jsonObject(original.standardOutput)["days"] as? NSArray)
    }
}
