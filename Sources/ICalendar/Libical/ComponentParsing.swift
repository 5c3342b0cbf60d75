internal import CLibical

/// Parses one top-level component with libical, reads it into Swift values and frees the tree, on
/// the calling thread (`ImportPipeline` calls it on its workers; a libical tree never crosses threads).
enum ComponentParsing {
    /// What one component became.
    enum Outcome: Sendable {
        case event(EventRecord)
        /// A VTIMEZONE's rules, or `nil` when it has no TZID.
        case timeZone(ZoneDefinition?)
        /// libical found no component in the text.
        case unparsable
    }

    /// What a VEVENT hands libical.
    enum EventReading: Sendable {
        /// Every property but those whose free text no session uses (`unreadProperties`), for
        /// `streakcal annotate`'s checks and as the reference the session path is tested against.
        case everyProperty
        /// Only the properties whose values need libical's reading (dates, durations, recurrence,
        /// status) and lines that are not well-formed (so libical diagnoses them); the text
        /// properties sessions use (`textProperties`) are read by `TextValue`, the rest not at all.
        case sessionProperties
        /// The properties a session uses, all read by libical's parser and `ComponentReader`, the
        /// text ones too (RDATE, EXDATE and the revision are StreakCal's in every reading): the
        /// general path the session path is held equal to (`SessionImporter.readsThroughLibical`).
        case reference
    }

    /// Properties whose free text no session uses; a VEVENT's are not handed to libical (nor are its
    /// VALARMs), which spares it most of a typical event's bytes. `CalendarWriter` still copies them.
    static let unreadProperties: Set<String> = ["DESCRIPTION", "COMMENT", "X-ALT-DESC", "ATTACH"]

    /// The VEVENT properties libical reads for a session.
    static let libicalProperties: Set<String> = [
        "DTSTART", "DTEND", "DURATION", "STATUS", "RRULE", "EXRULE", "RECURRENCE-ID",
    ]

    /// The VEVENT properties whose lists of dates StreakCal reads itself (`DateListValue`).
    static let dateListProperties: Set<String> = ["RDATE", "EXDATE"]

    /// The VEVENT properties that tell copies of an event apart (`Revision`), read by StreakCal.
    static let revisionProperties: Set<String> = ["SEQUENCE", "DTSTAMP", "LAST-MODIFIED"]

    /// The VEVENT properties a session uses that are plain text.
    static func textProperties(pointsProperty: String, kept: Set<String> = []) -> Set<String> {
        Set(["UID", "SUMMARY", "CATEGORIES", pointsProperty.uppercased(), SessionImporter.annotationMarker]).union(kept)
    }

    /// Every VEVENT property a session uses: what the cutter keeps with `.sessionProperties`.
    static func sessionProperties(pointsProperty: String, kept: Set<String> = []) -> Set<String> {
        libicalProperties.union(textProperties(pointsProperty: pointsProperty, kept: kept)).union(dateListProperties)
            .union(revisionProperties)
    }

    /// Parses one component, reads it into Swift values and frees the tree.
    static func parse(_ lines: ComponentLines, reader: inout ComponentReader, reading: EventReading = .everyProperty) -> Outcome {
        if lines.name == "VEVENT" {
            guard let record = parseEvent(lines, reader: &reader, reading: reading) else { return .unparsable }
            return .event(record)
        }
        var lines = lines.materialized
        let dropped = lines.limitObservanceRules(to: ZoneDefinition.maximumRulesPerObservance)
        guard let parsed = ParsedComponent(parsing: lines.icalendarText) else { return .unparsable }
        var definition = parsed.withView { component in
            _ = reader.locate(component, lines: lines)
            return ZoneDefinition.read(from: component)
        }
        if dropped > 0 {
            definition?.problems.append(
                "\(dropped) RRULEs beyond \(ZoneDefinition.maximumRulesPerObservance) in one STANDARD or DAYLIGHT are ignored")
        }
        return .timeZone(definition)
    }

