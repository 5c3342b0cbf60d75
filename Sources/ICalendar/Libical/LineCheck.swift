internal import CLibical
import Foundation
import Streaks

/// The checks a content line passes before `CalendarWriter` copies it, and its written form.
///
/// A line is read by libical on its own (inside a component of its own) and written back from
/// libical's reading: its name, each parameter and its value as libical writes them, which mends
/// what damaged inputs get wrong (unquoted parameter values with colons, stray semicolons). A line
/// libical splits (RDATE, EXDATE, CATEGORIES, ...) becomes one line per value; a value list is cut
/// into lines of at most `valuesPerLine` values first, since libical keeps no more than 500 of one
/// line. What libical cannot read, a date that does not exist and a duration that cannot be
/// counted are left out.
///
/// A TEXT value (RFC 5545 3.3.11) must read the same in the copy as StreakCal read it in the input
/// (`TextValue`: UID, SUMMARY, CATEGORIES, the points property, X- properties): where libical's
/// reading would change it (a backslash before a character TEXT does not escape, which libical
/// makes a space; a lone backslash at the end, which it drops; an escaped comma inside one of
/// several CATEGORIES), the value is written from StreakCal's own reading, escaped again.
enum LineCheck {
    /// Lines longer than this are not handed to libical, whose line reader takes time in the square
    /// of a line's length; only a line whose value is text can be that long and still be copied.
    static let longLine = 64 << 10
    /// Values of a list property given to libical in one line (it keeps at most 500).
    static let valuesPerLine = 400

    /// A line to write: a short one as its text, a long one (`longLine`) as a `LongTextLine`, whose
    /// value is written a piece at a time rather than copied.
    enum WrittenLine {
        case text(String)
        case long(LongTextLine)
    }

    /// What was left out or changed in a line, said in full (`...; not copied`), and the column it
    /// is about.
    struct Problem: Equatable {
        var message: String
        var column = 1
    }

    /// The lines to write for `original` (none when it is left out), and what was left out or changed.
    static func check(_ original: ContentLine) -> (written: [WrittenLine], problems: [Problem]) {
        let name = original.name
        guard isName(name) else { return ([], [Problem(message: "property name \"\(name)\" is not an iCalendar name; not copied")]) }
        guard original.valueColumn != nil else { return ([], [Problem(message: "\(name) has no value; not copied")]) }
        if original.text.utf8.count > longLine { return longTextLine(original) }
        if name == "DURATION", ICalDuration.reading(String(original.value).trimmingSpaces) == .tooLong {
            return ([], [Problem(message: "DURATION \(String(original.value).trimmingSpaces) is too long to count; not copied")])
        }
        var (line, replaced) = forWriting(original)
        if name == "TRIGGER" { line = triggerWithValueType(line) }
        if name == "RRULE" || name == "EXRULE" {
            // A rule the import cannot read adds nothing; written as libical reads it, it might.
            do {
                _ = try RecurrenceRule(parsing: String(line.value).trimmingSpaces)
            } catch {
                return ([], [Problem(message: "\(name) cannot be read by StreakCal (\(error)); not copied")])
            }
        }
        let (written, problems) = name == "RDATE" || name == "EXDATE" ? dateList(line) : checked(line)
        guard replaced, !written.isEmpty else { return (written.map(WrittenLine.text), problems) }
        return (written.map(WrittenLine.text), [controlCharacters(name)] + problems)
    }

    /// The lines `check` writes for `line`, as text: a line too long for libical whole.
    static func checkedText(_ line: ContentLine) -> [String] {
        check(line).written.map { written in
            switch written {
            case .text(let text): text
            case .long(let long): long.text
            }
        }
    }

    private static func controlCharacters(_ name: String) -> Problem {
        Problem(message: "\(name) has control characters, which iCalendar does not allow; they are written as U+FFFD")
    }

    /// The line with its name uppercased (libical reads no lowercase X- name) and each control
    /// character but tab made U+FFFD (RFC 5545 3.1 allows none; a space would change a value
    /// such as `40` followed by a control into a number); whether any was replaced.
    private static func forWriting(_ line: ContentLine) -> (ContentLine, replacedControls: Bool) {
        let (text, replaced) = forWriting(Substring(line.text), nameLength: line.name.unicodeScalars.count)
        return (ContentLine(text: text, line: line.line, name: line.name, valueColumn: line.valueColumn), replaced)
    }

