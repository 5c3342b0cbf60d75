import StreakCal
import CalendarDays
import Foundation

/// A CalDAV server (RFC 4791) as StreakCal reads it: the calendar collections at an address
/// (found through WebDAV discovery), and the events of one, asked for a time range.
struct CalDAVClient {
    let requests: RemoteRequests

    /// The most bytes a discovery answer may hold: a few properties of a few resources.
    static let discoveryLimit: Int64 = 16 << 20
    /// The most bytes a calendar query's answer may hold. It is read whole, as XML (``DAVElement``:
    /// what is kept is at most about twice the answer), then written to the cache a resource a
    /// file; a longer history is asked for by window.
    static let queryLimit: Int64 = 256 << 20

    /// A calendar collection: its URL and the name the server shows for it.
    struct Collection: Equatable {
        var url: String
        var name: String?
    }

    /// One calendar object resource (RFC 4791 §4.1): its URL and its iCalendar text.
    struct Resource {
        var href: String
        var calendarData: String
    }

    // MARK: Discovery (RFC 4791 §6, RFC 5397, RFC 6764)

    /// The calendars discovery found at an address, and the links it did not follow.
    struct Discovery {
        var collections: [Collection]
        /// Whether the address is an account (its calendars found through its calendar home),
        /// not a calendar itself.
        var isAccount = false
        /// Calendars an account listed outside its origin (``follow(_:from:)``), with the reason.
        var refused: [SkippedInput] = []
    }

    /// The calendar collections at `url`: the collection itself, or those of the account (the
    /// principal's `calendar-home-set`). `nil` when the server does not answer WebDAV there
    /// (a plain web server), so that the address is read as a subscription.
    func collections(at url: String) throws(CalendarReadError) -> Discovery? {
        var found = try propertiesOfResource(at: url)
        if found == nil, isServerRoot(url) {
            // RFC 6764 §5: a server's CalDAV context path is at /.well-known/caldav.
            found = try propertiesOfResource(at: origin(of: url) + "/.well-known/caldav")
        }
        guard let (resource, location) = found else { return nil }
        if resource.isCalendar { return Discovery(collections: [Collection(url: location, name: resource.displayName)]) }
        var home = resource.href(of: "calendar-home-set", in: DAVElement.calDAV)
        var homeAnswer = location
        if home == nil, let principal = resource.href(of: "current-user-principal") {
            let found = try propertiesOfResource(at: try follow(principal, from: location))
            home = found?.properties.href(of: "calendar-home-set", in: DAVElement.calDAV)
            homeAnswer = found?.url ?? location
        }
        guard let home else {
            throw requests.failure("the server answers WebDAV there but names no calendar (no calendar-home-set): give a calendar's address", code: .notACalendar)
        }
        var discovery = try calendars(inHome: try follow(home, from: homeAnswer))
        discovery.isAccount = true
        guard !discovery.collections.isEmpty else {
            throw requests.failure(
                "the account has no calendar with events"
                    + (discovery.refused.isEmpty ? "" : " within \(try CalendarAddress(homeAnswer).origin)"),
                code: .notACalendar)
        }
        return discovery
    }

    /// A link a server's answer gives (a principal, a calendar home, a calendar), followed only
    /// within the origin of the answer it came in: a server never leads StreakCal, and the login
    /// chosen for its address, to another host, port or scheme (the same rule for `report` and
    /// for `batch`, which reads an account's calendars one by one).
    private func follow(_ href: String, from answer: String) throws(CalendarReadError) -> String {
        let url = try resolve(href, against: answer)
        let here = try CalendarAddress(answer)
        guard try CalendarAddress(url).origin == here.origin else {
            throw requests.failure("the server links to \(url), outside \(here.origin); links are followed within the origin only", code: .refused, url: answer)
        }
        return url
    }

