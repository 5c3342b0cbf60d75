import Foundation

/// Reads JSON text (RFC 8259) into values that remember where they start: the one JSON reader of
/// the package, for `batch --jsonl` lines and rules files.
///
/// - Nesting is limited (`maximumDepth`, 32 by default), so no input can exhaust the stack.
/// - What the values take is counted as they are made (`maximumBytes`): each value, member and
///   array element its size, each key and number its text. Strings are not decoded while reading:
///   a string is where its text is (``JSONString``), decoded when asked for, so a document costs
///   little more than its text until its strings are used.
/// - An object keeps its members in order, a key given twice twice; ``Value/member(_:)`` takes the
///   last, as Python's `json` and most readers do.
/// - Numbers keep their text, so that an id of any size comes back exactly as written.
///
/// ```swift
/// var reader = JSONReader(Array(#"{"id": 12345678901234567890123, "id": "x", "n": 1.50}"#.utf8))
/// let document = try reader.document()
/// if case .string(let id)? = document.member("id")?.kind, case .number(let n)? = document.member("n")?.kind {
///     print(id.text(in: reader.bytes), n)
/// }
/// // Prints "x 1.50"
/// ```
struct JSONReader {
    /// A value, with the line and column (1-based, in bytes) where it starts.
    struct Value {
        enum Kind {
            case object([Member])
            case array([Value])
            case string(JSONString)
            /// The number's text, as written (it follows RFC 8259's grammar).
            case number(String)
            case bool(Bool)
            case null
        }

        var kind: Kind
        var line: Int
        var column: Int

        /// The value of the last member named `key`, if this is an object that has one.
        func member(_ key: String) -> Value? {
            guard case .object(let members) = kind else { return nil }
            return members.last { $0.key == key }?.value
        }
    }

    /// An object's member: its key (decoded), where the key is, and its value.
    struct Member {
        var key: String
        var line: Int
        var column: Int
        var value: Value
    }

    /// Why a text is not JSON the reader takes, and where.
    struct Failure: Error {
        /// Whether the text is JSON that goes past a limit (nesting, size), rather than not JSON.
        var isLimit = false
        var message: String
        var line: Int
        var column: Int
    }

    /// The text read.
    let bytes: [UInt8]
    let maximumDepth: Int
    let maximumBytes: Int
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// What the values made so far take, in bytes.
    private(set) var charged = 0

    /// - Parameters:
    ///   - bytes: UTF-8 text; a byte order mark at the start is passed over.
    ///   - maximumDepth: How deep arrays and objects may nest.
    ///   - maximumBytes: How much the values may take (see ``JSONReader``).
    init(_ bytes: [UInt8], maximumDepth: Int = 32, maximumBytes: Int = .max) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.maximumBytes = maximumBytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    private var column: Int { index - lineStart + 1 }

    private func failure(_ message: String) -> Failure {
        Failure(message: message, line: line, column: column)
    }

    /// The one value the text holds, with nothing but white space around it.
    mutating func document() throws(Failure) -> Value {
        skipSpace()
        let value = try readValue()
        skipSpace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
        return value
    }

