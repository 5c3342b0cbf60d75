import Dispatch
import Foundation

/// What an import must know about the whole input before it can turn events into sessions as they
/// come: which TZIDs a VTIMEZONE defines somewhere (an event may come before its zone), and which
/// UIDs occur more than once, up to which line (a copy, or an override and the recurring event it
/// changes, which share their UID).
///
/// A quick first pass finds them. It looks only at physical lines that start like BEGIN, END, UID,
/// TZID, RECURRENCE-ID, METHOD or a time property (in any case), with their folds, and at the lines
/// of VTIMEZONEs, and splits lines where the scanner does (LF, CR LF, a lone CR), so it sees every
/// such line the scanner will see, with its number; it may see more, which only makes more events
/// wait. UTF-16 input gets the scanner itself; input with NUL bytes gets `unknown`. It keeps sets
/// of strings and of hashes, and the VTIMEZONEs, not the input.
struct InputOutline: Sendable {
    /// The TZIDs VTIMEZONEs define, as libical reads them.
    var timeZoneIDs: Set<String> = []
    /// Some TZID could not be read for certain as libical would (escapes, quotes, non-ASCII): any
    /// TZID not yet defined must wait.
    var hasUncertainTimeZoneIDs = false
    /// Some override's UID could not be read: any event with a UID must wait for the end.
    var hasOverrideWithoutUID = false
    /// The TZIDs that DTSTART, DTEND, DUE, RDATE, EXDATE and RECURRENCE-ID lines name: the zones the
    /// import may need. A VTIMEZONE of any other TZID need not be read.
    var referencedTimeZoneIDs: Set<String> = []
    /// Some TZID parameter could not be read for certain (quotes, non-ASCII, parameters folded):
    /// every VTIMEZONE is read.
    var hasUncertainReferences = false
    /// The VEVENT UIDs of each stretch scanned: a UID in two stretches, or repeated in one, may be
    /// a copy of another event.
    var stretches: [UIDStretch] = []
    /// The UIDs could not be told for certain (UTF-16 or NUL bytes): every event with a UID waits.
    var hasUncertainUIDs = false
    /// A METHOD line names an iTIP message (REPLY, REFRESH, CANCEL, COUNTER, DECLINECOUNTER), whose
    /// events are not sessions and may cancel others.
    var hasMessageMethod = false
    /// The input's VTIMEZONEs, as written and in order, each with the line of its BEGIN; `nil` when
    /// they could not all be kept (not ASCII, not closed by their END, more than
    /// `maximumTimeZoneBytes` together) or were not looked for (UTF-16 input).
    var timeZoneTexts: [(text: [UInt8], line: Int)]? = []

    /// The VTIMEZONE bytes an outline keeps at most: real files have a few kilobytes of them.
    static let maximumTimeZoneBytes = 1 << 20

    /// Where the input can be cut into segments that are cut into components on their own (see
    /// `SegmentStart`), in order; empty when the scan was not asked for them (`segmentSize`).
    var segmentStarts: [SegmentStart] = []

    /// Whether the file has segment starts and none of its segments (from its start to the first,
    /// between two, from the last to its end) is longer than `maximumBytes`.
    func hasBoundedSegments(maximumBytes: Int, descriptor: Int32) -> Bool {
        var status = stat()
        guard let last = segmentStarts.last, fstat(descriptor, &status) == 0 else { return false }
        var previous = 0
        for start in segmentStarts {
            if start.offset - previous > maximumBytes { return false }
            previous = start.offset
        }
        return Int(status.st_size) - last.offset <= maximumBytes
    }

    /// A line that is exactly `BEGIN:VEVENT` (no fold after it), at least `segmentSize` bytes
    /// after the one before: a BEGIN of a VEVENT closes whatever is open before it, so a cutter
    /// that starts there, with the VCALENDAR state the first pass saw, cuts what one reading the
    /// whole input would. The state is a prediction (spellings of `BEGIN:VCALENDAR` the first pass
    /// reads otherwise than the cutter could differ): the import checks it against the segment
    /// before, and cuts again where it was wrong.
    struct SegmentStart: Sendable, Equatable {
        /// The line's offset in the input.
        var offset: Int
        /// Its 1-based physical line.
        var line: Int
        /// The VCALENDAR it stands in: how many `BEGIN:VCALENDAR` lines come before it, less one
        /// (at least 0), and whether the last VCALENDAR line before it is a BEGIN.
        var calendar: ComponentCutter.CalendarState
    }

