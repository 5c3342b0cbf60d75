import Foundation
import Testing

/// The library reads no clock and no environment (issue 50): "now", the zone, credentials and the
/// cache folder are its caller's to give, and the command (`Sources/streakcal`) reads them once.
/// Nor does it draw on the terminal: progress reaches its caller (`DownloadOptions.progress`).
/// A scan of the library modules' sources holds them to it, so that a new `Date()` or
/// `TimeZone.current` fails here rather than in a user's report on some other day or machine.
@Suite("Hidden inputs")
struct HiddenInputTests {
    /// What reads the clock, the machine's zone, locale or calendar, or the environment.
    static let hiddenInputs = [
        "Date()", "Date.now", "TimeZone.current", "TimeZone.autoupdatingCurrent", "Locale.current", "Calendar.current",
        "ProcessInfo.processInfo.environment", "getenv(", "NSHomeDirectory", "time(nil)", "gettimeofday", "clock_gettime(CLOCK_REALTIME",
        // Whether standard error is a terminal, and writing to it: the library draws nothing (issue 50.8).
        "isatty(", "StandardStream.error",
    ]

    /// The places allowed one, each with its reason.
    static let allowed: [String: String] = [
        // Where the tz database is, as libc and Foundation read it: part of the database, not a choice.
        "Sources/ICalendar/Zones/ZoneAbbreviations.swift": "ProcessInfo.processInfo.environment",
    ]

    @Test("No library module reads the clock or the environment, but where allowed with a reason")
    func libraryReadsNoHiddenInput() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
            .compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("streakcal/") }
        #expect(files.count > 100)
        for file in files {
            let path = "Sources/" + file
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for input in Self.hiddenInputs where code.contains(input) && Self.allowed[path] != input {
                    Issue.record("\(path):\(number + 1) reads \(input): take it as a parameter (the command reads it once)")
                }
            }
        }
    }

    @Test("The scan finds what it looks for")
    func scanFindsAClockRead() {
        let line = "        let year = LocalDateTime(secondsSince1970: Int64(Date().timeIntervalSince1970)).day.year"
        #expect(Self.hiddenInputs.contains { line.contains($0) })
    }

    @Test("Only StreakCalRemote reaches a network: no other library module imports libcurl's wrapper or names the remote module")
    func networkOnlyInTheRemoteModule() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
            .compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("streakcal/") && !$0.hasPrefix("StreakCalRemote/") }
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = line.split(separator: " ")
                if let module = words.firstIndex(of: "import").map({ $0 + 1 }), module < words.count,
                   ["CCurl", "StreakCalRemote"].contains(words[module]) {
                    Issue.record("Sources/\(file):\(number + 1) imports \(words[module]): network code belongs in StreakCalRemote (issue 50.8)")
                }
            }
        }
        let remote = try String(contentsOf: sources.appendingPathComponent("StreakCalRemote/HTTPTransfer.swift"), encoding: .utf8)
        #expect(remote.contains("import CCurl"), "the scan looks for the import the remote module has")
    }
}
