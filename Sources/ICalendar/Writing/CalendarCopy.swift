import Foundation
import Streaks

/// Calendars copied by `CalendarWriter.copy(_:marks:noticingAnnotation:)`, ready to be written out:
/// their components in a spool (`CopySpool`), and what must come before or after them, which is
/// known only once every input is read.
///
/// The output is one VCALENDAR for each run of components of one METHOD (RFC 5546), each with
/// VERSION and PRODID, its METHOD, the VTIMEZONEs its components use and no input of it defines
/// (RFC 5545 3.6.5: one for each TZID), then its components in input order; the first also has
/// the calendar properties of every input (RFC 5545 3.7) before its components, and the new
/// events after them. The copy reads each input once, a component at a time, and keeps only
/// that: the components go to the spool, and memory holds the calendar properties, the TZIDs used
/// (with their years) and the VTIMEZONEs made for them, and at most 100 diagnostics of a kind per input.
///
/// ```swift
/// let copy = try writer.copy([.file("work.ics")])
/// print(copy.diagnostics.count)
/// var output = CalendarBytes()
/// try copy.write(adding: [], timestamp: 1_709_164_800, to: &output)
/// ```
public struct CalendarCopy: ~Copyable {
    let writer: CalendarWriter
    private var spool: CopySpool
    /// The VCALENDARs of the output, in order.
    private var groups: [Group] = []
    private var header = CalendarHeader()
    private var zones = ZoneRecord()
    private var firstSource: String?
    /// Problems found while copying the inputs (lines left out), at most 100 of a kind per input.
    public internal(set) var diagnostics: [Diagnostic] = []

    /// The most bytes the copy kept in memory for the components it copied (tests hold it to its limit).
    var largestSpooledInMemory: Int { spool.largestPending }
    /// Whether the copied components went to a temporary file.
    var isSpooledToFile: Bool { spool.isInFile }

    init(writer: CalendarWriter, memoryLimit: Int) {
        self.writer = writer
        spool = CopySpool(memoryLimit: memoryLimit)
    }

    /// One VCALENDAR of the output: its METHOD, where its components start in the spool, the TZIDs
    /// they use and those its VTIMEZONEs define, and (once the copy is finished) the VTIMEZONEs
    /// to add before them.
    private struct Group {
        var method: String?
        var start: Int
        var usedZones = ZoneUses()
        var definedZones: Set<String> = []
        var addedZones: [AddedZone] = []
    }

    /// A VTIMEZONE added to a VCALENDAR: an input's own, as the spool has it, or one made from the
    /// IANA rules of a TZID (`CalendarWriter.timeZone(_:years:)`).
    private enum AddedZone {
        case copied(Range<Int>)
        case made(FoldedText)
    }

    /// The calendar properties of every input, merged (`copyCalendarProperty`), and the METHOD
    /// lines as written, by method.
    private struct CalendarHeader {
        var properties = FoldedText()
        var names: Set<String> = []
        var copiedLines: Set<String> = []
        var methodLines: [String: String] = [:]
    }

    /// The VTIMEZONEs copied (the first of each TZID, where the spool has it) and the TZIDs the
    /// output's components use, with the years they use them in.
    private struct ZoneRecord {
        var copiedTZIDs: Set<String> = []
        var texts: [String: Range<Int>] = [:]
        var used = ZoneUses()
    }

    /// What the copy of one input says and needs: its VCALENDARs' METHODs, and its problems.
    private struct SourceCopy {
        let map: InputMap
        var methods: [Int: String] = [:]
        var problems = SourceProblems()
    }
}

// MARK: Copying the inputs

