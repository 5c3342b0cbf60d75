/// A regular expression over a session's SUMMARY (`summary~REGEX`), matched in time linear in the
/// text: a Thompson NFA simulated over the text's Unicode scalars, one step per scalar, so no
/// SUMMARY can make a pattern backtrack (issue 29: `^(\w+\s?)*$` took more than 30 s on 25
/// characters with Swift's backtracking `Regex`, and `.*run` was quadratic in the text's length).
///
/// The pattern matches when it matches somewhere in the text (as `firstMatch` would find it).
/// What it reads:
///
/// | Syntax | Meaning |
/// | --- | --- |
/// | `a`, `\.`, `\t`, `\n`, `\r`, `\f`, `\e`, `\a`, `\xHH`, `\x{H…}`, `\uHHHH`, `\u{H…}` | the character |
/// | `.` | any character but a line break (any at all after `(?s)`) |
/// | `[abc]`, `[^a-z]`, `[\w-]`, `[[:alpha:]]` | one character of the class, or not of it |
/// | `\w \d \s`, `\W \D \S` | a word character (letter, mark, digit, connector), a decimal digit, white space; and their negations |
/// | `^ $`, `\A \z \Z`, `\b \B` | start and end of the text (of a line after `(?m)`; `$` and `\Z` also before a final line feed), word boundaries |
/// | `(…)`, `(?:…)`, `(?<name>…)`, `a\|b` | groups (nested at most ``maximumGroupDepth`` deep) and alternatives |
/// | `* + ?`, `{m}`, `{m,}`, `{m,n}`, `{,n}` (each also lazy, with `?`) | repetition, counts at most ``maximumRepetition`` |
/// | `(?i)`, `(?m)`, `(?s)`, `(?i:…)`, `(?-i)` | ignore case (simple case folding), multi-line anchors, `.` matching line breaks |
///
/// Anything else a backtracking engine offers — backreferences (`\1`, `\k<name>`), lookaround
/// (`(?=`, `(?!`, `(?<=`, `(?<!`), atomic groups and possessive quantifiers, Unicode properties
/// (`\p{…}`), class set operations — is refused with the offset of the construct. A pattern whose
/// repetitions, written out, come to more than ``maximumSteps`` steps is refused too: each
/// character of a text costs at most that many steps.
///
/// ```swift
/// let pattern = try SummaryPattern(#"^Run\b"#)
/// print(pattern.matches("Run 5k"), pattern.matches("Running"))
/// // Prints "true false"
/// ```
public struct SummaryPattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let source: String
    let program: PatternProgram

    /// The most a repetition count (`{m,n}`) may be.
    public static let maximumRepetition = 1_000
    /// The most steps a pattern compiles to, its repetitions written out.
    public static let maximumSteps = 10_000
    /// The most groups may nest.
    public static let maximumGroupDepth = 32

    /// Reads a pattern.
    ///
    /// - Throws: `StreakRulesSyntaxError` with the offset (in characters) of what cannot be read.
    public init(_ source: String) throws(StreakRulesSyntaxError) {
        var parser = PatternParser(Array(source))
        let parsed = try parser.parsePattern()
        self.source = source
        self.program = PatternCompiler.compile(parsed.node)
    }

    /// Whether the pattern matches somewhere in `text`, in time proportional to the text's length
    /// times the pattern's steps.
    public func matches(_ text: String) -> Bool {
        matching(text).matches
    }

    /// Whether the pattern matches, and the steps it took to say so. The text's scalars and the
    /// matcher's thread lists live in temporary memory (on the stack when small, as a SUMMARY is):
    /// a habit's pattern is tested on every event of a calendar.
    func matching(_ text: String) -> (matches: Bool, work: Int) {
        let scalars = text.unicodeScalars
        return withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: max(1, scalars.count)) { buffer in
            var count = 0
            for scalar in scalars {
                (buffer.baseAddress! + count).initialize(to: scalar)
                count += 1
            }
            let text = UnsafeBufferPointer(rebasing: buffer[..<count])
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: PatternMatcher.memoryNeeded(program)) { memory in
                memory.initialize(repeating: 0)
                var matcher = PatternMatcher(program: program, memory: memory)
                return (matcher.matches(text), matcher.work)
            }
        }
    }

    /// The number of steps the pattern compiled to.
    var stepCount: Int { program.steps.count }

    public var description: String { source }

    public static func == (a: SummaryPattern, b: SummaryPattern) -> Bool { a.source == b.source }

    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

