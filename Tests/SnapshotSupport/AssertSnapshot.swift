import Foundation
import Testing

/// Compares `actual` with the snapshot file `Snapshots/<name>` beside the calling test file, byte for byte.
///
/// Snapshots are re-recorded on purpose only: run the tests with `STREAKCAL_RECORD_SNAPSHOTS=1`
/// and review the diff.
public func assertSnapshot(
    _ actual: String, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["STREAKCAL_RECORD_SNAPSHOTS"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "snapshot \(name) differs; rerun with STREAKCAL_RECORD_SNAPSHOTS=1 to re-record", sourceLocation: sourceLocation)
}
