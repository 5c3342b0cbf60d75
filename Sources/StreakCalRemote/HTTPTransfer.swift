import StreakCal
import CCurl
import Foundation

/// One HTTP request through libcurl, its response body handed to a sink as it comes (decoded from
/// gzip or deflate), with the limits a download keeps: a time to connect, a time for the whole
/// request, a cap on the decoded body, TLS verified. Redirects are not followed here: the caller
/// decides each one (`CalendarSubscription`).
struct HTTPTransfer {
    struct Request {
        var url: String
        var method = "GET"
        var headers: [String] = []
        var body: [UInt8]?
        var login: Netrc.Login?
        var connectTimeout: Double
        /// Seconds this request may take: what is left of the ``DownloadOptions/timeout`` of the
        /// whole fetch, redirects included.
        var timeout: Double
        /// The ``DownloadOptions/timeout`` the user set, which an error names.
        var timeLimit: Double
        /// Bytes the decoded body may hold.
        var maximumSize: Int64
        var certificateAuthorities: String?
        /// Called with the bytes received so far and the bytes announced (0 when unknown).
        var progress: ((Int64, Int64) -> Void)?
    }

    struct Response {
        var status: Int
        /// The final response's headers, names lowercased; the last value of a repeated one.
        var headers: [String: String]
        /// Where a redirect points, resolved against the request's URL.
        var redirect: String?
        /// The start of a response's body that is not a success (at most ``HTTPTransfer/errorBodyLimit``
        /// bytes), for the caller to read a reason from (WebDAV's `valid-sync-token`, RFC 6578 §3.2).
        var errorBody: [UInt8] = []
    }

    /// `seconds` as the milliseconds libcurl takes: rounded up, so that no time under a millisecond
    /// becomes 0 (which libcurl reads as its default, 300 s), and at most a year, so that no value
    /// overflows (a library caller's `.infinity` or 1e300 included).
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return seconds > 0 ? maximumMilliseconds : 1 }
        return Int(min(max((seconds * 1000).rounded(.up), 1), Double(maximumMilliseconds)))
    }

    static let maximumMilliseconds = 365 * 86_400 * 1000

    /// The most bytes of a body that is not a success kept and read: an error page is not read to
    /// `--max-size`; the transfer ends there.
    static let errorBodyLimit = 65_536

    /// Why a request failed, as the user is told it, and its kind (``/ICalendar/CalendarReadError/Code/network``
    /// unless a limit or the cache says otherwise).
    struct Failure: Error {
        var reason: String
        var code: CalendarReadError.Code = .network
    }

    /// Performs `request`, giving a successful (2xx) response's body to `sink` a piece at a time;
    /// of another response's body, the first ``errorBodyLimit`` bytes are kept in the response
    /// (``Response/errorBody``) and the rest is not read.
    static func perform(
        _ request: Request, sink: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) -> Response {
        if let problem = streakcal_curl_load() { throw Failure(reason: String(cString: problem)) }
        guard let handle = streakcal_curl_easy_init() else { throw Failure(reason: "libcurl could not start a request") }
        defer { streakcal_curl_easy_cleanup(handle) }
        return try withoutActuallyEscaping(sink) { (sink) throws(Failure) -> Response in
            let state = TransferState(maximumSize: request.maximumSize, sink: sink, progress: request.progress)
            return try state.run(request, on: handle)
        }
    }
}

