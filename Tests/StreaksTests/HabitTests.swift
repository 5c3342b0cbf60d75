@testable import Streaks
import Testing

private func session(_ summary: String, categories: [String] = [], properties: [String: String] = [:]) -> Session {
    Session(id: summary, start: .date(ymd(2024, 1, 1)), end: .date(ymd(2024, 1, 2)), points: 10,
            summary: summary, categories: categories, properties: properties)
}

@Suite("Habits: session filters")
struct SessionFilterTests {
    @Test("Filters as text match what they say", arguments: [
        ("summary:piano", "Piano scales", [], [:], true),
        ("summary:piano", "Guitar", [], [:], false),
        ("summary:\"morning run\"", "Long Morning Run", [], [:], true),
        ("summary~^Run\\b", "Run 5k", [], [:], true),
        ("summary~^Run\\b", "Running", [], [:], false),
        ("categories:piano", "x", ["Music", "PIANO"], [:], true),
        ("category:piano", "x", ["pianos"], [:], false),
        ("property:X-HABIT", "x", [], ["X-HABIT": "anything"], true),
        ("property:x-habit=Piano", "x", [], ["X-HABIT": "piano"], true),
        ("property:X-HABIT=piano", "x", [], ["X-HABIT": "guitar"], false),
        ("categories:piano or summary:scales", "Scales", [], [:], true),
        ("categories:piano and not summary:warm-up", "Warm-up", ["piano"], [:], false),
        ("not (summary:a or summary:b) and categories:c", "zzz", ["c"], [:], true),
        ("summary:x or summary:y and categories:z", "x", [], [:], true),   // and binds tighter
        ("all", "anything", [], [:], true),
        ("not (all)", "anything", [], [:], false),
        ("(all) and summary:x", "x", [], [:], true),
    ] as [(String, String, [String], [String: String], Bool)])
    func matching(text: String, summary: String, categories: [String], properties: [String: String], expected: Bool) throws {
        let filter = try SessionFilter(parsing: text)
        #expect(filter.matches(session(summary, categories: categories, properties: properties)) == expected)
        // The text form reads back to the same filter.
        #expect(try SessionFilter(parsing: filter.description) == filter)
    }

    @Test("Bad filters say what and where", arguments: [
        ("colour:red", 0, "'colour' is not summary, categories or property"),
        ("summary:a and", 13, "a condition is expected here"),
        ("(summary:a", 0, "has no ')'"),
        ("summary~(", 8, "is not a regular expression StreakCal reads: the '(' here has no ')'"),
        ("summary~a(?=b)", 9, "lookahead"),
        ("summary~\"x \\1\"", 11, "backreferences"),
        ("categories~x", 0, "only summary takes a regular expression"),
        ("summary:a summary:b", 10, "join conditions with 'and' or 'or'"),
        ("summary:\"open", 8, "the quote here is not closed"),
        ("property:", 9, "property: takes a property name"),
    ] as [(String, Int, String)])
    func errors(text: String, offset: Int, message: String) {
        #expect {
            try SessionFilter(parsing: text)
        } throws: { error in
            guard let error = error as? StreakRulesSyntaxError else { return false }
            return error.offset == offset && error.message.contains(message)
        }
    }

    @Test("A habit is NAME=FILTER; its errors count from the start of the whole text")
    func habits() throws {
        let habit = try Habit(parsing: "Piano practice=categories:piano")
        #expect(habit.name == "Piano practice")
        #expect(habit.filter == .category("piano"))
        #expect(SessionFilter.and(.property("x-a", value: nil), .not(.property("X-B", value: "1"))).propertyNames == ["X-A", "X-B"])
        #expect(throws: StreakRulesSyntaxError(.syntax, "'colour' is not summary, categories or property", offset: 6)) {
            try Habit(parsing: "Piano=colour:red")
        }
        #expect(throws: StreakRulesSyntaxError(.syntax, "a habit is NAME=FILTER, such as Piano=categories:piano", offset: 0)) {
            try Habit(parsing: "categories:piano")
        }
    }
}

@Suite("Habits: filters of any size, bounded")
struct SessionFilterLimitTests {
    @Test("30,000 'not's, or 40,000 '(', are refused at the 33rd, naming the depth")
    func deepNesting() {
        let nots = String(repeating: "not ", count: 30_000) + "summary:a"
        #expect(throws: StreakRulesSyntaxError(.tooLong, "the filter is nested more than 32 deep", offset: 0)) { try SessionFilter(parsing: nots) }
        let groups = String(repeating: "(", count: 40_000) + "summary:a" + String(repeating: ")", count: 40_000)
        #expect(throws: StreakRulesSyntaxError(.tooLong, "the filter is nested more than 32 deep", offset: 32)) { try SessionFilter(parsing: groups) }
        // In a habit, the offset counts from the start of NAME=FILTER.
        #expect(throws: StreakRulesSyntaxError(.tooLong, "the filter is nested more than 32 deep", offset: 2)) { try Habit(parsing: "A=" + nots) }
    }

