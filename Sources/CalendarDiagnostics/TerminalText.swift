extension String {
    /// The text with every character that could act on a terminal shown as a visible escape,
    /// `\u{XX}` (the code point in upper-case hexadecimal, at least two digits), for printing text
    /// from outside — summaries, file names, time zone names, source lines — where people read it.
    ///
    /// Escaped are the characters that move the cursor, start a line, clear the screen, change
    /// colours, make hyperlinks or reorder the text on screen:
    /// - the C0 controls U+0000–U+001F (ESC, BEL, backspace, carriage return, line feed, ...);
    ///   tab is kept unless `keepingTabs` is `false`, as where it would break columns;
    /// - DEL U+007F and the C1 controls U+0080–U+009F (CSI U+009B, OSC U+009D, NEL U+0085, ...);
    /// - the line and paragraph separators U+2028 and U+2029;
    /// - the bidirectional formatting characters U+061C, U+200E, U+200F, U+202A–U+202E and
    ///   U+2066–U+2069 (so `gnp.exe` after U+202E does not read as `exe.png`).
    ///
    /// Everything else is unchanged, backslashes included: the form is for reading, not for
    /// parsing back. Text without such characters is returned as it is.
    ///
    /// ```swift
    /// print("\u{1B}[2Jdone\u{7}\r\n\u{202E}gnp.exe".escapingControlCharacters())
    /// // Prints "\u{1B}[2Jdone\u{07}\u{0D}\u{0A}\u{202E}gnp.exe"
    /// ```
    package func escapingControlCharacters(keepingTabs: Bool = true) -> String {
        // Printable ASCII, most text, has nothing to escape: told by its bytes, read in place
        // (cheaper than iterating the UTF-8 view).
        if utf8.isPrintableASCII { return self }
        let scalars = unicodeScalars
        guard scalars.contains(where: { $0.isTerminalControl(keepingTabs: keepingTabs) }) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in scalars {
            if scalar.isTerminalControl(keepingTabs: keepingTabs) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: "\\u{\(hex.count < 2 ? "0" + hex : hex)}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

extension Unicode.Scalar {
    /// Whether `String.escapingControlCharacters(keepingTabs:)` shows this character as an escape.
    ///
    /// ```swift
    /// print(Unicode.Scalar(0x9B)!.isTerminalControl(), Unicode.Scalar("\t").isTerminalControl())
    /// // Prints "true false"
    /// ```
    package func isTerminalControl(keepingTabs: Bool = true) -> Bool {
        switch value {
        case 0x09: !keepingTabs
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String.UTF8View {
    /// Whether every byte is printable ASCII (0x20 to 0x7E), read from the string's storage.
    var isPrintableASCII: Bool {
        withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
            ?? allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
