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

    /// The value after the first colon outside quotes (empty if there is none).
    var value: Substring {
        guard let valueColumn else { return "" }
        return Substring(text.unicodeScalars.dropFirst(valueColumn - 1))
    }

    func location(file: String, column: Int = 1) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// A line the scanner makes up to close a component whose END is missing.
    static func synthesizedEnd(_ componentName: String, line: Int) -> ContentLine {
        ContentLine(text: "END:\(componentName)", line: line, name: "END", valueColumn: 5)
    }
}

/// Decodes an input's bytes and splits them into logical content lines.
///
/// Handles UTF-8 with or without a byte order mark, UTF-16 with one, and Latin-1 for lines that are
/// not UTF-8; CRLF, LF or CR line endings; folds with a space or a tab, also where a fold splits a
/// UTF-8 character (lines are unfolded as bytes, then decoded); blank lines; NUL bytes.
struct ContentLineScanner {
    private let bytes: [UInt8]
    private let file: String
    private var position: Int
    private var physicalLine = 0
    /// A physical line read ahead while looking for folds.
    private var pending: (range: Range<Int>, line: Int)?
    private(set) var encoding: SourceEncoding
    private(set) var diagnostics: [Diagnostic] = []
    private var warnedLatin1 = false
    private var warnedNUL = false

    /// Properties whose free text may carry a line break that a producer forgot to fold.
    private static let freeTextProperties: Set<String> = [
        "SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT", "X-ALT-DESC",
    ]

    init(bytes input: [UInt8], file: String) {
        self.file = file
        if input.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = input
            position = 3
            encoding = .utf8WithByteOrderMark
        } else if input.starts(with: [0xFF, 0xFE]) || input.starts(with: [0xFE, 0xFF]) {
            let littleEndian = input[0] == 0xFF
            var units: [UInt16] = []
            units.reserveCapacity(input.count / 2)
            var index = 2
            while index + 1 < input.count {
                let (low, high) = littleEndian ? (input[index], input[index + 1]) : (input[index + 1], input[index])
                units.append(UInt16(high) << 8 | UInt16(low))
                index += 2
            }
            bytes = Array(String(decoding: units, as: UTF16.self).utf8)
            position = 0
            encoding = littleEndian ? .utf16LittleEndian : .utf16BigEndian
        } else {
            bytes = input
            position = 0
            encoding = .utf8
        }
    }

    /// The next logical line, or `nil` at the end of the input.
    mutating func next() -> ContentLine? {
        while true {
            guard let (first, firstLine) = nextPhysicalLine() else { return nil }
            if first.isEmpty { continue }  // blank lines carry nothing
            if bytes[first.lowerBound] == 0x20 || bytes[first.lowerBound] == 0x09 {
                // A continuation with nothing to continue (the previous line was blank or absent).
                let text = decode(Array(bytes[first]), line: firstLine)
                diagnostics.append(Diagnostic(
                    .warning, .malformedLine, at: SourceLocation(file: file, line: firstLine),
                    "continuation line has no content line to continue; ignored", sourceLine: text))
                continue
            }
            var logical = Array(bytes[first])
            while let (following, followingLine) = nextPhysicalLine() {
                if following.isEmpty {
                    break
                }
                let lead = bytes[following.lowerBound]
                if lead == 0x20 || lead == 0x09 {
                    logical.append(contentsOf: bytes[following.dropFirst()])
                } else if !looksLikeContentLine(following),
                          ContentLineScanner.freeTextProperties.contains(Self.name(of: logical)) {
                    let text = decode(Array(bytes[following]), line: followingLine)
                    diagnostics.append(Diagnostic(
                        .warning, .malformedLine, at: SourceLocation(file: file, line: followingLine),
                        "line does not start with a property name; read as the continuation of line \(firstLine) (a fold without its leading space?)",
                        sourceLine: text))
                    logical.append(contentsOf: bytes[following])
                } else {
                    pending = (following, followingLine)
                    break
                }
            }
            if logical.contains(0) {
                logical.removeAll { $0 == 0 }
                if !warnedNUL {
                    warnedNUL = true
                    diagnostics.append(Diagnostic(
                        .warning, .encoding, at: SourceLocation(file: file, line: firstLine),
                        "NUL bytes in the input; removed"))
                }
            }
            let text = decode(logical, line: firstLine)
            let (name, valueColumn) = Self.split(bytes: logical, text: text)
            return ContentLine(text: text, line: firstLine, name: name, valueColumn: valueColumn)
        }
    }

    /// All remaining logical lines.
    mutating func readAll() -> [ContentLine] {
        var lines: [ContentLine] = []
        while let line = next() { lines.append(line) }
        return lines
    }

    private mutating func nextPhysicalLine() -> (Range<Int>, Int)? {
        if let pending {
            self.pending = nil
            return pending
        }
        guard position < bytes.count else { return nil }
        let start = position
        var end = start
        let count = bytes.count
        bytes.withUnsafeBufferPointer { buffer in
            while end < count, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
        }
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

    /// Whether a physical line starts like a content line: a name, then `;` or `:`, or a name alone
    /// (RFC 5545 allows a fold right after the name: `DTSTART` then ` :20020402T114500`).
    private func looksLikeContentLine(_ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > range.lowerBound else { return false }
        return index == range.upperBound || bytes[index] == 0x3A || bytes[index] == 0x3B
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
    }

    private static func name(of line: [UInt8]) -> String {
        var end = 0
        while end < line.count, isNameByte(line[end]) { end += 1 }
        return String(decoding: line[..<end], as: UTF8.self).uppercased()
    }

    private mutating func decode(_ bytes: [UInt8], line: Int) -> String {
        if let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        if !warnedLatin1 {
            warnedLatin1 = true
            if encoding == .utf8 { encoding = .latin1 }
            diagnostics.append(Diagnostic(
                .warning, .encoding, at: SourceLocation(file: file, line: line),
                "input is not valid UTF-8 (first here); such lines are read as Latin-1 (ISO 8859-1)"))
        }
        return String(bytes.lazy.map { Character(Unicode.Scalar($0)) })
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
