public import Streaks

/// How a session's points are found.
public enum PointsRule: Hashable, Sendable {
    /// A property carries the points as a non-negative integer (by default `X-POINTS`).
    case property(String)
    /// The session's length in whole minutes.
    case minutes
    /// One point per session.
    case count
    /// The property where events carry it; when no event of an import carries it, minutes, with a
    /// note saying so: the rule for ordinary calendars, whose apps cannot set `X-POINTS`.
    ///
    /// An import that finds the property reports as `.property(name)` does (an event without it
    /// counts 0); `CalendarImport.pointsRule` says which rule was taken.
    case automatic(String)

    /// The `X-POINTS` property.
    public static let xPoints = PointsRule.property("X-POINTS")
    /// The default: `X-POINTS` where events carry it, else minutes.
    public static let auto = PointsRule.automatic("X-POINTS")

    /// What the points count under this rule (`.automatic` before an import has chosen: the
    /// property's points).
    public var unit: PointsUnit {
        switch self {
        case .property, .automatic: .points
        case .minutes: .minutes
        case .count: .sessions
        }
    }

    /// The property the rule reads, if it reads one.
    public var propertyName: String? {
        switch self {
        case .property(let name), .automatic(let name): name
        case .minutes, .count: nil
        }
    }
}

/// Turns event records into sessions: resolves TZIDs (`InputZones`), applies RFC 5545's end rules,
/// and reads the points.
///
/// A resolver works on one thread. Workers each have their own copy; what they say once per input
/// (a TZID read as an alias, a zone's problems, an iTIP message) they keep with its key
/// (`defersOnceNotes`), for the import to say once, in input order (`say(key:_:)`).
struct SessionResolver {
    let pointsRule: PointsRule
    /// What each TZID stands for.
    var zones: InputZones
    var diagnostics: [Diagnostic] = []
    var sessionsWithPointsProperty = 0
    /// Each calendar's iTIP METHOD (RFC 5546), uppercased.
    var methods: [Int: String] = [:]
    /// When set, the notes given once per input go to `onceNotes` with their key instead of
    /// `diagnostics`, so that copies of this resolver working in parallel can be merged without
    /// saying them twice.
    var defersOnceNotes = false
    private(set) var onceNotes: [(key: String, diagnostic: Diagnostic)] = []
    /// The keys of the notes given once per input that this resolver said (or kept).
    private var said: Set<String> = []
    /// Whether a series' instances get ids of their own (`SessionNeeds.instanceIDs`); otherwise
    /// each carries its event's UID.
    var makesInstanceIDs = true
    /// Whether sessions carry their times, points and source only (`SessionNeeds.sessions` not asked).
    var countsOnly = false
    /// With `countsOnly`, what sorts each counted session's event into habits.
    var classifier: SessionClassifier?
    /// The last TZID resolved and what it stands for: most events in a row, and a series' overrides,
    /// name one zone, which is then read without a lookup.
    private var lastZone: (tzid: String, answer: InputZones.Answer)?

    init(pointsRule: PointsRule, zones: InputZones = .notReadAhead) {
        self.pointsRule = pointsRule
        self.zones = zones
    }

    /// Gives a note once per input (by `key`): to `diagnostics`, or to `onceNotes` when deferring.
    private mutating func noteOnce(key: String, _ diagnostic: @autoclosure () -> Diagnostic) {
        guard said.insert(key).inserted else { return }
        if defersOnceNotes {
            onceNotes.append((key, diagnostic()))
        } else {
            diagnostics.append(diagnostic())
        }
    }

    /// Says a note given once per input that a copy of this resolver kept (`defersOnceNotes`),
    /// unless this resolver said it already.
    mutating func say(key: String, _ note: Diagnostic) {
        guard said.insert(key).inserted else { return }
        diagnostics.append(note)
    }

    /// The notes a copy kept, taken out.
    mutating func takeOnceNotes() -> [(key: String, diagnostic: Diagnostic)] {
        defer { onceNotes.removeAll() }
        return onceNotes
    }

    /// iTIP methods (RFC 5546) whose VEVENTs are messages about an event, not the event: a reply,
    /// a request for the latest copy, a counter-proposal and its refusal, a cancellation (which
    /// removes its event or instance, `units(of:)`). They are not sessions.
    static let messageMethods: Set<String> = ["REPLY", "REFRESH", "CANCEL", "COUNTER", "DECLINECOUNTER"]

