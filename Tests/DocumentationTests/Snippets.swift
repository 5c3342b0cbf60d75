import Foundation
import Testing

/// The repository root.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A SwiftPM snippet (`Snippets/NAME.swift`): its source, and the output its `// Prints` comments promise.
struct Snippet: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String

    var testDescription: String { name }

    /// Every snippet of the package, by name.
    static let all: [Snippet] = {
        let folder = repositoryRoot.appendingPathComponent("Snippets")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().compactMap { file in
            guard let source = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { return nil }
            return Snippet(name: String(file.dropLast(".swift".count)), source: source)
        }
    }()

    /// The lines the snippet says it prints, in order.
    ///
    /// Two forms, as in the doc comments of `Sources`: `// Prints "TEXT"` is one line, TEXT being
    /// everything up to the line's last quote (a remark may follow it, without quotes); `// Prints:`
    /// is followed by one comment line per printed line (`// TEXT`, or `//` for an empty line),
    /// up to the first line that is not a comment.
    var expectedOutput: [String] {
        var lines: [String] = []
        var inBlock = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if inBlock {
                if trimmed == "//" {
                    lines.append("")
                    continue
                }
                if trimmed.hasPrefix("// ") {
                    lines.append(String(trimmed.dropFirst(3)))
                    continue
                }
                inBlock = false
            }
            if trimmed == "// Prints:" {
                inBlock = true
            } else if trimmed.hasPrefix("// Prints \""), let close = trimmed.lastIndex(of: "\"") {
                let open = trimmed.index(trimmed.startIndex, offsetBy: "// Prints \"".count)
                if open <= close { lines.append(String(trimmed[open..<close])) }
            }
        }
        return lines
    }

    /// The snippet's executable, built by `swift build` (and `swift test`) beside the test bundle.
    var executablePath: String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside.path }
        // swift-testing may run from inside the .xctest bundle.
        return directory.deletingLastPathComponent().appendingPathComponent(name).path
    }
}

/// What a run of a snippet printed.
struct SnippetRun {
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// Whether the run outlived its time limit and was killed.
    var timedOut = false

    /// Runs `snippet` from the repository root (its fixtures' paths are relative to it), with the
    /// system zone set to an odd one, so that an example that leans on it shows.
    init(_ snippet: Snippet, timeLimit: DispatchTimeInterval = .seconds(60)) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: snippet.executablePath)
        process.currentDirectoryURL = repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Pacific/Chatham"
        environment["NO_COLOR"] = "1"
        process.environment = environment
        // Standard error goes to a file, so that only one pipe needs reading while the process runs.
        let errorFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("snippet-\(snippet.name)-\(UUID().uuidString).stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try errorHandle.close()
        let identifier = process.processIdentifier
        let watchdog = DispatchWorkItem { _ = kill(identifier, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        status = process.terminationStatus
        timedOut = process.terminationReason == .uncaughtSignal && status == SIGKILL
        standardOutput = String(decoding: outputData, as: UTF8.self)
        standardError = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
    }
}