    /// The properties discovery reads, of the resource at `url` (redirects followed); `nil` when
    /// the answer is not a WebDAV multistatus.
    private func propertiesOfResource(at url: String) throws(CalendarReadError) -> (properties: DAVProperties, url: String)? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop><D:resourcetype/><D:displayname/><D:current-user-principal/><C:calendar-home-set/></D:prop>
            </D:propfind>
            """
        let (outcome, bytes) = try requests.data(
            "PROPFIND", to: url, headers: Self.xmlHeaders(depth: 0), body: Array(body.utf8), limit: Self.discoveryLimit)
        guard outcome.response.status == 207 else {
            if outcome.response.status == 401 { throw requests.failure(status: 401, url: outcome.url) }
            return nil
        }
        let responses = try multistatus(bytes, from: outcome.url)
        guard let first = responses.first else { return nil }
        return (first.properties, outcome.url)
    }

    /// The calendar collections directly in a calendar home that can hold events, by URL; those
    /// outside the home's origin are refused (``follow(_:from:)``).
    private func calendars(inHome home: String) throws(CalendarReadError) -> Discovery {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop><D:resourcetype/><D:displayname/><C:supported-calendar-component-set/></D:prop>
            </D:propfind>
            """
        let (outcome, bytes) = try requests.data(
            "PROPFIND", to: home, headers: Self.xmlHeaders(depth: 1), body: Array(body.utf8), limit: Self.discoveryLimit)
        guard outcome.response.status == 207 else {
            throw requests.failure(status: outcome.response.status, url: home, saying: "listing the calendars at \(home) gave")
        }
        let origin = try CalendarAddress(outcome.url).origin
        var discovery = Discovery(collections: [])
        for response in try multistatus(bytes, from: outcome.url) where response.properties.isCalendar && response.properties.holdsEvents {
            if try CalendarAddress(response.url).origin == origin {
                discovery.collections.append(Collection(url: response.url, name: response.properties.displayName))
            } else {
                discovery.refused.append(SkippedInput(
                    input: response.url, reason: "the account at \(origin) lists it, outside its origin; links are followed within the origin only"))
            }
        }
        discovery.collections.sort { $0.url < $1.url }
        return discovery
    }

    // MARK: Events (RFC 4791 §7.8)

    /// The event resources of `collection` with an instance in `range` (any, when `nil`), in
    /// URL order: a `calendar-query` REPORT with a `time-range` filter (RFC 4791 §9.9), so that
    /// the server sends what a report's window needs and not the whole history.
    func events(in collection: Collection, range: CalDAVTimeRange?) throws(CalendarReadError) -> [Resource] {
        let timeRange = range.map { "<C:time-range\($0.attributes)/>" } ?? ""
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop><D:getetag/><C:calendar-data/></D:prop>
              <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">\(timeRange)</C:comp-filter></C:comp-filter></C:filter>
            </C:calendar-query>
            """
        let (outcome, bytes) = try requests.data(
            "REPORT", to: collection.url, headers: Self.xmlHeaders(depth: 1), body: Array(body.utf8), limit: Self.queryLimit)
        guard outcome.response.status == 207 else {
            throw requests.failure(status: outcome.response.status, url: outcome.url, saying: "the calendar query gave")
        }
        return try multistatus(bytes, from: outcome.url)
            .compactMap { response in response.properties.calendarData.map { Resource(href: response.url, calendarData: $0) } }
            .sorted { $0.href < $1.href }
    }

    // MARK: Changes (RFC 6578)

    /// What changed in a collection since a sync token: the resources added or changed (with their
    /// data), those removed, and the token to ask with next time.
    struct Changes {
        /// `nil` when the server's token cannot be kept (``isUsableToken(_:)``).
        var token: String?
        var changed: [Resource]
        var removed: [String]
        /// Whether the server started over (no token given, or the one given was refused): then
        /// `changed` is the whole collection and what was kept before is gone.
        var isComplete: Bool
    }

    /// The changes in `collection` since `token` (all of it without one): a `sync-collection`
    /// REPORT. A token the server no longer knows (RFC 6578 §3.2, `valid-sync-token`) starts over.
    /// `nil` when the server does not sync this collection, so that it is queried instead.
    func changes(in collection: Collection, since token: String?) throws(CalendarReadError) -> Changes? {
        let escapedToken = (token ?? "").replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:sync-collection xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:sync-token>\(escapedToken)</D:sync-token><D:sync-level>1</D:sync-level>
              <D:prop><D:getetag/><C:calendar-data/></D:prop>
            </D:sync-collection>
            """
        let (outcome, bytes) = try requests.data(
            "REPORT", to: collection.url, headers: Self.xmlHeaders(depth: 0), body: Array(body.utf8), limit: Self.queryLimit)
        if token != nil, [403, 409].contains(outcome.response.status),
           String(decoding: outcome.response.errorBody, as: UTF8.self).contains("valid-sync-token") {
            return try changes(in: collection, since: nil)
        }
        guard outcome.response.status == 207 else { return nil }
        let root = try document(bytes, from: outcome.url)
        guard let newToken = root.child("sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines), !newToken.isEmpty else {
            return nil
        }
        // A token that could not be sent back as it came (a control character, such as a NUL, or
        // an unbounded size) is not kept: the changes count, and the next run starts over.
        var changes = Changes(token: ServerText.isUsableToken(newToken) ? newToken : nil, changed: [], removed: [], isComplete: token == nil)
        for response in try responses(of: root, from: outcome.url) {
            if response.status == 404 {
                changes.removed.append(response.url)
            } else if let data = response.properties.calendarData {
                changes.changed.append(Resource(href: response.url, calendarData: data))
            }
        }
        return changes
    }

    // MARK: Reading answers

    /// One response of a `multistatus`: its URL (resolved), the properties it gave with status
    /// 200, and its own status when it has one (a removed resource's 404 in a sync).
    struct DAVResponse {
        var url: String
        var properties: DAVProperties
        var status: Int?
    }

    /// A `multistatus` answer's responses.
    private func multistatus(_ bytes: [UInt8], from url: String) throws(CalendarReadError) -> [DAVResponse] {
        try responses(of: try document(bytes, from: url), from: url)
    }

    /// The root of a `multistatus` answer.
    private func document(_ bytes: [UInt8], from url: String) throws(CalendarReadError) -> DAVElement {
        let root: DAVElement
        let deadline = requests.deadline
        do throws(DAVElement.SyntaxError) { root = try DAVElement.parse(bytes) { ContinuousClock.now > deadline } } catch {
            throw requests.failure("the server's WebDAV answer is not XML it can read: \(error.reason)", code: .server, url: url)
        }
        guard root.isNamed("multistatus") else { throw requests.failure("the server's WebDAV answer is not a multistatus", code: .server, url: url) }
        return root
    }

    private func responses(of root: DAVElement, from url: String) throws(CalendarReadError) -> [DAVResponse] {
        var responses: [DAVResponse] = []
        for response in root.children("response") {
            guard let href = response.child("href")?.text.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
            guard !href.unicodeScalars.contains(where: ServerText.isControl) else {
                throw requests.failure("the server's answer names a resource whose href holds a control character", code: .server, url: url)
            }
            let found = response.children("propstat")
                .filter { $0.child("status")?.text.contains(" 200 ") ?? false }
                .flatMap { $0.child("prop")?.children ?? [] }
            let status = response.child("status").flatMap { Self.statusCode(of: $0.text) }
            responses.append(DAVResponse(url: try resolve(href, against: url), properties: DAVProperties(elements: found), status: status))
        }
        return responses
    }

    /// `HTTP/1.1 404 Not Found` as 404.
    private static func statusCode(of line: String) -> Int? {
        line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// A `href` (an absolute path, or a whole URL) as a URL, checked as a redirect would be: a
    /// server's link never leads the credentials to another origin, nor from https to http.
    private func resolve(_ href: String, against base: String) throws(CalendarReadError) -> String {
        let resolved: String
        if CalendarAddress.isAddress(href) {
            resolved = href
        } else if href.hasPrefix("/") {
            resolved = origin(of: base) + href
        } else {
            resolved = (URL(string: href, relativeTo: URL(string: base))?.absoluteString) ?? href
        }
        let next = try CalendarAddress(resolved)
        try requests.checkRedirect(from: base, to: next)
        return next.url
    }

    /// `https://host:port` of a URL.
    private func origin(of url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        return "\(components.scheme ?? "https")://\(components.host ?? "")" + (components.port.map { ":\($0)" } ?? "")
    }

    private func isServerRoot(_ url: String) -> Bool {
        let path = URLComponents(string: url)?.path ?? ""
        return path.isEmpty || path == "/"
    }

    private static func xmlHeaders(depth: Int) -> [String] {
        ["Depth: \(depth)", "Content-Type: application/xml; charset=utf-8", "Accept: application/xml, text/xml"]
    }
}

