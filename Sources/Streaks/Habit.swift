/// Which sessions count toward a habit: by SUMMARY, CATEGORIES or another property, combined with
/// `and`, `or` and `not`.
///
/// As text (`init(parsing:)`):
///
/// | Text | Matches a session whose |
/// | --- | --- |
/// | `summary:piano` | SUMMARY contains "piano", in any case |
/// | `summary~^Run\b` | SUMMARY matches the regular expression |
/// | `categories:piano` (or `category:`) | CATEGORIES has "piano", in any case |
/// | `property:X-HABIT` | event has the property (see `Session.properties`) |
/// | `property:X-HABIT=piano` | property's value is "piano", in any case |
/// | `all` | any session |
/// | `not A`, `A and B`, `A or B`, `(A)` | as in logic; `and` binds tighter than `or` |
///
/// A value with spaces or parentheses is quoted: `summary:"morning run"`.
///
/// ```swift
/// let filter = try SessionFilter(parsing: "categories:piano or summary:scales")
/// print(filter.matches(Session(id: "1", start: .date(Day("2024-02-20")!), end: .date(Day("2024-02-21")!),
///                              points: 30, summary: "Scales, slowly")))
/// // Prints "true"
/// ```
public indirect enum SessionFilter: Hashable, Sendable {
    /// Every session.
    case all
    /// SUMMARY contains the text, in any case.
    case summaryContains(String)
    /// SUMMARY matches the regular expression (Swift `Regex` syntax).
    case summaryMatches(String)
    /// CATEGORIES holds the category, in any case.
    case category(String)
    /// The event has the property (name in any case) and, when `value` is given, that value, in any case.
    case property(String, value: String?)
    /// Both match.
    case and(SessionFilter, SessionFilter)
    /// Either matches.
    case or(SessionFilter, SessionFilter)
    /// The filter does not match.
    case not(SessionFilter)

    /// Whether `session` matches. Regular expressions are compiled on each call: to test many
    /// sessions, use `compiled()`.
    public func matches(_ session: Session) -> Bool {
        compiled().matches(session)
    }

    /// The filter ready to test many sessions: regular expressions compiled once.
    public func compiled() -> CompiledSessionFilter {
        CompiledSessionFilter(self)
    }

    /// The property names the filter reads besides SUMMARY and CATEGORIES, uppercased: what an
    /// importer must keep (`Session.properties`).
    public var propertyNames: Set<String> {
        switch self {
        case .all, .summaryContains, .summaryMatches, .category: []
        case .property(let name, _): [name.uppercased()]
        case .and(let a, let b), .or(let a, let b): a.propertyNames.union(b.propertyNames)
        case .not(let a): a.propertyNames
        }
    }

    /// A filter as text (see the table above).
    ///
    /// - Throws: `StreakRulesSyntaxError` with the offset of the problem.
    public init(parsing text: String) throws(StreakRulesSyntaxError) {
        var parser = FilterParser(Array(text))
        let filter = try parser.parseOr()
        parser.skipSpaces()
        guard parser.isAtEnd else {
            throw StreakRulesSyntaxError("unexpected '\(String(parser.characters[parser.offset...]))': join conditions with 'and' or 'or'", offset: parser.offset)
        }
        self = filter
    }
}

/// A `SessionFilter` with its regular expressions compiled, to test many sessions.
public struct CompiledSessionFilter: @unchecked Sendable {
    // `Regex` is not `Sendable`; a compiled filter is only read after it is made.
    private indirect enum Node {
        case all
        case contains(String)
        case regex(Regex<AnyRegexOutput>?)
        case category(String)
        case property(String, String?)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
    }

    private let root: Node

    init(_ filter: SessionFilter) {
        func node(_ filter: SessionFilter) -> Node {
            switch filter {
            case .all: .all
            case .summaryContains(let text): .contains(text.lowercased())
            case .summaryMatches(let pattern): .regex(try? Regex(pattern))
            case .category(let name): .category(name.lowercased())
            case .property(let name, let value): .property(name.uppercased(), value?.lowercased())
            case .and(let a, let b): .and(node(a), node(b))
            case .or(let a, let b): .or(node(a), node(b))
            case .not(let a): .not(node(a))
            }
        }
        root = node(filter)
    }

    /// Whether `session` matches.
    public func matches(_ session: Session) -> Bool {
        func test(_ node: Node) -> Bool {
            switch node {
            case .all: return true
            case .contains(let text): return text.isEmpty || Self.contains(session.summary, lowercased: text)
            case .regex(let regex): return regex.map { (try? $0.firstMatch(in: session.summary)) != nil } ?? false
            case .category(let name): return session.categories.contains { Self.equal($0, lowercased: name) }
            case .property(let name, let value):
                guard let found = session.properties[name] else { return false }
                return value.map { found.lowercased() == $0 } ?? true
            case .and(let a, let b): return test(a) && test(b)
            case .or(let a, let b): return test(a) || test(b)
            case .not(let a): return !test(a)
            }
        }
        return test(root)
    }

