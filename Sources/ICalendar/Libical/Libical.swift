internal import CLibical
import Streaks

/// libical itself: process-wide set-up (done once before any parse; errors never abort the process)
/// and checks of its behaviour.
package enum Libical {
    /// Touch before calling libical; Swift runs the initialiser once, thread-safely.
    static let ready: Bool = {
        icalerror_set_errors_are_fatal(0)
        return true
    }()
}

/// The one owner of a libical component tree parsed from text; frees the tree when it goes away.
///
/// "Convert, then free": parse, walk the tree once into Swift values, and let the owner free it in
/// the same scope. The tree never escapes this type.
struct ParsedComponent: ~Copyable {
    /// The tree; only this file touches it, and the rest of the import sees it through `withView`.
    fileprivate let pointer: OpaquePointer

    /// Parses one component's text; `nil` if libical finds no component in it.
    init?(parsing text: String) {
        _ = Libical.ready
        streakcal_clear_icalerrno()
        guard let parsed = text.withCString({ icalparser_parse_string($0) }) else { return nil }
        pointer = parsed
    }

    /// Parses one component's NUL-terminated UTF-8 text; `nil` if libical finds no component in it.
    init?(parsing text: UnsafePointer<CChar>) {
        _ = Libical.ready
        streakcal_clear_icalerrno()
        guard let parsed = icalparser_parse_string(text) else { return nil }
        pointer = parsed
    }

    deinit {
        icalcomponent_free(pointer)
    }

    /// Lends the tree to `body`: the view, and every view made from it, is valid only there.
    func withView<Result>(_ body: (ComponentView) throws -> Result) rethrows -> Result {
        try body(ComponentView(pointer: pointer))
    }
}

/// A read-only view of a libical component, lent by its owner (`ParsedComponent.withView`) for the
/// time of a closure; it never outlives the tree.
struct ComponentView {
    let pointer: OpaquePointer

    fileprivate init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// libical's name for the component's kind (`VEVENT`, `X` for any X- component), or `nil` for a
    /// kind libical does not know (it parses an unknown name such as `VLOCATION` as no kind at all).
    var kindName: String? {
        icalcomponent_kind_to_string(icalcomponent_isa(pointer)).map { String(cString: $0) }
    }

    /// The component's own properties, in order.
    var properties: [PropertyView] {
        var result: [PropertyView] = []
        var property = icalcomponent_get_first_property(pointer, ICAL_ANY_PROPERTY)
        while let current = property {
            result.append(PropertyView(pointer: current))
            property = icalcomponent_get_next_property(pointer, ICAL_ANY_PROPERTY)
        }
        return result
    }

    /// Whether the component has no subcomponents and exactly one property of each of `kinds`, in
    /// that order (no `X-LIC-ERROR`, nothing split, dropped or added).
    func hasOnlyProperties(ofKinds kinds: some Sequence<icalproperty_kind>) -> Bool {
        guard icalcomponent_get_first_component(pointer, ICAL_ANY_COMPONENT) == nil else { return false }
        var property = icalcomponent_get_first_property(pointer, ICAL_ANY_PROPERTY)
        for kind in kinds {
            guard let current = property, icalproperty_isa(current) == kind else { return false }
            property = icalcomponent_get_next_property(pointer, ICAL_ANY_PROPERTY)
        }
        return property == nil
    }

    /// The direct subcomponents, in order (walked with libical's component iterator).
    var children: [ComponentView] {
        var result: [ComponentView] = []
        var iterator = icalcomponent_begin_component(pointer, ICAL_ANY_COMPONENT)
        while let child = icalcompiter_deref(&iterator) {
            result.append(ComponentView(pointer: child))
            _ = icalcompiter_next(&iterator)
        }
        return result
    }
}

/// A read-only view of a libical property, valid while its owner lives.
struct PropertyView {
    let pointer: OpaquePointer

    var kind: icalproperty_kind { icalproperty_isa(pointer) }

    /// The name as written (X- names included), uppercased.
    var name: String {
        let kind = kind
        if kind != ICAL_X_PROPERTY, let known = PropertyView.knownNames[Int(kind.rawValue)] {
            return known
        }
        guard let name = icalproperty_get_x_name(pointer) ?? icalproperty_get_property_name(pointer) else { return "" }
        return String(cString: name).uppercased()
    }

