import Streaks

/// Property lines kept as bytes by the scanner, unfolded, for a worker to decode and split: the
/// calling thread of an import only finds BEGIN and END lines.
///
/// One buffer holds every line, each after a header of nine bytes (its length and number, 32 bits
/// each, little-endian, and a flag byte for Latin-1): a component's lines cost one allocation.
struct RawLines: Sendable {
    /// The lines' bytes in `storage[..<count]`; the rest is room, zeroed, for lines to come.
    private var storage: [UInt8] = []
    private var count = 0
    /// The room the first line gets (at least that line's): a cutter passes on the size of the
    /// component before, so that most components' lines take one allocation, not three.
    private var roomHint = 320

    private static let headerSize = 9

    var isEmpty: Bool { count == 0 }

    /// The bytes the lines take (with their headers): a hint for the next component's (`init(roomHint:)`).
    var byteCount: Int { count }

    init() {}

    /// Lines that start with room for `roomHint` bytes (between 320 and 16 KiB).
    init(roomHint: Int) {
        self.roomHint = min(max(roomHint, 320), 1 << 14)
    }

    /// Appends a line whose bytes are all printable ASCII; `false` (and nothing appended) otherwise.
    mutating func appendIfPrintableASCII(_ line: UnsafeBufferPointer<UInt8>, line number: Int) -> Bool {
        guard Self.isPrintableASCII(line) else { return false }
        appendLine(line, line: number, isLatin1: false)
        return true
    }

    /// Whether every byte is printable ASCII (0x20 to 0x7E), eight bytes at a time.
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20, at or above 0x80, or equal to 0x7F marks its high bit (borrows
            // from a marked byte can only mark bytes above it: the test is exact for the word).
            let below = (word &- 0x20 &* ones) & ~word & highs
            let delete = word ^ 0x7F &* ones
            if (below | word & highs | (delete &- ones) & ~delete & highs) != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] &- 0x20 >= 0x5F { return false }
            index += 1
        }
        return true
    }

    /// Appends an unfolded line (NUL bytes already removed).
    mutating func append(_ line: [UInt8], line number: Int, isLatin1: Bool) {
        line.withUnsafeBufferPointer { appendLine($0, line: number, isLatin1: isLatin1) }
    }

    private mutating func appendLine(_ line: UnsafeBufferPointer<UInt8>, line number: Int, isLatin1: Bool) {
        let end = count + Self.headerSize + line.count
        if line.count > 1 << 16 {
            // A long line gets just the room it needs, its bytes appended to the lines (no zeroed
            // room first, which would be a second copy of it at the peak).
            storage.removeSubrange(count...)
            storage.reserveCapacity(end)
            withUnsafeBytes(of: (UInt32(truncatingIfNeeded: line.count).littleEndian,
                                 UInt32(truncatingIfNeeded: number).littleEndian, isLatin1 ? UInt8(1) : 0)) { header in
                storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: header[0..<Self.headerSize]))
            }
            storage.append(contentsOf: line)
            count = end
            return
        }
        if end > storage.count {
            // Room for a typical event's kept lines at once, then twice as much each time. (Written
            // in place below: an append per line, a generic copy of a few bytes, cost more than the
            // bytes.)
            let room = max(end, roomHint, 2 * storage.count)
            if storage.isEmpty {
                storage = [UInt8](repeating: 0, count: room)
            } else {
                storage.reserveCapacity(room)
                storage.append(contentsOf: repeatElement(0, count: room - storage.count))
            }
        }
        let start = count
        storage.withUnsafeMutableBufferPointer { buffer in
            let header = UnsafeMutableRawPointer(buffer.baseAddress! + start)
            header.storeBytes(of: UInt32(truncatingIfNeeded: line.count).littleEndian, as: UInt32.self)
            (header + 4).storeBytes(of: UInt32(truncatingIfNeeded: number).littleEndian, as: UInt32.self)
            (header + 8).storeBytes(of: isLatin1 ? UInt8(1) : 0, as: UInt8.self)
            if let source = line.baseAddress, !line.isEmpty {
                (buffer.baseAddress! + start + Self.headerSize).update(from: source, count: line.count)
            }
        }
        count = end
    }

    /// One line in place: its bytes (valid only while `withLines`' body runs), number and encoding.
    struct Line {
        var bytes: UnsafeBufferPointer<UInt8>
        var line: Int
        var isLatin1: Bool
    }

    /// The lines in place, in order.
    struct Lines: Sequence, IteratorProtocol {
        fileprivate let buffer: UnsafeBufferPointer<UInt8>
        fileprivate var offset = 0

        mutating func next() -> Line? {
            guard offset + RawLines.headerSize <= buffer.count else { return nil }
            func word(at position: Int) -> Int {
                Int(buffer[position]) | Int(buffer[position + 1]) << 8 | Int(buffer[position + 2]) << 16
                    | Int(buffer[position + 3]) << 24
            }
            let length = word(at: offset)
            let number = word(at: offset + 4)
            let isLatin1 = buffer[offset + 8] != 0
            let start = offset + RawLines.headerSize
            offset = start + length
            return Line(bytes: UnsafeBufferPointer(rebasing: buffer[start..<offset]), line: number, isLatin1: isLatin1)
        }
    }

    /// The lines in place, for `body` to read without copies.
    func withLines<Result>(_ body: (Lines) -> Result) -> Result {
        storage.withUnsafeBufferPointer { body(Lines(buffer: UnsafeBufferPointer(rebasing: $0[..<count]))) }
    }

    /// The lines, decoded and split.
    var contentLines: [ContentLine] {
        withLines { lines in
            lines.map { ContentLineScanner.contentLine($0.bytes, line: $0.line, isLatin1: $0.isLatin1) }
        }
    }
}

