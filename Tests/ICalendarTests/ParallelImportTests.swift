import Foundation
import ICalendar
import Streaks
import Testing

/// The parallel pipeline must give exactly what the single-threaded one gives.
@Suite("Parallel import")
struct ParallelImportTests {
    private static func compare(_ bytes: [UInt8], name: String) {
        var sequential = SessionImporter(expansion: RecurrenceExpansion(through: try! Day(year: 2030, month: 12, day: 31)))
        sequential.parallelism = 1
        let one = sequential.importBytes(bytes, name: name)
        // The machine's width, and widths other than it (an odd one puts chunks on workers unevenly);
        // each once (on two cores the machine's width is 2).
        for width in Set([SessionImporter.defaultParallelism, 2, 3]).sorted() {
            var parallel = sequential
            parallel.parallelism = width
            let many = parallel.importBytes(bytes, name: name)
            #expect(many.sessions == one.sessions, "\(name), parallelism \(width)")
            #expect(many.diagnostics == one.diagnostics, "\(name), parallelism \(width)")
        }
    }

    @Test("Every fixture")
    func fixtures() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.path).sorted() where fixtureWanted(name) {
            let bytes = try Array(Data(contentsOf: fixturesDirectory.appendingPathComponent(name)))
            Self.compare(bytes, name: name)
        }
    }

    @Test("Generated calendars large enough to be split across threads, with errors, zones and recurrence", arguments: [1, 2, 3])
    func generated(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        var lines = ["BEGIN:VCALENDAR"]
        for index in 0..<2_000 {
            let day = 1 + Int(generator.next() % 28)
            let hour = Int(generator.next() % 24)
            lines += ["BEGIN:VEVENT", "UID:g\(seed)-\(index)"]
            switch generator.next() % 6 {
            case 0: lines.append("DTSTART;TZID=Europe/Berlin:202403\(String(format: "%02d", day))T\(String(format: "%02d", hour))3000")
            case 1: lines.append("DTSTART;VALUE=DATE:202403\(String(format: "%02d", day))")
            case 2: lines.append("DTSTART;TZID=Later Zone:202403\(String(format: "%02d", day))T\(String(format: "%02d", hour))0000")
            default: lines.append("DTSTART:202403\(String(format: "%02d", day))T\(String(format: "%02d", hour))1500Z")
            }
            if generator.next() % 5 == 0 { lines.append("RRULE:FREQ=DAILY;COUNT=\(1 + generator.next() % 5)") }
            if generator.next() % 7 == 0 { lines.append("DTEND:2024") }
            lines.append(generator.next() % 9 == 0 ? "X-POINTS:many" : "X-POINTS:\(generator.next() % 120)")
            lines.append("END:VEVENT")
        }
        lines += ["BEGIN:VTIMEZONE", "TZID:Later Zone", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                  "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE", "END:VCALENDAR"]
        Self.compare(Array(lines.joined(separator: "\r\n").utf8), name: "generated-\(seed).ics")
    }

    @Test("Every corpus file (when ../shared/corpus is beside the repository)")
    func corpus() throws {
        let corpus = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus")
        guard sharedCorpusWanted, let enumerator = FileManager.default.enumerator(atPath: corpus.path) else { return }
        var count = 0
        for case let path as String in enumerator where !path.hasSuffix(".md") && !path.hasSuffix(".tsv") {
            let url = corpus.appendingPathComponent(path)
            guard let bytes = try? CalendarSource.file(url.path).read() else { continue }
            Self.compare(bytes, name: path)
            count += 1
        }
        #expect(count == 0 || count >= 400)
    }
}

/// A small deterministic random number generator for generated inputs.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
