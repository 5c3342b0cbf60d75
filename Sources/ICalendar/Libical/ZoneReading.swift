internal import CLibical
import Streaks

extension ZoneDefinition {
    /// Reads a parsed VTIMEZONE; `nil` when it has no TZID.
    static func read(from component: ComponentView) -> ZoneDefinition? {
        var timeZoneID: String?
        for property in component.properties where property.kind == ICAL_TZID_PROPERTY {
            timeZoneID = property.valueText
        }
        guard let timeZoneID, !timeZoneID.isEmpty else { return nil }
        var definition = ZoneDefinition(timeZoneID: timeZoneID, observances: [], problems: [])
        for child in component.children {
            let kind = icalcomponent_isa(child.pointer)
            guard kind == ICAL_XSTANDARD_COMPONENT || kind == ICAL_XDAYLIGHT_COMPONENT else { continue }
            let name = child.kindName ?? "observance"
            var start: ICalTime?
            var offsetFrom: Int?
            var offsetTo: Int?
            var rules: [String] = []
            var onsets: [ICalTime] = []
            for property in child.properties {
                switch property.kind {
                case ICAL_DTSTART_PROPERTY: start = property.timeValue
                case ICAL_TZOFFSETFROM_PROPERTY: offsetFrom = property.utcOffsetValue
                case ICAL_TZOFFSETTO_PROPERTY: offsetTo = property.utcOffsetValue
                case ICAL_RRULE_PROPERTY: rules.append(property.encodedValueText)
                case ICAL_RDATE_PROPERTY:
                    let value = icalproperty_get_rdate(property.pointer)
                    if let time = ICalTime(value.time, timeZoneID: nil) { onsets.append(time) }
                default: break
                }
            }
            guard let start, let offsetTo else {
                definition.problems.append("a \(name) without DTSTART or TZOFFSETTO is ignored")
                continue
            }
            definition.observances.append(Observance(
                name: name, start: start.local, offsetFrom: offsetFrom ?? offsetTo, offsetTo: offsetTo,
                rules: rules, onsets: onsets))
        }
        if definition.observances.isEmpty {
            definition.problems.append("it has no usable STANDARD or DAYLIGHT; times in it are read as UTC+00:00")
        }
        return definition
    }
}
