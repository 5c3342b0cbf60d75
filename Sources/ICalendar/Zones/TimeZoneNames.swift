import Foundation
import Streaks

/// Real-world TZIDs that are not IANA names, resolved to the IANA zone they stand for.
///
/// Calendars written by Outlook and Exchange name zones by Windows id ("W. Europe Standard Time")
/// or display name ("(UTC+01:00) Amsterdam, Berlin, ..."); older Mozilla and libical builds put a
/// vendor path before the Olson name. The tables behind the names come from the Unicode CLDR
/// (`Generated/TimeZoneTables.swift`, written by `scripts/generate-time-zone-tables`); city names
/// come from the IANA identifiers Foundation knows.
///
/// ```swift
/// let known: (String) -> Bool = { TimeZone(identifier: $0) != nil }
/// print(TimeZoneNames.ianaIdentifier(for: "W. Europe Standard Time", isKnown: known) ?? "nil")
/// print(TimeZoneNames.ianaIdentifier(for: "/mozilla.org/20050126_1/America/New_York", isKnown: known) ?? "nil")
/// print(TimeZoneNames.ianaIdentifier(for: "Customized Time Zone", isKnown: known) ?? "nil")
/// // Prints "Europe/Berlin", "America/New_York" and "nil"
/// ```
enum TimeZoneNames {
    /// The IANA identifier a TZID stands for, or `nil` when it names no zone unambiguously.
    ///
    /// The rules, in order (the first that gives a zone `isKnown` accepts wins):
    /// 1. Surrounding whitespace and quotes are dropped; a name `isKnown` accepts is returned as it is.
    /// 2. A `tzone://Microsoft/` prefix (Exchange) is dropped; what follows is read by rules 3 to 5.
    /// 3. A Windows zone id, ignoring case and whitespace: CLDR's golden zone (territory "001").
    ///    "… Daylight Time" stands for the id's "… Standard Time".
    /// 4. An IANA identifier spelled loosely: other letter case, spaces for underscores, or a hyphen
    ///    for the first slash ("US-Eastern"). After a leading "/" (vendor prefix such as
    ///    "/mozilla.org/20050126_1/") or a tzdata folder ("posix/", "right/", "zoneinfo/"): the longest
    ///    trailing run of at least two "/"-separated components that is an IANA identifier.
    /// 5. A Windows display name, with or without its "(UTC±hh:mm)" prefix: the Windows id CLDR notes
    ///    for the same place list, or an English CLDR long name ("Central European Time"). With a
    ///    stated offset, also the first listed place that is an IANA city (the identifier's last
    ///    component) or a CLDR exemplar city, then the first that is a long name, and failing that the
    ///    first place named in the display names of exactly one Windows zone. A stated offset must equal
    ///    the zone's standard offset in January or July (or the offset CLDR's display name states).
    ///
    /// Abbreviations ("CST"), bare offsets ("(GMT +01:00)"), "custom_" names and names of several
    /// regions stay `nil`: they do not say which zone they mean.
    ///
    /// - Parameters:
    ///   - tzid: The TZID parameter or property value, as written.
    ///   - isKnown: Whether Foundation knows an identifier; callers pass `{ TimeZone(identifier: $0) != nil }`.
    static func ianaIdentifier(for tzid: String, isKnown: (String) -> Bool) -> String? {
        ianaIdentifier(for: tzid, isKnown: isKnown, standardOffsets: standardOffsets(of:))
    }

    /// The IANA identifier a TZID stands for, checking stated offsets against `standardOffsets`.
    ///
    /// - Parameter standardOffsets: A zone's standard offsets from UTC in seconds (in January and July),
    ///   against which the "(UTC±hh:mm)" of a display name is checked.
    static func ianaIdentifier(
        for tzid: String, isKnown: (String) -> Bool, standardOffsets: (String) -> Set<Int>
    ) -> String? {
        var name = unquoted(tzid)
        guard !name.isEmpty else { return nil }
        if isKnown(name) { return name }
        let exchangePrefix = "tzone://microsoft/"
        if name.lowercased().hasPrefix(exchangePrefix) {
            name = unquoted(String(name.dropFirst(exchangePrefix.count)))
            guard !name.isEmpty else { return nil }
        }
        if let zone = windowsZone(name, isKnown: isKnown) { return zone }
        if let zone = olsonZone(name, isKnown: isKnown) { return zone }
        return displayNameZone(name, isKnown: isKnown, standardOffsets: standardOffsets)
    }

    /// A zone's standard offsets from UTC (without daylight saving time), in seconds, on January 15
    /// and July 15 of ``offsetsYear``; one offset for most zones.
    /// The year whose standard offsets a display name's `(UTC+01:00)` is held to: a fixed one, not
    /// the year the program runs in, so that a calendar reads the same on any day (issue 50: the
    /// library reads no clock). Zones whose standard offset changed since are matched as they were then.
    static let offsetsYear = 2025

