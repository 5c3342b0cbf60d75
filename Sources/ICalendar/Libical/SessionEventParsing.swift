internal import CLibical
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The session path for a VEVENT as the import pipeline cuts it: read from the bytes the cutter kept
/// (`ComponentParsing.EventReading.sessionProperties`), on a worker, with as little around libical
/// as possible.
///
/// - The text properties (UID, SUMMARY, CATEGORIES, the points property, the annotation marker) are
///   decoded from the bytes (`TextValue`).
/// - A DTSTART, DTEND, RECURRENCE-ID, DURATION, STATUS, RRULE or EXRULE line in its plain form
///   (`NAME:value`, or with a TZID parameter, or `VALUE=DATE` on a date) becomes a libical property
///   made from its value:
///   `icalvalue_new_from_string` with the value type libical's parser would choose. That is the
///   call libical's parser makes for such a line, without its search of the property and
///   parameter tables by name, its line copies and its component.
/// - Any other line (other parameters, spaced values) sends the event's libical lines through
///   libical's parser as one component, whose properties pair with the lines in order.
///
/// When neither fits, `parseSessionEvent` returns `nil` and `ComponentParsing.parse` takes the
/// general path, which gives the same record the slow way: lines already made into `ContentLine`s,
/// a line read as Latin-1, a name with other than name characters, a line without a value, a
/// value libical rejects, or libical's tree not matching the lines one for one (an `X-LIC-ERROR`,
/// a line it split or dropped), which needs `ComponentReader.locate` and its diagnostics.
extension ComponentParsing {
    /// What a VEVENT line kept for a session is to the session path.
    enum SessionLineRole: Sendable {
        /// A property libical reads, of this kind, with its name.
        case libical(icalproperty_kind, name: String)
        /// A text property read here, with what it stands for (the points property may also be one
        /// of the others) and its name.
        case text(TextRoles, name: String)
        /// An RDATE or EXDATE, read here (`DateListValue`).
        case dateList(name: String)
        /// A SEQUENCE, DTSTAMP or LAST-MODIFIED, read here (`Revision`).
        case revision(name: String)
    }

    struct TextRoles: OptionSet, Sendable {
        let rawValue: UInt8
        static let uid = TextRoles(rawValue: 1)
        static let summary = TextRoles(rawValue: 2)
        static let categories = TextRoles(rawValue: 4)
        static let points = TextRoles(rawValue: 8)
        static let annotation = TextRoles(rawValue: 16)
        /// A property kept for habit filters (`SessionImporter.keptProperties`).
        static let kept = TextRoles(rawValue: 32)
        /// A property whose value libical reads as other than TEXT (a kept `PRIORITY`, `GEO`,
        /// `URL`, ...): libical may reject its value, so its line goes the general path's way.
        static let typed = TextRoles(rawValue: 64)
    }

    /// The session properties' roles by name, for a points property.
    ///
    /// - Parameter describing: Whether SUMMARY and CATEGORIES are read; not when sessions are only
    ///   counted (`SessionImporter.countsOnly`), which need neither. (Their lines are still cut and
    ///   checked as before: only the decoding of their text is left out, which says nothing.)
    static func sessionLineRoles(
        pointsProperty: String, kept: Set<String> = [], describing: Bool = true
    ) -> PropertyNameTable<SessionLineRole> {
        var text: [String: TextRoles] = describing ? ["UID": .uid, "SUMMARY": .summary, "CATEGORIES": .categories] : ["UID": .uid]
        for name in kept { text[name.uppercased(), default: []].insert(.kept) }
        text[SessionImporter.annotationMarker, default: []].insert(.annotation)
        text[pointsProperty.uppercased(), default: []].insert(.points)
        for name in text.keys where !["UID", "SUMMARY", "CATEGORIES"].contains(name) {
            let kind = icalproperty_string_to_kind(name)
            guard kind != ICAL_NO_PROPERTY, kind != ICAL_X_PROPERTY else { continue }
            let valueKind = icalproperty_kind_to_value_kind(kind)
            if valueKind != ICAL_TEXT_VALUE, valueKind != ICAL_X_VALUE { text[name]?.insert(.typed) }
        }
        var entries: [(String, SessionLineRole)] = libicalProperties.map {
            ($0, .libical(icalproperty_string_to_kind($0), name: $0))
        }
        // A name libical reads goes to libical, whatever else it stands for (as in the general path).
        entries += text.filter { !libicalProperties.contains($0.key) && !dateListProperties.contains($0.key) }
            .map { ($0.key, .text($0.value, name: $0.key)) }
        entries += dateListProperties.map { ($0, .dateList(name: $0)) }
        entries += revisionProperties.map { ($0, .revision(name: $0)) }
        return PropertyNameTable(entries)
    }

