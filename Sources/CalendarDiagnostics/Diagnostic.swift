

/// A problem found in a calendar's content, with where it is.
///
/// Diagnostics never stop an import: the event or line they name is salvaged or skipped, and the
/// rest of the input is read. They print the way compilers print:
///
/// ```
/// work.ics:12:10: warning: X-POINTS value "lots" is not a non-negative integer; the session counts 0 points
///    12 | X-POINTS:lots
///       |          ^
/// ```
public struct Diagnostic: Hashable, Sendable {
    /// How serious a diagnostic is.
    public enum Severity: String, Hashable, Sendable, Codable, Comparable {
        /// Something was ignored or could not be understood; data may be lost.
        case error
        /// Something was odd and was salvaged; check the result.
        case warning
        /// Information: nothing is wrong with the data.
        case note

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// How serious it is.
    public var severity: Severity
    /// What kind of problem it is, for filtering and tests.
    public var code: Code
    /// Where it is: file, 1-based physical line (where the logical line starts) and column.
    public var location: SourceLocation
    /// What is wrong and what was done about it.
    public var message: String
    /// The content line it is about, unfolded, if there is one.
    public var sourceLine: String?

    public init(
        _ severity: Severity, _ code: Code, at location: SourceLocation, _ message: String, sourceLine: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.location = location
        self.message = message
        self.sourceLine = sourceLine.map(Self.shortened)
    }

    /// The most characters of a source line a diagnostic keeps: a line of a gigabyte is quoted by
    /// its start, not copied.
    public static let sourceLineLimit = 1_000

    private static func shortened(_ line: String) -> String {
        guard line.utf8.count > sourceLineLimit else { return line }
        return String(line.prefix(sourceLineLimit)) + "…"
    }
}

extension Diagnostic {
    /// The kind of a diagnostic: an extensible set of stable names.
    /// Coded as its name: `Codable` of a `RawRepresentable` string.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String

        /// A code by its name; any name decodes, as a code added later must.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        private init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// The bytes are neither UTF-8 nor UTF-16 with a byte order mark; read as Latin-1.
        public static let encoding = Code("encoding")
        /// A line that is not a content line, or a fold that is not a fold.
        public static let malformedLine = Code("malformed-line")
        /// BEGIN and END lines that do not pair up, or content outside any component.
        public static let structure = Code("structure")
        /// libical rejected a property or value (its `X-LIC-ERROR`).
        public static let libical = Code("libical")
        /// DTSTART missing or unreadable.
        public static let missingStart = Code("missing-start")
        /// An end before the start, or an unreadable DTEND or DURATION.
        public static let badEnd = Code("bad-end")
        /// A TZID that neither the calendar nor the IANA database defines.
        public static let unknownTimeZone = Code("unknown-time-zone")
        /// A TZID that is not an IANA name but stands for one (a Windows or display name, a vendor path).
        public static let timeZoneName = Code("time-zone-name")
        /// A wall-clock time its zone skips (the spring gap), read with the offset before the gap
        /// as RFC 5545 §3.3.5 says: 02:30 on the night Berlin skips from 02:00 to 03:00 is 03:30.
        public static let nonexistentTime = Code("nonexistent-time")
        /// How the report's zone was chosen when none was given: from the events' times (no
        /// `X-WR-TIMEZONE`), or the first of several declared zones, or a declared zone no event
        /// is in (a note).
        public static let reportZone = Code("report-zone")
        /// A VTIMEZONE that could not be used.
        public static let badTimeZone = Code("bad-time-zone")
        /// A points value that is not a non-negative integer, or no points property anywhere.
        public static let points = Code("points")
        /// A recurring event whose instances are not all counted.
        public static let recurrence = Code("recurrence")
        /// An event without a UID.
        public static let missingUID = Code("missing-uid")
        /// The input could not be read to its end (a read error part-way).
        public static let input = Code("input")
        /// An input with no content line at all (empty, or only blank lines).
        public static let emptyInput = Code("empty-input")
        /// Copies of one event (the same UID and RECURRENCE-ID) merged into one, or an event cancelled
        /// by an iTIP CANCEL.
        public static let duplicate = Code("duplicate")
        /// Sessions lie before the first day of a report whose window was not given.
        public static let reportWindow = Code("report-window")
        /// Sessions that start after now: planned, not done, so not counted (`--count-planned` counts them).
        public static let planned = Code("planned")
        /// The input meets one of the import's limits (too many distinct TZIDs, too many VEVENTs of
        /// one UID): what lies beyond it is read otherwise or left out, as the message says.
        public static let limit = Code("limit")
    }
}

extension Diagnostic: CustomStringConvertible {
    /// `file:line:column: severity: message`, then the source line and a caret under the column.
    ///
    /// Text for a terminal: control characters of the file name, message and source line (ESC,
    /// carriage return, C1 controls, bidi overrides, ...) are shown as `\u{XX}`
    /// (`String.escapingControlCharacters`), and the caret stays under its character.
    public var description: String {
        var text = "\(location): \(severity.rawValue): \(message)".escapingControlCharacters()
        if let sourceLine {
            let line = sourceLine.count > 160 ? String(sourceLine.prefix(159)) + "…" : sourceLine
            let shown = line.escapingControlCharacters()
            // The column counts the source line's scalars; the caret goes after their escaped form.
            let before = String(String.UnicodeScalarView(line.unicodeScalars.prefix(max(location.column, 1) - 1)))
            let caretColumn = min(before.escapingControlCharacters().count + 1, shown.count + 1)
            let gutter = String(location.line)
            let pad = String(repeating: " ", count: gutter.count)
            text += "\n \(gutter) | \(shown)\n \(pad) | \(String(repeating: " ", count: caretColumn - 1))^"
        }
        return text
    }
}

extension Diagnostic: Codable {
    private enum CodingKeys: String, CodingKey {
        case severity, code, file, line, column, message, sourceLine
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(Severity.self, forKey: .severity),
            try container.decode(Code.self, forKey: .code),
            at: SourceLocation(
                file: try container.decode(String.self, forKey: .file),
                line: try container.decode(Int.self, forKey: .line),
                column: try container.decode(Int.self, forKey: .column)),
            try container.decode(String.self, forKey: .message),
            sourceLine: try container.decodeIfPresent(String.self, forKey: .sourceLine))
    }

    /// Encodes the location flat: `severity`, `code`, `file`, `line`, `column`, `message`, `sourceLine`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity, forKey: .severity)
        try container.encode(code, forKey: .code)
        try container.encode(location.file, forKey: .file)
        try container.encode(location.line, forKey: .line)
        try container.encode(location.column, forKey: .column)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(sourceLine, forKey: .sourceLine)
    }
}