extension CalendarCopy {
    /// Copies one input, a component at a time, into the spool.
    ///
    /// - Parameters:
    ///   - marks: Properties to add to an input's non-recurring VEVENT, by its UID.
    ///   - noticingAnnotation: Called with the UID of each event the writer wrote before (one that
    ///     carries its annotation marker), which is left out.
    mutating func copy(
        _ source: CalendarSource, marks: [String: [WrittenProperty]], noticingAnnotation: (String) -> Void
    ) throws {
        firstSource = firstSource ?? source.name
        var cutter = try Self.cutter(for: source)
        var input = SourceCopy(map: InputMap(name: source.name, collection: source.collection))
        while let item = cutter.next() {
            input.problems.add(cut: cutter.takeDiagnostics())
            switch item {
            case .calendarProperty(let line, let calendar):
                copyCalendarProperty(line, calendar: calendar, in: &input)
            case .component(let lines, let calendar):
                try copyComponent(lines, calendar: calendar, marks: marks, in: &input, noticingAnnotation: noticingAnnotation)
            }
        }
        input.problems.add(cut: cutter.takeDiagnostics())
        if let code = cutter.readFailure { throw CalendarReadError(path: source.name, systemError: code) }
        diagnostics += input.problems.admitted.compactMap(input.map.diagnostic)
    }

    /// A cutter over the input, reading it as it goes; with `eventProperties`, a VEVENT keeps only
    /// the lines of those properties (`ComponentCutter.init(scanner:eventProperties:)`).
    static func cutter(for source: CalendarSource, eventProperties: Set<String>? = nil) throws(CalendarReadError) -> ComponentCutter {
        if case .bytes(let bytes) = source.content {
            return ComponentCutter(scanner: ContentLineScanner(bytes: bytes), eventProperties: eventProperties)
        }
        return ComponentCutter(scanner: ContentLineScanner(input: try input(of: source)), eventProperties: eventProperties)
    }

    /// The input's bytes, read a chunk at a time (bytes in memory where they are; standard input,
    /// and anything else that is not a regular file, as `SessionImporter.openInput(path:)` reads it).
    static func input(of source: CalendarSource) throws(CalendarReadError) -> InputBytes {
        let open: () throws(CalendarReadError) -> Int32
        switch source.content {
        case .bytes(let bytes): return InputBytes(bytes: bytes)
        case .unreadable(let error): throw error
        case .file(let path): open = { () throws(CalendarReadError) in try SessionImporter.openInput(path: path) }
        case .standardInput: open = SessionImporter.openStandardInput
        }
        do {
            return InputBytes(reading: try open(), owning: true)
        } catch {
            throw error.naming(source.name)
        }
    }

    /// A property of an input's VCALENDAR: its METHOD is kept for its components; any other is
    /// kept for the output's first VCALENDAR once (the first of a single-valued one such as
    /// PRODID, every distinct line of others), unless it is the writer's own.
    private mutating func copyCalendarProperty(_ line: ContentLine, calendar: Int, in input: inout SourceCopy) {
        if line.name == "METHOD" {
            let method = String(line.value).trimmingSpaces.uppercased()
            if !method.isEmpty, header.methodLines[method] == nil, let written = LineCheck.checkedText(line).first {
                header.methodLines[method] = written
            }
            if header.methodLines[method] != nil { input.methods[calendar] = method }
            return
        }
        guard !line.name.hasPrefix(writer.ownedPropertyPrefix),
              CalendarWriter.isSingleValued(line.name) ? !header.names.contains(line.name) : !header.copiedLines.contains(line.text)
        else { return }
        let (written, found) = LineCheck.check(line)
        for problem in found {
            input.problems.add(Diagnostic(
                .warning, .libical, at: line.location(column: problem.column), "calendar property: \(problem.message)",
                sourceLine: line.text))
        }
        guard !written.isEmpty else { return }
        header.names.insert(line.name)
        header.copiedLines.insert(line.text)
        for line in written {
            switch line {
            case .text(let text): header.properties.append(line: text)
            case .long(let long):
                long.forEachPiece { header.properties.appendPiece($0) }
                header.properties.endLine()
            }
        }
    }

