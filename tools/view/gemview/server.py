"""gem-view's HTTP server: the page's own static files, named one by one
(nothing else on disk is reachable: any other path is a 404), and a JSON
API over the matches. Parameters are checked before any query: a tick that
is not a whole number, or past the match, or a step out of range, is a 400
with a JSON message; an index that cannot answer is a 422 with its error,
and the server lives on. A live index (gem-index --follow) is read at its
latest commit by every request: its last_tick is the commit's, a tick past
it a 400; before its first commit every answer but info is a 409."""
import http.server
import json
import os
import re
import socket
import socketserver
import urllib.parse

from . import backgrounds, heatmaps
from .source import IndexError_

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The page's scripts, in the order index.html loads them (one global scope).
SCRIPTS = ["core", "map", "clock", "charts", "panels", "deadlock", "cs2_map", "heatmap",
           "page", "page_dota_builds", "page_dota",
           "page_cs2", "page_deadlock", "main"]
STATIC = {
    "/": ("static/index.html", "text/html; charset=utf-8"),
    **{"/%s.js" % name: ("static/%s.js" % name, "text/javascript; charset=utf-8")
       for name in SCRIPTS},
    "/view.css": ("static/view.css", "text/css; charset=utf-8"),
    "/uPlot.js": ("node_modules/uplot/dist/uPlot.iife.min.js", "text/javascript; charset=utf-8"),
    "/uPlot.css": ("node_modules/uplot/dist/uPlot.min.css", "text/css; charset=utf-8"),
}
API = re.compile(r"^/api/m/(\d{1,9})/(info|frame|timeline|events|background|page|heatmap)$")
IMAGE = re.compile(r"^/map-image/(\d{1,9})$")
WHOLE = re.compile(r"^-?\d{1,15}$")


class BadRequest(Exception):
    pass


def whole_number(params, name, low, high, default=None):
    values = params.get(name)
    if not values:
        if default is not None:
            return default
        raise BadRequest("%s is required" % name)
    if len(values) > 1:
        raise BadRequest("%s was given %d times: give it once" % (name, len(values)))
    text = values[0]
    if not WHOLE.match(text):
        raise BadRequest("%s must be a whole number (got %r)" % (name, text[:40]))
    n = int(text)
    if n < low or n > high:
        raise BadRequest("%s %d is out of range: %d to %d" % (name, n, low, high))
    return n


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "gem-view"
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # Headers and body go out in two writes: with Nagle's algorithm the
        # second waits for the client's delayed ACK of the first (40 ms on
        # Linux), on every request of a kept-alive connection.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *args):  # quiet unless asked
        if self.server.verbose:
            super().log_message(fmt, *args)

    def send_json(self, status, body):
        data = json.dumps(body, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_HEAD(self):
        self.do_GET()

    def do_POST(self):
        self.send_json(405, {"error": "gem-view only reads: use GET"})

    do_PUT = do_DELETE = do_PATCH = do_POST

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        try:
            if url.path in STATIC:
                return self.send_static(*STATIC[url.path])
            params = urllib.parse.parse_qs(url.query, keep_blank_values=True)
            if url.path == "/api/matches":
                return self.send_json(200, {"matches": [
                    dict(id=m.id, label=m.label, error=m.error, game=m.facts.get("game"),
                         map=m.facts.get("map"), last_tick=m.facts.get("last_tick"),
                         live=bool(m.facts.get("live")))
                    for m in self.server.matches.values()]})
            image = IMAGE.match(url.path)
            if image:
                return self.send_image(int(image.group(1)))
            m = API.match(url.path)
            if not m:
                return self.send_json(404, {"error": "no such page: %s" % url.path[:200]})
            match = self.server.matches.get(int(m.group(1)))
            if match is None:
                return self.send_json(404, {"error": "no match %s" % m.group(1)})
            if match.error:
                return self.send_json(422, {"error": match.error})
            match.refresh()  # a live index: its latest commit
            if match.facts.get("waiting") and m.group(2) != "info":
                return self.send_json(409, {"error": "%s is live and has no tick committed "
                                            "yet: ask again" % match.label})
            return self.send_json(200, self.answer(match, m.group(2), params))
        except BadRequest as e:
            return self.send_json(400, {"error": str(e)})
        except IndexError_ as e:
            return self.send_json(422, {"error": "%s: %s" % (match.label, e)})

    def answer(self, match, what, params):
        facts = match.facts
        if what == "info":
            return facts
        if what == "frame":
            tick = whole_number(params, "tick", min(facts["first_tick"], -1), facts["last_tick"])
            return match.frame(tick)
        if what == "timeline":
            return match.timeline(whole_number(params, "step", 1, 100000, default=1))
        if what == "page":
            return match.page()
        if what == "heatmap":
            kinds = heatmaps.available(match)
            kind = (params.get("kind") or [""])[0]
            if kind not in kinds:
                raise BadRequest("kind must be one of %s (got %r)" % (", ".join(kinds) or
                                                                    "none here", kind[:40]))
            low, high = min(facts["first_tick"], -1), facts["last_tick"]
            first = whole_number(params, "from", low, high, default=low)
            last = whole_number(params, "to", low, high, default=high)
            slot = whole_number(params, "slot", 0, 63) if params.get("slot") else None
            team = whole_number(params, "team", 2, 3) if params.get("team") else None
            return heatmaps.heatmap(match, kind, first, last, slot, team)
        if what == "background":
            found = self.background_of(match)
            return dict(image=("/map-image/%d" % match.id) if found else None,
                        calibration=found[2] if found else None)
        return match.events()

    def background_of(self, match):
        return backgrounds.find(self.server.map_images, match.facts.get("game"),
                                match.facts.get("map"))

    def send_image(self, match_id):
        match = self.server.matches.get(match_id)
        found = self.background_of(match) if match is not None and not match.error else None
        if found is None:
            return self.send_json(404, {"error": "no map image for match %d" % match_id})
        return self.send_static(found[0], found[1])

    def send_static(self, relative, mime):
        path = os.path.join(HERE, relative)  # an absolute path stays itself
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return self.send_json(404, {"error": "%s is not installed (tools/setup.sh runs npm ci "
                                        "in tools/view)" % relative})
        self.send_response(200)
        self.send_header("Content-Type", mime)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; style-src 'self' "
                         "'unsafe-inline'")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    # Bound: a flood of connections waits in the kernel's queue.
    request_queue_size = 64

    def __init__(self, address, matches, verbose=False, map_images=None):
        self.matches = matches
        self.verbose = verbose
        self.map_images = map_images
        super().__init__(address, Handler)