/// A component's content lines as a tree: its own properties and its subcomponents, in order.
struct ComponentLines: Sendable {
    /// The component name, uppercased (`VEVENT`, `VALARM`, ...).
    var name: String
    /// Its BEGIN line.
    var begin: ContentLine
    /// Its own property lines, in order.
    var properties: [ContentLine] = []
    /// Its subcomponents, in order.
    var children: [ComponentLines] = []
    /// Property lines not yet made into `properties` (see `materialized`).
    var raw = RawLines()

    /// The component with every raw line made into a `ContentLine`, here and in its subcomponents.
    var materialized: ComponentLines {
        var result = self
        if !raw.isEmpty {
            // Lines kept as bytes come first: the scanner only stops keeping them (NUL bytes) part-way.
            result.properties = raw.contentLines + properties
            result.raw = RawLines()
        }
        result.children = children.map(\.materialized)
        return result
    }

    /// The component as iCalendar text (unfolded lines, CRLF), for libical.
    var icalendarText: String {
        var text = ""
        append(to: &text)
        return text
    }

    private func append(to text: inout String) {
        text += "BEGIN:\(name)\r\n"
        for property in properties {
            text += property.text
            text += "\r\n"
        }
        for child in children { child.append(to: &text) }
        text += "END:\(name)\r\n"
    }

    /// The first property line with `name` (uppercased), if any.
    func property(named name: String) -> ContentLine? {
        properties.first { $0.name == name }
    }

    /// The first of the component's own property lines with `name` (uppercased), also among those
    /// still kept as bytes.
    func materializedProperty(named name: String) -> ContentLine? {
        property(named: name) ?? raw.contentLines.first { $0.name == name }
    }
}

/// What the cutter finds at the top level of an input.
enum CalendarItem: Sendable {
    /// A property of a VCALENDAR (`X-WR-TIMEZONE`, `METHOD`, ...); `calendar` counts VCALENDARs from 0.
    case calendarProperty(ContentLine, calendar: Int)
    /// A complete top-level component (VEVENT, VTIMEZONE, VTODO, ...).
    case component(ComponentLines, calendar: Int)
}