    /// One stretch's VEVENT UIDs.
    struct UIDStretch: Sendable {
        /// The hashes of its UIDs (`UIDFilter`).
        var filter: UIDFilter
        /// For each UID the stretch had before (by hash), the line of its last VEVENT.
        var repeated: [UInt64: Int] = [:]
        /// The stretch's last line.
        var lastLine = 0
    }

    /// An outline that knows nothing, so everything that might depend on later content waits.
    static let unknown = InputOutline(
        hasUncertainTimeZoneIDs: true, hasOverrideWithoutUID: true, hasUncertainReferences: true, hasUncertainUIDs: true,
        hasMessageMethod: true, timeZoneTexts: nil)

    /// Scans an input for its outline.
    ///
    /// - Parameter segmentSize: When given, the outline also says where the input can be cut in
    ///   segments of about this many bytes (`segmentStarts`).
    static func scan(_ input: InputBytes, segmentSize: Int? = nil) -> InputOutline {
        input.buffer(atLeast: 3)
        let head = Array(input.bytes.prefix(2))
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            return scanLines(input)
        }
        let size = input.isExhausted ? input.bytes.count : input.expectedSize
        var raw = RawOutlineScan(
            input: input, expectedUIDs: UIDFilter.expectedUIDs(inputSize: size, sample: input.bytes), segmentSize: segmentSize)
        // NUL bytes: the scanner removes them from lines, which may join a name together; with
        // such an input (fuzzed or damaged) everything that might depend on later content waits.
        guard let part = raw.scan() else { return .unknown }
        var outline = part.outline
        outline.segmentStarts = part.segmentStarts(linesBefore: 0, calendarsBefore: 0, inCalendarBefore: false)
        return outline
    }

    /// Scans a file for its outline, `parts` stretches of it at once: the file is split at
    /// `BEGIN:VEVENT` lines near equal offsets (no state of the scan crosses such a line but the
    /// outline itself), each stretch is scanned on its own thread, and the outlines are merged. A
    /// file smaller than `minimumSplitSize`, one without such a line near a split, or UTF-16 input
    /// is scanned in one pass. Reads with `pread`: the descriptor's offset does not move.
    static func scan(
        descriptor: Int32, parts: Int, chunkSize: Int = InputBytes.defaultChunkSize,
        minimumSplitSize: Int = 4 << 20, segmentSize: Int? = nil
    ) -> InputOutline {
        var status = stat()
        guard parts > 1, fstat(descriptor, &status) == 0, Int(status.st_size) >= minimumSplitSize else {
            return scan(InputBytes(reading: descriptor, from: 0, to: nil, chunkSize: chunkSize), segmentSize: segmentSize)
        }
        let size = Int(status.st_size)
        var head = [UInt8](repeating: 0, count: 2)
        guard pread(descriptor, &head, 2, 0) == 2, head != [0xFF, 0xFE], head != [0xFE, 0xFF] else {
            return scan(InputBytes(reading: descriptor, from: 0, to: nil, chunkSize: chunkSize), segmentSize: segmentSize)
        }
        var starts = [0]
        for part in 1..<parts {
            if let start = eventStart(in: descriptor, after: size / parts * part), start > starts.last!, start < size {
                starts.append(start)
            }
        }
        let stretches = starts.indices.map { index in
            (starts[index], index + 1 < starts.count ? starts[index + 1] : nil as Int?)
        }
        // How many events the file holds, from its first megabyte: each stretch's filter is sized for its share.
        var sample = [UInt8](repeating: 0, count: min(size, 1 << 20))
        let sampled = max(0, sample.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) })
        let expectedUIDs = sample.withUnsafeBufferPointer {
            UIDFilter.expectedUIDs(inputSize: size, sample: UnsafeBufferPointer(rebasing: $0[..<sampled]))
        }
        let lock = NSLock()
        nonisolated(unsafe) var results = [RawOutlineScan.Part??](repeating: nil, count: stretches.count)
        DispatchQueue.concurrentPerform(iterations: stretches.count) { index in
            let stretchSize = (stretches[index].1 ?? size) - stretches[index].0
            var raw = RawOutlineScan(
                input: InputBytes(reading: descriptor, from: stretches[index].0, to: stretches[index].1, chunkSize: chunkSize),
                expectedUIDs: Int((Double(expectedUIDs) * Double(stretchSize) / Double(max(1, size))).rounded(.up)),
                segmentSize: segmentSize, offset: stretches[index].0)
            let part = raw.scan()
            lock.withLock { results[index] = .some(part) }
        }
        var outline = InputOutline()
        var linesBefore = 0  // the lines of the stretches merged so far: each stretch numbers its own from 1
        var calendarsBefore = 0
        var inCalendarBefore = false
        for case let scanned? in results {
            // NUL bytes anywhere make the whole outline cautious, as one pass would.
            guard let scanned else { return .unknown }
            outline.segmentStarts += scanned.segmentStarts(
                linesBefore: linesBefore, calendarsBefore: calendarsBefore, inCalendarBefore: inCalendarBefore)
            calendarsBefore += scanned.calendarBegins
            inCalendarBefore = scanned.lastCalendarLineIsBegin ?? inCalendarBefore
            let part = scanned.outline
            outline.timeZoneIDs.formUnion(part.timeZoneIDs)
            outline.hasUncertainTimeZoneIDs = outline.hasUncertainTimeZoneIDs || part.hasUncertainTimeZoneIDs
            outline.hasOverrideWithoutUID = outline.hasOverrideWithoutUID || part.hasOverrideWithoutUID
            outline.referencedTimeZoneIDs.formUnion(part.referencedTimeZoneIDs)
            outline.hasUncertainReferences = outline.hasUncertainReferences || part.hasUncertainReferences
            outline.hasMessageMethod = outline.hasMessageMethod || part.hasMessageMethod
            for var stretch in part.stretches {
                stretch.repeated = stretch.repeated.mapValues { $0 + linesBefore }
                stretch.lastLine += linesBefore
                outline.stretches.append(stretch)
            }
            if let texts = outline.timeZoneTexts, let more = part.timeZoneTexts,
               texts.reduce(0, { $0 + $1.text.count }) + more.reduce(0, { $0 + $1.text.count }) <= maximumTimeZoneBytes {
                outline.timeZoneTexts = texts + more.map { ($0.text, $0.line + linesBefore) }
            } else {
                outline.timeZoneTexts = nil
            }
            linesBefore = outline.stretches.last?.lastLine ?? linesBefore
        }
        return outline
    }

    /// The offset of the first line that is exactly `BEGIN:VEVENT` within 64 KiB after `offset`
    /// (after a line end: LF, or CR for old Mac input), if any.
    private static func eventStart(in descriptor: Int32, after offset: Int) -> Int? {
        let marker = Array("BEGIN:VEVENT".utf8)
        var window = [UInt8](repeating: 0, count: 64 << 10)
        let got = window.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard got > marker.count + 1 else { return nil }
        var index = 0
        while index + marker.count + 1 < got {
            let byte = window[index]
            if byte == 0x0A || byte == 0x0D, window[index + 1] == 0x42,
               window[(index + 1)..<(index + 1 + marker.count)].elementsEqual(marker),
               window[index + 1 + marker.count] == 0x0D || window[index + 1 + marker.count] == 0x0A {
                return offset + index + 1
            }
            index += 1
        }
        return nil
    }

    /// The outline from the content-line scanner itself (slower; for UTF-16 input).
    static func scanLines(_ input: InputBytes) -> InputOutline {
        var scanner = ContentLineScanner(input: input)
        scanner.keptNames = ["BEGIN", "END", "UID", "TZID", "RECURRENCE-ID", "METHOD"]
        scanner.unreadLinesSkipped = true
        // This path does not look at TZID parameters or UIDs: every VTIMEZONE is read, every event with a UID waits.
        var outline = InputOutline(hasUncertainReferences: true, hasUncertainUIDs: true, timeZoneTexts: nil)
        var inEvent = false
        var nested = NestedComponents()
        var uid: String?
        var hasRecurrenceID = false
        func finishEvent() {
            if inEvent, hasRecurrenceID {
                if uid?.isEmpty ?? true { outline.hasOverrideWithoutUID = true }
            }
            inEvent = false
            nested = NestedComponents()
            uid = nil
            hasRecurrenceID = false
        }
        while let line = scanner.next() {
            switch line.name {
            case "BEGIN":
                let component = line.value.trimmingSpaces.uppercased()
                if component == "VEVENT" {
                    finishEvent()
                    inEvent = true
                } else if component == "VCALENDAR" || ComponentCutter.topLevelComponents.contains(component) {
                    finishEvent()
                } else if inEvent {
                    nested.begin(component)
                }
            case "END":
                let component = line.value.trimmingSpaces.uppercased()
                if component == "VEVENT" || component == "VCALENDAR" { finishEvent() } else { nested.end(component) }
            case "UID":
                if inEvent, nested.isEmpty { uid = TextValue.decode(line.value) }
            case "RECURRENCE-ID":
                if inEvent, nested.isEmpty { hasRecurrenceID = true }
            case "METHOD":
                if SessionResolver.messageMethods.contains(line.value.trimmingSpaces.uppercased()) {
                    outline.hasMessageMethod = true
                }
            case "TZID":
                let value = line.value
                if value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 >= 0x80 }) {
                    outline.hasUncertainTimeZoneIDs = true
                }
                outline.timeZoneIDs.insert(TextValue.decode(value))
            default:
                break
            }
        }
        finishEvent()
        return outline
    }

    /// Whether an event in `calendar` with a time in `timeZoneID` must wait: a VTIMEZONE defines
    /// that TZID somewhere and the event's own calendar has not defined it yet.
    func mustWait(for timeZoneID: String, definedInCalendar: Bool) -> Bool {
        guard !definedInCalendar else { return false }
        return hasUncertainTimeZoneIDs || timeZoneIDs.contains(timeZoneID)
    }

    /// Whether the VTIMEZONE of `timeZoneID` (its TZID line's value as written) may be needed: some
    /// time names it, or that cannot be ruled out.
    func mayUse(timeZoneLine value: Substring) -> Bool {
        guard !hasUncertainReferences, !value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 >= 0x80 }) else {
            return true
        }
        return referencedTimeZoneIDs.contains(value.trimmingSpaces)
    }

    /// Whether another VEVENT of the input may have the same UID (a copy, an iTIP message about it),
    /// so that the event must wait for the end of the input.
    func mayRepeat(_ uid: String?) -> Bool {
        guard let uid, !uid.isEmpty else { return false }
        if hasUncertainUIDs { return true }
        let hash = UIDFilter.hash(uid)
        // In two stretches' filters, or repeated within the one that has it (filters first: they are cheap).
        var holder: Int?
        for index in stretches.indices where stretches[index].filter.contains(hash) {
            if holder != nil { return true }
            holder = index
        }
        return holder.map { stretches[$0].repeated[hash] != nil } ?? false
    }

    /// A line on or after the BEGIN of the last VEVENT with `uid` (the line itself when one
    /// stretch had the UID more than once, else the end of the last stretch that may have it);
    /// `nil` when that cannot be told (UTF-16 or NUL bytes).
    func lastEventLine(of uid: String) -> Int? {
        guard !hasUncertainUIDs else { return nil }
        let hash = UIDFilter.hash(uid)
        guard let stretch = stretches.last(where: { $0.filter.contains(hash) }) else { return nil }
        return stretch.repeated[hash] ?? stretch.lastLine
    }

    /// Whether an event with `uid` may be the master of an override later in the input: an override
    /// of its UID repeats the UID (`mayRepeat`), or some override's UID could not be read.
    func mayHaveOverrides(_ uid: String?) -> Bool {
        guard let uid, !uid.isEmpty else { return false }
        return hasOverrideWithoutUID || mayRepeat(uid)
    }
}

