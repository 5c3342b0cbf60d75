#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StreakCalRemote

/// The addresses a request may come from: https and http, with and without a port, a path, a query.
private let bases = [
    "https://dav.example.com/alice/", "http://127.0.0.1:8080/cal/team.ics", "https://example.org:8443/feeds/a.ics?k=1",
    "http://example.net/",
]

/// libFuzzer's entry point for what a server's response head does (`ResponseHead`, `RedirectRule`,
/// `ServerText`, `CalendarAddress.redacted`). The first byte picks the address asked and whether
/// credentials go with it; the rest is header lines, as libcurl hands them over. Promises:
/// - a redirect resolved from a `Location` never carries a user or password;
/// - a redirect followed with credentials stays in the origin, and none goes from https to http;
/// - text shown for an address that holds a password never shows it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let choice = Int(data[0])
    let base = bases[choice % bases.count]
    let withCredentials = choice & 0x10 != 0
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    var head = ResponseHead()
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) { head.take(line) }
    checkRedirect(head, from: base, withCredentials: withCredentials)
    checkRedaction(text)
    return 0
}

/// A `Location`'s redirect: resolved without credentials, and followed only as the rule allows.
private func checkRedirect(_ head: ResponseHead, from base: String, withCredentials: Bool) {
    guard let target = head.redirect(from: base) else { return }
    if let components = URLComponents(string: target), components.user != nil || components.password != nil {
        fail("a redirect keeps credentials: \(target)")
    }
    guard let current = try? CalendarAddress(base), let next = try? CalendarAddress(target) else { return }
    guard RedirectRule.refusal(from: current, to: next, withCredentials: withCredentials, permittedHosts: nil) == nil else { return }
    if current.scheme == "https" && next.scheme == "http" { fail("followed from https to http: \(target)") }
    if withCredentials && next.origin != current.origin { fail("credentials followed \(current.origin) to \(next.origin)") }
}

/// The input's first line as an address: one a URL parser finds a password in is refused, and the
/// text shown for it has none.
private func checkRedaction(_ text: String) {
    let line = String(text.prefix { $0 != "\n" })
    // Six characters at least: a shorter one may stand by chance in a host written out (`xn--4-pwb`).
    guard let password = URLComponents(string: line)?.password, password.unicodeScalars.count >= 6 else { return }
    if (try? CalendarAddress(line)) != nil { fail("an address with a password is taken: \(line.debugDescription)") }
    let shown = CalendarAddress.redacted(line)
    if let parsed = URLComponents(string: shown), parsed.password != nil { fail("a password shows in \(shown.debugDescription)") }
    // Where the password's text stands nowhere else in the address (a path may hold the same text).
    if occurrences(of: password, in: line) == 1, occurrences(of: password, in: shown) > 0 {
        fail("the password shows in \(shown.debugDescription), from \(line.debugDescription)")
    }
}

/// How often `needle`'s scalars stand in `text`'s, overlapping or not (by scalars: Foundation's
/// searches stop at a NUL, and a combining mark joins a Character to what is before it).
private func occurrences(of needle: String, in text: String) -> Int {
    let needle = Array(needle.unicodeScalars), text = Array(text.unicodeScalars)
    guard !needle.isEmpty, needle.count <= text.count else { return 0 }
    return (0...(text.count - needle.count)).filter { text[$0..<($0 + needle.count)].elementsEqual(needle) }.count
}

private func fail(_ message: String) -> Never {
    let line = Array("streakcal-fuzz-http-head: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    abort()
}
