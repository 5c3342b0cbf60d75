/// Reads a `SummaryPattern`'s text into a tree, refusing what a linear-time matcher cannot do and
/// patterns too large when written out; offsets in errors count characters of the pattern.
struct PatternParser {
    private let characters: [Character]
    private var offset = 0
    private var groupDepth = 0
    /// The flags in force: `(?i)`, `(?m)`, `(?s)`.
    private var caseless = false
    private var multiline = false
    private var dotMatchesLineBreaks = false

    init(_ characters: [Character]) {
        self.characters = characters
    }

    private var peek: Character? { offset < characters.count ? characters[offset] : nil }

    private func peek(_ ahead: Int) -> Character? {
        offset + ahead < characters.count ? characters[offset + ahead] : nil
    }

    private func error(_ message: String, at position: Int? = nil) -> StreakRulesSyntaxError {
        StreakRulesSyntaxError(.pattern, message, offset: position ?? offset)
    }

    /// The whole pattern.
    mutating func parsePattern() throws(StreakRulesSyntaxError) -> SizedPatternNode {
        let parsed = try parseChoice()
        if peek == ")" { throw error("this ')' has no '('") }
        return parsed
    }

    private mutating func parseChoice() throws(StreakRulesSyntaxError) -> SizedPatternNode {
        let start = offset
        var branches = [try parseSequence()]
        while peek == "|" {
            offset += 1
            branches.append(try parseSequence())
        }
        guard branches.count > 1 else { return branches[0] }
        let steps = branches.reduce(2 * (branches.count - 1)) { $0 + $1.steps }
        try checkSize(steps, at: start)
        return SizedPatternNode(node: .choice(branches.map(\.node)), steps: steps)
    }

    private mutating func parseSequence() throws(StreakRulesSyntaxError) -> SizedPatternNode {
        let start = offset
        var items: [PatternNode] = []
        var steps = 0
        while let character = peek, character != "|", character != ")" {
            guard let item = try parseRepetition() else { continue }
            items.append(item.node)
            steps += item.steps
            try checkSize(steps, at: start)
        }
        return SizedPatternNode(node: items.count == 1 ? items[0] : items.isEmpty ? .empty : .sequence(items), steps: steps)
    }

    private func checkSize(_ steps: Int, at position: Int) throws(StreakRulesSyntaxError) {
        guard steps > SummaryPattern.maximumSteps else { return }
        throw error("the pattern is too large: written out, its repetitions make more than \(SummaryPattern.maximumSteps) steps", at: position)
    }

    /// An atom and its quantifier, if any; `nil` for a flag group such as `(?i)`, which matches nothing.
    private mutating func parseRepetition() throws(StreakRulesSyntaxError) -> SizedPatternNode? {
        let start = offset
        guard let atom = try parseAtom() else { return nil }
        let quantifierStart = offset
        guard let (min, max) = try parseQuantifier() else { return atom }
        if case .assertion = atom.node { throw error("an anchor or boundary cannot be repeated", at: quantifierStart) }
        if peek == "?" {
            offset += 1  // lazy: the same matches, for a test of whether there is one
        } else if peek == "+" {
            throw error("possessive quantifiers (such as a*+) are not supported", at: quantifierStart)
        }
        if try lookingAtQuantifier() { throw error("a quantifier cannot follow another: group the first, as in (?:a*)*") }
        let steps: Int
        if let max {
            steps = min * atom.steps + (max - min) * (atom.steps + 1)
        } else {
            steps = min == 0 ? atom.steps + 2 : min * atom.steps + 1
        }
        try checkSize(steps, at: start)
        return SizedPatternNode(node: .repetition(atom.node, min: min, max: max), steps: steps)
    }

    private mutating func lookingAtQuantifier() throws(StreakRulesSyntaxError) -> Bool {
        let saved = offset
        defer { offset = saved }
        return try parseQuantifier() != nil
    }

