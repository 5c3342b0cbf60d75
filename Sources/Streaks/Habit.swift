/// Which sessions count toward a habit: by SUMMARY, CATEGORIES or another property, combined with
/// `and`, `or` and `not`.
///
/// As text (`init(parsing:)`):
///
/// | Text | Matches a session whose |
/// | --- | --- |
/// | `summary:piano` | SUMMARY contains "piano", in any case |
/// | `summary~^Run\b` | SUMMARY matches the regular expression (``SummaryPattern``'s syntax) |
/// | `categories:piano` (or `category:`) | CATEGORIES has "piano", in any case |
/// | `property:X-HABIT` | event has the property (see `Session.properties`) |
/// | `property:X-HABIT=piano` | property's value is "piano", in any case |
/// | `all` | any session |
/// | `not A`, `A and B`, `A or B`, `(A)` | as in logic; `and` binds tighter than `or` |
///
/// A value with spaces or parentheses is quoted: `summary:"morning run"`.
///
/// A filter's text is at most ``maximumTextLength`` bytes and nests at most ``maximumDepth``
/// deep: each `not`, and each level of `and` and `or`, counts one, and a chain of terms joined by
/// one of them counts as a balanced tree (30,000 terms joined by `or`: 15); parentheses nest at most
/// as deep. So no filter read from text makes anything recurse deeper than that.
///
/// ```swift
/// let filter = try SessionFilter(parsing: "categories:piano or summary:scales")
/// print(filter.matches(Session(id: "1", start: .date(Day("2024-02-20")), end: .date(Day("2024-02-21")),
///                              points: 30, summary: "Scales, slowly")))
/// // Prints "true"
/// ```
public indirect enum SessionFilter: Hashable, Sendable {
    /// Every session.
    case all
    /// SUMMARY contains the text, in any case.
    case summaryContains(String)
    /// SUMMARY matches the regular expression (``SummaryPattern``'s syntax; a pattern it cannot
    /// read matches nothing).
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
        var names: Set<String> = []
        var pending = [self]
        while let filter = pending.popLast() {
            switch filter {
            case .all, .summaryContains, .summaryMatches, .category: break
            case .property(let name, _): names.insert(name.uppercased())
            case .and(let a, let b), .or(let a, let b): pending += [a, b]
            case .not(let a): pending.append(a)
            }
        }
        return names
    }

    /// How deep the filter's tree is: 0 for a condition, one more for each `not`, `and` and `or`
    /// above the deepest one (counted without recursion).
    public var depth: Int {
        var deepest = 0
        var pending = [(self, 0)]
        while let (filter, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            switch filter {
            case .and(let a, let b), .or(let a, let b): pending += [(a, depth + 1), (b, depth + 1)]
            case .not(let a): pending.append((a, depth + 1))
            default: break
            }
        }
        return deepest
    }

    /// The longest text a filter may be, in UTF-8 bytes.
    public static let maximumTextLength = 1 << 20
    /// How deep a filter read from text may nest (see above).
    public static let maximumDepth = 32

    /// A filter as text (see the table above).
    ///
    /// - Throws: `StreakRulesSyntaxError` with the offset of the problem.
    public init(parsing text: String) throws(StreakRulesSyntaxError) {
        guard text.utf8.count <= Self.maximumTextLength else {
            throw StreakRulesSyntaxError(.tooLong, "the filter is longer than \(Self.maximumTextLength) bytes", offset: 0)
        }
        var parser = FilterParser(Array(text))
        let filter = try parser.parseOr()
        parser.skipSpaces()
        guard parser.isAtEnd else {
            let rest = String(parser.characters[parser.offset...].prefix(40))
            throw StreakRulesSyntaxError(.syntax, "unexpected '\(rest)': join conditions with 'and' or 'or'", offset: parser.offset)
        }
        self = filter.filter
    }
}