/// The WebDAV properties of one resource that StreakCal reads.
struct DAVProperties {
    var elements: [DAVElement]

    private func property(_ name: String, in namespace: String = DAVElement.dav) -> DAVElement? {
        elements.first { $0.isNamed(name, in: namespace) }
    }

    /// `resourcetype` holds `C:calendar`.
    var isCalendar: Bool {
        property("resourcetype")?.child("calendar", in: DAVElement.calDAV) != nil
    }

    /// The collection takes VEVENTs: its `supported-calendar-component-set` names VEVENT, or it has
    /// none (RFC 4791 §5.2.3: then it takes any component).
    var holdsEvents: Bool {
        guard let set = property("supported-calendar-component-set", in: DAVElement.calDAV) else { return true }
        let components = set.children("comp", in: DAVElement.calDAV)
        return components.isEmpty || components.contains { $0.attributes["name"]?.uppercased() == "VEVENT" }
    }

    var displayName: String? {
        property("displayname").map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The `href` inside a property such as `current-user-principal`.
    func href(of name: String, in namespace: String = DAVElement.dav) -> String? {
        property(name, in: namespace)?.child("href")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var calendarData: String? {
        property("calendar-data", in: DAVElement.calDAV)?.text
    }
}

/// The time range a CalDAV server is asked for: the report's days with two days' margin on each
/// side, in UTC, so that no zone (UTC−12 to UTC+14) or day start moves an event of the window out of
/// it. Floating times are compared by the server in its own zone (RFC 4791 §9.9), within that margin too.
struct CalDAVTimeRange: Equatable {
    var start: Day?
    var end: Day?

    static let margin = 2

    /// The range for a report's window; `nil` when the window is open at both ends.
    init?(from first: Day?, to last: Day?) {
        guard first != nil || last != nil else { return nil }
        start = first?.advanced(by: -Self.margin)
        end = last?.advanced(by: Self.margin + 1)
    }

    /// ` start="20240130T000000Z" end="20240303T000000Z"`.
    var attributes: String {
        func stamp(_ day: Day) -> String {
            String(format: "%04d%02d%02dT000000Z", day.year, day.month, day.dayOfMonth)
        }
        return (start.map { " start=\"\(stamp($0))\"" } ?? "") + (end.map { " end=\"\(stamp($0))\"" } ?? "")
    }

    /// How the cache tells this range's copy from others: `20240130-20240303`, `-20240303`.
    var key: String {
        (start.map { "\($0)" } ?? "") + "/" + (end.map { "\($0)" } ?? "")
    }
}