    /// `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}` or `{,n}`; a `{` of any other form is a literal.
    private mutating func parseQuantifier() throws(StreakRulesSyntaxError) -> (Int, Int?)? {
        switch peek {
        case "*": offset += 1; return (0, nil)
        case "+": offset += 1; return (1, nil)
        case "?": offset += 1; return (0, 1)
        case "{": break
        default: return nil
        }
        let open = offset
        var index = offset + 1
        /// The digits at `index`, if any, as a number (`Int.max` past nine digits).
        func number() -> Int? {
            let first = index
            while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
            guard index > first else { return nil }
            return index - first > 9 ? Int.max : Int(String(characters[first..<index]))
        }
        let low = number()
        var high = low
        var unbounded = false
        if index < characters.count, characters[index] == "," {
            index += 1
            high = number()
            unbounded = high == nil
        }
        guard index < characters.count, characters[index] == "}", low != nil || high != nil else { return nil }
        let min = low ?? 0
        let max = unbounded ? nil : high
        guard min <= SummaryPattern.maximumRepetition, (max ?? 0) <= SummaryPattern.maximumRepetition else {
            throw error("a repetition count is at most \(SummaryPattern.maximumRepetition)", at: open)
        }
        if let max, max < min { throw error("the repetition {\(min),\(max)} is out of order", at: open) }
        offset = index + 1
        return (min, max)
    }

    private mutating func parseAtom() throws(StreakRulesSyntaxError) -> SizedPatternNode? {
        let start = offset
        guard let character = peek else { return nil }
        switch character {
        case "(": return try parseGroup()
        case "[":
            return SizedPatternNode(node: .set(try parseBracket()), steps: 1)
        case ".":
            offset += 1
            var set = ScalarSet(.lineBreak, negated: true)
            if dotMatchesLineBreaks { set = ScalarSet(); set.ranges = [0...0x10FFFF] }
            return SizedPatternNode(node: .set(set), steps: 1)
        case "^":
            offset += 1
            return SizedPatternNode(node: .assertion(multiline ? .lineStart : .textStart), steps: 1)
        case "$":
            offset += 1
            return SizedPatternNode(node: .assertion(multiline ? .lineEnd : .textEndOrFinalLineFeed), steps: 1)
        case "\\": return try parseEscape()
        case "*", "+", "?":
            throw error("'\(character)' has nothing to repeat")
        case "{" where try lookingAtQuantifier():
            throw error("'{' has nothing to repeat")
        default:
            offset += 1
            return literal(character, at: start)
        }
    }

    /// A character as literal steps, one per scalar.
    private func literal(_ character: Character, at start: Int) -> SizedPatternNode {
        let scalars = character.unicodeScalars.map { PatternNode.literal($0, caseless: caseless) }
        return SizedPatternNode(node: scalars.count == 1 ? scalars[0] : .sequence(scalars), steps: scalars.count)
    }

    private mutating func parseGroup() throws(StreakRulesSyntaxError) -> SizedPatternNode? {
        let open = offset
        offset += 1
        let saved = (caseless, multiline, dotMatchesLineBreaks)
        if peek == "?" {
            offset += 1
            if try parseGroupKind(open: open) == .flagsOnly { return nil }
        }
        groupDepth += 1
        guard groupDepth <= SummaryPattern.maximumGroupDepth else {
            throw error("groups nest at most \(SummaryPattern.maximumGroupDepth) deep", at: open)
        }
        let inner = try parseChoice()
        guard peek == ")" else { throw error("the '(' here has no ')'", at: open) }
        offset += 1
        groupDepth -= 1
        (caseless, multiline, dotMatchesLineBreaks) = saved
        return inner
    }

    private enum GroupKind { case group, flagsOnly }

    /// What follows `(?`: a non-capturing or named group, or flags; every other kind is refused.
    private mutating func parseGroupKind(open: Int) throws(StreakRulesSyntaxError) -> GroupKind {
        guard let character = peek else { throw error("the '(' here has no ')'", at: open) }
        switch character {
        case ":":
            offset += 1
            return .group
        case "=", "!": throw error("lookahead (?= and (?! is not supported", at: open)
        case "<" where peek(1) == "=" || peek(1) == "!": throw error("lookbehind (?<= and (?<! is not supported", at: open)
        case "<", "'":
            offset += 1
            try skipGroupName(closing: character == "<" ? ">" : "'", open: open)
            return .group
        case "P" where peek(1) == "<":
            offset += 2
            try skipGroupName(closing: ">", open: open)
            return .group
        case ">": throw error("atomic groups (?> are not supported", at: open)
        case "i", "m", "s", "-": return try parseFlags(open: open)
        default:
            throw error("'(?\(character)' is not supported: groups are (...), (?:...) and (?<name>...), flags (?i), (?m), (?s)", at: open)
        }
    }