    /// A top-level component: left out when it is the writer's own earlier output, or a VTIMEZONE
    /// of a TZID copied before; else copied into the VCALENDAR of its METHOD, with `marks` for a
    /// single VEVENT.
    private mutating func copyComponent(
        _ lines: ComponentLines, calendar: Int, marks: [String: [WrittenProperty]], in input: inout SourceCopy,
        noticingAnnotation: (String) -> Void
    ) throws {
        if lines.properties.contains(where: { $0.name == writer.annotationMarker }) {
            if let uid = lines.property(named: "UID") { noticingAnnotation(TextValue.decode(uid.value).trimmingSpaces) }
            return
        }
        let tzid = lines.name == "VTIMEZONE" ? lines.property(named: "TZID")?.value.trimmingSpaces : nil
        if let tzid, !zones.copiedTZIDs.insert(tzid).inserted { return }
        // Consecutive calendars of one METHOD share a VCALENDAR; the order of the components
        // stays as it is (the last of equal copies of an event counts).
        let method = input.methods[calendar]
        if groups.last.map({ $0.method != method }) ?? true { groups.append(Group(method: method, start: spool.count)) }
        let start = spool.count
        var used = ZoneUses()
        try copyLines(lines, adding: extraProperties(of: lines, marks: marks), problems: &input.problems, zones: &used, source: input.map)
        let index = groups.count - 1
        if let tzid {
            let defined = TextValue.decode(Substring(tzid))
            groups[index].definedZones.insert(defined)
            if zones.texts[defined] == nil { zones.texts[defined] = start..<spool.count }
        } else {
            groups[index].usedZones.merge(used)
            zones.used.merge(used)
        }
    }

    /// The marks of a single VEVENT (no RRULE, RDATE or RECURRENCE-ID: one that stands for one
    /// day), by its UID as the import reads it (`TextValue`).
    private func extraProperties(of lines: ComponentLines, marks: [String: [WrittenProperty]]) -> [WrittenProperty] {
        guard !marks.isEmpty, lines.name == "VEVENT", let uid = lines.property(named: "UID"),
              let marked = marks[TextValue.decode(uid.value)],
              !lines.properties.contains(where: { ["RRULE", "RDATE", "RECURRENCE-ID"].contains($0.name) })
        else { return [] }
        return marked
    }

    /// Copies a component: its BEGIN and END, the lines that pass `LineCheck` (not the writer's own),
    /// `extra` after its own properties, and its subcomponents (never deeper than the cutter allows).
    private mutating func copyLines(
        _ lines: ComponentLines, adding extra: [WrittenProperty], problems: inout SourceProblems, zones: inout ZoneUses,
        source: InputMap
    ) throws {
        guard LineCheck.isName(lines.name) else {
            problems.add(Diagnostic(
                .warning, .structure, at: lines.begin.location(),
                "component name \"\(lines.name)\" is not an iCalendar name; the component is not copied", sourceLine: lines.begin.text))
            return
        }
        if lines.name == "VEVENT", let line = lines.properties.first(where: LineCheck.namesImpossibleTime) {
            problems.add(Diagnostic(
                .warning, .libical, at: line.location(),
                "\(line.name) names a date or time that does not exist, so the event counts for nothing; it is not copied",
                sourceLine: line.text))
            return
        }
        try spool.append(line: "BEGIN:" + lines.name)
        var used = ZoneUses()
        var lastRuleYear: Int?
        for line in lines.properties where !line.name.hasPrefix(writer.ownedPropertyPrefix) && line.name != "X-LIC-ERROR" {
            let (written, found) = LineCheck.check(line)
            for problem in found {
                problems.add(Diagnostic(.warning, .libical, at: line.location(column: problem.column), problem.message, sourceLine: line.text))
            }
            for written in written {
                try spool.append(written)
                guard lines.name != "VTIMEZONE", case .text(let text) = written else { continue }
                if let (tzid, years) = CalendarWriter.zoneUse(of: text) {
                    used.note(tzid, years: years, line: line, source: source)
                } else if line.name == "RRULE" || line.name == "EXRULE" {
                    lastRuleYear = max(lastRuleYear ?? .min, CalendarWriter.lastYear(ofRule: text))
                }
            }
        }
        // A recurring component uses its zones until its rule ends.
        if let lastRuleYear { used.extend(through: lastRuleYear) }
        zones.merge(used)
        for property in extra { try spool.append(line: property.contentLine) }
        for child in lines.children {
            try copyLines(child, adding: [], problems: &problems, zones: &zones, source: source)
        }
        try spool.append(line: "END:" + lines.name)
    }

