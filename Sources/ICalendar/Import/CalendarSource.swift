/// Where a calendar comes from, and the name diagnostics give it.
///
/// ```swift
/// let sources: [CalendarSource] = [.file("work.ics"), .standardInput, .string("BEGIN:VEVENT...", name: "pasted.ics")]
/// ```
public struct CalendarSource: Hashable, Sendable {
    /// Where the bytes are.
    public enum Content: Hashable, Sendable {
        /// A file, read when the import comes to it (anything but a regular file, such as a named
        /// pipe, is read as a stream).
        case file(path: String)
        /// The process's standard input.
        case standardInput
        /// Bytes in memory, in any encoding the import reads (UTF-8, UTF-16 with a byte order mark, Latin-1).
        case bytes([UInt8])
        /// An input known not to be readable, and why (a broken link in a folder): read with
        /// others, it is an error diagnostic of its own and the others are read; alone, the
        /// import fails with this error.
        case unreadable(CalendarReadError)
    }

    /// A calendar that several inputs make together: a folder of `.ics` files (a vdir, one event
    /// a file) or a CalDAV collection (one resource an event). Reports name it once, by its own
    /// name, rather than each of its inputs.
    public struct Collection: Hashable, Sendable {
        /// Where it is: the folder's path, the collection's address.
        public var location: String
        /// Its name (a vdir's `displayname` file, a CalDAV collection's `displayname`), if it has one.
        public var name: String?

        public init(location: String, name: String? = nil) {
            self.location = location
            self.name = name
        }
    }

    /// The name diagnostics and session sources give it: the path, `-` for standard input.
    public var name: String
    public var content: Content
    /// The calendar it is a part of, when several inputs make one.
    public var collection: Collection?

    public init(name: String, content: Content, collection: Collection? = nil) {
        self.name = name
        self.content = content
        self.collection = collection
    }

    /// A file, whatever its name (`-` is a file named `-`: standard input is ``standardInput``). A
    /// path with bytes that are not UTF-8 (``/CalendarDiagnostics/FileName``) is named with them
    /// shown as `\xNN`.
    public static func file(_ path: String) -> CalendarSource {
        CalendarSource(name: FileName.displayed(path), content: .file(path: path))
    }

    /// The process's standard input, named `-`.
    public static let standardInput = CalendarSource(name: "-", content: .standardInput)

    /// Bytes in memory.
    public static func bytes(_ bytes: [UInt8], name: String) -> CalendarSource {
        CalendarSource(name: name, content: .bytes(bytes))
    }

    /// Text in memory.
    public static func string(_ text: String, name: String = "<string>") -> CalendarSource {
        CalendarSource(name: name, content: .bytes(Array(text.utf8)))
    }

    /// All of the source's bytes (standard input is read to its end).
    public func read() throws(CalendarReadError) -> [UInt8] {
        switch content {
        case .bytes(let bytes): return bytes
        case .file(let path): return try SessionImporter.read(path: path)
        case .standardInput: return try SessionImporter.readStandardInput()
        case .unreadable(let error): throw error
        }
    }

    /// The source as bytes in memory, for readers that need it whole (`CalendarWriter`).
    public func inMemory() throws(CalendarReadError) -> CalendarSource {
        if case .bytes = content { return self }
        return CalendarSource(name: name, content: .bytes(try read()), collection: collection)
    }
}
