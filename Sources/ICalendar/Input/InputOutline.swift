import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an import must know about the whole input before it can turn events into sessions as they
/// come: which UIDs occur more than once, up to which line (a copy, or an override and the
/// recurring event it changes, which share their UID); where the VTIMEZONEs are and which TZIDs
/// the times name (so that every zone is known before the first event); whether a calendar is an
/// iTIP message.
///
/// A quick first pass finds them. It splits lines where the scanner does (LF, CR LF, a lone CR)
/// and looks only at logical lines whose name is BEGIN, END, UID, TZID, RECURRENCE-ID, METHOD or a
/// time property (in any case), unfolded first: RFC 5545 3.1 allows a fold anywhere, the name
/// included, so a physical line that is only the start of a name is read with its folds before it
/// is classified. It may see more than the scanner will, which only makes more events wait. Input
/// with NUL bytes (which the scanner removes, joining names together) gets `unknown`. It keeps
/// sets of hashes and names and the places of the VTIMEZONEs, not the input.
struct InputOutline: Sendable {
    /// Some override's UID could not be read: any event with a UID must wait for the end.
    var hasOverrideWithoutUID = false
    /// The TZIDs that DTSTART, DTEND, DUE, RDATE, EXDATE and RECURRENCE-ID lines name, in the order
    /// they first appear: the zones the import may need. Only the first `maximumTimeZoneIDs` are
    /// kept; `hasMoreTimeZoneIDs` says when there were more.
    var referencedTimeZoneIDs: [String] = []
    /// `referencedTimeZoneIDs` as a set.
    var referencedTimeZoneIDSet: Set<String> = []
    /// More distinct TZIDs are named than `maximumTimeZoneIDs`.
    var hasMoreTimeZoneIDs = false
    /// Some TZID parameter could not be read for certain (an escape, a control character): every
    /// VTIMEZONE is read, and a TZID the list does not have is looked up when it is met.
    var hasUncertainReferences = false
    /// The VEVENT UIDs of each stretch scanned (`scan(descriptor:parts:...)` scans a large file in
    /// stretches at once): a UID in two stretches, or repeated in one, may be a copy of another event.
    var uids: [UIDIndex] = []
    /// The UIDs could not be told for certain (NUL bytes): every event with a UID waits.
    var hasUncertainUIDs = false
    /// A METHOD line names an iTIP message (REPLY, REFRESH, CANCEL, COUNTER, DECLINECOUNTER), whose
    /// events are not sessions and may cancel others.
    var hasMessageMethod = false
    /// Where the input's VTIMEZONEs are, in order: their bytes and the line of their BEGIN; `nil`
    /// when they cannot be told (NUL bytes), and the import reads zones as it meets them.
    var timeZonePlaces: [TimeZonePlace]? = []

    /// Where the input can be cut into segments that workers cut into components on their own, in
    /// order; empty unless the scan was asked for them (`scan(_:segmentSize:)`).
    var segmentStarts: [SegmentStart] = []

    /// A line that is exactly `BEGIN:VEVENT` (no fold after it), at least a segment's size after the
    /// one before: a BEGIN of a VEVENT closes whatever is open before it, so a cutter that starts
    /// there, in the VCALENDAR the first pass saw, cuts what one reading the whole input would. The
    /// VCALENDAR is a prediction (a spelling of `BEGIN:VCALENDAR` the first pass reads otherwise than
    /// the cutter could differ): the import checks it against where the segment before ended.
    struct SegmentStart: Sendable, Equatable {
        var offset: Int
        /// Its 1-based physical line.
        var line: Int
        var calendar: ComponentCutter.CalendarState
    }

    /// Whether no segment (from the start to the first, between two, from the last to `size`) is
    /// longer than `maximumBytes`: a file with a longer stretch between two `BEGIN:VEVENT` lines
    /// (thousands of VTIMEZONEs, one huge event) is cut on one thread, so that no worker holds a
    /// stretch of unbounded size.
    func hasBoundedSegments(maximumBytes: Int, size: Int) -> Bool {
        guard !segmentStarts.isEmpty else { return false }
        let offsets = [0] + segmentStarts.map(\.offset) + [size]
        return zip(offsets, offsets.dropFirst()).allSatisfy { $1 - $0 <= maximumBytes }
    }

