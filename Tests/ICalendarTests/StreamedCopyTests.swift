@testable import ICalendar
import Streaks
import Testing

/// An output that keeps what it is given, and the largest piece it was given at once.
private struct RecordingOutput: CalendarOutput {
    var bytes: [UInt8] = []
    var largestPiece = 0

    mutating func write(_ piece: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: piece)
        largestPiece = max(largestPiece, piece.count)
    }
}

/// An output that fails once it would hold more than `capacity` bytes, as a full disk does.
private struct FullOutput: CalendarOutput {
    struct Full: Error, Equatable {}

    var capacity: Int
    var count = 0

    mutating func write(_ piece: UnsafeRawBufferPointer) throws(Full) {
        guard count + piece.count <= capacity else { throw Full() }
        count += piece.count
    }
}

private let writer = CalendarWriter(ownedPropertyPrefix: "X-STREAKCAL-", annotationMarker: "X-STREAKCAL-ANNOTATION")

/// A calendar of `count` small events over 2024, a fifth of them in a zone no VTIMEZONE defines
/// (the copy adds one before them), and, given `description` octets, a last event with a folded
/// DESCRIPTION that long.
private func generatedCalendar(events count: Int, description: Int = 0) -> [UInt8] {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nX-WR-CALNAME:Generated\r\n"
    for index in 0..<count {
        let day = 1 + index % 28
        let start = index % 5 == 0
            ? "DTSTART;TZID=Europe/Berlin:202403\(day < 10 ? "0" : "")\(day)T090000"
            : "DTSTART:202403\(day < 10 ? "0" : "")\(day)T\(10 + index % 10)0000Z"
        text += "BEGIN:VEVENT\r\nUID:e\(index)\r\n\(start)\r\nSUMMARY:Run\\, \(index)\r\nX-POINTS:\(index % 9 + 1)\r\nEND:VEVENT\r\n"
    }
    if description > 0 {
        let line = "DESCRIPTION:" + String(repeating: "Ab\\, cd\\; é\\n", count: description / 14)
        var folded = ""
        var piece = ""
        for character in line {
            if piece.utf8.count + character.utf8.count > 74 {
                folded += piece + "\r\n "
                piece = ""
            }
            piece.append(character)
        }
        text += "BEGIN:VEVENT\r\nUID:long\r\nDTSTART:20240330T090000Z\r\n" + folded + piece + "\r\nEND:VEVENT\r\n"
    }
    return Array((text + "END:VCALENDAR\r\n").utf8)
}

@Suite("Copying calendars a component at a time")
struct StreamedCopyTests {
    @Test("annotate-memory-abort.sh: what the copy holds of the components it copied does not grow with the input", arguments: [2_000, 20_000])
    func boundedMemory(events: Int) throws {
        let source = CalendarSource.bytes(generatedCalendar(events: events), name: "generated.ics")
        let limit = 64 << 10
        let copy = try writer.copy([source], marks: [:], memoryLimit: limit)
        let (isSpooledToFile, held) = (copy.isSpooledToFile, copy.largestSpooledInMemory)
        #expect(isSpooledToFile)
        // The limit, and one line that went over it: the same for 2,000 events and for 20,000.
        #expect(held <= limit + 256)
        var output = RecordingOutput()
        try copy.write(adding: [], timestamp: 0, to: &output)
        #expect(output.largestPiece <= CopySpool.pieceSize)
        // What goes through the file is what the copy in memory writes.
        let whole = try writer.write([source], adding: [], timestamp: 0)
        #expect(output.bytes == Array(whole.text.utf8))
        #expect(whole.text.components(separatedBy: "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n").count == 2)
        #expect(whole.text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nX-WR-CALNAME:Generated\r\nBEGIN:VTIMEZONE\r\n"))
    }