    /// Parses a VEVENT, reads it into a record and frees the tree; `nil` if libical finds no
    /// component in it.
    static func parseEvent(_ lines: ComponentLines, reader: inout ComponentReader, reading: EventReading) -> EventRecord? {
        if reading == .sessionProperties, let record = parseSessionEvent(lines, reader: &reader) { return record }
        var needed = lines.materialized
        needed.children.removeAll()
        var text: [ContentLine] = []
        switch reading {
        case .everyProperty:
            needed.properties.removeAll { line in
                if dateListProperties.contains(line.name) || revisionProperties.contains(line.name), line.valueColumn != nil {
                    text.append(line)
                    return true
                }
                return unreadProperties.contains(line.name)
            }
        case .sessionProperties, .reference:
            // An event the session path does not read itself is read as the general path reads it:
            // one reading, whichever path an event takes.
            let used = sessionProperties(pointsProperty: reader.pointsProperty, kept: reader.keptProperties)
            needed.properties.removeAll { line in
                if isUnread(line, used: used) { return true }
                guard line.valueColumn != nil else { return false }
                if dateListProperties.contains(line.name) || revisionProperties.contains(line.name) {
                    text.append(line)
                    return true
                }
                // A text value is read from its line (`TextValue`); libical still reads the line,
                // and says what is wrong with its name or parameters.
                if reader.isTextProperty(line.name) { text.append(line) }
                return false
            }
            reader.readsTextFromLines = true
        }
        defer { reader.readsTextFromLines = false }
        let libicalText = reading == .everyProperty ? needed.icalendarText : needed.eventTextWithUppercaseNames
        guard let parsed = ParsedComponent(parsing: libicalText) else { return nil }
        var record = parsed.withView { reader.readEvent($0, lines: needed) }
        reader.readText(text, into: &record)
        return record
    }

    /// Whether a VEVENT line is one no session reads, which the session path's scanner steps over
    /// without decoding it: a name (letters, digits, `-`) followed by `;`, `:` or nothing, not one
    /// of `used`. A line that is not that (no name, other characters in it) is kept, for libical to
    /// say what it is (`ContentLineScanner.isNamedLine`).
    static func isUnread(_ line: ContentLine, used: Set<String>) -> Bool {
        guard !used.contains(line.name), !line.name.isEmpty else { return false }
        return line.name.utf8.allSatisfy(ContentLineScanner.isNameByte)
    }
}

extension ComponentLines {
    /// A component without subcomponents as iCalendar text for libical, each name in capitals:
    /// RFC 5545 (section 2) names are case-insensitive, but libical rejects a lowercase X- name
    /// (`x-points`), which the session path reads. (The lines themselves, which diagnostics
    /// quote, stay as written.)
    var eventTextWithUppercaseNames: String {
        var text = "BEGIN:\(name)\r\n"
        for property in properties {
            let nameLength = property.name.utf8.count
            if property.name.utf8.allSatisfy(ContentLineScanner.isNameByte),
               property.text.utf8.prefix(nameLength).contains(where: { $0 >= 0x61 && $0 <= 0x7A }) {
                text += property.name
                text += String(property.text.utf8.dropFirst(nameLength))!
            } else {
                text += property.text
            }
            text += "\r\n"
        }
        text += "END:\(name)\r\n"
        return text
    }
}

extension ComponentLines {
    /// Keeps at most `limit` RRULE lines in each subcomponent (a VTIMEZONE's STANDARD and DAYLIGHT
    /// have one or two; libical holds each in over two kilobytes); returns how many were dropped.
    mutating func limitObservanceRules(to limit: Int) -> Int {
        var dropped = 0
        for index in children.indices {
            var kept = 0
            children[index].properties.removeAll { line in
                guard line.name == "RRULE" else { return false }
                kept += 1
                if kept > limit { dropped += 1 }
                return kept > limit
            }
        }
        return dropped
    }
}