    /// Distinct TZIDs one input may name: no real calendar comes near, and each costs a lookup and
    /// a table. Times in the others are read as floating, with a warning.
    static let maximumTimeZoneIDs = 1_000

    /// One VTIMEZONE: the bytes from its BEGIN line to the end of its END line, where it begins,
    /// and its TZID as its line reads (`nil` when it has none, or one that needs libical's reading).
    struct TimeZonePlace: Sendable, Equatable {
        var bytes: Range<Int>
        var line: Int
        var timeZoneID: String?

        /// Whether an import whose outline is `outline` may need this VTIMEZONE.
        func mayBeUsed(in outline: InputOutline) -> Bool {
            outline.mayUse(timeZoneID: timeZoneID)
        }
    }

    /// The VEVENT UIDs of one stretch of an input.
    struct UIDIndex: Sendable {
        /// The hashes of its UIDs (`UIDFilter`).
        var filter: UIDFilter
        /// For each UID the stretch had before (by hash), the line of its last VEVENT.
        var repeated: [UInt64: Int] = [:]
        /// The stretch's last line.
        var lastLine = 0
    }

    /// An outline that knows nothing, so everything that might depend on later content waits.
    static let unknown = InputOutline(
        hasOverrideWithoutUID: true, hasUncertainReferences: true,
        hasUncertainUIDs: true, hasMessageMethod: true, timeZonePlaces: nil)

    /// Scans an input (UTF-8 or Latin-1; UTF-16 is transcoded before) for its outline, and with
    /// `segmentSize`, for where it can be cut in segments of about that many bytes.
    static func scan(_ input: InputBytes, segmentSize: Int? = nil) -> InputOutline {
        input.buffer(atLeast: 3)
        let size = input.isExhausted ? input.bytes.count : input.expectedSize
        var raw = RawOutlineScan(input: input, expectedUIDs: UIDFilter.expectedUIDs(inputSize: size, sample: input.bytes))
        raw.segmentSize = segmentSize
        // NUL bytes: the scanner removes them from lines, which may join a name together; with
        // such an input (fuzzed or damaged) everything that might depend on later content waits.
        guard let part = raw.scan() else { return .unknown }
        return merged([part])
    }

    /// Scans a file for its outline, `parts` stretches of it at once: the file is split at
    /// `BEGIN:VEVENT` lines near equal offsets (no state of the scan crosses such a line but the
    /// outline itself), each stretch is scanned on a thread of its own, and the outlines are merged.
    /// A file smaller than `minimumSplitSize`, or one without such a line near a split, is scanned
    /// in one pass. Reads with `pread`: the descriptor's offset does not move.
    static func scan(
        descriptor: Int32, parts: Int, chunkSize: Int = InputBytes.defaultChunkSize, minimumSplitSize: Int = 4 << 20,
        segmentSize: Int? = nil
    ) -> InputOutline {
        var status = stat()
        guard parts > 1, fstat(descriptor, &status) == 0, Int(status.st_size) >= minimumSplitSize else {
            return scan(InputBytes(reading: descriptor, from: 0, to: nil, chunkSize: chunkSize), segmentSize: segmentSize)
        }
        let size = Int(status.st_size)
        var found = [0]
        for part in 1..<parts {
            if let start = eventStart(in: descriptor, after: size / parts * part), start > found.last!, start < size {
                found.append(start)
            }
        }
        let starts = found
        let ends = Array(starts.dropFirst()).map(Optional.some) + [nil]
        let results = starts.indices.map { _ in WorkerResult<RawOutlineScan.Part?>() }
        DispatchQueue.concurrentPerform(iterations: starts.count) { index in
            let input = InputBytes(reading: descriptor, from: starts[index], to: ends[index], chunkSize: chunkSize)
            input.buffer(atLeast: 1)
            let stretch = (ends[index] ?? size) - starts[index]
            var raw = RawOutlineScan(
                input: input, expectedUIDs: UIDFilter.expectedUIDs(inputSize: stretch, sample: input.bytes), offset: starts[index])
            raw.segmentSize = segmentSize
            results[index].set(raw.scan())
        }
        var parts: [RawOutlineScan.Part] = []
        for result in results {
            // NUL bytes anywhere make the whole outline cautious, as one pass would.
            guard let part = result.wait() else { return .unknown }
            parts.append(part)
        }
        return merged(parts)
    }

