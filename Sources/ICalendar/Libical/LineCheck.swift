internal import CLibical
import Foundation
import Streaks

/// The checks a content line passes before `CalendarWriter` copies it, and its written form.
///
/// A line is read by libical on its own (inside a component of its own) and written back from
/// libical's reading: its name, each parameter and its value as libical writes them, which mends
/// what damaged inputs get wrong (unquoted parameter values with colons, stray semicolons, bad
/// escapes). A line libical splits (RDATE, EXDATE, CATEGORIES, ...) becomes one line per value;
/// a value list is cut into lines of at most `valuesPerLine` values first, since libical keeps
/// no more than 500 of one line. What libical cannot read, a date that does not exist and a
/// duration that cannot be counted are left out.
enum LineCheck {
    /// Lines longer than this are not handed to libical, whose line reader takes time in the square
    /// of a line's length; only a line whose value is text can be that long and still be copied.
    static let longLine = 64 << 10
    /// Values of a list property given to libical in one line (it keeps at most 500).
    static let valuesPerLine = 400

    /// The lines to write for `line` (none when it is left out), and what was left out or changed,
    /// said in full (`...; not copied`).
    static func check(_ original: ContentLine) -> (written: [String], problems: [String]) {
        let name = original.name
        guard isName(name) else { return ([], ["property name \"\(name)\" is not an iCalendar name; not copied"]) }
        guard original.valueColumn != nil else { return ([], ["\(name) has no value; not copied"]) }
        if name == "DURATION", ICalDuration.reading(String(original.value).trimmingSpaces) == .tooLong {
            return ([], ["DURATION \(String(original.value).trimmingSpaces) is too long to count; not copied"])
        }
        var (line, replaced) = forWriting(original)
        if name == "TRIGGER" { line = triggerWithValueType(line) }
        if name == "RRULE" || name == "EXRULE" {
            // A rule the import cannot read adds nothing; written as libical reads it, it might.
            do {
                _ = try RecurrenceRule(parsing: String(line.value).trimmingSpaces)
            } catch {
                return ([], ["\(name) cannot be read by StreakCal (\(error)); not copied"])
            }
        }
        let (written, problems) = name == "RDATE" || name == "EXDATE" ? dateList(line) : checked(line)
        guard replaced, !written.isEmpty else { return (written, problems) }
        return (written, ["\(name) has control characters, which iCalendar does not allow; they are written as U+FFFD"] + problems)
    }

