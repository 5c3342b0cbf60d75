package import CalendarDiagnostics
package import Streaks

/// JSON text written as bytes, in one of two layouts, with `JSONEncoder`'s escapes: the one JSON
/// writer of the package (the report JSON, `summary.json` and JSON Lines records).
///
/// - ``Layout/pretty``: `JSONEncoder`'s `.prettyPrinted` layout — two-space indents,
///   `"key" : value`, an empty array or object as an opening and a closing line with a blank line
///   between.
/// - ``Layout/compact``: no spaces and no line breaks, so that a document is one line (JSON Lines).
///
/// The caller writes members in sorted order (as `.sortedKeys` would) and says where each goes: the
/// indent of its line and whether it is the first of its object or array. The compact layout ignores
/// indents, so the same calls give either layout.
///
/// ```swift
/// var json = JSONWriter(layout: .compact)
/// json.open("{")
/// json.key("id", indent: 2, first: true)
/// json.string("a\nb")
/// json.key("line", indent: 2)
/// json.integer(3)
/// json.close("}", indent: 0, empty: false)
/// print(json.text)
/// // Prints "{"id":"a\nb","line":3}"
/// ```
package struct JSONWriter {
    /// Where whitespace goes.
    package enum Layout: Sendable {
        /// `JSONEncoder`'s `.prettyPrinted` layout.
        case pretty
        /// One line, without spaces.
        case compact
    }

    package let layout: Layout
    package var bytes: [UInt8] = []

    package init(layout: Layout = .pretty) {
        self.layout = layout
    }

    /// The text written so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func open(_ bracket: StaticString) {
        bytes.append(bracket.utf8Start.pointee)
    }

    /// The end of an object or array whose members started at `indent + 2`.
    package mutating func close(_ bracket: StaticString, indent: Int, empty: Bool) {
        if layout == .pretty {
            bytes.append(0x0A)
            if empty { bytes.append(0x0A) }
            spaces(indent)
        }
        bytes.append(bracket.utf8Start.pointee)
    }

    /// A member's key, on its own line after a comma unless it is the first.
    package mutating func key(_ name: String, indent: Int, first: Bool = false) {
        element(indent: indent, first: first)
        string(name)
        separator()
    }

    /// A member's key, on its own line after a comma unless it is the first.
    package mutating func key(_ name: StaticString, indent: Int, first: Bool = false) {
        element(indent: indent, first: first)
        bytes.append(0x22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(0x22)
        separator()
    }

    /// The start of an array element or member line.
    package mutating func element(indent: Int, first: Bool) {
        if !first { bytes.append(0x2C) }
        guard layout == .pretty else { return }
        bytes.append(0x0A)
        spaces(indent)
    }

    /// What goes between a key and its value: `" : "`, or `":"` compact.
    private mutating func separator() {
        if layout == .pretty {
            bytes.append(contentsOf: [0x20, 0x3A, 0x20])
        } else {
            bytes.append(0x3A)
        }
    }

    private mutating func spaces(_ count: Int) {
        for _ in 0..<count { bytes.append(0x20) }
    }

    /// A streak as `{"end", "length", "start"}`, its days `null` for an empty streak.
    package mutating func streak(_ streak: Streak, indent: Int) {
        open("{")
        key("end", indent: indent + 2, first: true)
        optional(streak.end) { $0.string($1.description) }
        key("length", indent: indent + 2)
        integer(streak.length)
        key("start", indent: indent + 2)
        optional(streak.start) { $0.string($1.description) }
        close("}", indent: indent, empty: false)
    }

    /// Diagnostics as the report JSON has them: `code`, `column`, `file`, `line`, `message`,
    /// `severity` and, when there is one, `sourceLine`; the array's elements at `indent + 2`.
    package mutating func diagnostics(_ diagnostics: [Diagnostic], indent: Int) {
        open("[")
        let inner = indent + 4
        for (index, diagnostic) in diagnostics.enumerated() {
            element(indent: indent + 2, first: index == 0)
            open("{")
            key("code", indent: inner, first: true)
            string(diagnostic.code.rawValue)
            key("column", indent: inner)
            integer(diagnostic.location.column)
            key("file", indent: inner)
            string(diagnostic.location.file)
            key("line", indent: inner)
            integer(diagnostic.location.line)
            key("message", indent: inner)
            string(diagnostic.message)
            key("severity", indent: inner)
            string(diagnostic.severity.rawValue)
            if let sourceLine = diagnostic.sourceLine {
                key("sourceLine", indent: inner)
                string(sourceLine)
            }
            close("}", indent: indent + 2, empty: false)
        }
        close("]", indent: indent, empty: diagnostics.isEmpty)
    }

    /// `write` for a value, or `null`.
    package mutating func optional<Value>(_ value: Value?, _ write: (inout JSONWriter, Value) -> Void) {
        if let value { write(&self, value) } else { null() }
    }

    /// The text of a document whose outermost object is still open: closed, with a final newline.
    package mutating func document() -> String {
        String(decoding: documentBytes(), as: UTF8.self)
    }

    /// `document()` as UTF-8 bytes, for a file: no `String` made (and its bytes checked) on the way.
    package mutating func documentBytes() -> [UInt8] {
        close("}", indent: 0, empty: false)
        bytes.append(0x0A)
        return bytes
    }

    /// An object of integer members (keys in sorted order), its members at `indent + 2`.
    package mutating func integerObject(_ members: [(key: StaticString, value: Int)], indent: Int) {
        open("{")
        for (index, member) in members.enumerated() {
            key(member.key, indent: indent + 2, first: index == 0)
            integer(member.value)
        }
        close("}", indent: indent, empty: members.isEmpty)
    }

    package mutating func integer(_ value: Int) {
        guard value >= 0 else {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        digits(value, width: 1)
    }

    /// A day as `Day.description` writes it (`2025-03-01`), without making the string for the
    /// common four-digit year.
    package mutating func date(_ day: Day) {
        let (year, month, dayOfMonth) = day.components
        guard (0...9999).contains(year) else { return string(day.description) }
        bytes.append(0x22)
        digits(year, width: 4)
        bytes.append(0x2D)
        digits(month, width: 2)
        bytes.append(0x2D)
        digits(dayOfMonth, width: 2)
        bytes.append(0x22)
    }

    /// A non-negative number in decimal, padded with zeros to `width` digits.
    private mutating func digits(_ value: Int, width: Int) {
        var divisor = 1
        var count = 1
        while value / divisor >= 10 {
            divisor *= 10
            count += 1
        }
        for _ in count..<max(count, width) { bytes.append(0x30) }
        var rest = value
        while divisor > 0 {
            bytes.append(0x30 + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest round-trip text, without `.0`.
    package mutating func number(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A number as it was written in JSON text read before (a JSON number's text, which the caller
    /// has checked), so that it comes back exactly: `12345678901234567890123`, `1.50`, `-0`.
    package mutating func number(text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func null() {
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    /// `true` or `false`.
    package mutating func boolean(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A string with `JSONEncoder`'s escapes (`appendJSONString`): in either layout a line break
    /// inside is `\n`, so a compact document is one line.
    package mutating func string(_ value: String) {
        bytes.appendJSONString(value)
    }
}

/// The pretty-printed writer, by the name the report JSON knows it by.
package typealias PrettyJSON = JSONWriter

extension [UInt8] {
    /// Appends `value` as a JSON string with `JSONEncoder`'s escapes: quote, backslash, `\n` `\r`
    /// `\t` `\b` `\f`, other control characters as `\u00XX`; slashes and everything else as they
    /// are. Runs of bytes that need no escape are copied whole (a report embedded in a JSON Lines
    /// record has thousands of quotes and line breaks), and nothing is allocated per escape.
    package mutating func appendJSONString(_ value: String) {
        append(0x22)
        var value = value
        value.withUTF8 { utf8 in
            reserveCapacity(count + utf8.count + 1)
            var run = 0  // the first byte not copied yet
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                run = index + 1
                append(0x5C)
                switch byte {
                case 0x22, 0x5C: append(byte)
                case 0x0A: append(0x6E)  // n
                case 0x0D: append(0x72)  // r
                case 0x09: append(0x74)  // t
                case 0x08: append(0x62)  // b
                case 0x0C: append(0x66)  // f
                default:
                    append(0x75)  // u00XX
                    append(0x30)
                    append(0x30)
                    append(jsonHexDigits[Int(byte >> 4)])
                    append(jsonHexDigits[Int(byte & 0x0F)])
                }
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        append(0x22)
    }
}

private let jsonHexDigits: [UInt8] = Array("0123456789abcdef".utf8)