/// A `SessionFilter` with its regular expressions compiled, to test many sessions.
///
/// The filter becomes a flat program of tests and jumps (`and` and `or` short-circuit), made and
/// run without recursion, so that a filter of any depth is compiled and tested in constant stack.
public struct CompiledSessionFilter: Sendable {
    /// A condition on one session.
    private enum Test: Sendable {
        case all
        case contains(SummaryNeedle)
        case pattern(SummaryPattern?)
        case category(String)
        case property(String, String?)
    }

    /// One step of the program; `value` is the result so far.
    private enum Step: Sendable {
        /// `value` becomes the test's result.
        case test(Int)
        case jumpIfFalse(Int)
        case jumpIfTrue(Int)
        case negate
    }

    private var tests: [Test] = []
    private var steps: [Step] = []

    init(_ filter: SessionFilter) {
        // Work items in the order they are done (a stack, so pushed in reverse).
        enum Work {
            case compile(SessionFilter)
            /// A jump whose target is the end of what comes next, patched by `.land`.
            case jump(ifTrue: Bool, id: Int)
            case land(id: Int)
            case negate
        }
        var work = [Work.compile(filter)]
        var jumps: [Int: Int] = [:]
        var nextID = 0
        while let item = work.popLast() {
            switch item {
            case .compile(let filter):
                switch filter {
                case .and(let a, let b), .or(let a, let b):
                    let isOr = if case .or = filter { true } else { false }
                    work += [.land(id: nextID), .compile(b), .jump(ifTrue: isOr, id: nextID), .compile(a)]
                    nextID += 1
                case .not(let a): work += [.negate, .compile(a)]
                default:
                    steps.append(.test(tests.count))
                    tests.append(Self.test(filter))
                }
            case .jump(let ifTrue, let id):
                jumps[id] = steps.count
                steps.append(ifTrue ? .jumpIfTrue(0) : .jumpIfFalse(0))
            case .land(let id):
                guard let at = jumps.removeValue(forKey: id) else { continue }
                if case .jumpIfTrue = steps[at] { steps[at] = .jumpIfTrue(steps.count) } else { steps[at] = .jumpIfFalse(steps.count) }
            case .negate: steps.append(.negate)
            }
        }
    }

    private static func test(_ leaf: SessionFilter) -> Test {
        switch leaf {
        case .summaryContains(let text): .contains(SummaryNeedle(lowercased: text.lowercased()))
        case .summaryMatches(let pattern): .pattern(try? SummaryPattern(pattern))
        case .category(let name): .category(name.lowercased())
        case .property(let name, let value): .property(name.uppercased(), value?.lowercased())
        case .all, .and, .or, .not: .all
        }
    }

    /// Whether `session` matches.
    public func matches(_ session: Session) -> Bool {
        matches(summary: session.summary, categories: session.categories, properties: session.properties)
    }

    /// Whether a session with this SUMMARY, these CATEGORIES and these properties matches: what a
    /// filter reads of a session, for an import that sorts its events without making sessions.
    package func matches(summary: String, categories: [String], properties: [String: String]) -> Bool {
        var value = false
        var index = 0
        while index < steps.count {
            switch steps[index] {
            case .test(let test):
                value = Self.passes(tests[test], summary: summary, categories: categories, properties: properties)
                index += 1
            case .jumpIfFalse(let target): index = value ? index + 1 : target
            case .jumpIfTrue(let target): index = value ? target : index + 1
            case .negate:
                value.toggle()
                index += 1
            }
        }
        return value
    }

    private static func passes(_ test: Test, summary: String, categories: [String], properties: [String: String]) -> Bool {
        switch test {
        case .all: return true
        case .contains(let needle): return needle.text.isEmpty || contains(summary, needle)
        case .pattern(let pattern): return pattern?.matches(summary) ?? false
        case .category(let name): return categories.contains { equal($0, lowercased: name) }
        case .property(let name, let value):
            guard let found = properties[name] else { return false }
            return value.map { found.lowercased() == $0 } ?? true
        }
    }

