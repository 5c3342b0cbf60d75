import Foundation
@testable import ICalendar
import Streaks
import Testing

/// Segments of a file cut into components on workers (`SessionImporter.segmentSize`): the
/// sessions and diagnostics must be those of one cutter reading the whole input, wherever the
/// segments start, whatever is open or damaged where they meet.
@Suite("Segmented cutting")
struct SegmentedCuttingTests {
    private static let expansion = RecurrenceExpansion(through: try! Day(year: 2030, month: 12, day: 31))

    private static var fixtures: [URL] {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "ics" && fixtureWanted($0.path) }.sorted { $0.path < $1.path }
    }

    private static func temporaryFile(_ text: String) throws -> String {
        try temporaryFile(bytes: Array(text.utf8))
    }

    private static func temporaryFile(bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "segments-\(UUID().uuidString).ics"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What an import of `sources` gives with segments of `segmentSize` bytes (`nil`: one cutter).
    private static func imported(_ sources: [CalendarSource], segmentSize: Int?) throws -> CalendarImport {
        var importer = SessionImporter(expansion: expansion)
        importer.segmentSize = segmentSize
        importer.segmentSpread = 1 << 40  // segments of any length: a segment at every BEGIN:VEVENT
        importer.readChunkSize = 64  // not read whole: files of a chunk or less are cut in memory
        return try importer.importSessions(from: sources)
    }

    /// A file through a pipeline with segments of one byte (every `BEGIN:VEVENT` line that can
    /// start one does): its sessions and diagnostics as text, its batches' sessions in order, and
    /// how many segments were cut again.
    private static func segmented(
        _ path: String, changing change: (inout InputOutline) -> Void = { _ in }
    ) throws -> (sessions: [String], diagnostics: [String], segments: Int, cutAgain: Int, isSegmented: Bool) {
        let importer = SessionImporter(expansion: expansion)
        let descriptor = try SessionImporter.openInput(path: path)
        var outline = InputOutline.scan(InputBytes(reading: descriptor, from: 0, to: nil), segmentSize: 1)
        change(&outline)
        let bytes = try CalendarSource.file(path).read()
        let zones = InputZones.readAhead(
            outline.timeZonePlaces ?? [], bytes: { Array(bytes[$0]) }, outline: outline, window: ZoneExpansionWindow(expansion),
            pointsProperty: "X-POINTS")
        let segments = outline.hasMessageMethod || outline.segmentStarts.isEmpty
            ? nil : Segments(descriptor: dup(descriptor), starts: outline.segmentStarts, readChunkSize: 1 << 20)
        let pipeline = ImportPipeline(
            input: InputBytes(reading: descriptor, owning: true), outline: outline, zones: zones, importer: importer, segments: segments)
        var sessions: [String] = []
        var diagnostics: [String] = []
        while let batch = pipeline.next() {
            sessions += batch.sessions.map { "\($0.id) \($0.start) \($0.end) \($0.points) line \($0.source?.line ?? 0)" }
            diagnostics += batch.diagnostics.map(\.description)
        }
        return (sessions.sorted(), diagnostics, outline.segmentStarts.count, pipeline.segmentsCutAgain, pipeline.cutsSegments)
    }

    /// The same file read by one cutter.
    private static func whole(_ path: String) throws -> (sessions: [String], diagnostics: [String]) {
        var importer = SessionImporter(expansion: expansion)
        importer.segmentSize = nil
        importer.readChunkSize = 64
        let pipeline = try importer.pipeline(for: [.file(path)]).0
        var sessions: [String] = []
        var diagnostics: [String] = []
        while let batch = pipeline.next() {
            sessions += batch.sessions.map { "\($0.id) \($0.start) \($0.end) \($0.points) line \($0.source?.line ?? 0)" }
            diagnostics += batch.diagnostics.map(\.description)
        }
        return (sessions.sorted(), diagnostics)
    }

    @Test("Every fixture, a segment at every BEGIN:VEVENT: the sessions and diagnostics of one cutter")
    func fixtures() throws {
        #expect(Self.fixtures.count > 20)
        var segmented = 0
        for fixture in Self.fixtures {
            let one = try Self.imported([.file(fixture.path)], segmentSize: nil)
            let cut = try Self.imported([.file(fixture.path)], segmentSize: 1)
            #expect(cut.sessions == one.sessions, "\(fixture.lastPathComponent)")
            #expect(cut.diagnostics == one.diagnostics, "\(fixture.lastPathComponent)")
            let streamed = try Self.segmented(fixture.path)
            let reference = try Self.whole(fixture.path)
            #expect(streamed.sessions == reference.sessions, "\(fixture.lastPathComponent)")
            #expect(streamed.diagnostics.sorted() == reference.diagnostics.sorted(), "\(fixture.lastPathComponent)")
            if streamed.segments > 0 { segmented += 1 }
        }
        #expect(segmented > 20)  // most fixtures have several events: they were cut in segments
    }

    @Test("Every corpus file (when ../shared/corpus is beside the repository), a segment at every BEGIN:VEVENT: what one cutter gives")
    func corpus() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
        guard sharedCorpusWanted, let enumerator = FileManager.default.enumerator(atPath: corpus.path) else { return }
        var count = 0
        var segmented = 0
        for case let path as String in enumerator where !path.hasSuffix(".md") && !path.hasSuffix(".tsv") {
            let file = corpus.appendingPathComponent(path).path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let one = try Self.imported([.file(file)], segmentSize: nil)
            let cut = try Self.imported([.file(file)], segmentSize: 1)
            #expect(cut.sessions == one.sessions, "\(path)")
            #expect(cut.diagnostics == one.diagnostics, "\(path)")
            if try Self.segmented(file).isSegmented { segmented += 1 }
            count += 1
        }
        #expect(count == 0 || count >= 400)
        #expect(count == 0 || segmented >= 150)  // 184 of 410 have a BEGIN:VEVENT line past their start
    }

    @Test("Several inputs read as one, in segments: what one cutter gives")
    func severalInputs() throws {
        let paths = Self.fixtures.filter { ["tutorial-sample.ics", "several-vcalendars.ics", "missing-end-lines.ics", "habits.ics"].contains($0.lastPathComponent) }.map(\.path)
        #expect(paths.count == 4)
        let one = try Self.imported(paths.map { .file($0) }, segmentSize: nil)
        let cut = try Self.imported(paths.map { .file($0) }, segmentSize: 1)
        #expect(cut.sessions == one.sessions)
        #expect(cut.diagnostics == one.diagnostics)
        #expect(cut.sessions.count > 10)
    }

    /// Damage where segments meet: a VEVENT and a VALARM without END before a segment's
    /// BEGIN:VEVENT, components nested too deep, VCALENDARs begun and ended between segments,
    /// events outside any, Latin-1 lines in several segments, a BEGIN:VEVENT continued by a fold.
    private static let damaged = [
        "BEGIN:VCALENDAR", "X-WR-CALNAME:First",
        "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", "X-POINTS:1", "BEGIN:VALARM", "TRIGGER:-PT5M",
        "BEGIN:VEVENT", "UID:b", "DTSTART:20240302T090000Z", "X-POINTS:2", "SUMMARY:caf\u{E9}", "END:VEVENT",
        "BEGIN:VEVENT", "UID:c", "DTSTART:20240303T090000Z", "X-POINTS:3",
        "BEGIN:VEVENT", "UID:d", "DTSTART:20240304T090000Z", "X-POINTS:4",
    ] + (0..<40).map { "BEGIN:X-DEEP\($0)" } + [
        "BEGIN:VEVENT", "UID:e", "DTSTART:20240305T090000Z", "X-POINTS:5", "SUMMARY:na\u{EF}ve", "END:VEVENT",
        "END:VCALENDAR",
        "BEGIN:VEVENT", "UID:f", "DTSTART:20240306T090000Z", "X-POINTS:6", "END:VEVENT",
        "BEGIN:VCALENDAR",
        "BEGIN:VEVENT", "UID:g", "DTSTART:20240307T090000Z", "X-POINTS:7", "END:VEVENT",
        "BEGIN:VEVENT", " X-NOT-A-START:1", "UID:h", "DTSTART:20240308T090000Z", "X-POINTS:8", "END:VEVENT",
        "BEGIN:VCALENDAR",
        "BEGIN:VEVENT", "UID:i", "DTSTART:20240309T090000Z", "X-POINTS:9", "END:VEVENT",
        "END:VCALENDAR",
        "BEGIN:VEVENT", "UID:j", "DTSTART;TZID=Europe/Berlin:20240310T090000", "X-POINTS:10",
    ]

    @Test("Damage where segments meet, in every line ending: the sessions and diagnostics of one cutter", arguments: ["\r\n", "\n", "\r"])
    func damageAtEdges(lineEnd: String) throws {
        // Latin-1 bytes (é, ï as one byte each): the encoding warning is said once, though two segments see it.
        var bytes: [UInt8] = []
        for line in Self.damaged {
            bytes += line.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } + Array(lineEnd.utf8)
        }
        let path = try Self.temporaryFile(bytes: bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let streamed = try Self.segmented(path)
        let reference = try Self.whole(path)
        #expect(streamed.segments >= 8)
        #expect(streamed.cutAgain == 0)  // the first pass saw each VCALENDAR line as the cutter does
        #expect(streamed.sessions == reference.sessions)
        #expect(streamed.diagnostics.sorted() == reference.diagnostics.sorted())
        // j to a: the folded BEGIN:VEVENT is a component of another name, and h is in it.
        #expect(streamed.sessions.count == 9)
        #expect(streamed.diagnostics.filter { $0.contains("not valid UTF-8") }.count == 1)
        #expect(streamed.diagnostics.contains { $0.contains("END:VEVENT is missing; the component is closed where BEGIN:VEVENT starts") })
        #expect(streamed.diagnostics.contains { $0.contains("nested deeper than") })
        #expect(streamed.diagnostics.filter { $0.contains("several VCALENDARs") }.count == 1)
        #expect(streamed.diagnostics.filter { $0.contains("outside a VCALENDAR") }.count == 1)
        let imported = try Self.imported([.file(path)], segmentSize: 1)
        let one = try Self.imported([.file(path)], segmentSize: nil)
        #expect(imported.sessions == one.sessions)
        #expect(imported.diagnostics == one.diagnostics)
    }

    @Test("A VCALENDAR the first pass got wrong: the segments cut in it are cut again, and nothing changes")
    func mispredictedCalendar() throws {
        var lines = ["BEGIN:VCALENDAR"]
        for index in 0..<6 {
            lines += ["BEGIN:VEVENT", "UID:e\(index)", "DTSTART:2024030\(index + 1)T090000Z", "X-POINTS:\(index + 1)", "END:VEVENT"]
            if index == 2 { lines += ["END:VCALENDAR", "BEGIN:VCALENDAR", "X-WR-CALNAME:Second"] }
        }
        lines.append("END:VCALENDAR")
        let path = try Self.temporaryFile(lines.joined(separator: "\r\n") + "\r\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try Self.whole(path)
        let right = try Self.segmented(path)
        #expect(right.segments == 6)
        #expect(right.cutAgain == 0)
        #expect(right.isSegmented)
        // The second and fourth starts said to be in another VCALENDAR, or a closed one.
        let wrong = try Self.segmented(path) { outline in
            outline.segmentStarts[1].calendar.index += 1
            outline.segmentStarts[3].calendar.isOpen = false
        }
        #expect(wrong.cutAgain == 2)
        for streamed in [right, wrong] {
            #expect(streamed.sessions == reference.sessions)
            #expect(streamed.diagnostics.sorted() == reference.diagnostics.sorted())
            #expect(streamed.sessions.count == 6)
        }
    }

    @Test("No segments where one would be longer than four times the segment size (thousands of VTIMEZONEs, a huge event)")
    func boundedSegments() throws {
        func events(_ range: Range<Int>) -> String {
            range.map { "BEGIN:VEVENT\r\nUID:e\($0)\r\nDTSTART:20240301T090000Z\r\nX-POINTS:\($0)\r\nEND:VEVENT\r\n" }.joined()
        }
        let zones = (0..<60).map { "BEGIN:VTIMEZONE\r\nTZID:Zone \($0)\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n" }.joined()
        var sessions: [Int] = []
        for (text, isSegmented) in [
            ("BEGIN:VCALENDAR\r\n" + events(0..<40) + "END:VCALENDAR\r\n", true),
            ("BEGIN:VCALENDAR\r\n" + events(0..<20) + zones + events(20..<40) + "END:VCALENDAR\r\n", false),
            ("BEGIN:VCALENDAR\r\n" + events(0..<20) + "BEGIN:VEVENT\r\nUID:long\r\nDTSTART:20240301T090000Z\r\nDESCRIPTION:"
                + String(repeating: "x", count: 5_000) + "\r\nEND:VEVENT\r\n" + events(20..<40) + "END:VCALENDAR\r\n", false),
        ] {
            let path = try Self.temporaryFile(text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            var importer = SessionImporter(expansion: Self.expansion)
            importer.segmentSize = 200  // at most 800 bytes a segment
            importer.readChunkSize = 64
            let pipeline = try importer.pipeline(for: [.file(path)]).0
            #expect(pipeline.cutsSegments == isSegmented)
            var count = 0
            while let batch = pipeline.next() { count += batch.sessions.count }
            sessions.append(count)
        }
        #expect(sessions == [40, 40, 41])
    }

    @Test("No segments where METHOD makes an iTIP message, nor in a file without a place to cut")
    func notSegmented() throws {
        var importer = SessionImporter(expansion: Self.expansion)
        importer.segmentSize = 1
        importer.segmentSpread = 1 << 40
        importer.readChunkSize = 64
        let message = try Self.temporaryFile(
            "BEGIN:VCALENDAR\r\nMETHOD:CANCEL\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240301T090000Z\r\nEND:VEVENT\r\n"
                + "BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20240302T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        defer { try? FileManager.default.removeItem(atPath: message) }
        // The outline knows where to cut, but a worker would need the METHOD of the segment before.
        let outline = InputOutline.scan(InputBytes(bytes: try CalendarSource.file(message).read()), segmentSize: 1)
        #expect(outline.segmentStarts.count == 2)
        let messagePipeline = try importer.pipeline(for: [.file(message)]).0
        #expect(!messagePipeline.cutsSegments)
        var sessions = 0
        while let batch = messagePipeline.next() { sessions += batch.sessions.count }
        #expect(sessions == 0)  // a cancellation is no session
        // Only a line that is exactly BEGIN:VEVENT starts a segment.
        let single = try Self.temporaryFile(
            "BEGIN:VCALENDAR\r\nbegin:vevent\r\nUID:a\r\nDTSTART:20240301T090000Z\r\nEND:VEVENT\r\n"
                + "BEGIN:VEVENT \r\nUID:b\r\nDTSTART:20240302T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        defer { try? FileManager.default.removeItem(atPath: single) }
        let one = try Self.segmented(single)
        #expect(one.segments == 0)
        #expect(!one.isSegmented)
        #expect(one.sessions.count == 2)
    }
}