    @Test("32 deep is read; 33 is not", arguments: [
        (String(repeating: "not ", count: 32) + "all", true),
        (String(repeating: "not ", count: 33) + "all", false),
        (String(repeating: "(", count: 32) + "all" + String(repeating: ")", count: 32), true),
        (String(repeating: "(", count: 33) + "all" + String(repeating: ")", count: 33), false),
        // 16 levels of `not (` … `and x)`: 32 operators deep.
        (String(repeating: "not (summary:x and ", count: 16) + "all" + String(repeating: ")", count: 16), true),
        (String(repeating: "not (summary:x and ", count: 16) + "not all" + String(repeating: ")", count: 16), false),
    ])
    func depthLimit(text: String, isRead: Bool) {
        #expect(((try? SessionFilter(parsing: text)) != nil) == isRead)
    }

    @Test("30,000 terms joined by 'or' make a balanced tree: read, matched, written and read back")
    func longChain() throws {
        let terms = (0..<30_000).map { "summary:w\($0)x" }
        let filter = try SessionFilter(parsing: terms.joined(separator: " or "))
        #expect(filter.depth == 15)
        #expect(filter.description == terms.joined(separator: " or "))
        #expect(try SessionFilter(parsing: filter.description) == filter)
        let compiled = filter.compiled()
        #expect(compiled.matches(session("a w29999x b")))
        #expect(compiled.matches(session("w0x")))
        #expect(!compiled.matches(session("w30000")))
        let and = try SessionFilter(parsing: (0..<20_000).map { _ in "not summary:q" }.joined(separator: " and "))
        #expect(and.depth == 16)
        #expect(and.compiled().matches(session("z")))
        #expect(!and.compiled().matches(session("q")))
    }

    @Test("Two and three terms give the tree a left-to-right reading gives, as before")
    func shortChains() throws {
        let (a, b, c) = (SessionFilter.summaryContains("a"), SessionFilter.summaryContains("b"), SessionFilter.summaryContains("c"))
        #expect(try SessionFilter(parsing: "summary:a or summary:b") == .or(a, b))
        #expect(try SessionFilter(parsing: "summary:a or summary:b or summary:c") == .or(.or(a, b), c))
        #expect(try SessionFilter(parsing: "summary:a and summary:b or summary:c") == .or(.and(a, b), c))
        #expect(try SessionFilter(parsing: "summary:a or summary:b and summary:c") == .or(a, .and(b, c)))
    }

    @Test("A filter of more than 1 MiB is refused before it is read")
    func tooLong() throws {
        let long = "summary:" + String(repeating: "a", count: SessionFilter.maximumTextLength)
        #expect(throws: StreakRulesSyntaxError(.tooLong, "the filter is longer than 1048576 bytes", offset: 0)) { try SessionFilter(parsing: long) }
        let longest = "summary:" + String(repeating: "a", count: SessionFilter.maximumTextLength - 8)
        #expect(try SessionFilter(parsing: longest) == .summaryContains(String(repeating: "a", count: SessionFilter.maximumTextLength - 8)))
    }

    @Test("A filter built in code, however deep, is compiled, matched and written without recursion")
    func builtInCode() {
        var filter = SessionFilter.summaryContains("run")
        for index in 0..<2_000 { filter = index % 2 == 0 ? .not(filter) : .and(.all, filter) }
        let compiled = filter.compiled()
        #expect(compiled.matches(session("run")))
        #expect(!compiled.matches(session("walk")))
        // 999 of the 1,000 `and`s stand inside a `not`, so in parentheses.
        #expect(filter.description.hasSuffix("not summary:run" + String(repeating: ")", count: 999)))
        #expect(filter.description.filter { $0 == ")" }.count == 999)
        #expect(filter.propertyNames.isEmpty)
    }

    @Test("Short-circuits: an 'or' whose first term matches does not run the second")
    func shortCircuit() throws {
        // The second term's pattern would be refused at compile time if it were read; built in code, it matches nothing.
        let filter = SessionFilter.or(.summaryContains("a"), .summaryMatches("("))
        #expect(filter.matches(session("a")))
        #expect(!filter.matches(session("b")))
        #expect(SessionFilter.and(.summaryContains("a"), .not(.summaryMatches("x+"))).matches(session("ab")))
    }
}