    /// Whether `text` contains `needle` (already lowercased), in any case: whether
    /// `text.lowercased()` contains `needle` as Characters, searched as UTF-8 bytes where that gives
    /// the same answer (`isSearchableAsBytes`), and ASCII text lowercased as it is searched.
    static func contains(_ text: String, lowercased needle: String) -> Bool {
        contains(text, SummaryNeedle(lowercased: needle))
    }

    private static func contains(_ text: String, _ needle: SummaryNeedle) -> Bool {
        guard needle.isSearchableAsBytes else { return text.lowercased().contains(needle.text) }
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            return containsBytes(text, needle.text, lowering: asciiLower)
        }
        guard mayContain(text, needle) else { return false }
        let lowered = text.lowercased()
        guard isSearchableAsBytes(lowered) else { return lowered.contains(needle.text) }
        return containsBytes(lowered, needle.text, lowering: { $0 })
    }

    /// A `summary:` term's text, lowercased, with what every search of it needs worked out once.
    private struct SummaryNeedle: Sendable {
        let text: String
        let isSearchableAsBytes: Bool
        /// The longest stretch of ASCII in `text` (the first of the longest): a stretch of bytes
        /// below 0x80, as every byte of another scalar's UTF-8 is 0x80 or above.
        let asciiRun: String

        init(lowercased text: String) {
            self.text = text
            isSearchableAsBytes = CompiledSessionFilter.isSearchableAsBytes(text)
            var longest: Range<Int> = 0..<0, start = 0
            for (offset, byte) in text.utf8.enumerated() where byte >= 0x80 {
                if offset - start > longest.count { longest = start..<offset }
                start = offset + 1
            }
            if text.utf8.count - start > longest.count { longest = start..<text.utf8.count }
            asciiRun = String(decoding: Array(text.utf8)[longest], as: UTF8.self)
        }
    }

    /// Whether `text` may contain `needle` (lowercased and searchable as bytes) in any case, decided
    /// without lowercasing `text`, which costs more than the search. Each ASCII Character of the
    /// needle must stand in the lowercased text as a Character equal to it: that ASCII scalar, or
    /// one scalar canonically equivalent to it. So unless `text` holds one of the four scalars whose
    /// lowercase is or holds such a scalar (`standsForASCII`), the needle's longest ASCII run must
    /// be in `text`'s bytes with ASCII letters lowered, as ASCII lowercases to ASCII.
    static func mayContain(_ text: String, lowercased needle: String) -> Bool {
        mayContain(text, SummaryNeedle(lowercased: needle))
    }

    private static func mayContain(_ text: String, _ needle: SummaryNeedle) -> Bool {
        guard !needle.asciiRun.isEmpty, !text.unicodeScalars.contains(where: standsForASCII) else { return true }
        return containsBytes(text, needle.asciiRun, lowering: asciiLower)
    }

    /// Whether `scalar` is one of the scalars beyond ASCII whose lowercase holds an ASCII scalar or
    /// one canonically equivalent to it (the standard library's Unicode data; a test derives them
    /// from every scalar): U+0130 İ (to i and U+0307), U+037E GREEK QUESTION MARK (equivalent to ;),
    /// U+1FEF GREEK VARIA (to `) and U+212A KELVIN SIGN (to k).
    static func standsForASCII(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x130, 0x37E, 0x1FEF, 0x212A: true
        default: false
        }
    }

    /// Whether a Character search in `text` is a search of its UTF-8: every scalar is below U+0300
    /// (the combining marks) and is not CR. Each such scalar is a Character by itself (CR would join
    /// a following LF, UAX #29 GB3) and no two different strings of them are canonically equivalent
    /// (each is NFC-stable and no pair composes), so Characters are equal exactly where bytes are.
    static func isSearchableAsBytes(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value < 0x300 && $0 != "\r" }
    }

    /// Whether `haystack`'s UTF-8, each byte passed through `lowering`, contains `needle`'s.
    private static func containsBytes(_ haystack: String, _ needle: String, lowering: (UInt8) -> UInt8) -> Bool {
        var haystack = haystack, needle = needle
        return haystack.withUTF8 { haystack in
            needle.withUTF8 { needle in
                guard needle.count <= haystack.count else { return false }
                guard let first = needle.first else { return true }
                for start in 0...(haystack.count - needle.count) where lowering(haystack[start]) == first {
                    var index = 1
                    while index < needle.count, lowering(haystack[start + index]) == needle[index] { index += 1 }
                    if index == needle.count { return true }
                }
                return false
            }
        }
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
    /// What the habit sets for itself (its goal, schedule, freezes, period goal, whether the goal
    /// is a limit, how its sessions count); the rest it takes from the calendar's rules.
    public var rules: HabitRules

    public init(name: String, filter: SessionFilter, rules: HabitRules = HabitRules()) {
        self.name = name
        self.filter = filter
        self.rules = rules
    }

    /// A habit as `NAME=FILTER` (`Piano=categories:piano`); the offset of an error counts from the
    /// start of the whole text.
    public init(parsing text: String) throws(StreakRulesSyntaxError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw StreakRulesSyntaxError(.syntax, "a habit is NAME=FILTER, such as Piano=categories:piano", offset: 0)
        }
        let name = text[..<equals].trimmingSpaces
        guard !name.isEmpty else { throw StreakRulesSyntaxError(.syntax, "the habit has no name before '='", offset: 0) }
        let nameLength = text.distance(from: text.startIndex, to: equals) + 1
        do {
            self.init(name: String(name), filter: try SessionFilter(parsing: String(text[text.index(after: equals)...])))
        } catch {
            throw StreakRulesSyntaxError(error.code, error.message, offset: nameLength + error.offset)
        }
    }
}