// MARK: - The pattern as a tree

/// A zero-width test of a position.
enum PatternAssertion: Hashable, Sendable {
    case textStart, textEnd, textEndOrFinalLineFeed, lineStart, lineEnd, wordBoundary, notWordBoundary
}

/// A class of characters a set names by property.
enum ScalarClass: Hashable, Sendable {
    case word, digit, space, lineBreak
    case alpha, alnum, upper, lower, punct, xdigit, blank, cntrl

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .word: return ScalarClass.isWord(scalar)
        case .digit: return scalar.isASCII ? (0x30...0x39).contains(scalar.value) : scalar.properties.generalCategory == .decimalNumber
        case .space: return scalar.properties.isWhitespace
        case .lineBreak: return [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(scalar.value)
        case .alpha: return scalar.properties.isAlphabetic
        case .alnum: return scalar.properties.isAlphabetic || scalar.properties.generalCategory == .decimalNumber
        case .upper: return scalar.properties.isUppercase
        case .lower: return scalar.properties.isLowercase
        case .punct:
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
                 .finalPunctuation, .otherPunctuation: return true
            default: return false
            }
        case .xdigit: return scalar.isASCII && scalar.properties.isASCIIHexDigit
        case .blank: return scalar == " " || scalar == "\t"
        case .cntrl: return scalar.properties.generalCategory == .control
        }
    }

    /// `\w`: a letter, a mark, a decimal digit or a connector such as `_`.
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
        }
        if scalar.properties.isAlphabetic { return true }
        switch scalar.properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
        default: return false
        }
    }

    /// The classes `[:name:]` names inside a bracket.
    static let posixNames: [String: ScalarClass] = [
        "alpha": .alpha, "digit": .digit, "alnum": .alnum, "space": .space, "upper": .upper, "lower": .lower,
        "punct": .punct, "xdigit": .xdigit, "word": .word, "blank": .blank, "cntrl": .cntrl,
    ]
}

/// The characters one step of a pattern takes: ranges and classes, possibly negated, possibly
/// without case.
struct ScalarSet: Hashable, Sendable {
    /// A class, or its complement (`\W`).
    struct ClassTest: Hashable, Sendable {
        var kind: ScalarClass
        var negated: Bool
    }

    var ranges: [ClosedRange<UInt32>] = []
    var classes: [ClassTest] = []
    var isNegated = false
    var isCaseless = false

    /// One class, such as `\d`.
    init(_ kind: ScalarClass, negated: Bool = false) {
        classes = [ClassTest(kind: kind, negated: negated)]
    }

    init() {}

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        var found = holds(scalar)
        if !found, isCaseless {
            found = CaseFolding.variants(of: scalar).contains(where: holds)
        }
        return found != isNegated
    }

    /// Sorts and merges the ranges, and keeps each class test once, so that a class of 97,000
    /// characters is looked up in O(log n) (habit-pattern-class-linear-scan.sh: scanned range by
    /// range, one 1,000-character SUMMARY took 15 s). What the set holds does not change.
    mutating func normalize() {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        ranges = merged
        var seen: Set<ClassTest> = []
        classes = classes.filter { seen.insert($0).inserted }
    }

    private func holds(_ scalar: Unicode.Scalar) -> Bool {
        rangesHold(scalar.value) || classes.contains { $0.kind.contains(scalar) != $0.negated }
    }

    /// Whether a range holds `value`: a binary search over the ranges, which ``normalize()`` sorts
    /// and merges (a set made otherwise, with a range or two, is searched the same way once sorted).
    private func rangesHold(_ value: UInt32) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(value)
    }
}

