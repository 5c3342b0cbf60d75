import Dispatch
import Foundation
import Streaks

/// Sessions, each with the line of the event whose place in the input it takes: two arrays, so
/// that the sessions can be handed on whole (`ImportBatch`), never copied one by one; or, when
/// sessions are only counted (`SessionResolver.countsOnly`), their counted form, in the same order.
struct PlacedSessions: Sendable {
    var sessions: [Session] = []
    var places: [Int] = []
    var counted: [CountedSession] = []

    /// Appends `other`'s sessions (moving them whole when this holds none).
    mutating func append(_ other: PlacedSessions) {
        if sessions.isEmpty {
            sessions = other.sessions
            places = other.places
        } else {
            sessions += other.sessions
            places += other.places
        }
        if counted.isEmpty {
            counted = other.counted
        } else {
            counted += other.counted
        }
    }
}

extension PlacedSessions {
    /// `parts`' sessions one after the other, each array made once at its final size (one part
    /// is moved whole).
    init(joining parts: [PlacedSessions]) {
        if parts.count == 1 {
            self = parts[0]
            return
        }
        sessions.reserveCapacity(parts.reduce(0) { $0 + $1.sessions.count })
        places.reserveCapacity(parts.reduce(0) { $0 + $1.places.count })
        counted.reserveCapacity(parts.reduce(0) { $0 + $1.counted.count })
        for part in parts {
            sessions += part.sessions
            places += part.places
            counted += part.counted
        }
    }
}

extension SessionResolver {
    /// The held events as the units' resolution reads them: in place, each record moved out while it
    /// goes into a session and back after (`takeOut`, `putBack`), never copied (a record has dozens
    /// of fields to retain and release). Each unit has its own events, so workers resolving
    /// different units never touch one event.
    typealias EventBuffer = UnsafeMutableBufferPointer<(record: EventRecord, calendar: Int)>

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

    /// Appends the sessions of one unit (its events are moved out of `events`).
    private mutating func append(
        _ unit: Unit, in events: EventBuffer, expansion: RecurrenceExpansion, to placed: inout PlacedSessions
    ) {
        let before = placed.sessions.count
        let line: Int
        switch unit {
        case .single(let index):
            line = events[index].record.begin.line
            appendSession(ofEventAt: index, in: events, id: nil, to: &placed)
        case .orphan(let index):
            line = events[index].record.begin.line
            orphanOverride(ofEventAt: index, in: events, to: &placed)
        case .series(let master, let overrides):
            line = events[master].record.begin.line
            let record = Self.takeOut(master, from: events)
            series(record, calendar: events[master].calendar, overrides: overrides, in: events, expansion: expansion, into: &placed)
            Self.putBack(record, at: master, in: events)
        }
        placed.places.append(contentsOf: repeatElement(line, count: placed.sessions.count - before))
    }

    /// The record of `events[index]`, moved out: a record passed on from its place to a method of
    /// the resolver would be copied whole. Its place holds no record until `putBack`, which must
    /// follow before anything else reads it (nothing between does: a unit's events are its own).
    static func takeOut(_ index: Int, from events: EventBuffer) -> EventRecord {
        recordPointer(index, in: events).move()
    }

    /// Moves a record taken out back to its place (an early group that said something is held again).
    static func putBack(_ record: consuming EventRecord, at index: Int, in events: EventBuffer) {
        recordPointer(index, in: events).initialize(to: record)
    }

    /// Where `events[index].record` is: a tuple's first element is at its start.
    private static func recordPointer(_ index: Int, in events: EventBuffer) -> UnsafeMutablePointer<EventRecord> {
        precondition(events.indices.contains(index))
        return UnsafeMutableRawPointer(events.baseAddress! + index).assumingMemoryBound(to: EventRecord.self)
    }

