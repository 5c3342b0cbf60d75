import StreakCal
public import CalendarDays
public import ICalendar
import Foundation

/// How calendars at addresses are fetched: limits, credentials and the cache.
///
/// Credentials come from ``user`` and ``password`` (the command line's `--user NAME` and the
/// `STREAKCAL_PASSWORD` environment variable), else from ``netrcFile``, read as curl and git read
/// `~/.netrc`; they are sent to the address's origin only (scheme, host and port), never after a
/// redirect elsewhere. The library reads no file and writes no folder it is not given: without a
/// ``cacheFolder`` an address is not fetched, and without a ``netrcFile`` no netrc is read
/// (`streakcal` gives `$XDG_CACHE_HOME/streakcal/calendars` and `~/.netrc`).
public struct DownloadOptions: Sendable {
    /// The folder fetched calendars are kept in (made if missing, and made private); `nil`: none
    /// given, and a fetch is an error that says so.
    public var cacheFolder: String?
    /// Reads the cached copy only, without asking the server.
    public var isOffline = false
    /// The most bytes a response may hold, counted after gzip or deflate is undone; 1 GiB by default.
    public var maximumSize: Int64 = 1 << 30
    /// Seconds to wait for a connection; less than a millisecond is a millisecond.
    public var connectTimeout: Double = 15
    /// Seconds a whole fetch may take (every request to one address, redirects and a CalDAV
    /// server's answers included; a batch of many addresses takes up to this for each); less than
    /// a millisecond is a millisecond, more than a year a year.
    public var timeout: Double = 300
    /// A PEM file of the certificate authorities to trust instead of the system's (a private CA).
    public var certificateAuthorities: String?
    /// The user to log in as; the password is ``password``, else `~/.netrc`'s for the host and user.
    public var user: String?
    /// The password for ``user``.
    public var password: String?
    /// The netrc file to read logins from; `nil`: none.
    public var netrcFile: String?
    /// The most redirects followed, 5 by default.
    public var maximumRedirects = 5
    /// The first day a report covers, if it says: a CalDAV server is asked only for the events
    /// from two days before it (a margin for any time zone and day start).
    public var firstDay: Day?
    /// The last day a report covers, if it says: a CalDAV server is asked only for the events up
    /// to two days after it.
    public var lastDay: Day?
    /// The only hosts that may be asked, redirects and a CalDAV server's links included; `nil`
    /// for any. For addresses that come from elsewhere (`batch --jsonl`'s `url` records), so that
    /// they never reach a host the user did not name.
    public var permittedHosts: Set<String>?
    /// Told how a calendar's body comes in (bytes so far, on the thread that fetches, as often as
    /// libcurl reports), then once when the request ends; `nil`: nobody. The library draws nothing
    /// on a terminal (issue 50.8): `streakcal` draws a line from this.
    public var progress: (@Sendable (DownloadProgress) -> Void)?

    public init() {}
}

/// A calendar subscription: its address, fetched into the cache and revalidated there.
///
/// ```swift
/// let subscription = try CalendarSubscription("webcal://example.com/team.ics")
/// let download = try subscription.fetch()
/// let scored = try ReportSettings().scored(download.sources)
/// ```
public struct CalendarSubscription: Sendable {
    public var address: CalendarAddress
    public var options: DownloadOptions
    /// The login of the account this calendar was found in (``calendars()``), `.some(nil)` for none;
    /// `nil` to look it up for the address. A calendar an account lists is read with the account's
    /// login, never with one looked up for where the account's server points.
    private var accountLogin: Netrc.Login??

    /// What a fetch gave.
    public struct Download: Sendable {
        /// The cached copy as the inputs the import reads, named by the address (diagnostics name
        /// the address, not the cache): a subscription's one file; a CalDAV calendar's resources,
        /// each named by its own address, making one calendar (``/ICalendar/CalendarSource/Collection``).
        public var sources: [CalendarSource]
        /// Whether a body came (`false`: the server said the copy is current, or ``DownloadOptions/isOffline``).
        public var wasDownloaded: Bool
        /// Calendars a CalDAV account listed that were not read, with the reason (a link outside
        /// the account's origin).
        public var skipped: [SkippedInput] = []
    }

    /// The calendars at an address (``calendars()``), and those an account listed but that are not read.
    public struct Calendars: Sendable {
        public var subscriptions: [CalendarSubscription]
        /// Calendars outside the account's origin, with the reason.
        public var skipped: [SkippedInput]
    }

