import Foundation
import Testing

/// A calendar without diagnostics, so that standard error holds only what the tests look for.
private let clean = fixture("all-day-events.ics")

@Suite("Writing standard output")
struct StandardOutputTests {
    /// Each command, with what it needs to print something on standard output.
    static let commands: [[String]] = [
        ["report", clean, "--tz", "UTC", "--to", "2024-03-31"],
        ["report", clean, "--tz", "UTC", "--to", "2024-03-31", "--format", "svg", "-o", "-"],
        ["sessions", clean, "--on", "2024-03-01", "--tz", "UTC"],
        ["annotate", clean, "--tz", "UTC", "--to", "2024-03-31"],
        ["layout", "--month", "2024-02", "--format", "json"],
        ["batch", clean, "--tz", "UTC", "--to", "2024-03-31", "--no-timings"],
    ]

    @Test("A full device on standard output (repro/stdout-enospc-crash.sh): exit status 1 and one line, for every command", arguments: commands)
    func fullDevice(arguments: [String]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stdout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let extra = arguments.first == "batch" ? ["--out", folder.path] : []
        let result = try streakcal(arguments + extra, standardOutput: full)
        #expect(!result.killedBySignal)
        #expect(result.status == 1)
        #expect(result.standardError == "streakcal: error: cannot write to standard output: No space left on device\n")
    }

    @Test("Help, the version and a completion script on a full device: exit status 1 and one line, not a silent 0",
          arguments: [["--help"], ["--version"], ["report", "--help"], ["--generate-completion-script", "bash"]])
    func fullDeviceForHelp(arguments: [String]) throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let result = try streakcal(arguments, standardOutput: full)
        #expect(result.status == 1)
        #expect(result.standardError == "streakcal: error: cannot write to standard output: No space left on device\n")
        // Where standard output works, the same arguments still succeed with their text.
        let working = try streakcal(arguments)
        #expect(working.status == 0)
        #expect(!working.standardOutput.isEmpty && working.standardError.isEmpty)
    }

    @Test("A closed pipe: SIGPIPE ends the command quietly, as `| head` expects; with SIGPIPE ignored, exit status 1 and one line")
    func closedPipe() throws {
        for ignoring in [false, true] {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            // `sh -c 'trap "" PIPE; exec ...'` starts streakcal with SIGPIPE ignored.
            let arguments = ignoring
                ? ["-c", #"trap "" PIPE; exec "$0" "$@""#, try streakcalPath()] + Self.commands[0]
                : Self.commands[0]
            let result = ignoring
                ? try run("/bin/sh", arguments, standardOutput: pipe.fileHandleForWriting)
                : try streakcal(arguments, standardOutput: pipe.fileHandleForWriting)
            if ignoring {
                #expect(!result.killedBySignal)
                #expect(result.status == 1)
                #expect(result.standardError == "streakcal: error: cannot write to standard output: Broken pipe\n")
            } else {
                #expect(result.killedBySignal)
                #expect(result.status == SIGPIPE)
                #expect(result.standardError == "")
            }
        }
    }

    @Test("Standard output that works gets every byte, also more than a pipe holds at once")
    func complete() throws {
        let result = try streakcal(["layout", "--month", "2024-01", "--months", "1200", "--format", "json"])
        #expect(result.status == 0)
        let layout = try jsonObject(result.standardOutput)
        #expect((layout["months"] as? [Any])?.count == 1200)
    }
}
