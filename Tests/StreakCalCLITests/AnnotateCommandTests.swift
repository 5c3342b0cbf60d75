import Foundation
import Testing

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
            text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:streakcal-day-") }
        }
        #expect(annotations(firstText) == ["UID:streakcal-day-2024-02-20", "UID:streakcal-day-2024-02-24",
                                           "UID:streakcal-day-2024-02-25", "UID:streakcal-day-2024-02-26"])
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
}