    /// Appends the session of `events[index]`, its record moved out for the call and back after.
    private mutating func appendSession(ofEventAt index: Int, in events: EventBuffer, id: String?, to placed: inout PlacedSessions) {
        let record = Self.takeOut(index, from: events)
        appendSession(of: record, calendar: events[index].calendar, id: id, to: &placed)
        Self.putBack(record, at: index, in: events)
    }

    /// `orphanOverride` of `events[index]`, its record moved out for the call and back after.
    private mutating func orphanOverride(ofEventAt index: Int, in events: EventBuffer, to placed: inout PlacedSessions) {
        let record = Self.takeOut(index, from: events)
        orphanOverride(record, calendar: events[index].calendar, to: &placed)
        Self.putBack(record, at: index, in: events)
    }

    /// The sessions of `units` (from `units(of: events)`), in input order: single events as they
    /// are, recurring events expanded (with their RECURRENCE-ID overrides, matched by UID across the
    /// input), and overrides whose recurring event is missing as single sessions; each with the line
    /// of the event whose place in the input it takes (a series' instances and overrides all take
    /// their recurring event's place).
    ///
    /// With `parallel`, the recurring events are expanded on every core: each worker has its own
    /// copy of this resolver (zones, methods, notes said so far), and the results are put back in
    /// input order, notes given once per input kept only where they come first.
    ///
    /// The records of the units' events are moved out of `events` while they go into sessions, and
    /// back after: `events` ends as it began.
    mutating func sessions(
        of units: ArraySlice<Unit>, in events: inout [(record: EventRecord, calendar: Int)], expansion: RecurrenceExpansion,
        parallel: Bool
    ) -> PlacedSessions {
        events.withUnsafeMutableBufferPointer { sessions(of: units, in: $0, expansion: expansion, parallel: parallel) }
    }