    private mutating func charge(_ size: Int) throws(Failure) {
        charged += size
        guard charged <= maximumBytes else {
            var failure = failure("the JSON's values take more than \(maximumBytes) bytes")
            failure.isLimit = true
            throw failure
        }
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func readValue() throws(Failure) -> Value {
        guard index < bytes.count else { throw failure("the file ends where a value is expected") }
        let (startLine, startColumn) = (line, column)
        try charge(MemoryLayout<Value>.stride)
        let kind: Value.Kind
        switch bytes[index] {
        case UInt8(ascii: "{"): kind = .object(try nested { (reader: inout JSONReader) throws(Failure) in try reader.readMembers() })
        case UInt8(ascii: "["): kind = .array(try nested { (reader: inout JSONReader) throws(Failure) in try reader.readElements() })
        case UInt8(ascii: "\""): kind = .string(try readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): kind = try readLiteral()
        default: kind = .number(try readNumber())
        }
        return Value(kind: kind, line: startLine, column: startColumn)
    }

    /// Reads an object or array one level deeper, refusing to go past `maximumDepth`.
    private mutating func nested<Result>(_ read: (inout JSONReader) throws(Failure) -> Result) throws(Failure) -> Result {
        depth += 1
        defer { depth -= 1 }
        guard depth <= maximumDepth else {
            var failure = failure("the JSON is nested more than \(maximumDepth) deep")
            failure.isLimit = true
            throw failure
        }
        index += 1  // the bracket
        return try read(&self)
    }

    private mutating func readMembers() throws(Failure) -> [Member] {
        var members: [Member] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a key in double quotes is expected here") }
            let (keyLine, keyColumn) = (line, column)
            let key = try readString().text(in: bytes)
            try charge(MemoryLayout<Member>.stride + key.utf8.count)
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("':' is expected after a key") }
            index += 1
            skipSpace()
            members.append(Member(key: key, line: keyLine, column: keyColumn, value: try readValue()))
            skipSpace()
            guard index < bytes.count else { throw failure("the file ends inside an object: '}' is missing") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return members
            }
            throw failure("',' or '}' is expected here")
        }
    }

    private mutating func readElements() throws(Failure) -> [Value] {
        var items: [Value] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return items
        }
        while true {
            skipSpace()
            items.append(try readValue())
            skipSpace()
            guard index < bytes.count else { throw failure("the file ends inside an array: ']' is missing") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return items
            }
            throw failure("',' or ']' is expected here")
        }
    }

    private static let valueExpected = "a value is expected here (a text in double quotes, a number, true, false, an array or an object)"

    private mutating func readLiteral() throws(Failure) -> Value.Kind {
        for (word, kind) in [("true", Value.Kind.bool(true)), ("false", .bool(false)), ("null", .null)]
        where bytes[index...].starts(with: word.utf8) {
            index += word.utf8.count
            return kind
        }
        throw failure(Self.valueExpected)
    }

    /// A number as RFC 8259 writes it: `-`, an integer without leading zeros, a fraction, an
    /// exponent; its text.
    private mutating func readNumber() throws(Failure) -> String {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        var valid: Bool
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
            valid = true
        } else {
            valid = skipDigits() > 0
        }
        if valid, index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            valid = skipDigits() > 0
        }
        if valid, index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            valid = skipDigits() > 0
        }
        guard valid else {
            index = start
            throw failure(Self.valueExpected)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        try charge(text.utf8.count)
        return text
    }

    /// Moves past the digits at `index`; how many there were.
    private mutating func skipDigits() -> Int {
        let first = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - first
    }

    /// Checks a string from its opening quote to its closing one, and gives where its text is.
    private mutating func readString() throws(Failure) -> JSONString {
        index += 1  // the opening quote
        let start = index
        var hasEscapes = false
        while true {
            index = JSONString.plainRun(in: bytes, from: index)
            guard index < bytes.count else { throw failure("the file ends inside a text: '\"' is missing") }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return JSONString(range: start..<index, hasEscapes: hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                try checkEscape()
            default:
                let byte = bytes[index]
                throw failure(byte == 0x0A ? "a text does not end on its line: '\"' is missing" : "a control character inside a text must be escaped")
            }
        }
    }

    /// Checks the escape at `index` (a backslash) and moves past it: one of RFC 8259's, and a
    /// `\u` surrogate only in a pair.
    private mutating func checkEscape() throws(Failure) {
        guard index + 1 < bytes.count else { throw failure("the file ends inside a text") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "n"), UInt8(ascii: "t"),
             UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "f"):
            index += 2
        case UInt8(ascii: "u"):
            guard let unit = JSONString.hexUnit(in: bytes, at: index + 2) else { throw failure("\\u takes four hex digits") }
            if (0xDC00...0xDFFF).contains(unit) { throw failure("\\u escapes half of a surrogate pair without the first half") }
            guard (0xD800...0xDBFF).contains(unit) else {
                index += 6
                return
            }
            guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                  let low = JSONString.hexUnit(in: bytes, at: index + 8), (0xDC00...0xDFFF).contains(low) else {
                throw failure("\\u escapes half of a surrogate pair without the second half")
            }
            index += 12
        case let escaped:
            throw failure("'\\\(Character(Unicode.Scalar(escaped)))' is not a JSON escape")
        }
    }
}

/// A string of JSON text, checked but not decoded: where its text is (between the quotes) in the
/// bytes read, and whether it has escapes. Decoded when asked for: as text, as bytes, or a piece
/// at a time (a calendar in a JSON Lines record can be hundreds of megabytes).
///
/// Decoded text is UTF-8; bytes of the JSON text that are not UTF-8 become U+FFFD, as
/// `String(decoding:as:)` replaces them.
struct JSONString {
    var range: Range<Int>
    var hasEscapes: Bool

    /// The text.
    func text(in bytes: [UInt8]) -> String {
        String(decoding: decoded(in: bytes), as: UTF8.self)
    }

    /// The text's UTF-8 bytes.
    func decoded(in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        unescape(in: bytes) { result.append(contentsOf: $0) }
        return UTF8Repair.repaired(result)
    }

    /// The text's UTF-8 bytes, given to `body` a piece at a time (each from `pieceSize` bytes of
    /// the unescaped text, never cutting a character).
    func decode(in bytes: [UInt8], pieceSize: Int = 1 << 16, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var repair = UTF8Repair(pieceSize: pieceSize)
        var failure: (any Error)?
        unescape(in: bytes) { run in
            guard failure == nil else { return }
            do { try repair.append(run, body) } catch { failure = error }
        }
        if let failure { throw failure }
        try repair.finish(body)
    }

