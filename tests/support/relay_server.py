"""A broadcast relay for tests, on 127.0.0.1 only: it serves a recorded
broadcast's directory (gem-dump broadcast) by the relay's paths (/sync,
/N/start, /N/full, /N/delta), gzipped when the client accepts it, as
Valve's relays send fragments. Its root's /sync answers only a
token_redirect to the match's base, /match.

`speed`: None serves every fragment at once; a number publishes them at
that many times real time (fragment N's full and delta after N - 1
keyframe intervals; the ones not out yet answer 404, as a relay's do).
`faults`: {path: [fault, ...]}, each used once, in order, on that path's
next requests: "notready" (404), "error" (503), "forbidden" (403),
"empty" (200 with no body), "drop" (the connection
closed with no answer), "slow" (the answer after 1.5 s), "garbage" (200
with bytes that are no fragment), "huge" (a Content-Length of 1 GiB),
"endless" (a body that never ends: it stops after 200 MiB or 20 s, so the
test stays bounded). `requests` counts the requests per path, `served`
the monotonic time each path's first fragment went out (tools/bench's
live_lag.py measures from it)."""
import gzip
import http.server
import os
import socketserver
import threading
import time

KEYFRAME_SECONDS = 3


class RelayServer:
    def __init__(self, directory, speed=None, faults=None):
        self.directory = directory
        self.speed = speed
        self.faults = {k: list(v) for k, v in (faults or {}).items()}
        self.requests = {}
        self.served = {}
        self.lock = threading.Lock()
        self.started = time.monotonic()
        relay = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                relay.answer(self)

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.root = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.url = self.root + "/match"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.started = time.monotonic()
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def published(self, number):
        if self.speed is None:
            return True
        return time.monotonic() - self.started >= (number - 1) * KEYFRAME_SECONDS / self.speed

    def answer(self, h):
        path = h.path
        with self.lock:
            self.requests[path] = self.requests.get(path, 0) + 1
            queue = self.faults.get(path)
            fault = queue.pop(0) if queue else None
        if path == "/sync":
            # The root's sync sends readers on to the match's base, as a
            # relay serving many matches does.
            return self.send(h, 200, b'{"token_redirect": "match/"}')
        if not path.startswith("/match/"):
            return self.send(h, 404, b"no such broadcast")
        rel = path[len("/match/"):]
        if fault == "notready":
            return self.send(h, 404, b"Fragment not found")
        if fault == "error":
            return self.send(h, 503, b"busy")
        if fault == "forbidden":
            return self.send(h, 403, b"no")
        if fault == "empty":
            return self.send(h, 200, b"")
        if fault == "drop":
            h.close_connection = True
            h.connection.shutdown(2)
            return
        if fault == "slow":
            time.sleep(1.5)
        if fault == "garbage":
            return self.send(h, 200, b"\xff\xff\xff\xff\xff\xff\xff\xff" * 64)
        if fault == "huge":
            h.send_response(200)
            h.send_header("Content-Length", str(1 << 30))
            h.end_headers()
            h.wfile.write(b"\0" * 4096)
            h.close_connection = True
            return
        if fault == "endless":
            h.send_response(200)
            h.send_header("Transfer-Encoding", "chunked")
            h.end_headers()
            block = b"\0" * (1 << 20)
            until = time.monotonic() + 20
            try:
                for _ in range(200):
                    if time.monotonic() > until:
                        break
                    h.wfile.write(b"%x\r\n%s\r\n" % (len(block), block))
            except OSError:
                pass
            h.close_connection = True
            return
        parts = rel.split("/")
        if len(parts) == 2 and parts[0].isdigit() and parts[1] in ("start", "full", "delta"):
            if parts[1] != "start" and not self.published(int(parts[0])):
                return self.send(h, 404, b"Fragment not found")
        elif rel != "sync":
            return self.send(h, 404, b"no such path")
        file = os.path.join(self.directory, *parts)
        if not os.path.isfile(file):
            return self.send(h, 404, b"Fragment not found")
        with open(file, "rb") as f:
            body = f.read()
        gz = "gzip" in (h.headers.get("Accept-Encoding") or "")
        self.send(h, 200, gzip.compress(body, mtime=0) if gz else body, gz)
        with self.lock:
            self.served.setdefault(path, time.monotonic())

    @staticmethod
    def send(h, status, body, gz=False):
        try:
            h.send_response(status)
            h.send_header("Content-Length", str(len(body)))
            if gz:
                h.send_header("Content-Encoding", "gzip")
            h.end_headers()
            h.wfile.write(body)
        except OSError:
            pass
