/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
/// U+10FFFF), decided without making a String of them.
///
/// The lines that reach it are mostly ASCII with a few accented or CJK characters: ASCII goes
/// eight bytes at a time, each other sequence is checked where it starts. `String(validating:)`
/// gives the same answers, but copies the bytes into a new string first.
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time.
            while index + 8 <= count,
                  UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            guard index < count else { return true }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The sequence's length and the range its second byte must be in (RFC 3629, section 4).
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; second = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; second = 0x80...0x9F
            case 0xF0: length = 4; second = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; second = 0x80...0x8F
            default: return false
            }
            guard index + length <= count, second.contains(base[index + 1]) else { return false }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }

    /// The bytes as a string if they are well-formed UTF-8, else nil: what `String(validating:as:)`
    /// gives. That initializer is generic over the encoding and asks the runtime for the metadata
    /// of `Unicode.ParseResult` on every call, in a cache whose shared reader count the workers of
    /// a batch contend for; this one is not generic.
    static func string(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBufferPointer { isValid($0) ? String(decoding: $0, as: UTF8.self) : nil }
    }

    /// The bytes as a string if they are well-formed UTF-8, else nil (see the slice's).
    static func string(_ bytes: [UInt8]) -> String? {
        string(bytes[...])
    }
}
