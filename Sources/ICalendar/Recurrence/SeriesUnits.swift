import CalendarDiagnostics
import Streaks

/// How held events are grouped before they become sessions: copies merged, cancellations applied,
/// each recurring event with the overrides of its UID.
extension SessionResolver {
    /// What one held event becomes, with the events it takes along.
    enum Unit: Sendable, Equatable {
        /// A single event.
        case single(Int)
        /// A recurring event (or one with overrides) and its overrides.
        case series(master: Int, overrides: [Int])
        /// An override whose recurring event is not in the input.
        case orphan(Int)

        /// Where the unit stands among the events: its event's, or its recurring event's, index.
        var position: Int {
            switch self {
            case .single(let index), .orphan(let index), .series(master: let index, overrides: _): index
            }
        }
    }

    /// The events grouped as they are resolved: each recurring event with the overrides of its UID
    /// (the first event of a UID claims them), in input order.
    ///
    /// Copies of one event (the same UID and RECURRENCE-ID, in several VCALENDARs or iTIP messages)
    /// count once: the copy with the highest SEQUENCE, then the latest DTSTAMP, then LAST-MODIFIED,
    /// then the last in the input, is kept, with a note that says how many were merged (RFC 5545
    /// 3.8.7.4, RFC 5546 2.1.5). A METHOD:CANCEL copy at least as recent removes the event, or with a
    /// RECURRENCE-ID its instance; other iTIP messages (REPLY, ...) stand for nothing.
    mutating func units(of events: inout [(record: EventRecord, calendar: Int)]) -> [Unit] {
        let kept = mergingCopies(&events)
        if let units = events.withUnsafeBufferPointer({ Self.unitsOfOneUID(kept, in: $0) }) { return units }
        var overridesByUID: [String: [Int]] = [:]
        var masterUIDs: Set<String> = []
        // (Events are read in place: a record has many fields to retain.)
        for index in kept {
            guard let uid = events[index].record.uid, !uid.isEmpty else { continue }
            if events[index].record.recurrenceID != nil {
                overridesByUID[uid, default: []].append(index)
            } else {
                masterUIDs.insert(uid)
            }
        }
        var claimed: Set<String> = []
        var units: [Unit] = []
        for index in kept {
            let uid = events[index].record.uid ?? ""
            if events[index].record.recurrenceID != nil {
                if uid.isEmpty || !masterUIDs.contains(uid) { units.append(.orphan(index)) }  // else: with its series
                continue
            }
            let overrides = uid.isEmpty || claimed.contains(uid) ? [] : overridesByUID[uid] ?? []
            if events[index].record.isRecurring || !overrides.isEmpty {
                claimed.insert(uid)
                units.append(.series(master: index, overrides: overrides))
            } else {
                units.append(.single(index))
            }
        }
        return units
    }

    /// `units(of:)` when the kept events all have one UID, as an early group's do (a recurring event
    /// and its overrides): no UID hashed; `nil` when they do not.
    private static func unitsOfOneUID(
        _ kept: [Int], in events: UnsafeBufferPointer<(record: EventRecord, calendar: Int)>
    ) -> [Unit]? {
        guard let first = kept.first else { return [] }
        let uid = events[first].record.uid ?? ""
        var hasMaster = false
        var overrides: [Int] = []
        for index in kept {
            guard (events[index].record.uid ?? "") == uid else { return nil }
            if events[index].record.recurrenceID != nil {
                overrides.append(index)
            } else {
                hasMaster = true
            }
        }
        var claimed = false
        var units: [Unit] = []
        for index in kept {
            if events[index].record.recurrenceID != nil {
                if uid.isEmpty || !hasMaster { units.append(.orphan(index)) }  // else: with its series
                continue
            }
            let mine = uid.isEmpty || claimed ? [] : overrides
            if events[index].record.isRecurring || !mine.isEmpty {
                claimed = true
                units.append(.series(master: index, overrides: mine))
            } else {
                units.append(.single(index))
            }
        }
        return units
    }

