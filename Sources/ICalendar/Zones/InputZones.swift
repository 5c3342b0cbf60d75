import CalendarDiagnostics
import Streaks

/// The time zones of one import, resolved before its first event: every VTIMEZONE some time names
/// (read ahead from where the first pass found it, expanded within one budget of onsets), and every
/// other TZID the times name (the IANA database, or a Windows, display or vendor name for one of its
/// zones). An immutable table that every worker reads, so that no event waits for a VTIMEZONE
/// further on (iCloud writes them after the events) and what a TZID stands for never depends on
/// which thread asks first.
///
/// The first VTIMEZONE of a TZID in the input defines it, also for times in other calendars of the
/// input and when the TZID is an IANA name (RFC 5545 3.2.19). What a zone's expansion has to say
/// (a rule it cannot read, onsets beyond the budget) is said at its BEGIN line, once, when a time
/// first uses it.
///
/// ```swift
/// let zones = InputZones(definitions: [(definition, begin)], outline: outline,
///                        window: ZoneExpansionWindow(expansion))
/// if case .definition(let rules) = zones.answer(for: "Custom Eastern") { print(rules.identifier) }
/// // Prints "Custom Eastern"
/// ```
struct InputZones: Sendable {
    /// What a TZID stands for.
    enum Answer: Sendable {
        /// A VTIMEZONE of the input.
        case definition(TimeZoneRules)
        /// An IANA zone; `alias` is its identifier when the TZID is another name for it.
        case database(TimeZoneRules, alias: String?)
        /// Neither: its times are read in the report's zone.
        case unknown
        /// One TZID too many (`InputOutline.maximumTimeZoneIDs`): read as `unknown`, said once.
        case overLimit
    }

    private var answers: [String: Answer] = [:]
    /// What each VTIMEZONE's expansion said, by TZID, at its BEGIN line.
    private(set) var problems: [String: [Diagnostic]] = [:]
    /// Whether the input's VTIMEZONEs were read before its events; when not (an input whose first
    /// pass could not place them), an event in a zone a VTIMEZONE may define waits for the end.
    let isReadAhead: Bool
    /// More distinct TZIDs are named than the import reads.
    private let isOverLimit: Bool

    /// No VTIMEZONE read ahead: the table of workers while the input's zones are not known yet.
    static let notReadAhead = InputZones(isReadAhead: false, isOverLimit: false)

    private init(isReadAhead: Bool, isOverLimit: Bool) {
        self.isReadAhead = isReadAhead
        self.isOverLimit = isOverLimit
    }

    /// The zones of `definitions` (the input's VTIMEZONEs in input order, each with its BEGIN line;
    /// the first of a TZID counts) and of every TZID `outline` says the times name.
    init(definitions: [(definition: ZoneDefinition, begin: ContentLine)], outline: InputOutline, window: ZoneExpansionWindow) {
        self.init(isReadAhead: true, isOverLimit: outline.hasMoreTimeZoneIDs)
        var budget = ZoneExpansionBudget()
        for (definition, begin) in definitions where answers[definition.timeZoneID] == nil {
            guard answers.count < InputOutline.maximumTimeZoneIDs else { break }
            let (rules, problems) = definition.rules(in: window, budget: &budget)
            answers[definition.timeZoneID] = .definition(rules)
            if !problems.isEmpty {
                self.problems[definition.timeZoneID] = problems.map { problem in
                    Diagnostic(
                        .warning, .badTimeZone, at: begin.location(), "VTIMEZONE \(definition.timeZoneID): \(problem)",
                        sourceLine: begin.text)
                }
            }
        }
        for tzid in outline.referencedTimeZoneIDs where answers[tzid] == nil {
            answers[tzid] = Self.lookUp(tzid)
        }
    }

    /// The zones of the VTIMEZONEs at `places` that times may use (each read from `bytes(range)`,
    /// the input's bytes there) and of every TZID `outline` says the times name.
    static func readAhead(
        _ places: [InputOutline.TimeZonePlace], bytes: (Range<Int>) -> [UInt8]?, outline: InputOutline,
        window: ZoneExpansionWindow, pointsProperty: String
    ) -> InputZones {
        var reader = ComponentReader(pointsProperty: pointsProperty)
        var definitions: [(definition: ZoneDefinition, begin: ContentLine)] = []
        for place in places where place.mayBeUsed(in: outline) {
            guard definitions.count < InputOutline.maximumTimeZoneIDs else { break }
            guard let text = bytes(place.bytes) else { continue }
            var cutter = ComponentCutter(scanner: ContentLineScanner(input: InputBytes(bytes: text), firstLine: place.line))
            guard case .component(let lines, _)? = cutter.next(), lines.name == "VTIMEZONE",
                  case .timeZone(let definition?) = ComponentParsing.parse(lines, reader: &reader) else { continue }
            definitions.append((definition, lines.begin))
        }
        return InputZones(definitions: definitions, outline: outline, window: window)
    }

    /// What a TZID stands for: the table's answer, else (a TZID the first pass could not read for
    /// certain) the IANA database's.
    func answer(for tzid: String) -> Answer {
        if let known = answers[tzid] { return known }
        return isOverLimit ? .overLimit : Self.lookUp(tzid)
    }

    /// Whether the input defines `tzid` with a VTIMEZONE read ahead.
    func defines(_ tzid: String) -> Bool {
        if case .definition? = answers[tzid] { return true }
        return false
    }

    private static func lookUp(_ tzid: String) -> Answer {
        guard let resolution = TimeZoneDatabase.shared.resolve(tzid) else { return .unknown }
        return .database(resolution.rules, alias: resolution.alias)
    }
}
