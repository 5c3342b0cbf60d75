internal import CLibical
public import Streaks

/// The bytes of one calendar input and the name diagnostics use for it.
public struct CalendarSource: Sendable {
    /// The file's name as the user gave it (`-` for standard input).
    public var name: String
    /// The raw bytes (any encoding the importer understands).
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// Reads a file; `-` reads standard input.
    public static func read(path: String) throws(CalendarReadError) -> CalendarSource {
        CalendarSource(name: path, bytes: try SessionImporter.read(path: path))
    }
}

/// A property to write: a name and its value as iCalendar text (TEXT values are escaped on output).
public struct WrittenProperty: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An all-day VEVENT to add to a calendar.
public struct AllDayEvent: Hashable, Sendable {
    /// A stable UID: the same event written again replaces the old one in calendar apps.
    public var uid: String
    /// The day it covers.
    public var day: Day
    /// The title people read in their calendar app.
    public var summary: String
    /// A CSS colour name (RFC 7986 COLOR), such as `green`.
    public var color: String?
    /// CATEGORIES values.
    public var categories: [String]
    /// More properties, typically `X-` ones.
    public var properties: [WrittenProperty]

    public init(uid: String, day: Day, summary: String, color: String? = nil, categories: [String] = [], properties: [WrittenProperty] = []) {
        self.uid = uid
        self.day = day
        self.summary = summary
        self.color = color
        self.categories = categories
        self.properties = properties
    }
}

/// Writes calendars back out through libical: every component of the inputs (VTIMEZONEs included),
/// earlier output of this writer replaced, new all-day events added.
///
/// ```swift
/// let writer = CalendarWriter(ownedPropertyPrefix: "X-STREAKCAL-", annotationMarker: "X-STREAKCAL-ANNOTATION")
/// let output = writer.write([source], adding: [event], timestamp: 1_709_164_800)
/// print(output.text.hasPrefix("BEGIN:VCALENDAR\r\n"))
/// // Prints "true"
/// ```
public struct CalendarWriter: Sendable {
    /// Properties with this prefix are this writer's own: they are removed from the inputs' events
    /// before new ones are added, so that writing again never stacks them.
    public var ownedPropertyPrefix: String
    /// An event that carries this property is this writer's own earlier output, and is replaced.
    public var annotationMarker: String
    /// PRODID for an output whose inputs have none.
    public var productID = "-//StreakCal//StreakCal//EN"

    public init(ownedPropertyPrefix: String, annotationMarker: String) {
        self.ownedPropertyPrefix = ownedPropertyPrefix.uppercased()
        self.annotationMarker = annotationMarker.uppercased()
    }

    /// The written calendar and what was said about the inputs while copying them.
    public struct Output: Sendable {
        /// The iCalendar text: CRLF lines folded at 75 octets, never inside a UTF-8 character.
        public var text: String
        /// Problems found while copying the inputs (unreadable components, libical errors).
        public var diagnostics: [Diagnostic]
    }