/// Cuts logical lines into top-level components at BEGIN and END lines, one component at a time.
///
/// Salvages what it can, with a diagnostic each: a missing END (at the next BEGIN of a top-level
/// component, at an END of an enclosing component, or at the end of the input), a stray END, a
/// component outside any VCALENDAR, several VCALENDARs in one input, content outside any component.
struct ComponentCutter {
    private var scanner: ContentLineScanner
    private var stack: [ComponentLines] = []
    /// The bytes the last top-level component's lines took: the room the next one's start with.
    private var lastRawByteCount = 0
    private var calendarIndex = -1
    private var inCalendar = false
    /// Whether any content line came, and whether the end was reached (said once).
    private var sawLine = false
    private var ended = false
    private var noted: Set<String> = []
    private(set) var diagnostics: [Diagnostic] = []

    /// How deep components may nest, a top-level one counting 1 (a VEVENT's VALARM is 2); deeper
    /// ones are skipped with an error, so that nothing that walks a component (or frees it) goes deep.
    static let maximumDepth = 32

    /// While skipping a component nested too deep: how many of its BEGINs are still open.
    private var skippedDepth = 0

    /// Components that only ever stand at the top level of a calendar: a BEGIN of one of these
    /// inside another component means the other's END is missing.
    static let topLevelComponents: Set<String> = [
        "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY",
    ]

    /// - Parameters:
    ///   - eventProperties: When given, a VEVENT keeps only the property lines with these names
    ///     (and its BEGIN and END lines, also those of its subcomponents); the scanner steps over the
    ///     others without decoding them. `nil` keeps every line.
    ///   - sinksPropertyLines: Keep components' property lines as bytes in `ComponentLines.raw`
    ///     (`materialized` makes them lines), so that the cutter's thread does no more than find
    ///     BEGIN and END lines.
    ///   - segment: For a segment of an input (`InputOutline.SegmentStart`): the VCALENDAR it starts
    ///     in, and the line of the `BEGIN:VEVENT` that starts the next segment (`nil` for the last):
    ///     at the segment's end, what is still open is closed as that line would close it, and
    ///     nothing is said of the input's end.
    init(
        scanner: ContentLineScanner, eventProperties: Set<String>? = nil, sinksPropertyLines: Bool = false,
        segment: (start: CalendarState, nextEventLine: Int?)? = nil
    ) {
        self.scanner = scanner
        self.sinksPropertyLines = sinksPropertyLines
        skipsUnreadEventLines = eventProperties != nil
        if let eventProperties { self.scanner.keptNames = eventProperties.union(["BEGIN", "END"]) }
        if let segment {
            calendarIndex = segment.start.index
            inCalendar = segment.start.isOpen
            sawLine = true  // a segment starts with its BEGIN:VEVENT: the input is not empty
            nextEventLine = segment.nextEventLine
        }
    }

    /// The VCALENDAR the cutter is in: the index of the last one begun (-1 before any, 0 once a
    /// component stood outside any), and whether it is open.
    struct CalendarState: Sendable, Equatable {
        var index: Int
        var isOpen: Bool
    }

    /// The VCALENDAR the cutter is in now (after a segment's end: where the next segment starts).
    var calendarState: CalendarState { CalendarState(index: calendarIndex, isOpen: inCalendar) }

    /// For a segment that is not an input's last, the line of the `BEGIN:VEVENT` after its end.
    private var nextEventLine: Int?

    /// A key for the notes said once per input (its encoding, several VCALENDARs, a component
    /// outside any), which each segment of an input may say again; `nil` for the others.
    static func onceKey(of diagnostic: Diagnostic) -> String? {
        switch diagnostic.code {
        case .encoding where diagnostic.message == ContentLineScanner.latin1Warning: "latin1"
        case .structure where diagnostic.message == severalCalendarsNote: "several"
        case .structure where diagnostic.severity == .note && diagnostic.message.hasSuffix(bareComponentNote): "bare"
        default: nil
        }
    }

    private static let severalCalendarsNote = "several VCALENDARs in one input; all are read"
    private static let bareComponentNote = " outside a VCALENDAR; read as if inside one"

    /// Whether lines a VEVENT does not keep are skipped.
    private let skipsUnreadEventLines: Bool
    /// Whether components' property lines are kept as bytes (`ComponentLines.raw`); the import
    /// turns them on, and makes them into lines on its workers.
    private let sinksPropertyLines: Bool

    /// Why the input stopped before its end, if it did.
    var readError: String? { scanner.readError }
    /// The system's error number for that read error.
    var readFailure: Int32? { scanner.readFailure }

