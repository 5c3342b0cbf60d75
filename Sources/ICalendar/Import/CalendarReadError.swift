import Foundation

/// A calendar that could not be read at all (as opposed to content problems, which are
/// diagnostics): which one, a code to switch on, and why in words.
///
/// ```swift
/// do {
///     _ = try CalendarSource.file("missing.ics").read()
/// } catch {
///     if error.code == .notFound { print(error.description) }
///     // Prints "cannot read missing.ics: no such file"
/// }
/// ```
public struct CalendarReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path or address as given (an address without its credentials).
    public var path: String
    /// What kind of failure it is: what a program decides by.
    public var code: Code
    /// Why, in words for a person: the system's message, the server's status, the limit met.
    public var reason: String
    /// The system's error number (`errno`), when a system call failed.
    public var systemError: Int32?
    /// The HTTP status a server answered with, when it answered with an error.
    public var httpStatus: Int?

    public init(path: String, code: Code, reason: String, systemError: Int32? = nil, httpStatus: Int? = nil) {
        self.path = path
        self.code = code
        self.reason = reason
        self.systemError = systemError
        self.httpStatus = httpStatus
    }

    /// A system call's failure: the code from the error number (``Code/init(systemError:)``), the
    /// reason the system's message, after `context` when one is given.
    public init(path: String, systemError: Int32, context: String? = nil) {
        let message = String(cString: strerror(systemError))
        self.init(
            path: path, code: Code(systemError: systemError), reason: context.map { "\($0): \(message)" } ?? message,
            systemError: systemError)
    }

    /// The same failure said of another name (the source's name rather than the path opened).
    public func naming(_ name: String) -> CalendarReadError {
        var error = self
        error.path = name
        return error
    }

    /// `cannot read PATH: REASON`, a byte of the path that is not UTF-8 shown as `\xNN` (``/CalendarDiagnostics/FileName``).
    public var description: String { "cannot read \(FileName.displayed(path)): \(reason)" }
}

extension CalendarReadError {
    /// The kind of a read failure: an extensible set of stable names (`rawValue`, `not-found`,
    /// to log or to match).
    /// Coded as its name (`Codable` of a `RawRepresentable` string), as ``/CalendarDiagnostics/Diagnostic/Code`` is.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        private init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code of a system error number: `ENOENT` is ``notFound``, `EISDIR` ``isDirectory``,
        /// `EACCES` and `EPERM` ``permissionDenied``, `EFBIG` ``tooLarge``, any other ``systemFailure``.
        public init(systemError: Int32) {
            switch systemError {
            case ENOENT: self = .notFound
            case EISDIR: self = .isDirectory
            case EACCES, EPERM: self = .permissionDenied
            case EFBIG: self = .tooLarge
            default: self = .systemFailure
            }
        }

        public var description: String { rawValue }

        /// Nothing has that name: no such file, a broken link, a vanished file, or a server's
        /// 404 or 410.
        public static let notFound = Code("not-found")
        /// A folder where a file was wanted, or an entry that is neither file nor folder.
        public static let isDirectory = Code("is-directory")
        /// The system refused (`EACCES`, `EPERM`), or a server did (401, 403).
        public static let permissionDenied = Code("permission-denied")
        /// More bytes than a limit allows (`DownloadOptions.maximumSize`, `EFBIG`).
        public static let tooLarge = Code("too-large")
        /// Bytes that are not an iCalendar file (text not starting with `BEGIN:`, an empty file),
        /// or a folder that holds no calendar that can be read.
        public static let notACalendar = Code("not-a-calendar")
        /// Another system call failed (`systemError` says which): an I/O error part-way, no room
        /// for a temporary file.
        public static let systemFailure = Code("system-failure")
        /// Text that is not an address StreakCal reads (http, https, webcal), or an address holding
        /// a password.
        public static let invalidAddress = Code("invalid-address")
        /// A host, redirect or link the download's rules do not allow
        /// (`DownloadOptions.permittedHosts`, credentials across origins, https to http).
        public static let refused = Code("refused")
        /// A user is named but no password is given for them.
        public static let missingPassword = Code("missing-password")
        /// The transfer failed: a name that does not resolve, a connection refused or timed out,
        /// a certificate that does not verify, an answer the server broke off.
        public static let network = Code("network")
        /// The server answered with another error status (`httpStatus` says which), or with an
        /// answer that cannot be read (a WebDAV reply that is not XML).
        public static let server = Code("server")
        /// Offline, and no copy of the calendar is in the cache.
        public static let notCached = Code("not-cached")
        /// The cache could not be used: none is given (`DownloadOptions.cacheFolder`), or its
        /// folder or files cannot be written.
        public static let cache = Code("cache")
    }
}
