internal import CLibical
import Foundation
import Streaks

extension RuleText {
    /// The value from its content line when there is one: libical writes back its own reading
    /// (a COUNT beyond 32 bits wrapped, for one), so the line is what the rule says.
    init(_ property: PropertyView, line: ContentLine?) {
        text = line.map { String($0.value).trimmingSpaces } ?? property.encodedValueText
        self.line = line
    }
}

/// Reads libical's components into records, and libical's `X-LIC-ERROR`s into located diagnostics.
///
/// libical reports no positions, but it keeps a component's properties in source order, with each
/// `X-LIC-ERROR` where the line it rejected stood; walking the properties alongside the content
/// lines gives each error its line.
struct ComponentReader {
    let pointsProperty: String
    /// Properties kept for habit filters (`SessionImporter.keptProperties`), uppercased.
    let keptProperties: Set<String>
    var diagnostics: [Diagnostic] = []

    /// libical's kind for the points property (`ICAL_X_PROPERTY` for an X- name).
    let pointsKind: icalproperty_kind
    /// The days whose RDATE and EXDATE values are kept: the import's window with margins (`nil`: all).
    var wantedDays: ClosedRange<Day>?
    /// The most RDATE values an event keeps (`nil`: all): a series uses at most its cap of them
    /// (`RecurrenceExpansion.maximumInstancesPerRule`) and needs one more to know that it is capped,
    /// so a line of a million values costs no more memory than the cap.
    var recurrenceDateLimit: Int?
    /// `ComponentParsing.parseSessionEvent`'s working storage, reused from event to event.
    var sessionEventScratch = ComponentParsing.SessionEventScratch()
    /// The session properties' roles (`ComponentParsing.parseSessionEvent`).
    let sessionLineRoles: PropertyNameTable<ComponentParsing.SessionLineRole>

    /// - Parameter sessionLineRoles: `ComponentParsing.sessionLineRoles(pointsProperty:)`, when the
    ///   caller has it already (the pipeline makes it once for all its readers).
    init(
        pointsProperty: String,
        keptProperties: Set<String> = [],
        sessionLineRoles: PropertyNameTable<ComponentParsing.SessionLineRole>? = nil
    ) {
        self.pointsProperty = pointsProperty.uppercased()
        self.keptProperties = keptProperties
        pointsKind = icalproperty_string_to_kind(self.pointsProperty)
        self.sessionLineRoles = sessionLineRoles
            ?? ComponentParsing.sessionLineRoles(pointsProperty: pointsProperty, kept: keptProperties)
    }

    /// Reads a parsed VEVENT whose content lines are `lines`.
    mutating func readEvent(_ component: ComponentView, lines: ComponentLines) -> EventRecord {
        var record = EventRecord(begin: lines.begin)
        for (property, line) in locate(component, lines: lines) {
            read(property, line: line, into: &record)
        }
        return record
    }

    /// Whether the general path reads text values from their lines (`readText`) rather than from
    /// libical's properties: libical's TEXT reading is not RFC 5545's (3.3.11) — it makes `\x` a
    /// space, drops a lone `\` at the end and control characters, splits CATEGORIES at escaped
    /// commas, and drops an empty value — and the session path reads them with `TextValue`.
    var readsTextFromLines = false

    /// Whether a VEVENT property is read as text by `readText`: UID, SUMMARY, CATEGORIES, the points
    /// property, the annotation marker and the kept properties (those libical reads aside).
    func isTextProperty(_ name: String) -> Bool {
        if name == "SUMMARY" || name == "CATEGORIES" { return true }
        var name = name
        guard case .text? = name.withUTF8({ sessionLineRoles.value(of: $0, in: 0..<$0.count) }) else { return false }
        return true
    }