    /// Copies `sources` into one VCALENDAR, adds `marks` to their events and appends `events`.
    ///
    /// - Parameters:
    ///   - sources: The calendars to copy, in order; their calendar properties merge (the first of a
    ///     single-valued one such as PRODID wins, others are all kept), VTIMEZONEs are kept once per TZID.
    ///   - events: New all-day events.
    ///   - marks: Properties to add to an input's non-recurring VEVENT, by its UID.
    ///   - timestamp: DTSTAMP of the new events, in seconds since 1970 UTC.
    public func write(
        _ sources: [CalendarSource], adding events: [AllDayEvent], marks: [String: [WrittenProperty]] = [:],
        timestamp: Int64
    ) -> Output {
        _ = Libical.ready
        let root = OutputTree()
        var diagnostics: [Diagnostic] = []
        var calendarProperties: Set<String> = []
        var copiedLines: Set<String> = []
        var timeZones: Set<String> = []
        for source in sources {
            var cutter = ComponentCutter(scanner: ContentLineScanner(bytes: source.bytes, file: source.name), file: source.name)
            while let item = cutter.next() {
                switch item {
                case .calendarProperty(let line, _):
                    guard !line.name.hasPrefix(ownedPropertyPrefix),
                          Self.isSingleValued(line.name) ? calendarProperties.insert(line.name).inserted
                                                         : copiedLines.insert(line.text).inserted
                    else { continue }
                    calendarProperties.insert(line.name)
                    if !root.addProperty(parsing: line.text) {
                        diagnostics.append(Diagnostic(
                            .warning, .libical, at: line.location(file: source.name),
                            "libical cannot read this calendar property; it is not copied", sourceLine: line.text))
                    }
                case .component(let lines, _):
                    guard let parsed = ParsedComponent(parsing: lines.icalendarText) else {
                        diagnostics.append(Diagnostic(
                            .warning, .libical, at: lines.begin.location(file: source.name),
                            "libical cannot read this \(lines.name); it is not copied", sourceLine: lines.begin.text))
                        continue
                    }
                    let component = ComponentView(pointer: parsed.pointer)
                    if component.hasProperty(named: annotationMarker) { continue }
                    if lines.name == "VTIMEZONE", let tzid = lines.property(named: "TZID")?.value.trimmingSpaces,
                       !timeZones.insert(tzid).inserted {
                        continue
                    }
                    component.removeProperties { $0.isError || $0.name.hasPrefix(ownedPropertyPrefix) }
                    for problem in component.removeInvalidProperties() {
                        diagnostics.append(Diagnostic(
                            .warning, .libical, at: lines.begin.location(file: source.name),
                            "\(problem); not copied", sourceLine: lines.begin.text))
                    }
                    if lines.name == "VEVENT", let uid = lines.property(named: "UID")?.value.trimmingSpaces,
                       let extra = marks[uid], !component.isRecurrenceComponent {
                        for property in extra { component.add(property) }
                    }
                    root.adopt(parsed)
                }
            }
            diagnostics += cutter.allDiagnostics.filter { $0.severity > .note }
        }
        if !calendarProperties.contains("VERSION") { root.addProperty(icalproperty_new_version("2.0")) }
        if !calendarProperties.contains("PRODID") { root.addProperty(icalproperty_new_prodid(productID)) }
        let stamp = icaltime_from_timet_with_zone(time_t(timestamp), 0, icaltimezone_get_utc_timezone())
        for event in events {
            root.adopt(Self.makeEvent(event, stamp: stamp))
        }
        return Output(text: Self.withoutControlCharacters(root.text), diagnostics: diagnostics)
    }

    /// The text with control characters inside lines (RFC 5545 3.1 allows none but HTAB) made spaces.
    ///
    /// libical writes some values as they are, control characters and all, which would break the
    /// CRLF line structure; a space takes each one's octet, so folding stays within 75 octets.
    static func withoutControlCharacters(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                index += 2
                continue
            }
            if byte < 0x20 && byte != 0x09 || byte == 0x7F { bytes[index] = 0x20 }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calendar properties a VCALENDAR has once (RFC 5545 3.7, RFC 7986 5, and Apple's and Google's
    /// `X-WR-` names): merged calendars keep the first; other properties are all kept, once each.
    static func isSingleValued(_ name: String) -> Bool {
        ["VERSION", "PRODID", "CALSCALE", "METHOD", "UID", "LAST-MODIFIED", "URL", "REFRESH-INTERVAL", "SOURCE", "COLOR"]
            .contains(name) || name.hasPrefix("X-WR-")
    }

    private static func makeEvent(_ event: AllDayEvent, stamp: icaltimetype) -> OpaquePointer {
        let component = ComponentView(pointer: icalcomponent_new(ICAL_VEVENT_COMPONENT))
        component.add(icalproperty_new_uid(event.uid))
        component.add(icalproperty_new_dtstamp(stamp))
        component.add(icalproperty_new_dtstart(dateValue(event.day)))
        component.add(icalproperty_new_dtend(dateValue(event.day.advanced(by: 1))))
        component.add(icalproperty_new_summary(event.summary))
        component.add(icalproperty_new_transp(ICAL_TRANSP_TRANSPARENT))
        if let color = event.color { component.add(icalproperty_new_color(color)) }
        if !event.categories.isEmpty { component.add(icalproperty_new_categories(event.categories.joined(separator: ","))) }
        for property in event.properties { component.add(property) }
        return component.pointer
    }

    private static func dateValue(_ day: Day) -> icaltimetype {
        ICalTime(local: LocalDateTime(day: day, secondOfDay: 0), isDate: true, isUTC: false, timeZoneID: nil).libicalTime
    }
}

/// The one owner of the tree being written; components added to it are owned by it (libical frees
/// a child with its parent, and never frees a component that has one).
private struct OutputTree: ~Copyable {
    let pointer: OpaquePointer

