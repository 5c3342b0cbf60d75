import Foundation
import Streaks

/// Several inputs read as one (`SessionImporter.importSessions(from:)` and `sessionBatches(from:)`
/// given several sources), so that what one says about another's events counts: a later copy of an event,
/// a cancellation, an override of a recurring event (RFC 5545 3.8.7.4, RFC 5546). Their bytes
/// follow each other in one stream (as UTF-8, each ending with a line end), and every location in
/// what the import says is mapped back to its input and line.
///
/// ```swift
/// let combined = InputMap(sources: [a, b])
/// print(combined.location(of: SourceLocation(file: InputMap.name, line: 12)))
/// // Prints "b.ics:3:1" when a.ics has 9 lines
/// ```
struct InputMap {
    /// One input's place in the stream.
    struct Part: Sendable {
        var name: String
        /// The calendar the input is a part of, when several make one.
        var collection: CalendarSource.Collection?
        /// The stream's line where the input's first line is.
        var firstLine: Int
        var lineCount: Int
        /// Whether it holds nothing but blank lines (or nothing at all).
        var isBlank = false
    }

    /// The name every location of an import has until the map gives it its input's: the parts of
    /// an import (scanner, cutter, reader, resolver) carry no file name; only the map does.
    static let name = "\u{1}input"

    private(set) var parts: [Part] = []
    /// An error for each input of several that could not be opened: the others are read.
    private(set) var unreadableInputs: [Diagnostic] = []
    /// ``sources(named:)``'s last answer, by how many names it was given (an import's names only
    /// grow as it reads on, so their count tells one list from another), and every input named by
    /// its file or collection alone: made once and shared (copies of an array share its storage),
    /// so that each batch of a folder of 100,000 files is not given 100,000 names made anew.
    private let named = Locked<(base: [ReportSource]?, count: Int, sources: [ReportSource])>((nil, -1, []))
    /// The stream, for inputs in memory.
    private(set) var bytes: [UInt8] = []
    private var lines = 0

    /// One input, read where it is: every location is its own.
    init(name: String, collection: CalendarSource.Collection? = nil) {
        parts = [Part(name: name, collection: collection, firstLine: 1, lineCount: Int.max / 2)]
    }

    /// Sources in memory (`CalendarSource.Content.bytes`), one after another in `bytes`.
    init(sources: [CalendarSource]) {
        for source in sources {
            if case .bytes(let bytes) = source.content { append(bytes, name: source.name, collection: source.collection) }
        }
    }

