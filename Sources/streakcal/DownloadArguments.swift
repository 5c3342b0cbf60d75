import ArgumentParser
import Foundation
import StreakCal
import StreakCalRemote

/// How a command fetches calendars named by an address (`https://`, `http://`, `webcal://`).
struct DownloadArguments: ParsableArguments {
    @Flag(help: "Read addresses from the cache only, without asking their servers.")
    var offline = false

    @Option(help: ArgumentHelp(
        "Log in to addresses' servers as this user; the password comes from the STREAKCAL_PASSWORD environment variable, else ~/.netrc.",
        valueName: "name"))
    var user: String?

    @Option(help: ArgumentHelp("Trust the certificate authorities in this PEM file instead of the system's.", valueName: "file"),
            completion: .file(extensions: ["pem", "crt"]))
    var cacert: String?

    @Option(help: ArgumentHelp("The most a response may hold once decompressed, such as 50MiB or 2GiB.", valueName: "size"))
    var maxSize: ByteSize = ByteSize(bytes: 1 << 30)

    // Read unconditionally, so that `--timeout -1` gets its range rather than "missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a download may take, its redirects included (0.001 to 86400).", valueName: "seconds"))
    var timeout: Double = 300

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for a server's connection (0.001 to 3600).", valueName: "seconds"))
    var connectTimeout: Double = 15

    func validate() throws {
        try OptionRange.check(seconds: timeout, OptionRange.timeout, option: "--timeout")
        try OptionRange.check(seconds: connectTimeout, OptionRange.connectTimeout, option: "--connect-timeout")
    }

    /// The library's options for these arguments; the password from `STREAKCAL_PASSWORD`.
    var options: DownloadOptions {
        var options = DownloadOptions()
        options.isOffline = offline
        options.user = user
        // An empty variable is no password: `STREAKCAL_PASSWORD= streakcal …` unsets it in effect.
        options.password = user == nil ? nil : ProcessInfo.processInfo.environment["STREAKCAL_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        options.certificateAuthorities = cacert
        options.maximumSize = maxSize.bytes
        options.timeout = timeout
        options.connectTimeout = min(connectTimeout, timeout)
        options.progress = ProgressLine.shared.show
        options.cacheFolder = Self.cacheFolder(environment: ProcessInfo.processInfo.environment)
        options.netrcFile = ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.netrc" }
        return options
    }

    /// The user's cache: `$XDG_CACHE_HOME/streakcal/calendars`, else `$HOME/.cache/streakcal/calendars`
    /// (the XDG Base Directory specification's default); a relative `XDG_CACHE_HOME` is ignored, as
    /// it says.
    static func cacheFolder(environment: [String: String]) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return cache + "/streakcal/calendars"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/streakcal/calendars"
    }
}

/// A size: a whole number of bytes with an optional unit, `KB`/`MB`/`GB` (powers of 1000) or
/// `KiB`/`MiB`/`GiB` (powers of 1024), any case.
struct ByteSize: ExpressibleByArgument, Sendable {
    var bytes: Int64

    init(bytes: Int64) {
        self.bytes = bytes
    }

    init?(argument: String) {
        let digits = argument.prefix(while: \.isNumber)
        let units: [String: Int64] = [
            "": 1, "b": 1, "k": 1_000, "kb": 1_000, "m": 1_000_000, "mb": 1_000_000, "g": 1_000_000_000, "gb": 1_000_000_000,
            "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30,
        ]
        guard let value = Int64(digits), value > 0,
              let unit = units[argument.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()]
        else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    var defaultValueDescription: String { "1GiB" }
}
