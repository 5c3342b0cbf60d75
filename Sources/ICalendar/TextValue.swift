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
        guard value.utf8.contains(0x5C) else { return value.trimmingSpaces }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        var escaped = false
        for byte in value.utf8 {
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
        return String(decoding: bytes, as: UTF8.self).trimmingSpaces
    }

    /// A multi-valued TEXT property (CATEGORIES) split at unescaped commas, each value decoded.
    static func decodeList(_ value: Substring) -> [String] {
        var values: [String] = []
        var start = value.startIndex
        var escaped = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                values.append(decode(value[start..<index]))
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        values.append(decode(value[start...]))
        return values
    }
}
