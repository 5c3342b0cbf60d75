import Foundation
import Testing

/// Tests/Support/scripted-http-server.py on a loopback port: answers as a script says (the routes
/// below), and keeps a log of every request it was sent.
final class ScriptedServer {
    /// One answer of a route.
    struct Response {
        var status = 200
        var headers: [String: String] = [:]
        var body = ""
        /// A file whose bytes are the body, read when the answer is given.
        var bodyFile: String?

        var json: [String: Any] {
            var object: [String: Any] = ["status": status, "headers": headers, "body": body]
            if let bodyFile { object["bodyFile"] = bodyFile }
            return object
        }
    }

    /// Requests a route answers: those with `method` (`*` for any) to `path`, whose body holds
    /// `contains`; given in turn, the last one again once used up. With `auth` (`user:password`),
    /// a request without those credentials gets 401.
    struct Route {
        var method = "*"
        var path: String
        var contains = ""
        var auth: String?
        var responses: [Response]

        var json: [String: Any] {
            var object: [String: Any] = ["method": method, "path": path, "contains": contains, "responses": responses.map(\.json)]
            if let auth { object["auth"] = auth }
            return object
        }
    }

    /// A request the server was sent.
    struct Request {
        var method: String
        var path: String
        var authorization: String?
        /// The body's bytes, each as the character of its code point (Latin-1).
        var body: String
    }

    private let server: LoopbackServer
    private let folder: URL
    var port: Int { server.port }

    init(_ routes: [Route]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("streakcal-scripted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("script.json")
        try JSONSerialization.data(withJSONObject: ["routes": routes.map(\.json)]).write(to: script)
        server = try LoopbackServer([
            "python3", repositoryRoot.appendingPathComponent("Tests/Support/scripted-http-server.py").path,
            "--script", script.path, "--log", folder.appendingPathComponent("log.jsonl").path, "--port-file", "{port-file}",
        ])
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func url(_ path: String, host: String = "127.0.0.1") -> String {
        "http://\(host):\(port)\(path)"
    }

    /// Every request so far, in the order they came.
    var requests: [Request] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("log.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Request(
                method: object["method"] as? String ?? "", path: object["path"] as? String ?? "",
                authorization: object["authorization"] as? String, body: object["body"] as? String ?? "")
        }
    }
}

/// WebDAV answers for scripted servers.
enum DAVAnswer {
    static let head = #"<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">"#

    /// A multistatus of `responses`, then `extra` (a sync token).
    static func multistatus(_ responses: [String], extra: String = "") -> ScriptedServer.Response {
        ScriptedServer.Response(status: 207, headers: ["Content-Type": "application/xml"], body: head + responses.joined() + extra + "</D:multistatus>")
    }

    /// One response: `href` with the properties `properties` (XML), status 200.
    static func response(_ href: String, _ properties: String) -> String {
        "<D:response><D:href>\(href)</D:href><D:propstat><D:prop>\(properties)</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
    }

    static let calendarCollection = "<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"

    /// `calendar-data` holding `text`, escaped for XML (a CR as `&#13;`).
    static func calendarData(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\r", with: "&#13;")
        return "<C:calendar-data>\(escaped)</C:calendar-data>"
    }

    /// A calendar of one event on `day` (YYYYMMDD) at 09:00 UTC worth `points`.
    static func event(uid: String, day: String, points: Int) -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20240101T000000Z",
         "DTSTART:\(day)T090000Z", "X-POINTS:\(points)", "END:VEVENT", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
    }

    /// The route that answers a PROPFIND of `path` as a calendar collection.
    static func collection(_ path: String, auth: String? = nil) -> ScriptedServer.Route {
        ScriptedServer.Route(method: "PROPFIND", path: path, auth: auth, responses: [multistatus([response(path, calendarCollection)])])
    }
}