    /// Notes once per VCALENDAR that its events are iTIP messages, not sessions.
    mutating func noteMessage(_ method: String, calendar: Int, at begin: ContentLine) {
        let what = method == "CANCEL" ? "an iTIP cancellation (METHOD:CANCEL)" : "an iTIP message (METHOD:\(method))"
        noteOnce(key: "method:\(calendar)", Diagnostic(
            .note, .structure, at: begin.location(), "this VCALENDAR is \(what): its events are not sessions",
            sourceLine: begin.text))
    }

    /// The diagnostics since the last call.
    mutating func takeDiagnostics() -> [Diagnostic] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    /// The session an event stands for, or `nil` (cancelled, or no usable start).
    mutating func session(from record: borrowing EventRecord, calendar: Int, id explicitID: String? = nil) -> Session? {
        guard let (start, end, points, id) = resolvedParts(of: record, calendar: calendar, id: explicitID) else { return nil }
        return session(id: id, start: start, end: end, points: points, describedBy: record, source: record.begin.location())
    }

    /// The counted form of the session an event stands for (`countsOnly`), or `nil` (cancelled, or
    /// no usable start); it says what `session(from:calendar:id:)` says with the same `id`.
    mutating func counted(from record: borrowing EventRecord, calendar: Int, id: String? = nil) -> CountedSession? {
        guard let (start, end, points, _) = resolvedParts(of: record, calendar: calendar, id: id) else { return nil }
        return CountedSession(start: start, end: end, points: points, line: record.begin.line, classes: classes(of: record))
    }

    /// `record`'s bits under the classifier (0 without one).
    func classes(of record: borrowing EventRecord) -> UInt64 {
        classifier?.classes(of: record) ?? 0
    }

    /// What an event comes to: its times, its points and its session's id (empty when sessions are
    /// only counted and the event has a UID), with what is wrong with it said; `nil` when it stands
    /// for no session.
    private mutating func resolvedParts(
        of record: borrowing EventRecord, calendar: Int, id explicitID: String?
    ) -> (start: SessionTime, end: SessionTime, points: Int, id: String)? {
        if record.isCancelled || record.hasImpossibleTime { return nil }
        if let method = methods[calendar], Self.messageMethods.contains(method) {
            noteMessage(method, calendar: calendar, at: record.begin)
            return nil
        }
        guard let startValue = record.start else {
            let line = record.startLine ?? record.begin
            diagnostics.append(Diagnostic(
                .error, .missingStart, at: line.location(),
                "VEVENT has no readable DTSTART; it is skipped", sourceLine: line.text))
            return nil
        }
        let startLine = record.startLine ?? record.begin
        let start = resolve(startValue, line: startLine)
        let end = endTime(of: record, start: start, startValue: startValue)

        warnIfEnded(record, before: start, end: end, kept: "the session is kept with its points")

        let id: String
        if let explicitID {
            id = explicitID
        } else if let uid = record.uid, !uid.isEmpty {
            id = countsOnly ? "" : uid
        } else {
            id = "\(InputMap.name):\(record.begin.line)"
            diagnostics.append(Diagnostic(
                .note, .missingUID, at: record.begin.location(),
                "VEVENT has no UID; its session id is \(id)", sourceLine: record.begin.text))
        }
        // (The property is read first: a call on the resolver whose argument changes it copies it whole.)
        let propertyValue = propertyPoints(of: record)
        return (start, end, points(propertyValue: propertyValue, start: start, end: end), id)
    }

    /// A session with `record`'s summary, categories and kept properties, or, when the sessions are
    /// only counted (`countsOnly`), with its times, points and source alone.
    func session(
        id: String, start: SessionTime, end: SessionTime, points: Int, describedBy record: EventRecord, source: SourceLocation
    ) -> Session {
        guard !countsOnly else { return Session(id: "", start: start, end: end, points: points, source: source) }
        return Session(
            id: id, start: start, end: end, points: points,
            summary: record.summary, categories: record.categories, properties: record.kept, source: source)
    }

