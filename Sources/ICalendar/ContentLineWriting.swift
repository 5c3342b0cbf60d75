internal import CLibical
import Streaks

/// iCalendar text being written: CRLF lines folded at 75 octets (RFC 5545 3.1), never inside a
/// UTF-8 character, with no control character but tab inside a line.
///
/// ```swift
/// var text = FoldedText()
/// text.append(line: "SUMMARY:" + String(repeating: "é", count: 40))
/// print(text.text.split(separator: "\r\n").map(\.utf8.count))
/// // Prints "[74, 33]": 8 + 33 × 2 octets, then a space and 16 × 2
/// ```
struct FoldedText: Sendable {
    private(set) var bytes: [UInt8] = []

    /// The most octets of a physical line, without its CRLF.
    static let lineLength = 75

    /// Appends one content line (unfolded, without its line end).
    mutating func append(line: String) {
        var utf8 = Array(line.utf8)
        for index in utf8.indices where utf8[index] < 0x20 && utf8[index] != 0x09 || utf8[index] == 0x7F {
            utf8[index] = 0x20  // RFC 5545 allows no control character but tab in a line
        }
        var start = 0
        var limit = Self.lineLength
        while utf8.count - start > limit {
            var cut = start + limit
            while utf8[cut] & 0xC0 == 0x80 { cut -= 1 }  // not inside a UTF-8 character
            bytes.append(contentsOf: utf8[start..<cut])
            bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = cut
            limit = Self.lineLength - 1  // the fold's space counts
        }
        bytes.append(contentsOf: utf8[start...])
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    /// Appends text written before.
    mutating func append(_ other: FoldedText) {
        bytes.append(contentsOf: other.bytes)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

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
        let (line, replaced) = forWriting(original)
        let (written, problems) = checked(line)
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
        for part in valueLists(line, head: head) {
            read(part) { property in
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
        }
        if written.isEmpty, problems.isEmpty { problems.append("libical cannot read this line") }
        return (written, problems.map { $0 + "; not copied" })
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

    /// The line, or for a list property with more than `valuesPerLine` values, the same line with
    /// the values in groups (split at commas that separate values).
    private static func valueLists(_ line: ContentLine, head: String) -> [String] {
        guard ["RDATE", "EXDATE", "FREEBUSY", "CATEGORIES", "RESOURCES"].contains(line.name) else { return [line.text] }
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
        guard values.count > valuesPerLine else { return [line.text] }
        return stride(from: 0, to: values.count, by: valuesPerLine).map { first in
            head + values[first..<min(values.count, first + valuesPerLine)].joined(separator: ",")
        }
    }

    /// Calls `body` with each property libical reads from one content line, then frees them.
    private static func read(_ text: String, _ body: (PropertyView) -> Void) {
        let wrapped = "BEGIN:VEVENT\r\n" + text + "\r\nEND:VEVENT\r\n"
        guard let parsed = ParsedComponent(parsing: wrapped) else { return }
        for property in ComponentView(pointer: parsed.pointer).properties { body(property) }
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
