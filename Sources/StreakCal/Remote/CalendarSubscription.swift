public import ICalendar
import Foundation

/// How calendars at addresses are fetched: limits, credentials and the cache.
///
/// Credentials come from ``user`` and ``password`` (the command line's `--user NAME` and the
/// `STREAKCAL_PASSWORD` environment variable), else from `~/.netrc`, as curl and git read it; they
/// are sent to the address's host only, never after a redirect to another host.
public struct DownloadOptions: Hashable, Sendable {
    /// The cache folder; `nil` for the user's (`$XDG_CACHE_HOME/streakcal/calendars`).
    public var cacheFolder: String?
    /// Reads the cached copy only, without asking the server.
    public var isOffline = false
    /// The most bytes a response may hold, counted after gzip or deflate is undone; 1 GiB by default.
    public var maximumSize: Int64 = 1 << 30
    /// Seconds to wait for a connection.
    public var connectTimeout: Double = 15
    /// Seconds a whole request may take, its body included.
    public var timeout: Double = 300
    /// A PEM file of the certificate authorities to trust instead of the system's (a private CA).
    public var certificateAuthorities: String?
    /// The user to log in as; the password is ``password``, else `~/.netrc`'s for the host and user.
    public var user: String?
    /// The password for ``user``.
    public var password: String?
    /// The netrc file to read; `nil` for `~/.netrc`.
    public var netrcFile: String?
    /// The most redirects followed, 5 by default.
    public var maximumRedirects = 5
    /// Draws a progress line on standard error while a long download runs, when it is a terminal.
    public var showsProgress = false

    public init() {}
}

/// A calendar subscription: its address, fetched into the cache and revalidated there.
///
/// ```swift
/// let subscription = try CalendarSubscription("webcal://example.com/team.ics")
/// let download = try subscription.fetch()
/// let scored = try ReportSettings().scored([download.source])
/// ```
public struct CalendarSubscription: Sendable {
    public var address: CalendarAddress
    public var options: DownloadOptions

    /// What a fetch gave.
    public struct Download: Sendable {
        /// The cached copy, named by the address (diagnostics name the address, not the cache).
        public var source: CalendarSource
        /// The cached copy's path.
        public var file: String
        /// Whether a body came (`false`: the server said the copy is current, or ``DownloadOptions/isOffline``).
        public var wasDownloaded: Bool
    }

    public init(_ address: String, options: DownloadOptions = DownloadOptions()) throws(CalendarReadError) {
        self.address = try CalendarAddress(address)
        self.options = options
    }

    /// Brings the cached copy up to date (a conditional request when there is one) and gives it.
    ///
    /// - Throws: `CalendarReadError` naming the address (without credentials) when the server
    ///   cannot be reached or answers with an error, a limit is passed, a redirect is refused (to
    ///   `http` from `https`, to another host with credentials, more than
    ///   ``DownloadOptions/maximumRedirects``), or offline with no copy. The cached copy is then as it was.
    public func fetch() throws(CalendarReadError) -> Download {
        let login = try self.login(for: address.host)
        let cache = try CalendarCache(folder: options.cacheFolder)
        let entry = cache.entry(for: address, user: login?.user)
        let validators = cache.validators(of: entry)
        if options.isOffline {
            guard validators != nil else {
                throw failure("no copy in the cache (\(cache.folder)); read it once without --offline")
            }
            return download(entry, downloaded: false)
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(options.timeout * 1000))
        var url = address.url, scheme = address.scheme, host = address.host
        for _ in 0...options.maximumRedirects {
            var file: AtomicFileStream
            do { file = try AtomicFileStream(path: entry.calendar) } catch { throw CalendarReadError(path: entry.calendar, reason: error.reason) }
            let request = self.request(url, login: login, validators: validators, deadline: deadline)
            let progress = options.showsProgress ? ProgressLine(label: address.host) : nil
            var transfer = request
            transfer.progress = progress.map { line in { line.update(received: $0, expected: $1) } }
            let response: HTTPTransfer.Response
            do throws(HTTPTransfer.Failure) {
                response = try HTTPTransfer.perform(transfer) { (bytes) throws(HTTPTransfer.Failure) in
                    do throws(AtomicFile.WriteError) { try file.write(bytes) } catch { throw HTTPTransfer.Failure(reason: "cannot write the cache: \(error.reason)") }
                }
                progress?.finish()
            } catch {
                progress?.finish()
                throw failure(error.reason, url: url)
            }
            switch response.status {
            case 200..<300:
                do { try file.commit() } catch { throw CalendarReadError(path: entry.calendar, reason: error.reason) }
                let stored = CalendarCache.Validators(entityTag: response.headers["etag"], lastModified: response.headers["last-modified"])
                try cache.store(stored, for: entry)
                return download(entry, downloaded: true)
            case 304 where validators != nil:
                return download(entry, downloaded: false)
            case 300..<400 where response.redirect != nil:
                let next = try CalendarAddress(response.redirect!)
                try checkRedirect(from: url, scheme: scheme, host: host, to: next, login: login)
                (url, scheme, host) = (next.url, next.scheme, next.host)
            default:
                throw failure("HTTP \(response.status)\(Self.phrase(response.status).map { " " + $0 } ?? "")", url: url)
            }
        }
        throw failure("more than \(options.maximumRedirects) redirects")
    }