    /// `forWriting(_:)` on the start of a line (its first `nameLength` characters are its name).
    static func forWriting(_ text: Substring, nameLength: Int) -> (String, replacedControls: Bool) {
        if isWrittenAsIs(text, nameLength: nameLength) { return (String(text), false) }
        var scalars = String.UnicodeScalarView()
        var replaced = false
        var index = 0
        for scalar in text.unicodeScalars {
            defer { index += 1 }
            if isControl(scalar) {
                scalars.append("\u{FFFD}")
                replaced = true
            } else if index < nameLength, scalar.isASCII, scalar.properties.isLowercase {
                scalars.append(contentsOf: String(scalar).uppercased().unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        return (String(scalars), replaced)
    }

    /// Whether `forWriting` leaves `text` as it is: no control character, and a name of ASCII
    /// capitals, digits and `-`. Most lines are so, and a look at their bytes says it without
    /// taking them apart scalar by scalar (a control character is one byte below 0x20, or 0x7F, in
    /// UTF-8, never part of a longer sequence).
    private static func isWrittenAsIs(_ text: Substring, nameLength: Int) -> Bool {
        var index = 0
        for byte in text.utf8 {
            if byte < 0x20 && byte != 0x09 || byte == 0x7F { return false }
            if index < nameLength, byte >= 0x80 || (0x61...0x7A).contains(byte) { return false }
            index += 1
        }
        return true
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F
    }

    /// A TRIGGER whose value is a DATE-TIME (`TRIGGER:19980403T120000Z`) with `VALUE=DATE-TIME`,
    /// which RFC 5545 (3.8.6.3) requires and without which libical reads it as a DURATION and drops it.
    private static func triggerWithValueType(_ line: ContentLine) -> ContentLine {
        let value = line.value.trimmingSpaces
        let isDateTime = (value.utf8.count == 15 || value.utf8.count == 16 && value.hasSuffix("Z"))
            && value.utf8.enumerated().allSatisfy { index, byte in
                index == 8 ? byte == UInt8(ascii: "T") : index == 15 || (0x30...0x39).contains(byte)
            }
        guard isDateTime, !DateListValue.parameters(of: line).contains(where: { $0.name == "VALUE" }),
              let valueColumn = line.valueColumn else { return line }
        let nameEnd = line.text.utf8.index(line.text.utf8.startIndex, offsetBy: line.name.utf8.count)
        let parameter = ";VALUE=DATE-TIME"
        return ContentLine(
            text: String(line.text[..<nameEnd]) + parameter + String(line.text[nameEnd...]), line: line.line, name: line.name,
            valueColumn: valueColumn + parameter.count)
    }

    /// An RDATE or EXDATE as the import reads it (`DateListValue`), one line per value: what the
    /// annotated calendar says is what the input meant to StreakCal, whatever libical makes of the
    /// line's parameters.
    private static func dateList(_ line: ContentLine) -> (written: [String], problems: [Problem]) {
        let list = DateListValue(line)
        var problems: [Problem] = []
        if let first = list.firstUnreadable {
            let what = list.unreadableCount == 1 ? "value \(first)" : "values \(first) and \(list.unreadableCount - 1) more"
            problems.append(Problem(message: "\(line.name) \(what) cannot be read; not copied"))
        }
        return (list.values.map { $0.contentLine(name: line.name) }, problems)
    }

    /// A line read back by libical: a list property's values in groups, one by one when libical
    /// rejects one of a group, a TEXT value as StreakCal reads it (`keepingTextReading`).
    private static func checked(_ line: ContentLine) -> (written: [String], problems: [Problem]) {
        let head = String(decoding: line.text.utf8.prefix(line.text.utf8.count - line.value.utf8.count), as: UTF8.self)
        if line.value.trimmingSpaces.isEmpty, valueIsText(line.name) {
            // An empty text value is allowed (RFC 5545 3.3.11), though libical drops the property.
            guard let long = LongTextLine(line, head: head) else { return ([], [unreadableParameters(line.name)]) }
            return ([long.text], [])
        }
        var written: [String] = []
        var problems: [String] = []
        var rewritten = false
        for group in valueLists(line) {
            let texts = group.enumerated().map { $0.offset == 0 ? head + $0.element : String($0.element) }
            var (lines, found) = readBack(texts)
            if !found.isEmpty, texts.count > 1 {
                // libical drops a whole line for one value it cannot read: read the values one by one.
                let oneByOne = texts.enumerated().map { $0.offset == 0 ? $0.element : head + $0.element }
                (lines, found) = oneByOne.map { readBack([$0]) }.reduce(into: ([WrittenParts](), [String]())) {
                    $0.0 += $1.0
                    $0.1 += $1.1
                }
            } else if found.isEmpty, let kept = keepingTextReading(line.name, values: group, written: lines) {
                lines = [WrittenParts(head: kept.head, value: kept.value, isText: true)]
                rewritten = true
            }
            written += lines.map { $0.head + ":" + $0.value }
            problems += found
        }
        if written.isEmpty, problems.isEmpty { problems.append("libical cannot read this line") }
        var result = problems.map { Problem(message: $0 + "; not copied") }
        if rewritten, let escape = invalidEscape(in: line) { result.append(escape) }
        return (written, result)
    }

    /// For a TEXT value (as libical reads it: a TEXT property's, or an X- property's without
    /// another VALUE type), the line to write instead of libical's `written` when StreakCal would
    /// read those otherwise than `value` (`TextValue`): libical's head, and the value as StreakCal
    /// reads it, escaped again (RFC 5545 3.3.11). `nil` when libical's lines read the same.
    private static func keepingTextReading(
        _ name: String, values: [Substring], written: [WrittenParts]
    ) -> (head: String, value: String)? {
        guard let first = written.first else { return nil }
        // Most values come back as they were written, and read the same by any reading.
        if values.count == 1, written.count == 1, first.value == values[0] { return nil }
        guard written.allSatisfy(\.isText) else { return nil }
        let value = values.joined(separator: ",")
        if isTextList(name) {
            // Each CATEGORIES value counts (`EventRecord`): the values, empty ones aside.
            let values = TextValue.decodeList(Substring(value))
            let writtenValues = written.flatMap { TextValue.decodeList(Substring($0.value)) }
            if values.filter({ !$0.isEmpty }) == writtenValues.filter({ !$0.isEmpty }) { return nil }
            return (first.head, values.map(escapedText).joined(separator: ","))
        }
        let reading = TextValue.decode(Substring(value))
        if written.count == 1, TextValue.decode(Substring(first.value)) == reading { return nil }
        return (first.head, escapedText(reading))
    }

    /// The warning for the first backslash in a TEXT value that RFC 5545 (3.3.11) does not allow:
    /// one before anything but `\\`, `;`, `,`, `n` and `N`, or a lone one at the end.
    private static func invalidEscape(in line: ContentLine) -> Problem? {
        guard let (offset, escaped) = firstInvalidEscape(in: line.value) else { return nil }
        let column = (line.valueColumn ?? 1) + line.value.unicodeScalars.prefix(offset).count
        guard let escaped else {
            return Problem(
                message: "\(line.name) ends in a lone backslash, which RFC 5545 (3.3.11) does not allow: StreakCal reads it as a backslash, and the copy is written to read so (\\\\)",
                column: column)
        }
        let shown = escaped.properties.generalCategory == .control || escaped.value == 0xFFFD ? "U+\(String(escaped.value, radix: 16, uppercase: true))" : String(escaped)
        return Problem(
            message: "\(line.name) has \\\(shown), which is no escape of RFC 5545 (3.3.11): StreakCal reads it as a backslash and \(shown), and the copy is written to read so (\\\\\(shown))",
            column: column)
    }

    /// A line as libical writes it back: its name and parameters, its value, and whether libical
    /// read the value as TEXT (or as an X- property's value, which it keeps as text).
    private struct WrittenParts {
        var head: String
        var value: String
        var isText: Bool
    }

    /// The lines libical writes back for a list of values (one value, or the line as it is, in
    /// `values[0]` with its head), and what it found wrong.
    private static func readBack(_ values: [String]) -> (written: [WrittenParts], problems: [String]) {
        var written: [WrittenParts] = []
        var problems: [String] = []
        readEach(values.count == 1 ? values[0] : values.joined(separator: ",")) { property in
            if property.isError {
                problems.append("libical: \(property.errorMessage)")
            } else if property.hasDateValue, !property.hasValidTime {
                problems.append("\(property.name) \(property.encodedValueText) is not a real date")
            } else if property.kind == ICAL_RDATE_PROPERTY, property.recurrenceDate == nil, property.hasPeriodValue {
                problems.append("RDATE \(property.encodedValueText) is not a real period")
            } else {
                written.append(WrittenParts(head: property.contentLineHead, value: property.encodedValueText, isText: property.hasTextValue))
            }
        }
        return (written, problems)
    }

    /// Whether a DTSTART, DTEND or RECURRENCE-ID line names a date or time that does not exist: the
    /// import skips the event (`ComponentReader`), so `CalendarWriter` leaves it out whole rather than
    /// write it without the line, which would make it count.
    static func namesImpossibleTime(_ line: ContentLine) -> Bool {
        guard ["DTSTART", "DTEND", "RECURRENCE-ID"].contains(line.name), line.text.utf8.count <= longLine else { return false }
        // A value not written as RFC 5545 writes a date or date-time, which libical reads anyway
        // (`20240701T02000Z` as a floating 02:00), is as impossible to the import (`ComponentReader`).
        let value = line.text.split(separator: ":", omittingEmptySubsequences: false).last ?? ""
        var impossible = false
        readEach(forWriting(line).0.text) { property in
            if !property.isError, property.hasDateValue, !property.hasValidTime || !ICalTime.isWellFormed(value) { impossible = true }
        }
        return impossible
    }

    /// A line too long for libical (`longLine`): copied when its value is text (a `LongTextLine`,
    /// written a piece at a time), with its parameters as libical writes them; left out otherwise.
    private static func longTextLine(_ line: ContentLine) -> (written: [WrittenLine], problems: [Problem]) {
        let valueOffset = line.text.utf8.count - line.value.utf8.count
        let (head, headHasControls) = forWriting(
            Substring(String(decoding: line.text.utf8.prefix(valueOffset), as: UTF8.self)), nameLength: line.name.unicodeScalars.count)
        guard valueIsText(line.name), head.utf8.count < longLine else {
            return ([], [Problem(message: "the \(line.name) line is \(line.text.utf8.count) octets long; not copied")])
        }
        guard let long = LongTextLine(line, head: head) else { return ([], [unreadableParameters(line.name)]) }
        var problems: [Problem] = []
        if headHasControls || line.value.unicodeScalars.contains(where: isControl) { problems.append(controlCharacters(line.name)) }
        if long.form != .asWritten, let escape = invalidEscape(in: line) { problems.append(escape) }
        return ([.long(long)], problems)
    }

    private static func unreadableParameters(_ name: String) -> Problem {
        Problem(message: "libical cannot read the parameters of this \(name) line; not copied")
    }

    /// The line's values in groups to give libical: the value as it is, or for a list property
    /// (RDATE, EXDATE, ...) its values in groups of at most `valuesPerLine` (libical keeps 500 of a
    /// line), so that a group can be read as one line (the head once) or value by value.
    private static func valueLists(_ line: ContentLine) -> [[Substring]] {
        guard ["RDATE", "EXDATE", "FREEBUSY", "CATEGORIES", "RESOURCES"].contains(line.name) else { return [[line.value]] }
        var values: [Substring] = []
        var start = line.value.startIndex
        var escaped = false
        for index in line.value.indices {
            let character = line.value[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                values.append(line.value[start..<index])
                start = line.value.index(after: index)
            }
        }
        values.append(line.value[start...])
        guard values.count > 1 else { return [[line.value]] }
        return stride(from: 0, to: values.count, by: valuesPerLine).map { first in
            Array(values[first..<min(values.count, first + valuesPerLine)])
        }
    }

    /// Calls `body` with each property libical reads from one content line, then frees them.
    fileprivate static func readEach(_ text: String, _ body: (PropertyView) -> Void) {
        let wrapped = "BEGIN:VEVENT\r\n" + text + "\r\nEND:VEVENT\r\n"
        guard let parsed = ParsedComponent(parsing: wrapped) else { return }
        parsed.withView { component in
            for property in component.properties { body(property) }
        }
    }

    /// Whether libical reads the property's value as text (or does not know the property): only
    /// such a line may be longer than `longLine`.
    private static func valueIsText(_ name: String) -> Bool {
        let kind = icalproperty_string_to_kind(name)
        guard kind != ICAL_X_PROPERTY, kind != ICAL_NO_PROPERTY else { return true }
        let value = icalproperty_kind_to_value_kind(kind)
        return value == ICAL_TEXT_VALUE || value == ICAL_ATTACH_VALUE || value == ICAL_URI_VALUE || value == ICAL_BINARY_VALUE
    }

    /// Whether a property's value is TEXT by default (SUMMARY, DESCRIPTION, CATEGORIES, ...).
    fileprivate static func isText(_ name: String) -> Bool {
        let kind = icalproperty_string_to_kind(name)
        guard kind != ICAL_X_PROPERTY, kind != ICAL_NO_PROPERTY else { return false }
        return icalproperty_kind_to_value_kind(kind) == ICAL_TEXT_VALUE
    }

    /// Whether the property is a list of TEXT values (RFC 5545 3.8.1.2, 3.8.1.10): each value is
    /// escaped on its own, and an unescaped comma separates two.
    fileprivate static func isTextList(_ name: String) -> Bool {
        name == "CATEGORIES" || name == "RESOURCES"
    }

    /// The first backslash of a value that RFC 5545 (3.3.11) does not allow in TEXT, as its offset
    /// in Unicode scalars, with the character after it (`nil` for a lone backslash at the end).
    private static func firstInvalidEscape(in value: Substring) -> (offset: Int, escaped: Unicode.Scalar?)? {
        var escaped = false
        var offset = 0
        for scalar in value.unicodeScalars {
            defer { offset += 1 }
            if escaped {
                escaped = false
                if !["\\", ";", ",", "n", "N"].contains(scalar) { return (offset - 1, scalar) }
            } else if scalar == "\\" {
                escaped = true
            }
        }
        return escaped ? (offset - 1, nil) : nil
    }

    /// TEXT escaping (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks.
    static func escapedText(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            case "\r": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `name` is an iCalendar name: letters, digits and `-` (RFC 5545 3.1).
    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(ContentLineScanner.isNameByte)
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && ContentLineScanner.isNameByte(UInt8(scalar.value))
    }
}

extension PropertyView {
    /// The property as one content line, as libical writes its parts: the name, each parameter,
    /// the value (unfolded: `FoldedText` folds).
    var contentLine: String {
        contentLineHead + ":" + encodedValueText
    }

    /// The name and each parameter, as libical writes them (`DTSTART;TZID=Europe/Berlin`).
    var contentLineHead: String {
        var line = name
        var parameter = icalproperty_get_first_parameter(pointer, ICAL_ANY_PARAMETER)
        while let current = parameter {
            if let text = icalparameter_as_ical_string_r(current) {
                line += ";" + String(cString: text)
                icalmemory_free_buffer(text)
            }
            parameter = icalproperty_get_next_parameter(pointer, ICAL_ANY_PARAMETER)
        }
        return line
    }

    /// Whether libical reads the value as TEXT, or keeps it as an X- property's text (no VALUE
    /// type of another kind).
    var hasTextValue: Bool {
        guard let value = icalproperty_get_value(pointer) else { return false }
        let kind = icalvalue_isa(value)
        return kind == ICAL_TEXT_VALUE || kind == ICAL_X_VALUE
    }

    /// Whether the value is a PERIOD (an RDATE may be one).
    var hasPeriodValue: Bool {
        guard let value = icalproperty_get_value(pointer) else { return false }
        return icalvalue_isa(value) == ICAL_PERIOD_VALUE
    }
}

/// A text line written a piece at a time (`LineCheck.WrittenLine.long`), so that a long one is never
/// copied whole: the name and parameters as libical writes them, then the value of the line as
/// the input has it, each control character made U+FFFD, and a TEXT value (RFC 5545 3.3.11) as
/// StreakCal reads it (`TextValue`), escaped again.
struct LongTextLine {
    /// How the value is written.
    enum Form {
        /// As the input has it (a value libical does not read as TEXT: X- properties, URIs).
        case asWritten
        /// As `TextValue.decode` reads it, escaped again.
        case text
        /// Each value as `TextValue.decodeList` reads it, escaped again, joined by commas.
        case textList
    }

    /// The name and parameters as libical writes them, with the colon.
    let head: String
    /// The line as the input has it.
    let line: ContentLine
    let form: Form

    /// The bytes of a piece, at least: pieces end at a character's end.
    static let pieceSize = 1 << 14

    /// The line whose head (its name and parameters, `forWriting`) is `head`; `nil` when libical
    /// cannot read the head.
    init?(_ line: ContentLine, head: String) {
        var written: String?
        LineCheck.readEach(head + "x") { property in
            if !property.isError, written == nil { written = property.contentLineHead }
        }
        guard let written else { return nil }
        self.head = written + ":"
        self.line = line
        form = LineCheck.isText(line.name) ? (LineCheck.isTextList(line.name) ? .textList : .text) : .asWritten
    }

    /// The line whole.
    var text: String {
        var bytes: [UInt8] = []
        forEachPiece { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with the line a piece at a time (whole UTF-8 characters, about `pieceSize`
    /// bytes each), the head first.
    func forEachPiece(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        var piece: [UInt8] = []
        piece.reserveCapacity(Self.pieceSize + 4)
        piece.append(contentsOf: head.utf8)
        var text = line.text
        let valueStart = text.utf8.count - line.value.utf8.count
        try text.withUTF8 { bytes in
            let value = UnsafeBufferPointer(rebasing: bytes[valueStart...])
            for (index, part) in parts(of: value).enumerated() {
                if index > 0 { piece.append(0x2C) }
                let window = form == .asWritten ? 0..<Int.max : Self.trimmedWindow(of: part)
                try Self.walk(part, decoding: form != .asWritten) { byte, decodedIndex in
                    guard window.contains(decodedIndex) else { return }
                    let (count, first, second): (Int, UInt8, UInt8) = form == .asWritten ? (1, byte, 0) : Self.escaped(byte)
                    for offset in 0..<count {
                        let out = offset == 0 ? first : second
                        if piece.count >= Self.pieceSize, out & 0xC0 != 0x80 {
                            try piece.withUnsafeBufferPointer(body)
                            piece.removeAll(keepingCapacity: true)
                        }
                        piece.append(out)
                    }
                }
            }
        }
        if !piece.isEmpty { try piece.withUnsafeBufferPointer(body) }
    }

    /// The value's parts: each value of a list (split at unescaped commas), else the value whole.
    private func parts(of value: UnsafeBufferPointer<UInt8>) -> [UnsafeBufferPointer<UInt8>] {
        guard form == .textList else { return [value] }
        var parts: [UnsafeBufferPointer<UInt8>] = []
        var start = 0
        var escaped = false
        for (index, byte) in value.enumerated() {
            if escaped {
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else if byte == 0x2C {
                parts.append(UnsafeBufferPointer(rebasing: value[start..<index]))
                start = index + 1
            }
        }
        parts.append(UnsafeBufferPointer(rebasing: value[start...]))
        return parts
    }

    /// Calls `visit` with each byte of the value as written (control characters made U+FFFD) or,
    /// `decoding`, as `TextValue.decode` reads it before it trims spaces, with its index.
    private static func walk(
        _ value: UnsafeBufferPointer<UInt8>, decoding: Bool, _ visit: (UInt8, Int) throws -> Void
    ) rethrows {
        var index = 0
        var escaped = false
        for raw in value {
            let isControl = raw < 0x20 && raw != 0x09 || raw == 0x7F
            // U+FFFD in UTF-8 for a control character.
            for offset in 0..<(isControl ? 3 : 1) {
                let byte: UInt8 = isControl ? (offset == 0 ? 0xEF : offset == 1 ? 0xBF : 0xBD) : raw
                guard decoding else {
                    try visit(byte, index)
                    index += 1
                    continue
                }
                if escaped {
                    escaped = false
                    switch byte {
                    case 0x6E, 0x4E:  // \n, \N
                        try visit(0x0A, index)
                        index += 1
                    case 0x5C, 0x3B, 0x2C:  // \\, \;, \,
                        try visit(byte, index)
                        index += 1
                    default:  // kept with its backslash, as TextValue keeps it
                        try visit(0x5C, index)
                        try visit(byte, index + 1)
                        index += 2
                    }
                } else if byte == 0x5C {
                    escaped = true
                } else {
                    try visit(byte, index)
                    index += 1
                }
            }
        }
        if escaped { try visit(0x5C, index) }
    }

    /// The indices of the decoded value that `TextValue` keeps: all but leading and trailing spaces
    /// and tabs (none of a value of spaces).
    private static func trimmedWindow(of value: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var first: Int?
        var last = 0
        walk(value, decoding: true) { byte, index in
            guard byte != 0x20, byte != 0x09 else { return }
            if first == nil { first = index }
            last = index
        }
        return first.map { $0..<(last + 1) } ?? 0..<0
    }

    /// A decoded byte escaped as `LineCheck.escapedText` escapes it: the count of bytes (0 to 2) and the bytes.
    private static func escaped(_ byte: UInt8) -> (count: Int, first: UInt8, second: UInt8) {
        switch byte {
        case 0x5C, 0x3B, 0x2C: (2, 0x5C, byte)
        case 0x0A: (2, 0x5C, 0x6E)
        case 0x0D: (0, 0, 0)
        default: (1, byte, 0)
        }
    }
}
