import Foundation
@testable import StreakCal
import Testing

/// The document `text` holds, read.
private func read(_ text: String, maximumDepth: Int = 32, maximumBytes: Int = .max) throws(JSONReader.Failure) -> (JSONReader.Value, [UInt8]) {
    let bytes = Array(text.utf8)
    var reader = JSONReader(bytes, maximumDepth: maximumDepth, maximumBytes: maximumBytes)
    return (try reader.document(), bytes)
}

/// A value as a short text: strings decoded, numbers as their text, members in order.
private func describe(_ value: JSONReader.Value, in bytes: [UInt8]) -> String {
    switch value.kind {
    case .object(let members): "{" + members.map { "\($0.key):" + describe($0.value, in: bytes) }.joined(separator: ",") + "}"
    case .array(let items): "[" + items.map { describe($0, in: bytes) }.joined(separator: ",") + "]"
    case .string(let string): "'" + string.text(in: bytes) + "'"
    case .number(let text): text
    case .bool(let flag): String(flag)
    case .null: "null"
    }
}

@Suite("The JSON reader")
struct JSONReaderTests {
    @Test("Values as written: numbers keep their text, strings their escapes decoded, members their order", arguments: [
        (#"{"a": [1, -0, 1.50, 2e+10, 12345678901234567890123], "b": {"c": null, "d": true, "e": false}}"#,
         "{a:[1,-0,1.50,2e+10,12345678901234567890123],b:{c:null,d:true,e:false}}"),
        (#"  "x\"y\\z\/\n\t\r\b\f\u0041\u00e9\ud83c\udfb9"  "#, "'x\"y\\z/\n\t\r\u{8}\u{C}Aé🎹'"),
        (#"{"id": "a", "id": "b"}"#, "{id:'a',id:'b'}"),
        ("[]", "[]"), ("{}", "{}"), ("\u{FEFF}[0]", "[0]"),
    ])
    func values(text: String, expected: String) throws {
        let (value, bytes) = try read(text)
        #expect(describe(value, in: bytes) == expected)
    }

    @Test("A key given twice: the last one counts, as Python's json reads it")
    func lastWins() throws {
        let (value, bytes) = try read(#"{"id": "first", "path": "a", "id": 7, "path": "b"}"#)
        #expect(value.member("id").map { describe($0, in: bytes) } == "7")
        #expect(value.member("path").map { describe($0, in: bytes) } == "'b'")
        #expect(value.member("none") == nil)
    }

    @Test("Where each value starts: line and column, in bytes")
    func positions() throws {
        let (value, _) = try read("{\n  \"a\": [1,\n    \"é\", {}]\n}")
        guard case .object(let members) = value.kind, case .array(let items) = members[0].value.kind else {
            Issue.record("not an object of an array")
            return
        }
        #expect((members[0].line, members[0].column) == (2, 3))
        #expect(items.map { [$0.line, $0.column] } == [[2, 9], [3, 5], [3, 11]])  // é is two bytes
    }

    @Test("Text that is not JSON: what is wrong, and where", arguments: [
        ("", 1, 1, "the file ends where a value is expected"),
        ("{\"a\": 1,}", 1, 9, "a key in double quotes is expected here"),
        ("[1, 2,]", 1, 7, "a value is expected here"),
        ("{\"a\" 1}", 1, 6, "':' is expected after a key"),
        ("[1 2]", 1, 4, "',' or ']' is expected here"),
        ("{\"a\": 1", 1, 8, "the file ends inside an object"),
        ("[01]", 1, 3, "',' or ']' is expected here"),
        ("[+1]", 1, 2, "a value is expected here"),
        ("[1.]", 1, 2, "a value is expected here"),
        ("[.5]", 1, 2, "a value is expected here"),
        ("[1e]", 1, 2, "a value is expected here"),
        ("[tru]", 1, 2, "a value is expected here"),
        ("\"a\nb\"", 1, 3, "a text does not end on its line"),
        ("\"a\u{1}b\"", 1, 3, "a control character inside a text must be escaped"),
        ("\"\\x\"", 1, 2, "'\\x' is not a JSON escape"),
        ("\"\\u12G4\"", 1, 2, "\\u takes four hex digits"),
        ("\"\\ud83c\"", 1, 2, "without the second half"),
        ("\"\\ud83c\\u0041\"", 1, 2, "without the second half"),
        ("\"\\udfb9\"", 1, 2, "without the first half"),
        ("\"open", 1, 6, "the file ends inside a text"),
        ("{} {}", 1, 4, "unexpected text after the JSON value"),
    ] as [(String, Int, Int, String)])
    func failures(text: String, line: Int, column: Int, message: String) {
        #expect {
            _ = try read(text)
        } throws: { error in
            guard let failure = error as? JSONReader.Failure else { return false }
            return failure.line == line && failure.column == column && failure.message.contains(message) && !failure.isLimit
        }
    }

    @Test("Nesting deeper than the limit is refused as a limit, before the stack is in danger", arguments: [32, 33, 100_000])
    func depth(levels: Int) {
        let text = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
        do {
            _ = try read(text)
            #expect(levels <= 32)
        } catch {
            #expect(levels > 32)
            #expect(error.isLimit && error.message == "the JSON is nested more than 32 deep" && error.column == 33)
        }
    }

    @Test("What values take is counted: many small values go past a limit that one long string does not reach")
    func sizeAccounting() throws {
        let long = "{\"ics\": \"" + String(repeating: "x", count: 1_000_000) + "\"}"
        var reader = JSONReader(Array(long.utf8), maximumBytes: 64 << 10)
        _ = try reader.document()
        #expect(reader.charged < 1_000, "a string is not decoded while reading: \(reader.charged) bytes")

        let many = "[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]"
        #expect {
            _ = try read(many, maximumBytes: many.utf8.count)
        } throws: { error in
            (error as? JSONReader.Failure).map { $0.isLimit && $0.message == "the JSON's values take more than \(many.utf8.count) bytes" } ?? false
        }
        #expect(throws: Never.self) { _ = try read(many, maximumBytes: 100 * many.utf8.count) }
    }

    @Test("Strings decode as JSONDecoder decodes them: escapes, surrogate pairs, everything else as it stands")
    func stringsAsJSONDecoder() throws {
        let samples = [
            "", "plain", "quote \" backslash \\ slash /", String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self),
            "é 🎹 和音 \u{7F}\u{85}\u{2028}\u{FEFF}", String(repeating: "BEGIN:VEVENT\r\nSUMMARY:a\\, b\r\n", count: 500),
        ]
        let encoder = JSONEncoder()
        for sample in samples {
            // As JSONEncoder writes it, and with every character but ASCII letters escaped as \u
            // (Python's json.dumps escapes all that is not ASCII).
            let escaped = sample.utf16.map { unit in
                (0x41...0x5A).contains(unit) || (0x61...0x7A).contains(unit) ? String(UnicodeScalar(UInt8(unit))) : String(format: "\\u%04x", unit)
            }.joined()
            for text in [String(decoding: try encoder.encode(sample), as: UTF8.self), "\"" + escaped + "\""] {
                let (value, bytes) = try read(text)
                guard case .string(let string) = value.kind else {
                    Issue.record("not a string")
                    continue
                }
                #expect(string.text(in: bytes) == sample)
                #expect(string.text(in: bytes) == (try JSONDecoder().decode(String.self, from: Data(text.utf8))))
            }
        }
    }

