import StreakCal
import Foundation

/// The requests of one fetch from one address: one deadline for all of them, one login, and the
/// rules every redirect is checked against.
struct RemoteRequests {
    /// The address the user gave, which errors name.
    let address: CalendarAddress
    let options: DownloadOptions
    let login: Netrc.Login?
    let deadline: ContinuousClock.Instant

    init(address: CalendarAddress, options: DownloadOptions, login: Netrc.Login?) {
        self.address = address
        self.options = options
        self.login = login
        deadline = ContinuousClock.now + .milliseconds(HTTPTransfer.milliseconds(options.timeout))
    }

    /// What a request came to after its redirects.
    struct Outcome {
        var response: HTTPTransfer.Response
        /// The URL that gave `response`.
        var url: String
    }

    /// Sends a request to `url`, following redirects within ``DownloadOptions/maximumRedirects``
    /// (each checked by ``checkRedirect(from:to:)``); a success's body goes to `sink`. A response
    /// that is neither a success nor a redirect is given back for the caller to judge.
    func send(
        _ method: String, to url: String, headers: [String] = [], body: [UInt8]? = nil, showsProgress: Bool = false,
        sink: (UnsafeRawBufferPointer) throws(HTTPTransfer.Failure) -> Void
    ) throws(CalendarReadError) -> Outcome {
        var url = url
        for _ in 0...options.maximumRedirects {
            let progress = showsProgress ? options.progress : nil
            let host = address.host
            var request = self.request(url, method: method, headers: headers, body: body)
            request.progress = progress.map { tell in
                { tell(DownloadProgress(host: host, received: $0, expected: $1, isFinished: false)) }
            }
            let response: HTTPTransfer.Response
            do throws(HTTPTransfer.Failure) {
                response = try HTTPTransfer.perform(request, sink: sink)
                progress?(DownloadProgress(host: host, received: 0, expected: 0, isFinished: true))
            } catch {
                progress?(DownloadProgress(host: host, received: 0, expected: 0, isFinished: true))
                throw failure(error.reason, code: error.code, url: url)
            }
            guard (300..<400).contains(response.status), response.status != 304, let target = response.redirect else {
                return Outcome(response: response, url: url)
            }
            let next = try CalendarAddress(target)
            try checkRedirect(from: url, to: next)
            url = next.url
        }
        throw failure("more than \(options.maximumRedirects) redirects", code: .server)
    }

    /// Sends a request and gives a success's whole body, which may hold at most `limit` bytes
    /// (and ``DownloadOptions/maximumSize``): it is held in memory, as WebDAV's XML answers are.
    func data(
        _ method: String, to url: String, headers: [String] = [], body: [UInt8]? = nil, limit: Int64
    ) throws(CalendarReadError) -> (outcome: Outcome, body: [UInt8]) {
        var bytes: [UInt8] = []
        let cap = min(limit, options.maximumSize)
        let outcome = try send(method, to: url, headers: headers, body: body) { (piece) throws(HTTPTransfer.Failure) in
            guard Int64(bytes.count + piece.count) <= cap else {
                throw HTTPTransfer.Failure(reason: "the server's answer to \(method) is larger than \(ByteCount(cap))", code: .tooLarge)
            }
            bytes.append(contentsOf: piece)
        }
        return (outcome, bytes)
    }

    private func request(_ url: String, method: String, headers: [String], body: [UInt8]?) -> HTTPTransfer.Request {
        let left = ContinuousClock.now.duration(to: deadline)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        return HTTPTransfer.Request(
            url: url, method: method, headers: headers, body: body, login: login, connectTimeout: options.connectTimeout,
            timeout: max(0.001, min(seconds, options.timeout)), timeLimit: options.timeout,
            maximumSize: options.maximumSize, certificateAuthorities: options.certificateAuthorities)
    }

    /// A redirect (or a server's link to another resource) is followed as ``RedirectRule`` says,
    /// with this fetch's login and ``DownloadOptions/permittedHosts``.
    func checkRedirect(from url: String, to next: CalendarAddress) throws(CalendarReadError) {
        let current = try CalendarAddress(url)
        if let refusal = RedirectRule.refusal(from: current, to: next, withCredentials: login != nil, permittedHosts: options.permittedHosts) {
            throw failure(refusal, code: .refused, url: url)
        }
    }

    /// An error naming the address the user gave, and the URL that failed when a redirect led there.
    func failure(_ reason: String, code: CalendarReadError.Code, url: String? = nil) -> CalendarReadError {
        let redirected = url.map { $0 != address.url ? " (redirected to \($0))" : "" } ?? ""
        return CalendarReadError(path: address.url, code: code, reason: reason + redirected)
    }

    /// An error for a response with an error status: `HTTP 404 Not Found`, coded by the status
    /// (404 and 410 not found, 401 and 403 permission denied, any other the server's).
    func failure(status: Int, url: String, saying prefix: String? = nil) -> CalendarReadError {
        let code: CalendarReadError.Code = switch status {
        case 404, 410: .notFound
        case 401, 403: .permissionDenied
        default: .server
        }
        var error = failure(prefix.map { "\($0) \(Self.describe(status))" } ?? Self.describe(status), code: code, url: url)
        error.httpStatus = status
        return error
    }

    /// `HTTP 404 Not Found`: a status and its reason phrase (RFC 9110 §15) where it is a common one.
    static func describe(_ status: Int) -> String {
        let phrases = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return "HTTP \(status)" + (phrases[status].map { " " + $0 } ?? "")
    }
}