    /// The offset of the first line that is exactly `BEGIN:VEVENT` within 64 KiB after `offset`
    /// (after a line end: LF, or CR for old Mac input), if any.
    private static func eventStart(in descriptor: Int32, after offset: Int) -> Int? {
        let marker = Array("BEGIN:VEVENT".utf8)
        var window = [UInt8](repeating: 0, count: 64 << 10)
        let got = window.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard got > marker.count + 1 else { return nil }
        for index in 0..<(got - marker.count - 1) where window[index] == 0x0A || window[index] == 0x0D {
            let after = window[index + 1 + marker.count]
            if window[(index + 1)..<(index + 1 + marker.count)].elementsEqual(marker), after == 0x0D || after == 0x0A {
                return offset + index + 1
            }
        }
        return nil
    }

    /// The stretches' outlines as one: lines numbered in the whole input, the TZIDs named in order.
    private static func merged(_ parts: [RawOutlineScan.Part]) -> InputOutline {
        var outline = InputOutline()
        var linesBefore = 0
        var calendarsBefore = 0
        var inCalendarBefore = false
        for part in parts {
            let scanned = part.outline
            outline.hasOverrideWithoutUID = outline.hasOverrideWithoutUID || scanned.hasOverrideWithoutUID
            outline.hasUncertainReferences = outline.hasUncertainReferences || scanned.hasUncertainReferences
            outline.hasMessageMethod = outline.hasMessageMethod || scanned.hasMessageMethod
            outline.hasMoreTimeZoneIDs = outline.hasMoreTimeZoneIDs || scanned.hasMoreTimeZoneIDs
            for tzid in scanned.referencedTimeZoneIDs where !outline.referencedTimeZoneIDSet.contains(tzid) {
                guard outline.referencedTimeZoneIDs.count < maximumTimeZoneIDs else {
                    outline.hasMoreTimeZoneIDs = true
                    break
                }
                outline.referencedTimeZoneIDs.append(tzid)
                outline.referencedTimeZoneIDSet.insert(tzid)
            }
            for var stretch in scanned.uids {
                stretch.repeated = stretch.repeated.mapValues { $0 + linesBefore }
                stretch.lastLine += linesBefore
                outline.uids.append(stretch)
            }
            if let places = scanned.timeZonePlaces {
                outline.timeZonePlaces? += places.map { TimeZonePlace(bytes: $0.bytes, line: $0.line + linesBefore, timeZoneID: $0.timeZoneID) }
            } else {
                outline.timeZonePlaces = nil
            }
            outline.segmentStarts += part.segmentStarts.map { start in
                SegmentStart(
                    offset: start.offset, line: start.line + linesBefore,
                    calendar: ComponentCutter.CalendarState(
                        index: max(0, calendarsBefore + start.calendarBegins - 1),
                        isOpen: start.lastCalendarLineIsBegin ?? inCalendarBefore))
            }
            calendarsBefore += part.calendarBegins
            inCalendarBefore = part.lastCalendarLineIsBegin ?? inCalendarBefore
            linesBefore += part.lines
        }
        return outline
    }

