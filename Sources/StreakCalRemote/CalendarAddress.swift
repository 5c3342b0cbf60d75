import StreakCal
import Foundation

/// A calendar's address on a server: an `https://`, `http://` or `webcal://` subscription URL
/// (`webcal://` is read as `https://`, as calendar apps read it).
///
/// An address never holds a password: a user name in it (`https://alice@host/…`) is kept apart
/// from ``url``, so that what is printed (``description``) names no credentials.
///
/// ```swift
/// let address = try CalendarAddress("webcal://example.com/team.ics")
/// print(address)  // https://example.com/team.ics
/// ```
public struct CalendarAddress: Hashable, Sendable, CustomStringConvertible {
    /// The URL to ask, with `webcal` read as `https` and no user information.
    public var url: String
    /// The user name the address gave before `@`, if any.
    public var user: String?
    /// `https` or `http`.
    public var scheme: String
    /// The host, lowercased.
    public var host: String
    /// The port asked: the address's, else the scheme's (443 for https, 80 for http).
    public var port: Int
    /// Whether it was written `webcal://`.
    var wasWebcal: Bool

    /// Reads an address.
    ///
    /// - Throws: `CalendarReadError` when the text is not an http, https or webcal URL with a
    ///   host, or when it carries a password (which belongs in `~/.netrc` or the
    ///   `STREAKCAL_PASSWORD` environment variable, not on a command line).
    public init(_ text: String) throws(CalendarReadError) {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              ["http", "https", "webcal"].contains(scheme), let host = components.host, !host.isEmpty
        else {
            throw CalendarReadError(
                path: Self.redacted(text), code: .invalidAddress,
                reason: Self.mayHoldPassword(text) ? Self.holdsPassword : "not an http, https or webcal address")
        }
        // `alice:12/34@host/…` parses as the host `alice` at port 12 with the path `/34@host/…`: a
        // password holding '/' read as a port and a path. A port followed by an '@' in the first
        // path segment is taken for what it most likely is.
        let mayBePassword = components.port != nil && components.path.split(separator: "/").first?.contains("@") == true
        if components.password != nil || mayBePassword {
            throw CalendarReadError(path: Self.redacted(text), code: .invalidAddress, reason: Self.holdsPassword)
        }
        self.user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        components.user = nil
        components.password = nil
        self.scheme = scheme == "webcal" ? "https" : scheme
        self.wasWebcal = scheme == "webcal"
        components.scheme = self.scheme
        self.host = host.lowercased()
        self.port = components.port ?? (self.scheme == "https" ? 443 : 80)
        self.url = components.string ?? text
    }

    /// Where credentials may go: scheme, host and port (RFC 6454 §4), as `https://host:443`.
    /// Another port or scheme on the same host is another origin (another service, or another
    /// tenant of a shared host), as curl holds since CVE-2022-27776.
    public var origin: String {
        "\(scheme)://\(host):\(port)"
    }

    /// Whether the address may be a CalDAV server's (a collection, an account or the server
    /// itself): its path is empty or ends in `/`, as collections' do (RFC 4918 §5.2), it has no
    /// query, and it was not given as `webcal://`, which names a subscription.
    var mayBeCalDAV: Bool {
        guard !wasWebcal, let components = URLComponents(string: url), components.query == nil else { return false }
        return components.path.isEmpty || components.path.hasSuffix("/")
    }

    /// Whether a command-line argument names an address rather than a file: it starts with
    /// `http://`, `https://` or `webcal://` (any case).
    public static func isAddress(_ text: String) -> Bool {
        let lowered = text.prefix(9).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("webcal://")
    }

    /// The URL as printed: ``url``.
    public var description: String { url }

    private static let holdsPassword = "the address holds a password; put it in ~/.netrc or the STREAKCAL_PASSWORD environment variable"

    /// Whether `text` may hold a password: after `//`, a `:` with an `@` somewhere after it
    /// (`user:password@host`; a parser may end the user information at any later `@`).
    package static func mayHoldPassword(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard let start = afterSlashes(scalars), let colon = scalars[start...].firstIndex(of: ":") else { return false }
        return scalars[colon...].contains("@")
    }

    /// `text` without its user information, whatever that holds, for messages about an address
    /// that could not be read (or holds a password): a password may hold `#`, `?`, `/` or `@`,
    /// which end an authority for a URL parser, so text where one may stand is cut up to its last
    /// `@`. Cutting too much from a message is harmless; a password in it is not. (Text is looked
    /// at scalar by scalar: a `/` or `@` followed by a combining mark is one Character.)
    ///
    /// ```swift
    /// print(CalendarAddress.redacted("https://alice:Zq#9x!Lp@calendar.example.com/team.ics"))
    /// // Prints "https://calendar.example.com/team.ics"
    /// ```
    package static func redacted(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = afterSlashes(scalars), let firstAt = scalars[start...].firstIndex(of: "@") else { return text }
        let mayHoldPassword = Self.mayHoldPassword(text)
        var shown = text
        if var components = URLComponents(string: text), components.host != nil, components.password != nil || !mayHoldPassword,
           let clean = { components.user = nil; components.password = nil; return components.string }() {
            shown = clean
        } else if !mayHoldPassword {
            // A user name alone ends at the first '@' when no '/', '?' or '#' comes before it.
            let isUserName = !scalars[start..<firstAt].contains { "/?#".unicodeScalars.contains($0) }
            if isUserName { shown = String(scalars[..<start]) + String(scalars[scalars.index(after: firstAt)...]) }
        } else {
            shown = cutThroughLastAt(text)
        }
        // What is left must not look like user information again (two '@'s, bytes a parser reads
        // otherwise): then all up to the last '@' goes.
        return Self.mayHoldPassword(shown) ? cutThroughLastAt(shown) : shown
    }

    /// `text` without what stands between its `//` and its last `@`.
    private static func cutThroughLastAt(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = afterSlashes(scalars), let lastAt = scalars[start...].lastIndex(of: "@") else { return text }
        return String(scalars[..<start]) + String(scalars[scalars.index(after: lastAt)...])
    }

    /// Where an address's authority starts: after its first `//`. (Foundation's `range(of:)` stops
    /// at a NUL, which such text may hold.)
    private static func afterSlashes(_ scalars: String.UnicodeScalarView) -> String.Index? {
        var previousIsSlash = false
        for index in scalars.indices {
            let isSlash = scalars[index] == "/"
            if isSlash && previousIsSlash { return scalars.index(after: index) }
            previousIsSlash = isSlash
        }
        return nil
    }
}
