import Foundation
import Testing

/// The repository root.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func fixture(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// What a run of `streakcal` printed and returned.
struct CommandResult {
    /// The exit status, or the signal's number when a signal ended the process.
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// Whether a signal ended the process (then `status` is the signal's number).
    var killedBySignal = false
    /// Whether the process outlived its time limit and was killed.
    var timedOut = false
}

/// The `streakcal` built beside the test bundle.
func streakcalPath() throws -> String {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var executable = directory.appendingPathComponent("streakcal")
    if !FileManager.default.fileExists(atPath: executable.path) {
        // swift-testing may run from inside the .xctest bundle.
        executable = directory.deletingLastPathComponent().appendingPathComponent("streakcal")
    }
    return executable.path
}

/// Runs the `streakcal` built beside the test bundle, without a terminal and without colours.
///
/// - Parameters:
///   - standardOutput: Where the process writes its standard output instead of a pipe (then the
///     result's `standardOutput` is empty), such as a handle on `/dev/full`.
///   - timeLimit: Kill the process (`SIGKILL`) if it runs longer; the result says `timedOut`.
func streakcal(
    _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
    standardOutput target: FileHandle? = nil, timeLimit: Duration? = nil
) throws -> CommandResult {
    try run(try streakcalPath(), arguments, input: input, environment: extra, standardOutput: target, timeLimit: timeLimit)
}

/// Runs `executable` as ``streakcal(_:input:environment:standardOutput:timeLimit:)`` runs `streakcal`.
func run(
    _ executable: String, _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
    standardOutput target: FileHandle? = nil, timeLimit: Duration? = nil, currentDirectory: String? = nil
) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["TZ"] = "UTC"
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = target ?? output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    let identifier = process.processIdentifier
    let watchdog = DispatchWorkItem { _ = kill(identifier, SIGKILL) }
    if let timeLimit {
        let (seconds, attoseconds) = timeLimit.components
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .milliseconds(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)), execute: watchdog)
    }
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
    let outputData = target == nil ? output.fileHandleForReading.readDataToEndOfFile() : Data()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    let signalled = process.terminationReason == .uncaughtSignal
    return CommandResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData, as: UTF8.self),
        killedBySignal: signalled,
        timedOut: signalled && process.terminationStatus == SIGKILL)
}

/// The JSON object printed by `report --format json`.
func jsonObject(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
}

/// Runs `body` with a new, empty folder under the temporary directory, removed afterwards.
func withTemporaryFolder<T>(_ prefix: String, _ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// A batch output folder's entries, sorted, without the manifest `batch` keeps there as it goes
/// (`.streakcal-batch.jsonl`, for `--resume`; BatchOperationsTests holds what it says).
func batchOutputListing(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).filter { $0 != ".streakcal-batch.jsonl" }.sorted()
}

/// The eight hexadecimal digits `batch` adds to a report name that clashes: 64-bit FNV-1a of the
/// input's path, its halves XORed (written here again, as the tests' own oracle).
func stableNameHash(_ text: String) -> String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01B3
    }
    let digits = String(UInt32(truncatingIfNeeded: value ^ (value >> 32)), radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
}
