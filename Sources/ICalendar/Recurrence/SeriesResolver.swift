import CalendarDiagnostics
import Dispatch
import Foundation
import Streaks

/// How held events become sessions: single events as they are, recurring events expanded over the
/// window with their overrides (RFC 5545 3.8.5, 3.8.4.4), in named steps.
extension SessionResolver {
    /// The sessions of `units` (from `units(of:)`), in input order: single events as they are,
    /// recurring events expanded (with their RECURRENCE-ID overrides, matched by UID across the
    /// input), and overrides whose recurring event is missing as single sessions; each with the line
    /// of the event whose place in the input it takes (a series' instances and overrides all take
    /// their recurring event's place).
    ///
    /// With a `parallelism` above 1, the units are resolved on that many threads at most, 16 at a
    /// time: each worker has its own copy of this resolver, and the results are put back in input
    /// order, notes given once per input kept only where they come first.
    mutating func sessions(
        of units: ArraySlice<Unit>, in events: [HeldGroups.Event], expansion: RecurrenceExpansion, parallelism: Int
    ) -> PlacedSessions {
        let unitsPerChunk = 16
        let chunkCount = (units.count + unitsPerChunk - 1) / unitsPerChunk
        guard parallelism > 1, chunkCount > 1 else {
            var placed = PlacedSessions()
            for unit in units { append(unit, in: events, expansion: expansion, to: &placed) }
            return placed
        }
        var copy = self
        copy.diagnostics = []
        copy.defersOnceNotes = true
        let template = copy
        let starts = Array(stride(from: units.startIndex, to: units.endIndex, by: unitsPerChunk))
        let results = (0..<chunkCount).map { _ in WorkerResult<(SessionResolver, PlacedSessions)>() }
        // Worker w resolves chunks w, w + threads, w + 2 × threads, ...: at most `parallelism` at once.
        let threads = min(parallelism, chunkCount)
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            for chunk in stride(from: worker, to: chunkCount, by: threads) {
                var resolver = template
                var made = PlacedSessions()
                for unit in units[starts[chunk]..<min(units.endIndex, starts[chunk] + unitsPerChunk)] {
                    resolver.append(unit, in: events, expansion: expansion, to: &made)
                }
                results[chunk].set((resolver, made))
            }
        }
        var placed = PlacedSessions()
        for result in results {
            let (resolver, made) = result.wait()
            placed.append(made)
            merge(resolver, countedBefore: template.sessionsWithPointsProperty)
        }
        return placed
    }

    /// Takes what a copy said and counted (it had counted `countedBefore` when it was made).
    mutating func merge(_ copy: SessionResolver, countedBefore: Int) {
        diagnostics += copy.diagnostics
        for (key, note) in copy.onceNotes { say(key: key, note) }
        sessionsWithPointsProperty += copy.sessionsWithPointsProperty - countedBefore
    }

    /// Appends the sessions of an event that nothing else in the input changes (`EventReadiness.now`):
    /// a single event's, or its series' (which has no overrides, or is an override without one).
    mutating func appendSessions(
        ofLone record: consuming EventRecord, calendar: Int, expansion: RecurrenceExpansion, to placed: inout PlacedSessions
    ) {
        if record.isAnnotation { return }
        guard record.isRecurring || record.recurrenceID != nil else {
            let before = placed.sessions.count
            appendSession(of: record, calendar: calendar, id: nil, to: &placed)
            if placed.sessions.count > before { placed.places.append(record.begin.line) }
            return
        }
        var events: [HeldGroups.Event] = [(record, calendar)]
        let units = units(of: &events)
        for unit in units { append(unit, in: events, expansion: expansion, to: &placed) }
    }

    /// Appends the sessions of one unit.
    private mutating func append(
        _ unit: Unit, in events: [HeldGroups.Event], expansion: RecurrenceExpansion, to placed: inout PlacedSessions
    ) {
        let before = placed.sessions.count
        let line: Int
        switch unit {
        case .single(let index):
            line = events[index].record.begin.line
            appendSession(of: events[index].record, calendar: events[index].calendar, id: nil, to: &placed)
        case .orphan(let index):
            line = events[index].record.begin.line
            orphanOverride(events[index].record, calendar: events[index].calendar, to: &placed)
        case .series(let master, let overrides):
            line = events[master].record.begin.line
            series(events[master].record, calendar: events[master].calendar, overrides: overrides, in: events, expansion: expansion, into: &placed)
        }
        placed.places.append(contentsOf: repeatElement(line, count: placed.sessions.count - before))
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
    private mutating func orphanOverride(_ record: borrowing EventRecord, calendar: Int, to placed: inout PlacedSessions) {
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

    // MARK: A recurring event, step by step

    /// One recurring event: the recurrence set (DTSTART, RRULE, RDATE), less what EXDATE and EXRULE
    /// exclude, with its overrides in place of the instances they name (exact, and RANGE=THISANDFUTURE),
    /// then the overrides that name no instance of the set.
    private mutating func series(
        _ master: borrowing EventRecord, calendar: Int, overrides: [Int], in events: [HeldGroups.Event],
        expansion: RecurrenceExpansion, into placed: inout PlacedSessions
    ) {
        guard let frame = seriesFrame(master, expansion: expansion) else {
            if master.start == nil {
                // No start: nothing to expand; the overrides still stand for themselves.
                _ = session(from: master, calendar: calendar)
                for override in overrides { orphanOverride(events[override].record, calendar: events[override].calendar, to: &placed) }
            }
            return
        }
        var budget = RuleIterator.stepBudget(cap: expansion.maximumInstancesPerRule)
        var unexpanded = 0
        let set = recurrenceSet(master, frame: frame, expansion: expansion, budget: &budget, unexpanded: &unexpanded)
        let excluded = exclusions(master, frame: frame, expansion: expansion, budget: &budget, unexpanded: &unexpanded)
        if unexpanded > 0 {
            diagnostics.append(Diagnostic(
                .warning, .recurrence, at: frame.seriesLine.location(),
                "\(unexpanded) more RRULE and EXRULE lines of this event are not expanded: its rules used up their budget of \(RuleIterator.stepBudget(cap: expansion.maximumInstancesPerRule)) steps",
                sourceLine: frame.seriesLine.text))
        }
        let moved = seriesOverrides(overrides, in: events, frame: frame, set: set, excluded: excluded)
        appendInstances(of: master, frame: frame, set: set, excluded: excluded, overrides: moved, in: events, to: &placed)
    }

    /// How long each instance lasts: the master's exact length (DTEND), or its nominal DURATION.
    private enum InstanceLength {
        case days(Int)
        case exact(seconds: Int64)
        case nominal(days: Int, seconds: Int64)
    }

    /// What every instance of a series shares: the clock it is computed on (RFC 5545 computes
    /// instances in the start's own zone), its first start as written, its length and points, and
    /// the wall-clock range whose instances become sessions.
    private struct SeriesFrame {
        var uid: String
        var clock: SeriesClock
        /// DTSTART's wall-clock time as written (also when it falls in a DST gap: RFC 5545 3.3.10
        /// moves only the instances that fall in one).
        var dtstart: LocalDateTime
        var startValue: ICalTime
        var length: InstanceLength
        var propertyValue: Int?
        /// The master's bits under the classifier, for each instance it describes.
        var classes: UInt64
        var window: ClosedRange<LocalDateTime>
        /// Where diagnostics about the series point: its first recurrence property, else its BEGIN.
        var seriesLine: ContentLine
    }

    /// The series' frame; `nil` when it has no instances at all (no start, cancelled, impossible).
    private mutating func seriesFrame(
        _ master: borrowing EventRecord, expansion: RecurrenceExpansion
    ) -> SeriesFrame? {
        guard let startValue = master.start, !master.isCancelled, !master.hasImpossibleTime else { return nil }
        let firstStart = resolve(startValue, line: master.startLine ?? master.begin)
        let clock: SeriesClock
        switch firstStart {
        case .date: clock = .date
        case .floating: clock = .floating
        case .instant:
            if !startValue.isUTC, let tzid = startValue.timeZoneID, let rules = zone(named: tzid) {
                clock = .zoned(rules)
            } else {
                clock = .utc
            }
        }
        let firstEnd = endTime(of: master, start: firstStart, startValue: startValue)
        warnIfEnded(master, before: firstStart, end: firstEnd, kept: "its sessions are kept with their points")
        let length: InstanceLength
        if case .date = clock {
            length = .days(max(0, clock.local(firstStart).day.distance(to: clock.local(firstEnd).day)))
        } else if master.end == nil, let duration = master.duration {
            length = .nominal(days: duration.sign * duration.days, seconds: Int64(duration.sign * duration.seconds))
        } else {
            length = .exact(seconds: Int64(firstStart.seconds(until: firstEnd)))
        }
        return SeriesFrame(
            uid: master.uid ?? "\(InputMap.name):\(master.begin.line)", clock: clock, dtstart: startValue.local,
            startValue: startValue, length: length, propertyValue: propertyPoints(of: master), classes: classes(of: master),
            window: Self.wallClockWindow(expansion, dtstart: startValue.local), seriesLine: master.recurrenceLine ?? master.begin)
    }

    /// The recurrence set (RFC 5545 3.8.5): DTSTART, each RRULE's and each RDATE's starts, by key
    /// (where two starts share a key, the later one stands), and the ends RDATE periods give.
    private struct RecurrenceSet {
        var starts: [(key: Int64, local: LocalDateTime)] = []
        var explicitEnds: [Int64: SessionTime] = [:]
    }

    private mutating func recurrenceSet(
        _ master: borrowing EventRecord, frame: SeriesFrame, expansion: RecurrenceExpansion, budget: inout Int,
        unexpanded: inout Int
    ) -> RecurrenceSet {
        var set = RecurrenceSet()
        let clock = frame.clock
        let cap = expansion.maximumInstancesPerRule
        if master.recurrenceRules.isEmpty, frame.window.contains(frame.dtstart) {
            set.starts.append((clock.key(frame.dtstart), frame.dtstart))
        }
        // The series' rules share one budget of steps: an event with thousands of rules costs no more than one.
        for rule in master.recurrenceRules {
            guard budget > 0 else {
                unexpanded += 1
                continue
            }
            let (ruleStarts, problems) = RuleIterator.starts(
                rule: rule.text, dtstart: frame.dtstart, isDate: clock.isDate, clock: clock, window: frame.window,
                counted: Self.countedDays(expansion), cap: cap, budget: &budget)
            set.starts.reserveCapacity(set.starts.count + ruleStarts.count)
            var hint = 0
            for local in ruleStarts { set.starts.append((clock.key(local, hint: &hint), local)) }
            report(problems, rule: "RRULE", text: rule.text, line: rule.line ?? frame.seriesLine)
        }
        for (index, date) in master.recurrenceDates.enumerated() {
            if index >= cap {
                report([.capped(cap)], rule: "RDATE", text: "…", line: frame.seriesLine)
                break
            }
            let local = self.local(of: date.start, on: clock)
            guard frame.window.contains(local) else { continue }
            let key = clock.key(local)
            set.starts.append((key, local))
            if let end = date.end, !end.isDate || clock.isDate {
                set.explicitEnds[key] = clock.sessionTime(self.local(of: end, on: clock))
            } else if let duration = date.duration {
                set.explicitEnds[key] = add(duration, to: clock.sessionTime(local), startValue: frame.startValue, line: frame.seriesLine)
            }
        }
        set.starts = Self.lastOfEachKey(set.starts) { $0.key }
        return set
    }

    /// What EXDATE and EXRULE take away (RFC 5545 3.8.5.1): instances by key, and whole days (a
    /// DATE EXDATE on a timed series, as Exchange writes it).
    private struct Exclusions {
        /// The excluded keys, ascending.
        var keys: [Int64] = []
        var days: Set<Day> = []

        func contains(key: Int64, day: Day) -> Bool {
            guard !keys.isEmpty || !days.isEmpty else { return false }
            return days.contains(day) || Self.binarySearch(keys, key)
        }

        private static func binarySearch(_ keys: [Int64], _ key: Int64) -> Bool {
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low < keys.count && keys[low] == key
        }
    }

    private mutating func exclusions(
        _ master: borrowing EventRecord, frame: SeriesFrame, expansion: RecurrenceExpansion, budget: inout Int,
        unexpanded: inout Int
    ) -> Exclusions {
        var keys: Set<Int64> = []
        var excluded = Exclusions()
        for exception in master.exceptionDates {
            if exception.isDate, !frame.clock.isDate {
                excluded.days.insert(exception.day)
            } else {
                keys.insert(frame.clock.key(local(of: exception, on: frame.clock)))
            }
        }
        for rule in master.exceptionRules {
            guard budget > 0 else {
                unexpanded += 1
                continue
            }
            let (ruleStarts, problems) = RuleIterator.starts(
                rule: rule.text, dtstart: frame.dtstart, isDate: frame.clock.isDate, clock: frame.clock, window: frame.window,
                counted: Self.countedDays(expansion), cap: expansion.maximumInstancesPerRule, includesStart: false, budget: &budget)
            for local in ruleStarts { keys.insert(frame.clock.key(local)) }
            report(problems, rule: "EXRULE", text: rule.text, line: rule.line ?? frame.seriesLine)
        }
        excluded.keys = keys.sorted()
        return excluded
    }

    /// A series' overrides (each by its index in the held events) by the instance they name: those
    /// of one instance, and RANGE=THISANDFUTURE ones, which move every instance from theirs on.
    private struct SeriesOverrides {
        /// Sorted by key; of two overrides of one instance, the later in the input.
        var exact: [(key: Int64, override: Int)] = []
        /// Sorted by key.
        var future: [(key: Int64, recurrenceID: LocalDateTime, override: Int)] = []
    }

    private mutating func seriesOverrides(
        _ overrides: [Int], in events: [HeldGroups.Event], frame: SeriesFrame, set: RecurrenceSet, excluded: Exclusions
    ) -> SeriesOverrides {
        var moved = SeriesOverrides()
        moved.exact.reserveCapacity(overrides.count)
        for override in overrides {
            guard let recurrenceID = events[override].record.recurrenceID else { continue }
            var local = self.local(of: recurrenceID, on: frame.clock, seriesZoneID: frame.startValue.timeZoneID)
            if recurrenceID.isDate, !frame.clock.isDate,
               let match = set.starts.first(where: { $0.local.day == recurrenceID.day })?.local {
                local = match  // a DATE RECURRENCE-ID names the instance on that day (the first, if several)
            }
            let key = frame.clock.key(local)
            // EXDATE also removes an instance an override names (RFC 5545 3.8.5.1).
            if excluded.contains(key: key, day: local.day) { continue }
            if events[override].record.isThisAndFuture {
                moved.future.append((key, local, override))
            } else {
                moved.exact.append((key, override))
            }
        }
        moved.exact = Self.lastOfEachKey(moved.exact) { $0.key }
        moved.future.sort { $0.key < $1.key }
        return moved
    }

    /// The sessions of the set's instances in start order, each replaced by its override where it
    /// has one; then the overrides whose instance lies outside the window or is not in the set,
    /// which stand for themselves.
    private mutating func appendInstances(
        of master: borrowing EventRecord, frame: SeriesFrame, set: RecurrenceSet, excluded: Exclusions,
        overrides: SeriesOverrides, in events: [HeldGroups.Event], to placed: inout PlacedSessions
    ) {
        if countsOnly {
            placed.counted.reserveCapacity(placed.counted.count + set.starts.count)
        } else {
            placed.sessions.reserveCapacity(placed.sessions.count + set.starts.count)
        }
        // The overrides are walked beside the starts (both sorted by key): no lookup per instance.
        var exactUsed = [Bool](repeating: false, count: overrides.exact.count)
        var nextExact = 0
        var nextFuture = 0
        var futureUsed: Set<Int64> = []
        for (key, local) in set.starts where !excluded.contains(key: key, day: local.day) {
            let id = makesInstanceIDs ? Self.instanceID(uid: frame.uid, local, clock: frame.clock) : frame.uid
            while nextExact < overrides.exact.count, overrides.exact[nextExact].key < key { nextExact += 1 }
            while nextFuture < overrides.future.count, overrides.future[nextFuture].key <= key { nextFuture += 1 }
            if nextExact < overrides.exact.count, overrides.exact[nextExact].key == key {
                let override = overrides.exact[nextExact].override
                exactUsed[nextExact] = true
                if !overrides.future.isEmpty { futureUsed.insert(key) }
                appendSession(of: events[override].record, calendar: events[override].calendar, id: id, to: &placed)
            } else if nextFuture > 0 {
                let rule = overrides.future[nextFuture - 1]
                if rule.key == key { futureUsed.insert(key) }
                shifted(local, by: rule, in: events, clock: frame.clock, id: id, to: &placed)
            } else {
                appendInstance(of: master, at: local, key: key, frame: frame, set: set, id: id, to: &placed)
            }
        }
        for ((_, override), isUsed) in zip(overrides.exact, exactUsed) where !isUsed {
            guard let recurrenceID = events[override].record.recurrenceID else { continue }
            let id = countsOnly ? "" : Self.instanceID(uid: frame.uid, local(of: recurrenceID, on: frame.clock), clock: frame.clock)
            appendSession(of: events[override].record, calendar: events[override].calendar, id: id, to: &placed)
        }
        for rule in overrides.future where !futureUsed.contains(rule.key) {
            let id = countsOnly ? "" : Self.instanceID(uid: frame.uid, rule.recurrenceID, clock: frame.clock)
            appendSession(of: events[rule.override].record, calendar: events[rule.override].calendar, id: id, to: &placed)
        }
    }

    /// One instance of the set as the master describes it.
    private mutating func appendInstance(
        of master: borrowing EventRecord, at local: LocalDateTime, key: Int64, frame: SeriesFrame, set: RecurrenceSet,
        id: String, to placed: inout PlacedSessions
    ) {
        // On a UTC or zoned clock the key is the instance's instant: its start, and with an exact
        // length its end, need no second conversion.
        let keyIsInstant: Bool
        switch frame.clock {
        case .utc, .zoned: keyIsInstant = true
        case .date, .floating: keyIsInstant = false
        }
        let start = keyIsInstant ? .instant(secondsSince1970: key) : frame.clock.sessionTime(local)
        let end: SessionTime
        if !set.explicitEnds.isEmpty, let explicit = set.explicitEnds[key] {
            end = explicit
        } else if keyIsInstant, case .exact(let seconds) = frame.length {
            end = .instant(secondsSince1970: key + seconds)
        } else {
            end = Self.end(of: local, length: frame.length, clock: frame.clock)
        }
        let points = points(propertyValue: frame.propertyValue, start: start, end: end)
        if countsOnly {
            placed.counted.append(CountedSession(start: start, end: end, points: points, line: master.begin.line, classes: frame.classes))
        } else {
            placed.sessions.append(session(id: id, start: start, end: end, points: points, describedBy: master, source: master.begin.location()))
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
        by rule: (key: Int64, recurrenceID: LocalDateTime, override: Int), in events: [HeldGroups.Event],
        clock: SeriesClock, id: String, to placed: inout PlacedSessions
    ) {
        guard !events[rule.override].record.isCancelled, let overrideStartValue = events[rule.override].record.start else { return }
        let overrideStart = resolve(overrideStartValue, line: events[rule.override].record.startLine ?? events[rule.override].record.begin)
        let overrideEnd = endTime(of: events[rule.override].record, start: overrideStart, startValue: overrideStartValue)
        let shift = rule.recurrenceID.distance(to: clock.local(overrideStart))
        let movedLocal = local.advanced(bySeconds: shift)
        let start = clock.sessionTime(movedLocal)
        let end = Self.end(of: movedLocal, length: .exact(seconds: Int64(overrideStart.seconds(until: overrideEnd))), clock: clock)
        // (The property is read first: a call on the resolver whose argument changes it copies it whole.)
        let propertyValue = propertyPoints(of: events[rule.override].record)
        let points = points(propertyValue: propertyValue, start: start, end: end)
        let line = events[rule.override].record.begin.line
        if countsOnly {
            placed.counted.append(CountedSession(
                start: start, end: end, points: points, line: line, classes: classes(of: events[rule.override].record)))
        } else {
            placed.sessions.append(session(
                id: id, start: start, end: end, points: points, describedBy: events[rule.override].record,
                source: events[rule.override].record.begin.location()))
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
    /// the clock's rules (`zone(named:)` gives the same for the same TZID).
    private mutating func local(of time: ICalTime, on clock: SeriesClock, seriesZoneID: String? = nil) -> LocalDateTime {
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
            } else if let tzid = time.timeZoneID, let rules = zone(named: tzid) {
                resolved = .instant(secondsSince1970: rules.instant(for: time.local))
            } else {
                return time.local  // floating or unknown zone: the series' own wall clock
            }
            return clock.local(resolved)
        }
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
    /// `20240301T090000` (a year outside 0...9999 as `String(year)` padded to four characters).
    private static func idText(prefix: String, separator: Bool = false, _ local: LocalDateTime, isDate: Bool, isUTC: Bool) -> String {
        let (year, month, day) = local.day.components
        var text = prefix + (separator ? "/" : "") + pad(year, 4) + pad(month, 2) + pad(day, 2)
        guard !isDate else { return text }
        let (hour, minute, second) = local.timeOfDay
        text += "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2) + (isUTC ? "Z" : "")
        return text
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
