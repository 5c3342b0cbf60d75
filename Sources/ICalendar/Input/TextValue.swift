/// RFC 5545 TEXT values (section 3.3.11), read without libical.
///
/// The session properties that are only text (UID, SUMMARY, CATEGORIES, the points property) are
/// read here rather than by libical: they need no more than unescaping, and handing them to libical
/// would cost a linear, case-insensitive search of its property table for each. The decoding
/// matches libical's for the escapes RFC 5545 defines, and trims surrounding spaces as libical does.
enum TextValue {
    /// The value with `\\`, `\;`, `\,`, `\n` and `\N` unescaped and surrounding spaces trimmed; a
    /// backslash before any other character is kept with it (lenient: nothing is lost).
    static func decode(_ value: Substring) -> String {
        var value = value
        return value.withUTF8 { decode(bytes: $0) }
    }

    /// `decode(_:)` on a value's UTF-8 bytes.
    static func decode(bytes value: UnsafeBufferPointer<UInt8>) -> String {
        guard value.contains(0x5C) else { return String(decoding: trimmed(value), as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.count)
        var escaped = false
        for byte in value {
            if escaped {
                escaped = false
                switch byte {
                case 0x6E, 0x4E: bytes.append(0x0A)  // \n, \N
                case 0x5C, 0x3B, 0x2C: bytes.append(byte)  // \\, \;, \,
                default: bytes += [0x5C, byte]
                }
            } else if byte == 0x5C {
                escaped = true
            } else {
                bytes.append(byte)
            }
        }
        if escaped { bytes.append(0x5C) }
        return bytes.withUnsafeBufferPointer { String(decoding: trimmed($0), as: UTF8.self) }
    }

    /// A multi-valued TEXT property (CATEGORIES) split at unescaped commas, each value decoded.
    static func decodeList(_ value: Substring) -> [String] {
        var value = value
        return value.withUTF8 { decodeList(bytes: $0) }
    }

    /// `decodeList(_:)` on a value's UTF-8 bytes (the escapes and the comma are single bytes).
    static func decodeList(bytes value: UnsafeBufferPointer<UInt8>) -> [String] {
        var values: [String] = []
        var start = 0
        var escaped = false
        for (index, byte) in value.enumerated() {
            if escaped {
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else if byte == 0x2C {
                values.append(decode(bytes: UnsafeBufferPointer(rebasing: value[start..<index])))
                start = index + 1
            }
        }
        values.append(decode(bytes: UnsafeBufferPointer(rebasing: value[start...])))
        return values
    }

    /// The bytes without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
