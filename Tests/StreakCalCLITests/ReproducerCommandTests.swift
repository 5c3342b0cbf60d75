import Foundation
import Testing

/// The repository's fuzz regressions (`Fuzz/regressions/`).
private func regression(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("Fuzz/regressions").appendingPathComponent(name).path
}

/// Regression tests built from `../shared/repro`'s reproducers, run through the command as a user runs it.
@Suite("Reproducers: the command")
struct ReproducerCommandTests {
    @Test("batch-one-bad-file-kills-all.sh: a file of 60,000 nested components fails alone; the files around it are reported")
    func batchSurvivesDeepNesting() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        for name in ["a.ics", "c.ics"] {
            try FileManager.default.copyItem(atPath: fixture("tutorial-sample.ics"), toPath: folder.appendingPathComponent("in/\(name)").path)
        }
        let nested = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20240101T090000Z", "X-POINTS:100"]
            + Array(repeating: "BEGIN:VALARM", count: 60_000) + Array(repeating: "END:VALARM", count: 60_000)
            + ["END:VEVENT", "END:VCALENDAR"]
        try Data((nested.joined(separator: "\r\n") + "\r\n").utf8).write(to: folder.appendingPathComponent("in/b.ics"))
        let result = try streakcal(
            ["batch", folder.appendingPathComponent("in").path, "--out", folder.appendingPathComponent("out").path,
             "--tz", "UTC", "--to", "2024-02-29", "--format", "json"], timeLimit: .seconds(60))
        #expect(!result.killedBySignal && !result.timedOut)
        #expect(result.status == 0)
        let reports = try batchOutputListing(folder.appendingPathComponent("out").path)
        #expect(reports == ["a.json", "b.json", "c.json", "summary.json"])
        let nestedReport = try String(contentsOf: folder.appendingPathComponent("out/b.json"), encoding: .utf8)
        #expect(nestedReport.contains("BEGIN:VALARM is nested deeper than 32 components; it and what it holds are skipped"))
        #expect(nestedReport.contains("\"daysMet\" : 1"))
    }

    @Test("fuzz-timeout-d44cdec6.ics: the fuzzer's slow input finishes in seconds with its diagnostics")
    func fuzzTimeout() throws {
        let result = try streakcal(["report", regression("fuzz-timeout-d44cdec6.ics"), "--tz", "UTC", "--format", "json"],
                                   timeLimit: .seconds(30))
        #expect(!result.killedBySignal && !result.timedOut)
        #expect(result.status == 0)
        #expect(result.standardError.contains("it has no usable STANDARD or DAYLIGHT; times in it are read as UTC+00:00"))
    }

    @Test("rdate-over-500-values-dropped.ics: all 1,000 RDATE values count, in the report and after annotate")
    func longRecurrenceDateList() throws {
        let values = (0..<1_000).map { String(format: "20000101T%02d%02d00Z", $0 / 60, $0 % 60) }
        let text = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20000101T000000Z", "DURATION:PT1M", "X-POINTS:10",
                    "RDATE:" + values.joined(separator: ","), "END:VEVENT", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
        let options = ["--tz", "UTC", "--from", "2000-01-01", "--to", "2000-02-29", "--format", "json"]
        let report = try jsonObject(try streakcal(["report", "-"] + options, input: text).standardOutput)
        #expect((report["totals"] as? [String: Int])?["sessions"] == 1_000)
        let annotated = try streakcal(["annotate", "-", "--tz", "UTC", "--from", "2000-01-01", "--to", "2000-02-29"], input: text)
        let again = try jsonObject(try streakcal(["report", "-"] + options, input: annotated.standardOutput).standardOutput)
        #expect((again["totals"] as? [String: Int])?["sessions"] == 1_000)
    }
}