    /// A VTIMEZONE's TZID as its TZID line's value reads, without surrounding spaces; `nil` for one
    /// with an escape or a quote, which is left to libical's reading.
    static func timeZoneID(ofLineValue value: some StringProtocol) -> String? {
        guard !value.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\"" }) else { return nil }
        return value.trimmingSpaces
    }

    /// Whether a VTIMEZONE of `timeZoneID` (as its TZID line reads, `nil` when that needs libical's
    /// reading) may be needed: some time names it, or that cannot be ruled out. Beyond
    /// `maximumTimeZoneIDs` distinct TZIDs, times are read as floating: their zones are not needed.
    func mayUse(timeZoneID: String?) -> Bool {
        guard !hasUncertainReferences else { return true }
        guard let timeZoneID else { return !referencedTimeZoneIDSet.isEmpty }
        return referencedTimeZoneIDSet.contains(timeZoneID)
    }

    /// Whether another VEVENT of the input may have the same UID (a copy, an override, an iTIP
    /// message about it).
    func mayRepeat(_ uid: String?) -> Bool {
        guard let uid, !uid.isEmpty else { return false }
        if hasUncertainUIDs { return true }
        let hash = UIDFilter.hash(uid)
        if uids.count == 1 { return uids[0].repeated[hash] != nil }
        // In two stretches' filters, or repeated within the one that has it (filters first: they are cheap).
        var holder: Int?
        for index in uids.indices where uids[index].filter.contains(hash) {
            if holder != nil { return true }
            holder = index
        }
        return holder.map { uids[$0].repeated[hash] != nil } ?? false
    }

    /// A line on or after the BEGIN of the last VEVENT with `uid` when it occurs more than once
    /// (the line itself when one stretch had the UID more than once, else the end of the last
    /// stretch that may have it); `nil` when that cannot be told (NUL bytes) or it occurs once.
    func lastEventLine(of uid: String) -> Int? {
        guard !hasUncertainUIDs else { return nil }
        let hash = UIDFilter.hash(uid)
        if uids.count == 1 { return uids[0].repeated[hash] }
        guard let stretch = uids.last(where: { $0.filter.contains(hash) }) else { return nil }
        return stretch.repeated[hash] ?? stretch.lastLine
    }

    /// Whether an event with `uid` may be the master of an override elsewhere in the input: an
    /// override of its UID repeats the UID (`mayRepeat`), or some override's UID could not be read.
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

/// The first pass without the scanner: physical lines found eight bytes at a time; only lines that
/// start like a name the outline reads (or like the start of one, folded) are looked at.
private struct RawOutlineScan {
    let input: InputBytes
    /// `input.bytes`, refreshed after every read.
    private var bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// The number of the last physical line read (1-based).
    private var physicalLine = 0
    private var outline = InputOutline()
    private var inEvent = false
    /// The line of the current VEVENT's BEGIN.
    private var eventLine = 0
    /// The VTIMEZONE being read: where its BEGIN line starts, its line, and its TZID.
    private var timeZone: (start: Int, line: Int, timeZoneID: String?)?
    /// Where the logical line last read ends in the input (after its line end).
    private var logicalEnd = 0
    /// The subcomponents open inside the VEVENT.
    private var nested = NestedComponents()
    private var hasRecurrenceID = false
    private var hasUID = false
    private var uid: [UInt8] = []
    /// The bytes of the logical line being read (name, parameters, value; folds removed).
    private var logical: [UInt8] = []
    /// How many bytes of the input the buffer dropped so far: a buffer index plus this is an offset.
    private var dropped = 0
    /// The bytes wanted between segment starts, if they are wanted.
    var segmentSize: Int?
    /// How many `BEGIN:VCALENDAR` lines came so far, and whether the last VCALENDAR line is a BEGIN
    /// (`nil` before the first).
    private var calendarBegins = 0
    private var lastCalendarLineIsBegin: Bool?

    /// - Parameter offset: Where the stretch starts in the input.
    init(input: InputBytes, expectedUIDs: Int, offset: Int = 0) {
        self.input = input
        bytes = input.bytes
        if offset == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        dropped = offset
        uidIndex = InputOutline.UIDIndex(filter: UIDFilter(expectedUIDs: expectedUIDs))
    }

    /// The VEVENT UIDs of the stretch.
    private var uidIndex: InputOutline.UIDIndex

    /// What a stretch's scan finds: its outline (lines numbered from the stretch's first), how many
    /// lines it has, where it can be cut in segments, and its VCALENDAR lines.
    struct Part {
        var outline: InputOutline
        var lines: Int
        var segmentStarts: [(offset: Int, line: Int, calendarBegins: Int, lastCalendarLineIsBegin: Bool?)]
        var calendarBegins: Int
        var lastCalendarLineIsBegin: Bool?
    }