    /// Reads one of a VEVENT's properties (on `line`, if located) into its record.
    mutating func read(_ property: PropertyView, line: ContentLine?, into record: inout EventRecord) {
        let kind = property.kind
        // Text values are read from their lines (`readsTextFromLines`).
        if readsTextFromLines, kind == ICAL_UID_PROPERTY || kind == ICAL_SUMMARY_PROPERTY || kind == ICAL_CATEGORIES_PROPERTY
            || kind == ICAL_X_PROPERTY || kind == pointsKind || !keptProperties.isEmpty, isTextProperty(property.name) {
            return
        }
        switch kind {
        case ICAL_UID_PROPERTY:
            record.uid = property.valueText
        case ICAL_DTSTART_PROPERTY:
            guard isFirst(property.name, line: line, earlier: record.startLine, in: &record) else { break }
            record.start = time(of: property, line: line, in: &record)
            record.startLine = line ?? record.begin
        case ICAL_DTEND_PROPERTY:
            guard isFirst(property.name, line: line, earlier: record.endLine, in: &record) else { break }
            record.end = time(of: property, line: line, in: &record)
            record.endLine = line ?? record.begin
        case ICAL_DURATION_PROPERTY:
            guard isFirst(property.name, line: line, earlier: record.durationLine, in: &record) else { break }
            record.duration = duration(of: property, line: line, in: &record)
            record.durationLine = line ?? record.begin
        case ICAL_STATUS_PROPERTY:
            record.isCancelled = icalproperty_get_status(property.pointer) == ICAL_STATUS_CANCELLED
        case ICAL_SUMMARY_PROPERTY:
            record.summary = property.valueText
        case ICAL_CATEGORIES_PROPERTY:
            record.categories.append(contentsOf: property.valueText.split(separator: ",").map { $0.trimmingSpaces })
        case ICAL_RRULE_PROPERTY:
            record.recurrenceRules.append(RuleText(property, line: line))
            record.recurrenceLine = record.recurrenceLine ?? line
        case ICAL_EXRULE_PROPERTY:
            record.exceptionRules.append(RuleText(property, line: line))
            record.recurrenceLine = record.recurrenceLine ?? line
        case ICAL_RECURRENCEID_PROPERTY:
            record.recurrenceID = time(of: property, line: line, in: &record)
            record.isThisAndFuture = property.isThisAndFuture
        default:
            break
        }
        if !keptProperties.isEmpty {
            let name = property.name
            if keptProperties.contains(name), record.kept[name] == nil { record.kept[name] = property.valueText }
        }
        // Only an X- property, or one of the points property's kind, can have either name.
        guard kind == ICAL_X_PROPERTY || kind == pointsKind else { return }
        let name = property.name
        if name == SessionImporter.annotationMarker { record.isAnnotation = true }
        if name == pointsProperty, record.points == nil {
            record.points = (property.valueText, line ?? record.begin)
        }
    }

    /// Whether the session path reads a property's plain values itself (`readTime`,
    /// `readDuration`, STATUS): DTSTART, DTEND, RECURRENCE-ID, DURATION and STATUS, unless the
    /// property is also kept for habit filters or is the points property, which want libical's text
    /// of the value.
    func readsItself(_ kind: icalproperty_kind) -> Bool {
        guard kind == ICAL_DTSTART_PROPERTY || kind == ICAL_DTEND_PROPERTY || kind == ICAL_RECURRENCEID_PROPERTY
            || kind == ICAL_DURATION_PROPERTY || kind == ICAL_STATUS_PROPERTY, kind != pointsKind else { return false }
        return keptProperties.isEmpty || !keptProperties.contains(icalproperty_kind_to_string(kind).map { String(cString: $0) } ?? "")
    }

    /// Reads a DURATION line in its strict form as `read` reads the property libical makes of it:
    /// the duration is read from the line (`duration(of:line:in:)`).
    mutating func readDuration(name: String, line: ContentLine, into record: inout EventRecord) {
        guard isFirst(name, line: line, earlier: record.durationLine, in: &record) else { return }
        record.duration = duration(fromLine: line, orLibical: nil, in: &record)
        record.durationLine = line
    }

