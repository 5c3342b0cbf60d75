import Streaks
import Testing

@Suite("Text for terminals")
struct TerminalTextTests {
    @Test("Controls, C1, separators and bidi formatting become \\u{XX}; the rest is kept", arguments: [
        ("plain text, ümlauts, emoji 🔥, \\ and tab\there", "plain text, ümlauts, emoji 🔥, \\ and tab\there"),
        ("", ""),
        ("\u{1B}[2J", "\\u{1B}[2J"),
        ("\u{1B}]8;;http://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\",
         "\\u{1B}]8;;http://evil.example\\u{1B}\\click\\u{1B}]8;;\\u{1B}\\"),
        ("bell\u{7} back\u{8} nul\u{0}", "bell\\u{07} back\\u{08} nul\\u{00}"),
        ("line\r\nnext\nthird\rfourth", "line\\u{0D}\\u{0A}next\\u{0A}third\\u{0D}fourth"),
        ("del\u{7F} csi\u{9B}31m nel\u{85} last-c1\u{9F} first-not\u{A0}", "del\\u{7F} csi\\u{9B}31m nel\\u{85} last-c1\\u{9F} first-not\u{A0}"),
        ("\u{202E}gnp.exe", "\\u{202E}gnp.exe"),
        ("\u{2066}\u{2069}\u{200E}\u{200F}\u{061C}\u{202A}", "\\u{2066}\\u{2069}\\u{200E}\\u{200F}\\u{61C}\\u{202A}"),
        ("a\u{2028}b\u{2029}c", "a\\u{2028}b\\u{2029}c"),
        ("zero-width joiner 👩‍💻 stays", "zero-width joiner 👩‍💻 stays"),
    ])
    func escapes(text: String, expected: String) {
        let escaped = text.escapingControlCharacters()
        #expect(escaped == expected)
        #expect(!escaped.unicodeScalars.contains { $0.isTerminalControl() })
    }

    @Test("Tabs are kept in free text and escaped where they would break columns")
    func tabs() {
        #expect("a\tb".escapingControlCharacters() == "a\tb")
        #expect("a\tb".escapingControlCharacters(keepingTabs: false) == "a\\u{09}b")
    }

    @Test("Every scalar below U+0020 but tab, and U+007F to U+009F, is a control; U+0020, U+007E and U+00A0 are not")
    func boundaries() throws {
        for value in UInt32(0)...0xFF {
            let scalar = try #require(Unicode.Scalar(value))
            let expected = value < 0x20 && value != 0x09 || (0x7F...0x9F).contains(value)
            #expect(scalar.isTerminalControl() == expected, "U+\(String(value, radix: 16))")
        }
    }
}
