/// What an event is ready for when it has been read: the one place where the import decides
/// whether an event becomes its session at once or waits for other events of the input.
///
/// It is decided from the event alone and from what the first pass knows of the whole input
/// (`InputOutline`) and its zones (`InputZones`), never from what other threads have done, so the
/// import's result does not depend on timing. A worker asks it for every event it parses.
///
/// - `now`: nothing elsewhere in the input can change the event (its UID occurs once, or it has
///   none; its zones are known): it becomes its session, or its series' sessions, where it was
///   parsed.
/// - `withItsGroup`: other VEVENTs share its UID (a series and its overrides, copies, an iTIP
///   message about it, such as a cancellation): it waits until the last of them is read, and the
///   group is resolved together (`SessionResolver.units(of:)`).
/// - `atTheEnd`: it names a zone that a VTIMEZONE not read ahead may define (an input whose first
///   pass could not place its VTIMEZONEs): it waits for the end of the input.
///
/// ```swift
/// let readiness = EventReadiness(record, outline: outline, zones: zones)
/// print(readiness)
/// // Prints "now" for a single event in UTC
/// ```
enum EventReadiness: Equatable, Sendable {
    case now
    case withItsGroup
    case atTheEnd

    init(_ record: borrowing EventRecord, outline: InputOutline, zones: InputZones) {
        if outline.mayHaveOverrides(record.uid) {
            self = .withItsGroup
        } else if !zones.isReadAhead, Self.namesZone(record) {
            self = .atTheEnd
        } else {
            self = .now
        }
    }

    /// Whether any of the event's times is in a zone named by a TZID (not UTC, floating or a date).
    private static func namesZone(_ record: borrowing EventRecord) -> Bool {
        func named(_ time: ICalTime?) -> Bool {
            guard let time else { return false }
            return !time.isDate && !time.isUTC && time.timeZoneID != nil
        }
        if named(record.start) || named(record.end) || named(record.recurrenceID) { return true }
        if record.exceptionDates.contains(where: { named($0) }) { return true }
        return record.recurrenceDates.contains { named($0.start) || named($0.end) }
    }
}
