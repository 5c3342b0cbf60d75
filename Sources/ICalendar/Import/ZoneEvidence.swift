import Foundation
package import Streaks

/// What calendars say of the zone their author reads them in: each `X-WR-TIMEZONE` they declare,
/// and the IANA zones their events' times name by TZID. A report without a zone of its own is in
/// the declared zone, else in the zone of the events' times, else in the system's (issue 46.7: an
/// Outlook export, every event in "W. Europe Standard Time" and no `X-WR-TIMEZONE`, was reported
/// in the machine's UTC without a word, so an evening's run landed on the next day).
///
/// ```swift
/// var evidence = ZoneEvidence()
/// evidence.eventZones = ZoneEvidence.eventZones(named: ["W. Europe Standard Time"])
/// print(evidence.eventZones.map(\.zone))
/// // Prints "["Europe/Berlin"]"
/// ```
public struct ZoneEvidence: Sendable, Hashable {
    /// An IANA zone the events' times name, with the TZID that first named it (an IANA name, or a
    /// Windows, display or vendor name for one).
    public struct EventZone: Sendable, Hashable {
        public var zone: String
        public var tzid: String

        public init(zone: String, tzid: String) {
            self.zone = zone
            self.tzid = tzid
        }
    }

    /// Each distinct `X-WR-TIMEZONE` value, in input order.
    public var declared: [String] = []
    /// Each distinct IANA zone the times name, in the order the TZIDs first appear.
    public var eventZones: [EventZone] = []
    /// The most values of each kind kept: a report names a few, and a file of a million made-up
    /// zones costs no more than that.
    public static let maximumKept = 8

    public init(declared: [String] = [], eventZones: [EventZone] = []) {
        self.declared = declared
        self.eventZones = eventZones
    }

    /// Notes an `X-WR-TIMEZONE` value (trimmed, non-empty), unless it is known or enough are.
    mutating func declare(_ value: String) {
        guard !value.isEmpty, declared.count < Self.maximumKept, !declared.contains(value) else { return }
        declared.append(value)
    }

    /// The IANA zones that `tzids` (in the order they first appear) stand for, each once: a TZID
    /// the database knows, or a name it maps to one; a zone only a VTIMEZONE defines is none.
    public static func eventZones(named tzids: some Sequence<String>) -> [EventZone] {
        var zones: [EventZone] = []
        for tzid in tzids where zones.count < maximumKept {
            guard let resolution = TimeZoneDatabase.shared.resolve(tzid) else { continue }
            let zone = resolution.alias ?? resolution.rules.identifier
            if !zones.contains(where: { $0.zone == zone }) { zones.append(EventZone(zone: zone, tzid: tzid)) }
        }
        return zones
    }
}

extension ZoneEvidence {
    /// The report's zone and what to say of it: `requested` when given (nothing said); else the
    /// first declared IANA zone (a note when several are declared, or when no event's time is in
    /// it); else the first zone of the events' times (a note saying so); else `fallback` (the
    /// command passes the system's zone; the library reads no zone of the machine).
    /// An `X-WR-TIMEZONE` that names no zone is a warning. Everything is said at line 1 of the
    /// first session's file, and nothing without a session.
    package func reportZone(
        requested: TimeZoneRules?, fallback: TimeZoneRules, firstSession: SourceLocation?
    ) -> (zone: TimeZoneRules, diagnostics: [Diagnostic]) {
        if let requested { return (requested, []) }
        let known = declared.filter { TimeZoneDatabase.shared.rules(for: $0) != nil }
        var said: [(Diagnostic.Severity, Diagnostic.Code, String)] = []
        let zone: TimeZoneRules
        if let chosen = known.first {
            zone = Self.rules(chosen)
            if known.count > 1 {
                said.append((.note, .reportZone, "the calendars declare \(known.count) zones (X-WR-TIMEZONE \(known.joined(separator: ", "))): "
                    + "the report uses \(chosen), the first"))
            } else if let first = eventZones.first, !eventZones.contains(where: { $0.zone == chosen }) {
                said.append((.note, .reportZone, "X-WR-TIMEZONE declares \(chosen), but the events' times are in \(first.zone) (TZID \"\(first.tzid)\"): "
                    + "the report uses \(chosen), the declared zone"))
            }
        } else {
            zone = eventZones.first.map { Self.rules($0.zone) } ?? fallback
            if let unknown = declared.first {
                said.append((.warning, .unknownTimeZone, "X-WR-TIMEZONE \"\(unknown)\" is not an IANA time zone; the report uses \(zone.identifier)"))
            }
            if let first = eventZones.first {
                let others = eventZones.count > 1 ? ", the first of the \(eventZones.count) zones they name" : ""
                said.append((.note, .reportZone, "no calendar declares its zone (X-WR-TIMEZONE): the report uses \(first.zone), "
                    + "the zone of its events' times (TZID \"\(first.tzid)\")\(others)"))
            }
        }
        guard let firstSession else { return (zone, []) }
        let location = SourceLocation(file: firstSession.file, line: 1)
        return (zone, said.map { Diagnostic($0.0, $0.1, at: location, $0.2) })
    }

    /// The database's rules for a zone name (it keeps each zone's table: a batch of files in one
    /// zone builds it once); UTC for a name it does not know, which only names the database knew
    /// (declared zones it found, the zones of events' times) are asked for.
    private static func rules(_ name: String) -> TimeZoneRules {
        TimeZoneDatabase.shared.rules(for: name) ?? .utc
    }
}