    /// Decides what comes before the components, once every input is copied: every TZID a
    /// VCALENDAR's components use gets a VTIMEZONE in it (RFC 5545 3.6.5), the input's own (from
    /// another VCALENDAR of the output, if need be), else one made from the IANA rules the import
    /// read the times with; a TZID that names no zone is said once. Calendars of several METHODs
    /// are said once too.
    mutating func finish() {
        if groups.isEmpty { groups.append(Group(method: nil, start: spool.count)) }
        var madeZones: [String: FoldedText?] = [:]
        for index in groups.indices {
            for tzid in groups[index].usedZones.order where !groups[index].definedZones.contains(tzid) {
                if let copied = zones.texts[tzid] {
                    groups[index].addedZones.append(.copied(copied))
                    continue
                }
                if madeZones[tzid] == nil, let use = zones.used.uses[tzid] {
                    let made = CalendarWriter.timeZone(tzid, years: use.years)
                    madeZones[tzid] = .some(made)
                    if made == nil { diagnostics.append(use.unknownZoneWarning) }
                }
                if let made = madeZones[tzid] ?? nil { groups[index].addedZones.append(.made(made)) }
            }
        }
        if groups.count > 1, let file = firstSource {
            let methods = Array(Set(groups.map { $0.method ?? "none" })).sorted().joined(separator: ", ")
            diagnostics.append(Diagnostic(
                .warning, .structure, at: SourceLocation(file: file, line: 1),
                "the inputs' VCALENDARs have different METHODs (\(methods)): the annotated calendar keeps a VCALENDAR for each run of one METHOD, so that each keeps its meaning, with the annotations in the first; some calendar apps read only the first"))
        }
    }
}

// MARK: Writing the output

extension CalendarCopy {
    /// Writes the copy to `output`: each VCALENDAR with what comes before its components, the
    /// components, and in the first `events` (their DTSTAMP `timestamp`, in seconds since 1970 UTC).
    ///
    /// - Throws: ``CalendarCopyError/output(_:)`` with what `output` threw,
    ///   ``CalendarCopyError/scratch(_:)`` when the copy cannot be read back from its temporary file.
    public consuming func write<Output: CalendarOutput & ~Copyable>(
        adding events: some Sequence<AllDayEvent>, timestamp: Int64, to output: inout Output
    ) throws(CalendarCopyError<Output.Failure>) {
        do {
            try writeSteps(adding: events, timestamp: timestamp, to: &output)
        } catch {
            throw .of(error)
        }
    }

    /// ``write(adding:timestamp:to:)``'s steps, each throwing its own error.
    private func writeSteps(
        adding events: some Sequence<AllDayEvent>, timestamp: Int64, to output: inout some CalendarOutput & ~Copyable
    ) throws {
        var buffer = FoldedText()
        for index in groups.indices {
            appendHeader(of: index, to: &buffer)
            for zone in groups[index].addedZones {
                switch zone {
                case .made(let text): buffer.append(text)
                case .copied(let range): try write(range, after: &buffer, to: &output)
                }
            }
            let end = index + 1 < groups.count ? groups[index + 1].start : spool.count
            try write(groups[index].start..<end, after: &buffer, to: &output)
            if index == 0 {
                let stamp = SessionResolver.recurrenceIDText(LocalDateTime(secondsSince1970: timestamp), isDate: false, isUTC: true)
                for event in events {
                    CalendarWriter.append(event, stamp: stamp, to: &buffer)
                    if buffer.bytes.count >= CopySpool.pieceSize { try buffer.flush(to: &output) }
                }
            }
            buffer.append(line: "END:VCALENDAR")
        }
        try buffer.flush(to: &output)
    }