    public init(_ address: String, options: DownloadOptions = DownloadOptions()) throws(CalendarReadError) {
        self.address = try CalendarAddress(address)
        self.options = options
    }

    /// Brings the cached copy up to date (a conditional request when there is one) and gives it.
    ///
    /// An address whose path is empty or ends in `/` is asked as a CalDAV server first (RFC 4791):
    /// a calendar collection, or an account whose collections are found through
    /// `current-user-principal` and `calendar-home-set` (at `/.well-known/caldav` for a bare
    /// server, RFC 6764); the events of ``DownloadOptions/firstDay`` through
    /// ``DownloadOptions/lastDay`` are asked for (a `calendar-query` with a `time-range`), and an
    /// account's calendars are read as one. A server that does not answer WebDAV there is read as a
    /// subscription.
    ///
    /// - Throws: `CalendarReadError` naming the address (without credentials) when the server
    ///   cannot be reached or answers with an error, a limit is passed, a redirect is refused (to
    ///   `http` from `https`, to another origin with credentials, more than
    ///   ``DownloadOptions/maximumRedirects``), or offline with no copy. The cached copy is then as it was.
    public func fetch() throws(CalendarReadError) -> Download {
        try checkPermitted(address.host)
        let cache = try CalendarCache(folder: options.cacheFolder, for: address)
        let range = CalDAVTimeRange(from: options.firstDay, to: options.lastDay)
        if options.isOffline { return try cachedCopy(in: cache, user: try cacheUser(), range: range) }
        let login = try self.login(for: address.host)
        let requests = RemoteRequests(address: address, options: options, login: login)
        let client = CalDAVClient(requests: requests)
        if address.mayBeCalDAV, let discovery = try client.collections(at: address.url) {
            let user = login?.user
            if discovery.isAccount {
                try CalDAVAccountList(cache: cache, address: address, user: user).store(discovery.collections)
            }
            var sources: [CalendarSource] = []
            for collection in discovery.collections {
                sources += try fetchEvents(of: collection, with: client, range: range, into: cache, user: user)
            }
            return Download(sources: sources, wasDownloaded: true, skipped: discovery.refused)
        }
        return try fetchSubscription(with: requests, into: cache)
    }

    /// The calendars at the address, each its own subscription: a CalDAV account's collections
    /// (one report each in a batch), each read with the account's login; else the address itself.
    /// Offline, the calendars the account had when it was last read.
    public func calendars() throws(CalendarReadError) -> Calendars {
        guard address.mayBeCalDAV else { return Calendars(subscriptions: [self], skipped: []) }
        let collections: [CalDAVClient.Collection]
        var skipped: [SkippedInput] = []
        let login: Netrc.Login?
        if options.isOffline {
            let cache = try CalendarCache(folder: options.cacheFolder, for: address)
            let user = try cacheUser()
            collections = CalDAVAccountList(cache: cache, address: address, user: user).collections ?? []
            login = user.map { Netrc.Login(user: $0, password: "") }
        } else {
            login = try self.login(for: address.host)
            guard let discovery = try CalDAVClient(requests: RemoteRequests(address: address, options: options, login: login))
                .collections(at: address.url), discovery.isAccount else {
                return Calendars(subscriptions: [self], skipped: [])
            }
            (collections, skipped) = (discovery.collections, discovery.refused)
            let cache = try CalendarCache(folder: options.cacheFolder, for: address)
            try CalDAVAccountList(cache: cache, address: address, user: login?.user).store(collections)
        }
        // One calendar: the address is read as it is, and its fetch says what it skipped.
        guard collections.count > 1 else { return Calendars(subscriptions: [self], skipped: []) }
        let subscriptions = try collections.map { (collection) throws(CalendarReadError) in
            var subscription = try CalendarSubscription(collection.url, options: options)
            subscription.accountLogin = .some(login)
            return subscription
        }
        return Calendars(subscriptions: subscriptions, skipped: skipped)
    }

    /// The bytes of a body's start looked at to tell a calendar (white space before `BEGIN:`).
    static let sniffedBytes = 65_536