    /// Sources of any kind (`-` for standard input), one after another in an unlinked temporary
    /// file; `descriptor` is at its start. Each is copied a chunk at a time (UTF-16 is transcoded
    /// whole; such files are small).
    static func files(_ sources: [CalendarSource]) throws(CalendarReadError) -> (descriptor: Int32, map: InputMap) {
        let first = sources.first?.name ?? "-"
        guard let file = tmpfile() else { throw CalendarReadError(path: first, systemError: errno) }
        let descriptor = dup(fileno(file))
        fclose(file)
        guard descriptor >= 0 else { throw CalendarReadError(path: first, systemError: errno) }
        var combined = InputMap()
        do throws(CalendarReadError) {
            for source in sources {
                let input: InputBytes
                switch source.content {
                case .bytes(let bytes): input = InputBytes(bytes: bytes)
                case .file(let path):
                    // One file of a folder or collection that cannot be read (gone, no permission) is
                    // said, and the others are read; a file named on its own, or read alone, that
                    // cannot be read is an error of the whole import.
                    do throws(CalendarReadError) {
                        input = InputBytes(reading: try SessionImporter.openInput(path: path), owning: true)
                    } catch where sources.count > 1 && source.collection != nil {
                        combined.unreadableInputs.append(Self.unreadable(error, name: source.name))
                        continue
                    }
                case .standardInput: input = InputBytes(reading: try SessionImporter.openStandardInput(), owning: true)
                case .unreadable(let error):
                    guard sources.count > 1 else { throw error }
                    combined.unreadableInputs.append(Self.unreadable(error, name: source.name))
                    continue
                }
                input.buffer(atLeast: 3)
                let head = Array(input.bytes.prefix(3))
                if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
                    combined.append(ContentLineScanner.transcodeUTF16(input, littleEndian: head.first == 0xFF)[...], name: source.name, collection: source.collection)
                    try combined.flush(to: descriptor, path: source.name)
                    continue
                }
                var chunk = input.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? input.bytes.dropFirst(3) : input.bytes[...]
                combined.beginPart(name: source.name, collection: source.collection)
                while true {
                    combined.continuePart(chunk)
                    try combined.flush(to: descriptor, path: source.name)
                    guard !input.isExhausted, input.refill(keepingFrom: input.count) != nil else { break }
                    chunk = input.bytes[...]
                }
                if let code = input.readFailure { throw CalendarReadError(path: source.name, systemError: code) }
                combined.endPart()
                try combined.flush(to: descriptor, path: source.name)
            }
        } catch {
            close(descriptor)
            throw error
        }
        lseek(descriptor, 0, SEEK_SET)
        return (descriptor, combined)
    }

    /// The error that an input of several, named `name`, cannot be read.
    static func unreadable(_ error: CalendarReadError, name: String) -> Diagnostic {
        Diagnostic(
            .error, .input, at: SourceLocation(file: name, line: 1),
            "the file cannot be read (\(error.reason)); the other inputs are read without it")
    }

    /// Writes what `bytes` holds to the temporary file and empties it.
    private mutating func flush(to descriptor: Int32, path: String) throws(CalendarReadError) {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw CalendarReadError(path: path, systemError: errno, context: "cannot keep the inputs in a temporary file")
        }
        bytes.removeAll(keepingCapacity: true)
    }

    private init() {}

    /// Appends one input in memory: as UTF-8 (UTF-16 with a byte order mark transcoded, a UTF-8 one
    /// dropped), ending with CRLF.
    private mutating func append(_ input: [UInt8], name: String, collection: CalendarSource.Collection?) {
        if input.starts(with: [0xFF, 0xFE]) || input.starts(with: [0xFE, 0xFF]) {
            append(ContentLineScanner.transcodeUTF16(InputBytes(bytes: input), littleEndian: input.first == 0xFF)[...], name: name, collection: collection)
        } else {
            append(input.starts(with: [0xEF, 0xBB, 0xBF]) ? input.dropFirst(3) : input[...], name: name, collection: collection)
        }
    }

    private mutating func append(_ content: ArraySlice<UInt8>, name: String, collection: CalendarSource.Collection?) {
        beginPart(name: name, collection: collection)
        continuePart(content)
        endPart()
    }

    /// The input being appended: its physical lines so far, as the scanner counts them (ended by LF,
    /// CR LF or a lone CR), and its last byte.
    private var partLines = 0
    private var lastByte: UInt8?
    private var partHasContent = false

    private mutating func beginPart(name: String, collection: CalendarSource.Collection?) {
        parts.append(Part(name: name, collection: collection, firstLine: lines + 1, lineCount: 0))
        partLines = 0
        lastByte = nil
        partHasContent = false
    }

    private mutating func continuePart(_ content: some Collection<UInt8>) {
        var previous = lastByte ?? 0
        for byte in content {
            if byte == 0x0A, previous != 0x0D { partLines += 1 }
            if byte == 0x0D { partLines += 1 }
            if byte != 0x0A, byte != 0x0D, byte != 0x20, byte != 0x09 { partHasContent = true }
            previous = byte
        }
        if !content.isEmpty { lastByte = previous }
        bytes.append(contentsOf: content)
    }

    private mutating func endPart() {
        // Every input ends with a line end, so that the next one starts a line of its own.
        if lastByte != 0x0A, lastByte != 0x0D {
            if lastByte != nil { partLines += 1 }
            bytes.append(contentsOf: [0x0D, 0x0A])
        }
        let count = max(partLines, 1)
        parts[parts.count - 1].lineCount = count
        parts[parts.count - 1].isBlank = !partHasContent
        lines += count
    }

    /// The index of the input a line of the stream is in: the last whose first line is at or
    /// before it (the first input for a line before any), found by binary search, so that mapping
    /// a folder of 100,000 one-event files costs O(log n) a location, not O(n).
    func partIndex(containing line: Int) -> Int {
        var low = 0, high = parts.count
        while low < high {
            let middle = (low + high) / 2
            if parts[middle].firstLine <= line { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    /// The input and line a location in the stream stands for.
    func location(of location: SourceLocation) -> SourceLocation {
        guard location.file == Self.name, !parts.isEmpty else { return location }
        let part = parts[partIndex(containing: location.line)]
        return SourceLocation(file: part.name, line: max(1, location.line - part.firstLine + 1), column: location.column)
    }

    /// A diagnostic with its location mapped back; `nil` for the note that the stream has several
    /// VCALENDARs when it is only that a second input begins.
    func diagnostic(_ diagnostic: Diagnostic) -> Diagnostic? {
        // With several inputs, each blank one is said of itself (`inputDiagnostics`), not of the stream.
        if diagnostic.code == .emptyInput, parts.count > 1 { return nil }
        var mapped = diagnostic
        mapped.location = location(of: diagnostic.location)
        mapped.message = message(diagnostic.message, in: mapped.location.file)
        if diagnostic.code == .structure, diagnostic.message.hasPrefix("several VCALENDARs in one input"),
           let first = parts.first, diagnostic.location.line >= first.firstLine + first.lineCount {
            return nil  // it is a later input's VCALENDAR
        }
        return mapped
    }

    /// A message with the stream's lines it names (`line 12`, `lines 3, 40`) and session ids
    /// (`<stream>:12`) mapped back: a line of `file` by its number, another input's as `b.ics:3`.
    func message(_ text: String, in file: String) -> String {
        var result = text.replacingOccurrences(of: Self.name + ":", with: "\u{2}")
        var output = ""
        var rest = Substring(result)
        while let range = rest.range(of: "line") ?? rest.range(of: "\u{2}") {
            output += rest[..<range.lowerBound]
            let isID = rest[range] == "\u{2}"
            var cursor = range.upperBound
            if !isID {
                output += "line"
                if cursor < rest.endIndex, rest[cursor] == "s" {
                    output += "s"
                    cursor = rest.index(after: cursor)
                }
                guard cursor < rest.endIndex, rest[cursor] == " " else {
                    rest = rest[cursor...]
                    continue
                }
                output += " "
                cursor = rest.index(after: cursor)
            }
            // Numbers, separated by ", ".
            var first = true
            while true {
                let digits = rest[cursor...].prefix { $0.isASCII && $0.isNumber }
                guard let number = Int(digits) else { break }
                let mapped = location(of: SourceLocation(file: Self.name, line: number))
                output += (first ? "" : ", ") + (isID || mapped.file != file ? "\(mapped.file):\(mapped.line)" : "\(mapped.line)")
                first = false
                cursor = digits.endIndex
                guard !isID, rest[cursor...].hasPrefix(", "),
                      rest[cursor...].dropFirst(2).first?.isNumber == true else { break }
                cursor = rest.index(cursor, offsetBy: 2)
            }
            rest = rest[cursor...]
        }
        output += rest
        result = output
        return result
    }

    /// A session with its source mapped back (and the id of an event without UID, which names it).
    func session(_ session: Session) -> Session {
        var mapped = session
        map(&mapped)
        return mapped
    }

    /// `session(_:)` in place: a batch's sessions are renamed where they are, not copied.
    func map(_ session: inout Session) {
        guard let source = session.source, source.file == Self.name else { return }
        let mappedSource = location(of: source)
        session.source = mappedSource
        if session.id.hasPrefix(Self.idPrefix) {
            session.id = "\(mappedSource.file):\(mappedSource.line)" + session.id.drop { $0 != "/" }
        }
    }

    /// How the id of a session without UID starts before the map names its input.
    private static let idPrefix = name + ":"

    /// Every input, named by the first `X-WR-CALNAME` among `names` (lines of the stream) that
    /// stands in it, else by its file; an input of a collection by the collection's name, else the
    /// first `X-WR-CALNAME` among its inputs, else the collection's place.
    func sources(named names: [(line: Int, name: String)]) -> [ReportSource] {
        named.withLock { named in
            if named.count == names.count { return named.sources }
            let base = named.base ?? sources(declaring: [])
            let sources = names.isEmpty ? base : self.sources(declaring: names, base: base)
            named = (base, names.count, sources)
            return sources
        }
    }

    /// `sources(named:)` made: a part without a name of its own (nor its collection) takes `base`'s entry.
    private func sources(declaring names: [(line: Int, name: String)], base: [ReportSource]? = nil) -> [ReportSource] {
        // Each name is in the input whose lines hold it; the first of an input's names counts.
        var declared = [String?](repeating: nil, count: parts.count)
        for (line, name) in names where !parts.isEmpty {
            let index = partIndex(containing: line)
            let part = parts[index]
            if declared[index] == nil, line >= part.firstLine, line - part.firstLine < part.lineCount { declared[index] = name }
        }
        var collectionNames: [CalendarSource.Collection: String] = [:]
        for (part, name) in zip(parts, declared) {
            guard let collection = part.collection, collectionNames[collection] == nil else { continue }
            if let name = collection.name ?? name { collectionNames[collection] = name }
        }
        return parts.indices.map { index in
            let part = parts[index]
            guard let collection = part.collection else {
                if let base, declared[index] == nil { return base[index] }
                return ReportSource(file: part.name, declaredName: declared[index])
            }
            if let base, collectionNames[collection] == collection.name { return base[index] }
            return ReportSource(file: part.name, declaredName: collectionNames[collection], collection: collection.location)
        }
    }

    /// A batch with every location mapped back, and the inputs named.
    func map(_ batch: inout ImportBatch) {
        batch.sources = sources(named: batch.calendarNames)
        for index in batch.sessions.indices { map(&batch.sessions[index]) }
        mapCounted(&batch.counted)
        batch.diagnostics = batch.diagnostics.compactMap(diagnostic)
    }

    /// Counted sessions' lines mapped back to their inputs, as `location(of:)` maps a session's
    /// source: each gets its input's index (among `parts`, as `sources(named:)` lists them) and its
    /// line there. One input read from its first line needs no mapping.
    func mapCounted(_ counted: inout [CountedSession]) {
        guard parts.count > 1 || parts.first.map({ $0.firstLine != 1 }) == true else { return }
        for index in counted.indices {
            let line = counted[index].line
            let input = partIndex(containing: line)
            counted[index].input = input
            counted[index].line = max(1, line - parts[input].firstLine + 1)
        }
    }

    /// A whole import with every location mapped back, and a warning for each blank input.
    func importResult(_ result: CalendarImport) -> CalendarImport {
        var mapped = result
        mapped.sessions = result.sessions.map(session)
        mapped.diagnostics = inputDiagnostics + result.diagnostics.compactMap(diagnostic)
        return mapped
    }

    /// With several inputs, an error for each that could not be read and a warning for each that
    /// holds no content line (with one, the cutter says so of the stream). Streams give them with
    /// their first batch.
    var inputDiagnostics: [Diagnostic] {
        guard parts.count > 1 else { return unreadableInputs }
        return unreadableInputs + parts.filter(\.isBlank).map {
            Diagnostic(.warning, .emptyInput, at: SourceLocation(file: $0.name, line: 1), "the input is empty: it holds no calendar")
        }
    }
}