    @Test("folded-long-line: a 3 MB DESCRIPTION is written a piece at a time, never held whole by the copy")
    func longLine() throws {
        let source = CalendarSource.bytes(generatedCalendar(events: 10, description: 3 << 20), name: "long.ics")
        let limit = 64 << 10
        let copy = try writer.copy([source], marks: [:], memoryLimit: limit)
        let held = copy.largestSpooledInMemory
        #expect(held <= limit + LongTextLine.pieceSize + 256)
        var output = RecordingOutput()
        try copy.write(adding: [], timestamp: 0, to: &output)
        #expect(output.largestPiece <= CopySpool.pieceSize)
        let text = String(decoding: output.bytes, as: UTF8.self)
        var scanner = ContentLineScanner(bytes: output.bytes)
        var description: ContentLine?
        while let line = scanner.next() {
            if line.name == "DESCRIPTION" {
                description = line
                break
            }
        }
        let value = try #require(description).value
        #expect(TextValue.decode(value) == String(repeating: "Ab, cd; é\n", count: (3 << 20) / 14))
        #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    }

    @Test("A value of spaces, short or long: TEXT is written empty (StreakCal reads it so), an X- value as it is")
    func spaces() throws {
        let long = String(repeating: " ", count: LineCheck.longLine + 10)
        let text = [
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a", "DTSTART:20240301T090000Z", "SUMMARY:   ", "X-NOTE:   ",
            "DESCRIPTION:" + long, "X-LONG:" + long, "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        let output = try writer.write([.string(text, name: "spaces.ics")], adding: [], timestamp: 0)
        let unfolded = output.text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("\r\nSUMMARY:\r\nX-NOTE:   \r\nDESCRIPTION:\r\nX-LONG:" + long + "\r\n"))
        #expect(output.diagnostics.isEmpty)
    }

    @Test("A copy's write stops at the first write its output refuses, with that output's error")
    func failingOutput() throws {
        let copy = try writer.copy([.bytes(generatedCalendar(events: 2_000), name: "generated.ics")], marks: [:], memoryLimit: 64 << 10)
        var output = FullOutput(capacity: 100_000)
        var failure: FullOutput.Full?
        do {
            try copy.write(adding: [], timestamp: 0, to: &output)
        } catch .output(let full) {
            failure = full  // the output's own error, typed: CalendarCopyError<FullOutput.Full>
        } catch {
            Issue.record("not the output's failure: \(error)")
        }
        #expect(failure == FullOutput.Full())
        #expect(output.count <= 100_000)
    }

    @Test("A copy of an input that cannot be read throws that read error, with its code")
    func unreadableInput() {
        do {
            _ = try writer.copy([.file("/no/such/folder/calendar.ics")])
            Issue.record("a missing file was copied")
        } catch .unreadable(let error) {
            #expect(error.code == .notFound)
            #expect("\(CalendarCopyError<Never>.unreadable(error))" == error.description)
        } catch {
            Issue.record("not a read error: \(error)")
        }
    }

    @Test("Several inputs, several METHODs: each VCALENDAR gets its zones and the first the calendar properties of all, as in memory")
    func severalInputs() throws {
        let request = "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nX-WR-CALNAME:B\r\nBEGIN:VEVENT\r\nUID:r\r\nDTSTART;TZID=America/New_York:20240301T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let sources: [CalendarSource] = [
            .bytes(generatedCalendar(events: 3_000), name: "a.ics"), .string(request, name: "b.ics"),
            .bytes(generatedCalendar(events: 100), name: "c.ics"),
        ]
        let copy = try writer.copy(sources, marks: [:], memoryLimit: 4 << 10)
        let diagnostics = copy.diagnostics
        var output = RecordingOutput()
        let event = AllDayEvent(uid: "2024-03-01.x@streakcal.local", day: try! Day(year: 2024, month: 3, day: 1), summary: "✓")
        try copy.write(adding: [event], timestamp: 0, to: &output)
        let whole = try writer.write(sources, adding: [event], timestamp: 0)
        #expect(output.bytes == Array(whole.text.utf8))
        #expect(diagnostics == whole.diagnostics)
        #expect(whole.text.components(separatedBy: "BEGIN:VCALENDAR").count - 1 == 3)
        #expect(whole.text.contains("X-WR-CALNAME:Generated\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
        #expect(diagnostics.map(\.message).contains { $0.hasPrefix("the inputs' VCALENDARs have different METHODs (REQUEST, none)") })
    }

    @Test("A line appended a piece at a time is folded as the whole line is", arguments: [1, 2, 3])
    func piecesFoldAsLines(seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        let alphabet = Array("abc;,\\ \tXé€日😀\u{01}\u{7F}".unicodeScalars)
        for length in 0...300 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length { scalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]) }
            let line = "X-NOTE:" + String(scalars)
            var whole = FoldedText()
            whole.append(line: line)
            var pieces = FoldedText()
            var rest = Substring(line)
            while !rest.isEmpty {
                let cut = rest.index(rest.startIndex, offsetBy: Int.random(in: 1...max(1, rest.count), using: &generator))
                pieces.appendPiece(String(rest[..<cut]))
                rest = rest[cut...]
            }
            pieces.endLine()
            #expect(pieces.bytes == whole.bytes, "length \(length)")
        }
    }

    @Test("What a copy says of an input is what DiagnosticLimit admits of all of it sorted by place", arguments: [1, 2, 3, 4])
    func diagnosticsAsAdmitted(seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        let codes: [Diagnostic.Code] = [.libical, .structure, .malformedLine, .encoding, .unknownTimeZone]
        var copied: [Diagnostic] = []
        var cut: [[Diagnostic]] = []
        for _ in 0..<Int.random(in: 0...600, using: &generator) {
            let diagnostic = Diagnostic(
                [.warning, .error, .note][Int.random(in: 0...2, using: &generator)], codes[Int.random(in: 0..<codes.count, using: &generator)],
                at: SourceLocation(file: InputMap.name, line: Int.random(in: 1...40, using: &generator), column: Int.random(in: 1...2, using: &generator)),
                "message \(Int.random(in: 0...3, using: &generator))")
            if diagnostic.code == .libical || diagnostic.code == .unknownTimeZone {
                if diagnostic.severity > .note { copied.append(diagnostic) }
            } else if cut.isEmpty || Bool.random(using: &generator) {
                cut.append([diagnostic])
            } else {
                cut[cut.count - 1].append(diagnostic)
            }
        }
        // The scanner's and the cutter's, each in the order they said them, taken in batches.
        let batches = cut.map { batch in
            batch.filter { [.malformedLine, .encoding].contains($0.code) } + batch.filter { ![.malformedLine, .encoding].contains($0.code) }
        }
        var problems = SourceProblems()
        var copyIterator = copied.makeIterator()
        for batch in batches {
            if let next = copyIterator.next() { problems.add(next) }
            problems.add(cut: batch)
        }
        while let next = copyIterator.next() { problems.add(next) }
        let all = batches.joined()
        let everything = copied + all.filter { [.malformedLine, .encoding].contains($0.code) } + all.filter { ![.malformedLine, .encoding].contains($0.code) }
        var limit = DiagnosticLimit()
        let expected = limit.admit(SessionImporter.inSourceOrder(everything.filter { $0.severity > .note })) + limit.notes
        #expect(problems.admitted == expected)
    }
}

/// SplitMix64: a failure names the seed it came from.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
