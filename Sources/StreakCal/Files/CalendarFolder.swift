import Foundation
public import ICalendar

/// The calendars under a folder, to be read as one calendar: a vdir as vdirsyncer and khal keep
/// it (one `.ics` file an event), or any folder of exports.
///
/// The folder is one calendar in reports (``/ICalendar/CalendarSource/Collection``): named by its
/// `displayname` file, as the vdir convention keeps a calendar's name (vdirsyncer writes it), else
/// by the folder's own name, rather than by a list of its files.
///
/// ```swift
/// let folder = try CalendarFolder("~/.calendars/work")
/// let scored = try ReportSettings().scored(folder.sources)
/// ```
public struct CalendarFolder: Sendable {
    /// The folder as given.
    public var path: String
    /// The calendar the folder is: its place and its name (the `displayname` file's first line, if
    /// it has one), which every source carries.
    public var collection: CalendarSource.Collection
    /// Every `*.ics` file (any case) under it, at any depth, in the order `batch` walks a folder
    /// (``BatchInput/walk(_:reserving:fileExtension:)``: sorted by path, links followed but never
    /// in a loop, each file once, hidden folders passed over); each is named by its path, so
    /// diagnostics name the file. What under it cannot be read (a broken link, a folder that
    /// cannot be listed) is a source that says so (``/ICalendar/CalendarSource/Content/unreadable(_:)``):
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
        let collection = CalendarSource.Collection(location: FileName.displayed(path), name: Self.displayName(in: path))
        var sources: [CalendarSource] = []
        for input in walk.inputs {
            switch input.content {
            case .file(let file): sources.append(.file(file))
            case .sources(let found): sources += found
            case .unreadable(let error):
                // The folder itself must be listed; anything under it that cannot be read is said, and passed over.
                if input.name == FileName.displayed(path) { throw error }
                sources.append(CalendarSource(name: input.name, content: .unreadable(error.naming(input.name))))
            }
        }
        for index in sources.indices { sources[index].collection = collection }
        guard sources.contains(where: { if case .unreadable = $0.content { false } else { true } }) else {
            let reason = sources.isEmpty ? "the folder holds no calendar file (*.ics)" : "no calendar file under it can be read"
            throw CalendarReadError(path: path, code: .notACalendar, reason: reason)
        }
        self.path = path
        self.collection = collection
        self.sources = sources
        self.skipped = walk.skipped
    }

    /// The most bytes of a `displayname` file read.
    static let displayNameLimit = 4096

    /// The name a vdir keeps for its calendar: the first line of its `displayname` file (trimmed),
    /// read no further than ``displayNameLimit``; `nil` without one, or an empty one.
    static func displayName(in folder: String) -> String? {
        let file = (folder.hasSuffix("/") ? folder : folder + "/") + "displayname"
        let descriptor = FileName.withSystemRepresentation(file) { open($0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: displayNameLimit)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let line = String(decoding: bytes[..<count], as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        let name = line.trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// Whether `path` names a folder (a link to one included).
    public static func isFolder(_ path: String) -> Bool {
        var information = stat()
        return path != "-" && FileName.withSystemRepresentation(path, { stat($0, &information) }) == 0 && information.st_mode & S_IFMT == S_IFDIR
    }

    /// The calendars command-line paths name: `-` as standard input, a folder as its calendar files,
    /// anything else as `CalendarSource.file(_:)`; with the entries folders passed over.
    public static func sources(forPaths paths: [String]) throws(CalendarReadError) -> (sources: [CalendarSource], skipped: [SkippedInput]) {
        var sources: [CalendarSource] = [], skipped: [SkippedInput] = []
        for path in paths {
            if path == "-" {
                sources.append(.standardInput)
                continue
            }
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
}
