import Streaks

/// iCalendar text being written: CRLF lines folded at 75 octets (RFC 5545 3.1), never inside a
/// UTF-8 character, with no control character but tab inside a line.
///
/// A line is appended whole (`append(line:)`) or, when it is too long to hold twice, a piece at a
/// time (`appendPiece(_:)`, then `endLine()`); both fold it the same way.
///
/// ```swift
/// var text = FoldedText()
/// text.append(line: "SUMMARY:" + String(repeating: "é", count: 40))
/// print(text.text.split(separator: "\r\n").map(\.utf8.count))
/// // Prints "[74, 33]": 8 + 33 × 2 octets, then a space and 16 × 2
/// ```
struct FoldedText: Sendable {
    private(set) var bytes: [UInt8] = []
    /// The octets of the physical line a line appended in pieces has so far (with the space of a
    /// fold); 0 between lines.
    private var column = 0

    /// The most octets of a physical line, without its CRLF.
    static let lineLength = 75

    /// Appends one content line (unfolded, without its line end).
    mutating func append(line: String) {
        var utf8 = Array(line.utf8)
        for index in utf8.indices where Self.isControl(utf8[index]) {
            utf8[index] = 0x20  // RFC 5545 allows no control character but tab in a line
        }
        var start = 0
        var limit = Self.lineLength
        while utf8.count - start > limit {
            var cut = start + limit
            while utf8[cut] & 0xC0 == 0x80 { cut -= 1 }  // not inside a UTF-8 character
            bytes.append(contentsOf: utf8[start..<cut])
            bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = cut
            limit = Self.lineLength - 1  // the fold's space counts
        }
        bytes.append(contentsOf: utf8[start...])
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    /// Appends the next piece of a line (whole UTF-8 characters), folded as `append(line:)` folds:
    /// a character goes on the physical line if it fits in 75 octets, else after a fold.
    mutating func appendPiece(_ piece: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < piece.count {
            let lead = piece[index]
            let width = min(Self.width(ofLead: lead), piece.count - index)
            if column + width > Self.lineLength {
                bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
                column = 1
            }
            bytes.append(Self.isControl(lead) ? 0x20 : lead)
            if width > 1 { bytes.append(contentsOf: piece[(index + 1)..<(index + width)]) }
            column += width
            index += width
        }
    }

    /// Appends the next piece of a line: `appendPiece(_:)` on a string's UTF-8.
    mutating func appendPiece(_ piece: String) {
        var piece = piece
        piece.withUTF8 { appendPiece($0) }
    }

    /// Ends a line appended in pieces.
    mutating func endLine() {
        bytes.append(contentsOf: [0x0D, 0x0A])
        column = 0
    }

    /// Appends text written before.
    mutating func append(_ other: FoldedText) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Forgets the bytes (once they are written elsewhere), keeping the room they took; a line
    /// appended in pieces goes on where it was.
    mutating func removeAllBytes() {
        bytes.removeAll(keepingCapacity: true)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes the bytes to `output`, then forgets them (`removeAllBytes()`).
    mutating func flush<Output: CalendarOutput & ~Copyable>(to output: inout Output) throws(Output.Failure) {
        guard !bytes.isEmpty else { return }
        let result = bytes.withUnsafeBytes { bytes in Result { () throws(Output.Failure) in try output.write(bytes) } }
        try result.get()
        removeAllBytes()
    }

    /// The octets of the UTF-8 character a byte starts (1 for a byte that starts none).
    private static func width(ofLead byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }

    /// RFC 5545 (3.1) allows no control character in a line but tab.
    private static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 || byte == 0x7F
    }
}

extension RecurrenceDate {
    /// The value as an RDATE or EXDATE line of its own (`name`), with the parameters it needs.
    func contentLine(name: String) -> String {
        var head = name
        if end != nil || duration != nil { head += ";VALUE=PERIOD" } else if start.isDate { head += ";VALUE=DATE" }
        if let zone = start.timeZoneID { head += ";TZID=" + Self.parameterValue(zone) }
        var value = start.text
        if let end { value += "/" + end.text } else if let duration { value += "/" + duration.text }
        return head + ":" + value
    }

    /// A parameter value, quoted when it holds a character that would end it (RFC 5545 3.2).
    private static func parameterValue(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0 != ":" && $0 != ";" && $0 != "," && $0 != "\"" }
        return plain ? text : "\"" + String(text.map { $0 == "\"" ? "'" : $0 }) + "\""
    }
}

extension ICalTime {
    /// As iCalendar writes it: `20240605`, `20240605T090000`, `20240605T090000Z`.
    var text: String {
        SessionResolver.recurrenceIDText(local, isDate: isDate, isUTC: isUTC)
    }
}

extension ICalDuration {
    /// As iCalendar writes it, exactly: `P3D`, `PT1H30M`, `-P1DT1M`.
    var text: String {
        var result = isNegative ? "-P" : "P"
        if days != 0 || seconds == 0 { result += "\(days)D" }
        guard seconds != 0 else { return result }
        result += "T"
        if seconds >= 3600 { result += "\(seconds / 3600)H" }
        if seconds % 3600 >= 60 { result += "\(seconds % 3600 / 60)M" }
        if seconds % 60 != 0 { result += "\(seconds % 60)S" }
        return result
    }
}