    /// The segment starts found, with the VCALENDAR lines before them in this stretch.
    private var segmentStarts: [(offset: Int, line: Int, calendarBegins: Int, lastCalendarLineIsBegin: Bool?)] = []

    /// The stretch's outline, or `nil` when the input has NUL bytes.
    mutating func scan() -> Part? {
        guard let outline = scanOutline() else { return nil }
        return Part(
            outline: outline, lines: physicalLine, segmentStarts: segmentStarts, calendarBegins: calendarBegins,
            lastCalendarLineIsBegin: lastCalendarLineIsBegin)
    }

    private mutating func scanOutline() -> InputOutline? {
        var pendingStart: (range: Range<Int>, number: Int)?
        while true {
            guard let (line, number) = pendingStart ?? nextPhysicalLine().map({ ($0, physicalLine) }) else { break }
            pendingStart = nil
            let lineStart = dropped + line.lowerBound
            let mayBeNamed = Self.kind(of: line, in: bytes) != nil || Self.isNameStart(line, in: bytes)
            guard mayBeNamed else { continue }
            // Gather the folds of the line: the name itself may be folded (RFC 5545 3.1).
            logical.removeAll(keepingCapacity: true)
            logical.append(contentsOf: bytes[line])
            logicalEnd = dropped + position
            while let next = nextPhysicalLine(keepingFolds: true) {
                if let first = next.first.map({ bytes[$0] }), first == 0x20 || first == 0x09 {
                    logical.append(contentsOf: bytes[next.dropFirst()])
                    logicalEnd = dropped + position
                } else {
                    pendingStart = (next, physicalLine)
                    break
                }
            }
            if input.sawNUL { return nil }
            let kind = logical.withUnsafeBufferPointer { Self.kind(of: 0..<$0.count, in: $0) }
            if kind == .begin { noteSegmentStart(at: lineStart, line: number) }
            if let kind { handle(kind, line: number, start: lineStart) }
        }
        if input.sawNUL { return nil }
        finishEvent()
        if timeZone != nil { outline.timeZonePlaces = nil }  // a VTIMEZONE without its END: the cutter salvages it
        uidIndex.lastLine = physicalLine
        outline.uids = [uidIndex]
        return outline
    }

    private enum Kind { case begin, end, uid, tzid, recurrenceID, timeReference, method }

