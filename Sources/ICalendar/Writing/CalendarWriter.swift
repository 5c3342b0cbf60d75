public import Streaks

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

/// Writes calendars back out: every component and property of the inputs that can be valid
/// iCalendar (VTIMEZONEs once per TZID), earlier output of this writer replaced, new all-day
/// events added.
///
/// Lines are written as the inputs have them (unfolded, the name uppercased), each checked first:
/// libical must read it without error, its dates must exist, its durations must be countable,
/// its name must be an iCalendar name, and a TEXT value must read as StreakCal read it in the
/// input (`LineCheck`). What fails is left out with a warning. The writer folds the lines itself,
/// at 75 octets and never inside a UTF-8 character: libical 3.0's own folding joins the next line
/// to a value of exactly 73 characters.
///
/// The inputs are read a component at a time (`copy(_:marks:noticingAnnotation:)`), and the
/// output is written a piece at a time (`CalendarCopy.write(adding:timestamp:to:)`): memory does
/// not grow with the inputs. `write(_:adding:marks:timestamp:)` does both into memory.
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
    public var productID = "-//StreakCal//StreakCal \(StreakCalVersion.current)//EN"

    public init(ownedPropertyPrefix: String, annotationMarker: String) {
        self.ownedPropertyPrefix = ownedPropertyPrefix.uppercased()
        self.annotationMarker = annotationMarker.uppercased()
    }

    /// The written calendar and what was said about the inputs while copying them.
    public struct Output: Sendable {
        /// The iCalendar text: CRLF lines folded at 75 octets, never inside a UTF-8 character.
        public var text: String
        /// Problems found while copying the inputs (lines left out), at most 100 of a kind per input.
        public var diagnostics: [Diagnostic]
    }

    /// Copies `sources` into one VCALENDAR, adds `marks` to their events and appends `events`, in memory.
    ///
    /// - Parameters:
    ///   - sources: The calendars to copy, in order; their calendar properties merge (the first of a
    ///     single-valued one such as PRODID wins, others are all kept), VTIMEZONEs are kept once per TZID.
    ///   - events: New all-day events.
    ///   - marks: Properties to add to an input's non-recurring VEVENT, by its UID.
    ///   - timestamp: DTSTAMP of the new events, in seconds since 1970 UTC.
    ///
    /// - Throws: `CalendarReadError` when a source cannot be read.
    public func write(
        _ sources: [CalendarSource], adding events: [AllDayEvent], marks: [String: [WrittenProperty]] = [:],
        timestamp: Int64
    ) throws(CalendarReadError) -> Output {
        var output = CalendarBytes()
        do {
            let copy = try copy(sources, marks: marks, memoryLimit: .max)
            let diagnostics = copy.diagnostics
            try copy.write(adding: events, timestamp: timestamp, to: &output)
            return Output(text: output.text, diagnostics: diagnostics)
        } catch .unreadable(let error) {
            throw error
        } catch {
            // A copy held in memory has no file to fail, and memory takes every byte.
            preconditionFailure("a copy in memory failed: \(error)")
        }
    }

    /// Copies `sources`, a component at a time, for `CalendarCopy.write(adding:timestamp:to:)` to
    /// write out: what the copy holds is at most a megabyte of components (the rest waits in a
    /// temporary file), the calendar properties, and what the VTIMEZONEs to add need.
    ///
    /// ```swift
    /// let copy = try writer.copy([.file("work.ics")])
    /// for diagnostic in copy.diagnostics { print(diagnostic) }
    /// var output = CalendarBytes()
    /// try copy.write(adding: events, timestamp: 1_709_164_800, to: &output)
    /// ```
    ///
    /// - Parameters:
    ///   - sources: The calendars to copy, in order, as `write(_:adding:marks:timestamp:)` copies them.
    ///   - marks: Properties to add to an input's non-recurring VEVENT, by its UID.
    ///   - inMemory: Keep the whole copy in memory, never in a temporary file (for a caller that
    ///     holds the output in memory anyway).
    ///   - noticingAnnotation: Called with the UID of each event of this writer's earlier output
    ///     (which is left out), in input order.
    /// - Throws: ``CalendarCopyError/unreadable(_:)`` when a source cannot be read,
    ///   ``CalendarCopyError/scratch(_:)`` when the temporary file cannot be written.
    public func copy(
        _ sources: [CalendarSource], marks: [String: [WrittenProperty]] = [:], inMemory: Bool = false,
        noticingAnnotation: (String) -> Void = { _ in }
    ) throws(CalendarCopyError<Never>) -> CalendarCopy {
        try copy(
            sources, marks: marks, memoryLimit: inMemory ? .max : CopySpool.defaultMemoryLimit, noticingAnnotation: noticingAnnotation)
    }

    /// `copy(_:marks:noticingAnnotation:)`, holding at most `memoryLimit` bytes of components in memory.
    func copy(
        _ sources: [CalendarSource], marks: [String: [WrittenProperty]], memoryLimit: Int,
        noticingAnnotation: (String) -> Void = { _ in }
    ) throws(CalendarCopyError<Never>) -> CalendarCopy {
        _ = Libical.ready
        var copy = CalendarCopy(writer: self, memoryLimit: memoryLimit)
        for source in sources {
            // One input of several that cannot be read is said, as the import says it; the others are copied.
            if case .unreadable(let error) = source.content, sources.count > 1 {
                copy.diagnostics.append(InputMap.unreadable(error, name: source.name))
                continue
            }
            do {
                try copy.copy(source, marks: marks, noticingAnnotation: noticingAnnotation)
            } catch {
                throw .of(error)
            }
        }
        copy.finish()
        return copy
    }

    /// A calendar of `events` alone: VERSION, PRODID, CALSCALE and, given a name, `X-WR-CALNAME`
    /// (the name Apple, Google and Outlook show for a calendar), then the events.
    ///
    /// ```swift
    /// let text = writer.write([event], calendarName: "Piano (StreakCal)", timestamp: 1_709_164_800)
    /// print(text.split(separator: "\r\n")[4])
    /// // Prints "X-WR-CALNAME:Piano (StreakCal)"
    /// ```
    ///
    /// - Parameters:
    ///   - events: The all-day events.
    ///   - calendarName: The calendar's name, if it has one.
    ///   - timestamp: DTSTAMP of the events, in seconds since 1970 UTC.
    public func write(_ events: [AllDayEvent], calendarName: String?, timestamp: Int64) -> String {
        var output = CalendarBytes()
        write(events, calendarName: calendarName, timestamp: timestamp, to: &output)
        return output.text
    }

    /// `write(_:calendarName:timestamp:)` to `output`, a piece at a time.
    public func write<Output: CalendarOutput & ~Copyable>(
        _ events: some Sequence<AllDayEvent>, calendarName: String?, timestamp: Int64, to output: inout Output
    ) throws(Output.Failure) {
        var text = FoldedText()
        text.append(line: "BEGIN:VCALENDAR")
        text.append(line: "VERSION:2.0")
        text.append(line: "PRODID:" + LineCheck.escapedText(productID))
        text.append(line: "CALSCALE:GREGORIAN")
        if let calendarName, !calendarName.isEmpty { text.append(line: "X-WR-CALNAME:" + LineCheck.escapedText(calendarName)) }
        let stamp = SessionResolver.recurrenceIDText(LocalDateTime(secondsSince1970: timestamp), isDate: false, isUTC: true)
        for event in events {
            Self.append(event, stamp: stamp, to: &text)
            if text.bytes.count >= CopySpool.pieceSize { try text.flush(to: &output) }
        }
        text.append(line: "END:VCALENDAR")
        try text.flush(to: &output)
    }

    /// The UIDs of this writer's earlier output in `sources` (events that carry `annotationMarker`),
    /// in input order.
    ///
    /// ```swift
    /// let earlier = try writer.annotationUIDs(in: [.string(annotatedText, name: "annotated.ics")])
    /// print(earlier.first ?? "")
    /// // Prints "2024-02-20.piano@streakcal.local"
    /// ```
    ///
    /// - Throws: `CalendarReadError` when a source cannot be read.
    public func annotationUIDs(in sources: [CalendarSource]) throws(CalendarReadError) -> [String] {
        var uids: [String] = []
        try annotationUIDs(in: sources) { uids.append($0) }
        return uids
    }

    /// Calls `body` with the UID of each event of this writer's earlier output in `sources`, in
    /// input order, reading each input as it goes (of a VEVENT, only its UID and marker lines are
    /// decoded: `ComponentCutter`'s `eventProperties`).
    public func annotationUIDs(in sources: [CalendarSource], _ body: (String) -> Void) throws(CalendarReadError) {
        for source in sources {
            if case .unreadable = source.content, sources.count > 1 { continue }
            var cutter = try CalendarCopy.cutter(for: source, eventProperties: [annotationMarker, "UID"])
            while let item = cutter.next() {
                guard case .component(let lines, _) = item, lines.properties.contains(where: { $0.name == annotationMarker }),
                      let uid = lines.property(named: "UID") else { continue }
                body(TextValue.decode(uid.value).trimmingSpaces)
            }
            if let code = cutter.readFailure { throw CalendarReadError(path: source.name, systemError: code) }
        }
    }

    /// The TZID of a written line's times and the years of its DATE-TIME values, if it has both.
    static func zoneUse(of written: String) -> (tzid: String, years: ClosedRange<Int>)? {
        guard written.utf8.count <= LineCheck.longLine, mentionsTZID(written) else { return nil }
        var text = written
        let line = text.withUTF8 { ContentLineScanner.contentLine($0, line: 0, isLatin1: false) }
        guard let tzid = DateListValue.parameters(of: line).first(where: { $0.name == "TZID" })?.value, !tzid.isEmpty
        else { return nil }
        var years: ClosedRange<Int>?
        let value = Array(line.value.utf8)
        var index = 0
        // DATE-TIME values (`20240605T090000`, in lists and periods): their first four digits.
        while index + 9 <= value.count {
            let digits = value[index..<(index + 8)].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            if digits, value[index + 8] == UInt8(ascii: "T"), index == 0 || !(0x30...0x39).contains(value[index - 1]) {
                let year = value[index..<(index + 4)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
                years = years.map { min($0.lowerBound, year)...max($0.upperBound, year) } ?? year...year
                index += 9
            } else {
                index += 1
            }
        }
        return years.map { (tzid, $0) }
    }

    /// Whether `written` holds `TZID=`, looked for in its bytes: most lines have none, and a search
    /// by Characters (or the generic one of `firstRange(of:)`) costs more than the rest of their copy.
    private static func mentionsTZID(_ written: String) -> Bool {
        let needle = Array("TZID=".utf8)
        return written.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.count >= needle.count else { return false }
            return (0...(bytes.count - needle.count)).contains { start in
                bytes[start] == needle[0] && needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
            }
        } ?? written.contains("TZID=")
    }

    /// The last year a written RRULE or EXRULE has instances in: its UNTIL's, or for a rule
    /// without UNTIL the last year a generated VTIMEZONE can cover (`YearlyRule.lastTableYear`).
    static func lastYear(ofRule written: String) -> Int {
        let endless = YearlyRule.lastTableYear + 1
        let parts = written.split(separator: ":", maxSplits: 1).last?.split(separator: ";") ?? []
        guard let until = parts.first(where: { $0.hasPrefix("UNTIL=") }), let year = Int(until.dropFirst(6).prefix(4))
        else { return endless }
        return year
    }

    /// A VTIMEZONE for `tzid` made from the IANA rules StreakCal reads it with (`TimeZoneComponent`),
    /// covering `years`, its lines checked as copied lines are; `nil` when StreakCal knows no such zone.
    static func timeZone(_ tzid: String, years: ClosedRange<Int>) -> FoldedText? {
        guard let resolution = TimeZoneDatabase.shared.resolve(tzid) else { return nil }
        let component = TimeZoneComponent(
            tzid: tzid, rules: resolution.rules, ianaIdentifier: resolution.alias ?? tzid, years: years)
        var text = FoldedText()
        for line in component.contentLines {
            if line.hasPrefix("BEGIN:") || line.hasPrefix("END:") {
                text.append(line: line)
                continue
            }
            var bytes = line
            let contentLine = bytes.withUTF8 { ContentLineScanner.contentLine($0, line: 0, isLatin1: false) }
            for written in LineCheck.checkedText(contentLine) { text.append(line: written) }
        }
        return text
    }

    /// Calendar properties a VCALENDAR has once (RFC 5545 3.7, RFC 7986 5, and Apple's and Google's
    /// `X-WR-` names): merged calendars keep the first; other properties are all kept, once each.
    static func isSingleValued(_ name: String) -> Bool {
        ["VERSION", "PRODID", "CALSCALE", "UID", "LAST-MODIFIED", "URL", "REFRESH-INTERVAL", "SOURCE", "COLOR"]
            .contains(name) || name.hasPrefix("X-WR-")
    }

    /// The days an all-day event can be written for: a DATE has a four-digit year (RFC 5545
    /// §3.3.4), and the event's DTEND is the next day.
    public static let writableDays: ClosedRange<Day> = Day(normalizingYear: 1, month: 1, day: 1)...Day(normalizingYear: 9999, month: 12, day: 30)

    /// Appends a new all-day event (RFC 5545 3.6.1: a DATE DTSTART and the next day as DTEND),
    /// TRANSPARENT; one whose day is outside ``writableDays`` is left out (its DATE would not be one).
    static func append(_ event: AllDayEvent, stamp: String, to text: inout FoldedText) {
        guard writableDays.contains(event.day) else { return }
        text.append(line: "BEGIN:VEVENT")
        text.append(line: "UID:" + LineCheck.escapedText(event.uid))
        text.append(line: "DTSTAMP:" + stamp)
        text.append(line: "DTSTART;VALUE=DATE:" + dateText(event.day))
        text.append(line: "DTEND;VALUE=DATE:" + dateText(event.day.advanced(by: 1)))
        text.append(line: "SUMMARY:" + LineCheck.escapedText(event.summary))
        text.append(line: "TRANSP:TRANSPARENT")
        if let color = event.color { text.append(line: "COLOR:" + LineCheck.escapedText(color)) }
        if !event.categories.isEmpty {
            text.append(line: "CATEGORIES:" + event.categories.map(LineCheck.escapedText).joined(separator: ","))
        }
        for property in event.properties { text.append(line: property.contentLine) }
        text.append(line: "END:VEVENT")
    }

    private static func dateText(_ day: Day) -> String {
        SessionResolver.recurrenceIDText(LocalDateTime(day: day, secondOfDay: 0), isDate: true, isUTC: false)
    }
}