    /// How the input was decoded (final once the input is read).
    var encoding: SourceEncoding { scanner.encoding }

    /// The diagnostics of the scanner and the cutter since the last call.
    mutating func takeDiagnostics() -> [Diagnostic] {
        defer {
            scanner.diagnostics.removeAll()
            diagnostics.removeAll()
        }
        return scanner.diagnostics + diagnostics
    }

    /// The next top-level item, or `nil` at the end of the input.
    mutating func next() -> CalendarItem? {
        while true {
            if skipsUnreadEventLines { scanner.unreadLinesSkipped = stack.first?.name == "VEVENT" }
            let next: ContentLine?
            if sinksPropertyLines, !stack.isEmpty {
                next = scanner.nextBoundary(sinkingInto: &stack[stack.count - 1].raw)
            } else {
                next = scanner.next()
            }
            guard let line = next else { break }
            sawLine = true
            if let item = consume(line) { return item }
        }
        if let nextEventLine, scanner.readError == nil {
            // A segment's end: the BEGIN:VEVENT after it closes what is open (as `begin` would),
            // and ends the skipping of a component nested too deep.
            skippedDepth = 0
            return stack.isEmpty ? nil : closeAll(because: "BEGIN:VEVENT starts", at: nextEventLine)
        }
        if !sawLine, !ended {
            warn(.emptyInput, line: 1, "the input is empty: it holds no calendar")
        }
        ended = true
        if !stack.isEmpty {
            return closeAll(because: "the input ends", at: scanner.lastLogicalLine)
        }
        if inCalendar {
            inCalendar = false
            warn(.structure, line: scanner.lastLogicalLine, "END:VCALENDAR is missing at the end of the input")
        }
        return nil
    }

    private mutating func consume(_ line: ContentLine) -> CalendarItem? {
        if skippedDepth > 0, !endsSkip(line) { return nil }
        switch line.name {
        case "BEGIN":
            return begin(line)
        case "END":
            return end(line)
        default:
            if !stack.isEmpty {
                stack[stack.count - 1].properties.append(line)
                return nil
            }
            if inCalendar {
                return .calendarProperty(line, calendar: calendarIndex)
            }
            warn(.structure, line: line.line, "content outside any component; ignored", sourceLine: line.text)
            return nil
        }
    }

    /// Whether a line ends the skipping of a component nested too deep: a BEGIN or END of a
    /// top-level component or VCALENDAR. The skipped component's own last END ends it too, and is
    /// passed over with every other line inside it.
    private mutating func endsSkip(_ line: ContentLine) -> Bool {
        guard line.name == "BEGIN" || line.name == "END" else { return false }
        let name = componentName(of: line)
        if line.name == "BEGIN" {
            if name == "VCALENDAR" || ComponentCutter.topLevelComponents.contains(name) {
                skippedDepth = 0
                return true
            }
            skippedDepth += 1
            return false
        }
        // An END of a component that only stands at the top level closes whatever is still open
        // inside it; any other END closes one of the skipped components.
        if name == "VCALENDAR" || ComponentCutter.topLevelComponents.contains(name) {
            skippedDepth = 0
            return true
        }
        skippedDepth -= 1
        return false
    }

    /// The component a BEGIN or END line names, uppercased.
    private mutating func componentName(of line: ContentLine) -> String {
        if let known = componentNames.first(where: { $0.text == line.text }) { return known.name }
        let name = line.value.trimmingSpaces.uppercased()
        if componentNames.count < 16 { componentNames.append((line.text, name)) }
        return name
    }

    /// The names of BEGIN and END lines read before, by their text: an input repeats a handful.
    private var componentNames: [(text: String, name: String)] = []