    /// The line with its name uppercased (libical reads no lowercase X- name) and each control
    /// character but tab made U+FFFD (RFC 5545 3.1 allows none; a space would change a value
    /// such as `40` followed by a control into a number); whether any was replaced.
    private static func forWriting(_ line: ContentLine) -> (ContentLine, replacedControls: Bool) {
        var scalars = String.UnicodeScalarView()
        var replaced = false
        var index = 0
        let nameLength = line.name.unicodeScalars.count
        for scalar in line.text.unicodeScalars {
            defer { index += 1 }
            if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F {
                scalars.append("\u{FFFD}")
                replaced = true
            } else if index < nameLength, scalar.isASCII, scalar.properties.isLowercase {
                scalars.append(contentsOf: String(scalar).uppercased().unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        return (ContentLine(text: String(scalars), line: line.line, name: line.name, valueColumn: line.valueColumn), replaced)
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
    private static func dateList(_ line: ContentLine) -> (written: [String], problems: [String]) {
        let list = DateListValue(line)
        var problems: [String] = []
        if let first = list.firstUnreadable {
            let what = list.unreadableCount == 1 ? "value \(first)" : "values \(first) and \(list.unreadableCount - 1) more"
            problems.append("\(line.name) \(what) cannot be read; not copied")
        }
        return (list.values.map { $0.contentLine(name: line.name) }, problems)
    }

    private static func checked(_ line: ContentLine) -> (written: [String], problems: [String]) {
        let head = String(decoding: line.text.utf8.prefix(line.text.utf8.count - line.value.utf8.count), as: UTF8.self)
        if line.text.utf8.count > longLine {
            return longTextLine(line, head: head)
        }
        if line.value.trimmingSpaces.isEmpty, valueIsText(line.name) {
            // An empty text value is allowed (RFC 5545 3.3.11), though libical drops the property.
            return longTextLine(line, head: head)
        }
        var written: [String] = []
        var problems: [String] = []
        for group in valueLists(line, head: head) {
            var (lines, found) = readBack(group)
            // libical drops a whole line for one value it cannot read: read the values one by one.
            if !found.isEmpty, group.count > 1 {
                let oneByOne = group.enumerated().map { $0.offset == 0 ? $0.element : head + $0.element }
                (lines, found) = oneByOne.map { readBack([$0]) }.reduce(into: ([String](), [String]())) {
                    $0.0 += $1.0
                    $0.1 += $1.1
                }
            }
            written += lines
            problems += found
        }
        if written.isEmpty, problems.isEmpty { problems.append("libical cannot read this line") }
        return (written, problems.map { $0 + "; not copied" })
    }

    /// The lines libical writes back for a list of values (one value, or the line as it is, in
    /// `values[0]` with its head), and what it found wrong.
    private static func readBack(_ values: [String]) -> (written: [String], problems: [String]) {
        var written: [String] = []
        var problems: [String] = []
        read(values.count == 1 ? values[0] : values.joined(separator: ",")) { property in
            if property.isError {
                problems.append("libical: \(property.errorMessage)")
            } else if property.hasDateValue, !property.hasValidTime {
                problems.append("\(property.name) \(property.encodedValueText) is not a real date")
            } else if property.kind == ICAL_RDATE_PROPERTY, property.recurrenceDate == nil, property.hasPeriodValue {
                problems.append("RDATE \(property.encodedValueText) is not a real period")
            } else {
                written.append(property.contentLine)
            }
        }
        return (written, problems)
    }

    /// Whether a DTSTART, DTEND or RECURRENCE-ID line names a date or time that does not exist: the
    /// import skips the event (`ComponentReader`), so `CalendarWriter` leaves it out whole rather than
    /// write it without the line, which would make it count.
    static func namesImpossibleTime(_ line: ContentLine) -> Bool {
        guard ["DTSTART", "DTEND", "RECURRENCE-ID"].contains(line.name), line.text.utf8.count <= longLine else { return false }
        var impossible = false
        read(forWriting(line).0.text) { property in
            if !property.isError, property.hasDateValue, !property.hasValidTime { impossible = true }
        }
        return impossible
    }

    /// A line too long for libical (or with an empty value, which libical drops): copied when its
    /// value is text, with its parameters as libical writes them and its value as written (TEXT
    /// escaped as RFC 5545 wants).
    private static func longTextLine(_ line: ContentLine, head: String) -> (written: [String], problems: [String]) {
        guard valueIsText(line.name), head.utf8.count < longLine else {
            return ([], ["the \(line.name) line is \(line.text.utf8.count) octets long; not copied"])
        }
        var written: [String] = []
        read(head + "x") { property in
            if !property.isError, written.isEmpty {
                let short = property.contentLine
                written.append(String(decoding: short.utf8.dropLast(), as: UTF8.self)
                    + (isText(line.name) ? escapedText(TextValue.decode(line.value)) : String(line.value)))
            }
        }
        return written.isEmpty ? ([], ["libical cannot read the parameters of this \(line.name) line; not copied"]) : (written, [])
    }

    /// The line's values in groups to give libical: the line as it is, or for a list property
    /// (RDATE, EXDATE, ...) its values in groups of at most `valuesPerLine` (libical keeps 500 of a
    /// line), each value with the line's head, so that a group can be read as one line (the head
    /// once) or value by value.
    private static func valueLists(_ line: ContentLine, head: String) -> [[String]] {
        guard ["RDATE", "EXDATE", "FREEBUSY", "CATEGORIES", "RESOURCES"].contains(line.name) else { return [[line.text]] }
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
        guard values.count > 1 else { return [[line.text]] }
        return stride(from: 0, to: values.count, by: valuesPerLine).map { first in
            values[first..<min(values.count, first + valuesPerLine)].enumerated().map { offset, value in
                offset == 0 ? head + value : String(value)
            }
        }
    }

    /// Calls `body` with each property libical reads from one content line, then frees them.
    private static func read(_ text: String, _ body: (PropertyView) -> Void) {
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
    private static func isText(_ name: String) -> Bool {
        let kind = icalproperty_string_to_kind(name)
        guard kind != ICAL_X_PROPERTY, kind != ICAL_NO_PROPERTY else { return false }
        return icalproperty_kind_to_value_kind(kind) == ICAL_TEXT_VALUE
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
        var line = name
        var parameter = icalproperty_get_first_parameter(pointer, ICAL_ANY_PARAMETER)
        while let current = parameter {
            if let text = icalparameter_as_ical_string_r(current) {
                line += ";" + String(cString: text)
                icalmemory_free_buffer(text)
            }
            parameter = icalproperty_get_next_parameter(pointer, ICAL_ANY_PARAMETER)
        }
        return line + ":" + encodedValueText
    }

    /// Whether the value is a PERIOD (an RDATE may be one).
    var hasPeriodValue: Bool {
        guard let value = icalproperty_get_value(pointer) else { return false }
        return icalvalue_isa(value) == ICAL_PERIOD_VALUE
    }
}