    /// Warns, at the DTEND or DURATION line, when an event ends before it starts.
    mutating func warnIfEnded(_ record: EventRecord, before start: SessionTime, end: SessionTime, kept: String) {
        guard end.isBefore(start) else { return }
        let line = record.endLine ?? record.durationLine ?? record.startLine ?? record.begin
        diagnostics.append(Diagnostic(
            .warning, .badEnd, at: line.location(column: line.valueColumn ?? 1),
            "the event ends before it starts; \(kept)", sourceLine: line.text))
    }

    mutating func endTime(of record: borrowing EventRecord, start: SessionTime, startValue: ICalTime) -> SessionTime {
        if let endValue = record.end {
            if record.duration != nil, let line = record.durationLine {
                diagnostics.append(Diagnostic(
                    .warning, .badEnd, at: line.location(),
                    "both DTEND and DURATION are given; DTEND is used", sourceLine: line.text))
            }
            return resolve(endValue, line: record.endLine ?? record.begin)
        }
        if let duration = record.duration {
            return add(duration, to: start, startValue: startValue, line: record.durationLine)
        }
        // RFC 5545 3.6.1: no DTEND or DURATION: a DATE start lasts one day, a DATE-TIME start none.
        if case .date(let day) = start { return .date(day.advanced(by: 1)) }
        return start
    }

    /// Adds a duration: days and weeks on the wall clock of the start's zone, the rest as exact time.
    mutating func add(_ duration: ICalDuration, to start: SessionTime, startValue: ICalTime, line: ContentLine?) -> SessionTime {
        let days = duration.sign * duration.days
        let seconds = Int64(duration.sign * duration.seconds)
        switch start {
        case .date(let day):
            if duration.seconds % 86_400 != 0, let line {
                diagnostics.append(Diagnostic(
                    .warning, .badEnd, at: line.location(column: line.valueColumn ?? 1),
                    "an all-day event's DURATION should be whole days; the hours are ignored", sourceLine: line.text))
            }
            return .date(day.advanced(by: days + Int(seconds / 86_400)))
        case .floating(let local):
            return .floating(local.advanced(bySeconds: Int64(days) * 86_400 + seconds))
        case .instant(let instant):
            if days == 0 { return .instant(secondsSince1970: instant + seconds) }
            if let tzid = startValue.timeZoneID, let rules = zone(named: tzid) {
                let wallClock = rules.localDateTime(at: instant).advanced(bySeconds: Int64(days) * 86_400)
                return .instant(secondsSince1970: rules.instant(for: wallClock) + seconds)
            }
            return .instant(secondsSince1970: instant + Int64(days) * 86_400 + seconds)
        }
    }

    /// A DATE or DATE-TIME as a session time.
    mutating func resolve(_ time: ICalTime, line: ContentLine) -> SessionTime {
        if time.isDate { return .date(time.day) }
        if time.isUTC { return .instant(secondsSince1970: time.local.secondsSince1970) }
        guard let tzid = time.timeZoneID else { return .floating(time.local) }
        guard let rules = zone(named: tzid, line: line) else { return .floating(time.local) }
        let instant = rules.instant(for: time.local)
        warnIfSkipped(time.local, in: rules, readAs: instant, line: line)
        return .instant(secondsSince1970: instant)
    }

    /// Warns when a wall-clock time does not exist in its zone (the spring gap): RFC 5545 §3.3.5
    /// reads it with the offset before the gap, so an hour's run from 02:30 to 03:30 on the night
    /// clocks skip to 03:00 lasts no time, which nobody would guess without a word (issue 46.9).
    mutating func warnIfSkipped(_ local: LocalDateTime, in rules: TimeZoneRules, readAs instant: Int64, line: ContentLine) {
        let shown = rules.localDateTime(at: instant)
        guard shown != local else { return }
        diagnostics.append(Diagnostic(
            .warning, .nonexistentTime, at: line.location(column: line.valueColumn ?? 1),
            "\(local.day) \(local.hourMinute) does not exist in \(rules.identifier), whose clocks skip forward that night; "
                + "read as \(shown.hourMinute), with the offset before the gap (RFC 5545 §3.3.5)",
            sourceLine: line.text))
    }