    init() {
        pointer = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)
    }

    deinit {
        icalcomponent_free(pointer)
    }

    /// Takes over a parsed component: from now on the tree frees it.
    func adopt(_ component: consuming ParsedComponent) {
        icalcomponent_add_component(pointer, component.releasingOwnership())
    }

    /// Takes over a component made here.
    func adopt(_ component: OpaquePointer) {
        icalcomponent_add_component(pointer, component)
    }

    func addProperty(_ property: OpaquePointer?) {
        if let property { icalcomponent_add_property(pointer, property) }
    }

    /// Adds a calendar property parsed from its content line; `false` if libical cannot read it.
    func addProperty(parsing line: String) -> Bool {
        guard let property = line.withCString({ icalproperty_new_from_string($0) }) else { return false }
        if icalproperty_isa(property) == ICAL_XLICERROR_PROPERTY {
            icalproperty_free(property)
            return false
        }
        icalcomponent_add_property(pointer, property)
        return true
    }

    /// The tree as iCalendar text, CRLF, folded by libical at 75 octets on character boundaries.
    var text: String {
        guard let text = icalcomponent_as_ical_string_r(pointer) else { return "" }
        defer { icalmemory_free_buffer(text) }
        return String(cString: text)
    }
}

extension ParsedComponent {
    /// Gives up ownership: the caller (a parent component) frees the tree from now on.
    consuming func releasingOwnership() -> OpaquePointer {
        let pointer = self.pointer
        discard self
        return pointer
    }
}

extension ComponentView {
    func hasProperty(named name: String) -> Bool {
        properties.contains { $0.name == name }
    }

    /// Whether the component is part of a recurring series (RRULE, RDATE or RECURRENCE-ID).
    var isRecurrenceComponent: Bool {
        properties.contains { [ICAL_RRULE_PROPERTY, ICAL_RDATE_PROPERTY, ICAL_RECURRENCEID_PROPERTY].contains($0.kind) }
    }

    /// Removes (and frees) this component's properties that `shouldRemove` picks, and those of its
    /// subcomponents.
    func removeProperties(where shouldRemove: (PropertyView) -> Bool) {
        for property in properties where shouldRemove(property) {
            icalcomponent_remove_property(pointer, property.pointer)
            icalproperty_free(property.pointer)
        }
        for child in children { child.removeProperties(where: shouldRemove) }
    }

    func add(_ property: OpaquePointer?) {
        if let property { icalcomponent_add_property(pointer, property) }
    }

    /// Removes properties whose name is not an iCalendar name, whose DATE or DATE-TIME is no real date
    /// (libical keeps month 0 or day 40 as written), or whose DURATION libical has wrapped around;
    /// returns what was removed, for diagnostics.
    func removeInvalidProperties() -> [String] {
        var removed: [String] = []
        removeProperties { property in
            let name = property.name
            if name.isEmpty || !name.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) {
                removed.append("property name \"\(name)\" is not an iCalendar name")
                return true
            }
            if let value = icalproperty_get_value(property.pointer),
               [ICAL_DATE_VALUE, ICAL_DATETIME_VALUE].contains(icalvalue_isa(value)), !property.hasValidTime {
                removed.append("\(name) \(property.encodedValueText) is not a real date")
                return true
            }
            // libical stores a duration's parts in ints and wraps longer ones without a word.
            if let duration = property.durationValue, duration.days > 1_000_000 {
                removed.append("\(name) \(property.encodedValueText) is longer than libical can hold")
                return true
            }
            return false
        }
        return removed
    }

    func add(_ property: WrittenProperty) {
        let written = icalproperty_new_x(property.value)
        icalproperty_set_x_name(written, property.name)
        add(written)
    }
}
