#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Streaks

/// How the bytes of an input were decoded.
public enum SourceEncoding: String, Hashable, Sendable, Codable {
    case utf8
    case utf8WithByteOrderMark = "utf8-bom"
    case utf16LittleEndian = "utf16le"
    case utf16BigEndian = "utf16be"
    /// Not valid UTF-8: read as ISO 8859-1, byte for character.
    case latin1
}

/// One logical content line (RFC 5545 section 3.1): folds removed, decoded, with the physical line it starts on.
struct ContentLine: Sendable {
    /// The unfolded line.
    var text: String
    /// The 1-based physical line where the logical line starts.
    var line: Int
    /// The property or keyword name, uppercased (`BEGIN`, `DTSTART`, `X-POINTS`, ...); empty if none.
    var name: String
    /// Where the value starts, as a 1-based column in `text`; `nil` when there is no unquoted colon.
    var valueColumn: Int?
    /// Where the value starts in `text.utf8`.
    private var valueOffset: Int

    init(text: String, line: Int, name: String, valueColumn: Int?, valueOffset: Int? = nil) {
        self.text = text
        self.line = line
        self.name = name
        self.valueColumn = valueColumn
        self.valueOffset = valueOffset
            ?? valueColumn.map { text.unicodeScalars.prefix($0 - 1).reduce(0) { $0 + UTF8.width($1) } }
            ?? text.utf8.count
    }

    /// The value after the first colon outside quotes (empty if there is none).
    var value: Substring {
        let utf8 = text.utf8
        return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: valueOffset)...])
    }

    /// Where the line is, as the import says it (`InputMap` names the input).
    func location(column: Int = 1) -> SourceLocation {
        SourceLocation(file: InputMap.name, line: line, column: column)
    }
}

/// Decodes an input's bytes and splits them into logical content lines.
///
/// Handles UTF-8 with or without a byte order mark, UTF-16 with one, and Latin-1 for lines that are
/// not UTF-8; CRLF, LF or CR line endings; folds with a space or a tab, also where a fold splits a
/// UTF-8 character (lines are unfolded as bytes, then decoded); blank lines; NUL bytes.
///
/// It reads its input a chunk at a time (`InputBytes`), so memory holds a chunk and the longest
/// line. With `unreadLinesSkipped`, lines whose property name is not in `keptNames` are stepped over
/// as bytes: no copy, no decoding, no diagnostics of their own.
struct ContentLineScanner {
    private let input: InputBytes
    /// `input.bytes`, refreshed after every read: the hot loops read through it.
    private var bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private var physicalLine = 0
    /// A physical line read ahead while looking for folds.
    private var pending: (range: Range<Int>, line: Int)?
    /// The first physical line of the logical line being read, kept across refills.
    private var current: Range<Int> = 0..<0
    private(set) var encoding: SourceEncoding
    var diagnostics: [Diagnostic] = []
    /// The first physical line of the last logical line returned or sunk.
    private(set) var lastLogicalLine = 0
    private var warnedLatin1 = false
    private var warnedNUL = false
    /// Whether lines not named in `keptNames` are skipped (the cutter sets it inside a VEVENT).
    var unreadLinesSkipped = false
    /// The property names read while `unreadLinesSkipped` is on (uppercased).
    var keptNames: Set<String> = [] {
        didSet {
            keptFirstBytes = [Bool](repeating: false, count: 256)
            for name in keptNames {
                guard let first = name.utf8.first else { continue }
                keptFirstBytes[Int(first)] = true
                if first >= 0x41, first <= 0x5A { keptFirstBytes[Int(first + 0x20)] = true }
            }
            keptNameTable = PropertyNameTable(keptNames.map { ($0, ()) })
        }
    }
    /// Whether a kept name starts with a byte, either case: most skipped lines are known by it.
    private var keptFirstBytes = [Bool](repeating: true, count: 256)
    /// `keptNames`, matched against a line's bytes.
    private var keptNameTable = PropertyNameTable<Void>([])
    /// BEGIN and END lines read before, by their bytes: most inputs repeat a handful of them
    /// (`BEGIN:VEVENT`, `END:VEVENT`, ...), which are then not decoded again.
    private var boundaryLines: [(bytes: [UInt8], line: ContentLine)] = []
    private static let boundaryLinesKept = 16
    private static let begin = Array("BEGIN".utf8)
    private static let end = Array("END".utf8)