    /// The lines of a VCALENDAR before its VTIMEZONEs: VERSION and PRODID (the inputs' own in the
    /// first, if they have them), its METHOD, and in the first the inputs' calendar properties.
    private func appendHeader(of index: Int, to buffer: inout FoldedText) {
        buffer.append(line: "BEGIN:VCALENDAR")
        if index > 0 || !header.names.contains("VERSION") { buffer.append(line: "VERSION:2.0") }
        if index > 0 || !header.names.contains("PRODID") { buffer.append(line: "PRODID:" + LineCheck.escapedText(writer.productID)) }
        if let method = groups[index].method, let line = header.methodLines[method] { buffer.append(line: line) }
        if index == 0 { buffer.append(header.properties) }
    }

    /// Writes what `buffer` holds, then the spool's bytes in `range`.
    private func write(_ range: Range<Int>, after buffer: inout FoldedText, to output: inout some CalendarOutput & ~Copyable) throws {
        guard !range.isEmpty else { return }
        try buffer.flush(to: &output)
        try spool.forEachPiece(in: range) { try output.write($0) }
    }
}

/// What one input's copy says, as `DiagnosticLimit` admits it after sorting all of it by place
/// (`SessionImporter.inSourceOrder`): the first `perKind` of each kind, and a note of how many
/// more there were, without keeping those. The copy's own diagnostics come before the scanner's,
/// and those before the cutter's, where they are about the same place.
struct SourceProblems {
    /// Diagnostics of one kind, kept with their place in the order, the last (largest) one known.
    private struct Kind {
        var kept: [(order: Order, diagnostic: Diagnostic)] = []
        var largest = 0
        var count = 0
    }

    /// Where a diagnostic sorts: line, column, whose it is (the copy's, the scanner's, the
    /// cutter's), then when it came.
    private struct Order: Comparable {
        var line: Int
        var column: Int
        var source: Int
        var arrival: Int

        static func < (lhs: Order, rhs: Order) -> Bool {
            (lhs.line, lhs.column, lhs.source, lhs.arrival) < (rhs.line, rhs.column, rhs.source, rhs.arrival)
        }
    }

    private var kinds: [Diagnostic.Code: Kind] = [:]
    private var arrivals = 0
    private var lastLine = 1
    let perKind = SessionImporter.diagnosticsPerKind

    /// Adds a diagnostic of the copy.
    mutating func add(_ diagnostic: Diagnostic) {
        add(diagnostic, source: 0)
    }

    /// Adds what the scanner and the cutter said (`ComponentCutter.takeDiagnostics()`); notes are
    /// not the copy's to say (the import says them).
    mutating func add(cut diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics where diagnostic.severity > .note {
            // The scanner says what is wrong with lines and bytes, the cutter what is wrong with components.
            add(diagnostic, source: [.malformedLine, .encoding].contains(diagnostic.code) ? 1 : 2)
        }
    }

    private mutating func add(_ diagnostic: Diagnostic, source: Int) {
        arrivals += 1
        lastLine = max(lastLine, diagnostic.location.line)
        let order = Order(line: diagnostic.location.line, column: diagnostic.location.column, source: source, arrival: arrivals)
        var kind = kinds[diagnostic.code, default: Kind()]
        kinds[diagnostic.code] = nil
        kind.count += 1
        if kind.kept.count < perKind {
            kind.kept.append((order, diagnostic))
            if kind.kept.count == 1 || order > kind.kept[kind.largest].order { kind.largest = kind.kept.count - 1 }
        } else if order < kind.kept[kind.largest].order {
            kind.kept[kind.largest] = (order, diagnostic)
            kind.largest = kind.kept.indices.max { kind.kept[$0].order < kind.kept[$1].order } ?? 0
        }
        kinds[diagnostic.code] = kind
    }

    /// The diagnostics kept, in order, then a note for each kind with more (as `DiagnosticLimit.notes`).
    var admitted: [Diagnostic] {
        let kept = kinds.values.flatMap(\.kept).sorted { $0.order < $1.order }.map(\.diagnostic)
        let notes = kinds.sorted { $0.key.rawValue < $1.key.rawValue }.filter { $0.value.count > perKind }.map { code, kind in
            Diagnostic(
                .note, code, at: SourceLocation(file: InputMap.name, line: lastLine),
                "\(kind.count - perKind) more \(code) diagnostics in this file are not shown (\(kind.count) in all)")
        }
        return kept + notes
    }
}