    /// Whether `text` contains `needle` (already lowercased), in any case; ASCII text is compared
    /// byte by byte, without making a lowercased copy.
    static func contains(_ text: String, lowercased needle: String) -> Bool {
        var text = text
        var needle = needle
        let found: Bool? = text.withUTF8 { haystack in
            needle.withUTF8 { wanted -> Bool? in
                guard haystack.allSatisfy({ $0 < 0x80 }), wanted.allSatisfy({ $0 < 0x80 }) else { return nil }
                guard wanted.count <= haystack.count else { return false }
                for start in 0...(haystack.count - wanted.count) {
                    var index = 0
                    while index < wanted.count, asciiLower(haystack[start + index]) == wanted[index] { index += 1 }
                    if index == wanted.count { return true }
                }
                return false
            }
        }
        return found ?? text.lowercased().contains(needle)
    }

    /// Whether `text` equals `other` (already lowercased), in any case.
    static func equal(_ text: String, lowercased other: String) -> Bool {
        guard text.utf8.allSatisfy({ $0 < 0x80 }), other.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() == other }
        return text.utf8.count == other.utf8.count && zip(text.utf8, other.utf8).allSatisfy { asciiLower($0) == $1 }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}

/// A named habit: the sessions of a calendar that count toward it.
///
/// ```swift
/// let piano = try Habit(parsing: "Piano=categories:piano")
/// print(piano.name)
/// // Prints "Piano"
/// ```
public struct Habit: Hashable, Sendable {
    /// The habit's name, as reports show it.
    public var name: String
    /// The sessions that count toward it.
    public var filter: SessionFilter

    public init(name: String, filter: SessionFilter) {
        self.name = name
        self.filter = filter
    }

    /// A habit as `NAME=FILTER` (`Piano=categories:piano`); the offset of an error counts from the
    /// start of the whole text.
    public init(parsing text: String) throws(StreakRulesSyntaxError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw StreakRulesSyntaxError("a habit is NAME=FILTER, such as Piano=categories:piano", offset: 0)
        }
        let name = text[..<equals].trimmingSpaces
        guard !name.isEmpty else { throw StreakRulesSyntaxError("the habit has no name before '='", offset: 0) }
        let nameLength = text.distance(from: text.startIndex, to: equals) + 1
        do {
            self.init(name: String(name), filter: try SessionFilter(parsing: String(text[text.index(after: equals)...])))
        } catch {
            throw StreakRulesSyntaxError(error.message, offset: nameLength + error.offset)
        }
    }
}

/// Reads the filter language: `or` of `and`s of (optionally `not`-ed) conditions or groups.
private struct FilterParser {
    let characters: [Character]
    var offset = 0

    init(_ characters: [Character]) {
        self.characters = characters
    }

    var isAtEnd: Bool { offset >= characters.count }

    mutating func skipSpaces() {
        while offset < characters.count, characters[offset] == " " || characters[offset] == "\t" { offset += 1 }
    }

    /// Consumes a keyword (any case) followed by a space, a parenthesis or the end.
    mutating func keyword(_ word: String) -> Bool {
        skipSpaces()
        let end = offset + word.count
        guard end <= characters.count, String(characters[offset..<end]).lowercased() == word else { return false }
        guard end == characters.count || characters[end] == " " || characters[end] == "(" else { return false }
        offset = end
        return true
    }

    mutating func parseOr() throws(StreakRulesSyntaxError) -> SessionFilter {
        var result = try parseAnd()
        while keyword("or") { result = .or(result, try parseAnd()) }
        return result
    }

    mutating func parseAnd() throws(StreakRulesSyntaxError) -> SessionFilter {
        var result = try parseUnary()
        while keyword("and") { result = .and(result, try parseUnary()) }
        return result
    }

    mutating func parseUnary() throws(StreakRulesSyntaxError) -> SessionFilter {
        if keyword("not") { return .not(try parseUnary()) }
        if keyword("all") { return .all }
        skipSpaces()
        if offset < characters.count, characters[offset] == "(" {
            let open = offset
            offset += 1
            let inner = try parseOr()
            skipSpaces()
            guard offset < characters.count, characters[offset] == ")" else {
                throw StreakRulesSyntaxError("the '(' here has no ')'", offset: open)
            }
            offset += 1
            return inner
        }
        return try parseCondition()
    }