/// What one habit sets for itself; what it leaves `nil` it takes from the calendar's rules, so
/// "Piano 30 minutes a day" and "at most 1 coffee" live in one report.
///
/// ```swift
/// var coffee = HabitRules()
/// coffee.requiredPoints = 1
/// coffee.atMost = true
/// coffee.points = .count
/// let rules = coffee.applied(to: StreakRules(requiredPoints: 100))
/// print(rules.schedule.defaultPoints, rules.atMost)
/// // Prints "1 true"
/// ```
public struct HabitRules: Hashable, Sendable {
    /// The points a day requires (or, with `atMost`, allows), in ``GoalSchedule/pointsRange``;
    /// another number stops the program.
    public var requiredPoints: Int? {
        didSet { requiredPoints.map { GoalSchedule.check($0, in: GoalSchedule.pointsRange, "required points") } }
    }
    /// The schedule's entries (its default is `requiredPoints`, else the calendar's): they replace
    /// the calendar's entries.
    public var schedule: [GoalSchedule.Entry]?
    /// How missed days can be covered.
    public var freezes: FreezePolicy?
    /// A goal per week or month.
    public var periodGoal: PeriodGoal?
    /// Whether the requirement is a limit (`StreakRules.atMost`).
    public var atMost: Bool?
    /// How the habit's sessions count; `nil`: as the calendar's.
    public var points: HabitPoints?

    public init(
        requiredPoints: Int? = nil, schedule: [GoalSchedule.Entry]? = nil, freezes: FreezePolicy? = nil,
        periodGoal: PeriodGoal? = nil, atMost: Bool? = nil, points: HabitPoints? = nil
    ) {
        requiredPoints.map { GoalSchedule.check($0, in: GoalSchedule.pointsRange, "required points") }
        self.requiredPoints = requiredPoints
        self.schedule = schedule
        self.freezes = freezes
        self.periodGoal = periodGoal
        self.atMost = atMost
        self.points = points
    }