    static func standardOffsets(of identifier: String) -> Set<Int> {
        guard let zone = TimeZone(identifier: identifier) else { return [] }
        let year = offsetsYear
        return Set([1, 7].map { month in
            let noon = LocalDateTime(normalizingYear: year, month: month, day: 15, hour: 12).secondsSince1970
            let date = Date(timeIntervalSince1970: TimeInterval(noon))
            return zone.secondsFromGMT(for: date) - Int(zone.daylightSavingTimeOffset(for: date))
        })
    }
}

// MARK: - Windows ids

extension TimeZoneNames {
    /// Golden zones by Windows id, the id lowercased without whitespace.
    private static let windowsZonesByKey: [String: String] = Dictionary(
        TimeZoneTables.windowsZones.map { (windowsKey($0.windowsID), $0.zone) }, uniquingKeysWith: { first, _ in first })

    private static func windowsKey(_ name: some StringProtocol) -> String {
        String(name.lowercased().unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
    }

    private static func windowsZone(_ name: String, isKnown: (String) -> Bool) -> String? {
        var key = windowsKey(name)
        if windowsZonesByKey[key] == nil, key.hasSuffix("daylighttime") {
            key = key.dropLast("daylighttime".count) + "standardtime"
        }
        guard let zone = windowsZonesByKey[key], isKnown(zone) else { return nil }
        return zone
    }
}

// MARK: - IANA identifiers spelled loosely, vendor prefixes

extension TimeZoneNames {
    /// Foundation's IANA identifiers by their lowercased spelling.
    private static let knownIdentifiersByLowercased: [String: String] = Dictionary(
        TimeZone.knownTimeZoneIdentifiers.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    /// tzdata folders that hold a copy of the zones under the same names.
    private static let tzdataFolders: Set<String> = ["posix", "right", "zoneinfo"]

    private static func olsonZone(_ name: String, isKnown: (String) -> Bool) -> String? {
        if let zone = knownSpelling(of: name, isKnown: isKnown) { return zone }
        if !name.contains("/"), let hyphen = name.firstIndex(of: "-"), hyphen != name.startIndex {
            var slashed = name
            slashed.replaceSubrange(hyphen...hyphen, with: "/")
            if let zone = knownSpelling(of: slashed, isKnown: isKnown) { return zone }
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        let isPrefixed = name.hasPrefix("/") || (components.count > 2 && tzdataFolders.contains(components[0].lowercased()))
        guard isPrefixed else { return nil }
        let parts = components.filter { !$0.isEmpty }
        for start in parts.indices where parts.count - start >= 2 {
            let candidate = parts[start...].joined(separator: "/")
            if let zone = knownSpelling(of: candidate, isKnown: isKnown) { return zone }
        }
        return nil
    }

    /// `name` as an identifier `isKnown` accepts: as it is, with underscores for spaces, or in other letter case.
    private static func knownSpelling(of name: String, isKnown: (String) -> Bool) -> String? {
        if isKnown(name) { return name }
        let underscored = name.replacingOccurrences(of: " ", with: "_")
        if underscored != name, isKnown(underscored) { return underscored }
        if let zone = knownIdentifiersByLowercased[underscored.lowercased()], isKnown(zone) { return zone }
        return nil
    }
}

// MARK: - Display names

extension TimeZoneNames {
    /// A Windows-style display name: "(UTC+01:00) Amsterdam, Berlin" has offset 3600 and places
    /// ["amsterdam", "berlin"].
    struct DisplayName {
        /// The offset in the leading "(UTC±hh:mm)" or "(GMT±hh.mm)", in seconds; `nil` without one.
        var offset: Int?
        /// The text after the offset.
        var description: String
        /// The description folded (case, diacritics, whitespace) and split at `, / ; & ( ) | :`.
        var places: [String]

        init(_ text: String) {
            var description = Substring(text)
            offset = nil
            if text.hasPrefix("("), let close = text.firstIndex(of: ")"),
               let stated = Self.statedOffset(text[text.index(after: text.startIndex)..<close]) {
                offset = stated
                description = text[text.index(after: close)...]
            }
            self.description = description.trimmingCharacters(in: .whitespacesAndNewlines)
            places = folded(self.description)
                .split(whereSeparator: { ",/;&()|:".contains($0) })
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }

        /// Seconds east of UTC in "UTC", "UTC+01:00", "GMT-03.30", "GMT +0100", or `nil`.
        static func statedOffset(_ text: Substring) -> Int? {
            let compact = text.uppercased().filter { !$0.isWhitespace }
            guard compact.hasPrefix("UTC") || compact.hasPrefix("GMT") else { return nil }
            var rest = compact.dropFirst(3)
            if rest.isEmpty { return 0 }
            let sign: Int
            switch rest.first {
            case "+": sign = 1
            case "-", "\u{2212}", "\u{2013}": sign = -1
            default: return nil
            }
            rest = rest.dropFirst()
            let fields = rest.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "." })
            let hours: Substring, minutes: Substring
            switch fields.count {
            case 1 where fields[0].count == 4: (hours, minutes) = (fields[0].prefix(2), fields[0].suffix(2))
            case 1: (hours, minutes) = (fields[0], "0")
            case 2 where fields[1].count == 2: (hours, minutes) = (fields[0], fields[1])
            default: return nil
            }
            guard (1...2).contains(hours.count), (hours + minutes).allSatisfy({ $0.isASCII && $0.isNumber }),
                  let h = Int(hours), let m = Int(minutes), h <= 14, m < 60 else { return nil }
            return sign * (h * 3600 + m * 60)
        }
    }