/// Simple case folding, one scalar at a time (a scalar whose case mapping is several is its own fold).
enum CaseFolding {
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(scalar.value | 0x20)! : scalar
        }
        return single(scalar.properties.lowercaseMapping) ?? scalar
    }

    /// The scalar's lower- and uppercase forms, where each is one scalar.
    static func variants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if scalar.isASCII {
            let value = scalar.value
            if (0x41...0x5A).contains(value) { return [Unicode.Scalar(value | 0x20)!] }
            if (0x61...0x7A).contains(value) { return [Unicode.Scalar(value & ~0x20)!] }
            return []
        }
        return [single(scalar.properties.lowercaseMapping), single(scalar.properties.uppercaseMapping)]
            .compactMap { $0 }.filter { $0 != scalar }
    }

    private static func single(_ text: String) -> Unicode.Scalar? {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }
}

/// A pattern read into a tree (nested no deeper than its groups allow).
indirect enum PatternNode: Sendable {
    case empty
    case literal(Unicode.Scalar, caseless: Bool)
    case set(ScalarSet)
    case assertion(PatternAssertion)
    case sequence([PatternNode])
    case choice([PatternNode])
    case repetition(PatternNode, min: Int, max: Int?)
}

/// A node and the steps it compiles to.
struct SizedPatternNode {
    var node: PatternNode
    var steps: Int
}

// MARK: - The compiled program and its simulation

/// A step of a compiled pattern: consume one scalar, or move without consuming.
enum PatternStep: Hashable, Sendable {
    case scalar(Unicode.Scalar)
    /// A scalar compared after case folding (`CaseFolding.fold`, already applied to this one).
    case caseless(Unicode.Scalar)
    case set(Int)
    case split(Int, Int)
    case jump(Int)
    case assert(PatternAssertion)
    case match
}

struct PatternProgram: Sendable {
    var steps: [PatternStep] = []
    var sets: [ScalarSet] = []
    /// The pattern can only match at the start of the text (it begins with `^` or `\A`).
    var isAnchoredAtStart = false
    /// Some step compares folded scalars.
    var foldsCase = false
    /// The consuming steps a match can begin with (every step reached from the first without
    /// consuming, assertions taken as holding); `nil` when the pattern can match the empty text.
    /// A match can only start at a scalar one of them takes, so the matcher starts no thread
    /// anywhere else.
    var firstSteps: [Int]? = []

    /// Whether the consuming `step` takes `scalar` (`folded` when the program folds case).
    func step(_ step: Int, takes scalar: Unicode.Scalar, folded: Unicode.Scalar) -> Bool {
        switch steps[step] {
        case .scalar(let wanted): scalar == wanted
        case .caseless(let wanted): folded == wanted
        case .set(let set): sets[set].contains(scalar)
        case .split, .jump, .assert, .match: false
        }
    }

    /// Whether a match may start at `scalar` (`nil`: the end of the text).
    func mayStart(at scalar: Unicode.Scalar?, folded: Unicode.Scalar) -> Bool {
        guard let firstSteps, let scalar else { return firstSteps == nil }
        return firstSteps.contains { step($0, takes: scalar, folded: folded) }
    }

    /// The consuming steps reached from the first without consuming, or `nil` if the match is.
    static func firstSteps(of steps: [PatternStep]) -> [Int]? {
        var seen = Set<Int>(), pending = [0], found: [Int] = []
        while let step = pending.popLast() {
            guard seen.insert(step).inserted else { continue }
            switch steps[step] {
            case .match: return nil
            case .jump(let target): pending.append(target)
            case .split(let first, let second): pending += [first, second]
            case .assert: pending.append(step + 1)
            case .scalar, .caseless, .set: found.append(step)
            }
        }
        return found.sorted()
    }
}

