@testable import ICalendar
import Testing

@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    /// The answer `String(validating:)` gives, which the validator must give without the copy.
    private func reference(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    @Test("Every sequence of one and two bytes")
    func shortSequences() {
        for first in 0...255 {
            #expect(UTF8Validation.isValid([UInt8(first)]) == reference([UInt8(first)]), "\(first)")
            for second in 0...255 {
                let bytes = [UInt8(first), UInt8(second)]
                if UTF8Validation.isValid(bytes) != reference(bytes) {
                    Issue.record("\(bytes)")
                }
            }
        }
    }

    @Test("Three and four bytes: every lead with the edges of each continuation range")
    func longSequences() {
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
        for lead in UInt8(0xC0)...0xFF {
            for second in edges {
                for third in edges {
                    let three = [lead, second, third]
                    #expect(UTF8Validation.isValid(three) == reference(three), "\(three)")
                    for fourth in edges {
                        let four = [lead, second, third, fourth]
                        #expect(UTF8Validation.isValid(four) == reference(four), "\(four)")
                    }
                }
            }
        }
    }

    @Test("Lines of ASCII with one character or one bad byte at every position across the eight-byte steps")
    func positions() {
        let insertions: [[UInt8]] = [[0xC3, 0xA9], [0xE3, 0x83, 0x86], [0xF0, 0x9F, 0x8E, 0xB9], [0xFF], [0xC3], [0xE3, 0x83], [0xED, 0xA0, 0x80], [0x80]]
        for length in 0..<40 {
            for position in 0...length {
                for insertion in insertions {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes.insert(contentsOf: insertion, at: position)
                    #expect(UTF8Validation.isValid(bytes) == reference(bytes), "\(bytes)")
                }
            }
        }
    }

    @Test("Random bytes, random text and long lines")
    func random() {
        var generator = SystemRandomNumberGenerator()
        let samples = ["é", "Übung", "テンポ", "音階", "🎻", "\u{301}", "Ω", "ß"]
        for _ in 0..<5_000 {
            let count = Int(generator.next() % 64)
            let noise = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(UTF8Validation.isValid(noise) == reference(noise), "\(noise)")
            var text = Array("practice ".utf8)
            for _ in 0..<Int(generator.next() % 8) {
                text += Array(samples[Int(generator.next() % UInt64(samples.count))].utf8) + Array(" tempo ".utf8)
            }
            #expect(UTF8Validation.isValid(text))
            if !text.isEmpty, generator.next() % 2 == 0 {
                text[Int(generator.next() % UInt64(text.count))] = UInt8(truncatingIfNeeded: generator.next())
                #expect(UTF8Validation.isValid(text) == reference(text), "\(text)")
            }
        }
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 100_000) + Array("é".utf8)
        #expect(UTF8Validation.isValid(long))
        #expect(!UTF8Validation.isValid(long + [0xC3]))
        #expect(UTF8Validation.isValid([]))
    }
}

@Suite("UTF-8 validation: strings")
struct UTF8ValidationStringTests {
    @Test("string(_:) gives what String(validating:) gives, for arrays and for slices of them")
    func strings() {
        var generator = SystemRandomNumberGenerator()
        let samples = ["é", "テンポ", "🎻", "\u{301}", "x", " ", "\r\n"]
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 10) {
                bytes += Array(samples[Int(generator.next() % UInt64(samples.count))].utf8)
            }
            if !bytes.isEmpty, generator.next() % 3 == 0 {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            #expect(UTF8Validation.string(bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
            let start = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count + 1))
            let slice = bytes[start...]
            #expect(UTF8Validation.string(slice) == String(validating: slice, as: UTF8.self), "\(bytes) from \(start)")
        }
        #expect(UTF8Validation.string(Array("Übung".utf8)) == "Übung")
        #expect(UTF8Validation.string([0x55, 0xC3]) == nil)
        #expect(UTF8Validation.string(ArraySlice(Array("ab".utf8))) == "ab")
    }
}