    /// Reads a real DATE or DATE-TIME of a DTSTART, DTEND or RECURRENCE-ID line as `read` reads the
    /// property libical makes of it (`readsTimesItself(of:)`). The line is made only where it is
    /// kept: a RECURRENCE-ID keeps none.
    mutating func readTime(
        _ time: ICalTime, kind: icalproperty_kind, name: String, line: @autoclosure () -> ContentLine,
        into record: inout EventRecord
    ) {
        switch kind {
        case ICAL_DTSTART_PROPERTY:
            let line = line()
            guard isFirst(name, line: line, earlier: record.startLine, in: &record) else { return }
            record.start = time
            record.startLine = line
        case ICAL_DTEND_PROPERTY:
            let line = line()
            guard isFirst(name, line: line, earlier: record.endLine, in: &record) else { return }
            record.end = time
            record.endLine = line
        default:
            record.recurrenceID = time
            record.isThisAndFuture = false
        }
    }

    /// Whether a DTSTART, DTEND or DURATION is the event's first; a second one is a warning that
    /// says which one is used (RFC 5545 allows one).
    private mutating func isFirst(_ name: String, line: ContentLine?, earlier: ContentLine?, in record: inout EventRecord) -> Bool {
        guard let earlier else { return true }
        let here = line ?? record.begin
        diagnostics.append(Diagnostic(
            .warning, name == "DURATION" ? .badEnd : name == "DTSTART" ? .missingStart : .badEnd,
            at: here.location(),
            "a second \(name) in one event; the first, on line \(earlier.line), is used", sourceLine: here.text))
        return false
    }

    /// A DTSTART, DTEND or RECURRENCE-ID value; one that names no real date and time is an error
    /// at its line, and the event stands for no session.
    private mutating func time(of property: PropertyView, line: ContentLine?, in record: inout EventRecord) -> ICalTime? {
        // (A DATE or DATE-TIME has no colon: what follows the line's last one is the value libical
        // read, also after a TZID with a colon of its own, as Exchange writes `tzone://...`.)
        if let line, property.hasDateValue, let value = line.text.split(separator: ":", omittingEmptySubsequences: false).last,
           !ICalTime.isWellFormed(value) {
            record.hasImpossibleTime = true
            diagnostics.append(Diagnostic(
                .error, Self.timeCode(property.kind), at: line.location(column: line.valueColumn ?? 1),
                "\(property.name) value \"\(value.trimmingSpaces)\" is not a date or a date and time as RFC 5545 writes them (3.3.4, 3.3.5); the event is skipped",
                sourceLine: line.text))
            return nil
        }
        if let time = property.timeValue { return time }
        if property.hasDateValue {
            let here = line ?? record.begin
            record.hasImpossibleTime = true
            diagnostics.append(Diagnostic(
                .error, Self.timeCode(property.kind),
                at: here.location(column: here.valueColumn ?? 1),
                "\(property.name) \(property.encodedValueText) is not a real date and time; the event is skipped",
                sourceLine: here.text))
        }
        return nil
    }

    /// The code of a problem with a DTSTART, a DTEND or a RECURRENCE-ID.
    private static func timeCode(_ kind: icalproperty_kind) -> Diagnostic.Code {
        kind == ICAL_DTSTART_PROPERTY ? .missingStart : kind == ICAL_DTEND_PROPERTY ? .badEnd : .recurrence
    }

    /// A DURATION, read from its line as written when there is one: libical keeps a duration's
    /// parts in 32 bits and wraps longer ones (`PT4294967356S` as one minute).
    private mutating func duration(of property: PropertyView, line: ContentLine?, in record: inout EventRecord) -> ICalDuration? {
        guard let line else { return property.durationValue }
        return duration(fromLine: line, orLibical: property, in: &record)
    }

