/// A calendar a report is about: the file it was read from and the name people know it by.
///
/// The name is the calendar's own (`X-WR-CALNAME`, as Google, Apple and Outlook write it) when it
/// declares one, else the file's name without its folder and its `.ics` extension, so that 500
/// reports of a batch can be told apart.
///
/// ```swift
/// print(ReportSource(file: "exports/piano.ics").name)
/// // Prints "piano"
/// print(ReportSource(file: "exports/basic.ics", declaredName: "Piano practice").name)
/// // Prints "Piano practice"
/// ```
public struct ReportSource: Hashable, Sendable, Codable {
    /// The file as given (`-` for standard input).
    public var file: String
    /// The calendar's name: its `X-WR-CALNAME`, else the file's name (``name(ofFile:)``); for a
    /// part of a collection, the collection's.
    public var name: String
    /// Where the calendar the file is a part of is, when several files make one (a vdir folder, a
    /// CalDAV collection); `nil` for a calendar of its own.
    public var collection: String?

    /// - Parameters:
    ///   - file: The file as given (`-` for standard input).
    ///   - declaredName: The calendar's `X-WR-CALNAME`, if it has one: line breaks and runs of
    ///     spaces become one space, and more than ``maximumNameLength`` characters are cut with `…`.
    ///   - collection: Where the calendar the file is a part of is (a folder, an address), which
    ///     names it when `declaredName` does not.
    public init(file: String, declaredName: String? = nil, collection: String? = nil) {
        self.file = file
        self.collection = collection
        let declared = declaredName.map(Self.tidied) ?? ""
        self.name = declared.isEmpty ? Self.name(ofFile: collection ?? file) : declared
    }

    /// The longest name kept: a calendar cannot make every report's title a page long.
    public static let maximumNameLength = 120

    /// What a file is called when its calendar has no name: the last path component without a
    /// `.ics` or `.ical` extension (`standard input` for `-`).
    ///
    /// ```swift
    /// print(ReportSource.name(ofFile: "/home/ada/Piano.ics"))
    /// // Prints "Piano"
    /// ```
    public static func name(ofFile file: String) -> String {
        if file == "-" { return "standard input" }
        var last = Substring(file)
        while last.count > 1, last.last == "/" { last = last.dropLast() }
        if let slash = last.lastIndex(of: "/"), last.index(after: slash) < last.endIndex {
            last = last[last.index(after: slash)...]
        }
        for suffix in [".ics", ".ical", ".ifb", ".icalendar"] {
            if last.count > suffix.count, last.lowercased().hasSuffix(suffix) {
                last = last.dropLast(suffix.count)
                break
            }
        }
        return tidied(String(last))
    }

    /// `text` on one line: whitespace runs (line breaks and tabs included) become one space, the
    /// ends are trimmed, and a name longer than ``maximumNameLength`` is cut with `…`.
    static func tidied(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        if result.count > maximumNameLength {
            result = String(result.prefix(maximumNameLength - 1)) + "…"
        }
        return result
    }
}

extension Array where Element == ReportSource {
    /// The calendars the files make: each file of its own, and each collection once (where its
    /// first file stands), named by the collection and found at its place.
    ///
    /// ```swift
    /// let files = ["vdir/a.ics", "vdir/b.ics"].map { ReportSource(file: $0, declaredName: "Runs", collection: "vdir") }
    /// print((files + [ReportSource(file: "piano.ics")]).calendars.map(\.name))
    /// // Prints "["Runs", "piano"]"
    /// ```
    public var calendars: [ReportSource] {
        var seen: Set<String> = []
        return compactMap { source in
            guard let collection = source.collection else { return source }
            guard seen.insert(collection).inserted else { return nil }
            var calendar = source
            calendar.file = collection
            return calendar
        }
    }

    /// How a report names what it is about: one calendar's name, or the names of several
    /// (`Piano, Running and Swimming`; the first three and a count of the rest beyond that), or
    /// `nil` when there are none.
    ///
    /// ```swift
    /// print([ReportSource(file: "piano.ics"), ReportSource(file: "run.ics")].subject ?? "")
    /// // Prints "piano and run"
    /// ```
    public var subject: String? {
        let names = calendars.map(\.name)
        switch names.count {
        case 0: return nil
        case 1: return names[0]
        case 2, 3: return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        default:
            let rest = names.count - 3
            return names.prefix(3).joined(separator: ", ") + " and \(rest) more"
        }
    }
}
