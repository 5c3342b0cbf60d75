import Foundation
@testable import Streaks
import Testing

@Suite("Summary patterns: a linear-time regular expression")
struct SummaryPatternTests {
    @Test("Patterns match what they say, somewhere in the text", arguments: [
        (#"^Run\b"#, "Run 5k", true),
        (#"^Run\b"#, "Running", false),
        ("run", "Long run", true),
        ("^run", "Long run", false),
        ("run$", "Long run", true),
        ("run$", "Long run\n", true),
        ("run$", "Long run\nx", false),
        (#"run\z"#, "Long run\n", false),
        ("(?m)^x$", "a\nx\nb", true),
        ("^x$", "a\nx\nb", false),
        ("a.c", "abc", true),
        ("a.c", "a\nc", false),
        ("(?s)a.c", "a\nc", true),
        ("colou?r", "color", true),
        ("colou?r", "colouur", false),
        ("a{2,3}b", "xaab", true),
        ("^a{2,3}b", "ab", false),
        ("^a{2}$", "aa", true),
        ("^a{2}$", "aaa", false),
        ("^a{2,}$", "aaaaa", true),
        ("^a{,2}$", "aaa", false),
        ("^a{,2}$", "", true),
        ("x{", "x{", true),
        ("x{a}", "x{a}", true),
        ("piano|guitar", "Guitar lesson", false),
        ("(?i)piano|guitar", "Guitar lesson", true),
        ("(?i:P)iano", "piano", true),
        ("(?i:P)iano", "pIANO", false),
        ("(?i)p(?-i)iano", "PIANO", false),
        ("(?i)straße", "STRASSE", false),
        ("(?i)ärger", "ÄRGER", true),
        ("[a-c]+x", "zzbcax", true),
        ("^[^a-c]+$", "xyz", true),
        ("^[^a-c]+$", "xaz", false),
        ("[]a]", "]", true),
        ("[a-]", "-", true),
        (#"[\d.]+k"#, "5.5k", true),
        ("[[:upper:]][[:digit:]]", "aB7", true),
        ("[[:^digit:]]", "123", false),
        (#"\d{2}:\d{2}"#, "at 07:30", true),
        (#"\s"#, "nospace", false),
        (#"\S+"#, " ", false),
        (#"\W"#, "ab_9", false),
        (#"\bend\b"#, "the end.", true),
        (#"\Bend"#, "the end.", false),
        (#"\Bend"#, "legend", true),
        (#"\x41\u{1F3C3}"#, "A🏃", true),
        (#"\u00e9"#, "café", true),
        (#"a\.b"#, "axb", false),
        (#"a\.b"#, "a.b", true),
        ("(?<kind>run|swim)ming", "swimming", true),
        ("(?:ab)+$", "xababab", true),
        ("(a|)+b", "b", true),
        ("(a*)*$", "aaa", true),
        ("()", "", true),
        ("a*?b", "aab", true),
        ("é", "Café", true),
        ("🏃‍♀️", "run 🏃‍♀️", true),
        ("", "anything", true),
        (#"\t"#, "a\tb", true),
    ] as [(String, String, Bool)])
    func matching(pattern: String, text: String, expected: Bool) throws {
        #expect(try SummaryPattern(pattern).matches(text) == expected)
    }

    @Test("What a linear-time matcher cannot do, or the pattern gets wrong, is refused with its place", arguments: [
        (#"(a)\1"#, 3, "backreferences"),
        (#"\k<a>"#, 0, "backreferences"),
        ("a(?=b)", 1, "lookahead"),
        ("a(?!b)", 1, "lookahead"),
        ("(?<=a)b", 0, "lookbehind"),
        ("(?<!a)b", 0, "lookbehind"),
        ("(?>a)", 0, "atomic"),
        ("a*+", 1, "possessive"),
        ("a{2}+", 1, "possessive"),
        (#"\p{L}"#, 0, "Unicode properties"),
        ("[a[b]]", 2, "nested classes"),
        ("[a&&b]", 2, "set operations"),
        ("[z-a]", 1, "out of order"),
        ("a{3,2}", 1, "out of order"),
        ("a{1001}", 1, "at most 1000"),
        ("a{99999999999}", 1, "at most 1000"),
        ("(a{1000}){11}", 0, "too large"),
        ("(", 0, "has no ')'"),
        ("a)", 1, "has no '('"),
        ("[abc", 0, "has no ']'"),
        ("*a", 0, "nothing to repeat"),
        ("a**", 2, "cannot follow another"),
        ("^*", 1, "cannot be repeated"),
        (#"a\"#, 1, "cannot end"),
        (#"\q"#, 0, "not an escape"),
        (#"\0"#, 0, "not an escape"),
        ("(?ix)a", 3, "flag 'x'"),
        ("(?x)a", 0, "is not supported"),
        ("(?#c)", 0, "is not supported"),
        ("[[:alfa:]]", 1, "is not a class"),
        (#"[\b]"#, 1, "cannot stand in"),
        (#"\xZZ"#, 0, "hex digits"),
    ] as [(String, Int, String)])
    func refusals(pattern: String, offset: Int, message: String) {
        #expect {
            try SummaryPattern(pattern)
        } throws: { error in
            guard let error = error as? StreakRulesSyntaxError else { return false }
            return error.offset == offset && error.message.contains(message)
        }
    }

    @Test("habit-pattern-class-linear-scan.sh: a bracket's ranges, sorted and merged, hold what they held; a class of 97,000 characters matches at once")
    func bracketRanges() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var set = ScalarSet()
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let low = UInt32.random(in: 0x20...0x300, using: &generator)
                set.ranges.append(low...(low + UInt32.random(in: 0...40, using: &generator)))
            }
            let written = set.ranges
            set.normalize()
            #expect(zip(set.ranges, set.ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
            for value in UInt32(0x1F)...0x350 {
                let scalar = Unicode.Scalar(value)!
                #expect(set.contains(scalar) == written.contains { $0.contains(value) }, "\(written) \(value)")
            }
        }
        // The reproducer's class: every CJK ideograph and "a", a thousand times over a 1,000-character SUMMARY.
        let ideographs = (0x4E00...0x9FFF).map { String(Unicode.Scalar($0)!) }.joined()
        let pattern = try SummaryPattern("[\(ideographs)a]{1000}")
        #expect(pattern.matches(String(repeating: "a", count: 999) + "!") == false)
        #expect(pattern.matches(String(repeating: "a", count: 500) + String(repeating: "\u{4E2D}", count: 500)))
    }

    @Test("Groups nest at most 32 deep")
    func groupDepth() throws {
        let deepest = String(repeating: "(", count: 32) + "a" + String(repeating: ")", count: 32)
        #expect(try SummaryPattern(deepest).matches("xa"))
        let deeper = String(repeating: "(", count: 33) + "a" + String(repeating: ")", count: 33)
        #expect(throws: StreakRulesSyntaxError(.pattern, "groups nest at most 32 deep", offset: 32)) { try SummaryPattern(deeper) }
        let unclosed = String(repeating: "(", count: 40_000)
        #expect(throws: StreakRulesSyntaxError(.pattern, "groups nest at most 32 deep", offset: 32)) { try SummaryPattern(unclosed) }
    }

    /// The reproducers of issue 29: exponential and quadratic for a backtracking engine.
    @Test("Work is at most the pattern's steps per character: no backtracking, no restart per position", arguments: [
        (#"^(\w+\s?)*$"#, "aaaaaaaaaaaaaaaaaaaaaaaa!"),
        (#"^(\w+\s?)*$"#, String(repeating: "ab ", count: 30_000) + "!"),
        (".*run", String(repeating: "a", count: 30_000)),
        ("(a+)+$", String(repeating: "a", count: 20_000) + "b"),
        ("(x+x+)+y", String(repeating: "x", count: 20_000)),
        ("(a|aa)*c", String(repeating: "a", count: 20_000)),
    ])
    func linearWork(pattern: String, text: String) throws {
        let compiled = try SummaryPattern(pattern)
        let (matches, work) = compiled.matching(text)
        #expect(!matches)
        let scalars = text.unicodeScalars.count
        #expect(work <= compiled.stepCount * (scalars + 1))
        // Twice the text, about twice the work.
        let doubled = compiled.matching(text + text).work
        #expect(Double(doubled) <= 2.05 * Double(work) + Double(compiled.stepCount))
    }

    @Test("A pattern anchored at the start gives up as soon as no thread is alive")
    func anchoredGivesUp() throws {
        let pattern = try SummaryPattern("^abc")
        let (matches, work) = pattern.matching("x" + String(repeating: "y", count: 100_000))
        #expect(!matches)
        #expect(work <= pattern.stepCount)
    }

    /// The matcher against Swift's backtracking `Regex` on the syntax both read the same way, over
    /// short random texts of letters, digits and spaces (where `\b` is the same either way).
    @Test("The same answers as Swift's Regex on their common syntax", arguments: [
        "^Run\\b", "run", "^r.n$", "(?i)RUN", "[a-c]+[^a-c]", "\\d+\\s*k", "a{2,3}", "(ab|ba)+b?$", "\\bx", "x\\B",
        "^[[:alpha:]]*$", "(a|b)*c", "a.?b", "\\w\\W\\w", "(?:a(?:b|c)){1,3}$", "c{0,2}a", "^$", "b+?a",
    ])
    func sameAsRegex(pattern: String) throws {
        let ours = try SummaryPattern(pattern)
        let theirs = try Regex(pattern)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(pattern.utf8.count + 1)
        let alphabet = Array("abcrunxRUN 12k")
        for _ in 0..<400 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let text = String(randomText(length: Int(state % 9), from: alphabet, bits: state))
            #expect(ours.matches(text) == ((try? theirs.firstMatch(in: text)) != nil), "\(pattern) on '\(text)'")
        }
    }

    /// The matcher starts a thread only where a first step takes the scalar (`firstSteps`); the
    /// same program with every position tried must answer the same, texts with case, accents,
    /// line breaks and word boundaries included.
    @Test("Starting only where a first step takes the scalar answers as trying every position", arguments: [
        "(?i)tonleiter|scale|étude", "(?i)ÉTUDE", "[é-ü]x", "(?m)^b", "\\Ax", "x*", "(?i)ß|ss", "\\bé", "a|\\d$",
        "(?s).b", "(?i:Ü)bung", "^$", "\\Z", "[^a]c", "(?m)b$",
    ])
    func firstStepsAnswerAsEveryPosition(pattern: String) throws {
        let skipping = try SummaryPattern(pattern)
        var everywhere = skipping.program
        everywhere.firstSteps = nil
        let alphabet: [String] = ["a", "b", "c", "x", "é", "É", "e\u{301}", "ü", "Ü", "ß", "\n", " ", "1", "S", "t"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D &* UInt64(pattern.utf8.count + 1)
        for _ in 0..<500 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let text = randomText(length: Int(state % 8), from: alphabet, bits: state).joined()
            let scalars = Array(text.unicodeScalars)
            let expected = scalars.withUnsafeBufferPointer { text in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: PatternMatcher.memoryNeeded(everywhere)) { memory in
                    memory.initialize(repeating: 0)
                    var matcher = PatternMatcher(program: everywhere, memory: memory)
                    return matcher.matches(text)
                }
            }
            #expect(skipping.matches(text) == expected, "\(pattern) on '\(text)'")
        }
    }
}

/// `length` elements of `alphabet`, the n-th chosen by four bits of `bits` from bit 4n + 8 on.
private func randomText<Element>(length: Int, from alphabet: [Element], bits: UInt64) -> [Element] {
    let count = UInt64(alphabet.count)
    return (0..<length).map { (index: Int) -> Element in
        let shift: UInt64 = UInt64(index) * 4 + 8
        return alphabet[Int((bits >> shift) % count)]
    }
}