/// Turns a tree into steps (Thompson's construction).
enum PatternCompiler {
    static func compile(_ node: PatternNode) -> PatternProgram {
        var program = PatternProgram()
        emit(node, into: &program)
        program.steps.append(.match)
        program.isAnchoredAtStart = program.steps.first == .assert(.textStart)
        program.foldsCase = program.steps.contains { if case .caseless = $0 { true } else { false } }
            || program.sets.contains(where: \.isCaseless)
        program.firstSteps = PatternProgram.firstSteps(of: program.steps)
        return program
    }

    private static func emit(_ node: PatternNode, into program: inout PatternProgram) {
        switch node {
        case .empty: break
        case .literal(let scalar, let caseless):
            program.steps.append(caseless ? .caseless(CaseFolding.fold(scalar)) : .scalar(scalar))
        case .set(let set):
            program.steps.append(.set(program.sets.count))
            program.sets.append(set)
        case .assertion(let assertion): program.steps.append(.assert(assertion))
        case .sequence(let nodes):
            for node in nodes { emit(node, into: &program) }
        case .choice(let nodes): emitChoice(nodes, into: &program)
        case .repetition(let node, let min, let max): emitRepetition(node, min: min, max: max, into: &program)
        }
    }

    private static func emitChoice(_ nodes: [PatternNode], into program: inout PatternProgram) {
        var exits: [Int] = []
        for (index, node) in nodes.enumerated() {
            guard index < nodes.count - 1 else {
                emit(node, into: &program)
                break
            }
            let split = program.steps.count
            program.steps.append(.split(0, 0))
            emit(node, into: &program)
            exits.append(program.steps.count)
            program.steps.append(.jump(0))
            program.steps[split] = .split(split + 1, program.steps.count)
        }
        for exit in exits { program.steps[exit] = .jump(program.steps.count) }
    }

    private static func emitRepetition(_ node: PatternNode, min: Int, max: Int?, into program: inout PatternProgram) {
        guard let max else {
            // `e{m,}`: m - 1 copies, then `e+`; or `e*`.
            for _ in 0..<Swift.max(0, min - 1) { emit(node, into: &program) }
            let start = program.steps.count
            if min == 0 {
                program.steps.append(.split(0, 0))
                emit(node, into: &program)
                program.steps.append(.jump(start))
                program.steps[start] = .split(start + 1, program.steps.count)
            } else {
                emit(node, into: &program)
                program.steps.append(.split(start, program.steps.count + 1))
            }
            return
        }
        for _ in 0..<min { emit(node, into: &program) }
        // `e{m,n}`: then n - m optional copies, each of which may end the repetition.
        var splits: [Int] = []
        for _ in 0..<(max - min) {
            splits.append(program.steps.count)
            program.steps.append(.split(0, 0))
            emit(node, into: &program)
        }
        for split in splits { program.steps[split] = .split(split + 1, program.steps.count) }
    }
}

/// The set of steps alive at one position: a sparse set over memory the matcher lends it (one
/// `Int32` per step in each of `dense` and `sparse`, initialized), cleared in constant time.
struct PatternThreads {
    private let dense: UnsafeMutableBufferPointer<Int32>
    private let sparse: UnsafeMutableBufferPointer<Int32>
    private(set) var count = 0

    init(dense: UnsafeMutableBufferPointer<Int32>, sparse: UnsafeMutableBufferPointer<Int32>) {
        self.dense = dense
        self.sparse = sparse
    }

    func contains(_ step: Int) -> Bool {
        let index = Int(sparse[step])
        return index < count && dense[index] == Int32(step)
    }

    mutating func insert(_ step: Int) {
        sparse[step] = Int32(count)
        dense[count] = Int32(step)
        count += 1
    }

    subscript(index: Int) -> Int { Int(dense[index]) }

