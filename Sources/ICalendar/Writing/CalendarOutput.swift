/// Where a calendar `CalendarWriter` writes goes, a piece at a time: a file being written, a
/// stream, memory.
///
/// ```swift
/// var output = CalendarBytes()
/// try copy.write(adding: events, timestamp: 1_709_164_800, to: &output)
/// print(output.bytes.count > 0)
/// // Prints "true"
/// ```
public protocol CalendarOutput: ~Copyable {
    /// Why a write fails (`Never` for memory).
    associatedtype Failure: Error

    /// Writes the next bytes of the calendar (a few tens of kilobytes at most at a time).
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(Failure)
}

/// A calendar written into memory.
public struct CalendarBytes: CalendarOutput, Sendable {
    public typealias Failure = Never

    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }

    /// The bytes as text (the writer writes UTF-8).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Why a copy could not be kept in its temporary file (`CalendarWriter.copy(_:marks:)` keeps what
/// it copies there until the end of the copy, so that its memory does not grow with its input).
///
/// ```swift
/// print(ScratchFileError(reason: "No space left on device"))
/// // Prints "cannot keep the copied calendar in a temporary file: No space left on device"
/// ```
public struct ScratchFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as the system says it.
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "cannot keep the copied calendar in a temporary file: \(reason)" }
}