    @Test("Decoded a piece at a time, a string is the same bytes as decoded whole, bytes that are not UTF-8 replaced alike",
          arguments: [8, 9, 13, 64, 1 << 16])
    func pieces(pieceSize: Int) throws {
        var generator = SeededGenerator(seed: UInt64(pieceSize))
        let alphabet: [[UInt8]] = [
            Array("a".utf8), Array("\\n".utf8), Array("\\u00e9".utf8), Array("\\ud83c\\udfb9".utf8), Array("é".utf8),
            Array("🎹".utf8), Array("和".utf8), [0xFF], [0xE2, 0x82], [0x80], [0xF0, 0x9F], [0xC3],
        ]
        for _ in 0..<300 {
            var body: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<60, using: &generator) { body += alphabet.randomElement(using: &generator)! }
            let bytes = [0x22] + body + [0x22]
            var reader = JSONReader(bytes)
            guard case .string(let string) = try reader.document().kind else {
                Issue.record("not a string")
                continue
            }
            var pieces: [[UInt8]] = []
            try string.decode(in: bytes, pieceSize: pieceSize) { pieces.append(Array($0)) }
            let whole = string.decoded(in: bytes)
            #expect(pieces.joined().elementsEqual(whole))
            // A piece grows only where a byte that is not UTF-8 becomes U+FFFD (three bytes).
            #expect(pieces.allSatisfy { $0.count <= 3 * max(8, pieceSize) && !$0.isEmpty })
            #expect(pieces.allSatisfy { String(validating: $0, as: UTF8.self) != nil }, "no piece cuts a character")
            // Whole, the bytes that are not UTF-8 are replaced as String(decoding:) replaces them in the line.
            let line = String(decoding: bytes, as: UTF8.self)
            #expect(String(decoding: whole, as: UTF8.self) == (try JSONDecoder().decode(String.self, from: Data(line.utf8))))
        }
    }

    @Test("The plain run of a string ends where a byte-by-byte look ends it")
    func plainRun() {
        var generator = SeededGenerator(seed: 7)
        let interesting: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, 0x41]
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
                Bool.random(using: &generator) ? 0x61 : interesting.randomElement(using: &generator)!
            }
            let start = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &generator)
            let expected = bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } ?? bytes.count
            #expect(JSONString.plainRun(in: bytes, from: start) == expected, "\(bytes) from \(start)")
        }
    }
}

/// A small deterministic generator (SplitMix64), so that a failing case can be run again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
