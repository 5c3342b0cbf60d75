#!/usr/bin/env python3
"""A real CalDAV server for the tests: Radicale on a free loopback port, with a temporary
storage folder and one user, and calendars uploaded before it is announced.

    PYTHON radicale-server.py --folder DIR --port-file FILE --user alice:s3cret \
        [--calendar NAME=FILE.ics ...]

PYTHON is the virtualenv's (scripts/caldav/python-env). Each --calendar is made with MKCALENDAR at
/USER/NAME/ and FILE is PUT into it whole (Radicale splits it into one resource per UID). The port
is written to FILE (atomically) once the uploads are done; the server runs until SIGTERM. Its
storage, under DIR/collections/collection-root/USER/NAME/, is itself a vdir: one .ics per event.
"""

import argparse
import base64
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(method, url, user, password, body=None, content_type=None):
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    headers = {"Authorization": "Basic " + token}
    if content_type:
        headers["Content-Type"] = content_type
    with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method, headers=headers), timeout=30) as answer:
        return answer.status


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--folder", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--calendar", action="append", default=[])
    args = parser.parse_args()
    user, password = args.user.split(":", 1)
    port = free_port()
    os.makedirs(args.folder, exist_ok=True)
    users = os.path.join(args.folder, "users")
    with open(users, "w") as handle:
        handle.write(f"{user}:{password}\n")
    config = os.path.join(args.folder, "config")
    with open(config, "w") as handle:
        handle.write(
            f"[server]\nhosts = 127.0.0.1:{port}\n"
            f"[auth]\ntype = htpasswd\nhtpasswd_filename = {users}\nhtpasswd_encryption = plain\n"
            f"[storage]\nfilesystem_folder = {os.path.join(args.folder, 'collections')}\n"
            "[logging]\nlevel = warning\n")
    server = subprocess.Popen([sys.executable, "-m", "radicale", "--config", config])
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit("radicale did not start")
            time.sleep(0.1)
    for item in args.calendar:
        name, path = item.split("=", 1)
        collection = f"{base}/{user}/{name}/"
        request("MKCALENDAR", collection, user, password)
        with open(path, "rb") as handle:
            request("PUT", collection, user, password, handle.read(), "text/calendar")
    temporary = args.port_file + ".tmp"
    with open(temporary, "w") as handle:
        handle.write(f"{port}\n")
    os.replace(temporary, args.port_file)
    sys.exit(server.wait())


if __name__ == "__main__":
    main()
