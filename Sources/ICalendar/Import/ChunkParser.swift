import CalendarDiagnostics
import Streaks

/// What every worker of one import needs: made once, shared by all.
struct WorkerSettings: Sendable {
    let pointsRule: PointsRule
    let pointsProperty: String
    /// Properties kept for habit filters, uppercased.
    let keptProperties: Set<String>
    /// The property names a VEVENT keeps (the cutter steps over the others); `nil` keeps every line.
    let eventProperties: Set<String>?
    /// How a VEVENT's properties are read.
    let eventReading: ComponentParsing.EventReading
    /// The session properties' roles, made once for every worker's reader.
    let sessionLineRoles: PropertyNameTable<ComponentParsing.SessionLineRole>
    let outline: InputOutline
    let zones: InputZones
    let expansion: RecurrenceExpansion
    let needs: SessionNeeds
    let classifier: SessionClassifier?

    init(importer: SessionImporter, outline: InputOutline, zones: InputZones) {
        pointsRule = importer.pointsRule
        pointsProperty = importer.pointsRule.propertyName ?? "X-POINTS"
        keptProperties = Set(importer.keptProperties.map { $0.uppercased() })
        sessionLineRoles = ComponentParsing.sessionLineRoles(
            pointsProperty: pointsProperty, kept: keptProperties, describing: importer.needs.contains(.descriptions) || importer.classifier != nil)
        eventProperties = importer.readsThroughLibical ? nil : ComponentParsing.sessionProperties(pointsProperty: pointsProperty, kept: keptProperties)
        eventReading = importer.readsThroughLibical ? .reference : .sessionProperties
        self.outline = outline
        self.zones = zones
        expansion = importer.expansion
        needs = importer.needs
        classifier = importer.classifier
    }

    /// The years a zone's onsets are counted in.
    var zoneWindow: ZoneExpansionWindow { ZoneExpansionWindow(expansion) }

    /// A resolver for these settings.
    func resolver() -> SessionResolver {
        var resolver = SessionResolver(pointsRule: pointsRule, zones: zones)
        resolver.makesInstanceIDs = needs.contains(.instanceIDs)
        resolver.countsOnly = !needs.contains(.sessions)
        resolver.classifier = classifier
        return resolver
    }

    /// A reader for these settings: RDATE and EXDATE values kept only near the window, and no more
    /// RDATE values than a series can use (its cap, and one to know it is capped).
    func reader() -> ComponentReader {
        var reader = ComponentReader(pointsProperty: pointsProperty, keptProperties: keptProperties, sessionLineRoles: sessionLineRoles)
        reader.wantedDays = expansion.wantedDays
        reader.recurrenceDateLimit = min(expansion.maximumInstancesPerRule, .max - 1) + 1
        return reader
    }
}

/// What a worker made of one chunk.
struct ChunkResult: Sendable {
    /// What the consumer reads in input order: what is not a session yet.
    enum Item: Sendable {
        /// What stands in `items` for an item the consumer has taken.
        case taken
        case calendarProperty(ContentLine, calendar: Int)
        case timeZone(ZoneDefinition?, begin: ContentLine)
        case unparsable(name: String, begin: ContentLine)
        case held(EventRecord, calendar: Int, readiness: EventReadiness)
    }

    var items: [Item] = []
    /// The sessions of the events that were ready (`EventReadiness.now`), in input order.
    var sessions = PlacedSessions()
    var diagnostics: [Diagnostic] = []
    /// What the chunk says once per input, with its key, for the consumer to say unless said before.
    var onceNotes: [(key: String, diagnostic: Diagnostic)] = []
    var sessionsWithPointsProperty = 0
    /// The BEGIN line of the chunk's last component.
    var lastLine: Int?
    /// For a segment a worker cut: the VCALENDAR the next one starts in, and why reading stopped
    /// early, if it did.
    var segmentEnd: (state: ComponentCutter.CalendarState, readError: String?)?
}

/// Parses a chunk of components on a worker, each with libical on its own (convert, then free),
/// and turns the events that are ready into their sessions.
struct ChunkParser {
    private let settings: WorkerSettings
    private var reader: ComponentReader
    private var resolver: SessionResolver

    init(_ settings: WorkerSettings) {
        self.settings = settings
        reader = settings.reader()
        resolver = settings.resolver()
        resolver.defersOnceNotes = true
    }

    /// The chunk's items, parsed; `methods` holds each item's calendar's METHOD as cut.
    consuming func parse(_ items: [CalendarItem], methods: [String?], cutDiagnostics: [Diagnostic]) -> ChunkResult {
        var result = ChunkResult()
        result.diagnostics = cutDiagnostics
        for (item, method) in zip(items, methods) {
            switch item {
            case .calendarProperty(let line, let calendar):
                result.items.append(.calendarProperty(line, calendar: calendar))
            case .component(let lines, let calendar):
                result.lastLine = lines.begin.line
                if lines.name == "VEVENT" {
                    parseEvent(lines, calendar: calendar, method: method, into: &result)
                } else if lines.name == "VTIMEZONE" {
                    parseTimeZone(lines, into: &result)
                }
            }
        }
        result.diagnostics += reader.diagnostics + resolver.takeDiagnostics()
        result.onceNotes = resolver.takeOnceNotes()
        result.sessionsWithPointsProperty = resolver.sessionsWithPointsProperty
        return result
    }

    private mutating func parseEvent(_ lines: ComponentLines, calendar: Int, method: String?, into result: inout ChunkResult) {
        guard let record = ComponentParsing.parseEvent(lines, reader: &reader, reading: settings.eventReading) else {
            result.items.append(.unparsable(name: lines.name, begin: lines.begin))
            return
        }
        let readiness = EventReadiness(record, outline: settings.outline, zones: settings.zones)
        guard readiness == .now else {
            result.items.append(.held(record, calendar: calendar, readiness: readiness))
            return
        }
        resolver.methods[calendar] = method
        resolver.appendSessions(ofLone: record, calendar: calendar, expansion: settings.expansion, to: &result.sessions)
    }

    /// A VTIMEZONE some time may use, read for what is wrong with it (the import's zones were read
    /// ahead, `InputZones`); a VTIMEZONE no time names is not read at all (a file may hold thousands).
    private mutating func parseTimeZone(_ lines: ComponentLines, into result: inout ChunkResult) {
        let timeZoneID = lines.materializedProperty(named: "TZID").flatMap { InputOutline.timeZoneID(ofLineValue: $0.value) }
        guard settings.outline.mayUse(timeZoneID: timeZoneID) else { return }
        switch ComponentParsing.parse(lines, reader: &reader) {
        case .timeZone(let definition):
            result.items.append(.timeZone(definition, begin: lines.begin))
        case .unparsable, .event:
            result.items.append(.unparsable(name: lines.name, begin: lines.begin))
        }
    }
}