    private func request(
        _ url: String, login: Netrc.Login?, validators: CalendarCache.Validators?, deadline: ContinuousClock.Instant
    ) -> HTTPTransfer.Request {
        var headers = ["Accept: text/calendar, */*;q=0.5"]
        if let tag = validators?.entityTag { headers.append("If-None-Match: \(tag)") }
        if let date = validators?.lastModified { headers.append("If-Modified-Since: \(date)") }
        let left = ContinuousClock.now.duration(to: deadline)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        return HTTPTransfer.Request(
            url: url, headers: headers, login: login, connectTimeout: options.connectTimeout,
            timeout: max(0.001, min(seconds, options.timeout)), timeLimit: options.timeout, maximumSize: options.maximumSize,
            certificateAuthorities: options.certificateAuthorities)
    }

    /// A redirect is followed only to http(s), never from https to http (a downgrade would show
    /// the calendar, and any password, to the network), and with credentials only to the same host.
    private func checkRedirect(
        from url: String, scheme: String, host: String, to next: CalendarAddress, login: Netrc.Login?
    ) throws(CalendarReadError) {
        if scheme == "https" && next.scheme == "http" {
            throw failure("refused a redirect from https to http (\(next))", url: url)
        }
        if login != nil && next.host != host {
            throw failure("refused a redirect to another host (\(next.host)) with the credentials for \(host)", url: url)
        }
    }

    /// The login for `host`: ``DownloadOptions/user`` and ``DownloadOptions/password``; else the
    /// netrc file's entry for the host (and the address's user, when it names one).
    private func login(for host: String) throws(CalendarReadError) -> Netrc.Login? {
        let netrc = Netrc(path: options.netrcFile)
        let user = options.user ?? address.user
        if let user, let password = options.password { return Netrc.Login(user: user, password: password) }
        if let found = netrc.login(for: host), user == nil || found.user == user { return found }
        if let user {
            throw failure("no password for \(user): set the STREAKCAL_PASSWORD environment variable, or add \(host) to ~/.netrc")
        }
        return nil
    }

    private func download(_ entry: CalendarCache.Entry, downloaded: Bool) -> Download {
        Download(source: CalendarSource(name: address.url, content: .file(path: entry.calendar)), file: entry.calendar, wasDownloaded: downloaded)
    }

    private func failure(_ reason: String, url: String? = nil) -> CalendarReadError {
        let redirected = url.map { $0 != address.url ? " (redirected to \($0))" : "" } ?? ""
        return CalendarReadError(path: address.url, reason: reason + redirected)
    }

    /// The reason phrases of the statuses a calendar server gives most (RFC 9110 §15).
    private static func phrase(_ status: Int) -> String? {
        [400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
         410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
         503: "Service Unavailable", 504: "Gateway Timeout"][status]
    }
}

extension CalendarSource {
    /// The calendar at an `https://`, `http://` or `webcal://` address, fetched now into the cache
    /// (revalidated when a copy is there) and read from there: see ``CalendarSubscription``.
    public static func url(_ address: String, options: DownloadOptions = DownloadOptions()) throws(CalendarReadError) -> CalendarSource {
        try CalendarSubscription(address, options: options).fetch().source
    }
}

/// A download's progress on standard error, when it is a terminal and the download takes more than
/// a second: `downloading example.com: 12.5 MiB of 40.0 MiB`.
final class ProgressLine {
    private let label: String
    private let start = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private let isTerminal = isatty(2) == 1

    init(label: String) {
        self.label = label
    }

    func update(received: Int64, expected: Int64) {
        let now = ContinuousClock.now
        guard isTerminal, now - start > .seconds(1), lastDrawn.map({ now - $0 > .milliseconds(200) }) ?? true else { return }
        lastDrawn = now
        let total = expected > 0 ? " of \(ByteCount(expected))" : ""
        try? StandardStream.error.write("\r\u{1B}[Kdownloading \(label): \(ByteCount(received))\(total)")
    }

    func finish() {
        if lastDrawn != nil { try? StandardStream.error.write("\r\u{1B}[K") }
    }
}

/// The calendars a command line names: a file (`-` standard input), a folder (every `*.ics` under
/// it, ``CalendarFolder``) or an `https://`, `http://` or `webcal://` address (fetched now, through
/// the cache, ``CalendarSubscription``); read as one calendar, in the order named.
public struct CalendarInputs: Sendable {
    /// The calendars, each named as diagnostics name it (a path, or an address without credentials).
    public var sources: [CalendarSource]
    /// The entries folders hold that are not regular files, passed over.
    public var skipped: [SkippedInput]

    /// Reads the names; fetches every address.
    ///
    /// - Throws: `CalendarReadError` for the first name that cannot be read (a folder that cannot be
    ///   listed or holds no calendar, an address that cannot be fetched); a file is opened only
    ///   when the import comes to it.
    public init(_ names: [String], downloads: DownloadOptions = DownloadOptions()) throws(CalendarReadError) {
        sources = []
        skipped = []
        for name in names {
            if CalendarAddress.isAddress(name) {
                sources.append(try .url(name, options: downloads))
            } else {
                let found = try CalendarFolder.sources(forPaths: [name])
                sources += found.sources
                skipped += found.skipped
            }
        }
    }
}