    private mutating func sessions(
        of units: ArraySlice<Unit>, in events: EventBuffer, expansion: RecurrenceExpansion, parallel: Bool
    ) -> PlacedSessions {
        let units = Array(units)
        let unitsPerChunk = 16
        let chunkCount = (units.count + unitsPerChunk - 1) / unitsPerChunk
        guard parallel, chunkCount > 1 else {
            var placed = PlacedSessions()
            for unit in units { append(unit, in: events, expansion: expansion, to: &placed) }
            return placed
        }
        // (The workers take out the records of their own units only, and are done before the
        // buffer's array is let go.)
        nonisolated(unsafe) let events = events
        var copy = self
        copy.diagnostics = []
        copy.defersOnceNotes = true
        let template = copy
        let pointsBefore = sessionsWithPointsProperty
        let lock = NSLock()
        nonisolated(unsafe) var results: [Int: SessionResolver] = [:]
        nonisolated(unsafe) var chunkSessions: [Int: PlacedSessions] = [:]
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            var resolver = template
            var made = PlacedSessions()
            for unit in units[chunk * unitsPerChunk..<min(units.count, (chunk + 1) * unitsPerChunk)] {
                resolver.append(unit, in: events, expansion: expansion, to: &made)
            }
            lock.withLock {
                results[chunk] = resolver
                chunkSessions[chunk] = made
            }
        }
        return lock.withLock {
            var sessions = PlacedSessions()
            var said: Set<String> = []
            for chunk in 0..<chunkCount {
                guard let resolver = results[chunk] else { continue }
                if let made = chunkSessions.removeValue(forKey: chunk) { sessions.append(made) }
                diagnostics += resolver.diagnostics
                for (key, note) in resolver.onceNotes where said.insert(key).inserted {
                    diagnostics.append(note)
                }
                sessionsWithPointsProperty += resolver.sessionsWithPointsProperty - pointsBefore
                reportedTimeZoneIDs.formUnion(resolver.reportedTimeZoneIDs)
                notedCancelMethod.formUnion(resolver.notedCancelMethod)
            }
            return sessions
        }
    }

    /// Appends an event's session with `id` (its place is added with the unit's), or its counted form.
    private mutating func appendSession(of record: borrowing EventRecord, calendar: Int, id: String?, to placed: inout PlacedSessions) {
        if countsOnly {
            if let counted = counted(from: record, calendar: calendar, id: id) { placed.counted.append(counted) }
        } else if let session = session(from: record, calendar: calendar, id: id) {
            placed.sessions.append(session)
        }
    }

    /// An override stands for one instance (RFC 5545 3.8.4.4); without its recurring event it is a
    /// single session, and recurrence properties of its own are ignored.
    private mutating func orphanOverride(_ record: EventRecord, calendar: Int, to placed: inout PlacedSessions) {
        let uid = record.uid ?? ""
        let ignored = record.isRecurring || !record.exceptionRules.isEmpty || !record.exceptionDates.isEmpty
            ? " (its own RRULE, RDATE, EXRULE and EXDATE are ignored: an override is one instance)" : ""
        diagnostics.append(Diagnostic(
            .warning, .recurrence, at: record.begin.location(),
            "RECURRENCE-ID override of \(uid.isEmpty ? "an event without UID" : uid), whose recurring event is not in the input; kept as a single session\(ignored)",
            sourceLine: record.begin.text))
        // (An explicit id, even the empty one a counted session carries, means no note of a missing UID.)
        let id = record.recurrenceID.map { countsOnly ? "" : "\(uid)/\(Self.recurrenceIDText($0.local, isDate: $0.isDate, isUTC: $0.isUTC))" }
        appendSession(of: record, calendar: calendar, id: id, to: &placed)
    }

    /// How long each instance lasts: the master's exact length (DTEND), or its nominal DURATION.
    private enum InstanceLength {
        case days(Int)
        case exact(seconds: Int64)
        case nominal(days: Int, seconds: Int64)
    }

    /// One recurring event: its instances within the window, minus EXDATE and EXRULE, with overrides applied.
    private mutating func series(
        _ master: EventRecord, calendar: Int, overrides: [Int], in events: EventBuffer,
        expansion: RecurrenceExpansion, into placed: inout PlacedSessions
    ) {
        guard let startValue = master.start else {
            // No start: nothing to expand; the overrides still stand for themselves.
            _ = session(from: master, calendar: calendar)
            for override in overrides { orphanOverride(ofEventAt: override, in: events, to: &placed) }
            return
        }
        if master.isCancelled || master.hasImpossibleTime { return }
        let uid = master.uid ?? "\(InputMap.name):\(master.begin.line)"
        let startLine = master.startLine ?? master.begin
        let firstStart = resolve(startValue, line: startLine, calendar: calendar)
        let clock: SeriesClock
        switch firstStart {
        case .date: clock = .date
        case .floating: clock = .floating
        case .instant:
            if !startValue.isUTC, let tzid = startValue.timeZoneID, let rules = zone(named: tzid, calendar: calendar) {
                clock = .zoned(rules)
            } else {
                clock = .utc
            }
        }
        // The series runs on the wall-clock time as written, even when DTSTART itself falls in a DST
        // gap (RFC 5545 3.3.10 moves only the instances that fall in one).
        let dtstart = startValue.local
        let firstEnd = endTime(of: master, start: firstStart, startValue: startValue, calendar: calendar)
        warnIfEnded(master, before: firstStart, end: firstEnd, kept: "its sessions are kept with their points")
        let length: InstanceLength
        if case .date = clock {
            length = .days(max(0, clock.local(firstStart).day.distance(to: clock.local(firstEnd).day)))
        } else if master.end == nil, let duration = master.duration {
            length = .nominal(days: duration.sign * duration.days, seconds: Int64(duration.sign * duration.seconds))
        } else {
            length = .exact(seconds: Int64(firstStart.seconds(until: firstEnd)))
        }
        let propertyValue = propertyPoints(of: master)
        let cap = expansion.maximumInstancesPerRule
        let window = Self.wallClockWindow(expansion, dtstart: dtstart)
        let seriesLine = master.recurrenceLine ?? master.begin

        // The recurrence set: DTSTART, each RRULE, each RDATE (RFC 5545 3.8.5), each start with its
        // key; sorted by key below, where of two starts with one key the later one stands.
        var starts: [(key: Int64, local: LocalDateTime)] = []
        var explicitEnds: [Int64: SessionTime] = [:]
        if master.recurrenceRules.isEmpty, window.contains(dtstart) {
            starts.append((clock.key(dtstart), dtstart))
        }
        // The series' rules share one budget of steps: an event with thousands of rules costs no more than one.
        var budget = RuleIterator.stepBudget(cap: cap)
        var unexpanded = 0
        for rule in master.recurrenceRules {
            guard budget > 0 else {
                unexpanded += 1
                continue
            }
            let (ruleStarts, problems) = RuleIterator.starts(
                rule: rule.text, dtstart: dtstart, isDate: clock.isDate, clock: clock, window: window,
                counted: Self.countedDays(expansion), cap: cap, budget: &budget)
            starts.reserveCapacity(starts.count + ruleStarts.count)
            var hint = 0
            for local in ruleStarts { starts.append((clock.key(local, hint: &hint), local)) }
            report(problems, rule: "RRULE", text: rule.text, line: rule.line ?? seriesLine)
        }
        for (index, date) in master.recurrenceDates.enumerated() {
            if index >= cap {
                report([.capped(cap)], rule: "RDATE", text: "…", line: seriesLine)
                break
            }
            let local = self.local(of: date.start, on: clock, calendar: calendar)
            guard window.contains(local) else { continue }
            let key = clock.key(local)
            starts.append((key, local))
            if let end = date.end, !end.isDate || clock.isDate {
                explicitEnds[key] = clock.sessionTime(self.local(of: end, on: clock, calendar: calendar))
            } else if let duration = date.duration {
                explicitEnds[key] = add(duration, to: clock.sessionTime(local), startValue: startValue, calendar: calendar, line: seriesLine)
            }
        }

        starts = Self.lastOfEachKey(starts) { $0.key }

        // What EXDATE and EXRULE take away (EXDATE also removes an instance that an override names).
        var excludedKeys: Set<Int64> = []
        var excludedDays: Set<Day> = []
        for exception in master.exceptionDates {
            if exception.isDate, !clock.isDate {
                excludedDays.insert(exception.day)  // a DATE EXDATE on a timed series, as Exchange writes it
            } else {
                excludedKeys.insert(key(of: exception, on: clock, calendar: calendar))
            }
        }
        for rule in master.exceptionRules {
            guard budget > 0 else {
                unexpanded += 1
                continue
            }
            let (ruleStarts, problems) = RuleIterator.starts(
                rule: rule.text, dtstart: dtstart, isDate: clock.isDate, clock: clock, window: window,
                counted: Self.countedDays(expansion), cap: cap, includesStart: false, budget: &budget)
            for local in ruleStarts { excludedKeys.insert(clock.key(local)) }
            report(problems, rule: "EXRULE", text: rule.text, line: rule.line ?? seriesLine)
        }
        if unexpanded > 0 {
            diagnostics.append(Diagnostic(
                .warning, .recurrence, at: seriesLine.location(),
                "\(unexpanded) more RRULE and EXRULE lines of this event are not expanded: its rules used up their budget of \(RuleIterator.stepBudget(cap: cap)) steps",
                sourceLine: seriesLine.text))
        }
        let excludesAny = !excludedKeys.isEmpty || !excludedDays.isEmpty
        // (Constants for the function below: a variable it captured would be checked for exclusive
        // access on every instance.)
        let keysExcluded = excludedKeys
        let daysExcluded = excludedDays
        func isExcluded(_ key: Int64, _ local: LocalDateTime) -> Bool {
            excludesAny && (keysExcluded.contains(key) || daysExcluded.contains(local.day))
        }
        // The excluded keys in order, walked once beside the starts (sorted by key too): no hash
        // per instance.
        let excludedInOrder = excludedKeys.sorted()
        var nextExcluded = 0

        // Overrides, by the instance they name (each by its index in `events`: a series may have
        // thousands, each a large record).
        // (Collected in order and sorted by key: of two overrides of one instance, the later stands,
        // as a dictionary written in order keeps it.)
        var exact: [(key: Int64, override: Int)] = []
        exact.reserveCapacity(overrides.count)
        var future: [(key: Int64, recurrenceID: LocalDateTime, override: Int)] = []
        for override in overrides {
            guard let recurrenceID = events[override].record.recurrenceID else { continue }
            var local = self.local(of: recurrenceID, on: clock, calendar: calendar, seriesZoneID: startValue.timeZoneID)
            if recurrenceID.isDate, !clock.isDate,
               let match = starts.first(where: { $0.local.day == recurrenceID.day })?.local {
                local = match  // a DATE RECURRENCE-ID names the instance on that day (the first, if several)
            }
            let key = clock.key(local)
            if isExcluded(key, local) { continue }
            if events[override].record.isThisAndFuture {
                future.append((key, local, override))
            } else {
                exact.append((key, override))
            }
        }
        future.sort { $0.key < $1.key }

        // The sessions, in start order.
        if countsOnly {
            placed.counted.reserveCapacity(placed.counted.count + starts.count)
        } else {
            placed.sessions.reserveCapacity(placed.sessions.count + starts.count)
        }
        // The exact overrides in key order, walked once beside the starts (sorted by key too): no
        // lookup per instance.
        let exactByKey = Self.lastOfEachKey(exact) { $0.key }
        var exactUsed = [Bool](repeating: false, count: exactByKey.count)
        var nextExact = 0
        // The keys of instances an override stood for, for the RANGE=THISANDFUTURE ones.
        var usedOverrides: Set<Int64> = []
        let source = master.begin.location()
        // On a UTC or zoned clock the key is the instance's instant: its start, and with an exact
        // length its end, need no second conversion.
        let keyIsInstant: Bool
        switch clock {
        case .utc, .zoned: keyIsInstant = true
        case .date, .floating: keyIsInstant = false
        }
        for (key, local) in starts {
            while nextExcluded < excludedInOrder.count, excludedInOrder[nextExcluded] < key { nextExcluded += 1 }
            if nextExcluded < excludedInOrder.count, excludedInOrder[nextExcluded] == key { continue }
            if !daysExcluded.isEmpty, daysExcluded.contains(local.day) { continue }
            let id = makesInstanceIDs ? Self.instanceID(uid: uid, local, clock: clock) : uid
            while nextExact < exactByKey.count, exactByKey[nextExact].key < key { nextExact += 1 }
            if nextExact < exactByKey.count, exactByKey[nextExact].key == key {
                let override = exactByKey[nextExact].override
                exactUsed[nextExact] = true
                if !future.isEmpty { usedOverrides.insert(key) }
                appendSession(ofEventAt: override, in: events, id: id, to: &placed)
                continue
            }
            if !future.isEmpty, let rule = future.last(where: { $0.key <= key }) {
                if rule.key == key { usedOverrides.insert(key) }
                shifted(local, by: rule, in: events, clock: clock, id: id, to: &placed)
                continue
            }
            let start = keyIsInstant ? .instant(secondsSince1970: key) : clock.sessionTime(local)
            let end: SessionTime
            if !explicitEnds.isEmpty, let explicit = explicitEnds[key] {
                end = explicit
            } else if keyIsInstant, case .exact(let seconds) = length {
                end = .instant(secondsSince1970: key + seconds)
            } else {
                end = Self.end(of: local, length: length, clock: clock)
            }
            let points = points(propertyValue: propertyValue, start: start, end: end)
            if countsOnly {
                placed.counted.append(CountedSession(start: start, end: end, points: points, line: master.begin.line))
            } else {
                placed.sessions.append(session(id: id, start: start, end: end, points: points, describedBy: master, source: source))
            }
        }
        // Overrides whose instance lies outside the window, or is not in the set: they stand for themselves.
        for ((_, override), isUsed) in zip(exactByKey, exactUsed) where !isUsed {
            guard let recurrenceID = events[override].record.recurrenceID else { continue }
            let id = countsOnly ? "" : Self.instanceID(uid: uid, self.local(of: recurrenceID, on: clock, calendar: calendar), clock: clock)
            appendSession(ofEventAt: override, in: events, id: id, to: &placed)
        }
        for rule in future where !usedOverrides.contains(rule.key) {
            let id = countsOnly ? "" : Self.instanceID(uid: uid, rule.recurrenceID, clock: clock)
            appendSession(ofEventAt: rule.override, in: events, id: id, to: &placed)
        }
    }

    /// Items sorted by key; of items with one key, the one added last (as a dictionary keyed by
    /// key, written in order, keeps it). Starts and exact overrides alike.
    private static func lastOfEachKey<Item>(_ items: [Item], key: (Item) -> Int64) -> [Item] {
        var isSorted = true
        for index in items.indices.dropFirst() where key(items[index - 1]) >= key(items[index]) {
            isSorted = false
            break
        }
        if isSorted { return items }
        let ordered = items.indices.sorted { (key(items[$0]), $0) < (key(items[$1]), $1) }
        var result: [Item] = []
        result.reserveCapacity(items.count)
        for index in ordered {
            if let last = result.last, key(last) == key(items[index]) {
                result[result.count - 1] = items[index]
            } else {
                result.append(items[index])
            }
        }
        return result
    }

    /// An instance after a RANGE=THISANDFUTURE override: moved by the override's shift, with its length,
    /// points and summary; none when the override cancels it.
    private mutating func shifted(
        _ local: LocalDateTime,
        by rule: (key: Int64, recurrenceID: LocalDateTime, override: Int), in events: EventBuffer,
        clock: SeriesClock, id: String, to placed: inout PlacedSessions
    ) {
        let override = events[rule.override].record
        let calendar = events[rule.override].calendar
        guard !override.isCancelled, let overrideStartValue = override.start else { return }
        let overrideStart = resolve(overrideStartValue, line: override.startLine ?? override.begin, calendar: calendar)
        let overrideEnd = endTime(of: override, start: overrideStart, startValue: overrideStartValue, calendar: calendar)
        let shift = rule.recurrenceID.distance(to: clock.local(overrideStart))
        let movedLocal = local.advanced(bySeconds: shift)
        let start = clock.sessionTime(movedLocal)
        let end = Self.end(of: movedLocal, length: .exact(seconds: Int64(overrideStart.seconds(until: overrideEnd))), clock: clock)
        // (The property is read first: a call on the resolver whose argument changes it copies it whole.)
        let propertyValue = propertyPoints(of: override)
        let points = points(propertyValue: propertyValue, start: start, end: end)
        if countsOnly {
            placed.counted.append(CountedSession(start: start, end: end, points: points, line: override.begin.line))
        } else {
            placed.sessions.append(session(id: id, start: start, end: end, points: points, describedBy: override, source: override.begin.location()))
        }
    }

    private static func end(of local: LocalDateTime, length: InstanceLength, clock: SeriesClock) -> SessionTime {
        switch (length, clock) {
        case (.days(let days), _):
            return .date(local.day.advanced(by: days))
        case (.exact(let seconds), .date):
            return .date(local.day.advanced(by: Int(seconds / 86_400)))
        case (.exact(let seconds), .floating):
            return .floating(local.advanced(bySeconds: seconds))
        case (.exact(let seconds), _):
            return .instant(secondsSince1970: clock.key(local) + seconds)
        case (.nominal(let days, let seconds), .date):
            return .date(local.day.advanced(by: days + Int(seconds / 86_400)))
        case (.nominal(let days, let seconds), .floating):
            return .floating(local.advanced(bySeconds: Int64(days) * 86_400 + seconds))
        case (.nominal(let days, let seconds), _):
            return .instant(secondsSince1970: clock.key(local.advanced(bySeconds: Int64(days) * 86_400)) + seconds)
        }
    }

    /// A DATE or DATE-TIME (RDATE, EXDATE, RECURRENCE-ID) as a wall-clock time on the series' clock.
    ///
    /// `seriesZoneID` is the TZID the series' own start names: a time in the same zone is read with
    /// the clock's rules (`zone(named:calendar:)` gives the same for the same TZID and calendar).
    private mutating func local(of time: ICalTime, on clock: SeriesClock, calendar: Int, seriesZoneID: String? = nil) -> LocalDateTime {
        if time.isDate {
            // A date on a timed series is that date's midnight on the series' clock, as libical and
            // python-recurring-ical-events read it (RFC 5545 leaves it open).
            return LocalDateTime(day: time.day, secondOfDay: 0)
        }
        switch clock {
        case .date:
            return LocalDateTime(day: time.day, secondOfDay: 0)
        case .floating:
            return time.local
        case .utc, .zoned:
            let resolved: SessionTime
            if time.isUTC {
                resolved = .instant(secondsSince1970: time.local.secondsSince1970)
            } else if case .zoned(let rules) = clock, let tzid = time.timeZoneID, tzid == seriesZoneID {
                resolved = .instant(secondsSince1970: rules.instant(for: time.local))
            } else if let tzid = time.timeZoneID, let rules = zone(named: tzid, calendar: calendar) {
                resolved = .instant(secondsSince1970: rules.instant(for: time.local))
            } else {
                return time.local  // floating or unknown zone: the series' own wall clock
            }
            return clock.local(resolved)
        }
    }

    private mutating func key(of time: ICalTime, on clock: SeriesClock, calendar: Int) -> Int64 {
        clock.key(local(of: time, on: clock, calendar: calendar))
    }

    private mutating func report(_ problems: [RuleIterator.Problem], rule: String, text: String, line: ContentLine) {
        for problem in problems {
            let message: String
            switch problem {
            case .capped(let cap):
                message = "\(rule):\(text) gives more than \(cap) instances in the report's window; the rest are not counted"
            case .overBudget(let steps):
                message = "\(rule):\(text) matches too rarely to expand: it was given up after \(steps) steps; the instances found before are counted"
            case .impossible(let reason):
                message = "\(rule):\(text) has no instances (\(reason)); only DTSTART counts"
            case .unreadable(let reason):
                message = "\(rule):\(text) cannot be read (\(reason)); it adds nothing"
            case .misplaced(let reason):
                message = "\(rule):\(text): \(reason) (RFC 5545 3.3.10)"
            }
            diagnostics.append(Diagnostic(.warning, .recurrence, at: line.location(), message, sourceLine: line.text))
        }
    }

    /// The days whose instances count toward the cap: the report's window without its margins.
    private static func countedDays(_ expansion: RecurrenceExpansion) -> ClosedRange<Day>? {
        guard let from = expansion.from else { return nil }
        return min(from, expansion.through)...expansion.through
    }

    /// The wall-clock range whose instances become sessions.
    private static func wallClockWindow(_ expansion: RecurrenceExpansion, dtstart: LocalDateTime) -> ClosedRange<LocalDateTime> {
        let margin = RecurrenceExpansion.marginDays
        let upper = LocalDateTime(day: expansion.through.advanced(by: margin), secondOfDay: 86_399)
        let lower = expansion.from.map { LocalDateTime(day: $0.advanced(by: -margin), secondOfDay: 0) } ?? dtstart
        return min(lower, upper)...upper
    }

    /// A recurrence id as iCalendar writes it: `20240301`, `20240301T090000Z` or `20240301T090000`.
    static func recurrenceIDText(_ local: LocalDateTime, isDate: Bool, isUTC: Bool) -> String {
        idText(prefix: "", local, isDate: isDate, isUTC: isUTC)
    }

    /// An instance's session id, `UID/recurrence id`, the id as the series' clock writes it (a date
    /// on a date series, UTC on a UTC one, else the wall-clock time): a series makes one per
    /// instance, so it is written into one new string rather than pieced together.
    ///
    /// ```swift
    /// let local = LocalDateTime(year: 2024, month: 3, day: 1, hour: 9, minute: 30)!
    /// print(SessionResolver.instanceID(uid: "run@example.com", local, clock: .utc))
    /// // Prints "run@example.com/20240301T093000Z"
    /// ```
    static func instanceID(uid: String, _ local: LocalDateTime, clock: SeriesClock) -> String {
        switch clock {
        case .date: idText(prefix: uid, separator: true, local, isDate: true, isUTC: false)
        case .utc: idText(prefix: uid, separator: true, local, isDate: false, isUTC: true)
        case .floating, .zoned: idText(prefix: uid, separator: true, local, isDate: false, isUTC: false)
        }
    }

    /// `prefix`, a `/` when `separator`, and the recurrence id: `20240301`, `20240301T090000Z` or
    /// `20240301T090000` (a year outside 0...9999 as `String(year)` padded to four characters),
    /// written into one new string (the prefix copied whole).
    private static func idText(prefix: String, separator: Bool = false, _ local: LocalDateTime, isDate: Bool, isUTC: Bool) -> String {
        let (year, month, day) = local.day.components
        guard (0...9999).contains(year) else {
            let date = pad(year, 4) + pad(month, 2) + pad(day, 2)
            let (hour, minute, second) = local.timeOfDay
            let text = isDate ? date : date + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2) + (isUTC ? "Z" : "")
            return prefix + (separator ? "/" : "") + text
        }
        var prefix = prefix
        return prefix.withUTF8 { head in
            let count = head.count + (separator ? 1 : 0) + (isDate ? 8 : isUTC ? 16 : 15)
            return String(unsafeUninitializedCapacity: count) { buffer in
                if let source = head.baseAddress, let target = buffer.baseAddress {
                    target.initialize(from: source, count: head.count)
                }
                var index = head.count
                if separator {
                    buffer[index] = 0x2F
                    index += 1
                }
                write(year, 4, to: buffer, at: &index)
                write(month, 2, to: buffer, at: &index)
                write(day, 2, to: buffer, at: &index)
                if !isDate {
                    let (hour, minute, second) = local.timeOfDay
                    buffer[index] = 0x54
                    index += 1
                    write(hour, 2, to: buffer, at: &index)
                    write(minute, 2, to: buffer, at: &index)
                    write(second, 2, to: buffer, at: &index)
                    if isUTC {
                        buffer[index] = 0x5A
                        index += 1
                    }
                }
                return index
            }
        }
    }

    /// Writes `value` in `width` decimal digits (zeros first) at `index`, and moves it on.
    private static func write(_ value: Int, _ width: Int, to buffer: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) {
        var value = value
        for place in stride(from: index + width - 1, through: index, by: -1) {
            buffer[place] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
            value /= 10
        }
        index += width
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension SeriesClock {
    var isDate: Bool {
        if case .date = self { return true }
        return false
    }
}

extension LocalDateTime {
    /// Seconds from this wall-clock time to `other`.
    func distance(to other: LocalDateTime) -> Int64 {
        other.secondsSince1970 - secondsSince1970
    }
}
