internal import CLibical
import Streaks

/// Turns a calendar's VTIMEZONE into `TimeZoneRules`: every STANDARD and DAYLIGHT onset (DTSTART, its
/// RRULE expanded by libical's recurrence iterator up to 2200, its RDATEs) becomes a transition.
enum ZoneDefinition {
    /// The last year whose transitions are tabulated.
    static let lastYear = 2200
    /// Onsets per STANDARD or DAYLIGHT rule at most (a yearly rule to 2200 needs about 400).
    static let maximumOnsetsPerRule = 5_000

    struct Result: Sendable {
        var timeZoneID: String
        var rules: TimeZoneRules
        var problems: [String]
    }

    /// Reads a parsed VTIMEZONE; `nil` when it has no TZID.
    static func rules(from component: ComponentView) -> Result? {
        var timeZoneID: String?
        for property in component.properties where property.kind == ICAL_TZID_PROPERTY {
            timeZoneID = property.valueText
        }
        guard let timeZoneID, !timeZoneID.isEmpty else { return nil }

        var problems: [String] = []
        var transitions: [(instant: Int64, offset: Int)] = []
        var earliest: (instant: Int64, offsetFrom: Int)?
        for observance in component.children {
            let kind = icalcomponent_isa(observance.pointer)
            guard kind == ICAL_XSTANDARD_COMPONENT || kind == ICAL_XDAYLIGHT_COMPONENT else { continue }
            var start: ICalTime?
            var offsetFrom: Int?
            var offsetTo: Int?
            var recurrenceRules: [icalrecurrencetype] = []
            var extraOnsets: [ICalTime] = []
            for property in observance.properties {
                switch property.kind {
                case ICAL_DTSTART_PROPERTY: start = property.timeValue
                case ICAL_TZOFFSETFROM_PROPERTY: offsetFrom = property.utcOffsetValue
                case ICAL_TZOFFSETTO_PROPERTY: offsetTo = property.utcOffsetValue
                case ICAL_RRULE_PROPERTY: recurrenceRules.append(icalproperty_get_rrule(property.pointer))
                case ICAL_RDATE_PROPERTY:
                    let value = icalproperty_get_rdate(property.pointer)
                    if let time = ICalTime(value.time, timeZoneID: nil) { extraOnsets.append(time) }
                default: break
                }
            }
            guard let start, let offsetTo else {
                problems.append("a \((observance.kindName ?? "observance")) without DTSTART or TZOFFSETTO is ignored")
                continue
            }
            let from = offsetFrom ?? offsetTo
            var onsets: [LocalDateTime] = [start.local]
            for rule in recurrenceRules {
                let (expanded, capped) = expand(rule, from: start)
                onsets.append(contentsOf: expanded)
                if capped {
                    problems.append("a \((observance.kindName ?? "observance")) rule has more than \(maximumOnsetsPerRule) onsets; later ones are ignored")
                }
            }
            onsets.append(contentsOf: extraOnsets.map { $0.isUTC ? $0.local.advanced(bySeconds: Int64(from)) : $0.local })
            for onset in onsets {
                // An onset is a wall-clock time in the offset in force before it.
                let instant = onset.secondsSince1970 - Int64(from)
                transitions.append((instant, offsetTo))
                if earliest.map({ instant < $0.instant }) ?? true { earliest = (instant, from) }
            }
        }
        guard let earliest else {
            problems.append("it has no usable STANDARD or DAYLIGHT; times in it are read as UTC+00:00")
            return Result(timeZoneID: timeZoneID, rules: .fixed(identifier: timeZoneID, offset: 0), problems: problems)
        }
        let rules = TimeZoneRules(identifier: timeZoneID, initialOffset: earliest.offsetFrom, transitions: transitions)
        return Result(timeZoneID: timeZoneID, rules: rules, problems: problems)
    }

    /// The onsets after DTSTART that a STANDARD or DAYLIGHT RRULE gives, up to `lastYear`.
    private static func expand(_ rule: icalrecurrencetype, from start: ICalTime) -> ([LocalDateTime], capped: Bool) {
        var dtstart = start.libicalTime
        dtstart.zone = nil
        dtstart.is_date = 0
        guard let iterator = icalrecur_iterator_new(rule, dtstart) else { return ([], false) }
        defer { icalrecur_iterator_free(iterator) }
        var onsets: [LocalDateTime] = []
        while onsets.count <= maximumOnsetsPerRule {
            let next = icalrecur_iterator_next(iterator)
            if icaltime_is_null_time(next) != 0 || next.year > lastYear { return (onsets, false) }
            if let time = ICalTime(next, timeZoneID: nil), time.local != start.local {
                onsets.append(time.local)
            }
        }
        return (onsets, true)
    }
}
