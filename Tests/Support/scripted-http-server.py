#!/usr/bin/env python3
"""An HTTP server that answers as a script says, and writes down what it was asked.

For the tests of what servers send back (Round4ReproducerTests): careless or hostile answers
(redirects to another port, links to another host, sync tokens with a NUL, expired tokens, HTML
where a calendar should be) that Radicale and http-test-server.py never give.

    python3 scripted-http-server.py --script SCRIPT.json --log LOG.jsonl --port-file FILE

SCRIPT.json:

    {"routes": [
        {"method": "REPORT", "path": "/cal/", "contains": "sync-collection",
         "auth": "alice:s3cret",
         "responses": [{"status": 207, "headers": {"ETag": "\\"v1\\""}, "body": "..."}, ...]},
        ...
    ]}

A request takes the first route whose method ("*" for any), path and "contains" (a text the
request's body must hold, optional) match. A route with "auth" answers 401 (Basic) to a request
without those credentials. Its responses are given in turn, the last one again once they are used
up; a response's "bodyFile" is read at that moment instead of "body". No route: 404.

LOG.jsonl gets a line per request: method, path, the Authorization header (or null) and the body
(each byte as the character of that code point, so that a NUL or any other byte survives JSON).

It binds 127.0.0.1 on a free port and writes the port to FILE; Python's standard library only.
"""

import argparse
import base64
import json
import os
import signal
import socketserver
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ScriptedServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, routes, log):
        self.routes = routes
        self.served = [0] * len(routes)
        self.log = log
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), Handler)

    def server_bind(self):
        # HTTPServer.server_bind looks the host's name up, which can stall in a sandbox.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 60

    def log_message(self, format, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length", 0) or 0)
        body = self.rfile.read(length) if length else b""
        authorization = self.headers.get("Authorization")
        server = self.server
        with server.lock:
            with open(server.log, "a", encoding="utf-8") as log:
                log.write(json.dumps({"method": self.command, "path": self.path, "authorization": authorization,
                                      "body": body.decode("latin-1")}) + "\n")
            index = next((i for i, route in enumerate(server.routes) if self.matches(route, body)), None)
            if index is None:
                return self.answer(404, {}, b"no such route\n")
            route = server.routes[index]
            if "auth" in route:
                expected = "Basic " + base64.b64encode(route["auth"].encode()).decode()
                if authorization != expected:
                    return self.answer(401, {"WWW-Authenticate": 'Basic realm="scripted"'}, b"")
            responses = route["responses"]
            response = responses[min(server.served[index], len(responses) - 1)]
            server.served[index] += 1
        if "bodyFile" in response:
            with open(response["bodyFile"], "rb") as file:
                payload = file.read()
        else:
            payload = response.get("body", "").encode("utf-8")
        self.answer(response.get("status", 200), response.get("headers", {}), payload)

    def matches(self, route, body):
        if route.get("method", "*") not in ("*", self.command):
            return False
        if route.get("path") not in (None, self.path):
            return False
        return route.get("contains", "").encode() in body

    def answer(self, status, headers, payload):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = handle_any


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file")
    arguments = parser.parse_args()
    with open(arguments.script, encoding="utf-8") as file:
        routes = json.load(file)["routes"]
    server = ScriptedServer(routes, arguments.log)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if arguments.port_file:
        temporary = arguments.port_file + ".tmp"
        with open(temporary, "w") as file:
            file.write(f"{server.server_port}\n")
        os.replace(temporary, arguments.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