    /// The names of libical's property kinds, by raw value (libical's own strings are static).
    private static let knownNames: [Int: String] = {
        var names: [Int: String] = [:]
        for raw in 0..<Int(ICAL_NO_PROPERTY.rawValue) {
            if let name = icalproperty_kind_to_string(icalproperty_kind(rawValue: UInt32(raw))) {
                names[raw] = String(cString: name)
            }
        }
        return names
    }()

    var isError: Bool { kind == ICAL_XLICERROR_PROPERTY }

    /// The value as iCalendar text carries it (escaped).
    var encodedValueText: String {
        guard let text = icalproperty_get_value_as_string_r(pointer) else { return "" }
        defer { icalmemory_free_buffer(text) }
        return String(cString: text)
    }

    /// The value as iCalendar text would carry it, unescaped for text values.
    var valueText: String {
        if let value = icalproperty_get_value(pointer), icalvalue_isa(value) == ICAL_TEXT_VALUE,
           let text = icalvalue_get_text(value) {
            return String(cString: text)
        }
        guard let text = icalproperty_get_value_as_string_r(pointer) else { return "" }
        defer { icalmemory_free_buffer(text) }
        return String(cString: text)
    }

    /// The text of an `X-LIC-ERROR`.
    var errorMessage: String {
        guard let text = icalproperty_get_xlicerror(pointer) else { return "" }
        return String(cString: text)
    }

    /// The TZID parameter, if any.
    var timeZoneID: String? {
        guard let parameter = icalproperty_get_first_parameter(pointer, ICAL_TZID_PARAMETER),
              let tzid = icalparameter_get_tzid(parameter) else { return nil }
        return String(cString: tzid)
    }

    /// The RANGE parameter is THISANDFUTURE.
    var isThisAndFuture: Bool {
        guard let parameter = icalproperty_get_first_parameter(pointer, ICAL_RANGE_PARAMETER) else { return false }
        return icalparameter_get_range(parameter) == ICAL_RANGE_THISANDFUTURE
    }

    /// A DATE or DATE-TIME value (DTSTART, DTEND, RECURRENCE-ID, ...), with its TZID.
    var timeValue: ICalTime? {
        guard let value = icalproperty_get_value(pointer) else { return nil }
        let kind = icalvalue_isa(value)
        let time: icaltimetype
        switch kind {
        case ICAL_DATE_VALUE: time = icalvalue_get_date(value)
        case ICAL_DATETIME_VALUE: time = icalvalue_get_datetime(value)
        case ICAL_DATETIMEDATE_VALUE: time = icalvalue_get_datetimedate(value)
        default: return nil
        }
        return ICalTime(time, timeZoneID: timeZoneID)
    }

    /// An RDATE value: a DATE, a DATE-TIME or a PERIOD, with the property's TZID; `nil` if unusable.
    var recurrenceDate: RecurrenceDate? {
        let value = icalproperty_get_rdate(pointer)
        let zone = timeZoneID
        if icalperiodtype_is_null_period(value.period) == 0 {
            // A PERIOD is made of DATE-TIMEs (RFC 5545 3.3.9); libical also takes dates, which mean nothing here.
            guard let start = ICalTime(value.period.start, timeZoneID: zone), !start.isDate else { return nil }
            let end = ICalTime(value.period.end, timeZoneID: zone)
            let duration = icaldurationtype_is_null_duration(value.period.duration) == 0
                ? ICalDuration(value.period.duration) : nil
            return RecurrenceDate(start: start, end: end, duration: duration)
        }
        guard let start = ICalTime(value.time, timeZoneID: zone) else { return nil }
        return RecurrenceDate(start: start, end: nil, duration: nil)
    }

    /// Whether the value is a DATE or DATE-TIME (real or not).
    var hasDateValue: Bool {
        guard let value = icalproperty_get_value(pointer) else { return false }
        return [ICAL_DATE_VALUE, ICAL_DATETIME_VALUE, ICAL_DATETIMEDATE_VALUE].contains(icalvalue_isa(value))
    }

    /// Whether a DATE or DATE-TIME value is a real calendar date and time of day.
    var hasValidTime: Bool {
        guard let value = icalproperty_get_value(pointer) else { return false }
        let time = icalvalue_isa(value) == ICAL_DATE_VALUE ? icalvalue_get_date(value) : icalvalue_get_datetime(value)
        guard (1...12).contains(time.month), time.day >= 1,
              time.day <= Int32(Day.daysInMonth(year: Int(time.year), month: Int(time.month))) else { return false }
        return time.is_date != 0 || ((0...23).contains(time.hour) && (0...59).contains(time.minute) && (0...60).contains(time.second))
    }

