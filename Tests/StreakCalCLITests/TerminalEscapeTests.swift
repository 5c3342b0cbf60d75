import Foundation
import StreakCal
import Testing

/// Clears the screen, makes a hyperlink (OSC 8) and starts a red CSI sequence with the C1 control
/// U+009B, then reverses the text (U+202E), rings the bell, backspaces and deletes.
private let hostile = "\u{1B}[2J\u{1B}]8;;http://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\ \u{9B}31mred \u{202E}gnp.exe\u{7}\u{8}\u{7F}"
/// `hostile` as the terminal must show it.
private let shown = #"\u{1B}[2J\u{1B}]8;;http://evil.example\u{1B}\click\u{1B}]8;;\u{1B}\ \u{9B}31mred \u{202E}gnp.exe\u{07}\u{08}\u{7F}"#
/// A file name with a screen clear and a C1 control in it, and how it is shown.
private let hostileName = "cal\u{1B}[2J\u{9B}1m.ics"
private let shownName = #"cal\u{1B}[2J\u{9B}1m.ics"#

/// A calendar (repro/ansi-summary.ics, repro/output-safety.ics) whose SUMMARY, X-POINTS value and
/// X-WR-TIMEZONE carry terminal controls, in a file whose name carries some too.
private final class HostileCalendar {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("escapes-\(UUID().uuidString)")
    var folder: String { root.appendingPathComponent("in").path }
    var path: String { folder + "/" + hostileName }

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "X-WR-TIMEZONE:Evil\u{1B}]8;;http://evil.example\u{1B}\\Zone",
            "BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z", "DURATION:PT30M", "X-POINTS:50",
            "SUMMARY:" + hostile, "END:VEVENT",
            "BEGIN:VEVENT", "UID:b", "DTSTART:20240101T100000Z", "DURATION:PT30M", "X-POINTS:\u{1B}[31m7",
            "SUMMARY:two\\nlines", "END:VEVENT",
            "END:VCALENDAR",
        ]
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}

/// Whether text is free of everything that acts on a terminal: bytes below 0x20 but newline and
/// tab, DEL, C1 controls and bidi formatting characters.
private func isInert(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
        switch scalar.value {
        case 0x0A, 0x09: true
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: false
        default: true
        }
    }
}

