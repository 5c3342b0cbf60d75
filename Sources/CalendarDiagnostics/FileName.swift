/// File names as Linux keeps them: bytes, not always UTF-8 (a Latin-1 `Übung.ics` from an old
/// archive is `DC 62 75 6E 67 2E 69 63 73`). A `String` cannot hold such bytes, so each byte of a
/// sequence that is not UTF-8 stands as a scalar of its own, U+10FF00 plus the byte (in plane 16's
/// private use area, which no file name uses), and goes back to the byte where the name reaches
/// the system. Names are shown with such a byte escaped: `\xDCbung.ics`.
///
/// ```swift
/// let name = FileName.string(fromSystem: [0xDC] + Array("bung.ics".utf8))
/// print(FileName.displayed(name))
/// // Prints "\xDCbung.ics"
/// print(FileName.systemBytes(name) == [0xDC] + Array("bung.ics".utf8))
/// // Prints "true"
/// ```
public enum FileName {
    /// The first scalar that stands for a byte: U+10FF00 plus the byte (0x80 to 0xFF).
    private static let standInBase: UInt32 = 0x10_FF00

    /// A name (or a path) from the file system's bytes: valid UTF-8 as it is, any other byte as
    /// its stand-in.
    public static func string(fromSystem bytes: some Collection<UInt8>) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var rest = Array(bytes)[...]
        // A scalar at a time; where no UTF-8 scalar starts, the byte (0x80 or above) stands for itself.
        while let first = rest.first {
            var iterator = rest.makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                scalars.append(scalar)
                rest = rest.dropFirst(UTF8.width(scalar))
            } else {
                scalars.append(Unicode.Scalar(standInBase + UInt32(first))!)
                rest = rest.dropFirst()
            }
        }
        return String(scalars)
    }

    /// Whether `name` holds a stand-in for a byte.
    public static func hasStandIns(_ name: String) -> Bool {
        name.unicodeScalars.contains { $0.value >= standInBase + 0x80 && $0.value <= standInBase + 0xFF }
    }

    /// The bytes `name` stands for on the file system.
    public static func systemBytes(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if scalar.value >= standInBase + 0x80, scalar.value <= standInBase + 0xFF {
                bytes.append(UInt8(scalar.value - standInBase))
            } else {
                bytes += String(scalar).utf8
            }
        }
        return bytes
    }

    /// Calls `body` with `name` as the C string the system takes (its stand-ins as their bytes).
    public static func withSystemRepresentation<Result>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard hasStandIns(name) else { return try name.withCString(body) }
        let bytes = systemBytes(name).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `name` as people are shown it: each stand-in as `\xNN` (two upper-case hex digits).
    public static func displayed(_ name: String) -> String {
        guard hasStandIns(name) else { return name }
        var shown = ""
        for scalar in name.unicodeScalars {
            if scalar.value >= standInBase + 0x80, scalar.value <= standInBase + 0xFF {
                let byte = scalar.value - standInBase
                shown += "\\x" + String(byte >> 4, radix: 16).uppercased() + String(byte & 0xF, radix: 16).uppercased()
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}

extension FileName {
    /// Why `path` was not read when nothing has that name: "no such file", and for a path shaped
    /// like an address with a scheme StreakCal does not read (`htps://…`, `ftp://…`), that the
    /// scheme is unknown, since that is what was meant (issue 46.9).
    ///
    /// ```swift
    /// print(FileName.missingReason("htps://example.com/team.ics"))
    /// // Prints "no such file, and htps:// is not an address StreakCal reads (http://, https:// or webcal://)"
    /// ```
    public static func missingReason(_ path: String) -> String {
        guard let scheme = addressScheme(path) else { return "no such file" }
        return "no such file, and \(scheme):// is not an address StreakCal reads (http://, https:// or webcal://)"
    }

    /// The scheme of text shaped as `scheme://…` (RFC 3986 §3.1: a letter, then letters, digits,
    /// `+`, `-` or `.`), at most 32 characters; `nil` for other text.
    static func addressScheme(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars.prefix(36))
        guard let colon = scalars.firstIndex(of: ":"), colon > 0, colon <= 32, scalars.count >= colon + 3,
              scalars[colon + 1] == "/", scalars[colon + 2] == "/", scalars[0].isASCIILetter,
              scalars[..<colon].allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return String(String.UnicodeScalarView(scalars[..<colon]))
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