    /// A DURATION value.
    var durationValue: ICalDuration? {
        guard let value = icalproperty_get_value(pointer), icalvalue_isa(value) == ICAL_DURATION_VALUE else {
            return nil
        }
        return ICalDuration(icalvalue_get_duration(value))
    }

    /// A UTC offset value (TZOFFSETFROM, TZOFFSETTO) in seconds.
    var utcOffsetValue: Int? {
        guard let value = icalproperty_get_value(pointer), icalvalue_isa(value) == ICAL_UTCOFFSET_VALUE else {
            return nil
        }
        return Int(icalvalue_get_utcoffset(value))
    }
}

extension Libical {
    /// libical's own conversion of a wall-clock time in one of its built-in zones to UTC.
    ///
    /// Only tests call this, to show where libical departs from RFC 5545: libical 3.0.16 reads
    /// 02:28 on 2016-03-27 in Europe/Berlin (inside the spring gap) as 00:28Z, where RFC 5545
    /// section 3.3.5 says 01:28Z. The import never uses it; `TimeZoneRules.instant(for:)` does the conversion.
    static func builtinInstant(for local: LocalDateTime, timeZoneID: String) -> Int64? {
        _ = ready
        guard let zone = icaltimezone_get_builtin_timezone(timeZoneID) else { return nil }
        var time = ICalTime(local: local, isDate: false, isUTC: false, timeZoneID: nil).libicalTime
        time = icaltime_set_timezone(&time, zone)
        return Int64(icaltime_as_timet_with_zone(time, zone))
    }

    /// The libical version the package is linked with, such as `3.0.16`.
    static var version: String { ICAL_VERSION }
}

extension Libical {
    /// The `X-LIC-ERROR`s libical finds when it parses a whole document: none for well-formed output.
    package static func parseErrors(in text: String) -> [String] {
        _ = ready
        guard let root = text.withCString({ icalparser_parse_string($0) }) else { return ["libical found no component"] }
        defer { icalcomponent_free(root) }
        var errors: [String] = []
        func collect(_ component: ComponentView) {
            errors += component.properties.filter(\.isError).map(\.errorMessage)
            component.children.forEach(collect)
        }
        collect(ComponentView(pointer: root))
        return errors
    }
}

extension ICalTime {
    /// A real date and time of libical's; `nil` for a null time and for one that does not exist
    /// (February 30, day 32, 25:00, minute 60), which libical keeps as written.
    init?(_ time: icaltimetype, timeZoneID: String?) {
        guard icaltime_is_null_time(time) == 0, (1...12).contains(time.month), time.day >= 1,
              time.day <= Int32(Day.daysInMonth(year: Int(time.year), month: Int(time.month))),
              time.is_date != 0 || (0...23).contains(time.hour) && (0...59).contains(time.minute) && (0...60).contains(time.second)
        else { return nil }
        self.local = LocalDateTime(
            normalizingYear: Int(time.year), month: Int(time.month), day: Int(time.day),
            hour: time.is_date != 0 ? 0 : Int(time.hour),
            minute: time.is_date != 0 ? 0 : Int(time.minute),
            second: time.is_date != 0 ? 0 : min(59, Int(time.second)))
        self.isDate = time.is_date != 0
        self.isUTC = time.is_date == 0 && icaltime_is_utc(time) != 0
        self.timeZoneID = isUTC || isDate ? nil : timeZoneID
    }

    /// The libical form, for libical's recurrence iterator (wall-clock fields; UTC marked, no zone otherwise).
    var libicalTime: icaltimetype {
        var time = icaltime_null_time()
        let (year, month, day) = local.day.components
        let (hour, minute, second) = local.timeOfDay
        time.year = Int32(year)
        time.month = Int32(month)
        time.day = Int32(day)
        time.hour = Int32(hour)
        time.minute = Int32(minute)
        time.second = Int32(second)
        time.is_date = isDate ? 1 : 0
        if isUTC { time.zone = icaltimezone_get_utc_timezone() }
        return time
    }
}

extension ICalDuration {
    init(_ duration: icaldurationtype) {
        isNegative = duration.is_neg != 0
        days = Int(duration.weeks) * 7 + Int(duration.days)
        seconds = Int(duration.hours) * 3600 + Int(duration.minutes) * 60 + Int(duration.seconds)
    }
}
