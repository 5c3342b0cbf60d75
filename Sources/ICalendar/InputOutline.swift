/// What an import must know about the whole input before it can turn events into sessions as they
/// come: which TZIDs a VTIMEZONE defines somewhere (an event may come before its zone), and which
/// UIDs have RECURRENCE-ID overrides (a single event may be the master of an override further on).
///
/// A quick first pass finds them: the same scanner, stepping over every line but BEGIN, END, UID,
/// TZID and RECURRENCE-ID. It keeps two sets of strings, not the input.
struct InputOutline: Sendable {
    /// The TZIDs VTIMEZONEs define, as libical reads them.
    var timeZoneIDs: Set<String> = []
    /// The UIDs of events with a RECURRENCE-ID.
    var overriddenUIDs: Set<String> = []
    /// Some TZID could not be read for certain as libical would (escapes, quotes, non-ASCII): any
    /// TZID not yet defined must wait.
    var hasUncertainTimeZoneIDs = false
    /// Some override's UID could not be read: any event with a UID must wait for the end.
    var hasOverrideWithoutUID = false

    /// An outline that knows nothing, so everything that might depend on later content waits.
    static let unknown = InputOutline(hasUncertainTimeZoneIDs: true, hasOverrideWithoutUID: true)

    /// Scans an input for its outline.
    static func scan(_ input: InputBytes, file: String) -> InputOutline {
        var scanner = ContentLineScanner(input: input, file: file)
        scanner.keptNames = ["BEGIN", "END", "UID", "TZID", "RECURRENCE-ID"]
        scanner.unreadLinesSkipped = true
        var outline = InputOutline()
        var inEvent = false
        var uid: String?
        var hasRecurrenceID = false
        func finishEvent() {
            if inEvent, hasRecurrenceID {
                if let uid, !uid.isEmpty { outline.overriddenUIDs.insert(uid) } else { outline.hasOverrideWithoutUID = true }
            }
            inEvent = false
            uid = nil
            hasRecurrenceID = false
        }
        while let line = scanner.next() {
            switch line.name {
            case "BEGIN":
                let component = line.value.trimmingSpaces.uppercased()
                if component == "VEVENT" {
                    finishEvent()
                    inEvent = true
                } else if component == "VCALENDAR" || ComponentCutter.topLevelComponents.contains(component) {
                    finishEvent()
                }
            case "END":
                let component = line.value.trimmingSpaces.uppercased()
                if component == "VEVENT" || component == "VCALENDAR" { finishEvent() }
            case "UID":
                if inEvent { uid = TextValue.decode(line.value) }
            case "RECURRENCE-ID":
                if inEvent { hasRecurrenceID = true }
            case "TZID":
                let value = line.value
                if value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 >= 0x80 }) {
                    outline.hasUncertainTimeZoneIDs = true
                }
                outline.timeZoneIDs.insert(TextValue.decode(value))
            default:
                break
            }
        }
        finishEvent()
        return outline
    }

    /// Whether an event in `calendar` with a time in `timeZoneID` must wait: a VTIMEZONE defines
    /// that TZID somewhere and the event's own calendar has not defined it yet.
    func mustWait(for timeZoneID: String, definedInCalendar: Bool) -> Bool {
        guard !definedInCalendar else { return false }
        return hasUncertainTimeZoneIDs || timeZoneIDs.contains(timeZoneID)
    }

    /// Whether an event with `uid` may be the master of an override later in the input.
    func mayHaveOverrides(_ uid: String?) -> Bool {
        guard let uid, !uid.isEmpty else { return false }
        return hasOverrideWithoutUID || overriddenUIDs.contains(uid)
    }
}