    mutating func removeAll() { count = 0 }
}

/// Runs a program over a text, all its threads in step (no backtracking), in memory it is lent.
struct PatternMatcher {
    let program: PatternProgram
    /// The memory of the two thread lists, the steps alive at this position and at the next.
    private let threads: (current: PatternThreads, next: PatternThreads)
    /// The steps still to add in `add(_:at:of:to:)`: each step added pushes at most two, so at most
    /// twice the steps, and one.
    private let stack: UnsafeMutableBufferPointer<Int32>
    private var stackCount = 0
    /// Steps added to a thread list so far: at most the program's steps per position, which tests hold it to.
    private(set) var work = 0

    /// The `Int32`s a matcher of `program` is lent: two thread lists of two arrays, and the stack.
    static func memoryNeeded(_ program: PatternProgram) -> Int { 6 * program.steps.count + 1 }

    /// A matcher working in `memory` (`memoryNeeded(program)` values, initialized).
    init(program: PatternProgram, memory: UnsafeMutableBufferPointer<Int32>) {
        precondition(memory.count >= Self.memoryNeeded(program))
        let steps = program.steps.count
        func slice(_ index: Int) -> UnsafeMutableBufferPointer<Int32> {
            UnsafeMutableBufferPointer(rebasing: memory[(index * steps)..<((index + 1) * steps)])
        }
        self.program = program
        threads = (PatternThreads(dense: slice(0), sparse: slice(1)), PatternThreads(dense: slice(2), sparse: slice(3)))
        stack = UnsafeMutableBufferPointer(rebasing: memory[(4 * steps)...])
    }

    mutating func matches(_ text: UnsafeBufferPointer<Unicode.Scalar>) -> Bool {
        var (current, next) = threads
        for position in 0...text.count {
            let scalar = position < text.count ? text[position] : nil
            let folded = scalar.map { program.foldsCase ? CaseFolding.fold($0) : $0 } ?? " "
            if position == 0 || !program.isAnchoredAtStart, program.mayStart(at: scalar, folded: folded) {
                if add(0, at: position, of: text, to: &current) { return true }
            }
            if current.count == 0, program.isAnchoredAtStart { return false }
            guard let scalar else { break }
            next.removeAll()
            for index in 0..<current.count where program.step(current[index], takes: scalar, folded: folded) {
                if add(current[index] + 1, at: position + 1, of: text, to: &next) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    private mutating func push(_ step: Int) {
        stack[stackCount] = Int32(step)
        stackCount += 1
    }

    /// Adds `step` and every step it reaches without consuming (each once); whether one of them is the match.
    private mutating func add(_ step: Int, at position: Int, of text: UnsafeBufferPointer<Unicode.Scalar>, to threads: inout PatternThreads) -> Bool {
        push(step)
        while stackCount > 0 {
            stackCount -= 1
            let step = Int(stack[stackCount])
            guard !threads.contains(step) else { continue }
            threads.insert(step)
            work += 1
            switch program.steps[step] {
            case .match:
                stackCount = 0
                return true
            case .jump(let target): push(target)
            case .split(let first, let second):
                push(second)
                push(first)
            case .assert(let assertion):
                if Self.holds(assertion, at: position, of: text) { push(step + 1) }
            case .scalar, .caseless, .set: break
            }
        }
        return false
    }

    static func holds(_ assertion: PatternAssertion, at position: Int, of text: UnsafeBufferPointer<Unicode.Scalar>) -> Bool {
        let count = text.count
        switch assertion {
        case .textStart: return position == 0
        case .textEnd: return position == count
        case .textEndOrFinalLineFeed: return position == count || (position == count - 1 && text[position] == "\n")
        case .lineStart: return position == 0 || text[position - 1] == "\n"
        case .lineEnd: return position == count || text[position] == "\n"
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && ScalarClass.isWord(text[position - 1])
            let after = position < count && ScalarClass.isWord(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}
