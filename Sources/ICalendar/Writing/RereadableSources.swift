import Foundation

/// Calendars opened once to be read twice with the same bytes each time: by the import, then by
/// the copy that `streakcal annotate` writes, so that the annotations are of what is copied.
///
/// Each file stays open, and is read again through its descriptor (`/proc/self/fd/N`, which opens
/// the file the descriptor has, wherever its path leads by then); standard input and anything else
/// that is not a regular file is kept in an unlinked temporary file first
/// (`SessionImporter.openInput(path:)`), never in memory. Bytes in memory stay where they are.
/// Without `/proc`, an input is read into memory, as `CalendarSource.inMemory()` reads it.
///
/// ```swift
/// let inputs = try RereadableSources([.standardInput])
/// let imported = try SessionImporter(expansion: RecurrenceExpansion(through: lastDay)).importSessions(from: inputs.sources)
/// let copy = try writer.copy(inputs.sources)
/// ```
public struct RereadableSources: ~Copyable {
    /// The sources, each with its name as given, reading its input where it was opened.
    public let sources: [CalendarSource]
    /// The descriptors `sources` read through, closed at the end.
    private let descriptors: [Int32]

    /// Opens `sources` (bytes in memory are taken as they are).
    ///
    /// - Throws: `CalendarReadError` when a source cannot be opened or read.
    public init(_ sources: [CalendarSource]) throws(CalendarReadError) {
        var opened: [CalendarSource] = []
        var descriptors: [Int32] = []
        do throws(CalendarReadError) {
            for source in sources {
                let descriptor: Int32
                do {
                    switch source.content {
                    case .bytes, .unreadable: opened.append(source); continue
                    case .file(let path): descriptor = try SessionImporter.openInput(path: path)
                    case .standardInput: descriptor = try SessionImporter.openStandardInput()
                    }
                } catch where sources.count > 1 && source.collection != nil {
                    // Said where it is read (as the import and the copy say it), the others read.
                    opened.append(CalendarSource(name: source.name, content: .unreadable(error.naming(source.name)), collection: source.collection))
                    continue
                } catch {
                    throw error.naming(source.name)
                }
                descriptors.append(descriptor)
                let name = Self.name(of: descriptor)
                guard access(name, R_OK) == 0 else {
                    opened.append(CalendarSource(name: source.name, content: .bytes(try Self.read(descriptor, name: source.name)), collection: source.collection))
                    continue
                }
                opened.append(CalendarSource(name: source.name, content: .file(path: name), collection: source.collection))
            }
        } catch {
            for descriptor in descriptors { close(descriptor) }
            throw error
        }
        self.sources = opened
        self.descriptors = descriptors
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }

    /// The path that opens what `descriptor` has open (Linux's `/proc`).
    private static func name(of descriptor: Int32) -> String {
        "/proc/self/fd/\(descriptor)"
    }

    /// Everything `descriptor` holds, from its start.
    private static func read(_ descriptor: Int32, name: String) throws(CalendarReadError) -> [UInt8] {
        let input = InputBytes(reading: descriptor, from: 0, to: nil)
        input.readToEnd()
        if let code = input.readFailure { throw CalendarReadError(path: name, systemError: code) }
        return input.array
    }
}