/// The subcomponents open inside a VEVENT (a VALARM, ...), closed as the cutter closes them: an END
/// closes the innermost open component of its name and every one inside it, and is ignored when
/// none is open. Only the VEVENT's own UID and RECURRENCE-ID stand for the event (an Apple alarm
/// has a UID of its own).
struct NestedComponents {
    private var names: [String] = []

    var isEmpty: Bool { names.isEmpty }

    /// A BEGIN of a component that does not close the VEVENT (name uppercased, spaces trimmed).
    mutating func begin(_ name: String) {
        if !name.isEmpty { names.append(name) }
    }

    /// An END of a component other than VEVENT or VCALENDAR.
    mutating func end(_ name: String) {
        if let index = names.lastIndex(of: name) { names.removeSubrange(index...) }
    }
}

/// The first pass without the scanner: physical lines found eight bytes at a time, and only lines
/// starting with B, D, E, M, R, T or U (either case) looked at, and those of VTIMEZONEs kept.
private struct RawOutlineScan {
    let input: InputBytes
    /// `input.bytes`, refreshed after every read.
    private var bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// The number of the last physical line read (1-based within the stretch).
    private var physicalLine = 0
    private var outline = InputOutline()
    private var inEvent = false
    /// The line of the current VEVENT's BEGIN.
    private var eventLine = 0
    /// The VTIMEZONE being kept, with the line of its BEGIN; `nil` outside one.
    private var timeZone: (text: [UInt8], line: Int)?
    /// The bytes of the VTIMEZONEs kept so far.
    private var timeZoneBytes = 0
    /// The subcomponents open inside the VEVENT.
    private var nested = NestedComponents()
    private var hasRecurrenceID = false
    private var hasUID = false
    private var uid: [UInt8] = []
    /// The bytes of the logical line being read (name, parameters, value; folds removed).
    private var logical: [UInt8] = []
    /// TZID parameter values already in `referencedTimeZoneIDs`, as written, each in a slot chosen
    /// by a hash of its bytes (a later value of the same slot takes its place): most times of a
    /// file name one of a few dozen zones, which are then not decoded and hashed as strings again.
    private var recentReferences: [[UInt8]] = []