    /// A line libical reads: where it is among the event's lines, its kind, where its name ends and
    /// its value starts.
    struct LibicalLine {
        var line: RawLines.Line
        var kind: icalproperty_kind
        /// The name, uppercased (`DTSTART`).
        var name: String
        var nameEnd: Int
        var valueStart: Int
        /// The value type libical's parser gives the line and its TZID's bytes, when it is plain.
        var plainForm: (valueKind: icalvalue_kind, timeZoneID: Range<Int>?)?
    }

    /// A text line: where it is, where its value starts, what it stands for.
    struct TextLine {
        var line: RawLines.Line
        /// The name, uppercased.
        var name: String
        var valueStart: Int
        var roles: TextRoles
    }

    /// Working storage of `parseSessionEvent`, kept by the reader so that an event allocates none.
    /// The lines it records point into the event's `RawLines`: they are valid during one call only.
    struct SessionEventScratch {
        var libicalLines: [LibicalLine] = []
        var textLines: [TextLine] = []
        /// RDATE and EXDATE lines (their `roles` are empty).
        var dateListLines: [TextLine] = []
        /// SEQUENCE, DTSTAMP and LAST-MODIFIED lines (their `roles` are empty).
        var revisionLines: [TextLine] = []
        /// The text of the event handed to libical's parser, NUL-terminated.
        var text: [UInt8] = []
        /// What each plain line became: a time read here, or a property made from its value (freed
        /// after reading).
        var plainValues: [PlainValue] = []
        /// The last override's UID and the last TZIDs made, kept from event to event.
        var recentUIDs = RecentStrings(capacity: 1)
        var recentTimeZoneIDs = RecentStrings(capacity: 4)
    }

    /// The strings last made from bytes, given again for the same bytes: an override repeats its
    /// series' UID, and events their zones, so such strings are made once for many events. A
    /// string is kept when its UTF-8 is the bytes it was made from (it is then its own key: no
    /// bytes are copied to keep it) and it is too long to be stored inline (over 15 bytes).
    struct RecentStrings {
        private var strings: [String] = []
        private var next = 0
        private let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// The string `make` gives for `bytes`, which must depend on the bytes alone.
        mutating func string(for bytes: UnsafeBufferPointer<UInt8>, _ make: (UnsafeBufferPointer<UInt8>) -> String) -> String {
            guard bytes.count > 15, let base = bytes.baseAddress else { return make(bytes) }
            for index in strings.indices where Self.equal(strings[index], base, bytes.count) {
                return strings[index]
            }
            let string = make(bytes)
            guard Self.equal(string, base, bytes.count) else { return string }
            if strings.count < capacity {
                strings.append(string)
            } else {
                strings[next] = string
                next = (next + 1) % capacity
            }
            return string
        }

