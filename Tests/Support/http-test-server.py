#!/usr/bin/env python3
"""HTTP fixture server for the calendar subscription client tests.

Serves FIXTURES_DIR/tutorial-sample.ics in the ways a subscription client has
to cope with: plain and gzip bodies with validators (ETag, Last-Modified),
redirect chains and loops, a redirect to another host name, Basic auth,
arbitrary error statuses, bodies that stall, never end, end early, claim to
be huge, or decompress to 10 GiB.  It also keeps per-path counters so tests
can check what the client actually asked for.

Run it:

    python3 http-test-server.py --root FIXTURES_DIR [--port-file FILE] [--tls CERT KEY]

It binds 127.0.0.1 on an ephemeral port, prints that port (and a newline) on
stdout, writes it to FILE atomically if --port-file is given, and serves
until it receives SIGTERM or SIGINT.  Python 3 standard library only.

Routes (GET unless noted; anything else is a 404 with a short text body):

    /tutorial.ics        the calendar, ETag "v1", Last-Modified; 304 on match
    /gzip.ics            the calendar gzip-encoded, ETag "g1"; 304 on match
    /redirect/N          302 to /redirect/N-1; /redirect/0 goes to /tutorial.ics
    /loop                302 to itself
    /other-host          302 to /auth/tutorial.ics under the other host name
                         (127.0.0.1 <-> localhost)
    /downgrade           302 to http://127.0.0.1:PORT/tutorial.ics (from https, with --tls)
    /auth/tutorial.ics   the calendar, Basic auth alice:s3cret, else 401
    /status/CODE         that status with a short text body
    /fixtures/NAME.ics   FIXTURES_DIR/NAME.ics as it is (a file name only), for comparing ways in
    /slow                "BEGIN:VCALENDAR" then one byte a second, forever
    /endless             valid VEVENTs as fast as possible, forever
    /truncated           Content-Length 100000 but only 200 bytes, then close
    /oversize            Content-Length 2 GiB of filler lines
    /bomb                gzip stream of 10 GiB of zero bytes, made on the fly
    /_stats              JSON counters (requests, bodies, notModified,
                         authorization, hosts); not itself counted
    /_reset              (GET or POST) zero the counters, 204
"""

import argparse
import base64
import gzip
import json
import os
import signal
import socketserver
import ssl
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ETAG_PLAIN = '"v1"'
ETAG_GZIP = '"g1"'
LAST_MODIFIED = "Mon, 01 Jan 2024 00:00:00 GMT"
AUTH_USER = "alice"
AUTH_PASSWORD = "s3cret"
CALENDAR_TYPE = "text/calendar"

CHUNK = 64 * 1024
MIB = 1024 * 1024
BOMB_SIZE = 10 * 1024 * MIB
OVERSIZE_LENGTH = 2 * 1024 * MIB
TRUNCATED_LENGTH = 100000
TRUNCATED_SENT = 200

# A client going away shows up as one of these while we write; for the
# streaming routes that is the normal way for a response to end.
CLIENT_GONE = (ConnectionError, TimeoutError)


class Stats:
    """Per-path counters shared by all handler threads."""

    def __init__(self):
        self._lock = threading.Lock()
        self.reset()

    def reset(self):
        with self._lock:
            self._requests = {}
            self._bodies = {}
            self._not_modified = {}
            self._authorization = {}
            self._hosts = {}

    def request(self, path, host, has_authorization):
        with self._lock:
            self._requests[path] = self._requests.get(path, 0) + 1
            self._hosts.setdefault(path, []).append(host)
            if has_authorization:
                self._authorization.setdefault(path, []).append(host)

    def body(self, path):
        with self._lock:
            self._bodies[path] = self._bodies.get(path, 0) + 1

    def not_modified(self, path):
        with self._lock:
            self._not_modified[path] = self._not_modified.get(path, 0) + 1

    def snapshot(self):
        # Copy under the lock so the JSON never sees a half-updated state.
        with self._lock:
            return {
                "requests": dict(self._requests),
                "bodies": dict(self._bodies),
                "notModified": dict(self._not_modified),
                "authorization": {k: list(v) for k, v in self._authorization.items()},
                "hosts": {k: list(v) for k, v in self._hosts.items()},
            }


class FixtureServer(ThreadingHTTPServer):
    # Daemon threads so streaming responses never keep the process alive.
    daemon_threads = True

    def __init__(self, calendar):
        self.calendar = calendar
        # mtime=0 keeps the compressed bytes identical from run to run.
        self.calendar_gzip = gzip.compress(calendar, mtime=0)
        self.stats = Stats()
        super().__init__(("127.0.0.1", 0), FixtureHandler)

    def server_bind(self):
        # HTTPServer.server_bind does a reverse DNS lookup (getfqdn) that can
        # stall in sandboxes; we never need the name, so skip it.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = host
        self.server_port = port


class FixtureHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FixtureServer/1"
    # Idle keep-alive connections and stuck writers give up after a while
    # instead of pinning a thread for the rest of the test run.
    timeout = 60

    def log_message(self, format, *args):
        # Quiet: test output should not fill up with access logs.
        pass

    # Every method goes through one dispatcher; only GET (and POST /_reset)
    # match a route, everything else falls through to 404.
    def do_GET(self):
        self.dispatch()

    def __getattr__(self, name):
        # The base class answers 501 to a method without a do_X; any method
        # (POST, PROPFIND, ...) should reach the dispatcher and get a 404.
        if name.startswith("do_"):
            return self.dispatch
        raise AttributeError(name)

    def dispatch(self):
        self.drain_request_body()
        path = self.path.split("?", 1)[0]
        if path not in ("/_stats", "/_reset"):
            self.server.stats.request(
                path, self.host(), "Authorization" in self.headers)
        try:
            self.route(path)
        except CLIENT_GONE:
            # The client hung up mid-response; nothing left to tell it.
            self.close_connection = True

    def drain_request_body(self):
        # Unread request bytes would be parsed as the next request on a
        # keep-alive connection.
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(length)

    def route(self, path):
        method = self.command
        if path == "/_reset" and method in ("GET", "POST"):
            return self.reset_stats()
        if method != "GET":
            return self.not_found()
        handler = ROUTES.get(path)
        if handler is not None:
            return handler(self)
        for prefix, handler in PREFIX_ROUTES:
            if path.startswith(prefix):
                return handler(self, path[len(prefix):])
        return self.not_found()

    # ---- helpers -------------------------------------------------------

    def host(self):
        return self.headers.get("Host", "")

    def port(self):
        return self.server.server_address[1]

    def send_text(self, status, text, extra_headers=()):
        body = (text + "\n").encode("utf-8")
        self.send_response(status)
        for name, value in extra_headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def not_found(self):
        self.send_text(404, "not found")

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        # An explicit empty body keeps the connection reusable.
        self.send_header("Content-Length", "0")
        self.end_headers()

    def is_fresh(self, etag):
        # Any listed ETag matching (or an exact date match) means the
        # client's copy is current.
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None and etag in if_none_match:
            return True
        since = self.headers.get("If-Modified-Since")
        return since is not None and since.strip() == LAST_MODIFIED

    def send_not_modified(self, etag):
        self.send_response(304)
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", LAST_MODIFIED)
        self.end_headers()
        self.server.stats.not_modified(self.path.split("?", 1)[0])

    def send_body(self, body, headers):
        self.send_response(200)
        self.send_header("Content-Type", CALENDAR_TYPE)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.count_body()
        self.wfile.write(body)

    def count_body(self):
        self.server.stats.body(self.path.split("?", 1)[0])

    def start_stream(self, extra_headers=(), content_type=CALENDAR_TYPE):
        """Send 200 headers for a body that ends when the connection closes."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        for name, value in extra_headers:
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        # Without a length the body's end is the close, so it must happen.
        self.close_connection = True
        self.count_body()

    def stream(self, data):
        self.wfile.write(data)
        self.wfile.flush()

    # ---- routes --------------------------------------------------------

    def fixture(self, name):
        # Any fixture by its file name (no folders, nothing hidden): the same bytes a test reads
        # from the file, for comparing the ways a calendar comes in.
        if "/" in name or name.startswith(".") or not name.endswith(".ics"):
            return self.not_found()
        try:
            with open(os.path.join(self.server.root, name), "rb") as handle:
                body = handle.read()
        except OSError:
            return self.not_found()
        self.send_body(body, [])

    def tutorial(self):
        if self.is_fresh(ETAG_PLAIN):
            return self.send_not_modified(ETAG_PLAIN)
        self.send_body(self.server.calendar,
                       [("ETag", ETAG_PLAIN), ("Last-Modified", LAST_MODIFIED)])

    def gzip_tutorial(self):
        if self.is_fresh(ETAG_GZIP):
            return self.send_not_modified(ETAG_GZIP)
        self.send_body(self.server.calendar_gzip,
                       [("Content-Encoding", "gzip"), ("ETag", ETAG_GZIP),
                        ("Last-Modified", LAST_MODIFIED)])

    def redirect_chain(self, rest):
        if not rest.isdigit():
            return self.not_found()
        hops = int(rest)
        self.redirect("/tutorial.ics" if hops == 0 else "/redirect/%d" % (hops - 1))

    def loop(self):
        self.redirect("/loop")

    def other_host(self):
        # Always switch the host name so the client crosses an origin.
        port = self.port()
        other = "localhost" if self.host() == "127.0.0.1:%d" % port else "127.0.0.1"
        self.redirect("http://%s:%d/auth/tutorial.ics" % (other, port))

    def downgrade(self):
        # Same host and port, but plain http: what a client reading https must refuse.
        self.redirect("http://127.0.0.1:%d/tutorial.ics" % self.port())

    def authorized(self):
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "basic":
            return False
        try:
            decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return False
        return decoded == "%s:%s" % (AUTH_USER, AUTH_PASSWORD)

    def auth_tutorial(self):
        if not self.authorized():
            return self.send_text(401, "authentication required",
                                  [("WWW-Authenticate", 'Basic realm="test"')])
        self.send_body(self.server.calendar, [])

    def status(self, rest):
        if not rest.isdigit() or not 200 <= int(rest) <= 599:
            return self.not_found()
        code = int(rest)
        if code in (204, 304):
            # These statuses may not carry a body.
            self.send_response(code)
            self.end_headers()
            return
        self.send_text(code, "status %d" % code)

    def slow(self):
        self.start_stream()
        self.stream(b"BEGIN:VCALENDAR\r\n")
        while True:
            time.sleep(1)
            self.stream(b"X")

    def endless(self):
        self.start_stream()
        self.stream(b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Tests//Endless//EN\r\n")
        uid = 0
        while True:
            events = []
            size = 0
            while size < CHUNK:
                uid += 1
                event = endless_event(uid)
                events.append(event)
                size += len(event)
            self.stream(b"".join(events))

    def truncated(self):
        self.send_response(200)
        self.send_header("Content-Type", CALENDAR_TYPE)
        self.send_header("Content-Length", str(TRUNCATED_LENGTH))
        self.end_headers()
        self.count_body()
        self.stream(self.server.calendar[:TRUNCATED_SENT])
        # Closing short of Content-Length is the whole point of this route.
        self.close_connection = True

    def oversize(self):
        self.send_response(200)
        self.send_header("Content-Type", CALENDAR_TYPE)
        self.send_header("Content-Length", str(OVERSIZE_LENGTH))
        self.end_headers()
        # Close afterwards: if the client quits early the connection is
        # mid-body and cannot be reused.
        self.close_connection = True
        self.count_body()
        line = b"X-FILLER:" + b"a" * 1013 + b"\r\n"  # 1 KiB a line
        block = line * (CHUNK // len(line))
        remaining = OVERSIZE_LENGTH
        while remaining > 0:
            piece = block[:remaining]
            self.stream(piece)
            remaining -= len(piece)

    def bomb(self):
        self.start_stream([("Content-Encoding", "gzip")])
        # wbits 31 = gzip header and trailer; one zero MiB at a time keeps
        # memory flat however big the decompressed size is.
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        zeros = bytes(MIB)
        for _ in range(BOMB_SIZE // MIB):
            piece = compressor.compress(zeros)
            if piece:
                self.stream(piece)
        self.stream(compressor.flush())

    def stats(self):
        body = json.dumps(self.server.stats.snapshot(), sort_keys=True).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def reset_stats(self):
        self.server.stats.reset()
        self.send_response(204)
        self.end_headers()


def endless_event(uid):
    return ("BEGIN:VEVENT\r\n"
            "UID:endless-%d@tests.example\r\n"
            "DTSTAMP:20240101T000000Z\r\n"
            "DTSTART:20240101T090000Z\r\n"
            "DURATION:PT1H\r\n"
            "SUMMARY:Endless %d\r\n"
            "END:VEVENT\r\n" % (uid, uid)).encode("ascii")


ROUTES = {
    "/tutorial.ics": FixtureHandler.tutorial,
    "/gzip.ics": FixtureHandler.gzip_tutorial,
    "/loop": FixtureHandler.loop,
    "/other-host": FixtureHandler.other_host,
    "/downgrade": FixtureHandler.downgrade,
    "/auth/tutorial.ics": FixtureHandler.auth_tutorial,
    "/slow": FixtureHandler.slow,
    "/endless": FixtureHandler.endless,
    "/truncated": FixtureHandler.truncated,
    "/oversize": FixtureHandler.oversize,
    "/bomb": FixtureHandler.bomb,
    "/_stats": FixtureHandler.stats,
}

PREFIX_ROUTES = [
    ("/redirect/", FixtureHandler.redirect_chain),
    ("/status/", FixtureHandler.status),
    ("/fixtures/", FixtureHandler.fixture),
]


def write_port_file(path, port):
    # Write then rename, so a reader polling for the file never sees it empty.
    tmp = path + ".tmp"
    with open(tmp, "w") as handle:
        handle.write("%d\n" % port)
    os.replace(tmp, path)


def parse_args(argv):
    parser = argparse.ArgumentParser(description="HTTP fixture server for subscription tests")
    parser.add_argument("--root", required=True, help="fixtures directory")
    parser.add_argument("--port-file", help="file to receive the port number")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve https with this certificate and key (PEM)")
    return parser.parse_args(argv)


def raise_exit(signum, frame):
    # Unwinds serve_forever in the main thread; calling shutdown() here
    # would deadlock because it waits for that same loop.
    raise SystemExit(0)


def main(argv=None):
    args = parse_args(argv)
    with open(os.path.join(args.root, "tutorial-sample.ics"), "rb") as handle:
        calendar = handle.read()
    server = FixtureServer(calendar)
    server.root = args.root
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*args.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    port = server.server_address[1]
    if args.port_file:
        write_port_file(args.port_file, port)
    sys.stdout.write("%d\n" % port)
    sys.stdout.flush()
    signal.signal(signal.SIGTERM, raise_exit)
    signal.signal(signal.SIGINT, raise_exit)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
