import Foundation
public import ICalendar

/// The calendars under a folder, to be read as one calendar: a vdir as vdirsyncer and khal keep
/// it (one `.ics` file an event), or any folder of exports.
///
/// ```swift
/// let folder = try CalendarFolder("~/.calendars/work")
/// let scored = try ReportSettings().scored(folder.sources)
/// ```
public struct CalendarFolder: Sendable {
    /// The folder as given.
    public var path: String
    /// Every `*.ics` file (any case) under it, at any depth, in the order `batch` walks a folder
    /// (``BatchInput/walk(_:reserving:fileExtension:)``: sorted by path, links followed but never
    /// in a loop, each file once, hidden folders passed over); each is named by its path, so
    /// diagnostics name the file.
    public var sources: [CalendarSource]
    /// The `*.ics` entries that are not regular files (named pipes, sockets, devices), passed over.
    public var skipped: [SkippedInput]

    /// Walks the folder.
    ///
    /// - Throws: `CalendarReadError` when the folder, or a folder or calendar file under it, cannot
    ///   be listed or read, and when it holds no calendar file.
    public init(_ path: String) throws(CalendarReadError) {
        let walk = BatchInput.walk([path])
        var sources: [CalendarSource] = []
        for input in walk.inputs {
            switch input.content {
            case .file(let file): sources.append(.file(file))
            case .sources(let found): sources += found
            case .unreadable(let reason): throw CalendarReadError(path: input.name, reason: Self.reason(reason, of: input.name))
            }
        }
        guard !sources.isEmpty else {
            throw CalendarReadError(path: path, reason: "the folder holds no calendar file (*.ics)")
        }
        self.path = path
        self.sources = sources
        self.skipped = walk.skipped
    }

    /// Whether `path` names a folder (a link to one included).
    public static func isFolder(_ path: String) -> Bool {
        var information = stat()
        return path != "-" && stat(path, &information) == 0 && information.st_mode & S_IFMT == S_IFDIR
    }

    /// The calendars command-line paths name: a folder as its calendar files, anything else as
    /// `CalendarSource.file(_:)` (`-` is standard input); with the entries folders passed over.
    public static func sources(forPaths paths: [String]) throws(CalendarReadError) -> (sources: [CalendarSource], skipped: [SkippedInput]) {
        var sources: [CalendarSource] = [], skipped: [SkippedInput] = []
        for path in paths {
            guard isFolder(path) else {
                sources.append(.file(path))
                continue
            }
            let folder = try CalendarFolder(path)
            sources += folder.sources
            skipped += folder.skipped
        }
        return (sources, skipped)
    }

    /// A walk's reason without its leading "cannot read PATH: " (or "cannot list PATH: "), which
    /// `CalendarReadError` says itself.
    private static func reason(_ reason: String, of path: String) -> String {
        for prefix in ["cannot read \(path): ", "cannot list \(path): "] where reason.hasPrefix(prefix) {
            return String(reason.dropFirst(prefix.count))
        }
        return reason
    }
}