    /// Which name a line starts with (followed by `;`, `:` or the line's end), if it is one the
    /// outline reads.
    private static func kind(of line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Kind? {
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

    /// Whether a physical line is nothing but the start of a name the outline reads (`RR`,
    /// `RECURRENCE-`): a name folded inside, which the line's folds complete. Most lines are
    /// ruled out by their first byte or their length.
    private static func isNameStart(_ line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = line.first, line.count < longestName, namesByFirstByte[Int(bytes[start] | 0x20)] else { return false }
        for name in names where name.count > line.count {
            var index = 0
            while index < line.count, bytes[start + index] == name[index] || bytes[start + index] == name[index] | 0x20 { index += 1 }
            if index == line.count { return true }
        }
        return false
    }

    /// The names `kind(of:in:)` reads, uppercased.
    private static let names = ["BEGIN", "END", "EXDATE", "UID", "TZID", "RECURRENCE-ID", "RDATE", "DTSTART", "DTEND", "DUE", "METHOD"]
        .map { Array($0.utf8) }

    /// Whether some name starts with a byte (lowercase).
    private static let namesByFirstByte: [Bool] = (0..<256).map { byte in names.contains { $0[0] | 0x20 == UInt8(byte) } }

    /// Enough of a line to tell its name: `RECURRENCE-ID` and its `;` or `:`.
    private static let longestName = 16

    /// Whether `line` starts with `name` in any case, then `;`, `:` or its end (RFC 5545 allows a
    /// fold right after the name: `UID` then ` :value`).
    private static func matches(_ line: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard line.count >= count else { return false }
        let upper = name.utf8Start
        for index in 0..<count where line[index] != upper[index] && line[index] != upper[index] | 0x20 {
            return false
        }
        return line.count == count || line[count] == 0x3A || line[count] == 0x3B || line[count] == 0x0D || line[count] == 0x0A
    }

    /// Whether the line that starts at `head`'s start is the start of a name, folded (`isNameStart`):
    /// its end is looked for within `head` only (a long line is scanned once, by the caller).
    private func isShortNameStart(_ head: Range<Int>) -> Bool {
        guard let start = head.first, Self.namesByFirstByte[Int(bytes[start] | 0x20)] else { return false }
        let end = ContentLineScanner.lineEnd(in: UnsafeBufferPointer(rebasing: bytes[..<head.upperBound]), from: start)
        return Self.isNameStart(start..<end, in: bytes)
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

    /// The value as the scanner decodes it (UTF-8, or Latin-1 when it is not UTF-8).
    private var valueText: Substring {
        let bytes = value
        if let text = String(validating: bytes, as: UTF8.self) { return Substring(text) }
        return Substring(String(bytes.lazy.map { Character(Unicode.Scalar($0)) }))
    }

    /// The component a BEGIN or END line names, as the cutter reads it: the value decoded,
    /// without surrounding spaces and tabs, uppercased.
    private var componentName: String {
        valueText.trimmingSpaces.uppercased()
    }

    /// Notes a segment start at a line that is exactly `BEGIN:VEVENT`, when the last is far enough back.
    private mutating func noteSegmentStart(at offset: Int, line: Int) {
        guard let segmentSize, logical == Self.beginEvent, offset - (segmentStarts.last?.offset ?? 0) >= segmentSize else { return }
        segmentStarts.append((offset, line, calendarBegins, lastCalendarLineIsBegin))
    }

    private static let beginEvent = Array("BEGIN:VEVENT".utf8)

    private mutating func handle(_ kind: Kind, line: Int, start: Int) {
        switch kind {
        case .begin:
            if timeZone != nil, valueIsTopLevelOrCalendar || valueIs("VEVENT") {
                outline.timeZonePlaces = nil  // a VTIMEZONE without its END: the cutter salvages it
                timeZone = nil
            }
            if valueIs("VEVENT") {
                finishEvent()
                inEvent = true
                eventLine = line
            } else if valueIsTopLevelOrCalendar {
                finishEvent()
                if valueIs("VCALENDAR") {
                    calendarBegins += 1
                    lastCalendarLineIsBegin = true
                }
                if valueIs("VTIMEZONE"), outline.timeZonePlaces != nil { timeZone = (start, line, nil) }
            } else if inEvent {
                nested.begin(componentName)
            }
        case .end:
            if let (begin, beginLine, timeZoneID) = timeZone, valueIs("VTIMEZONE") || valueIs("VCALENDAR") {
                if valueIs("VTIMEZONE") {
                    outline.timeZonePlaces?.append(
                        InputOutline.TimeZonePlace(bytes: begin..<logicalEnd, line: beginLine, timeZoneID: timeZoneID))
                } else {
                    outline.timeZonePlaces = nil
                }
                timeZone = nil
            }
            if valueIs("VCALENDAR") { lastCalendarLineIsBegin = false }
            if valueIs("VEVENT") || valueIs("VCALENDAR") {
                finishEvent()
            } else if inEvent, !nested.isEmpty {
                nested.end(componentName)
            }
        case .method:
            // A value that is not UTF-8 is taken for a message too: only more events wait.
            let name = String(validating: value, as: UTF8.self)?.trimmingSpaces.uppercased()
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
            // A VTIMEZONE's own TZID (its STANDARD and DAYLIGHT have none); one with an escape or a
            // quote is left to libical's reading.
            guard timeZone != nil, timeZone?.timeZoneID == nil else { break }
            let timeZoneID = InputOutline.timeZoneID(ofLineValue: valueText)
            timeZone?.timeZoneID = timeZoneID
        }
    }

    /// The hash (`UIDFilter.hash`) of the event's UID as the import reads it (`TextValue`); `nil`
    /// when it is empty.
    private var uidHash: UInt64? {
        // Nearly every UID needs no decoding: its bytes, trimmed, are hashed as they are.
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
        let text = String(validating: uid, as: UTF8.self) ?? String(uid.lazy.map { Character(Unicode.Scalar($0)) })
        let decoded = TextValue.decode(Substring(text))
        return decoded.isEmpty ? nil : UIDFilter.hash(decoded)
    }

    /// Notes the TZID parameter of a line that holds times (`DTSTART;TZID=Europe/Berlin:...`), if
    /// any, as the reader will read it: unquoted, decoded as the line is.
    private mutating func noteTimeZoneReference() {
        guard let range = logical.withUnsafeBufferPointer(Self.timeZoneParameter) else { return }
        // Most times of a file name one of a few zones: a value seen last is not decoded again.
        let isLast = logical.withUnsafeBufferPointer { line in
            lastReference.withUnsafeBufferPointer { last in
                last.count == range.count && (range.isEmpty || memcmp(last.baseAddress!, line.baseAddress! + range.lowerBound, range.count) == 0)
            }
        }
        if isLast { return }
        // Decoded as the scanner decodes the whole line: UTF-8, or Latin-1 when it is not UTF-8.
        let value = logical[range].allSatisfy({ $0 < 0x80 }) || String(validating: logical, as: UTF8.self) != nil
            ? String(decoding: logical[range], as: UTF8.self)
            : String(logical[range].lazy.map { Character(Unicode.Scalar($0)) })
        lastReference = Array(logical[range])
        if value.unicodeScalars.contains(where: { $0 == "\\" || $0 == "^" || $0.value < 0x20 || $0.value == 0x7F }) {
            outline.hasUncertainReferences = true
            return
        }
        let tzid = value.trimmingSpaces
        guard !outline.referencedTimeZoneIDSet.contains(tzid) else { return }
        guard outline.referencedTimeZoneIDs.count < InputOutline.maximumTimeZoneIDs else {
            outline.hasMoreTimeZoneIDs = true
            return
        }
        outline.referencedTimeZoneIDs.append(tzid)
        outline.referencedTimeZoneIDSet.insert(tzid)
    }

    /// The bytes of the TZID parameter last noted.
    private var lastReference: [UInt8] = []

    /// Where the value of a line's first TZID parameter is (without its quotes); `nil` when it has none.
    static func timeZoneParameter(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
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
                if index - parameterStart >= 5, startsWithTZID(bytes, at: parameterStart) {
                    var value = (parameterStart + 5)..<index
                    if value.count >= 2, bytes[value.lowerBound] == 0x22, bytes[value.upperBound - 1] == 0x22 {
                        value = (value.lowerBound + 1)..<(value.upperBound - 1)
                    }
                    return value
                }
                if byte == 0x3A { return nil }
                parameterStart = index + 1
            }
            index += 1
        }
        return nil
    }

    /// Whether a parameter starts with `TZID=` in any case.
    private static func startsWithTZID(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        bytes[start] & 0xDF == 0x54 && bytes[start + 1] & 0xDF == 0x5A && bytes[start + 2] & 0xDF == 0x49
            && bytes[start + 3] & 0xDF == 0x44 && bytes[start + 4] == 0x3D
    }

    private mutating func finishEvent() {
        let hash = inEvent && hasUID ? uidHash : nil
        if let hash, uidIndex.filter.insert(hash) { uidIndex.repeated[hash] = eventLine }
        if inEvent, hasRecurrenceID, hash == nil { outline.hasOverrideWithoutUID = true }
        inEvent = false
        nested = NestedComponents()
        hasUID = false
        hasRecurrenceID = false
    }

    /// The next physical line (ended by LF, CR LF or a lone CR), valid until the next call. A line
    /// that starts like no line the outline reads (nor a fold, when `keepingFolds`), is only scanned
    /// past, not kept, and comes back empty: a line of a gigabyte costs a scan, not a copy.
    private mutating func nextPhysicalLine(keepingFolds: Bool = false) -> Range<Int>? {
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
                    let head = position..<min(count, position + Self.longestName)
                    keepsLine = isFold ? keepingFolds : Self.kind(of: head, in: bytes) != nil || isShortNameStart(head)
                }
            }
            let end = ContentLineScanner.lineEnd(in: bytes, from: resume)
            let needsMore = end == count || (end == count - 1 && bytes[end] == 0x0D)
            // A VTIMEZONE's bytes are found again by offset: the buffer need not keep them.
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