    /// Whether the habit sets nothing of its own.
    public var isEmpty: Bool { self == HabitRules() }

    /// The calendar's rules with what this habit sets in their place.
    public func applied(to calendar: StreakRules) -> StreakRules {
        var rules = calendar
        if let requiredPoints { rules.schedule.defaultPoints = requiredPoints }
        if let schedule { rules.schedule.entries = schedule }
        if let freezes { rules.freezes = freezes }
        if let periodGoal { rules.periodGoal = periodGoal }
        if let atMost { rules.atMost = atMost }
        return rules
    }
}

/// How a habit counts its sessions when not as the calendar does.
public enum HabitPoints: Hashable, Sendable {
    /// The session's length in whole minutes.
    case minutes
    /// One point per session.
    case count
    /// A property's value, a non-negative integer (uppercased name; 0 without it or when it is not one).
    case property(String)

    /// The points of `session` (floating times already read in the report's zone).
    public func points(of session: Session) -> Int {
        if case .property(let name) = self {
            return session.properties[name].flatMap { Int(Substring($0).trimmingSpaces) }.map { max(0, $0) } ?? 0
        }
        return points(from: session.start, to: session.end) ?? 0
    }

    /// The points of a session from `start` to `end`; `nil` for `.property`, which needs the session.
    public func points(from start: SessionTime, to end: SessionTime) -> Int? {
        switch self {
        case .minutes: start.wholeMinutes(until: end)
        case .count: 1
        case .property: nil
        }
    }

    /// What these points count.
    public var unit: PointsUnit {
        switch self {
        case .minutes: .minutes
        case .count: .sessions
        case .property: .points
        }
    }

    /// Whether the points are a property's value, which only a whole `Session` carries.
    public var readsProperty: Bool {
        if case .property = self { return true }
        return false
    }

    /// As a rules file writes it: `minutes`, `count`, `x-points` or `property:NAME`.
    public var description: String {
        switch self {
        case .minutes: "minutes"
        case .count: "count"
        case .property("X-POINTS"): "x-points"
        case .property(let name): "property:" + name
        }
    }

    /// Reads `minutes`, `count`, `x-points` (the `X-POINTS` property) or `property:NAME`.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "minutes": self = .minutes
        case "count": self = .count
        case "x-points": self = .property("X-POINTS")
        default:
            guard text.lowercased().hasPrefix("property:") else { return nil }
            let name = text.dropFirst("property:".count).uppercased()
            guard !name.isEmpty, name.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else { return nil }
            self = .property(name)
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

    /// Consumes a keyword (any case) followed by a space or tab, a parenthesis or the end (`(all)`
    /// included, which the filter's own text can hold).
    mutating func keyword(_ word: String) -> Bool {
        skipSpaces()
        let end = offset + word.count
        guard end <= characters.count, String(characters[offset..<end]).lowercased() == word else { return false }
        guard end == characters.count || " \t()".contains(characters[end]) else { return false }
        offset = end
        return true
    }

    /// How deep parentheses are open where the parser is.
    private var groupDepth = 0

    /// A filter and the depth of its tree (a condition: 0).
    struct Parsed {
        var filter: SessionFilter
        var depth: Int
    }

    private func tooDeep(at offset: Int) -> StreakRulesSyntaxError {
        StreakRulesSyntaxError(.tooLong, "the filter is nested more than \(SessionFilter.maximumDepth) deep", offset: offset)
    }

    mutating func parseOr() throws(StreakRulesSyntaxError) -> Parsed {
        skipSpaces()
        let start = offset
        var terms = [try parseAnd()]
        while keyword("or") { terms.append(try parseAnd()) }
        return try balanced(terms, joinedBy: SessionFilter.or, at: start)
    }