    /// `duration(of:line:in:)` from the line; libical's reading when the text is not an RFC 5545
    /// duration (never for the strict forms the session path reads itself).
    private mutating func duration(fromLine line: ContentLine, orLibical property: PropertyView?, in record: inout EventRecord) -> ICalDuration? {
        let text = String(line.value).trimmingSpaces
        switch ICalDuration.reading(text) {
        case .duration(let exact):
            return exact
        case .malformed:
            return property?.durationValue  // libical's reading of a form it accepts
        case .tooLong:
            diagnostics.append(Diagnostic(
                .warning, .badEnd, at: line.location(column: line.valueColumn ?? 1),
                "DURATION \(text) is too long to count; the session is kept without a length", sourceLine: line.text))
            return ICalDuration(isNegative: false, days: 0, seconds: 0)
        }
    }

    /// Reads the text properties libical was not given (`ComponentParsing.EventReading.sessionProperties`),
    /// as `readEvent` reads them from libical: the last UID and SUMMARY, every CATEGORIES value, the
    /// first points property; and the RDATE and EXDATE lines (`readDateList`).
    mutating func readText(_ lines: [ContentLine], into record: inout EventRecord) {
        for line in lines {
            var name = line.name
            let role = name.withUTF8 { sessionLineRoles.value(of: $0, in: 0..<$0.count) }
            switch role {
            case .text(let roles, _)?:
                var value = line.value
                value.withUTF8 { record.readText($0, roles: roles, name: line.name, line: line) }
            case .dateList?:
                readDateList(line, into: &record)
            case .revision?:
                var value = line.value
                value.withUTF8 { record.revision.read(line.name, value: $0) }
            default:
                break
            }
        }
    }

    /// Reads an RDATE or EXDATE line (`DateListValue`): values outside `wantedDays` are not kept,
    /// since no instance of the window can come of them, nor RDATE values past `recurrenceDateLimit`;
    /// those that name no real date or time are one warning for the line.
    mutating func readDateList(_ line: ContentLine, into record: inout EventRecord) {
        let isRecurrence = line.name == "RDATE"
        let list: DateListValue
        if isRecurrence {
            let room = recurrenceDateLimit.map { max(0, $0 - record.recurrenceDates.count) }
            list = DateListValue.read(line, keeping: wantedDays, limit: room) { record.recurrenceDates.append($0) }
            record.hasRecurrenceDates = true
            record.recurrenceLine = record.recurrenceLine ?? line
        } else {
            list = DateListValue.read(line, keeping: wantedDays) { record.exceptionDates.append($0.start) }
        }
        guard let first = list.firstUnreadable else { return }
        let what = list.unreadableCount == 1 ? "value \(first)" : "values \(first) and \(list.unreadableCount - 1) more"
        diagnostics.append(Diagnostic(
            .warning, .recurrence, at: line.location(column: line.valueColumn ?? 1),
            "\(line.name) \(what) cannot be read; \(isRecurrence ? "it adds no instance" : "it removes nothing")",
            sourceLine: line.text))
    }

    /// Reports every `X-LIC-ERROR` in a component and its subcomponents; returns the component's own
    /// properties, each with the content line it came from (if found).
    mutating func locate(_ component: ComponentView, lines: ComponentLines) -> [(PropertyView, ContentLine?)] {
        var result: [(PropertyView, ContentLine?)] = []
        var cursor = -1  // index in lines.properties of the line of the last property matched
        var previousName = ""
        let own = lines.properties
        // The lines libical rejected: a later property of the same name is not theirs (an RRULE
        // after an unreadable one is read from its own line).
        var rejected: Set<Int> = []
        for property in component.properties {
            if property.isError {
                let message = property.errorMessage
                let index = errorLineIndex(message, in: own, cursor: cursor, rejected: rejected)
                if let index, index > cursor { rejected.insert(index) }
                // An empty TEXT value is a value (RFC 5545 3.3.11), read from its line; libical drops it.
                if readsTextFromLines, message.hasPrefix("No value for"), let index, isTextProperty(own[index].name),
                   own[index].value.trimmingSpaces.isEmpty {
                    continue
                }
                report(libicalError: message, line: index.map { own[$0] } ?? lines.begin)
                continue
            }
            let name = property.name
            if name == previousName, cursor >= 0, own[cursor].value.contains(","), Self.holds(own[cursor], splitValue: property) {
                // libical splits a multi-valued line ("CATEGORIES:a,b") into one property per value.
                result.append((property, own[cursor]))
                continue
            }
            previousName = name
            if let index = own.indices.dropFirst(cursor + 1).first(where: { own[$0].name == name && !rejected.contains($0) }) {
                cursor = index
                result.append((property, own[index]))
            } else {
                result.append((property, nil))
            }
        }
        // Subcomponents pair up with the line tree in order, by kind.
        var unmatched = lines.children
        for child in component.children {
            let position: Int?
            switch child.kindName {
            case "X"?: position = unmatched.firstIndex { $0.name.hasPrefix("X-") }
            case let kind?: position = unmatched.firstIndex { $0.name == kind }
            case nil: position = unmatched.firstIndex { icalcomponent_string_to_kind($0.name) == ICAL_NO_COMPONENT }
            }
            let childLines = position.map { unmatched.remove(at: $0) }
                ?? ComponentLines(name: child.kindName ?? "", begin: lines.begin)
            _ = locate(child, lines: childLines)
        }
        return result
    }