/// `summary:` compares `lowercased()` texts as Characters (canonical equivalence, grapheme
/// clusters); the filter searches bytes where that gives the same answer. Held equal here over
/// texts made of the scalars where the two could part: decomposed accents, CR LF, singletons
/// (KELVIN SIGN, GREEK QUESTION MARK, ANGSTROM SIGN), İ, ß, flags, emoji modifiers, ZWJ.
@Suite("Habits: summary text in any case")
struct SummaryContainsTests {
    static let pieces: [String] = [
        "a", "A", "e", "E", "é", "É", "e\u{301}", "\u{301}", "İ", "i", "ß", "ẞ", "s", "\r", "\n", "\r\n", "k", "K",
        "\u{212A}", ";", "\u{37E}", "å", "Å", "\u{212B}", "–", "П", "п", "中", "🇩", "🇪", "👍", "\u{1F3FB}", "\u{200D}",
        "ü", "Ü", "u\u{308}", "ǅ", "ǆ", " ", "#", "1", "`", "\u{1FEF}", "\u{130}",
    ]

    /// The reference: a search of Characters, spelled out (with Foundation imported, as here,
    /// `String.contains` would be Foundation's, which compares differently: "\r" in "\r\n").
    static func containsCharacters(_ text: String, _ needle: String) -> Bool {
        let text = Array(text), needle = Array(needle)
        guard needle.count <= text.count else { return false }
        return (0...(text.count - needle.count)).contains { text[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("The filter answers as a search of lowercased Characters, over texts where bytes and Characters could part")
    func sameAsCharacterSearch() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        func text(_ count: Int) -> String { (0..<count).map { _ in Self.pieces[next(Self.pieces.count)] }.joined() }
        var matched = 0
        for round in 0..<20_000 {
            let summary = text(next(10))
            // Every other needle is cut from the summary itself, so that about half of them match.
            let scalars = Array(summary.unicodeScalars)
            let needle: String
            if round.isMultiple(of: 2), !scalars.isEmpty {
                let start = next(scalars.count)
                var cut = String.UnicodeScalarView()
                cut.append(contentsOf: scalars[start..<(start + 1 + next(min(3, scalars.count - start)))])
                needle = String(cut)
            } else {
                needle = text(1 + next(3))
            }
            let expected = Self.containsCharacters(summary.lowercased(), needle.lowercased())
            let session = Session(id: "s", start: .date(try! Day(year: 2024, month: 1, day: 1)), end: .date(try! Day(year: 2024, month: 1, day: 2)),
                                  points: 1, summary: summary)
            #expect(SessionFilter.summaryContains(needle).compiled().matches(session) == expected,
                    "'\(needle.unicodeScalars.map { String($0.value, radix: 16) })' in '\(summary.unicodeScalars.map { String($0.value, radix: 16) })'")
            if expected { matched += 1 }
        }
        #expect(matched > 5_000)
    }

    /// `mayContain` answers without lowercasing the text on the strength of this set: derived here
    /// from every scalar, so that a new Unicode version that adds one fails this test.
    @Test("Four scalars beyond ASCII lowercase to an ASCII Character or one equal to it")
    func scalarsStandingForASCII() {
        let ascii = Set((0..<128).map { String(Unicode.Scalar(UInt8($0))) })
        var found: [UInt32] = [], claimed: [UInt32] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let lowered = String(scalar).lowercased().unicodeScalars
            if lowered.contains(where: { $0.isASCII || ascii.contains(String($0)) }) || ascii.contains(String(scalar)) {
                found.append(value)
            }
            if CompiledSessionFilter.standsForASCII(scalar) { claimed.append(value) }
        }
        #expect(found == [0x130, 0x37E, 0x1FEF, 0x212A])
        #expect(claimed == found)
    }

    @Test("Without lowercasing: a text that lacks the needle's ASCII is passed over; one that may hold it is searched", arguments: [
        ("Практика #12", "practice", false), ("Übung: Tonleitern", "übung", true), ("Übung: Tonleitern", "bung", true),
        ("Chamber music – trio", "trio", true), ("\u{37E} – x", ";", true), ("\u{1FEF} –", "`", true), ("\u{212A}ey – x", "key", true),
        ("练习 PRACTICE", "practice", true), ("練習（音階）", "übung", false),
    ])
    func passedOver(text: String, needle: String, contains: Bool) {
        #expect(CompiledSessionFilter.mayContain(text, lowercased: needle) == contains)
        #expect(CompiledSessionFilter.contains(text, lowercased: needle) == contains)
        #expect(SummaryContainsTests.containsCharacters(text.lowercased(), needle) == contains)
    }

    @Test("Byte search is chosen only below U+0300 and without CR", arguments: [
        ("Übung: Tonleitern", true), ("übung", true), ("Chamber music – trio", false), ("e\u{301}", false), ("a\r\nb", false),
        ("Практика", false), ("ǅ", true),
    ])
    func searchableAsBytes(text: String, searchable: Bool) {
        #expect(CompiledSessionFilter.isSearchableAsBytes(text) == searchable)
    }
}