    mutating func parseAnd() throws(StreakRulesSyntaxError) -> Parsed {
        skipSpaces()
        let start = offset
        var terms = [try parseUnary()]
        while keyword("and") { terms.append(try parseUnary()) }
        return try balanced(terms, joinedBy: SessionFilter.and, at: start)
    }

    /// Terms joined pairwise, level by level: a tree ⌈log₂ n⌉ deeper than its deepest term, with
    /// the meaning of the chain (`and` and `or` are associative). Two or three terms give the tree
    /// a left-to-right reading gives.
    private func balanced(
        _ terms: [Parsed], joinedBy join: (SessionFilter, SessionFilter) -> SessionFilter, at start: Int
    ) throws(StreakRulesSyntaxError) -> Parsed {
        var level = terms
        while level.count > 1 {
            var next: [Parsed] = []
            next.reserveCapacity((level.count + 1) / 2)
            var index = 0
            while index + 1 < level.count {
                next.append(Parsed(filter: join(level[index].filter, level[index + 1].filter), depth: max(level[index].depth, level[index + 1].depth) + 1))
                index += 2
            }
            if index < level.count { next.append(level[index]) }
            level = next
        }
        guard level[0].depth <= SessionFilter.maximumDepth else { throw tooDeep(at: start) }
        return level[0]
    }

    /// `not`s (read in a loop, not by recursion) before a group, `all` or a condition.
    mutating func parseUnary() throws(StreakRulesSyntaxError) -> Parsed {
        skipSpaces()
        let start = offset
        var negations = 0
        while keyword("not") {
            negations += 1
            guard negations <= SessionFilter.maximumDepth else { throw tooDeep(at: start) }
            skipSpaces()
        }
        var operand = try parseOperand()
        for _ in 0..<negations { operand = Parsed(filter: .not(operand.filter), depth: operand.depth + 1) }
        guard operand.depth <= SessionFilter.maximumDepth else { throw tooDeep(at: start) }
        return operand
    }

    private mutating func parseOperand() throws(StreakRulesSyntaxError) -> Parsed {
        if keyword("all") { return Parsed(filter: .all, depth: 0) }
        skipSpaces()
        guard offset < characters.count, characters[offset] == "(" else { return Parsed(filter: try parseCondition(), depth: 0) }
        let open = offset
        groupDepth += 1
        guard groupDepth <= SessionFilter.maximumDepth else { throw tooDeep(at: open) }
        offset += 1
        let inner = try parseOr()
        skipSpaces()
        guard offset < characters.count, characters[offset] == ")" else {
            throw StreakRulesSyntaxError(.syntax, "the '(' here has no ')'", offset: open)
        }
        offset += 1
        groupDepth -= 1
        return inner
    }

