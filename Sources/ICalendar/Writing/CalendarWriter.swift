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
/// its name must be an iCalendar name. What fails is left out with a warning. The writer folds the
/// lines itself, at 75 octets and never inside a UTF-8 character: libical 3.0's own folding joins
/// the next line to a value of exactly 73 characters.
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

    /// Copies `sources` into one VCALENDAR, adds `marks` to their events and appends `events`.
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
        _ = Libical.ready
        var properties = FoldedText()
        // The components in runs of one METHOD (RFC 5546), each run a VCALENDAR: an iTIP message
        // (a cancellation, a reply) keeps meaning what it meant.
        var groups: [Group] = []
        var methodLines: [String: String] = [:]
        var firstSource: String?
        var diagnostics: [Diagnostic] = []
        var calendarProperties: Set<String> = []
        var copiedLines: Set<String> = []
        var timeZones: Set<String> = []
        // The first VTIMEZONE of each TZID, as written, and the TZIDs used in the whole output.
        var timeZoneTexts: [String: FoldedText] = [:]
        var zonesUsed = ZoneUses()
        for source in sources {
            var methods: [Int: String] = [:]
            firstSource = firstSource ?? source.name
            var limit = DiagnosticLimit()
            var problems: [Diagnostic] = []
            let sourceMap = InputMap(name: source.name)
            var cutter = ComponentCutter(scanner: ContentLineScanner(bytes: try source.read()))
            while let item = cutter.next() {
                switch item {
                case .calendarProperty(let line, let calendar):
                    if line.name == "METHOD" {
                        let method = String(line.value).trimmingSpaces.uppercased()
                        if !method.isEmpty, methodLines[method] == nil, let written = LineCheck.check(line).written.first {
                            methodLines[method] = written
                        }
                        if methodLines[method] != nil { methods[calendar] = method }
                        continue
                    }
                    guard !line.name.hasPrefix(ownedPropertyPrefix),
                          Self.isSingleValued(line.name) ? !calendarProperties.contains(line.name)
                                                         : !copiedLines.contains(line.text)
                    else { continue }
                    let (written, found) = LineCheck.check(line)
                    for problem in found {
                        problems.append(Diagnostic(
                            .warning, .libical, at: line.location(),
                            "calendar property: \(problem)", sourceLine: line.text))
                    }
                    guard !written.isEmpty else { continue }
                    calendarProperties.insert(line.name)
                    copiedLines.insert(line.text)
                    for text in written { properties.append(line: text) }
                case .component(let lines, let calendar):
                    if lines.properties.contains(where: { $0.name == annotationMarker }) { continue }
                    let tzid = lines.name == "VTIMEZONE" ? lines.property(named: "TZID")?.value.trimmingSpaces : nil
                    if let tzid, !timeZones.insert(tzid).inserted { continue }
                    var extra: [WrittenProperty] = []
                    if lines.name == "VEVENT", let uid = lines.property(named: "UID")?.value.trimmingSpaces,
                       let marked = marks[uid],
                       !lines.properties.contains(where: { ["RRULE", "RDATE", "RECURRENCE-ID"].contains($0.name) }) {
                        extra = marked
                    }
                    // Consecutive calendars of one METHOD share a VCALENDAR; the order of the components
                    // stays as it is (the last of equal copies of an event counts).
                    let method = methods[calendar]
                    if groups.last.map({ $0.method != method }) ?? true { groups.append(Group(method: method)) }
                    var written = FoldedText()
                    var used = ZoneUses()
                    copy(lines, adding: extra, into: &written, problems: &problems, zones: &used, source: sourceMap)
                    let index = groups.count - 1
                    groups[index].components.append(written)
                    if let tzid {
                        let defined = TextValue.decode(Substring(tzid))
                        groups[index].definedZones.insert(defined)
                        if timeZoneTexts[defined] == nil { timeZoneTexts[defined] = written }
                    } else {
                        groups[index].usedZones.merge(used)
                        zonesUsed.merge(used)
                    }
                }
            }
            problems += cutter.allDiagnostics.filter { $0.severity > .note }
            let map = InputMap(name: source.name)
            diagnostics += (limit.admit(SessionImporter.inSourceOrder(problems)) + limit.notes).compactMap(map.diagnostic)
        }
        if groups.isEmpty { groups.append(Group(method: nil)) }
        // Every TZID the output's components use gets a VTIMEZONE in their VCALENDAR: the input's
        // own (from another VCALENDAR of the output, if need be), else one made from the IANA
        // rules the import read the times with; a TZID that names no zone is said once.
        var madeZones: [String: FoldedText?] = [:]
        for index in groups.indices {
            var added = FoldedText()
            for tzid in groups[index].usedZones.order where !groups[index].definedZones.contains(tzid) {
                if let text = timeZoneTexts[tzid] {
                    added.append(text)
                    continue
                }
                if madeZones[tzid] == nil, let use = zonesUsed.uses[tzid] {
                    let made = Self.timeZone(tzid, years: use.years)
                    madeZones[tzid] = .some(made)
                    if made == nil { diagnostics.append(use.unknownZoneWarning) }
                }
                if let made = madeZones[tzid] ?? nil { added.append(made) }
            }
            if !added.bytes.isEmpty {
                added.append(groups[index].components)
                groups[index].components = added
            }
        }
        if groups.count > 1, let file = firstSource {
            diagnostics.append(Diagnostic(
                .warning, .structure, at: SourceLocation(file: file, line: 1),
                "the inputs' VCALENDARs have different METHODs (\(Array(Set(groups.map { $0.method ?? "none" })).sorted().joined(separator: ", "))): the annotated calendar keeps a VCALENDAR for each run of one METHOD, so that each keeps its meaning, with the annotations in the first; some calendar apps read only the first"))
        }
        var text = FoldedText()
        for (index, group) in groups.enumerated() {
            text.append(line: "BEGIN:VCALENDAR")
            if index > 0 || !calendarProperties.contains("VERSION") { text.append(line: "VERSION:2.0") }
            if index > 0 || !calendarProperties.contains("PRODID") { text.append(line: "PRODID:" + LineCheck.escapedText(productID)) }
            if let method = group.method, let line = methodLines[method] { text.append(line: line) }
            if index == 0 { text.append(properties) }
            text.append(group.components)
            if index == 0 {
                let stamp = SessionResolver.recurrenceIDText(LocalDateTime(secondsSince1970: timestamp), isDate: false, isUTC: true)
                for event in events {
                    Self.append(event, stamp: stamp, to: &text)
                }
            }
            text.append(line: "END:VCALENDAR")
        }
        return Output(text: text.text, diagnostics: diagnostics)
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
        var text = FoldedText()
        text.append(line: "BEGIN:VCALENDAR")
        text.append(line: "VERSION:2.0")
        text.append(line: "PRODID:" + LineCheck.escapedText(productID))
        text.append(line: "CALSCALE:GREGORIAN")
        if let calendarName, !calendarName.isEmpty { text.append(line: "X-WR-CALNAME:" + LineCheck.escapedText(calendarName)) }
        let stamp = SessionResolver.recurrenceIDText(LocalDateTime(secondsSince1970: timestamp), isDate: false, isUTC: true)
        for event in events { Self.append(event, stamp: stamp, to: &text) }
        text.append(line: "END:VCALENDAR")
        return text.text
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
        let marker = Array(annotationMarker.utf8)
        for source in sources {
            let bytes = try source.read()
            // Most inputs have no annotation: they are not cut into components at all.
            guard Self.contains(marker, in: bytes) else { continue }
            var cutter = ComponentCutter(scanner: ContentLineScanner(bytes: bytes))
            while let item = cutter.next() {
                guard case .component(let lines, _) = item, lines.properties.contains(where: { $0.name == annotationMarker }),
                      let uid = lines.property(named: "UID") else { continue }
                uids.append(TextValue.decode(uid.value).trimmingSpaces)
            }
        }
        return uids
    }

    /// Whether `bytes` holds `needle` (ASCII upper-case letters, digits and hyphens), in any letter case.
    private static func contains(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = 0
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] & 0xDF == first,
               needle.indices.allSatisfy({ offset in
                   let byte = bytes[index + offset]
                   return byte == needle[offset] || (0x61...0x7A).contains(byte) && byte & 0xDF == needle[offset]
               }) {
                return true
            }
            index += 1
        }
        return false
    }

    /// Copies a component: its BEGIN and END, the lines that pass `LineCheck` (not the writer's own),
    /// `extra` after its own properties, and its subcomponents (never deeper than the cutter allows).
    private func copy(
        _ lines: ComponentLines, adding extra: [WrittenProperty], into text: inout FoldedText,
        problems: inout [Diagnostic], zones: inout ZoneUses, source: InputMap
    ) {
        guard LineCheck.isName(lines.name) else {
            problems.append(Diagnostic(
                .warning, .structure, at: lines.begin.location(),
                "component name \"\(lines.name)\" is not an iCalendar name; the component is not copied", sourceLine: lines.begin.text))
            return
        }
        if lines.name == "VEVENT", let line = lines.properties.first(where: LineCheck.namesImpossibleTime) {
            problems.append(Diagnostic(
                .warning, .libical, at: line.location(),
                "\(line.name) names a date or time that does not exist, so the event counts for nothing; it is not copied",
                sourceLine: line.text))
            return
        }
        text.append(line: "BEGIN:" + lines.name)
        var used = ZoneUses()
        var lastRuleYear: Int?
        for line in lines.properties where !line.name.hasPrefix(ownedPropertyPrefix) && line.name != "X-LIC-ERROR" {
            let (written, found) = LineCheck.check(line)
            for problem in found {
                problems.append(Diagnostic(
                    .warning, .libical, at: line.location(), problem, sourceLine: line.text))
            }
            for written in written {
                text.append(line: written)
                guard lines.name != "VTIMEZONE" else { continue }
                if let (tzid, years) = Self.zoneUse(of: written) {
                    used.note(tzid, years: years, line: line, source: source)
                } else if line.name == "RRULE" || line.name == "EXRULE" {
                    lastRuleYear = max(lastRuleYear ?? .min, Self.lastYear(ofRule: written))
                }
            }
        }
        // A recurring component uses its zones until its rule ends.
        if let lastRuleYear { used.extend(through: lastRuleYear) }
        zones.merge(used)
        for property in extra { text.append(line: property.contentLine) }
        for child in lines.children {
            copy(child, adding: [], into: &text, problems: &problems, zones: &zones, source: source)
        }
        text.append(line: "END:" + lines.name)
    }

    /// The TZID of a written line's times and the years of its DATE-TIME values, if it has both.
    static func zoneUse(of written: String) -> (tzid: String, years: ClosedRange<Int>)? {
        guard written.utf8.count <= LineCheck.longLine, written.contains("TZID=") else { return nil }
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
            for written in LineCheck.check(contentLine).written { text.append(line: written) }
        }
        return text
    }

    /// One VCALENDAR of the output: its METHOD, its components as written, the TZIDs they use and
    /// those its VTIMEZONEs define.
    private struct Group {
        var method: String?
        var components = FoldedText()
        var usedZones = ZoneUses()
        var definedZones: Set<String> = []
    }

    /// Calendar properties a VCALENDAR has once (RFC 5545 3.7, RFC 7986 5, and Apple's and Google's
    /// `X-WR-` names): merged calendars keep the first; other properties are all kept, once each.
    static func isSingleValued(_ name: String) -> Bool {
        ["VERSION", "PRODID", "CALSCALE", "UID", "LAST-MODIFIED", "URL", "REFRESH-INTERVAL", "SOURCE", "COLOR"]
            .contains(name) || name.hasPrefix("X-WR-")
    }

    private static func append(_ event: AllDayEvent, stamp: String, to text: inout FoldedText) {
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