    /// A plain subscription: one GET, conditional when a copy is cached; the body streamed into the
    /// cache and put in place only when whole and a calendar.
    private func fetchSubscription(with requests: RemoteRequests, into cache: CalendarCache) throws(CalendarReadError) -> Download {
        let entry = cache.entry(for: address, user: requests.login?.user)
        let validators = cache.validators(of: entry)
        var headers = ["Accept: text/calendar, */*;q=0.5"]
        if let tag = validators?.entityTag { headers.append("If-None-Match: \(tag)") }
        if let date = validators?.lastModified { headers.append("If-Modified-Since: \(date)") }
        var file: OutputDirectory.FileStream
        do { file = try cache.files.stream(named: entry.calendar) } catch { throw CalendarReadError(path: error.path, code: .cache, reason: error.reason) }
        var head: [UInt8] = []
        let outcome = try requests.send("GET", to: address.url, headers: headers, showsProgress: true) { (bytes) throws(HTTPTransfer.Failure) in
            if head.count < Self.sniffedBytes { head += bytes.prefix(Self.sniffedBytes - head.count) }
            do throws(AtomicFile.WriteError) { try file.write(bytes) } catch { throw HTTPTransfer.Failure(reason: "cannot write the cache: \(error.reason)", code: .cache) }
        }
        switch outcome.response.status {
        case 200..<300:
            // A login page or a captive portal's answer is no calendar: the copy kept stays, as a
            // file with the same text is refused (an empty body too: a calendar has components).
            let verdict = head.isEmpty ? .empty : CalendarSniff.verdict(head)
            guard verdict == .calendar else {
                let reason = if case .notACalendar(let reason) = verdict { reason } else { "not an iCalendar file (it is empty)" }
                throw requests.failure("the server's answer is \(reason); the cached copy is left as it was", code: .notACalendar, url: outcome.url)
            }
            do { try file.commit() } catch { throw CalendarReadError(path: error.path, code: .cache, reason: error.reason) }
            let headers = outcome.response.headers
            try cache.store(CalendarCache.Validators(entityTag: headers["etag"], lastModified: headers["last-modified"]).usable, for: entry)
            return subscriptionCopy(entry, in: cache, downloaded: true)
        case 304 where validators != nil:
            return subscriptionCopy(entry, in: cache, downloaded: false)
        default:
            throw requests.failure(status: outcome.response.status, url: outcome.url)
        }
    }

    /// A CalDAV collection's events: those of `range` (a `calendar-query`), or, for every day, the
    /// whole collection kept in sync; each resource a file of the collection's copy in the cache.
    private func fetchEvents(
        of collection: CalDAVClient.Collection, with client: CalDAVClient, range: CalDAVTimeRange?, into cache: CalendarCache, user: String?
    ) throws(CalendarReadError) -> [CalendarSource] {
        if range == nil {
            var copy = try CalDAVCopy(cache: cache, collection: collection, user: user, kind: .synced)
            if let changes = try client.changes(in: collection, since: copy.token) {
                try copy.apply(changes)
                return try copy.sources()
            }
        }
        var copy = try CalDAVCopy(cache: cache, collection: collection, user: user, kind: .window(range))
        let resources = try client.events(in: collection, range: range)
        try copy.apply(CalDAVClient.Changes(token: nil, changed: resources, removed: [], isComplete: true))
        return try copy.sources()
    }

    /// `--offline`: for each calendar at the address (an account's, as its last online run listed
    /// them), the newest copy that covers the window: the copy for this window or the collection
    /// kept in sync, whichever was written last; else the subscription's copy.
    private func cachedCopy(in cache: CalendarCache, user: String?, range: CalDAVTimeRange?) throws(CalendarReadError) -> Download {
        let collections = CalDAVAccountList(cache: cache, address: address, user: user).collections
            ?? [CalDAVClient.Collection(url: address.url, name: nil)]
        var sources: [CalendarSource] = []
        var found = 0
        for collection in collections {
            let copies = [try CalDAVCopy(cache: cache, collection: collection, user: user, kind: .window(range)),
                          try CalDAVCopy(cache: cache, collection: collection, user: user, kind: .synced)]
            guard let newest = copies.filter(\.exists).max(by: { ($0.modified ?? 0) < ($1.modified ?? 0) }) else { continue }
            sources += try newest.sources()
            found += 1
        }
        if found == collections.count { return Download(sources: sources, wasDownloaded: false) }
        let entry = cache.entry(for: address, user: user)
        if found == 0, cache.hasCopy(entry) { return subscriptionCopy(entry, in: cache, downloaded: false) }
        throw CalendarReadError(path: address.url, code: .notCached, reason: "no copy in the cache (\(cache.folder)); read it once without --offline")
    }

