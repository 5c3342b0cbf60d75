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
    /// diagnostics name the file. What under it cannot be read (a broken link, a folder that
    /// cannot be listed) is a source that says so (``CalendarSource/Content/unreadable(reason:)``):
    /// an error diagnostic of its own, and the folder's other files are read.
    public var sources: [CalendarSource]
    /// The `*.ics` entries that are not regular files (named pipes, sockets, devices), passed over.
    public var skipped: [SkippedInput]

    /// Walks the folder.
    ///
    /// - Throws: `CalendarReadError` when the folder cannot be listed, and when it holds no
    ///   calendar file that can be read.
    public init(_ path: String) throws(CalendarReadError) {
        let walk = BatchInput.walk([path])
        var sources: [CalendarSource] = []
        for input in walk.inputs {
            switch input.content {
            case .file(let file): sources.append(.file(file))
            case .sources(let found): sources += found
            case .unreadable(let reason):
                // The folder itself must be listed; anything under it that cannot be read is said, and passed over.
                if input.name == FileName.displayed(path) { throw CalendarReadError(path: path, reason: Self.reason(reason, of: input.name)) }
                sources.append(CalendarSource(name: input.name, content: .unreadable(reason: Self.reason(reason, of: input.name))))
            }
        }
        guard sources.contains(where: { if case .unreadable = $0.content { false } else { true } }) else {
            let reason = sources.isEmpty ? "the folder holds no calendar file (*.ics)" : "no calendar file under it can be read"
            throw CalendarReadError(path: path, reason: reason)
        }
        self.path = path
        self.sources = sources
        self.skipped = walk.skipped
    }

    /// Whether `path` names a folder (a link to one included).
    public static func isFolder(_ path: String) -> Bool {
        var information = stat()
        return path != "-" && FileName.withSystemRepresentation(path, { stat($0, &information) }) == 0 && information.st_mode & S_IFMT == S_IFDIR
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