    /// Properties whose free text may carry a line break that a producer forgot to fold.
    private static let freeTextProperties = PropertyNameTable<Void>(
        ["SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT", "X-ALT-DESC"].map { ($0, ()) })

    /// Whether the name at the start of `bytes[range]` is one of `freeTextProperties`, in any case.
    private static func isFreeText(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Bool {
        freeTextProperties.value(of: bytes, in: range.lowerBound..<nameEnd(of: bytes, in: range)) != nil
    }

    /// Scans bytes already in memory.
    init(bytes: [UInt8]) {
        self.init(input: InputBytes(bytes: bytes))
    }

    /// Scans a part of an input (a VTIMEZONE read ahead, `InputZones`), whose first line has the
    /// number `firstLine`.
    init(input: InputBytes, firstLine: Int) {
        self.init(input: input)
        physicalLine = firstLine - 1
    }

    /// The warning given at the first line that is not UTF-8, once per input.
    static let latin1Warning = "input is not valid UTF-8 (first here); such lines are read as Latin-1 (ISO 8859-1)"

    /// Scans an input read as it goes.
    init(input: InputBytes) {
        input.buffer(atLeast: 3)
        let head = Array(input.bytes.prefix(3))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) {
            self.input = input
            position = 3
            encoding = .utf8WithByteOrderMark
        } else if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            let littleEndian = head.first == 0xFF
            self.input = InputBytes(bytes: Self.transcodeUTF16(input, littleEndian: littleEndian))
            position = 0
            encoding = littleEndian ? .utf16LittleEndian : .utf16BigEndian
        } else {
            self.input = input
            position = 0
            encoding = .utf8
        }
        bytes = self.input.bytes
    }

    /// A whole UTF-16 input (after its byte order mark) as UTF-8.
    static func transcodeUTF16(_ input: InputBytes, littleEndian: Bool) -> [UInt8] {
        input.readToEnd()
        let bytes = input.bytes
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let (low, high) = littleEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Why the input stopped before its end, if it did (a read error).
    var readError: String? { input.readError }
    /// The system's error number for that read error.
    var readFailure: Int32? { input.readFailure }

    /// The next logical line, or `nil` at the end of the input.
    mutating func next() -> ContentLine? {
        var unused = RawLines()
        return next(sinkingInto: &unused, sinking: false)
    }

    /// The next BEGIN or END line, or `nil` at the end of the input; every other line read on the
    /// way is appended to `sink` as bytes, to be made into `ContentLine`s later (on a worker).
    mutating func nextBoundary(sinkingInto sink: inout RawLines) -> ContentLine? {
        next(sinkingInto: &sink, sinking: true)
    }

    private mutating func next(sinkingInto sink: inout RawLines, sinking requested: Bool) -> ContentLine? {
        while true {
            // Once the input shows NUL bytes, which are removed from lines and can join a name or a
            // BEGIN together, every line is decoded before anything is decided about it.
            let careful = input.sawNUL
            let sinking = requested && !careful
            // The last line is done with: the buffer need not keep it (a line read ahead stays).
            if pending == nil { current = position..<position }
            if unreadLinesSkipped, !careful, pending == nil, skipUnreadLine() { continue }
            guard let (first, firstLine) = nextPhysicalLine() else { return nil }
            if first.isEmpty { continue }  // blank lines carry nothing
            current = first
            let lead = bytes[first.lowerBound]
            if lead == 0x20 || lead == 0x09 {
                warnContinuationWithoutLine(first, line: firstLine)
                continue
            }
            let nameEnd = nameRunEnd(first)
            // A name that runs to the end of its physical line may go on after a fold (RFC 5545 3.1
            // allows a fold anywhere): such a line is unfolded before it is classified.
            let nameIsWhole = nameEnd < first.upperBound
            // A line is stepped over when it is a name no one reads followed by `;` or `:` (what
            // `ComponentParsing.isUnread` leaves out of the general path); a name the first physical
            // line ends in is known only once the line is unfolded, below.
            if unreadLinesSkipped, !careful, nameIsWhole, looksLikeContentLine(first),
               !keptFirstBytes[Int(lead)] || !isKept(first.lowerBound..<nameEnd) {
                lastLogicalLine = firstLine
                skipContinuations(firstLine: firstLine)
                continue
            }
            var isBoundary = (lead | 0x20 == 0x62 || lead | 0x20 == 0x65)  // b or e, either case
                && (PropertyNameTable<Void>.equalsIgnoringCase(bytes, first.lowerBound..<nameEnd, Self.begin)
                    || PropertyNameTable<Void>.equalsIgnoringCase(bytes, first.lowerBound..<nameEnd, Self.end))
            let logical = unfoldFollowingLines(of: firstLine)
            if !nameIsWhole {
                // The name is known now that the line is unfolded (or known to have no fold).
                let (name, isNamedLine) = nameOfLine(logical)
                isBoundary = name == "BEGIN" || name == "END"
                if unreadLinesSkipped, !careful, !isBoundary, isNamedLine, !keptNames.contains(name) {
                    lastLogicalLine = firstLine
                    continue
                }
            }
            let sinks = sinking && !isBoundary
            if logical == nil {
                if sinks {
                    let range = current
                    if sink.appendIfPrintableASCII(UnsafeBufferPointer(rebasing: bytes[range]), line: firstLine) {
                        lastLogicalLine = firstLine
                        continue
                    }
                } else if let line = plainASCIILine(line: firstLine, isBoundary: isBoundary) {
                    lastLogicalLine = firstLine
                    return line
                }
            }
            let lineBytes = removingNUL(logical ?? Array(bytes[current]), line: firstLine)
            lastLogicalLine = firstLine
            if sinks {
                // Decided here, where the once-per-input encoding warning is kept.
                let isUTF8 = String(validating: lineBytes, as: UTF8.self) != nil
                if !isUTF8 { _ = decode(lineBytes, line: firstLine) }
                sink.append(lineBytes, line: firstLine, isLatin1: !isUTF8)
                continue
            }
            let text = decode(lineBytes, line: firstLine)
            let (lineName, valueColumn) = Self.split(bytes: lineBytes, text: text)
            return ContentLine(text: text, line: firstLine, name: lineName, valueColumn: valueColumn)
        }
    }

    /// Warns about a folded line with nothing to continue (the previous line was blank or absent).
    private mutating func warnContinuationWithoutLine(_ range: Range<Int>, line: Int) {
        let text = decode(Array(bytes[range]), line: line)
        diagnostics.append(Diagnostic(
            .warning, .malformedLine, at: SourceLocation(file: InputMap.name, line: line),
            "continuation line has no content line to continue; ignored", sourceLine: text))
    }

    /// Reads the folds (and the free text a missing fold broke off) that continue the line in
    /// `current`, and returns the unfolded line, or `nil` when nothing continues it (the line is
    /// still `current` in the buffer). The lines that follow are looked at before they are read: one
    /// that is not part of this line stays where it is, so that a line that is skipped is never
    /// buffered whole.
    private mutating func unfoldFollowingLines(of firstLine: Int) -> [UInt8]? {
        var logical: [UInt8]?
        var isFreeText: Bool?
        while pending == nil {
            let ahead = peekLine()
            guard let lead = ahead.first.map({ self.bytes[$0] }) else { break }
            let isFold = lead == 0x20 || lead == 0x09
            if !isFold {
                if looksLikeContentLine(ahead) { break }
                if isFreeText == nil {
                    isFreeText = logical.map { logical in logical.withUnsafeBufferPointer { Self.isFreeText($0, in: 0..<$0.count) } }
                        ?? Self.isFreeText(self.bytes, in: current)
                }
                if isFreeText != true { break }
            }
            guard let (following, followingLine) = nextPhysicalLine() else { break }
            if logical == nil {
                logical = Array(bytes[current])
                // From here on the line is in `logical`: the buffer need not keep its start.
                current = position..<position
            }
            if isFold {
                logical!.append(contentsOf: bytes[following.dropFirst()])
            } else {
                warnMissingFold(following, line: followingLine, continuing: firstLine)
                logical!.append(contentsOf: bytes[following])
            }
            // What is appended is in `logical`: the buffer need not keep it.
            current = position..<position
        }
        return logical
    }

    /// The name of the unfolded line (`logical`, or `current` when nothing continued it), and
    /// whether it is a name followed by `;`, `:` or nothing.
    private func nameOfLine(_ logical: [UInt8]?) -> (name: String, isNamedLine: Bool) {
        logical.map { unfolded in
            unfolded.withUnsafeBufferPointer { (Self.name(of: $0), Self.isNamedLine($0, in: 0..<$0.count)) }
        } ?? (Self.name(of: bytes, in: current), Self.isNamedLine(bytes, in: current))
    }

    /// The line in `current` read without decoding when it is printable ASCII; a BEGIN or END line
    /// seen before is given again from `boundaryLines`.
    private mutating func plainASCIILine(line: Int, isBoundary: Bool) -> ContentLine? {
        let lineBytes = UnsafeBufferPointer(rebasing: bytes[current])
        if isBoundary, var known = boundaryLines.first(where: { Self.equal($0.bytes, lineBytes) })?.line {
            known.line = line
            return known
        }
        guard let fast = Self.asciiLine(lineBytes, name: Self.name(of: bytes, in: current), line: line) else {
            return nil
        }
        if isBoundary, boundaryLines.count < Self.boundaryLinesKept {
            boundaryLines.append((Array(lineBytes), fast))
        }
        return fast
    }

    /// `bytes` without NUL bytes, with one warning for the whole input the first time there are some.
    private mutating func removingNUL(_ bytes: [UInt8], line: Int) -> [UInt8] {
        guard bytes.contains(0) else { return bytes }
        if !warnedNUL {
            warnedNUL = true
            diagnostics.append(Diagnostic(
                .warning, .encoding, at: SourceLocation(file: InputMap.name, line: line),
                "NUL bytes in the input; removed"))
        }
        return bytes.filter { $0 != 0 }
    }

    // MARK: Skipping without keeping

    /// Bytes looked at ahead of a line to tell whether it is skipped: room for any real name.
    private static let peekLength = 256

    /// The start of the line at `position`, with at least `peekLength` bytes buffered when the input
    /// has them; empty at the end of the input.
    private mutating func peekLine() -> Range<Int> {
        // Asked before at this place (no read since): the same answer.
        if let known = knownLineEnd, known.start == position { return position..<known.end }
        // Read on until the look-ahead is buffered, or the line's end (a CR needs the byte after it).
        while bytes.count - position < Self.peekLength, !input.isExhausted,
              Self.lineEnd(in: bytes, from: position) >= bytes.count - 1 {
            let keep = min(current.lowerBound, position)
            guard let shift = input.refill(keepingFrom: keep) else { break }
            bytes = input.bytes
            lastNameRun = nil
            knownLineEnd = nil
            position -= shift
            current = (current.lowerBound - shift)..<(current.upperBound - shift)
        }
        let end = min(bytes.count, position + Self.peekLength)
        let found = Self.lineEnd(in: UnsafeBufferPointer(rebasing: bytes[..<end]), from: position)
        // The look-ahead holds the line's end (or all the bytes there are): reading the line on will not look again.
        if found < end || end == bytes.count { knownLineEnd = (position, found) }
        return position..<found
    }

    /// Where the line that starts at `start` ends (`lineEnd(in: bytes, from: start)`), as `peekLine`
    /// found it; forgotten on refill.
    private var knownLineEnd: (start: Int, end: Int)?

    /// `lineEnd(in: bytes, from: start)`, from `knownLineEnd` when it knows.
    private func lineEnd(from start: Int) -> Int {
        if let known = knownLineEnd, known.start == start { return known.end }
        return Self.lineEnd(in: bytes, from: start)
    }

    /// Steps over the line at `position` and its folds without keeping their bytes, when it is a
    /// line no one reads (see `unreadLinesSkipped`); `false`, with nothing consumed, otherwise. A
    /// skipped line costs a scan however long it is, never a copy.
    private mutating func skipUnreadLine() -> Bool {
        current = position..<position
        let start = peekLine()
        guard !input.sawNUL, let lead = start.first.map({ bytes[$0] }), lead != 0x20, lead != 0x09 else { return false }
        let nameEnd = Self.nameEnd(of: bytes, in: start)
        // A name followed by its parameters or value within the look-ahead; anything else the usual way.
        guard nameEnd > start.lowerBound, nameEnd < start.upperBound, bytes[nameEnd] == 0x3A || bytes[nameEnd] == 0x3B else {
            return false
        }
        if keptFirstBytes[Int(lead)], isKept(start.lowerBound..<nameEnd) { return false }
        let isFreeText = Self.isFreeText(bytes, in: start.lowerBound..<nameEnd)
        let firstLine = skipPhysicalLine()
        // A line stepped over is a line read, as far as where the input ends is concerned.
        lastLogicalLine = firstLine
        // Its folds, and for free text the lines a producer forgot to fold, go with it.
        while true {
            let next = peekLine()
            guard let nextLead = next.first.map({ bytes[$0] }) else { return true }
            if nextLead == 0x20 || nextLead == 0x09 {
                _ = skipPhysicalLine()
            } else if isFreeText, !looksLikeContentLine(next) {
                warnMissingFold(next, line: physicalLine + 1, continuing: firstLine)
                _ = skipPhysicalLine()
            } else {
                return true
            }
        }
    }

    /// Moves `position` past the physical line there and its line end, dropping the buffered bytes
    /// as it goes; returns the line's number.
    private mutating func skipPhysicalLine() -> Int {
        physicalLine += 1
        var resume = position
        while true {
            let count = bytes.count
            let end = lineEnd(from: resume)
            let needsMore = end == count || (end == count - 1 && bytes[end] == 0x0D)
            if needsMore, !input.isExhausted {
                // Nothing before the end found so far is needed again; a CR at the very end is.
                if let shift = input.refill(keepingFrom: end) {
                    bytes = input.bytes
                    lastNameRun = nil
                    knownLineEnd = nil
                    position = 0
                    resume = end - shift
                    current = 0..<0
                    continue
                }
            }
            position = end
            if position < count {
                position += bytes[position] == 0x0D && position + 1 < count && bytes[position + 1] == 0x0A ? 2 : 1
            }
            current = position..<position  // nothing skipped is kept
            return physicalLine
        }
    }

    /// Steps over the continuation lines of a skipped line (the one at `current`), keeping none of
    /// them: a folded line of a gigabyte costs a scan, not a copy.
    private mutating func skipContinuations(firstLine: Int) {
        let isFreeText = Self.isFreeText(bytes, in: current)
        current = position..<position
        while let (following, followingLine) = nextPhysicalLine() {
            current = position..<position
            if following.isEmpty { return }
            let lead = bytes[following.lowerBound]
            if lead == 0x20 || lead == 0x09 { continue }
            if !looksLikeContentLine(following), isFreeText {
                warnMissingFold(following, line: followingLine, continuing: firstLine)
                continue
            }
            pending = (following, followingLine)
            return
        }
    }

    private mutating func warnMissingFold(_ range: Range<Int>, line: Int, continuing firstLine: Int) {
        let text = decode(Array(bytes[range].prefix(Diagnostic.sourceLineLimit)), line: line)
        diagnostics.append(Diagnostic(
            .warning, .malformedLine, at: SourceLocation(file: InputMap.name, line: line),
            "line does not start with a property name; read as the continuation of line \(firstLine) (a fold without its leading space?)",
            sourceLine: text))
    }

    /// The next physical line's range in `bytes` (valid until the next call) and number.
    private mutating func nextPhysicalLine() -> (Range<Int>, Int)? {
        if let pending {
            self.pending = nil
            return pending
        }
        // Where the search for the line's end resumes after a refill: a long line is searched once.
        var resume = position
        while true {
            let count = bytes.count
            let end = lineEnd(from: resume)
            // A line end not yet read, or a CR whose LF may be in the next chunk: read more first.
            let needsMore = end == count || (end == count - 1 && bytes[end] == 0x0D)
            if needsMore, !input.isExhausted {
                let keep = min(current.lowerBound, position)
                if let shift = input.refill(keepingFrom: keep) {
                    bytes = input.bytes
                    lastNameRun = nil
                    knownLineEnd = nil
                    position -= shift
                    resume = end - shift
                    current = (current.lowerBound - shift)..<(current.upperBound - shift)
                    continue
                }
            }
            guard position < count else { return nil }
            let start = position
            position = end
            if position < count {
                if bytes[position] == 0x0D, position + 1 < count, bytes[position + 1] == 0x0A {
                    position += 2
                } else {
                    position += 1
                }
            }
            physicalLine += 1
            return (start..<end, physicalLine)
        }
    }

    /// Where the physical line that starts at `start` ends: at the first LF or CR (a CR alone is an
    /// old Mac line end), or at the end of `bytes`.
    static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return max(start, bytes.count) }
        let end = bytes.count
        var index = start
        // Eight bytes at a time: a byte equal to LF or CR is a zero byte of the word XORed with
        // that byte repeated, and `(x - 0x01...) & ~x & 0x80...` marks zero bytes. A borrow can
        // only mark bytes above the first zero byte, so the lowest mark is the first line end.
        while index + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let lineFeeds = word ^ 0x0A0A_0A0A_0A0A_0A0A
            let carriageReturns = word ^ 0x0D0D_0D0D_0D0D_0D0D
            let marks = ((lineFeeds &- 0x0101_0101_0101_0101) & ~lineFeeds
                | (carriageReturns &- 0x0101_0101_0101_0101) & ~carriageReturns) & 0x8080_8080_8080_8080
            if marks != 0 { return index + marks.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end, base[index] != 0x0A, base[index] != 0x0D { index += 1 }
        return index
    }

    /// Whether a physical line starts like a content line: a name, then `;` or `:`, or a name alone
    /// (RFC 5545 allows a fold right after the name: `DTSTART` then ` :20020402T114500`).
    private mutating func looksLikeContentLine(_ range: Range<Int>) -> Bool {
        let index = nameRunEnd(range)
        guard index > range.lowerBound else { return false }
        return index == range.upperBound || bytes[index] == 0x3A || bytes[index] == 0x3B
    }

    /// Where the name at the start of a physical line ends; the last answer is kept, since a line
    /// read ahead for folds is asked about again when it is read itself.
    private mutating func nameRunEnd(_ range: Range<Int>) -> Int {
        if let known = lastNameRun, known.line == range { return known.nameEnd }
        let end = Self.nameEnd(of: bytes, in: range)
        lastNameRun = (range, end)
        return end
    }

    /// The physical line `nameRunEnd` last measured, and where its name ends (forgotten on refill).
    private var lastNameRun: (line: Range<Int>, nameEnd: Int)?

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
    }

    /// Whether two byte sequences are the same.
    private static func equal(_ known: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard known.count == bytes.count else { return false }
        return known.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    /// Whether an unfolded line is a name followed by `;`, `:` or nothing: a line whose name alone
    /// says whether anyone reads it (any other line is kept, for libical to say what it is).
    static func isNamedLine(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Bool {
        let end = nameEnd(of: bytes, in: range)
        return end > range.lowerBound && (end == range.upperBound || bytes[end] == 0x3A || bytes[end] == 0x3B)
    }

    /// Where the name at the start of `bytes[range]` ends (name characters only).
    private static func nameEnd(of bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Int {
        var end = range.lowerBound
        while end < range.upperBound, isNameByte(bytes[end]) { end += 1 }
        return end
    }

    /// Whether the name in `bytes[range]` is one of `keptNames`, in any case.
    private func isKept(_ range: Range<Int>) -> Bool {
        keptNameTable.value(of: bytes, in: range) != nil
    }

    /// The uppercased name at the start of `bytes[range]` (name characters only).
    private static func name(of bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> String {
        let end = nameEnd(of: bytes, in: range)
        var hasLowercase = false
        for byte in bytes[range.lowerBound..<end] where byte >= 0x61 { hasLowercase = true }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end]), as: UTF8.self)
        return hasLowercase ? name.uppercased() : name
    }

    private mutating func decode(_ bytes: [UInt8], line: Int) -> String {
        if let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        if !warnedLatin1 {
            warnedLatin1 = true
            if encoding == .utf8 { encoding = .latin1 }
            diagnostics.append(Diagnostic(
                .warning, .encoding, at: SourceLocation(file: InputMap.name, line: line), Self.latin1Warning))
        }
        return String(bytes.lazy.map { Character(Unicode.Scalar($0)) })
    }

    /// The common line, read without copies: printable ASCII, `name` then `:` (no parameters), or
    /// `name;` with parameters and no quotes; `nil` for anything else (the general path reads it).
    private static func asciiLine(_ bytes: UnsafeBufferPointer<UInt8>, name: String, line: Int) -> ContentLine? {
        let nameLength = name.utf8.count
        guard nameLength > 0, nameLength < bytes.count else { return nil }
        let separator = bytes[nameLength]
        guard separator == 0x3A || separator == 0x3B else { return nil }
        var colon = separator == 0x3A ? nameLength : -1
        for index in nameLength..<bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x7F || byte == 0x22 { return nil }
            if colon < 0, byte == 0x3A { colon = index }
        }
        guard colon >= 0 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return ContentLine(text: text, line: line, name: name, valueColumn: colon + 2, valueOffset: colon + 1)
    }

    /// A line the scanner kept as bytes, decoded and split as `next()` would have.
    static func contentLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, isLatin1: Bool) -> ContentLine {
        if !isLatin1, let simple = asciiLine(bytes, name: name(of: bytes), line: line) { return simple }
        let text = isLatin1 ? String(bytes.lazy.map { Character(Unicode.Scalar($0)) }) : String(decoding: bytes, as: UTF8.self)
        let array = Array(bytes)
        let (lineName, valueColumn) = split(bytes: array, text: text)
        return ContentLine(text: text, line: line, name: lineName, valueColumn: valueColumn)
    }

    /// The uppercased name at the start of `bytes` (name characters only).
    private static func name(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        name(of: bytes, in: 0..<bytes.count)
    }

    /// `split(_:)` on a line's UTF-8 bytes, which is what the scanner has: no per-character work.
    static func split(bytes: [UInt8], text: String) -> (name: String, valueColumn: Int?) {
        guard bytes.allSatisfy({ $0 < 0x80 }) || String(decoding: bytes, as: UTF8.self) == text else {
            return split(text)  // read as Latin-1: the bytes are not the text's UTF-8
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var end = 0
            while end < buffer.count, buffer[end] != 0x3A, buffer[end] != 0x3B { end += 1 }
            var nameBytes = Array(buffer[..<end])
            for index in nameBytes.indices where nameBytes[index] >= 0x61 && nameBytes[index] <= 0x7A {
                nameBytes[index] -= 0x20
            }
            let name = String(decoding: nameBytes, as: UTF8.self)
            var index = end
            var inQuotes = false
            if index < buffer.count, buffer[index] == 0x3B {
                while index < buffer.count {
                    let byte = buffer[index]
                    if byte == 0x22 { inQuotes.toggle() } else if byte == 0x3A, !inQuotes { break }
                    index += 1
                }
            }
            guard index < buffer.count else { return (name, nil) }
            // Columns count Unicode scalars: every byte that does not continue a UTF-8 sequence.
            var column = 1
            for byte in buffer[...index] where byte & 0xC0 != 0x80 { column += 1 }
            return (name, column)
        }
    }

    /// The uppercased name and the 1-based column of the value (after the first colon outside quotes).
    static func split(_ text: String) -> (name: String, valueColumn: Int?) {
        var name = ""
        var column = 0
        var inName = true
        var inQuotes = false
        for scalar in text.unicodeScalars {
            column += 1
            if inName {
                if scalar == ":" || scalar == ";" {
                    inName = false
                    if scalar == ":" { return (name.uppercased(), column + 1) }
                    continue
                }
                name.unicodeScalars.append(scalar)
                continue
            }
            if scalar == "\"" {
                inQuotes.toggle()
            } else if scalar == ":", !inQuotes {
                return (name.uppercased(), column + 1)
            }
        }
        return (name.uppercased(), nil)
    }
}