    private mutating func skipGroupName(closing: Character, open: Int) throws(StreakRulesSyntaxError) {
        let start = offset
        while let character = peek, character.isLetter || character.isNumber || character == "_" { offset += 1 }
        guard offset > start, peek == closing else { throw error("a group name is letters, digits and _, such as (?<run>...)", at: open) }
        offset += 1
    }

    /// `(?i)`, `(?-i)`, `(?im)` for the rest of the group, or `(?i:...)` for what it holds.
    private mutating func parseFlags(open: Int) throws(StreakRulesSyntaxError) -> GroupKind {
        var on = true
        var flags = (caseless, multiline, dotMatchesLineBreaks)
        while let character = peek, character != ")", character != ":" {
            switch character {
            case "-" where on: on = false
            case "i": flags.0 = on
            case "m": flags.1 = on
            case "s": flags.2 = on
            default: throw error("the flag '\(character)' is not supported: flags are i, m and s")
            }
            offset += 1
        }
        guard let end = peek else { throw error("the '(' here has no ')'", at: open) }
        offset += 1
        (caseless, multiline, dotMatchesLineBreaks) = flags
        return end == ")" ? .flagsOnly : .group
    }

    /// `\` and what follows, outside a bracket.
    private mutating func parseEscape() throws(StreakRulesSyntaxError) -> SizedPatternNode {
        let start = offset
        offset += 1
        guard let character = peek else { throw error("a pattern cannot end with '\\'", at: start) }
        let assertions: [Character: PatternAssertion] = [
            "b": .wordBoundary, "B": .notWordBoundary, "A": .textStart, "z": .textEnd, "Z": .textEndOrFinalLineFeed,
        ]
        if let assertion = assertions[character] {
            offset += 1
            return SizedPatternNode(node: .assertion(assertion), steps: 1)
        }
        switch try parseEscaped(at: start, inBracket: false) {
        case .scalar(let scalar): return SizedPatternNode(node: .literal(scalar, caseless: caseless), steps: 1)
        case .set(let set): return SizedPatternNode(node: .set(set), steps: 1)
        case .character(let character): return literal(character, at: start)
        }
    }

    private enum Escaped {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
        case character(Character)
    }

    /// An escape's meaning (the `\` already read): a character, a class, or a refusal.
    private mutating func parseEscaped(at start: Int, inBracket: Bool) throws(StreakRulesSyntaxError) -> Escaped {
        guard let character = peek else { throw error("a pattern cannot end with '\\'", at: start) }
        offset += 1
        let classes: [Character: (ScalarClass, Bool)] = [
            "w": (.word, false), "W": (.word, true), "d": (.digit, false), "D": (.digit, true),
            "s": (.space, false), "S": (.space, true),
        ]
        if let (kind, negated) = classes[character] { return .set(ScalarSet(kind, negated: negated)) }
        let controls: [Character: UInt32] = ["t": 0x09, "n": 0x0A, "r": 0x0D, "f": 0x0C, "e": 0x1B, "a": 0x07]
        if let value = controls[character] { return .scalar(Unicode.Scalar(value)!) }
        switch character {
        case "x", "u": return .scalar(try parseHexadecimal(after: character, at: start))
        case "1"..."9", "k", "g": throw error("backreferences (\\1, \\k<name>) are not supported", at: start)
        case "p", "P": throw error("Unicode properties (\\p{...}) are not supported; use a class such as [a-z] or \\w", at: start)
        case _ where inBracket && "bBAzZ".contains(character): throw error("'\\\(character)' is not a character and cannot stand in [...]", at: start)
        case _ where character.isASCII && (character.isLetter || character.isNumber):
            throw error("'\\\(character)' is not an escape this pattern reads", at: start)
        default: return .character(character)
        }
    }

