import StreakCal
import Foundation

/// What a response says before its body, as libcurl hands it over a line at a time: the status and
/// the headers of the last response (a redirect's and a `100 Continue`'s come first).
///
/// ```swift
/// var head = ResponseHead()
/// for line in ["HTTP/1.1 302 Found\r\n", "Location: /b.ics\r\n", "\r\n"] { head.take(Substring(line)) }
/// print(head.status, head.redirect(from: "https://example.com/a.ics") ?? "-")
/// // Prints "302 https://example.com/b.ics"
/// ```
package struct ResponseHead: Sendable {
    package var status = 0
    /// The headers, names lowercased; the last value of a repeated one.
    package var headers: [String: String] = [:]

    package init() {}

    /// A header line: a status line starts a new response, so the headers kept are the last response's.
    package mutating func take(_ line: Substring) {
        if line.hasPrefix("HTTP/") {
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Where a redirect points, resolved against `base`; `nil` without a `Location` one can resolve.
    package func redirect(from base: String) -> String? {
        headers["location"].flatMap { Self.resolve($0, against: base) }
    }

    /// A `Location` resolved against the request's URL, without any user or password: libcurl's
    /// own `CURLINFO_REDIRECT_URL` writes the request's credentials into it, and a server's
    /// redirect never brings credentials of its own.
    package static func resolve(_ location: String, against base: String) -> String? {
        guard let resolved = URL(string: location, relativeTo: URL(string: base))?.absoluteURL,
              var components = URLComponents(url: resolved, resolvingAgainstBaseURL: false)
        else { return nil }
        components.user = nil
        components.password = nil
        return components.string
    }
}

/// When a redirect, or a server's link to another resource, is followed (`RemoteRequests`).
package enum RedirectRule {
    /// Why a redirect from `current` to `next` is refused; `nil` when it is followed: only to http(s)
    /// (a ``CalendarAddress`` is nothing else), only to a host of `permittedHosts` when they are
    /// given, never from https to http (a downgrade would show the calendar, and any password, to
    /// the network), and with credentials only within the same origin (``CalendarAddress/origin``).
    package static func refusal(
        from current: CalendarAddress, to next: CalendarAddress, withCredentials: Bool, permittedHosts: Set<String>?
    ) -> String? {
        if let permittedHosts, !permittedHosts.contains(next.host) {
            return "refused a redirect to \(next.host), not one of the hosts allowed"
        }
        if current.scheme == "https" && next.scheme == "http" {
            return "refused a redirect from https to http (\(next))"
        }
        if withCredentials && next.origin != current.origin {
            let place = next.host != current.host ? "another host (\(next.host))" : "another origin (\(next.origin))"
            return "refused a redirect to \(place) with the credentials for \(current.origin)"
        }
        return nil
    }
}

/// Text a server sends that StreakCal keeps or sends back (sync tokens, validators, hrefs).
package enum ServerText {
    /// The most bytes of a sync token kept and sent back. RFC 6578 §6.2 makes it a URI; servers
    /// send tens of bytes (Radicale's is 70).
    package static let maximumTokenLength = 4096

    /// Whether a server's sync token is kept and sent back: at most ``maximumTokenLength`` bytes,
    /// with no control character (a URI has none; a NUL or a line end would change the request or
    /// the cache's index).
    package static func isUsableToken(_ token: String) -> Bool {
        token.utf8.count <= maximumTokenLength && !token.unicodeScalars.contains(where: isControl)
    }

    /// C0 and C1 controls and DEL.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
