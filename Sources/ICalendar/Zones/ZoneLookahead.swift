import Streaks

/// The zones of an input's VTIMEZONEs, read from the first pass before any event, so that an event
/// need not wait for a VTIMEZONE further on (iCloud writes them after the events) and workers can
/// resolve events in them.
///
/// Each TZID has the rules of the first VTIMEZONE of that TZID in the input that some time names,
/// read as the import reads it when it reaches it (`CalendarZones` keeps only the first too), with
/// the line of its BEGIN. A zone whose expansion has something to say (a rule it cannot read, too
/// many onsets) is left out: what it says belongs to its first use, where the import says it.
/// Nothing is read ahead when the VTIMEZONEs together have as many onsets as the file's budget
/// (`CalendarZones.maximumOnsetsPerFile`), since then the order in which zones are expanded
/// decides which are cut short.
///
/// ```swift
/// let outline = InputOutline.scan(InputBytes(bytes: Array(text.utf8)))
/// let zones = ZoneLookahead(outline: outline, lastYear: 2025)
/// print(zones.rules(for: "Custom Eastern")?.identifier ?? "nil")
/// // Prints "Custom Eastern" when a VTIMEZONE of that TZID stands anywhere in `text`
/// ```
struct ZoneLookahead: Sendable {
    private var zones: [String: (rules: TimeZoneRules, line: Int)] = [:]

    /// No zones: every event in a VTIMEZONE's zone waits for it.
    static let none = ZoneLookahead()

    private init() {}

    /// The zones of `outline.timeZoneTexts` whose VTIMEZONE some time names, expanded through
    /// `lastYear` (`CalendarZones.lastYear`).
    init(outline: InputOutline, lastYear: Int) {
        guard let texts = outline.timeZoneTexts, !texts.isEmpty else { return }
        var reader = ComponentReader(pointsProperty: "X-POINTS")
        var definitions: [(definition: ZoneDefinition, line: Int)] = []
        var seen: Set<String> = []
        for (text, line) in texts {
            var cutter = ComponentCutter(scanner: ContentLineScanner(bytes: text))
            guard case .component(let lines, _)? = cutter.next(), lines.name == "VTIMEZONE" else { return }
            // The import does not read a VTIMEZONE no time names.
            if let timeZoneLine = lines.materializedProperty(named: "TZID"), !outline.mayUse(timeZoneLine: timeZoneLine.value) {
                continue
            }
            guard case .timeZone(let definition?) = ComponentParsing.parse(lines, reader: &reader),
                  seen.insert(definition.timeZoneID).inserted else { continue }
            definitions.append((definition, line))
        }
        var budget = CalendarZones.maximumOnsetsPerFile
        var zones: [String: (rules: TimeZoneRules, line: Int)] = [:]
        for (definition, line) in definitions {
            let (rules, problems) = definition.rules(throughYear: lastYear, onsetBudget: &budget)
            if problems.isEmpty { zones[definition.timeZoneID] = (rules, line) }
        }
        guard budget > 0 else { return }
        self.zones = zones
    }

    /// The rules of a TZID a VTIMEZONE of the input defines, if read ahead.
    func rules(for timeZoneID: String) -> TimeZoneRules? {
        zones[timeZoneID]?.rules
    }

    /// The line of the BEGIN of the VTIMEZONE that defines a TZID read ahead: an event before it
    /// waited for it until the lookahead.
    func line(of timeZoneID: String) -> Int? {
        zones[timeZoneID]?.line
    }

    var isEmpty: Bool { zones.isEmpty }
}