    /// The UIDs of this stretch's VEVENTs.
    private var uidStretch: InputOutline.UIDStretch

    /// The bytes wanted between segment starts, if they are wanted.
    private let segmentSize: Int?
    /// The stretch's offset in the input, and how many of its bytes the buffer dropped so far.
    private let offset: Int
    private var dropped = 0
    /// The segment starts found, with the VCALENDAR lines before them in this stretch.
    private var segmentStarts: [(offset: Int, line: Int, calendarBegins: Int, lastCalendarLineIsBegin: Bool?)] = []
    /// How many `BEGIN:VCALENDAR` lines the stretch has so far, and whether its last VCALENDAR
    /// line is a BEGIN (`nil` before the first).
    private var calendarBegins = 0
    private var lastCalendarLineIsBegin: Bool?

    /// - Parameters:
    ///   - expectedUIDs: How many UIDs the stretch is likely to hold, for the UID filter.
    ///   - segmentSize: The bytes wanted between segment starts, if they are wanted.
    ///   - offset: Where the stretch starts in the input.
    init(input: InputBytes, expectedUIDs: Int, segmentSize: Int? = nil, offset: Int = 0) {
        self.input = input
        bytes = input.bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        uidStretch = InputOutline.UIDStretch(filter: UIDFilter(expectedUIDs: expectedUIDs))
        self.segmentSize = segmentSize
        self.offset = offset
    }