    mutating func parseCondition() throws(StreakRulesSyntaxError) -> SessionFilter {
        skipSpaces()
        let start = offset
        while offset < characters.count, characters[offset].isLetter || characters[offset] == "-" { offset += 1 }
        let field = String(characters[start..<offset]).lowercased()
        guard offset < characters.count, characters[offset] == ":" || characters[offset] == "~" else {
            throw StreakRulesSyntaxError(
                field.isEmpty ? "a condition is expected here, such as categories:piano" : "'\(field)' needs ':' and a value, such as \(field):piano",
                offset: start)
        }
        let isRegex = characters[offset] == "~"
        offset += 1
        let valueOffset = offset
        let value = try parseValue(isPattern: isRegex)
        switch (field, isRegex) {
        case ("summary", false): return .summaryContains(value)
        case ("summary", true):
            do { _ = try Regex(value) } catch {
                throw StreakRulesSyntaxError("'\(value)' is not a regular expression: \(error)", offset: valueOffset)
            }
            return .summaryMatches(value)
        case ("categories", false), ("category", false):
            guard !value.isEmpty else { throw StreakRulesSyntaxError("categories: needs a category", offset: valueOffset) }
            return .category(value)
        case ("property", false):
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard !name.isEmpty, name.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 == 0x2D || (0x30...0x39).contains($0) }) else {
                throw StreakRulesSyntaxError("property: takes a property name such as X-HABIT, not '\(name)'", offset: valueOffset)
            }
            return .property(name.uppercased(), value: parts.count == 2 ? String(parts[1]) : nil)
        case (_, true):
            throw StreakRulesSyntaxError("only summary takes a regular expression (summary~...)", offset: start)
        default:
            throw StreakRulesSyntaxError("'\(field)' is not summary, categories or property", offset: start)
        }
    }

    /// A value: quoted (`"morning run"`; `\"` and `\\` stand for `"` and `\`, other backslashes
    /// stay) or up to a space or a parenthesis (a pattern's own parentheses, balanced, included).
    mutating func parseValue(isPattern: Bool = false) throws(StreakRulesSyntaxError) -> String {
        if offset < characters.count, characters[offset] == "\"" {
            let open = offset
            offset += 1
            var value = ""
            while offset < characters.count, characters[offset] != "\"" {
                if characters[offset] == "\\", offset + 1 < characters.count, characters[offset + 1] == "\"" || characters[offset + 1] == "\\" {
                    offset += 1
                }
                value.append(characters[offset])
                offset += 1
            }
            guard offset < characters.count else { throw StreakRulesSyntaxError("the quote here is not closed", offset: open) }
            offset += 1
            return value
        }
        let start = offset
        var depth = 0
        while offset < characters.count, characters[offset] != " " {
            let character = characters[offset]
            if character == "(" {
                guard isPattern else { break }
                depth += 1
            } else if character == ")" {
                guard isPattern, depth > 0 else { break }
                depth -= 1
            }
            offset += 1
        }
        return String(characters[start..<offset])
    }
}

extension SessionFilter: CustomStringConvertible {
    /// The filter as text that `init(parsing:)` reads back to the same filter.
    public var description: String {
        func quoted(_ value: String) -> String {
            let plain = !value.isEmpty && !value.contains { " ()\"\\\t".contains($0) }
            guard !plain else { return value }
            var text = "\""
            for character in value {
                if character == "\"" || character == "\\" { text.append("\\") }
                text.append(character)
            }
            return text + "\""
        }
        func grouped(_ filter: SessionFilter, inside parent: String) -> String {
            switch (filter, parent) {
            case (.or, "and"), (.or, "not"), (.and, "not"): "(\(filter))"
            default: filter.description
            }
        }
        switch self {
        case .all: return "all"
        case .summaryContains(let text): return "summary:" + quoted(text)
        case .summaryMatches(let pattern): return "summary~" + quoted(pattern)
        case .category(let name): return "categories:" + quoted(name)
        case .property(let name, let value): return "property:" + quoted(value.map { "\(name)=\($0)" } ?? name)
        case .and(let a, let b): return "\(grouped(a, inside: "and")) and \(grouped(b, inside: "and"))"
        case .or(let a, let b): return "\(a) or \(b)"
        case .not(let a): return "not \(grouped(a, inside: "not"))"
        }
    }
}

/// A named habit's report: its sessions scored by the same goal and rules as the calendar.
public struct HabitReport: Hashable, Sendable {
    /// The habit.
    public var habit: Habit
    /// The report of the sessions it took.
    public var report: StreakReport

    public init(habit: Habit, report: StreakReport) {
        self.habit = habit
        self.report = report
    }
}