/// What libcurl's callbacks reach while a transfer runs.
private final class TransferState {
    let maximumSize: Int64
    let sink: (UnsafeRawBufferPointer) throws(HTTPTransfer.Failure) -> Void
    let progress: ((Int64, Int64) -> Void)?
    var head = ResponseHead()
    var status: Int { head.status }
    var received: Int64 = 0
    /// The start of a body that is not a success.
    var errorBody: [UInt8] = []
    /// Whether the transfer was stopped at ``HTTPTransfer/errorBodyLimit`` of such a body (its
    /// "write error" is then the end, not a failure).
    var errorBodyCut = false
    /// Why a callback stopped the transfer; it outranks libcurl's own "write error".
    var failure: HTTPTransfer.Failure?
    /// libcurl's detail on a failure (`CURLOPT_ERRORBUFFER`).
    let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(STREAKCAL_CURL_ERROR_SIZE) + 1)

    init(maximumSize: Int64, sink: @escaping (UnsafeRawBufferPointer) throws(HTTPTransfer.Failure) -> Void, progress: ((Int64, Int64) -> Void)?) {
        self.maximumSize = maximumSize
        self.sink = sink
        self.progress = progress
        errorText.initialize(repeating: 0, count: Int(STREAKCAL_CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorText.deallocate()
    }

    func run(_ request: HTTPTransfer.Request, on handle: UnsafeMutableRawPointer) throws(HTTPTransfer.Failure) -> HTTPTransfer.Response {
        var strings: [UnsafeMutablePointer<CChar>] = []
        var headerList: UnsafeMutablePointer<streakcal_curl_slist>?
        var body: UnsafeMutableRawBufferPointer?
        defer {
            streakcal_curl_slist_free_all(headerList)
            strings.forEach { free($0) }
            body?.deallocate()
        }
        /// A C copy of `text` that lives until the transfer ends (libcurl copies most strings, not
        /// all); text holding a NUL is refused, as a C string would end there.
        func kept(_ text: String, _ what: String) throws(HTTPTransfer.Failure) -> UnsafeMutablePointer<CChar> {
            guard !text.utf8.contains(0) else { throw HTTPTransfer.Failure(reason: "the request's \(what) holds a NUL character") }
            let copy = strdup(text)!
            strings.append(copy)
            return copy
        }
        // Header lines go to libcurl as C strings and on the wire as lines: no NUL, CR or LF, so
        // that no value (an ETag a server gave) ends a line early or adds one.
        for header in request.headers {
            guard !header.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) else {
                throw HTTPTransfer.Failure(reason: "the request's header \(header.prefix { $0 != ":" }) holds a line end or a NUL character")
            }
        }
        // The body goes as bytes with their length, never through a C string: a NUL in it (a sync
        // token a server sent) is sent as a byte, and libcurl reads nothing beyond the copy.
        if let bytes = request.body {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            copy.copyBytes(from: bytes)
            body = copy
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var result = streakcal_curl_setopt_pointer(handle, STREAKCAL_CURLOPT_ERRORBUFFER, errorText)
        func set(_ option: streakcal_curl_option, _ value: Int) { if result == STREAKCAL_CURLE_OK { result = streakcal_curl_setopt_long(handle, option, value) } }
        func set(_ option: streakcal_curl_option, _ value: UnsafeRawPointer?) { if result == STREAKCAL_CURLE_OK { result = streakcal_curl_setopt_pointer(handle, option, value) } }
        func set(_ option: streakcal_curl_option, offset value: Int64) { if result == STREAKCAL_CURLE_OK { result = streakcal_curl_setopt_offset(handle, option, value) } }
        set(STREAKCAL_CURLOPT_URL, try kept(request.url, "address"))
        set(STREAKCAL_CURLOPT_PROTOCOLS_STR, try kept("http,https", "protocols"))
        set(STREAKCAL_CURLOPT_FOLLOWLOCATION, 0)
        set(STREAKCAL_CURLOPT_NOSIGNAL, 1)
        set(STREAKCAL_CURLOPT_CONNECTTIMEOUT_MS, HTTPTransfer.milliseconds(request.connectTimeout))
        set(STREAKCAL_CURLOPT_TIMEOUT_MS, HTTPTransfer.milliseconds(request.timeout))
        set(STREAKCAL_CURLOPT_SSL_VERIFYPEER, 1)
        set(STREAKCAL_CURLOPT_SSL_VERIFYHOST, 2)
        if let authorities = request.certificateAuthorities { set(STREAKCAL_CURLOPT_CAINFO, try kept(authorities, "certificate file")) }
        // Every encoding this libcurl decodes (gzip, deflate, and br or zstd where built in); the
        // cap counts the decoded bytes, so a compression bomb ends at the cap.
        set(STREAKCAL_CURLOPT_ACCEPT_ENCODING, try kept("", "encodings"))
        set(STREAKCAL_CURLOPT_USERAGENT, try kept("streakcal", "user agent"))
        // A response that announces more than the cap ends before its body.
        set(STREAKCAL_CURLOPT_MAXFILESIZE_LARGE, offset: request.maximumSize)
        if let login = request.login {
            set(STREAKCAL_CURLOPT_USERNAME, try kept(login.user, "user name"))
            set(STREAKCAL_CURLOPT_PASSWORD, try kept(login.password, "password"))
            set(STREAKCAL_CURLOPT_HTTPAUTH, streakcal_curl_basic_or_digest)
        }
        set(STREAKCAL_CURLOPT_CUSTOMREQUEST, try kept(request.method, "method"))
        if let body {
            // The size first: POSTFIELDS without it would be read as a C string.
            set(STREAKCAL_CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(request.body?.count ?? 0))
            set(STREAKCAL_CURLOPT_POSTFIELDS, UnsafeRawPointer(body.baseAddress))
        }
        for header in request.headers { headerList = streakcal_curl_slist_append(headerList, header) }
        if let headerList { set(STREAKCAL_CURLOPT_HTTPHEADER, headerList) }
        if result == STREAKCAL_CURLE_OK { result = streakcal_curl_setopt_write(handle, STREAKCAL_CURLOPT_HEADERFUNCTION, onHeader) }
        set(STREAKCAL_CURLOPT_HEADERDATA, context)
        if result == STREAKCAL_CURLE_OK { result = streakcal_curl_setopt_write(handle, STREAKCAL_CURLOPT_WRITEFUNCTION, onBody) }
        set(STREAKCAL_CURLOPT_WRITEDATA, context)
        if progress != nil {
            set(STREAKCAL_CURLOPT_NOPROGRESS, 0)
            if result == STREAKCAL_CURLE_OK { result = streakcal_curl_setopt_progress(handle, onProgress) }
            set(STREAKCAL_CURLOPT_XFERINFODATA, context)
        }
        let code = result == STREAKCAL_CURLE_OK ? streakcal_curl_easy_perform(handle) : result
        if let failure { throw failure }
        guard code == STREAKCAL_CURLE_OK || (code == STREAKCAL_CURLE_WRITE_ERROR && errorBodyCut) else {
            throw HTTPTransfer.Failure(reason: reason(for: code, request), code: code == STREAKCAL_CURLE_FILESIZE_EXCEEDED ? .tooLarge : .network)
        }
        return HTTPTransfer.Response(status: head.status, headers: head.headers, redirect: head.redirect(from: request.url), errorBody: errorBody)
    }

    /// libcurl's failure in the user's words, with libcurl's detail where it gave one.
    private func reason(for code: streakcal_curl_code, _ request: HTTPTransfer.Request) -> String {
        let detail = String(cString: errorText)
        let said = detail.isEmpty ? String(cString: streakcal_curl_easy_strerror(code)) : detail
        switch code {
        case STREAKCAL_CURLE_OPERATION_TIMEDOUT:
            return status == 0 && received == 0 && said.contains("onnect")
                ? "no connection within \(Self.seconds(request.connectTimeout)) (\(said))"
                : "the request took longer than \(Self.seconds(request.timeLimit)), the limit --timeout sets"
        case STREAKCAL_CURLE_PEER_FAILED_VERIFICATION, STREAKCAL_CURLE_SSL_CACERT_BADFILE:
            return "the server's certificate is not trusted (\(said)); --cacert FILE names a private certificate authority"
        case STREAKCAL_CURLE_PARTIAL_FILE, STREAKCAL_CURLE_RECV_ERROR:
            return "the connection closed before the whole response came (\(said))"
        case STREAKCAL_CURLE_FILESIZE_EXCEEDED:
            return "the response is larger than \(ByteCount(request.maximumSize)), the limit --max-size sets"
        case STREAKCAL_CURLE_BAD_CONTENT_ENCODING:
            return "the response's compression is damaged (\(said))"
        default:
            return said
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// A header line: a status line starts a new response (a redirect's, `100 Continue`), so the
    /// headers kept are the last response's (``ResponseHead``), and so is the error body.
    fileprivate func header(_ line: Substring) {
        head.take(line)
        if line.hasPrefix("HTTP/") { errorBody = [] }
    }

    /// Body bytes: a success's go to the sink within the cap; of any other's, the first
    /// ``HTTPTransfer/errorBodyLimit`` are kept, and the transfer ends there.
    fileprivate func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        received += Int64(bytes.count)
        if received > maximumSize {
            failure = HTTPTransfer.Failure(
                reason: "the response is larger than \(ByteCount(maximumSize)), the limit --max-size sets", code: .tooLarge)
            return false
        }
        guard (200..<300).contains(status) else {
            errorBody += bytes.prefix(HTTPTransfer.errorBodyLimit - errorBody.count)
            errorBodyCut = errorBody.count >= HTTPTransfer.errorBodyLimit
            return !errorBodyCut
        }
        do throws(HTTPTransfer.Failure) {
            try sink(bytes)
            return true
        } catch {
            failure = error
            return false
        }
    }
}

private let onHeader: streakcal_curl_write_callback = { pointer, size, count, context in
    guard let pointer, let context else { return 0 }
    let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = UnsafeRawBufferPointer(start: pointer, count: length)
    state.header(Substring(String(decoding: line, as: UTF8.self)))
    return length
}

private let onBody: streakcal_curl_write_callback = { pointer, size, count, context in
    guard let context else { return 0 }
    let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return state.body(UnsafeRawBufferPointer(start: pointer, count: length)) ? length : 0
}

private let onProgress: streakcal_curl_progress_callback = { context, total, now, _, _ in
    guard let context else { return 0 }
    let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
    state.progress?(Int64(now), Int64(total))
    return 0
}

/// A size in bytes as people read it: `1 GiB`, `512 MiB`, `2,000 bytes` (`package`: the command's
/// progress line says sizes as the library's messages do).
package struct ByteCount: CustomStringConvertible {
    var bytes: Int64
    package init(_ bytes: Int64) { self.bytes = bytes }

    package var description: String {
        for (unit, size) in [("GiB", Int64(1) << 30), ("MiB", Int64(1) << 20), ("KiB", Int64(1) << 10)] where bytes >= size {
            let value = Double(bytes) / Double(size)
            return value == value.rounded() ? "\(Int64(value)) \(unit)" : "\(String(format: "%.1f", value)) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