    /// Whether `line` holds `property` as one of the values libical split it into. libical gives a
    /// text value unescaped (`CATEGORIES:Meeting\, John,Work\, Sarah` gives `Meeting, John` and
    /// `Work, Sarah`), so a text value is looked for in the line's value unescaped too: looked for
    /// as written only, `Work, Sarah` was not found, and the lines after it lost their places
    /// (a fuzz finding, Fuzz/regressions/reading-escaped-comma-in-split-categories.ics).
    private static func holds(_ line: ContentLine, splitValue property: PropertyView) -> Bool {
        line.value.contains(property.encodedValueText) || TextValue.decode(Substring(line.value)).contains(property.valueText)
    }

    /// The line an `X-LIC-ERROR` is about. libical puts the error where the line it rejected stood
    /// (just after the last property it kept) or, when it keeps the property, just after it; the
    /// text the message quotes, or the property it names, decides between the nearby lines.
    private func errorLineIndex(_ message: String, in lines: [ContentLine], cursor: Int, rejected: Set<Int>) -> Int? {
        guard !lines.isEmpty else { return nil }
        // The first line after the cursor that no earlier error took.
        var next = min(cursor + 1, lines.count - 1)
        while rejected.contains(next), next + 1 < lines.count { next += 1 }
        var candidates = [next]
        if cursor >= 0 { candidates.append(cursor) }
        candidates += stride(from: next + 1, to: min(lines.count, next + 8), by: 1)
        if let colon = message.range(of: ": ", options: .backwards) {
            let quoted = String(message[colon.upperBound...]).trimmingSpaces
            if !quoted.isEmpty, let index = candidates.first(where: { lines[$0].text.contains(quoted) }) {
                return index
            }
        }
        if let named = message.range(of: #"[A-Z][A-Z0-9-]* property"#, options: .regularExpression) {
            let name = message[named].split(separator: " ")[0]
            if let index = candidates.first(where: { lines[$0].name == name }) { return index }
        }
        return next
    }

    private mutating func report(libicalError message: String, line: ContentLine) {
        let column = message.contains("VALUE-PARSE") || message.contains("Can't parse as") ? (line.valueColumn ?? 1) : 1
        var text = message
        var severity = Diagnostic.Severity.warning
        if text.hasPrefix("No value for") {
            // An empty value is legal for text properties; libical drops the property, nothing else is lost.
            severity = .note
        }
        if text.hasPrefix("Got a data line, but could not find a property name or component begin tag") {
            text = "not a content line (no property name); ignored"
        } else if let removing = text.range(of: ". Removing entire property") {
            text = String(text[..<removing.lowerBound]) + "; the property is ignored"
        }
        diagnostics.append(Diagnostic(
            severity, .libical, at: line.location(column: column), text, sourceLine: line.text))
    }
}