    private mutating func begin(_ line: ContentLine) -> CalendarItem? {
        let componentName = componentName(of: line)
        if componentName == "VCALENDAR" {
            let closed = stack.isEmpty ? nil : closeAll(because: "a new VCALENDAR begins", at: line.line)
            if inCalendar {
                warn(.structure, line: line.line, "BEGIN:VCALENDAR inside a VCALENDAR: END:VCALENDAR is missing before it", sourceLine: line.text)
            } else if calendarIndex == 0, !noted.contains("several") {
                noted.insert("several")
                note(.structure, line: line.line, Self.severalCalendarsNote, sourceLine: line.text)
            }
            calendarIndex += 1
            inCalendar = true
            return closed
        }
        if componentName.isEmpty {
            warn(.structure, line: line.line, "BEGIN without a component name; the line is ignored", sourceLine: line.text)
            return nil
        }
        var closed: CalendarItem?
        if !stack.isEmpty, ComponentCutter.topLevelComponents.contains(componentName) {
            closed = closeAll(because: "BEGIN:\(componentName) starts", at: line.line)
        }
        if stack.count >= Self.maximumDepth {
            diagnostics.append(Diagnostic(
                .error, .structure, at: line.location(),
                "BEGIN:\(componentName) is nested deeper than \(Self.maximumDepth) components; it and what it holds are skipped",
                sourceLine: line.text))
            skippedDepth = 1
            return closed
        }
        if stack.isEmpty, !inCalendar {
            if calendarIndex < 0 { calendarIndex = 0 }
            if !noted.contains("bare") {
                noted.insert("bare")
                note(.structure, line: line.line, componentName + Self.bareComponentNote, sourceLine: line.text)
            }
        }
        // A top-level component's lines start with the room the last one's took.
        stack.append(ComponentLines(name: componentName, begin: line, raw: stack.isEmpty ? RawLines(roomHint: lastRawByteCount) : RawLines()))
        return closed
    }

    private mutating func end(_ line: ContentLine) -> CalendarItem? {
        let componentName = componentName(of: line)
        if componentName == "VCALENDAR" {
            let closed = stack.isEmpty ? nil : closeAll(because: "END:VCALENDAR comes first", at: line.line)
            if !inCalendar, closed == nil {
                warn(.structure, line: line.line, "END:VCALENDAR without BEGIN:VCALENDAR; ignored", sourceLine: line.text)
            }
            inCalendar = false
            return closed
        }
        guard let depth = stack.lastIndex(where: { $0.name == componentName }) else {
            warn(.structure, line: line.line, "END:\(componentName) does not close any open component; ignored", sourceLine: line.text)
            return nil
        }
        while stack.count - 1 > depth {
            let inner = stack.removeLast()
            warn(.structure, line: line.line, "END:\(inner.name) is missing (BEGIN on line \(inner.begin.line)); closed here", sourceLine: line.text)
            stack[stack.count - 1].children.append(inner)
        }
        let component = stack.removeLast()
        if stack.isEmpty {
            lastRawByteCount = component.raw.byteCount
            return .component(component, calendar: max(calendarIndex, 0))
        }
        stack[stack.count - 1].children.append(component)
        return nil
    }

    /// Closes every open component whose END is missing and returns the top-level one.
    private mutating func closeAll(because reason: String, at line: Int) -> CalendarItem? {
        while stack.count > 1 {
            let inner = stack.removeLast()
            warn(.structure, line: line, "END:\(inner.name) is missing (BEGIN on line \(inner.begin.line)); closed where \(reason)")
            stack[stack.count - 1].children.append(inner)
        }
        guard let top = stack.popLast() else { return nil }
        warn(.structure, line: top.begin.line, "END:\(top.name) is missing; the component is closed where \(reason) (line \(line))", sourceLine: top.begin.text)
        return .component(top, calendar: max(calendarIndex, 0))
    }

    private mutating func warn(_ code: Diagnostic.Code, line: Int, _ message: String, sourceLine: String? = nil) {
        diagnostics.append(Diagnostic(.warning, code, at: .init(file: InputMap.name, line: line), message, sourceLine: sourceLine))
    }

    private mutating func note(_ code: Diagnostic.Code, line: Int, _ message: String, sourceLine: String? = nil) {
        diagnostics.append(Diagnostic(.note, code, at: .init(file: InputMap.name, line: line), message, sourceLine: sourceLine))
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let utf8 = Substring(self).utf8
        if let first = utf8.first, let last = utf8.last, first != 0x20, first != 0x09, last != 0x20, last != 0x09 {
            return String(self)
        }
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
