import Foundation
@testable import StreakCal
@testable import StreakCalRemote
import StreakExport
import Testing
import FixedClock

private let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func fixture(_ name: String) -> String {
    root.appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

private let settings = ReportSettings(timeZone: "UTC", to: try! Day(year: 2024, month: 12, day: 31))
/// A fixed "today", so that reports do not depend on the day the tests run.
private let now: Int64 = 1_735_603_200
/// The folder `path` records may name.
private let fixtures = [root.appendingPathComponent("Fixtures").path]

private func object(_ line: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}

/// Every fixture with its JSON line (id = the file's name); in the sanitizer runs all but the
/// slowest (`calendarFixtureNames()`).
private func fixtureRequests() throws -> [(name: String, line: String)] {
    let names = calendarFixtureNames()
    #expect(!names.isEmpty, "no fixtures in \(fixtureFolder.path)")
    return names.map { name in
        (name, "{\"id\": \"\(name)\", \"path\": \"\(fixture(name))\"}")
    }
}

@Suite("batch --jsonl: a streaming map step")
struct JSONLinesBatchTests {
    @Test("Each record's report is what batch writes for the calendar, byte for byte; figures as in summary.json", arguments: [ReportFormat.json, .html])
    func sameAsBatch(format: ReportFormat) throws {
        let requests = try fixtureRequests()
        let lines = Collected<String>()
        let tally = JSONLinesBatch(settings: settings, format: format, jobs: 3, now: now, roots: fixtures)
            .run(lines: requests.map(\.line)) { lines.append($0) }
        #expect(tally.records == requests.count)
        let batch = BatchReport(paths: requests.map { fixture($0.name) }, settings: settings, format: format, jobs: 2, recordsElapsedTime: false, now: now)
        let expected = batch.render()
        try #require(expected.count == requests.count)
        for (index, (line, rendered)) in zip(lines.values, expected).enumerated() {
            #expect(!line.contains("\n"), "one line per record")
            let record = try object(line)
            #expect(record["line"] as? Int == index + 1)
            #expect(record["id"] as? String == requests[index].name)
            #expect(record["report"] as? String == rendered.text, "\(requests[index].name)")
            #expect(record["error"] is NSNull == (rendered.result.error == nil))
            #expect(record["name"] as? String == rendered.result.name)
            #expect(record["sessions"] as? Int == rendered.result.sessions)
            #expect(record["daysMet"] as? Int == rendered.result.daysMet)
            let diagnostics = try #require(record["diagnostics"] as? [[String: Any]])
            let counts = rendered.result.diagnostics
            #expect(diagnostics.count == counts.errors + counts.warnings + counts.notes)
        }
    }

    @Test("A bad line is an error record for that line, and the stream goes on; blank lines are passed over")
    func badLines() throws {
        let lines = Collected<String>()
        let input = [
            "{\"id\": \"ok\", \"path\": \"\(fixture("tutorial-sample.ics"))\"}",
            "not json at all",
            "",
            "   ",
            "[1, 2]",
            "{\"path\": \"x.ics\"}",
            "{\"id\": null, \"path\": \"x.ics\"}",
            "{\"id\": true, \"path\": \"x.ics\"}",
            "{\"id\": [1], \"path\": \"x.ics\"}",
            "{\"id\": 7}",
            "{\"id\": 8, \"path\": \"a\", \"ics\": \"b\"}",
            "{\"id\": 9, \"path\": 12}",
            "{\"id\": 10, \"ics\": {\"x\": 1}}",
            "{\"id\": \"gone\", \"path\": \"\(fixture("no-such-file.ics"))\"}",
            "{\"id\": 12.5, \"ics\": \"BEGIN:VCALENDAR\\r\\nBEGIN:VEVENT\\r\\nUID:a\\r\\nDTSTART:20240220T080000Z\\r\\nX-POINTS:100\\r\\nEND:VEVENT\\r\\nEND:VCALENDAR\\r\\n\", \"extra\": \"ignored\"}",
            "{\"id\": \"\", \"path\": \"\"}",
        ]
        let tally = JSONLinesBatch(settings: settings, format: .csv, jobs: 2, now: now, roots: fixtures).run(lines: input) { lines.append($0) }
        let records = try lines.values.map(object)
        #expect(tally.records == 14 && records.count == 14)
        #expect(records.map { $0["line"] as? Int } == [1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])
        let errors = records.map { $0["error"] as? String }
        #expect(errors == [
            nil, "line 2: not JSON", "line 5: not a JSON object",
            "line 6: no \"id\": each line needs one, a string or a number",
            "line 7: no \"id\": each line needs one, a string or a number",
            "line 8: \"id\" must be a string or a number", "line 9: \"id\" must be a string or a number",
            "line 10: none of \"path\", \"ics\", \"icsBase64\" and \"url\": give one",
            "line 11: more than one of \"path\", \"ics\", \"icsBase64\" and \"url\": give one",
            "line 12: \"path\" must be a string", "line 13: \"ics\" must be a string",
            "cannot read \(fixture("no-such-file.ics")): no such file", nil, "line 16: \"path\" is empty",
        ])
        #expect(tally.failed == 12)
        #expect(records[7]["id"] as? Int == 7 && records[11]["id"] as? String == "gone" && records[13]["id"] as? String == "")
        #expect(records[1]["id"] is NSNull)
        // A calendar given as text is named by its id in diagnostics and figures.
        #expect(records[12]["id"] as? Double == 12.5)
        // A CSV report carries the record's id first, as a batch's carries the calendar's.
        #expect((records[12]["report"] as? String)?.hasPrefix("id,date,points,sessions,status\r\n12.5,2024-02-20,100,1,met\r\n") == true)
        #expect(records[12]["sessions"] as? Int == 1)
        #expect(records[12]["name"] as? String == "12.5")
    }

    @Test("A key given twice: the last counts (as Python's json reads it); numeric ids come back exactly as written (repro jsonl-id-and-duplicate-keys.sh)")
    func duplicateKeysAndNumericIDs() throws {
        let calendar = "BEGIN:VCALENDAR\\r\\nBEGIN:VEVENT\\r\\nUID:a\\r\\nDTSTART:20240220T080000Z\\r\\nX-POINTS:100\\r\\nEND:VEVENT\\r\\nEND:VCALENDAR\\r\\n"
        let input = [
            "{\"id\": \"first\", \"ics\": \"nothing\", \"id\": \"second\", \"ics\": \"\(calendar)\"}",
            "{\"id\": 12345678901234567890123, \"ics\": \"\(calendar)\"}",
            "{\"id\": -0, \"ics\": \"\(calendar)\"}",
            "{\"id\": 1.50, \"ics\": \"\(calendar)\"}",
            "{\"id\": 2E+3, \"id\": null, \"ics\": \"\(calendar)\"}",
            "{\"id\": 7, \"icsBase64\": \"QkVH\", \"icsBase64\": 5}",
            "{\"id\": 8, \"extra\": [\(String(repeating: "[", count: 40))]}",
        ]
        let lines = Collected<String>()
        _ = JSONLinesBatch(settings: settings, format: .csv, jobs: 2, now: now).run(lines: input) { lines.append($0) }
        let records = lines.values
        #expect(records.count == 7)
        // The id as the output line has it, byte for byte.
        #expect(records.map { record in record.firstMatch(of: /"id":([^,]*),/).map { String($0.1) } } == [
            "\"second\"", "12345678901234567890123", "-0", "1.50", "null", "7", "null",
        ])
        let objects = try records.map(object)
        #expect(objects[0]["sessions"] as? Int == 1 && objects[0]["error"] is NSNull, "the second ics, the first's text is passed over")
        #expect(objects[1]["name"] as? String == "12345678901234567890123")
        #expect(objects[3]["name"] as? String == "1.50")
        #expect(objects[4]["error"] as? String == "line 5: no \"id\": each line needs one, a string or a number")
        #expect(objects[5]["error"] as? String == "line 6: \"icsBase64\" must be a string")
        #expect(objects[6]["error"] as? String == "line 7: the JSON is nested more than 32 deep")
    }

    @Test("A line of many small values is refused as one record before its values take more than the line")
    func manyValues() throws {
        let zeros = Array(repeating: "0", count: 200_000).joined(separator: ",")
        let line = "{\"id\": 1, \"extra\": [\(zeros)]}"
        let lines = Collected<String>()
        _ = JSONLinesBatch(settings: settings, format: .csv, jobs: 1, now: now).run(lines: [line]) { lines.append($0) }
        let record = try object(try #require(lines.values.first))
        #expect(record["error"] as? String == "line 1: the JSON's values take more than \(line.utf8.count) bytes")
        #expect(record["id"] is NSNull)
    }

    @Test("icsBase64: a calendar's exact bytes (Latin-1, UTF-16), named by its id, report as the file's")
    func base64() throws {
        let lines = Collected<String>()
        var input: [String] = []
        for name in ["encoding-latin1.ics", "encoding-utf16le-bom.ics", "tutorial-sample.ics"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture(name)))
            input.append("{\"id\": \"\(fixture(name))\", \"icsBase64\": \"\(bytes.base64EncodedString())\"}")
            input.append("{\"id\": \"\(fixture(name))\", \"path\": \"\(fixture(name))\"}")
        }
        input.append("{\"id\": 1, \"icsBase64\": \"@@not base64@@\"}")
        _ = JSONLinesBatch(settings: settings, format: .json, jobs: 2, now: now, roots: fixtures).run(lines: input) { lines.append($0) }
        let records = try lines.values.map(object)
        #expect(records.count == 7)
        for pair in stride(from: 0, to: 6, by: 2) {
            // The bytes give the same report as the file, diagnostics (and their file names) included.
            #expect(records[pair]["report"] as? String == records[pair + 1]["report"] as? String)
            #expect(records[pair]["error"] is NSNull)
        }
        #expect((records[0]["diagnostics"] as? [Any])?.isEmpty == false, "the Latin-1 line is noted")
        #expect(records[6]["error"] as? String == "line 7: \"icsBase64\" is not base64")
    }

    @Test("Completion order: every record once, tagged by line and id")
    func completionOrder() throws {
        let requests = try fixtureRequests()
        let lines = Collected<String>()
        _ = JSONLinesBatch(settings: settings, format: .json, jobs: 4, order: .completion, now: now, roots: fixtures)
            .run(lines: requests.map(\.line)) { lines.append($0) }
        let records = try lines.values.map(object)
        #expect(records.compactMap { $0["line"] as? Int }.sorted() == Array(1...requests.count))
        #expect(Set(records.compactMap { $0["id"] as? String }) == Set(requests.map(\.name)))
    }

    @Test("Memory stays bounded: no more lines are read ahead than the window, however slowly records are taken")
    func window() throws {
        let batch = JSONLinesBatch(settings: settings, format: .csv, jobs: 2, now: now, roots: fixtures)
        let line = "{\"id\": 1, \"path\": \"\(fixture("tutorial-sample.ics"))\"}"
        let written = Collected<String>()
        // The first record is written only once the reader has read a whole window ahead: the
        // reader must not wait for records to be written before then, nor read further.
        let windowRead = DispatchSemaphore(value: 0)
        var read = 0
        var mostAhead = 0
        let tally = batch.run(nextLine: { () throws(CalendarReadError) -> JSONLinesBatch.InputLine? in
            guard read < 200 else { return nil }
            mostAhead = max(mostAhead, read - written.count)
            read += 1
            if read == batch.window { windowRead.signal() }
            return .text(Array(line.utf8))
        }, emit: { line in
            if written.count == 0 { windowRead.wait() }
            written.append(line)
        }).tally
        #expect(batch.window == 8 && JSONLinesBatch(jobs: 3, now: testNow).window == 12, "docs/robustness.md's figure: max(8, 4 × jobs)")
        #expect(tally.records == 200)
        #expect(written.count == 200)
        #expect(mostAhead <= batch.window, "\(mostAhead) lines read ahead, window \(batch.window)")
        #expect(mostAhead >= batch.window - 1, "the reader went on while no record was written")
    }

    @Test("Bytes in flight are bounded too: a line waits until the lines before it leave room, a longer one goes alone")
    func bytesInFlight() throws {
        var batch = JSONLinesBatch(settings: settings, format: .csv, jobs: 2, now: now, roots: fixtures)
        batch.byteBudget = 100_000
        let padding = String(repeating: "x", count: 30_000)
        let line = Array("{\"id\": 1, \"pad\": \"\(padding)\", \"path\": \"\(fixture("tutorial-sample.ics"))\"}".utf8)
        let huge = Array("{\"id\": 2, \"pad\": \"\(String(repeating: padding, count: 5))\", \"path\": \"x\"}".utf8)
        let written = Collected<String>()
        // The first record is written once the reader has read a fourth line: three fit in 100,000 bytes.
        let fourthRead = DispatchSemaphore(value: 0)
        var read = 0
        var mostAhead = 0
        let tally = batch.run(nextLine: { () throws(CalendarReadError) -> JSONLinesBatch.InputLine? in
            guard read < 40 else { return nil }
            mostAhead = max(mostAhead, read - written.count)
            read += 1
            if read == 4 { fourthRead.signal() }
            return .text(read % 10 == 0 ? huge : line)
        }, emit: { line in
            if written.count == 0 { fourthRead.wait() }
            written.append(line)
        }).tally
        #expect(JSONLinesBatch.bytesInFlight == 512 << 20, "docs/robustness.md's figure")
        #expect(tally.records == 40)
        #expect(mostAhead == 3, "\(mostAhead) lines of \(line.count) bytes in flight, budget 100,000")
        #expect(try written.values.map { try object($0)["id"] as? Int } == (1...40).map { $0 % 10 == 0 ? 2 : 1 })
    }

    @Test("A long ics text is decoded into a temporary file the import reads as a file; the records are those of the text decoded in memory")
    func longTextThroughAFile() throws {
        var lines: [[UInt8]] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Fixtures").path).sorted() where name.hasSuffix(".ics") {
            guard let text = String(validating: try Data(contentsOf: URL(fileURLWithPath: fixture(name))), as: UTF8.self) else { continue }
            let encoder = JSONEncoder()
            lines.append(Array("{\"id\": \"\(name)\", \"ics\": ".utf8) + (try encoder.encode(text)) + [0x7D])
        }
        // Escapes, surrogate pairs and bytes that are not UTF-8 (raw, in the line) decode alike both ways.
        let odd = "BEGIN:VEVENT\\r\\nUID:a\\r\\nDTSTART:20240220T080000Z\\r\\nX-POINTS:50\\r\\nSUMMARY:\\u00e9 \\ud83c\\udfb9 é "
        lines.append(Array("{\"id\": 1, \"ics\": \"\(odd)".utf8) + [0xFF, 0xE2, 0x82, 0x41, 0x80] + Array("\\r\\nEND:VEVENT\\r\\n\"}".utf8))
        var records: [[String]] = []
        for limit in [JSONLinesBatch.longestTextInMemory, 0] {
            var batch = JSONLinesBatch(settings: settings, format: .json, jobs: 2, now: now)
            batch.textInMemoryLimit = limit
            let written = Collected<String>()
            var remaining = lines[...]
            _ = batch.run(nextLine: { () throws(CalendarReadError) -> JSONLinesBatch.InputLine? in
                remaining.popFirst().map { .text($0) }
            }, emit: { written.append($0) })
            records.append(written.values)
        }
        #expect(JSONLinesBatch.longestTextInMemory == 1 << 20, "docs/robustness.md's figure")
        #expect(records[0].count == lines.count)
        #expect(records[0] == records[1])
        let last = try object(try #require(records[1].last))
        #expect(last["sessions"] as? Int == 1 && last["error"] is NSNull)

        // Taken from the line: in memory as bytes, or as a file that stays open while it is read.
        let line = lines[0]
        let (id, calendar, _) = try JSONLinesBatch.Request.parse(line).get()
        let inMemory = try JSONLinesBatch.Request.take(calendar, from: line, id: id, files: ConfinedFiles(roots: []), fetcher: nil, textInMemoryLimit: line.count).get()
        let spooled = try JSONLinesBatch.Request.take(calendar, from: line, id: id, files: ConfinedFiles(roots: []), fetcher: nil, textInMemoryLimit: 0).get()
        let memorySource = try #require(inMemory.calendars.first), spooledSource = try #require(spooled.calendars.first)
        #expect(inMemory.calendars.count == 1 && spooled.calendars.count == 1)
        guard case .bytes(let bytes) = memorySource.content, case .file(let path) = spooledSource.content else {
            Issue.record("\(memorySource.content), \(spooledSource.content)")
            return
        }
        #expect(inMemory.file == nil && spooled.file != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        #expect(spooledSource.name == memorySource.name)
    }

    @Test("A failed write stops the run: the error comes back, no more lines are read")
    func failedWrite() throws {
        struct Closed: Error {}
        let batch = JSONLinesBatch(settings: settings, format: .csv, jobs: 2, now: now, roots: fixtures)
        let line = "{\"id\": 1, \"path\": \"\(fixture("tutorial-sample.ics"))\"}"
        var read = 0
        #expect(throws: Closed.self) {
            _ = try batch.run(nextLine: { () throws(CalendarReadError) -> JSONLinesBatch.InputLine? in
                read += 1
                return read <= 10_000 ? .text(Array(line.utf8)) : nil
            }, emit: { _ in throw Closed() })
        }
        #expect(read < 100)
        // `run(lines:emit:)` throws exactly what `emit` throws: a `Closed` here, known to the compiler.
        let typed = Result { () throws(Closed) -> JSONLinesBatch.Tally in
            try batch.run(lines: Array(repeating: line, count: 20)) { (_: String) throws(Closed) in throw Closed() }
        }
        #expect(throws: Closed.self) { try typed.get() }
    }

    /// The lines a reader gives for `text` written into a pipe, as `text:...` or `long:N`.
    private func lines(of text: String, longest: Int = JSONLinesBatch.longestLine) throws -> [String] {
        var pipe: [Int32] = [0, 0]
        #expect(Foundation.pipe(&pipe) == 0)
        let writeEnd = pipe[1]
        let writer = Thread {
            _ = text.utf8CString.withUnsafeBytes { Foundation.write(writeEnd, $0.baseAddress, $0.count - 1) }
            close(writeEnd)
        }
        writer.start()
        defer { close(pipe[0]) }
        var reader = LineReader(descriptor: pipe[0], longest: longest)
        var lines: [String] = []
        while let line = try reader.next() {
            switch line {
            case .text(let text): lines.append("text:" + String(decoding: text, as: UTF8.self))
            case .tooLong(let bytes): lines.append("long:\(bytes)")
            }
        }
        return lines
    }

    @Test("Lines from a file descriptor: LF or CRLF ends, a last line without one, lines longer than a read")
    func lineReader() throws {
        let long = String(repeating: "x", count: 200_000)
        #expect(try lines(of: "one\r\ntwo\n\n\(long)\nlast") == ["text:one", "text:two", "text:", "text:" + long, "text:last"])
        #expect(try lines(of: "") == [])
        #expect(try lines(of: "\n") == ["text:"])
    }

    @Test("A line longer than the limit is read through, not kept, and the lines after it come through")
    func tooLong() throws {
        let huge = String(repeating: "y", count: 300_000)
        #expect(try lines(of: "a\n\(huge)\r\nb\n\(huge)", longest: 100_000) == ["text:a", "long:300000", "text:b", "long:300000"])
        #expect(try lines(of: "\(String(repeating: "z", count: 100_000))\nc", longest: 100_000) == ["text:" + String(repeating: "z", count: 100_000), "text:c"])
        let record = JSONLinesBatch(settings: settings, format: .csv, jobs: 1, now: now)
            .record(for: JSONLinesBatch.Request(line: .tooLong(600 << 20), number: 4))
        #expect(record.error == "line 4: 629145600 bytes, longer than a line may be (512 MiB): give such a calendar by \"path\"")
    }

    @Test("Strings are escaped as JSONEncoder escapes them, byte for byte, with runs between escapes copied whole")
    func stringEscapes() throws {
        let everyASCII = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        let samples = [
            "", "plain", "\"", "\\", "/", everyASCII, "é 🎹 和音 \u{7F}\u{85}\u{2028}",
            String(repeating: "{\n  \"day\" : \"2024-01-01\"\n}", count: 2_000) + "tail",
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        for sample in samples {
            var json = JSONWriter(layout: .compact)
            json.string(sample)
            #expect(json.text == String(decoding: try encoder.encode(sample), as: UTF8.self), "\(sample.prefix(40).debugDescription)")
        }
        var json = JSONWriter(layout: .compact)
        json.open("[")
        json.element(indent: 2, first: true)
        json.string("a\nb")
        json.element(indent: 2, first: false)
        json.string("c")
        json.close("]", indent: 0, empty: false)
        #expect(json.text == #"["a\nb","c"]"#)
    }

    @Test("A record is one line of JSON: escapes, numbers and nulls as JSONSerialization reads them")
    func recordJSON() throws {
        var record = JSONLinesBatch.Record(line: 3)
        record.id = .string("a \"quoted\"\nid\\ \u{1} é 🎹")
        record.name = "Piano\tpractice"
        record.report = "line one\r\nline two\u{0}"
        record.error = "why"
        let text = record.json
        #expect(!text.contains("\n") && !text.contains("\r"))
        let parsed = try object(text)
        #expect(parsed["id"] as? String == "a \"quoted\"\nid\\ \u{1} é 🎹")
        #expect(parsed["name"] as? String == "Piano\tpractice")
        #expect(parsed["report"] as? String == "line one\r\nline two\u{0}")
        #expect(parsed["line"] as? Int == 3 && parsed["sessions"] is NSNull && parsed["currentStreak"] is NSNull)
        #expect(Set(parsed.keys) == [
            "currentStreak", "days", "daysMet", "diagnostics", "error", "errorCode", "id", "line", "longestStreak", "name", "points", "report", "sessions",
            "unit", "zone",
        ])
        record.id = .number("-42")
        #expect(try object(record.json)["id"] as? Int == -42)
        record.id = nil
        #expect(try object(record.json)["id"] is NSNull)
    }

    @Test("A url record is read by the fetcher the caller gives, as the file with the same text; without one, or one that names no host, it is refused")
    func urlRecordsThroughTheCallersFetcher() throws {
        let path = fixture("tutorial-sample.ics")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let asked = Collected<String>()
        let fetcher = CalendarFetcher(permittedHosts: ["calendar.example.com"]) { address in
            asked.append(address)
            return [CalendarSource(name: path, content: .bytes(Array(text.utf8)))]
        }
        let address = "https://calendar.example.com/team.ics"
        let lines = ["{\"id\": \"team\", \"url\": \"\(address)\"}", "{\"id\": \"file\", \"path\": \"\(path)\"}"]

        var batch = JSONLinesBatch(settings: settings, jobs: 1, now: now, roots: fixtures)
        batch.fetcher = fetcher
        let fetched = Collected<String>()
        _ = batch.run(lines: lines) { fetched.append($0) }
        #expect(asked.values == [address])
        let (team, file) = (try object(fetched.values[0]), try object(fetched.values[1]))
        #expect(team["error"] is NSNull)
        #expect(team["sessions"] as? Int == file["sessions"] as? Int)
        #expect((team["sessions"] as? Int ?? 0) > 0)
        #expect(team["report"] as? String == file["report"] as? String)

        for refusing in [nil, CalendarFetcher(permittedHosts: []) { _ in Issue.record("a fetcher that names no host was asked"); return [] }] {
            var batch = JSONLinesBatch(settings: settings, jobs: 1, now: now, roots: fixtures)
            batch.fetcher = refusing
            let refused = Collected<String>()
            _ = batch.run(lines: [lines[0]]) { refused.append($0) }
            let record = try object(try #require(refused.values.first))
            #expect(record["error"] as? String == "line 1: " + JSONLinesBatch.urlNeedsHost)
        }
    }

    @Test("The command's fetcher asks only the hosts its options permit")
    func subscriptionsFetcherHosts() {
        var options = DownloadOptions()
        #expect(CalendarFetcher.subscriptions(options).permittedHosts.isEmpty)
        options.permittedHosts = ["a.example", "b.example"]
        #expect(CalendarFetcher.subscriptions(options).permittedHosts == ["a.example", "b.example"])
    }
}