@Suite("Terminal controls from the input are shown, not obeyed")
struct TerminalEscapeTests {
    @Test("sessions (repro/ansi-injection.sh): the summary's controls as \\u{XX}, a newline in it does not start a line")
    func sessions() throws {
        let calendar = try HostileCalendar()
        let result = try streakcal(["sessions", calendar.path, "--on", "2024-01-01", "--tz", "UTC"])
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            Sessions on 2024-01-01 (UTC): 50 of 100 points, partial
              09:00–09:30      50 points  \(shown)
              10:00–10:30       0 points  two\\u{0A}lines

            """)
        #expect(isInert(result.standardOutput))
        #expect(isInert(result.standardError))
    }

    @Test("Diagnostics: the file name, the message quoting the value, the source line and X-WR-TIMEZONE; the caret under the value")
    func diagnostics() throws {
        let calendar = try HostileCalendar()
        let result = try streakcal(["report", calendar.path, "--to", "2024-01-01"])
        #expect(result.status == 0)
        let location = calendar.folder + "/" + shownName
        #expect(result.standardError.contains(#"""
            \#(location):15:10: warning: X-POINTS value "\u{1B}[31m7" is not a non-negative integer; the session counts 0 points
             15 | X-POINTS:\u{1B}[31m7
                |          ^
            """#))
        #expect(result.standardError.contains(
            #"\#(location):1:1: warning: X-WR-TIMEZONE "Evil\u{1B}]8;;http://evil.example\u{1B}\Zone" is not an IANA time zone"#))
        #expect(isInert(result.standardOutput))
        #expect(isInert(result.standardError))
    }

    @Test("The batch table: file names and errors, one line each")
    func batchTable() throws {
        let calendar = try HostileCalendar()
        let missing = calendar.folder + "/gone\u{1B}[2J\n.ics"
        let out = calendar.root.appendingPathComponent("out").path
        let result = try streakcal(["batch", calendar.folder, missing, "--out", out, "--tz", "UTC", "--to", "2024-01-01", "--no-timings"])
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5)  // header, two files, totals, and the end
        #expect(lines[1].hasPrefix(calendar.folder + "/" + shownName + " "))
        #expect(lines[2].hasPrefix(calendar.folder + #"/gone\u{1B}[2J\u{0A}.ics "#))
        #expect(lines[2].hasSuffix(#"cannot read \#(calendar.folder)/gone\u{1B}[2J\u{0A}.ics: no such file"#))
        #expect(isInert(result.standardOutput))
        #expect(isInert(result.standardError))
        // summary.json keeps the names as they are, in JSON's escapes.
        let summary = try jsonObject(try String(contentsOfFile: out + "/summary.json", encoding: .utf8))
        let files = try #require(summary["files"] as? [[String: Any]])
        #expect(files.map { $0["input"] as? String } == [calendar.path, missing])
    }

    @Test("Error lines: a file that cannot be read, an output that cannot be written, a bad option value")
    func errorLines() throws {
        let calendar = try HostileCalendar()
        let unreadable = try streakcal(["report", calendar.folder + "/no\u{1B}]8;;x\u{7}.ics"])
        #expect(unreadable.status == 1)
        #expect(unreadable.standardError == "streakcal: error: cannot read \(calendar.folder)/no\\u{1B}]8;;x\\u{07}.ics: no such file\n")
        let unwritable = try streakcal(["report", calendar.path, "--tz", "UTC", "--to", "2024-01-01", "-o", calendar.root.path + "/none/r\u{9B}.txt"])
        #expect(unwritable.status == 1)
        #expect(unwritable.standardError.hasSuffix("streakcal: error: cannot write \(calendar.root.path)/none/r\\u{9B}.txt: No such file or directory\n"))
        let badZone = try streakcal(["report", calendar.path, "--tz", "Europe/\u{1B}[2J"])
        #expect(badZone.status == 64)
        #expect(badZone.standardError.contains(#"--tz: unknown time zone 'Europe/\u{1B}[2J'"#))
        for result in [unreadable, unwritable, badZone] {
            #expect(isInert(result.standardError))
        }
    }

    @Test("Values ArgumentParser refuses (repro argparse-error-echoes-escapes.sh) are shown as \\u{XX}; the exit status stays 64", arguments: [
        ["report", "x.ics", "--from", "2024-01-01\u{1B}[2J"], ["report", "x.ics", "--to", "\u{1B}]8;;http://evil\u{1B}\\2024"],
        ["report", "x.ics", "--required", "5\u{1B}[2J"], ["report", "x.ics", "--format", "json\u{9B}31m"],
        ["report", "x.ics", "--day-start", "04:00\u{7}"], ["report", "x.ics", "--points", "count\u{1B}[2J"],
        ["report", "x.ics", "--view", "year\u{202E}"], ["report", "x.ics", "--color", "always\u{1B}c"],
        ["sessions", "x.ics", "--on", "2024-01-01\u{1B}[2J"], ["layout", "--month", "2024-02\u{1B}[2J"],
        ["layout", "--month", "2024-02", "--width", "7\u{1B}[2J"], ["batch", "--jsonl", "--order", "input\u{1B}[2J"],
        ["report", "x.ics", "--bogus\u{1B}]8;;http://evil\u{1B}\\"], ["bogus\u{1B}[2J.ics", "--nonsense\u{1B}[2J"],
        ["batch", "--jobs", "2\u{1B}[2J", "--jsonl"],
    ])
    func refusedValues(arguments: [String]) throws {
        let result = try streakcal(arguments)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("streakcal: error: "))
        #expect(isInert(result.standardError), "\(result.standardError.debugDescription)")
        #expect(result.standardError.contains("\\u{"), "the control character is shown: \(result.standardError.debugDescription)")
        #expect(result.standardError.hasSuffix("\n") && !result.standardError.hasSuffix("\n\n"))
    }

    @Test("Help, the version and usage without controls are printed as ArgumentParser prints them")
    func unchangedMessages() throws {
        let help = try streakcal(["report", "--help"])
        #expect(help.status == 0 && help.standardOutput.hasPrefix("OVERVIEW: ") && help.standardError.isEmpty)
        let version = try streakcal(["--version"])
        #expect(version.status == 0 && version.standardOutput == StreakCalVersion.current + "\n")
        let plain = try streakcal(["report", "x.ics", "--from", "someday"])
        #expect(plain.status == 64)
        #expect(plain.standardError.hasPrefix("streakcal: error: The value 'someday' is invalid for '--from <day>'"))
        #expect(plain.standardError.contains("\nUsage: streakcal report "))
        #expect(plain.standardError.hasSuffix("\n  See 'streakcal report --help' for more information.\n"))
    }
}