    /// The rules for a TZID (`InputZones`), saying once per input what there is to say of it: a
    /// VTIMEZONE's problems (at its BEGIN), a name read as an IANA zone's, an unknown zone (at
    /// `line`, the first time that names it); `nil` for an unknown zone.
    mutating func zone(named tzid: String, line: ContentLine? = nil) -> TimeZoneRules? {
        let answer: InputZones.Answer
        if let last = lastZone, last.tzid == tzid {
            answer = last.answer
        } else {
            answer = zones.answer(for: tzid)
            lastZone = (tzid, answer)
        }
        switch answer {
        case .definition(let rules):
            if let problems = zones.problems[tzid] {
                for (index, problem) in problems.enumerated() { noteOnce(key: "zone:\(index):\(tzid)", problem) }
            }
            return rules
        case .database(let rules, let alias):
            if let alias, let line {
                noteOnce(key: "tz:\(tzid)", Diagnostic(
                    .note, .timeZoneName, at: line.location(),
                    "TZID \"\(tzid)\" is not an IANA name; read as \(alias)", sourceLine: line.text))
            }
            return rules
        case .unknown:
            if let line {
                noteOnce(key: "tz:\(tzid)", Diagnostic(
                    .warning, .unknownTimeZone, at: line.location(),
                    "unknown time zone \"\(tzid)\" (no VTIMEZONE defines it and the IANA database has no such zone); its times are read in the report's time zone",
                    sourceLine: line.text))
            }
            return nil
        case .overLimit:
            if let line {
                noteOnce(key: "tz-limit", Diagnostic(
                    .warning, .limit, at: line.location(),
                    "the input names more than \(InputOutline.maximumTimeZoneIDs) time zones; times in \"\(tzid)\" and the other zones beyond them are read in the report's time zone",
                    sourceLine: line.text))
            }
            return nil
        }
    }

    /// The points property's value, read once per event (with its diagnostics); `nil` when the
    /// points rule does not read a property or the event has none.
    mutating func propertyPoints(of record: EventRecord) -> Int? {
        guard let name = pointsRule.propertyName, let text = record.points?.text else { return nil }
        sessionsWithPointsProperty += 1
        if let value = Self.plainInteger(text) { return value }
        let trimmed = text.trimmingSpaces
        let line = record.points?.line ?? record.begin
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            if let value = Int(trimmed) { return value }
            diagnostics.append(Diagnostic(
                .warning, .points, at: line.location(column: line.valueColumn ?? 1),
                "\(name) value \(trimmed) is too large; the session counts 0 points", sourceLine: line.text))
            return 0
        }
        diagnostics.append(Diagnostic(
            .warning, .points, at: line.location(column: line.valueColumn ?? 1),
            "\(name) value \"\(trimmed)\" is not a non-negative integer; the session counts 0 points",
            sourceLine: line.text))
        return 0
    }

    /// The value of digits alone (no spaces, no sign) that fit an `Int`, the common points value.
    private static func plainInteger(_ text: String) -> Int? {
        var value = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte &- 0x30 < 10 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int(byte &- 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// A session's points under the points rule, given its property value.
    func points(propertyValue: Int?, start: SessionTime, end: SessionTime) -> Int {
        switch pointsRule {
        case .count: 1
        case .minutes: start.wholeMinutes(until: end)
        case .property, .automatic: propertyValue ?? 0
        }
    }
}

extension Session {
    /// The session with floating times read on `zone`'s wall clock (and, with `PointsRule.minutes`,
    /// its points recounted there).
    public func readingFloatingTimes(in zone: TimeZoneRules, pointsRule: PointsRule) -> Session {
        guard start.isFloating || end.isFloating else { return self }
        var session = self
        session.start = start.readingFloatingTime(in: zone)
        session.end = end.readingFloatingTime(in: zone)
        if pointsRule == .minutes { session.points = session.start.wholeMinutes(until: session.end) }
        return session
    }
}

extension SessionTime {
    package var isFloating: Bool {
        if case .floating = self { return true }
        return false
    }

    /// An instant for a floating time read on `zone`'s wall clock; other times as they are.
    func readingFloatingTime(in zone: TimeZoneRules) -> SessionTime {
        if case .floating(let local) = self { return .instant(secondsSince1970: zone.instant(for: local)) }
        return self
    }
}