    /// `\xHH`, `\x{H...}`, `\uHHHH` or `\u{H...}`.
    private mutating func parseHexadecimal(after letter: Character, at start: Int) throws(StreakRulesSyntaxError) -> Unicode.Scalar {
        var digits = ""
        if peek == "{" {
            offset += 1
            while let character = peek, character != "}", digits.count <= 8 { digits.append(character); offset += 1 }
            guard peek == "}" else { throw error("'\\\(letter){' needs hex digits and '}'", at: start) }
            offset += 1
        } else {
            let count = letter == "x" ? 2 : 4
            for _ in 0..<count {
                guard let character = peek else { break }
                digits.append(character)
                offset += 1
            }
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16),
              let scalar = Unicode.Scalar(value) else {
            throw error("'\\\(letter)' takes hex digits of a Unicode scalar, such as \\x41 or \\u{1F3C3}", at: start)
        }
        return scalar
    }

    /// `[...]`: characters, ranges, escapes and `[:name:]` classes, negated by a leading `^`.
    private mutating func parseBracket() throws(StreakRulesSyntaxError) -> ScalarSet {
        let open = offset
        offset += 1
        var set = ScalarSet()
        set.isCaseless = caseless
        if peek == "^" {
            set.isNegated = true
            offset += 1
        }
        var first = true
        while true {
            guard let character = peek else { throw error("the '[' here has no ']'", at: open) }
            if character == "]", !first {
                offset += 1
                set.normalize()
                return set
            }
            first = false
            if character == "[" {
                guard peek(1) == ":" else { throw error("nested classes and set operations are not supported in [...]") }
                try parsePosixClass(into: &set)
                continue
            }
            if (character == "&" && peek(1) == "&") || (character == "~" && peek(1) == "~") || (character == "-" && peek(1) == "-") {
                throw error("set operations (&&, --, ~~) are not supported in [...]")
            }
            let elementStart = offset
            guard let low = try parseBracketElement(into: &set) else { continue }
            guard peek == "-", let after = peek(1), after != "]" else {
                set.ranges.append(low.value...low.value)
                continue
            }
            offset += 1
            guard let high = try parseBracketElement(into: &set) else {
                throw error("a range ends with a character, not a class", at: elementStart)
            }
            guard low.value <= high.value else { throw error("the range \(low)-\(high) is out of order", at: elementStart) }
            set.ranges.append(low.value...high.value)
        }
    }

    /// One character of a bracket (returned), or a class (added to `set`; `nil` returned).
    private mutating func parseBracketElement(into set: inout ScalarSet) throws(StreakRulesSyntaxError) -> Unicode.Scalar? {
        let start = offset
        guard let character = peek else { return nil }
        if character == "\\" {
            offset += 1
            switch try parseEscaped(at: start, inBracket: true) {
            case .scalar(let scalar): return scalar
            case .set(let escaped):
                set.classes += escaped.classes
                return nil
            case .character(let character): return try single(character, at: start)
            }
        }
        offset += 1
        return try single(character, at: start)
    }

    private func single(_ character: Character, at start: Int) throws(StreakRulesSyntaxError) -> Unicode.Scalar {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else {
            throw error("'\(character)' is several code points and cannot stand in [...]; write them outside it", at: start)
        }
        return scalar
    }

    /// `[:alpha:]` and the other POSIX classes, or `[:^alpha:]`.
    private mutating func parsePosixClass(into set: inout ScalarSet) throws(StreakRulesSyntaxError) {
        let start = offset
        offset += 2
        let negated = peek == "^"
        if negated { offset += 1 }
        var name = ""
        while let character = peek, character.isLetter { name.append(character); offset += 1 }
        guard peek == ":", peek(1) == "]", let kind = ScalarClass.posixNames[name] else {
            let known = ScalarClass.posixNames.keys.sorted().joined(separator: ", ")
            throw error("'[:\(name)' is not a class: the classes are [:name:] with name one of \(known)", at: start)
        }
        offset += 2
        set.classes.append(ScalarSet.ClassTest(kind: kind, negated: negated))
    }
}