    /// The events that stand for something, in input order: one copy of each event (see
    /// `units(of:)`), cancellations applied, annotations, messages and impossible events left out.
    private mutating func mergingCopies(_ events: inout [(record: EventRecord, calendar: Int)]) -> [Int] {
        // Nearly always nothing is merged: no event is an iTIP message, and no two are copies.
        if !methods.values.contains(where: Self.messageMethods.contains), let standing = Self.standingEventsWithoutCopies(events) {
            return standing
        }
        struct Key: Hashable {
            var uid: String
            var recurrenceID: ICalTime?
        }
        var copies: [Key: [Int]] = [:]
        var cancellations: [Key: [Int]] = [:]
        var candidates: [Int] = []
        for index in events.indices where !events[index].record.isAnnotation && !events[index].record.hasImpossibleTime {
            let method = methods.isEmpty ? nil : methods[events[index].calendar]
            if let method, Self.messageMethods.contains(method) {
                noteMessage(method, calendar: events[index].calendar, at: events[index].record.begin)
                if method == "CANCEL", let uid = events[index].record.uid, !uid.isEmpty {
                    cancellations[Key(uid: uid, recurrenceID: events[index].record.recurrenceID), default: []].append(index)
                }
                continue
            }
            candidates.append(index)
            guard let uid = events[index].record.uid, !uid.isEmpty else { continue }
            copies[Key(uid: uid, recurrenceID: events[index].record.recurrenceID), default: []].append(index)
        }
        func latest(_ indices: [Int]) -> Int? {
            indices.max { (events[$0].record.revision, $0) < (events[$1].record.revision, $1) }
        }
        var dropped: Set<Int> = []
        var cancelledUIDs: Set<String> = []
        var kept = Set(candidates)
        // A cancellation of one instance the input has no override for stands for that override.
        for (key, indices) in cancellations where key.recurrenceID != nil && copies[key] == nil {
            guard let cancel = latest(indices) else { continue }
            events[cancel].record.isCancelled = true
            kept.insert(cancel)
            copies[key] = [cancel]
        }
        for (key, indices) in copies {
            guard let winner = latest(indices) else { continue }
            let begin = events[winner].record.begin
            let revision = events[winner].record.revision
            if indices.count > 1 {
                dropped.formUnion(indices.filter { $0 != winner })
                let lines = indices.filter { $0 != winner }.map { String(events[$0].record.begin.line) }
                diagnostics.append(Diagnostic(
                    .note, .duplicate, at: begin.location(),
                    "\(indices.count) copies of the event \(Self.describe(key.uid, key.recurrenceID)) count once: this one (SEQUENCE \(revision.sequence)) is the latest; the others, on line\(lines.count == 1 ? "" : "s") \(lines.joined(separator: ", ")), are left out",
                    sourceLine: begin.text))
            }
            guard let cancel = latest(cancellations[key] ?? []) else { continue }
            let cancelRecord = events[cancel].record
            guard cancelRecord.revision >= revision else {
                diagnostics.append(Diagnostic(
                    .note, .duplicate, at: cancelRecord.begin.location(),
                    "this cancellation of \(Self.describe(key.uid, key.recurrenceID)) is older than the event (SEQUENCE \(cancelRecord.revision.sequence) < \(revision.sequence)); the event stays",
                    sourceLine: cancelRecord.begin.text))
                continue
            }
            if key.recurrenceID == nil {
                dropped.insert(winner)
                cancelledUIDs.insert(key.uid)
            } else {
                events[winner].record.isCancelled = true  // the instance is cancelled, not put back
            }
            diagnostics.append(Diagnostic(
                .note, .duplicate, at: begin.location(),
                "the event \(Self.describe(key.uid, key.recurrenceID)) is cancelled by the METHOD:CANCEL on line \(cancelRecord.begin.line); it counts no points",
                sourceLine: begin.text))
        }
        return kept.sorted().filter { index in
            !dropped.contains(index) && !(events[index].record.uid.map(cancelledUIDs.contains) ?? false)
        }
    }

    /// The events that stand for something when none is an iTIP message (every one but annotations
    /// and impossible events, in order), if no two with a UID have the same UID and RECURRENCE-ID;
    /// `nil` when some do (or when too many share a RECURRENCE-ID's time and UID to tell cheaply),
    /// and copies are merged. UIDs are compared only among events whose RECURRENCE-ID names the
    /// same wall-clock time, not hashed for every event.
    static func standingEventsWithoutCopies(_ events: [(record: EventRecord, calendar: Int)]) -> [Int]? {
        var standing: [Int] = []
        var keyed: [(time: Int64, index: Int)] = []
        standing.reserveCapacity(events.count)
        for index in events.indices where !events[index].record.isAnnotation && !events[index].record.hasImpossibleTime {
            standing.append(index)
            guard let uid = events[index].record.uid, !uid.isEmpty else { continue }
            keyed.append((events[index].record.recurrenceID?.local.secondsSince1970 ?? .min, index))
        }
        guard keyed.count > 1 else { return standing }
        keyed.sort { ($0.time, $0.index) < ($1.time, $1.index) }
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count, keyed[end].time == keyed[start].time { end += 1 }
            if end - start > 1 {
                // Events of one time: sorted by UID, those of one UID are compared pair by pair.
                let run = keyed[start..<end].map(\.index).sorted { events[$0].record.uid! < events[$1].record.uid! }
                var first = 0
                while first < run.count {
                    var last = first + 1
                    while last < run.count, events[run[last]].record.uid == events[run[first]].record.uid { last += 1 }
                    if last - first > 16 { return nil }
                    for a in first..<last {
                        for b in (a + 1)..<last where events[run[a]].record.recurrenceID == events[run[b]].record.recurrenceID {
                            return nil
                        }
                    }
                    first = last
                }
            }
            start = end
        }
        return standing
    }

    /// An event's UID, and its RECURRENCE-ID when it names one instance, for notes.
    private static func describe(_ uid: String, _ recurrenceID: ICalTime?) -> String {
        guard let recurrenceID else { return "UID \(uid)" }
        return "UID \(uid), RECURRENCE-ID \(recurrenceIDText(recurrenceID.local, isDate: recurrenceID.isDate, isUTC: recurrenceID.isUTC))"
    }
}