        private static func equal(_ string: String, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
            string.utf8.count == count
                && string.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, bytes, count) == 0 } == true
        }
    }

    /// A plain line's value, read.
    enum PlainValue {
        /// A DATE or DATE-TIME written in its strict form (`20240301`, `20240301T090000`, `...Z`) and
        /// naming a real date and time: read as libical reads it (`icaltime_from_string` takes the
        /// same digits), without libical.
        case time(ICalTime)
        /// A DURATION in its strict form (`isStrictDuration`), which libical accepts: the reader reads
        /// it from the line in any case (`ComponentReader.duration(of:line:in:)`).
        case duration
        /// A STATUS that is one of RFC 5545's values in capitals: whether it is CANCELLED.
        case status(isCancelled: Bool)
        /// A libical property made from the value (`icalvalue_new_from_string`).
        case property(OpaquePointer)
    }

    /// RFC 5545's STATUS values (3.8.1.11), as libical reads them: only CANCELLED matters to a session.
    private static let statusValues = PropertyNameTable(
        ["TENTATIVE", "CONFIRMED", "CANCELLED", "NEEDS-ACTION", "COMPLETED", "IN-PROCESS", "DRAFT", "FINAL"].map { ($0, $0 == "CANCELLED") })

    /// Whether a DURATION value is in the strict form `[+-]P` then `nW`, or `nD`, `T` with `nH`,
    /// `nM`, `nS` in that order (at least one), capitals, numbers of at most nine digits: the forms
    /// libical 3.0 accepts as written (a test reads them both ways).
    static func isStrictDuration(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if index < value.count, value[index] == 0x2B || value[index] == 0x2D { index += 1 }
        guard index < value.count, value[index] == 0x50 else { return false }
        index += 1
        var units: [UInt8] = []
        var inTime = false
        while index < value.count {
            if value[index] == 0x54, !inTime {  // T
                inTime = true
                index += 1
                continue
            }
            var digits = 0
            while index < value.count, value[index] >= 0x30, value[index] <= 0x39 {
                digits += 1
                index += 1
            }
            guard (1...9).contains(digits), index < value.count else { return false }
            units.append(inTime ? value[index] | 0x80 : value[index])  // time units marked apart from days
            index += 1
        }
        // W alone; else D before T, then H, M, S in order; T with at least one of them.
        let order: [UInt8] = [0x44, 0x48 | 0x80, 0x4D | 0x80, 0x53 | 0x80]
        if units == [0x57] { return !inTime }
        guard !units.isEmpty, !inTime || units.contains(where: { $0 & 0x80 != 0 }) else { return false }
        var last = -1
        for unit in units {
            guard let position = order.firstIndex(of: unit), position > last else { return false }
            last = position
        }
        return true
    }

    /// The session path (see the extension's documentation); `nil` for the general path.
    static func parseSessionEvent(_ lines: ComponentLines, reader: inout ComponentReader) -> EventRecord? {
        guard lines.name == "VEVENT", lines.properties.isEmpty else { return nil }
        var scratch = SessionEventScratch()
        swap(&scratch, &reader.sessionEventScratch)
        defer { swap(&scratch, &reader.sessionEventScratch) }
        return lines.raw.withLines { rawLines -> EventRecord? in
            guard classify(rawLines, roles: reader.sessionLineRoles, into: &scratch) else { return nil }
            var record = EventRecord(begin: lines.begin)
            let read = readPlainValues(scratch: &scratch, reader: &reader, into: &record)
                || readThroughParser(scratch: &scratch, reader: &reader, into: &record)
            guard read else { return nil }
            // (An override's UID is its series' UID, which the override before it has most likely
            // made already; other events' UIDs rarely repeat the last one, and are made without looking.)
            readText(scratch.textLines, recentUIDs: &scratch.recentUIDs, reusing: record.recurrenceID != nil, into: &record)
            for line in scratch.revisionLines {
                record.revision.read(line.name, value: UnsafeBufferPointer(rebasing: line.line.bytes[line.valueStart...]))
            }
            for dateList in scratch.dateListLines {
                reader.readDateList(
                    contentLine(dateList.line, name: dateList.name, valueStart: dateList.valueStart), into: &record)
            }
            return record
        }
    }

    /// Sorts the lines into libical's and text ones; `false` for a line the session path does not take.
    private static func classify(
        _ rawLines: RawLines.Lines, roles: PropertyNameTable<SessionLineRole>, into scratch: inout SessionEventScratch
    ) -> Bool {
        scratch.libicalLines.removeAll(keepingCapacity: true)
        scratch.textLines.removeAll(keepingCapacity: true)
        scratch.dateListLines.removeAll(keepingCapacity: true)
        scratch.revisionLines.removeAll(keepingCapacity: true)
        for line in rawLines {
            guard !line.isLatin1, let (nameEnd, valueStart) = Self.valueStart(in: line.bytes) else { return false }
            switch roles.value(of: line.bytes, in: 0..<nameEnd) {
            case .libical(let kind, let name)?:
                scratch.libicalLines.append(
                    LibicalLine(line: line, kind: kind, name: name, nameEnd: nameEnd, valueStart: valueStart, plainForm: nil))
            case .text(let roles, let name)?:
                // A text line is read here when libical would read it without a word: with no
                // parameters or a plain LANGUAGE (as Outlook writes `SUMMARY;LANGUAGE=en-us:`).
                // Others go the general path's way, where libical says what it makes of them.
                guard !roles.contains(.typed), nameEnd + 1 == valueStart || isPlainLanguage(line.bytes, nameEnd + 1..<valueStart - 1)
                else { return false }
                scratch.textLines.append(TextLine(line: line, name: name, valueStart: valueStart, roles: roles))
            case .dateList(let name)?:
                scratch.dateListLines.append(TextLine(line: line, name: name, valueStart: valueStart, roles: []))
            case .revision(let name)?:
                scratch.revisionLines.append(TextLine(line: line, name: name, valueStart: valueStart, roles: []))
            case nil:
                break
            }
        }
        return true
    }

    /// Reads the libical lines as properties made from their values, when every one is plain;
    /// `false` (nothing read) otherwise.
    private static func readPlainValues(
        scratch: inout SessionEventScratch, reader: inout ComponentReader,
        into record: inout EventRecord
    ) -> Bool {
        for index in scratch.libicalLines.indices {
            let line = scratch.libicalLines[index]
            guard let form = plainForm(line.line.bytes, line) else { return false }
            scratch.libicalLines[index].plainForm = form
        }
        scratch.plainValues.removeAll(keepingCapacity: true)
        defer {
            for case .property(let property) in scratch.plainValues { icalproperty_free(property) }
        }
        for line in scratch.libicalLines {
            guard let form = line.plainForm else { return false }
            let bytes = line.line.bytes
            let value = UnsafeBufferPointer(rebasing: bytes[line.valueStart...])
            if reader.readsItself(line.kind) {
                if let time = ICalTime(iCalendarBytes: value) {
                    let zone = time.isDate || time.isUTC ? nil : form.timeZoneID.map { zone in
                        scratch.recentTimeZoneIDs.string(for: UnsafeBufferPointer(rebasing: bytes[zone])) { String(decoding: $0, as: UTF8.self) }
                    }
                    scratch.plainValues.append(.time(ICalTime(local: time.local, isDate: time.isDate, isUTC: time.isUTC, timeZoneID: zone)))
                    continue
                }
                if line.kind == ICAL_DURATION_PROPERTY, Self.isStrictDuration(value) {
                    scratch.plainValues.append(.duration)
                    continue
                }
                if line.kind == ICAL_STATUS_PROPERTY, let isCancelled = Self.statusValues.value(of: value, in: 0..<value.count),
                   value.allSatisfy({ !($0 >= 0x61 && $0 <= 0x7A) }) {
                    scratch.plainValues.append(.status(isCancelled: isCancelled))
                    continue
                }
            }
            guard let value = cString(bytes[line.valueStart...], { icalvalue_new_from_string(form.valueKind, $0) })
            else { return false }
            guard let property = icalproperty_new(line.kind) else {
                icalvalue_free(value)
                return false
            }
            scratch.plainValues.append(.property(property))
            icalproperty_set_value(property, value)
            if let zone = form.timeZoneID {
                cString(bytes[zone]) { icalproperty_add_parameter(property, icalparameter_new_tzid($0)) }
            }
        }
        for (line, value) in zip(scratch.libicalLines, scratch.plainValues) {
            // A line is made into a `ContentLine` (its text decoded) only where one is kept or said:
            // not for a RECURRENCE-ID or a STATUS, two lines of most overrides.
            func made() -> ContentLine { contentLine(line.line, name: line.name, valueStart: line.valueStart) }
            switch value {
            case .time(let time):
                reader.readTime(time, kind: line.kind, name: line.name, line: made(), into: &record)
            case .duration:
                reader.readDuration(name: line.name, line: made(), into: &record)
            case .status(let isCancelled):
                record.isCancelled = isCancelled
            case .property(let property):
                reader.read(PropertyView(pointer: property), line: made(), into: &record)
            }
        }
        return true
    }

    /// Whether a VEVENT line libical reads is in its plain form, so that the session path makes its
    /// property from its value alone (`false` for a line libical does not read).
    static func hasPlainForm(_ line: String, roles: PropertyNameTable<SessionLineRole>) -> Bool {
        var line = line
        return line.withUTF8 { bytes in
            guard let (nameEnd, valueStart) = valueStart(in: bytes),
                  case .libical(let kind, let name)? = roles.value(of: bytes, in: 0..<nameEnd) else { return false }
            let raw = RawLines.Line(bytes: bytes, line: 1, isLatin1: false)
            return plainForm(bytes, LibicalLine(line: raw, kind: kind, name: name, nameEnd: nameEnd, valueStart: valueStart)) != nil
        }
    }

    /// The value type libical's parser gives a plain line, and its TZID's bytes; `nil` if the line
    /// is not plain: a kind other than DTSTART, DTEND, RECURRENCE-ID, DURATION, STATUS, RRULE and
    /// EXRULE; a parameter other than one TZID (on a date-time) and `VALUE=DATE` (on an eight-digit
    /// date), or any parameter on a rule; a TZID that is empty, starts or ends with a space, or has
    /// separators (inner spaces are kept and quotes dropped, as libical's parser reads them:
    /// `TZID="W. Europe Standard Time"`; a quoted one may have colons, as Outlook writes
    /// `TZID="(UTC-05:00) Eastern Time (US & Canada)"`); a value with other than letters, digits,
    /// `+` and `-` (and `=`, `;` and `,` in a rule).
    private static func plainForm(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: LibicalLine
    ) -> (valueKind: icalvalue_kind, timeZoneID: Range<Int>?)? {
        let isTime = line.kind == ICAL_DTSTART_PROPERTY || line.kind == ICAL_DTEND_PROPERTY
            || line.kind == ICAL_RECURRENCEID_PROPERTY
        let isRule = line.kind == ICAL_RRULE_PROPERTY || line.kind == ICAL_EXRULE_PROPERTY
        guard isTime || isRule || line.kind == ICAL_DURATION_PROPERTY || line.kind == ICAL_STATUS_PROPERTY else { return nil }
        let value = line.valueStart..<bytes.count
        guard !value.isEmpty,
              value.allSatisfy({ isRule ? isPlainRuleByte(bytes[$0]) : isPlainValueByte(bytes[$0]) }) else { return nil }
        var valueKind = defaultValueKind(of: line.kind)
        var timeZoneID: Range<Int>?
        var isDate = false
        // Parameters: ";NAME=VALUE" from the end of the name to the colon before the value.
        var index = line.nameEnd
        let parametersEnd = line.valueStart - 1
        while index < parametersEnd {
            guard !isRule, bytes[index] == 0x3B else { return nil }
            let nameStart = index + 1
            var equals = nameStart
            while equals < parametersEnd, bytes[equals] != 0x3D { equals += 1 }
            guard equals < parametersEnd else { return nil }
            var end = equals + 1
            var parameterValue: Range<Int>
            let isQuoted = bytes[end] == 0x22
            if isQuoted {
                // A quoted value: its bytes without the quotes, which must end it.
                end += 1
                while end < parametersEnd, bytes[end] != 0x22 { end += 1 }
                guard end < parametersEnd, end + 1 == parametersEnd || bytes[end + 1] == 0x3B else { return nil }
                parameterValue = (equals + 2)..<end
                end += 1
            } else {
                while end < parametersEnd, bytes[end] != 0x3B { end += 1 }
                parameterValue = (equals + 1)..<end
            }
            guard let first = parameterValue.first, let last = parameterValue.last, bytes[first] != 0x20, bytes[last] != 0x20,
                  parameterValue.allSatisfy({ isPlainParameterByte(bytes[$0]) || bytes[$0] == 0x20 || (isQuoted && bytes[$0] == 0x3A) })
            else { return nil }
            if isTime, timeZoneID == nil, PropertyNameTable<Void>.equalsIgnoringCase(bytes, nameStart..<equals, tzidName) {
                timeZoneID = parameterValue
            } else if isTime, !isDate, bytes[equals + 1] != 0x22,
                      PropertyNameTable<Void>.equalsIgnoringCase(bytes, nameStart..<equals, valueName),
                      PropertyNameTable<Void>.equalsIgnoringCase(bytes, parameterValue, dateName),
                      value.count == 8, value.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }) {
                isDate = true
                valueKind = ICAL_DATE_VALUE
            } else {
                return nil
            }
            index = end
        }
        return (valueKind, timeZoneID)
    }

    /// Whether `bytes[parameters]` (between the name's `;` and the value's `:`) is `LANGUAGE=`
    /// and a plain value, which libical takes as it is.
    private static func isPlainLanguage(_ bytes: UnsafeBufferPointer<UInt8>, _ parameters: Range<Int>) -> Bool {
        let equals = parameters.lowerBound + languageName.count
        guard equals < parameters.upperBound, bytes[equals] == 0x3D,
              PropertyNameTable<Void>.equalsIgnoringCase(bytes, parameters.lowerBound..<equals, languageName) else { return false }
        return (equals + 1..<parameters.upperBound).allSatisfy { isPlainParameterByte(bytes[$0]) }
    }

    private static let languageName = Array("LANGUAGE".utf8)

    /// The value type libical gives a property without a VALUE parameter (its own table, searched
    /// linearly, looked up once for the kinds read here).
    private static func defaultValueKind(of kind: icalproperty_kind) -> icalvalue_kind {
        switch kind {
        case ICAL_DTSTART_PROPERTY: dtstartValueKind
        case ICAL_DTEND_PROPERTY: dtendValueKind
        case ICAL_DURATION_PROPERTY: durationValueKind
        case ICAL_STATUS_PROPERTY: statusValueKind
        case ICAL_RECURRENCEID_PROPERTY: recurrenceIDValueKind
        case ICAL_RRULE_PROPERTY: ruleValueKind
        default: icalproperty_kind_to_value_kind(kind)
        }
    }

    private static let dtstartValueKind = icalproperty_kind_to_value_kind(ICAL_DTSTART_PROPERTY)
    private static let dtendValueKind = icalproperty_kind_to_value_kind(ICAL_DTEND_PROPERTY)
    private static let durationValueKind = icalproperty_kind_to_value_kind(ICAL_DURATION_PROPERTY)
    private static let statusValueKind = icalproperty_kind_to_value_kind(ICAL_STATUS_PROPERTY)
    private static let recurrenceIDValueKind = icalproperty_kind_to_value_kind(ICAL_RECURRENCEID_PROPERTY)
    private static let ruleValueKind = icalproperty_kind_to_value_kind(ICAL_RRULE_PROPERTY)

    private static let tzidName = Array("TZID".utf8)
    private static let valueName = Array("VALUE".utf8)
    private static let dateName = Array("DATE".utf8)

    /// A byte of a plain value: a letter, a digit, `+` or `-`.
    private static func isPlainValueByte(_ byte: UInt8) -> Bool {
        ContentLineScanner.isNameByte(byte) || byte == 0x2B
    }

    /// A byte of a plain rule: a plain value's, or `=`, `;` and `,` between its parts.
    private static func isPlainRuleByte(_ byte: UInt8) -> Bool {
        isPlainValueByte(byte) || byte == 0x3D || byte == 0x3B || byte == 0x2C
    }

    /// A byte of a plain parameter value: printable ASCII but space, `"`, `,`, `:`, `;`, `\`.
    private static func isPlainParameterByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x2C && byte != 0x3A && byte != 0x3B && byte != 0x5C
    }

    /// Calls `body` with `bytes` as a NUL-terminated C string (on the stack when short).
    private static func cString<Result>(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ body: (UnsafePointer<CChar>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            let base = buffer.baseAddress!
            bytes.withContiguousStorageIfAvailable { source in
                source.withMemoryRebound(to: CChar.self) { base.initialize(from: $0.baseAddress!, count: source.count) }
            }
            base[bytes.count] = 0
            return body(base)
        }
    }

    /// Reads the libical lines through libical's parser, as one VEVENT; `false` (nothing read) when
    /// its properties are not the lines one for one.
    private static func readThroughParser(
        scratch: inout SessionEventScratch, reader: inout ComponentReader,
        into record: inout EventRecord
    ) -> Bool {
        scratch.text.removeAll(keepingCapacity: true)
        scratch.text.append(contentsOf: "BEGIN:VEVENT\r\n".utf8)
        for line in scratch.libicalLines {
            scratch.text.append(contentsOf: line.line.bytes)
            scratch.text.append(contentsOf: "\r\n".utf8)
        }
        scratch.text.append(contentsOf: "END:VEVENT\r\n".utf8)
        scratch.text.append(0)
        let libicalLines = scratch.libicalLines
        return scratch.text.withUnsafeBufferPointer { buffer -> Bool in
            guard let parsed = buffer.withMemoryRebound(to: CChar.self, { ParsedComponent(parsing: $0.baseAddress!) }) else {
                return false
            }
            return parsed.withView { component in
                guard component.hasOnlyProperties(ofKinds: libicalLines.lazy.map(\.kind)) else { return false }
                for (line, property) in zip(libicalLines, component.properties) {
                    reader.read(property, line: contentLine(line.line, name: line.name, valueStart: line.valueStart), into: &record)
                }
                return true
            }
        }
    }

    /// Reads the text lines as `ComponentReader.readText` reads text `ContentLine`s.
    private static func readText(
        _ textLines: [TextLine], recentUIDs: inout RecentStrings, reusing: Bool, into record: inout EventRecord
    ) {
        for textLine in textLines {
            let line = textLine.line
            let value = UnsafeBufferPointer(rebasing: line.bytes[textLine.valueStart...])
            let uid = reusing && textLine.roles.contains(.uid) ? recentUIDs.string(for: value) { TextValue.decode(bytes: $0) } : nil
            record.readText(
                value, roles: textLine.roles, name: textLine.name, uid: uid,
                line: contentLine(line, name: textLine.name, valueStart: textLine.valueStart))
        }
    }

    /// A kept line as the `ContentLine` the general path makes of it, from what `classify` found:
    /// its name (uppercased) and where its value starts.
    private static func contentLine(_ line: RawLines.Line, name: String, valueStart: Int) -> ContentLine {
        // Columns count Unicode scalars: every byte that does not continue a UTF-8 sequence.
        var column = 1
        for byte in line.bytes[..<valueStart] where byte & 0xC0 != 0x80 { column += 1 }
        return ContentLine(
            text: String(decoding: line.bytes, as: UTF8.self), line: line.line, name: name, valueColumn: column,
            valueOffset: valueStart)
    }

    /// Where a line's name ends and its value starts (after the first colon outside quotes), if the
    /// name is made of name characters only and the line has a value.
    private static func valueStart(in bytes: UnsafeBufferPointer<UInt8>) -> (nameEnd: Int, valueStart: Int)? {
        var index = 0
        while index < bytes.count, ContentLineScanner.isNameByte(bytes[index]) { index += 1 }
        guard index > 0, index < bytes.count else { return nil }
        let nameEnd = index
        if bytes[index] == 0x3A { return (nameEnd, index + 1) }
        guard bytes[index] == 0x3B else { return nil }
        var inQuotes = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 { inQuotes.toggle() } else if byte == 0x3A, !inQuotes { return (nameEnd, index + 1) }
            index += 1
        }
        return nil
    }
}