    mutating func parseCondition() throws(StreakRulesSyntaxError) -> SessionFilter {
        skipSpaces()
        let start = offset
        while offset < characters.count, characters[offset].isLetter || characters[offset] == "-" { offset += 1 }
        let field = String(characters[start..<offset]).lowercased()
        guard offset < characters.count, characters[offset] == ":" || characters[offset] == "~" else {
            throw StreakRulesSyntaxError(
                .syntax, field.isEmpty ? "a condition is expected here, such as categories:piano" : "'\(field)' needs ':' and a value, such as \(field):piano",
                offset: start)
        }
        let isRegex = characters[offset] == "~"
        offset += 1
        let valueOffset = offset
        let isQuoted = offset < characters.count && characters[offset] == "\""
        let value = try parseValue(isPattern: isRegex)
        switch (field, isRegex) {
        case ("summary", false): return .summaryContains(value)
        case ("summary", true):
            do { _ = try SummaryPattern(value) } catch {
                let shown = value.count > 40 ? value.prefix(39) + "…" : Substring(value)
                throw StreakRulesSyntaxError(
                    error.code, "'\(shown)' is not a regular expression StreakCal reads: \(error.message)",
                    offset: valueOffset + (isQuoted ? 1 : 0) + error.offset)
            }
            return .summaryMatches(value)
        case ("categories", false), ("category", false):
            guard !value.isEmpty else { throw StreakRulesSyntaxError(.syntax, "categories: needs a category", offset: valueOffset) }
            return .category(value)
        case ("property", false):
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard !name.isEmpty, name.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 == 0x2D || (0x30...0x39).contains($0) }) else {
                throw StreakRulesSyntaxError(.syntax, "property: takes a property name such as X-HABIT, not '\(name)'", offset: valueOffset)
            }
            return .property(name.uppercased(), value: parts.count == 2 ? String(parts[1]) : nil)
        case (_, true):
            throw StreakRulesSyntaxError(.syntax, "only summary takes a regular expression (summary~...)", offset: start)
        default:
            throw StreakRulesSyntaxError(.syntax, "'\(field)' is not summary, categories or property", offset: start)
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
            guard offset < characters.count else { throw StreakRulesSyntaxError(.syntax, "the quote here is not closed", offset: open) }
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
    /// The filter as text that `init(parsing:)` reads back to the same filter (written without
    /// recursion, whatever the filter's depth).
    public var description: String {
        // Pieces in the order they are written (a stack, so pushed in reverse).
        enum Piece {
            case text(String)
            case filter(SessionFilter, inside: Parent)
        }
        enum Parent { case none, and, or, not }
        var text = ""
        var pieces = [Piece.filter(self, inside: .none)]
        while let piece = pieces.popLast() {
            switch piece {
            case .text(let part): text += part
            case .filter(let filter, let parent):
                let grouped = switch (filter, parent) {
                case (.or, .and), (.or, .not), (.and, .not): true
                default: false
                }
                if grouped { pieces.append(.text(")")) }
                switch filter {
                case .and(let a, let b): pieces += [.filter(b, inside: .and), .text(" and "), .filter(a, inside: .and)]
                case .or(let a, let b): pieces += [.filter(b, inside: .or), .text(" or "), .filter(a, inside: .or)]
                case .not(let a): pieces += [.filter(a, inside: .not), .text("not ")]
                default: pieces.append(.text(Self.conditionText(filter)))
                }
                if grouped { pieces.append(.text("(")) }
            }
        }
        return text
    }

    /// A condition (a filter without `and`, `or` or `not`) as text.
    private static func conditionText(_ filter: SessionFilter) -> String {
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
        switch filter {
        case .summaryContains(let text): return "summary:" + quoted(text)
        case .summaryMatches(let pattern): return "summary~" + quoted(pattern)
        case .category(let name): return "categories:" + quoted(name)
        case .property(let name, let value): return "property:" + quoted(value.map { "\(name)=\($0)" } ?? name)
        case .all, .and, .or, .not: return "all"
        }
    }
}

/// A named habit's report: its sessions scored by the same goal and rules as the calendar.
public struct HabitReport: Hashable, Sendable {
    /// The habit.
    public var habit: Habit
    /// The report of the sessions it took.
    public var report: StreakReport
    /// The habit's name (`habit.name`).
    public var name: String { habit.name }

    public init(habit: Habit, report: StreakReport) {
        self.habit = habit
        self.report = report
    }
}

/// A summary and how many sessions have it: the sessions no named habit took, most frequent first,
/// so that a report can say what they are (issue 46.8: "Sessions no habit took: 144" named none).
public struct SummaryCount: Hashable, Sendable, Codable {
    /// The sessions' SUMMARY (``otherSummaries`` for the summaries past the most a report tallies).
    public var summary: String
    /// How many sessions have it.
    public var sessions: Int

    public init(summary: String, sessions: Int) {
        self.summary = summary
        self.sessions = sessions
    }

    /// What stands for the summaries a report stops telling apart: it tallies at most a few
    /// thousand, so that a calendar of numbered summaries costs no more than that.
    public static let otherSummaries = "(other summaries)"
}