extension WrittenProperty {
    /// The property as a content line: its name (made an iCalendar name), its value as TEXT.
    var contentLine: String {
        let name = String(name.uppercased().unicodeScalars.map { LineCheck.isNameScalar($0) ? Character($0) : "-" })
        return (name.isEmpty ? "X-" : name) + ":" + LineCheck.escapedText(value)
    }
}

/// The TZIDs written components use, in the order of first use, each with the years of its times
/// and what to say if no zone can be found for it (at the first line that uses it).
struct ZoneUses: Sendable {
    struct Use: Sendable {
        var years: ClosedRange<Int>
        var unknownZoneWarning: Diagnostic
    }

    private(set) var order: [String] = []
    private(set) var uses: [String: Use] = [:]

    /// Notes a line's use of `tzid` in `years`.
    mutating func note(_ tzid: String, years: ClosedRange<Int>, line: ContentLine, source: InputMap) {
        if let use = uses[tzid] {
            uses[tzid]?.years = min(use.years.lowerBound, years.lowerBound)...max(use.years.upperBound, years.upperBound)
            return
        }
        let warning = Diagnostic(
            .warning, .unknownTimeZone, at: line.location(),
            "TZID \"\(tzid)\" is defined by no VTIMEZONE and names no time zone StreakCal knows, so the annotated calendar has no VTIMEZONE for it: its events are copied as they are, and calendar apps may read their times as floating times or refuse them",
            sourceLine: line.text)
        order.append(tzid)
        uses[tzid] = Use(years: years, unknownZoneWarning: source.diagnostic(warning) ?? warning)
    }

    /// Every use extended to `year` (a recurring component's last).
    mutating func extend(through year: Int) {
        for tzid in order {
            guard let use = uses[tzid], use.years.upperBound < year else { continue }
            uses[tzid]?.years = use.years.lowerBound...year
        }
    }

    /// Adds `other`'s uses: years widened, the first warning kept.
    mutating func merge(_ other: ZoneUses) {
        for tzid in other.order {
            guard let use = other.uses[tzid] else { continue }
            if let mine = uses[tzid] {
                uses[tzid]?.years = min(mine.years.lowerBound, use.years.lowerBound)...max(mine.years.upperBound, use.years.upperBound)
            } else {
                order.append(tzid)
                uses[tzid] = use
            }
        }
    }
}