    /// Gives the unescaped bytes to `body` in runs: the text between escapes as it stands, each
    /// escape as what it stands for.
    private func unescape(in bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var index = range.lowerBound
            while index < range.upperBound {
                var end = range.upperBound
                if hasEscapes, let found = memchr(all.baseAddress! + index, 0x5C, range.upperBound - index) {
                    end = UnsafeRawPointer(all.baseAddress!).distance(to: UnsafeRawPointer(found))
                }
                if end > index { body(UnsafeBufferPointer(rebasing: all[index..<end])) }
                index = end
                guard index < range.upperBound else { break }
                let (scalar, length) = Self.escape(in: bytes, at: index)
                index += length
                var utf8: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                withUnsafeMutableBytes(of: &utf8) { buffer in
                    var count = 0
                    UTF8.encode(scalar) { buffer[count] = $0; count += 1 }
                    body(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[0..<count]))
                }
            }
        }
    }

    /// What the escape at `index` (a backslash, checked when read) stands for, and its length.
    private static func escape(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int) {
        switch bytes[index + 1] {
        case UInt8(ascii: "n"): return ("\n", 2)
        case UInt8(ascii: "t"): return ("\t", 2)
        case UInt8(ascii: "r"): return ("\r", 2)
        case UInt8(ascii: "b"): return ("\u{8}", 2)
        case UInt8(ascii: "f"): return ("\u{C}", 2)
        case UInt8(ascii: "u"):
            let unit = hexUnit(in: bytes, at: index + 2) ?? 0xFFFD
            if (0xD800...0xDBFF).contains(unit), let low = hexUnit(in: bytes, at: index + 8) {
                return (Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}", 12)
            }
            return (Unicode.Scalar(unit) ?? "\u{FFFD}", 6)
        case let other: return (Unicode.Scalar(other), 2)  // `"`, `\`, `/`
        }
    }

    /// The 16-bit unit of the four hex digits at `offset`, if there are four.
    static func hexUnit(in bytes: [UInt8], at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    /// Where the run of bytes from `start` that a string holds as they are ends: at the first
    /// quote, backslash or control character (or the end). Looked at eight bytes at a time, as a
    /// calendar's text can be hundreds of megabytes.
    static func plainRun(in bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBytes { all in
            var index = start
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= all.count {
                let word = all.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // A byte below 0x20, or equal to `"` or `\`: each makes its high bit set here.
                let control = (word &- 0x2020_2020_2020_2020) & ~word & highs
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special = control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)
                if special != 0 { break }
                index += 8
            }
            while index < all.count {
                let byte = all[index]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C { break }
                index += 1
            }
            return index
        }
    }
}

/// Bytes made UTF-8 as `String(decoding:as:)` makes them (every ill-formed sequence one U+FFFD),
/// a piece at a time: a piece is cut only before a byte that starts a character, so that each
/// piece is repaired as the whole would be. ASCII, nearly every calendar, goes through as it is.
struct UTF8Repair {
    private let pieceSize: Int
    private var pending: [UInt8] = []

    init(pieceSize: Int) {
        self.pieceSize = max(8, pieceSize)
        pending.reserveCapacity(self.pieceSize)
    }

    /// `bytes` repaired: themselves when they are ASCII or already UTF-8.
    static func repaired(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.withUnsafeBufferPointer({ asciiPrefix(of: $0) }) < bytes.count else { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.count == bytes.count && text.utf8.elementsEqual(bytes) ? bytes : Array(text.utf8)
    }

    /// How many bytes at the start of `bytes` are ASCII (looked at eight at a time).
    static func asciiPrefix(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            index += 8
        }
        while index < bytes.count, bytes[index] < 0x80 { index += 1 }
        return index
    }

    /// Takes `run`, giving `body` each piece that is full.
    mutating func append(_ run: UnsafeBufferPointer<UInt8>, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var offset = 0
        if pending.isEmpty {
            // Whole pieces of ASCII go out from where they are.
            let ascii = Self.asciiPrefix(of: run)
            while ascii - offset >= pieceSize {
                try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(run)[offset..<offset + pieceSize]))
                offset += pieceSize
            }
        }
        while offset < run.count {
            let taken = min(pieceSize - pending.count, run.count - offset)
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: run[offset..<offset + taken]))
            offset += taken
            if pending.count == pieceSize { try flush(keepingTail: true, body) }
        }
    }

    /// Gives `body` what is left.
    mutating func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try flush(keepingTail: false, body)
    }

    private mutating func flush(keepingTail: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var cut = pending.count
        if keepingTail {
            // Before the last byte that starts a character, if one of the last four does: what
            // follows it may go on in the next piece.
            for back in 1...min(4, pending.count) where pending[pending.count - back] & 0xC0 != 0x80 {
                if pending[pending.count - back] >= 0x80 { cut = pending.count - back }
                break
            }
        }
        let isASCII = pending.withUnsafeBufferPointer { Self.asciiPrefix(of: UnsafeBufferPointer(rebasing: $0[..<cut])) } == cut
        if isASCII {
            try pending.withUnsafeBytes { if cut > 0 { try body(UnsafeRawBufferPointer(rebasing: $0[..<cut])) } }
        } else {
            try Self.repaired(Array(pending[..<cut])).withUnsafeBytes { try body($0) }
        }
        pending.removeSubrange(..<cut)
    }
}