    /// What a stretch's scan finds: its outline, where it can be cut in segments, and its
    /// VCALENDAR lines (for the segments of the stretches after it).
    struct Part {
        var outline: InputOutline
        fileprivate var starts: [(offset: Int, line: Int, calendarBegins: Int, lastCalendarLineIsBegin: Bool?)]
        var calendarBegins: Int
        var lastCalendarLineIsBegin: Bool?

        /// The segment starts, numbered in the whole input, given what the stretches before hold.
        func segmentStarts(linesBefore: Int, calendarsBefore: Int, inCalendarBefore: Bool) -> [InputOutline.SegmentStart] {
            starts.map { start in
                InputOutline.SegmentStart(
                    offset: start.offset, line: start.line + linesBefore,
                    calendar: ComponentCutter.CalendarState(
                        index: max(0, calendarsBefore + start.calendarBegins - 1),
                        isOpen: start.lastCalendarLineIsBegin ?? inCalendarBefore))
            }
        }
    }

    /// The stretch's outline and segment starts, or `nil` when the input has NUL bytes.
    mutating func scan() -> Part? {
        guard let outline = scanOutline() else { return nil }
        return Part(
            outline: outline, starts: segmentStarts, calendarBegins: calendarBegins,
            lastCalendarLineIsBegin: lastCalendarLineIsBegin)
    }

    private mutating func scanOutline() -> InputOutline? {
        var pendingStart: (range: Range<Int>, number: Int)?
        while true {
            guard let (line, number) = pendingStart ?? nextPhysicalLine().map({ ($0, physicalLine) }) else { break }
            pendingStart = nil
            if timeZone != nil { keepTimeZoneLine(line) }
            guard let kind = Self.kind(of: line, in: bytes) else { continue }
            // (No read since the line was found: the buffer still starts where it did.)
            let lineOffset = offset + dropped + line.lowerBound
            // Gather the folds of an interesting line.
            logical.removeAll(keepingCapacity: true)
            logical.append(contentsOf: bytes[line])
            // The line after a BEGIN is kept whole: it may be the first of a VTIMEZONE to keep.
            while let next = nextPhysicalLine(keepingFolds: true, keepingAll: kind == .begin) {
                if let first = next.first.map({ bytes[$0] }), first == 0x20 || first == 0x09 {
                    logical.append(contentsOf: bytes[next.dropFirst()])
                    if timeZone != nil { keepTimeZoneLine(next) }
                } else {
                    pendingStart = (next, physicalLine)
                    break
                }
            }
            if input.sawNUL { return nil }
            if let segmentSize, kind == .begin, logical == Self.beginEvent,
               lineOffset - (segmentStarts.last?.offset ?? offset) >= segmentSize {
                segmentStarts.append((lineOffset, number, calendarBegins, lastCalendarLineIsBegin))
            }
            handle(kind, line: number)
        }
        if input.sawNUL { return nil }
        finishEvent()
        if timeZone != nil { outline.timeZoneTexts = nil }  // a VTIMEZONE without its END
        uidStretch.lastLine = physicalLine
        outline.stretches = [uidStretch]
        return outline
    }

