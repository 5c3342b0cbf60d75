import Foundation
import Testing
@testable import StreakCal
@testable import StreakCalRemote

/// A numeric option: the command before it, its name, its range's ends, and the command after it.
struct NumericOption: Sendable, CustomTestStringConvertible {
    var command: [String]
    var name: String
    var lowest: Int
    var highest: Int
    var rest: [String] = []

    var testDescription: String { "\(command.first ?? "") \(name)" }

    func run(_ value: Int) throws -> CommandResult {
        try streakcal(command + [name, String(value)] + rest)
    }
}

private let calendar = fixture("all-day-events.ics")
private let window = ["--tz", "UTC", "--from", "2024-03-01", "--to", "2024-03-02"]

@Suite("Ranges of numeric options")
struct NumericOptionTests {
    static let options: [NumericOption] = [
        NumericOption(command: ["report", calendar] + window, name: "--required", lowest: 1, highest: 1_000_000_000),
        NumericOption(command: ["report", calendar] + window, name: "--max-instances", lowest: 1, highest: 10_000_000),
        NumericOption(command: ["sessions", calendar, "--on", "2024-03-01", "--tz", "UTC"], name: "--required", lowest: 1, highest: 1_000_000_000),
        NumericOption(command: ["annotate", calendar] + window, name: "--max-instances", lowest: 1, highest: 10_000_000),
        NumericOption(command: ["layout", "--month", "2024-02"], name: "--months", lowest: 1, highest: 1200, rest: ["--format", "json"]),
        NumericOption(command: ["layout", "--month", "2024-02"], name: "--width", lowest: 7, highest: 100_000, rest: ["--format", "json"]),
        NumericOption(command: ["layout", "--month", "2024-02"], name: "--header-height", lowest: 0, highest: 10_000, rest: ["--format", "json"]),
        NumericOption(command: ["layout", "--month", "2024-02", "--calendar", calendar, "--tz", "UTC"], name: "--required", lowest: 1, highest: 1_000_000_000, rest: ["--format", "json"]),
    ]

    @Test("Both ends of the range are accepted", arguments: options)
    func ends(option: NumericOption) throws {
        for value in [option.lowest, option.highest] {
            let result = try option.run(value)
            #expect(result.status == 0, "\(option.name) \(value): \(result.standardError)")
            #expect(!result.standardOutput.isEmpty)
        }
    }

    @Test("One past either end, and a negative number, are usage errors naming the option, the value and the range", arguments: options)
    func outside(option: NumericOption) throws {
        for value in [option.lowest - 1, option.highest + 1, -5] {
            let result = try option.run(value)
            #expect(result.status == 64, "\(option.name) \(value)")
            #expect(result.standardError.hasPrefix(
                "streakcal: error: \(option.name) must be \(option.lowest) to \(option.highest), not \(value).\n"), "\(option.name) \(value)")
        }
    }

    @Test("batch --jobs: 1 and 256 work, 0, 257 and -2 are usage errors")
    func jobs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for jobs in [1, 256] {
            let result = try streakcal(["batch", calendar, "--out", folder.path, "--jobs", String(jobs), "--no-timings"] + window)
            #expect(result.status == 0)
            #expect(result.standardOutput.hasSuffix("1 file, 0 failed\n"))
        }
        for jobs in [0, 257, -2] {
            let result = try streakcal(["batch", calendar, "--out", folder.path, "--jobs", String(jobs)] + window)
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix("streakcal: error: --jobs must be 1 to 256, not \(jobs).\n"))
        }
    }

    @Test("--max-instances 2^61 (repro/crash-max-instances-overflow.sh) is a usage error, not a trap")
    func hugeMaximum() throws {
        let result = try streakcal(["report", fixture("recurring-weekly-across-dst.ics"), "--max-instances", "2305843009213693952"] + window)
        #expect(!result.killedBySignal)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("streakcal: error: --max-instances must be 1 to 10000000, not 2305843009213693952.\n"))
    }

    @Test("The ends of --max-instances mean what they say: 1 keeps one instance per rule, 10000000 all")
    func maximumInstances() throws {
        let arguments = ["report", fixture("recurring-weekly-across-dst.ics"), "--tz", "UTC", "--from", "2024-01-01", "--to", "2024-12-31", "--format", "json"]
        let one = try streakcal(arguments + ["--max-instances", "1"])
        let all = try streakcal(arguments + ["--max-instances", "10000000"])
        #expect((try jsonObject(one.standardOutput)["totals"] as? [String: Int])?["sessions"] == 2)
        #expect((try jsonObject(all.standardOutput)["totals"] as? [String: Int])?["sessions"] == 4)
        #expect(one.standardError.contains("RRULE:FREQ=WEEKLY;COUNT=4 gives more than 1 instances in the report's window"))
        #expect(one.standardError.contains("streakcal: hint: --max-instances raises the cap on instances per rule\n"))
        #expect(!all.standardError.contains("gives more than"))
        #expect(!all.standardError.contains("hint"))
    }

    @Test("timeout-overflow-crash.sh, connect-timeout-below-1ms-ignored.sh: --timeout and --connect-timeout have a range; outside it (1e16, 0.0005, inf, nan) is a usage error, not a trap", arguments: [
        ("--timeout", "9.3e15", "0.001 to 86400"), ("--timeout", "1e300", "0.001 to 86400"), ("--timeout", "86400.5", "0.001 to 86400"),
        ("--timeout", "0", "0.001 to 86400"), ("--timeout", "inf", "0.001 to 86400"), ("--timeout", "nan", "0.001 to 86400"),
        ("--connect-timeout", "0.0005", "0.001 to 3600"), ("--connect-timeout", "3601", "0.001 to 3600"), ("--connect-timeout", "-1", "0.001 to 3600"),
    ])
    func durations(option: String, value: String, range: String) throws {
        let result = try streakcal(["report", "http://127.0.0.1:9/team.ics", option, value, "--tz", "UTC"])
        #expect(!result.killedBySignal)
        #expect(result.status == 64, "\(option) \(value): \(result.standardError)")
        #expect(result.standardError.hasPrefix("streakcal: error: \(option) must be \(range) seconds, not "), "\(result.standardError)")
    }

    @Test("A duration is given to libcurl in whole milliseconds, rounded up, within a year")
    func milliseconds() {
        #expect(HTTPTransfer.milliseconds(0.0005) == 1)
        #expect(HTTPTransfer.milliseconds(0.001) == 1)
        #expect(HTTPTransfer.milliseconds(1.0001) == 1001)
        #expect(HTTPTransfer.milliseconds(300) == 300_000)
        #expect(HTTPTransfer.milliseconds(9.3e15) == HTTPTransfer.maximumMilliseconds)
        #expect(HTTPTransfer.milliseconds(.infinity) == HTTPTransfer.maximumMilliseconds)
        #expect(HTTPTransfer.milliseconds(.nan) == 1)
        #expect(HTTPTransfer.milliseconds(-3) == 1)
    }

    @Test("A value that is not a number, or too big for one, names the option and shows its range")
    func notANumber() throws {
        for value in ["abc", "99999999999999999999", "1.5"] {
            let result = try streakcal(["report", calendar, "--required", value] + window)
            #expect(result.status == 64)
            #expect(result.standardError.contains("streakcal: error: The value '\(value)' is invalid for '--required <n>'"))
            #expect(result.standardError.contains("(1 to 1000000000)"))
        }
    }
}
