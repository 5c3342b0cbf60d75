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

/// Why a calendar copy could not be made or written out: what ``CalendarWriter/copy(_:marks:inMemory:noticingAnnotation:)``
/// (with `OutputFailure` `Never`) and ``CalendarCopy/write(adding:timestamp:to:)`` throw.
///
/// ```swift
/// do {
///     let copy = try writer.copy([.file("work.ics")])
///     var output = CalendarBytes()
///     try copy.write(adding: [], timestamp: 1_709_164_800, to: &output)
/// } catch .unreadable(let error) {
///     print(error.code)   // not-found, permission-denied, ...
/// } catch {
///     print(error)
/// }
/// ```
public enum CalendarCopyError<OutputFailure: Error>: Error, CustomStringConvertible {
    /// An input could not be read.
    case unreadable(CalendarReadError)
    /// The temporary file the copy keeps its components in could not be written or read back.
    case scratch(ScratchFileError)
    /// The output refused a write.
    case output(OutputFailure)

    /// What the error it holds says.
    public var description: String {
        switch self {
        case .unreadable(let error): error.description
        case .scratch(let error): error.description
        case .output(let error): String(describing: error)
        }
    }

    /// The same error of a copy that has no output yet, for its write.
    init(_ error: CalendarCopyError<Never>) {
        switch error {
        case .unreadable(let error): self = .unreadable(error)
        case .scratch(let error): self = .scratch(error)
        }
    }

    /// The typed form of what a step of a copy threw: each throws a read error, a scratch-file
    /// error or the output's failure, and nothing else (the copy's code is ours, `OutputFailure`
    /// the caller's). The scratch file is asked first, as both steps can fail on it and an output
    /// whose failure is `any Error` would take it; only copying reads inputs, and only writing
    /// has an output.
    static func of(_ error: any Error) -> Self {
        if let error = error as? ScratchFileError { return .scratch(error) }
        if let error = error as? OutputFailure { return .output(error) }
        if let error = error as? CalendarReadError { return .unreadable(error) }
        preconditionFailure("a calendar copy's step threw \(type(of: error)), which none of them throws")
    }
}