    /// The user a copy in the cache is kept for: the one given, the address's, else the netrc
    /// file's for the host (as ``login(for:)`` finds it, without needing a password).
    private func cacheUser() throws(CalendarReadError) -> String? {
        if let accountLogin { return accountLogin?.user }
        return options.user ?? address.user ?? Netrc(path: options.netrcFile).login(for: address.host)?.user
    }

    /// The login for `host`: ``DownloadOptions/user`` and ``DownloadOptions/password``; else the
    /// netrc file's entry for the host (and the address's user, when it names one).
    private func login(for host: String) throws(CalendarReadError) -> Netrc.Login? {
        if let accountLogin { return accountLogin }
        let netrc = Netrc(path: options.netrcFile)
        let user = options.user ?? address.user
        if let user, let password = options.password { return Netrc.Login(user: user, password: password) }
        if let found = netrc.login(for: host), user == nil || found.user == user { return found }
        if let user {
            throw failure(.missingPassword, "no password for \(user): set the STREAKCAL_PASSWORD environment variable, or add \(host) to ~/.netrc")
        }
        return nil
    }

    private func subscriptionCopy(_ entry: CalendarCache.Entry, in cache: CalendarCache, downloaded: Bool) -> Download {
        Download(sources: [CalendarSource(name: address.url, content: .file(path: cache.path(of: entry.calendar)))], wasDownloaded: downloaded)
    }

    private func checkPermitted(_ host: String) throws(CalendarReadError) {
        if let permitted = options.permittedHosts, !permitted.contains(host) {
            throw failure(.refused, "the host \(host) is not one of those allowed (\(permitted.sorted().joined(separator: ", ")))")
        }
    }

    private func failure(_ code: CalendarReadError.Code, _ reason: String) -> CalendarReadError {
        CalendarReadError(path: address.url, code: code, reason: reason)
    }
}

extension CalendarSource {
    /// The calendar at an `https://`, `http://` or `webcal://` address, fetched now into the cache
    /// (revalidated when a copy is there) and read from there, as the inputs the import reads: see
    /// ``CalendarSubscription``.
    public static func url(_ address: String, options: DownloadOptions = DownloadOptions()) throws(CalendarReadError) -> [CalendarSource] {
        try CalendarSubscription(address, options: options).fetch().sources
    }
}

/// How far a calendar's download has come, as ``DownloadOptions/progress`` hears of it.
public struct DownloadProgress: Hashable, Sendable {
    /// The host it comes from.
    public var host: String
    /// Body bytes received so far.
    public var received: Int64
    /// The body's length as the server announced it; 0: not announced.
    public var expected: Int64
    /// Whether the request has ended, done or failed (the last report of a request).
    public var isFinished: Bool

    public init(host: String, received: Int64, expected: Int64, isFinished: Bool) {
        self.host = host
        self.received = received
        self.expected = expected
        self.isFinished = isFinished
    }
}

/// The calendars a command line names: a file (`-` standard input), a folder (every `*.ics` under
/// it, ``/StreakCal/CalendarFolder``) or an `https://`, `http://` or `webcal://` address (fetched now, through
/// the cache, ``CalendarSubscription``); read as one calendar, in the order named.
public struct CalendarInputs: Sendable {
    /// The calendars, each named as diagnostics name it (a path, or an address without credentials).
    public var sources: [CalendarSource]
    /// The entries folders hold that are not regular files, passed over.
    public var skipped: [SkippedInput]

    /// Reads the names; fetches every address.
    ///
    /// - Throws: `CalendarReadError` for the first name that cannot be read (a folder that cannot be
    ///   listed or holds no calendar, an address that cannot be fetched, a file named here whose
    ///   text does not start with `BEGIN:`, such as a README: it is said once rather than as a
    ///   warning per line); a file is read only when the import comes to it.
    public init(_ names: [String], downloads: DownloadOptions = DownloadOptions()) throws(CalendarReadError) {
        sources = []
        skipped = []
        for name in names {
            if CalendarAddress.isAddress(name) {
                let download = try CalendarSubscription(name, options: downloads).fetch()
                sources += download.sources
                skipped += download.skipped
            } else {
                if case .notACalendar(let reason) = CalendarSniff.regularFileVerdict(atPath: name) {
                    throw CalendarReadError(path: name, code: .notACalendar, reason: reason)
                }
                let found = try CalendarFolder.sources(forPaths: [name])
                sources += found.sources
                skipped += found.skipped
            }
        }
    }
}
