import Foundation
@testable import ICalendar
import Streaks
import Testing
import FixedClock

/// The streaming import: files read a chunk at a time, events turned into sessions as they come,
/// only what must wait held to the end; and the session path's own reading of text properties.
@Suite("Streaming import")
struct StreamingImportTests {
    private static let expansion = RecurrenceExpansion(through: try! Day(year: 2030, month: 12, day: 31))

    private static var fixtures: [URL] {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "ics" && fixtureWanted($0.path) }.sorted { $0.path < $1.path }
    }

    private static func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "streaming-\(UUID().uuidString).ics"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("Chunk edges anywhere: a file read 1, 7 or 64 bytes at a time gives what it gives read whole")
    func chunkEdges() throws {
        #expect(Self.fixtures.count > 20)
        for fixture in Self.fixtures {
            var importer = SessionImporter(expansion: Self.expansion)
            let whole = try importer.importSessions(from: .file(fixture.path))
            for size in [1, 7, 64] {
                importer.readChunkSize = size
                let chunked = try importer.importSessions(from: .file(fixture.path))
                #expect(chunked.sessions == whole.sessions, "\(fixture.lastPathComponent), chunks of \(size)")
                #expect(chunked.diagnostics == whole.diagnostics, "\(fixture.lastPathComponent), chunks of \(size)")
            }
        }
    }

    @Test("On one thread, a small file read whole at once gives what it gives read a chunk at a time")
    func wholeSmallFiles() throws {
        for fixture in Self.fixtures {
            var importer = SessionImporter(expansion: Self.expansion)
            importer.parallelism = 1
            let whole = try importer.importSessions(from: .file(fixture.path))
            importer.readChunkSize = 7  // larger than one chunk: read as before, seven bytes at a time
            let chunked = try importer.importSessions(from: .file(fixture.path))
            #expect(whole.sessions == chunked.sessions, "\(fixture.lastPathComponent)")
            #expect(whole.diagnostics == chunked.diagnostics, "\(fixture.lastPathComponent)")
        }
    }

    @Test("A file is read whole only when it is a regular file no larger than the limit")
    func wholeFileLimit() throws {
        let path = try Self.temporaryFile("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(SessionImporter.wholeFile(descriptor, ifAtMost: 1 << 20) == Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8))
        #expect(SessionImporter.wholeFile(descriptor, ifAtMost: 32) == Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8))
        #expect(SessionImporter.wholeFile(descriptor, ifAtMost: 31) == nil)
        #expect(lseek(descriptor, 0, SEEK_CUR) == 0)  // read with pread: the offset has not moved
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(SessionImporter.wholeFile(ends[0], ifAtMost: 1 << 20) == nil)  // a pipe is read as a stream
        #expect(SessionImporter.wholeFile(-1, ifAtMost: 1 << 20) == nil)
    }

    @Test("A file imports as its bytes do: the same sessions and diagnostics")
    func fileAndBytes() throws {
        for fixture in Self.fixtures {
            let importer = SessionImporter(expansion: Self.expansion)
            let bytes = try CalendarSource.file(fixture.path).read()
            let fromFile = try importer.importSessions(from: .file(fixture.path))
            let fromBytes = importer.importBytes(bytes, name: fixture.path)
            #expect(fromFile.sessions == fromBytes.sessions, "\(fixture.lastPathComponent)")
            #expect(fromFile.diagnostics == fromBytes.diagnostics, "\(fixture.lastPathComponent)")
        }
    }

    @Test("Events wait only for what they need: a later override, never a later VTIMEZONE (zones are read ahead)")
    func heldEvents() throws {
        let path = try Self.temporaryFile("""
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:zoned-early\r
            DTSTART;TZID=Custom/Zone:20240301T090000\r
            DURATION:PT1H\r
            X-POINTS:10\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:moved\r
            DTSTART:20240302T090000Z\r
            X-POINTS:20\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:plain\r
            DTSTART:20240303T090000Z\r
            X-POINTS:30\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:moved\r
            RECURRENCE-ID:20240302T090000Z\r
            DTSTART:20240304T090000Z\r
            X-POINTS:40\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:zoned-noisy\r
            DTSTART;TZID=Custom/Zone:20240305T090000\r
            X-POINTS:ten\r
            END:VEVENT\r
            BEGIN:VTIMEZONE\r
            TZID:Custom/Zone\r
            BEGIN:STANDARD\r
            DTSTART:19700101T000000\r
            TZOFFSETFROM:+0500\r
            TZOFFSETTO:+0500\r
            END:STANDARD\r
            END:VTIMEZONE\r
            END:VCALENDAR\r

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let importer = SessionImporter(expansion: Self.expansion)
        let (pipeline, _) = try importer.pipeline(for: [.file(path)])
        var batches: [ImportBatch] = []
        while let batch = pipeline.next() { batches.append(batch) }
        // One chunk: the events in the zone of the VTIMEZONE further on are resolved on the worker
        // (it was read ahead); the master and its override, held, are resolved once the override's
        // line is read, in the same batch. Then the last batch, with the closing diagnostics.
        #expect(batches.count == 2)
        #expect(batches.first?.sessions.map(\.id) == ["zoned-early", "plain", "zoned-noisy", "moved/20240302T090000Z"])
        #expect(batches.first?.diagnostics.map(\.location.line) == [27])
        #expect(batches.last?.sessions.isEmpty == true)
        // The collected result is in input order, the override replacing its event.
        let result = try importer.importSessions(from: .file(path))
        #expect(result.sessions.map(\.id) == ["zoned-early", "moved/20240302T090000Z", "plain", "zoned-noisy"])
        #expect(result.sessions.map(\.points) == [10, 40, 30, 0])
        #expect(result.sessions.last?.start == .instant(secondsSince1970: utc(2024, 3, 5, 4)))
        #expect(result.sessions.first?.start == .instant(secondsSince1970: 1_709_265_600))  // 09:00+05:00
        #expect(result.diagnostics.map(\.location.line) == [27])
    }

    @Test("Events before their VTIMEZONE are resolved in their chunk, whatever the VTIMEZONE's text")
    func eventsBeforeTheirZone() throws {
        // 300 events before their VTIMEZONE: every tenth has an X-POINTS to warn about; every tenth
        // from the seventh is a recurring series of its own. A byte that is not ASCII in the
        // VTIMEZONE changes nothing: the first pass places it, and it is read ahead.
        func calendar(note: String) -> String {
            var text = "BEGIN:VCALENDAR\r\n"
            for index in 0..<300 {
                let day = String(format: "202403%02d", index % 28 + 1)
                switch index % 10 {
                case 3:
                    text += "BEGIN:VEVENT\r\nUID:noisy-\(index)\r\nDTSTART;TZID=Custom/Zone:\(day)T090000\r\nX-POINTS:n\(index)\r\nEND:VEVENT\r\n"
                case 7:
                    text += "BEGIN:VEVENT\r\nUID:series-\(index)\r\nDTSTART:\(day)T090000Z\r\nRRULE:FREQ=DAILY;COUNT=2\r\n"
                        + "SUMMARY:s\r\nX-POINTS:s\(index)\r\nEND:VEVENT\r\n"
                default:
                    text += "BEGIN:VEVENT\r\nUID:early-\(index)\r\nDTSTART;TZID=Custom/Zone:\(day)T090000\r\nX-POINTS:5\r\nEND:VEVENT\r\n"
                }
            }
            return text + "BEGIN:VTIMEZONE\r\nTZID:Custom/Zone\r\nX-NOTE:\(note)\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
                + "TZOFFSETFROM:+0500\r\nTZOFFSETTO:+0500\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"
        }
        var runs: [[ImportBatch]] = []
        for note in ["plain", "plaín"] {
            let path = try Self.temporaryFile(calendar(note: note))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (pipeline, _) = try SessionImporter(expansion: Self.expansion).pipeline(for: [.file(path)])
            var batches: [ImportBatch] = []
            while let batch = pipeline.next() { batches.append(batch) }
            runs.append(batches)
        }
        let (ascii, latin) = (runs[0], runs[1])
        #expect(ascii.count == 3)  // two chunks of 256 components, and the last
        #expect(ascii.map(\.sessions.count) == latin.map(\.sessions.count))
        #expect(ascii.prefix(2).flatMap(\.sessions).count == 240 + 30 + 60)
        let offsets = Set(ascii.flatMap(\.sessions).compactMap { session -> Int64? in
            guard case .instant(let seconds) = session.start else { return nil }
            return seconds % 86_400
        })
        #expect(offsets == Set<Int64>([4 * 3600, 9 * 3600]))  // 09:00 at +05:00, and the series' 09:00Z
        #expect(ascii.flatMap(\.diagnostics).count == 60)
        #expect(ascii.flatMap(\.diagnostics).map(\.description) == latin.flatMap(\.diagnostics).map(\.description))
    }

    @Test("Groups resolved once their UID's last event is read give what resolving every group at the end gives")
    func groupsResolvedOnTheirLastEvent() throws {
        // 240 units: series with overrides beside them or far on, copies, orphans, series without
        // UID, series whose resolving warns (a bad X-POINTS, an unreadable RRULE), some in a zone
        // whose VTIMEZONE comes last.
        var text = "BEGIN:VCALENDAR\r\n"
        var later = ""
        for index in 0..<240 {
            let day = String(format: "202404%02d", index % 28 + 1)
            let zone = index % 3 == 0 ? ";TZID=Custom/Zone" : ""
            let utc = zone.isEmpty ? "Z" : ""
            let points = index % 11 == 5 ? "x\(index)" : "\(index % 50 + 1)"
            let rule = index % 13 == 4 ? "FREQ=SOMETIMES" : "FREQ=DAILY;COUNT=\(index % 4 + 2)"
            let override = "BEGIN:VEVENT\r\nUID:s\(index)\r\nRECURRENCE-ID\(zone):\(day)T090000\(utc)\r\n"
                + "DTSTART\(zone):\(day)T110000\(utc)\r\nX-POINTS:7\r\nEND:VEVENT\r\n"
            switch index % 6 {
            case 0, 1:
                text += "BEGIN:VEVENT\r\nUID:s\(index)\r\nDTSTART\(zone):\(day)T090000\(utc)\r\nRRULE:\(rule)\r\nX-POINTS:\(points)\r\nEND:VEVENT\r\n"
                if index % 6 == 0 { text += override } else { later += override }
            case 2:
                let copy = "BEGIN:VEVENT\r\nUID:c\(index)\r\nDTSTAMP:2024010\(index % 2 + 1)T000000Z\r\nDTSTART:\(day)T080000Z\r\nX-POINTS:\(points)\r\nEND:VEVENT\r\n"
                text += copy + copy.replacingOccurrences(of: "T080000Z\r\nX", with: "T083000Z\r\nX")
            case 3:
                text += "BEGIN:VEVENT\r\nUID:o\(index)\r\nRECURRENCE-ID:\(day)T090000Z\r\nDTSTART:\(day)T100000Z\r\nX-POINTS:3\r\nEND:VEVENT\r\n"
            case 4:
                text += "BEGIN:VEVENT\r\nDTSTART\(zone):\(day)T090000\(utc)\r\nRRULE:FREQ=DAILY;COUNT=2\r\nX-POINTS:\(points)\r\nEND:VEVENT\r\n"
            default:
                text += "BEGIN:VEVENT\r\nUID:p\(index)\r\nDTSTART\(zone):\(day)T090000\(utc)\r\nX-POINTS:\(points)\r\nEND:VEVENT\r\n"
            }
            if index == 120 { text += later; later = "" }
        }
        text += later + "BEGIN:VTIMEZONE\r\nTZID:Custom/Zone\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
            + "TZOFFSETFROM:+0500\r\nTZOFFSETTO:+0500\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"
        let bytes = Array(text.utf8)
        let importer = SessionImporter(expansion: Self.expansion)
        var runs: [[ImportBatch]] = []
        for atTheEnd in [false, true] {
            let input = InputBytes(bytes: bytes)
            var outline = InputOutline.scan(input)
            // An iTIP message in the input: every group waits for the end.
            if atTheEnd { outline.hasMessageMethod = true }
            let zones = InputZones.readAhead(
                outline.timeZonePlaces ?? [], bytes: { Array(bytes[$0]) }, outline: outline,
                window: ZoneExpansionWindow(Self.expansion), pointsProperty: "X-POINTS")
            let pipeline = ImportPipeline(input: InputBytes(bytes: bytes), outline: outline, zones: zones, importer: importer)
            var batches: [ImportBatch] = []
            while let batch = pipeline.next() { batches.append(batch) }
            runs.append(batches)
        }
        let (onTheirLast, atTheEnd) = (runs[0], runs[1])
        let said = { (batches: [ImportBatch]) in batches.flatMap(\.diagnostics).map(\.description).sorted() }
        #expect(said(onTheirLast) == said(atTheEnd))
        #expect(said(onTheirLast).count > 40)
        let sessions = { (batches: [ImportBatch]) in batches.flatMap(\.sessions).map { "\($0.id) \($0.points) \($0.start)" }.sorted() }
        #expect(sessions(onTheirLast) == sessions(atTheEnd))
        // Before the last batch (the end's), every session when groups resolve on their last
        // event; at the end, only those of the events that waited for nothing.
        let streamed = { (batches: [ImportBatch], chunks: Int) in batches.prefix(chunks).flatMap(\.sessions).count }
        #expect(streamed(onTheirLast, 2) == sessions(onTheirLast).count)
        #expect(streamed(atTheEnd, 2) < sessions(atTheEnd).count / 2)
    }

    @Test("Workers resolve events in Windows-named zones; each name's note is said once, at its first use in the input")
    func aliasNotesOnWorkers() throws {
        // Three chunks of events in "W. Europe Standard Time", the first use by a series (resolved
        // on its worker: its UID occurs once); "Pacific Standard Time" first in the second chunk, in
        // an event and then in a series.
        var text = "BEGIN:VCALENDAR\r\n"
        var lines: [String: [Int]] = [:]
        var line = 1
        for index in 0..<700 {
            let zone = index >= 400 && index % 2 == 0 ? "Pacific Standard Time" : "W. Europe Standard Time"
            let rule = index == 0 || index == 401 ? "RRULE:FREQ=DAILY;COUNT=2\r\n" : ""
            text += "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTART;TZID=\(zone):20240301T090000\r\n\(rule)X-POINTS:1\r\nEND:VEVENT\r\n"
            lines[zone, default: []].append(line + 3)
            line += rule.isEmpty ? 5 : 6
        }
        text += "END:VCALENDAR\r\n"
        let path = try Self.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try SessionImporter(expansion: Self.expansion).importSessions(from: .file(path))
        #expect(result.sessions.count == 702)
        let notes = result.diagnostics.map { "\($0.location.line) \($0.message)" }
        #expect(notes == [
            "\(lines["W. Europe Standard Time"]![0]) TZID \"W. Europe Standard Time\" is not an IANA name; read as Europe/Berlin",
            "\(lines["Pacific Standard Time"]![0]) TZID \"Pacific Standard Time\" is not an IANA name; read as America/Los_Angeles",
        ])
        #expect(lines["W. Europe Standard Time"]!.prefix(2) == [4, 10])
    }

    @Test("The outline finds every VTIMEZONE, every zone named and every override's UID, folded anywhere or in lower case")
    func outline() {
        let bytes = Array("""
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:lower-case\r
            RRULE:FREQ=DAILY\r
            DTSTART;TZID=Zone/A:20240101T000000\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:folded\r
            DTSTA\r
             RT;TZ\r
             ID="Zone/B":20240101T000000\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            uid:lower-case\r
            RECURRENCE-ID:20240101T000000Z\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            U\r
             ID:fol\r
             ded\r
            RECURRENCE-\r
             ID:20240101T000000Z\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:not-overridden\r
            END:VEVENT\r
            BEG\r
             IN:VTIMEZONE\r
            TZID:Europe/\r
             Berlin\r
            END:VTIMEZONE\r
            END:VCALENDAR\r

            """.utf8)
        let outline = InputOutline.scan(InputBytes(bytes: bytes))
        // Each override's UID is read, folded or in lower case: it repeats its master's.
        #expect(outline.mayRepeat("lower-case") && outline.mayRepeat("folded") && !outline.mayRepeat("not-overridden"))
        #expect(outline.mayHaveOverrides("folded") && !outline.mayHaveOverrides("not-overridden"))
        #expect(outline.lastEventLine(of: "folded") == 17)
        #expect(outline.referencedTimeZoneIDs == ["Zone/A", "Zone/B"])
        #expect(!outline.hasUncertainReferences)
        #expect(outline.timeZonePlaces?.map(\.line) == [27])
        #expect(outline.timeZonePlaces?.map(\.timeZoneID) == ["Europe/Berlin"])
        let place = outline.timeZonePlaces?.first?.bytes
        #expect(place.map { String(decoding: bytes[$0], as: UTF8.self) } == "BEG\r\n IN:VTIMEZONE\r\nTZID:Europe/\r\n Berlin\r\nEND:VTIMEZONE\r\n")
        #expect(!outline.hasOverrideWithoutUID)
    }

    @Test("The first pass numbers lines as the scanner does, and sees what the cutter sees: repeated UIDs, VTIMEZONEs, zones named, on every fixture and corpus file")
    func outlineMatchesTheCutter() throws {
        var repeatedUIDs = 0
        var keptZones = 0
        var namedZones = 0
        for path in Self.fixtures.map(\.path) + Self.allCorpusFiles {
            guard let bytes = try? CalendarSource.file(path).read() else { continue }
            let outline = InputOutline.scan(InputBytes(bytes: bytes))
            guard !outline.hasUncertainUIDs, !bytes.starts(with: [0xFF, 0xFE]), !bytes.starts(with: [0xFE, 0xFF]) else { continue }
            let cut = Self.cut(bytes)
            for (uid, last) in cut.lastLines where last.count > 1 {
                #expect(outline.mayRepeat(uid), "\(path): \(uid)")
                #expect(outline.lastEventLine(of: uid) == last.line, "\(path): \(uid)")
                repeatedUIDs += 1
            }
            if !outline.hasUncertainReferences, !outline.hasMoreTimeZoneIDs {
                #expect(cut.namedZones.isSubset(of: outline.referencedTimeZoneIDSet), "\(path)")
                namedZones += cut.namedZones.count
            }
            guard let places = outline.timeZonePlaces else { continue }
            #expect(places.map(\.line) == cut.zones.map(\.line), "\(path)")
            for (place, zone) in zip(places, cut.zones) {
                var cutter = ComponentCutter(scanner: ContentLineScanner(bytes: Array(bytes[place.bytes])))
                guard case .component(let lines, _)? = cutter.next() else {
                    Issue.record("\(path):\(place.line): the VTIMEZONE's bytes cut into no component")
                    continue
                }
                #expect(Self.propertyTexts(lines) == zone.properties, "\(path):\(place.line)")
                keptZones += 1
            }
        }
        #expect(repeatedUIDs > 20)
        #expect(keptZones > 50)
        #expect(namedZones > 50)
    }

    /// What the scanner and the cutter find in an input: each repeated UID's last VEVENT, the
    /// VTIMEZONEs, and the zones the times of its VEVENTs name.
    private static func cut(_ bytes: [UInt8]) -> (lastLines: [String: (line: Int, count: Int)], zones: [(line: Int, properties: [String])], namedZones: Set<String>) {
        var cutter = ComponentCutter(scanner: ContentLineScanner(bytes: bytes))
        var lastLines: [String: (line: Int, count: Int)] = [:]
        var zones: [(line: Int, properties: [String])] = []
        var namedZones: Set<String> = []
        let timeProperties: Set<String> = ["DTSTART", "DTEND", "DUE", "RDATE", "EXDATE", "RECURRENCE-ID"]
        while let item = cutter.next() {
            guard case .component(let lines, _) = item else { continue }
            if lines.name == "VTIMEZONE" {
                zones.append((lines.begin.line, propertyTexts(lines)))
                continue
            }
            guard lines.name == "VEVENT" else { continue }
            for line in lines.properties where timeProperties.contains(line.name) {
                let parameters = line.text.prefix(max(0, (line.valueColumn ?? 1) - 2))
                if let tzid = parameters.split(separator: ";").dropFirst().first(where: { $0.uppercased().hasPrefix("TZID=") }) {
                    var value = tzid.dropFirst(5)
                    if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
                    namedZones.insert(value.trimmingSpaces)
                }
            }
            guard let uid = lines.properties.last(where: { $0.name == "UID" }) else { continue }
            let text = TextValue.decode(uid.value)
            guard !text.isEmpty else { continue }
            lastLines[text] = (lines.begin.line, (lastLines[text]?.count ?? 0) + 1)
        }
        return (lastLines, zones, namedZones)
    }

    /// A component's property lines and its subcomponents', in order, as text.
    private static func propertyTexts(_ lines: ComponentLines) -> [String] {
        lines.properties.map(\.text) + lines.children.flatMap { ["BEGIN:\($0.name)"] + propertyTexts($0) + ["END:\($0.name)"] }
    }

    @Test("The first pass split into stretches scanned at once finds what one pass finds, on every fixture and corpus file")
    func splitOutlineEqualsOnePass() throws {
        var compared = 0
        for path in Self.fixtures.map(\.path) + Self.allCorpusFiles {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            let whole = InputOutline.scan(descriptor: descriptor, parts: 1, segmentSize: 1)
            guard !whole.hasUncertainUIDs else { continue }
            for (parts, chunkSize) in [(2, 1 << 20), (3, 64), (7, 7)] {
                let split = InputOutline.scan(descriptor: descriptor, parts: parts, chunkSize: chunkSize, minimumSplitSize: 0, segmentSize: 1)
                let place = "\(path), \(parts) parts"
                #expect(split.referencedTimeZoneIDs == whole.referencedTimeZoneIDs, "\(place)")
                #expect(split.hasUncertainReferences == whole.hasUncertainReferences, "\(place)")
                #expect(split.hasOverrideWithoutUID == whole.hasOverrideWithoutUID, "\(place)")
                #expect(split.hasMessageMethod == whole.hasMessageMethod, "\(place)")
                #expect(split.timeZonePlaces == whole.timeZonePlaces, "\(place)")
                #expect(split.segmentStarts == whole.segmentStarts, "\(place)")
                #expect(split.uids.last?.lastLine == whole.uids.last?.lastLine, "\(place)")
                for (hash, _) in whole.uids[0].repeated {
                    #expect(split.uids.contains { $0.repeated[hash] != nil || $0.filter.contains(hash) }, "\(place)")
                }
            }
            compared += 1
        }
        #expect(compared > 20)
    }

    @Test("A split between an override and its master, and between a VTIMEZONE and its events, still finds both")
    func splitOutlineAcrossStretches() throws {
        var text = "BEGIN:VCALENDAR\r\n"
        for index in 0..<400 {
            text += "BEGIN:VEVENT\r\nUID:u\(index)\r\nDTSTART;TZID=Zone/\(index % 5):20250101T090000\r\nEND:VEVENT\r\n"
        }
        text += "BEGIN:VEVENT\r\nUID:u3\r\nRECURRENCE-ID:20250101T090000\r\nDTSTART:20250102T090000\r\nEND:VEVENT\r\n"
        text += "BEGIN:VTIMEZONE\r\nTZID:Zone/2\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"
        let path = try Self.temporaryFile(text)
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        for parts in [1, 2, 5, 16] {
            let outline = InputOutline.scan(descriptor: descriptor, parts: parts, minimumSplitSize: 0)
            #expect(outline.mayHaveOverrides("u3") && !outline.mayHaveOverrides("u4"), "\(parts) parts")
            // One stretch knows the override's own line; split, the last stretch's end is as far as it can tell.
            #expect(outline.lastEventLine(of: "u3") == (parts == 1 ? 1_602 : 1_610), "\(parts) parts")
            #expect(outline.timeZonePlaces?.map(\.line) == [1_607], "\(parts) parts")
            #expect(outline.referencedTimeZoneIDs == ["Zone/0", "Zone/1", "Zone/2", "Zone/3", "Zone/4"], "\(parts) parts")
        }
    }

    @Test("An override far from its master, and a VTIMEZONE far from its events: the first pass finds both")
    func farOutline() throws {
        var text = "BEGIN:VCALENDAR\r\n"
        for index in 0..<400 {
            text += "BEGIN:VEVENT\r\nUID:u\(index)\r\nDTSTART;TZID=Zone/\(index % 5):20250101T090000\r\nEND:VEVENT\r\n"
        }
        text += "BEGIN:VEVENT\r\nUID:u3\r\nRECURRENCE-ID:20250101T090000\r\nDTSTART:20250102T090000\r\nEND:VEVENT\r\n"
        text += "BEGIN:VTIMEZONE\r\nTZID:Zone/2\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"
        let path = try Self.temporaryFile(text)
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        for chunkSize in [7, 64, 1 << 20] {
            let outline = InputOutline.scan(InputBytes(reading: descriptor, from: 0, to: nil, chunkSize: chunkSize))
            #expect(outline.mayHaveOverrides("u3") && !outline.mayHaveOverrides("u4"), "\(chunkSize)")
            #expect(outline.lastEventLine(of: "u3") == 1_602, "\(chunkSize)")
            #expect(outline.timeZonePlaces?.map(\.line) == [1_607], "\(chunkSize)")
            #expect(outline.timeZonePlaces?.map(\.timeZoneID) == ["Zone/2"], "\(chunkSize)")
            #expect(outline.referencedTimeZoneIDs == ["Zone/0", "Zone/1", "Zone/2", "Zone/3", "Zone/4"], "\(chunkSize)")
        }
    }

    @Test("A named pipe is read like a file: copied first, so that the first pass and the import can both read it")
    func namedPipe() throws {
        let fixture = try #require(Self.fixtures.first { $0.lastPathComponent == "recurring-with-moved-instance.ics" } ?? Self.fixtures.first)
        let bytes = try CalendarSource.file(fixture.path).read()
        let path = NSTemporaryDirectory() + "streaming-pipe-\(UUID().uuidString)"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let writer = Thread {
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        writer.start()
        let importer = SessionImporter(expansion: Self.expansion)
        let piped = try importer.importSessions(from: .file(path))
        let direct = try importer.importSessions(from: .file(fixture.path))
        #expect(piped.sessions.map(\.id) == direct.sessions.map(\.id))
        #expect(piped.sessions.map(\.points) == direct.sessions.map(\.points))
        #expect(!direct.sessions.isEmpty)
    }

    /// The corpus for the tests that only scan bytes: cheap, and the unsafe scanning is what the
    /// sanitizer runs should see too.
    private static var allCorpusFiles: [String] { corpusFiles(evenWhenSkipped: true) }

    private static var corpusFiles: [String] { corpusFiles(evenWhenSkipped: false) }

    private static func corpusFiles(evenWhenSkipped: Bool) -> [String] {
        guard sharedCorpusWanted || evenWhenSkipped else { return [] }
        let corpus = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus")
        guard let enumerator = FileManager.default.enumerator(atPath: corpus.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".ics") }.sorted()
            .map { corpus.appendingPathComponent($0).path }
    }

    @Test("UID, SUMMARY, CATEGORIES and points read without libical equal libical's reading, on every fixture and corpus file")
    func textPropertiesAgainstLibical() throws {
        let files = Self.fixtures.map(\.path) + Self.corpusFiles
        var events = 0
        for path in files {
            guard let bytes = try? CalendarSource.file(path).read() else { continue }  // (Data(contentsOf:) leaks on Linux)
            var cutter = ComponentCutter(scanner: ContentLineScanner(bytes: bytes))
            var reader = ComponentReader(pointsProperty: "X-POINTS")
            while let item = cutter.next() {
                guard case .component(let lines, _) = item, lines.name == "VEVENT" else { continue }
                let viaLibical = ComponentParsing.parse(lines, reader: &reader, reading: .everyProperty)
                let own = ComponentParsing.parse(lines, reader: &reader, reading: .sessionProperties)
                guard case .event(let expected) = viaLibical, case .event(let record) = own else { continue }
                events += 1
                let where_ = "\(path):\(lines.begin.line)"
                #expect(record.uid == expected.uid, "\(where_)")
                #expect(record.summary == expected.summary, "\(where_)")
                if lines.properties.contains(where: { $0.name == "CATEGORIES" && $0.value.contains("\\,") }) {
                    // RFC 5545 3.3.11: "\," is a comma inside one category; libical splits there too.
                    #expect(record.categories.count < expected.categories.count, "\(where_)")
                } else {
                    #expect(record.categories == expected.categories, "\(where_)")
                }
                #expect(record.points?.text.trimmingSpaces == expected.points?.text.trimmingSpaces, "\(where_)")
                #expect(record.start == expected.start && record.end == expected.end, "\(where_)")
            }
        }
        #expect(events > (sharedCorpusWanted ? 1_000 : 50))
    }

    @Test("The line-end finder, eight bytes at a time, stops where a byte-by-byte search does")
    func lineEndFinder() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x0A, 0x0D, 0x00, 0x41, 0x20, 0xFF, 0x8A, 0x8D, 0x0B, 0x09]
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 40, 200] {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in
                    Bool.random(using: &generator) ? UInt8(0x41) : alphabet.randomElement(using: &generator)!
                }
                bytes.withUnsafeBufferPointer { buffer in
                    for start in 0...length {
                        let expected = bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? length
                        #expect(ContentLineScanner.lineEnd(in: buffer, from: start) == expected, "\(bytes) from \(start)")
                    }
                }
            }
        }
    }

    @Test("TEXT values: RFC 5545 escapes, lists split at unescaped commas")
    func textValues() {
        #expect(TextValue.decode(#"a\,b\;c\\d\ne\Nf"#) == "a,b;c\\d\ne\nf")
        #expect(TextValue.decode("  spaced  ") == "spaced")
        #expect(TextValue.decode(#"odd\qescape"#) == #"odd\qescape"#)
        #expect(TextValue.decodeList(#"one,two\,three, four"#) == ["one", "two,three", "four"])
    }

    /// One case per fixture, so that the cases share the cores (the sanitizer runs wait for the slowest test).
    @Test("The AsyncSequence gives each batch's diagnostics and sessions: the same as the whole import",
          arguments: fixtures)
    func asyncEvents(fixture: URL) async throws {
        do {
            let importer = SessionImporter(expansion: Self.expansion)
            var sessions: [Session] = []
            var diagnostics: [Diagnostic] = []
            for try await batch in importer.sessionBatches(from: [.file(fixture.path)]) {
                sessions += batch.sessions
                diagnostics += batch.diagnostics
            }
            let whole = try importer.importSessions(from: .file(fixture.path))
            let key: (Session) -> String = { "\($0.id) \($0.start) \($0.points)" }
            #expect(sessions.map(key).sorted() == whole.sessions.map(key).sorted(), "\(fixture.lastPathComponent)")
            let wholeDiagnostics = whole.diagnostics.filter { $0.code != .points || !$0.message.hasPrefix("no session has") }
            #expect(Set(diagnostics.map(\.description)) == Set(wholeDiagnostics.map(\.description)), "\(fixture.lastPathComponent)")
        }
    }

    @Test("A file that cannot be opened throws from the stream")
    func missingFile() async {
        await #expect(throws: CalendarReadError.self) {
            for try await _ in SessionImporter(expansion: testExpansion).sessionBatches(from: [.file("/nonexistent/calendar.ics")]) {}
        }
    }
}