    /// Adds a physical line to the VTIMEZONE being kept; a byte other than printable ASCII or a
    /// tab, or too many bytes, and no VTIMEZONE is kept.
    private mutating func keepTimeZoneLine(_ line: Range<Int>) {
        timeZoneBytes += line.count + 2
        guard outline.timeZoneTexts != nil, timeZoneBytes <= InputOutline.maximumTimeZoneBytes,
              bytes[line].allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) else {
            outline.timeZoneTexts = nil
            timeZone = nil
            return
        }
        timeZone?.text.append(contentsOf: bytes[line])
        timeZone?.text.append(contentsOf: [0x0D, 0x0A])
    }

    private enum Kind { case begin, end, uid, tzid, recurrenceID, timeReference, method }

    /// Which interesting name a physical line starts with (followed by `;` or `:`), if any.
    private static func kind(of line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Kind? {
        do {
            let line = UnsafeBufferPointer(rebasing: bytes[line])
            guard let first = line.first else { return nil }
            switch first & 0xDF {
            case 0x42: return matches(line, "BEGIN") ? .begin : nil
            case 0x45: return matches(line, "END") ? .end : matches(line, "EXDATE") ? .timeReference : nil
            case 0x55: return matches(line, "UID") ? .uid : nil
            case 0x54: return matches(line, "TZID") ? .tzid : nil
            case 0x52:
                if matches(line, "RECURRENCE-ID") { return .recurrenceID }
                return matches(line, "RDATE") ? .timeReference : nil
            case 0x44:
                return matches(line, "DTSTART") || matches(line, "DTEND") || matches(line, "DUE") ? .timeReference : nil
            case 0x4D: return matches(line, "METHOD") ? .method : nil
            default: return nil
            }
        }
    }

    /// Enough of a line to tell its name: `RECURRENCE-ID` and its `;` or `:`.
    private static let longestName = 16

    /// Whether `line` starts with `name` in any case, then `;` or `:`.
    /// A name alone on its line counts too: RFC 5545 allows a fold right after the name
    /// (`UID` then ` :value`), as the scanner reads it.
    private static func matches(_ line: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard line.count >= count else { return false }
        let upper = name.utf8Start
        for index in 0..<count where line[index] != upper[index] && line[index] != upper[index] | 0x20 {
            return false
        }
        return line.count == count || line[count] == 0x3A || line[count] == 0x3B || line[count] == 0x0D || line[count] == 0x0A
    }

    /// Whether the value, without surrounding spaces, is `name` in any case.
    private func valueIs(_ name: StaticString) -> Bool {
        var value = self.value
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        let count = name.utf8CodeUnitCount
        guard value.count == count else { return false }
        let upper = name.utf8Start
        for (index, byte) in zip(0..<count, value) where byte != upper[index] && byte != upper[index] | 0x20 {
            return false
        }
        return true
    }

    /// Whether the value names a component that only stands at the top level, or VCALENDAR.
    private var valueIsTopLevelOrCalendar: Bool {
        valueIs("VCALENDAR") || valueIs("VTODO") || valueIs("VJOURNAL") || valueIs("VFREEBUSY")
            || valueIs("VTIMEZONE") || valueIs("VAVAILABILITY")
    }

    /// The value of `logical`: after the first colon outside quotes.
    private var value: ArraySlice<UInt8> {
        var inQuotes = false
        for index in logical.indices {
            let byte = logical[index]
            if byte == 0x22 { inQuotes.toggle() } else if byte == 0x3A, !inQuotes { return logical[(index + 1)...] }
        }
        return []
    }

    /// The component a BEGIN or END line names, as the cutter reads it: the value decoded,
    /// without surrounding spaces and tabs, uppercased.
    private var componentName: String {
        valueText.trimmingSpaces.uppercased()
    }

    /// The value as the scanner decodes it (UTF-8, or Latin-1 when the line is not UTF-8).
    private var valueText: Substring {
        let bytes = value
        if let text = UTF8Validation.string(bytes) { return Substring(text) }
        return Substring(String(bytes.lazy.map { Character(Unicode.Scalar($0)) }))
    }

    private static let beginEvent = Array("BEGIN:VEVENT".utf8)
    private static let endEvent = Array("END:VEVENT".utf8)

    private static let beginTimeZone = Array("BEGIN:VTIMEZONE".utf8)
    private static let endTimeZone = Array("END:VTIMEZONE".utf8)

    private mutating func handle(_ kind: Kind, line: Int) {
        switch kind {
        case .begin:
            if timeZone != nil, valueIsTopLevelOrCalendar || valueIs("VEVENT") {
                outline.timeZoneTexts = nil  // a VTIMEZONE without its END: the cutter salvages it
                timeZone = nil
            }
            if logical == Self.beginEvent || valueIs("VEVENT") {  // the common line first, as it is
                finishEvent()
                inEvent = true
                eventLine = line
            } else if valueIsTopLevelOrCalendar {
                finishEvent()
                if valueIs("VCALENDAR") {
                    calendarBegins += 1
                    lastCalendarLineIsBegin = true
                }
                if valueIs("VTIMEZONE"), outline.timeZoneTexts != nil {
                    if logical == Self.beginTimeZone {
                        timeZone = (logical + [0x0D, 0x0A], line)
                        timeZoneBytes += logical.count + 2
                    } else {
                        outline.timeZoneTexts = nil  // spelled otherwise: not kept
                    }
                }
            } else if inEvent {
                nested.begin(componentName)
            }
        case .end:
            if let kept = timeZone, valueIs("VTIMEZONE") || valueIs("VCALENDAR") {
                if logical == Self.endTimeZone {
                    outline.timeZoneTexts?.append(kept)
                } else {
                    outline.timeZoneTexts = nil
                }
                timeZone = nil
            }
            if valueIs("VCALENDAR") { lastCalendarLineIsBegin = false }
            if logical == Self.endEvent || valueIs("VEVENT") || valueIs("VCALENDAR") {
                finishEvent()
            } else if inEvent, !nested.isEmpty {
                nested.end(componentName)
            }
        case .method:
            // A value that is not UTF-8 is taken for a message too: only more events wait.
            let name = UTF8Validation.string(value)?.trimmingSpaces.uppercased()
            if name.map(SessionResolver.messageMethods.contains) ?? true { outline.hasMessageMethod = true }
        case .uid:
            if inEvent, nested.isEmpty {
                uid.removeAll(keepingCapacity: true)
                uid.append(contentsOf: value)
                hasUID = true
            }
        case .recurrenceID:
            if inEvent, nested.isEmpty { hasRecurrenceID = true }
            noteTimeZoneReference()
        case .timeReference:
            noteTimeZoneReference()
        case .tzid:
            let text = valueText
            if text.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 >= 0x80 }) {
                outline.hasUncertainTimeZoneIDs = true
            }
            outline.timeZoneIDs.insert(TextValue.decode(text))
        }
    }

    /// The hash (`UIDFilter.hash`) of the event's UID as the import reads it (`TextValue`), from its
    /// bytes as they are when they need no decoding, which is nearly always; `nil` when it is empty.
    private var uidHash: UInt64? {
        let plain = uid.withUnsafeBufferPointer { uid -> UInt64?? in
            var start = 0
            var end = uid.count
            while start < end, uid[start] == 0x20 || uid[start] == 0x09 { start += 1 }
            while end > start, uid[end - 1] == 0x20 || uid[end - 1] == 0x09 { end -= 1 }
            let trimmed = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(uid)[start..<end])
            guard !UIDFilter.hasEscapeOrNonASCII(trimmed) else { return .none }
            return .some(trimmed.isEmpty ? nil : UIDFilter.hash(buffer: trimmed))
        }
        if let plain { return plain }
        let text = UTF8Validation.string(uid) ?? String(uid.lazy.map { Character(Unicode.Scalar($0)) })
        let decoded = TextValue.decode(Substring(text))
        return decoded.isEmpty ? nil : UIDFilter.hash(decoded)
    }

    /// Notes the TZID parameter of a line that holds times (`DTSTART;TZID=Europe/Berlin:...`), if any.
    private mutating func noteTimeZoneReference() {
        if recentReferences.isEmpty { recentReferences = Array(repeating: [], count: Self.recentReferencesKept) }
        // (Read in place, a byte at a time: one line in four of a calendar names a zone.)
        let found = logical.withUnsafeBufferPointer { bytes -> (value: Range<Int>, slot: Int)? in
            // The parameters: after the name, up to the first colon outside quotes.
            var index = 0
            while index < bytes.count, bytes[index] != 0x3B, bytes[index] != 0x3A { index += 1 }
            guard index < bytes.count, bytes[index] == 0x3B else { return nil }
            index += 1
            var inQuotes = false
            var parameterStart = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 {
                    inQuotes.toggle()
                } else if !inQuotes, byte == 0x3B || byte == 0x3A {
                    if index - parameterStart > 5, Self.startsWithTZID(bytes, at: parameterStart) {
                        let value = (parameterStart + 5)..<index
                        // A value seen before is known by its slot in `recentReferences` (by a hash of its bytes).
                        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
                        for byte in bytes[value] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
                        return (value, Int(truncatingIfNeeded: hash >> 58))  // 0..<64
                    }
                    if byte == 0x3A { return nil }
                    parameterStart = index + 1
                }
                index += 1
            }
            return nil
        }
        guard let (value, slot) = found else { return }
        let isKnown = logical.withUnsafeBufferPointer { bytes in
            recentReferences[slot].withUnsafeBufferPointer { known in
                known.count == value.count && memcmp(known.baseAddress!, bytes.baseAddress! + value.lowerBound, value.count) == 0
            }
        }
        if isKnown { return }
        let valueBytes = logical[value]
        if valueBytes.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 >= 0x80 }) {
            outline.hasUncertainReferences = true
        } else {
            outline.referencedTimeZoneIDs.insert(String(decoding: valueBytes, as: UTF8.self).trimmingSpaces)
            recentReferences[slot] = Array(valueBytes)
        }
    }

    /// How many TZID values `recentReferences` keeps, one a slot (a file names dozens of zones).
    private static let recentReferencesKept = 64

    /// Whether a parameter starts with `TZID=` in any case.
    private static func startsWithTZID(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        bytes[start] & 0xDF == 0x54 && bytes[start + 1] & 0xDF == 0x5A && bytes[start + 2] & 0xDF == 0x49
            && bytes[start + 3] & 0xDF == 0x44 && bytes[start + 4] == 0x3D
    }

    private mutating func finishEvent() {
        let hash = inEvent && hasUID ? uidHash : nil
        if let hash, uidStretch.filter.insert(hash) { uidStretch.repeated[hash] = eventLine }
        if inEvent, hasRecurrenceID {
            if hash == nil { outline.hasOverrideWithoutUID = true }
        }
        inEvent = false
        nested = NestedComponents()
        hasUID = false
        hasRecurrenceID = false
    }

    /// The next physical line (ended by LF, CR LF or a lone CR), valid until the next call. A line
    /// that starts like no line the outline reads (nor a fold), outside a VTIMEZONE being kept and
    /// unless `keepingAll`, is only scanned past, not kept, and comes back empty: a line of a
    /// gigabyte costs a scan, not a copy.
    private mutating func nextPhysicalLine(keepingFolds: Bool = false, keepingAll: Bool = false) -> Range<Int>? {
        var resume = position
        var keepsLine = true
        var decided = false
        while true {
            let count = bytes.count
            if !decided, count - position >= Self.longestName || input.isExhausted {
                decided = true
                if position < count {
                    let lead = bytes[position]
                    let isFold = lead == 0x20 || lead == 0x09
                    keepsLine = timeZone != nil || keepingAll || (isFold ? keepingFolds
                        : Self.kind(of: position..<min(count, position + Self.longestName), in: bytes) != nil)
                }
            }
            let end = ContentLineScanner.lineEnd(in: bytes, from: resume)
            let needsMore = end == count || (end == count - 1 && bytes[end] == 0x0D)
            if needsMore, !input.isExhausted, let shift = input.refill(keepingFrom: keepsLine ? position : end) {
                dropped += shift
                bytes = input.bytes
                position = keepsLine ? position - shift : 0
                resume = end - shift
                continue
            }
            if !keepsLine {
                // Only its end is needed: the line comes back empty, at the end.
                position = end
                if position < count {
                    position += bytes[position] == 0x0D && position + 1 < count && bytes[position + 1] == 0x0A ? 2 : 1
                }
                physicalLine += 1
                return end..<end
            }
            guard position < count else { return nil }
            let start = position
            position = end
            if position < count {
                position += bytes[position] == 0x0D && position + 1 < count && bytes[position + 1] == 0x0A ? 2 : 1
            }
            physicalLine += 1
            return start..<end
        }
    }
}
