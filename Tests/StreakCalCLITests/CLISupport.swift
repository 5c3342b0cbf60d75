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
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs the `streakcal` built beside the test bundle, without a terminal and without colours.
func streakcal(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> CommandResult {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var executable = directory.appendingPathComponent("streakcal")
    if !FileManager.default.fileExists(atPath: executable.path) {
        // swift-testing may run from inside the .xctest bundle.
        executable = directory.deletingLastPathComponent().appendingPathComponent("streakcal")
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["TZ"] = "UTC"
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData, as: UTF8.self))
}

/// The JSON object printed by `report --format json`.
func jsonObject(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
}