    /// CLDR's Windows display names, parsed.
    private static let windowsDisplayNames: [(name: DisplayName, zone: String)] =
        TimeZoneTables.windowsDisplayNames.compactMap { entry in
            guard let zone = TimeZoneTables.windowsZones.first(where: { $0.windowsID == entry.windowsID })?.zone
            else { return nil }
            return (DisplayName(entry.displayName), zone)
        }

    /// Zones by folded CLDR long name ("central european time").
    private static let zonesByLongName: [String: String] = Dictionary(
        TimeZoneTables.longNames.map { (folded($0.name), $0.zone) }, uniquingKeysWith: { first, _ in first })

    /// Zones by folded city: the last component of each IANA identifier Foundation knows (spaces
    /// for underscores), and CLDR's exemplar cities.
    private static let zonesByCity: [String: Set<String>] = {
        var zones: [String: Set<String>] = [:]
        for identifier in TimeZone.knownTimeZoneIdentifiers
        where identifier.contains("/") && !identifier.hasPrefix("Etc/") {
            let city = identifier.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ") } ?? ""
            zones[folded(city), default: []].insert(identifier)
        }
        for (city, zone) in TimeZoneTables.exemplarCities {
            zones[folded(city), default: []].insert(zone)
        }
        return zones
    }()

    private static func displayNameZone(
        _ text: String, isKnown: (String) -> Bool, standardOffsets: (String) -> Set<Int>
    ) -> String? {
        let name = DisplayName(text)
        guard !name.places.isEmpty else { return nil }
        func agrees(_ zone: String, statedBy entry: DisplayName? = nil) -> Bool {
            guard isKnown(zone) else { return false }
            guard let stated = name.offset else { return true }
            return entry?.offset == stated || standardOffsets(zone).contains(stated)
        }
        func single(_ zones: some Sequence<String>) -> String? {
            let distinct = Set(zones)
            return distinct.count == 1 ? distinct.first : nil
        }

        // The same place list as one of Windows' display names.
        let sameList = windowsDisplayNames.filter { $0.name.places == name.places && agrees($0.zone, statedBy: $0.name) }
        if let zone = single(sameList.map(\.zone)) { return zone }

        // A CLDR long name, without parenthesised qualifiers.
        let bare = name.description.replacingOccurrences(of: #"\([^)]*\)"#, with: " ", options: .regularExpression)
        if let zone = zonesByLongName[folded(bare)], agrees(zone) { return zone }

        // Without a stated offset, a single place is not evidence enough.
        guard let stated = name.offset else { return nil }

        // The first listed place that is the city of exactly one zone with that offset, then the first long name.
        for place in name.places {
            if let zone = single((zonesByCity[place] ?? []).filter { agrees($0) }) { return zone }
        }
        for place in name.places {
            if let zone = zonesByLongName[place], agrees(zone) { return zone }
        }

        // The first listed place that appears in the display names of exactly one Windows zone with that offset.
        for place in name.places {
            let zones = windowsDisplayNames
                .filter { $0.name.offset == stated && $0.name.places.contains(place) && isKnown($0.zone) }
                .map(\.zone)
            if let zone = single(zones) { return zone }
        }
        return nil
    }
}

// MARK: - Text

extension TimeZoneNames {
    /// The TZID without surrounding whitespace and quotes.
    static func unquoted(_ tzid: String) -> String {
        var text = tzid.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
            text = text.dropFirst().dropLast().trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text
    }
}

/// `text` lowercased, without diacritics, with typographic apostrophes as "'" and whitespace runs as one space.
private func folded(_ text: some StringProtocol) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        .replacingOccurrences(of: "\u{2019}", with: "'")
        .split(whereSeparator: \.isWhitespace)
        .joined(separator: " ")
}
