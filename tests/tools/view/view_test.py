"""gem-view end to end: the server over real indexes (every modern fixture,
a synthetic Dota match, a folder gem-corpus indexed), its frames
against the index itself (gem_position and gem_value, asked independently),
its refusals (bad parameters are 400s with JSON, paths outside its own
files 404s, a damaged or foreign index a 422 and the server lives on), a
bounded load test, and the page in Debian's headless Chromium driven by
playwright-core: what it drew at several ticks equals the index, its charts
hold the timeline's values, a click on a chart seeks, play advances the
clock, and the map is not blank."""
import collections
import concurrent.futures
import json
import os
import random
import shutil
import sqlite3
import struct
import subprocess
import sys
import time
import unittest
import urllib.error
import urllib.request
import zlib

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, CHECKOUT, FIXTURES, GEM_INDEX, GEM_SYNTH, LIB, MODERN,  # noqa
                     RUNFILES, TMP, connect, f32, index_of, replay_path, synthetic_index)

CORPUS = os.path.join(RUNFILES, "tools", "corpus", "gem-corpus")

VIEW = os.path.join(CHECKOUT, "tools", "view")
GAMES = {"dota2": AUTO, "cs2": "cs2_demofilenet_14155_de_dust2",
         "deadlock": "deadlock_demofilenet_hltv_10423_dl_midtown"}
SHOTS = os.environ.get("GEM_VIEW_SHOTS")  # where to keep the screenshots, if set


class Server:
    def __init__(self, target, *options):
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        self.proc = subprocess.Popen(
            ["/usr/bin/python3", os.path.join(VIEW, "gem-view"), target, "--extension", LIB] +
            list(options),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            raise AssertionError("gem-view did not start: %r %s" % (self.url,
                                                                    self.proc.stderr.read()))

    def get(self, path, method="GET"):
        req = urllib.request.Request(self.url.rstrip("/") + path, method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read(), r.headers.get("Content-Type")
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers.get("Content-Type")

    def json(self, path):
        status, body, _ = self.get(path)
        return status, json.loads(body)

    def close(self):
        self.proc.terminate()
        self.proc.wait(10)


def frame_matches_index(test, con, frame, tick, label):
    """Every unit of a frame is alive at the tick and stands where
    gem_position says, with the team and health gem_value says."""
    alive = "SELECT 1 FROM entities WHERE entity = ? AND created_tick <= ? AND " \
            "(deleted_tick IS NULL OR deleted_tick > ?)"
    for u in frame:
        e = u["e"]
        test.assertTrue(con.execute(alive, (e, tick, tick)).fetchone(), "%s: %d alive" % (label, e))
        # gem_position prints float32s at their shortest: compare as float32.
        pos = json.loads(con.execute("SELECT gem_position(?, ?)", (e, tick)).fetchone()[0])
        test.assertEqual([u["x"], u["y"], u["z"]], [None if v is None else f32(v) for v in pos],
                         "%s tick %d entity %d" % (label, tick, e))
        for key, field in (("t", "m_iTeamNum"), ("h", "m_iHealth"), ("mh", "m_iMaxHealth")):
            want = con.execute("SELECT gem_value(?, ?, ?)", (e, field, tick)).fetchone()[0]
            test.assertEqual(u[key], want, "%s tick %d entity %d %s" % (label, tick, e, field))


def png(path, width, height):
    """A plain PNG of one grey, written by hand (zlib and the format)."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    rows = b"".join(b"\x00" + b"\x60\x60\x60" * width for _ in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                                     0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def pick_ticks(con, n, seed):
    last = con.execute("SELECT value FROM meta WHERE key = 'last_tick'").fetchone()[0]
    rng = random.Random(seed)
    return sorted({0, last} | {rng.randint(0, last) for _ in range(n)})


class View(unittest.TestCase):
    def indexes(self, every=False):
        """The three games' fixtures and a synthetic match (every=True: every
        modern fixture, by name, and the synthetic match)."""
        out = {}
        for game, stem in ({s: s for s in MODERN} if every else GAMES).items():
            path = index_of(stem)
            if path is None:
                print("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
            else:
                out[game] = path
        synthetic = synthetic_index(3, 11)
        if synthetic is not None:
            out["synthetic"] = synthetic
        if not out:
            self.skipTest("SKIPPED: no fixture found in %s" % FIXTURES)
        return out

    def test_api_frames_equal_the_index(self):
        for label, path in self.indexes(every=True).items():
            server = Server(path)
            try:
                con = connect(path)
                status, info = server.json("/api/m/0/info")
                self.assertEqual(status, 200)
                self.assertEqual(info["last_tick"], con.execute(
                    "SELECT value FROM meta WHERE key = 'last_tick'").fetchone()[0])
                heroes_seen = 0
                for tick in pick_ticks(con, 6, len(label)):
                    status, frame = server.json("/api/m/0/frame?tick=%d" % tick)
                    self.assertEqual(status, 200)
                    frame_matches_index(self, con, frame["units"], tick, label)
                    # Every player the timeline has alive at this tick is drawn.
                    drawn = {u["e"] for u in frame["units"]}
                    for (entity,) in con.execute(
                            "SELECT entity FROM timeline WHERE alive = 1 AND x IS NOT NULL AND "
                            "tick = (SELECT max(tick) FROM timeline WHERE tick <= ?) AND "
                            "entity IN (SELECT entity FROM entities WHERE created_tick <= ? AND "
                            "(deleted_tick IS NULL OR deleted_tick > ?))", (tick, tick, tick)):
                        self.assertIn(entity, drawn, "%s tick %d: player %d" % (label, tick, entity))
                        heroes_seen += 1
                if label in (AUTO, "synthetic"):
                    self.assertGreater(heroes_seen, 0, label)
            finally:
                server.close()

    def test_refusals(self):
        path = self.indexes().get("dota2") or next(iter(self.indexes().values()))
        server = Server(path)
        try:
            last = server.json("/api/m/0/info")[1]["last_tick"]
            for query, says in (("tick=abc", "whole number"), ("tick=", "whole number"),
                                ("", "tick is required"), ("tick=%d" % (last + 1), "out of range"),
                                ("tick=1e3", "whole number"), ("tick=99999999999999999999",
                                                               "whole number"),
                                ("tick=1&tick=2", "tick was given 2 times: give it once"),
                                ("tick=1&tick=1", "tick was given 2 times")):
                status, body = server.json("/api/m/0/frame?" + query)
                self.assertEqual(status, 400, query)
                self.assertIn(says, body["error"], query)
            status, body = server.json("/api/m/0/timeline?step=0")
            self.assertEqual(status, 400)
            for bad in ("/../../etc/passwd", "/static/../../gemview/server.py", "/%2e%2e/gem-view",
                        "/view.js/../../gem-view", "//etc/passwd", "/gem-view", "/gemview/cli.py",
                        "/node_modules/uplot/package.json", "/api/m/7/info", "/api/m/0/nope"):
                status, body, mime = server.get(bad)
                self.assertEqual(status, 404, bad)
                self.assertEqual(mime, "application/json", bad)
            self.assertEqual(server.get("/api/m/0/info", method="POST")[0], 405)
            status, _, mime = server.get("/")
            self.assertEqual((status, mime), (200, "text/html; charset=utf-8"))
        finally:
            server.close()

    def test_a_damaged_or_foreign_index_is_shown_and_the_server_lives(self):
        good = self.indexes().get("dota2") or next(iter(self.indexes().values()))
        folder = os.path.join(TMP, "view-corpus")
        os.makedirs(folder, exist_ok=True)
        damaged = os.path.join(folder, "damaged.db")
        shutil.copy(good, damaged)
        con = sqlite3.connect(damaged)
        # The keyframe blocks: a frame asks for gem-view's 12 fields, which
        # gem_state reads from the keyframe rows of the units that have
        # eight of them or more.
        con.execute("UPDATE keyframes SET data = x'ff'")
        con.commit()
        con.close()
        foreign = os.path.join(folder, "foreign.db")
        sqlite3.connect(foreign).execute("CREATE TABLE t(x)").connection.commit()
        catalog = sqlite3.connect(os.path.join(folder, "catalog.db"))
        catalog.execute("CREATE TABLE replays(id INTEGER PRIMARY KEY, path, index_path, game, map, "
                        "duration_s, status)")
        for rid, p in ((1, good), (2, damaged), (3, foreign)):
            catalog.execute("INSERT INTO replays VALUES(?, ?, ?, 'dota2', 'x', 1, 'indexed')",
                            (rid, "r%d.dem" % rid, p))
        catalog.commit()
        catalog.close()
        server = Server(folder)
        try:
            status, body = server.json("/api/matches")
            self.assertEqual([m["id"] for m in body["matches"]], [1, 2, 3])
            self.assertIsNone(body["matches"][0]["error"])
            self.assertIn("not a gem index", body["matches"][2]["error"])
            status, body = server.json("/api/m/3/frame?tick=1")
            self.assertEqual(status, 422)
            mid = server.json("/api/m/1/info")[1]["last_tick"] // 2
            status, body = server.json("/api/m/2/frame?tick=%d" % mid)
            self.assertEqual(status, 422, body)
            self.assertIn("is damaged: table ", body["error"])
            self.assertIn("is damaged: table keyframes, key ", body["error"])
            self.assertIn(": data does not decode", body["error"])
            status, body = server.json("/api/m/1/frame?tick=%d" % mid)
            self.assertEqual(status, 200, "the server lives on")
        finally:
            server.close()

    def test_a_gem_corpus_folder(self):
        stems = [AUTO, GAMES["cs2"]]
        if not all(os.path.exists(replay_path(s)) for s in stems):
            self.skipTest("SKIPPED: fixtures %s not found in %s" % (stems, FIXTURES))
        replays = os.path.join(TMP, "corpus-replays")
        os.makedirs(replays, exist_ok=True)
        for stem in stems:
            link = os.path.join(replays, stem + ".dem")
            if not os.path.exists(link):
                os.symlink(replay_path(stem), link)
        out = os.path.join(TMP, "corpus")
        run = subprocess.run([CORPUS, "--gem-index", GEM_INDEX, "--extension", LIB, "index",
                              "--out", out, "--workers", "1", replays], capture_output=True,
                             text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr[-2000:])
        catalog = sqlite3.connect(os.path.join(out, "catalog.db"))
        rows = catalog.execute("SELECT id, index_path, game FROM replays WHERE status = "
                               "'indexed' ORDER BY id").fetchall()
        catalog.close()
        self.assertEqual(len(rows), 2)
        server = Server(out)
        try:
            status, body = server.json("/api/matches")
            self.assertEqual(status, 200)
            self.assertEqual([(m["id"], m["game"], m["error"]) for m in body["matches"]],
                             [(rid, game, None) for rid, _, game in rows])
            for rid, index_path, game in rows:
                path = index_path if os.path.isabs(index_path) else os.path.join(out, index_path)
                con = connect(path)
                last = con.execute("SELECT value FROM meta WHERE key = 'last_tick'").fetchone()[0]
                for tick in (last // 2, last):
                    status, frame = server.json("/api/m/%d/frame?tick=%d" % (rid, tick))
                    self.assertEqual(status, 200)
                    self.assertTrue(frame["units"], "%s tick %d: units" % (game, tick))
                    frame_matches_index(self, con, frame["units"], tick, "corpus %d" % rid)
        finally:
            server.close()

    def test_map_images_of_ones_own(self):
        path = self.indexes().get("cs2")
        if path is None:
            self.skipTest("SKIPPED: the de_dust2 fixture is not in %s" % FIXTURES)
        images = os.path.join(TMP, "map-images")
        os.makedirs(images, exist_ok=True)
        png(os.path.join(images, "de_dust2.png"), 64, 64)
        server = Server(path, "--map-images", images)
        try:
            status, body = server.json("/api/m/0/background")
            self.assertEqual(status, 200)
            # The table's calibration for de_dust2 (tools/view/gemview/maps.json).
            self.assertEqual(body, {"image": "/map-image/0", "calibration": {
                "pos_x": -2476.0, "pos_y": 3239.0, "scale": 4.4}})
            status, data, mime = server.get("/map-image/0")
            self.assertEqual((status, mime), (200, "image/png"))
            with open(os.path.join(images, "de_dust2.png"), "rb") as f:
                self.assertEqual(data, f.read())
            self.assertEqual(server.get("/map-image/9")[0], 404)
        finally:
            server.close()
        # A sidecar's bounds win over the table.
        with open(os.path.join(images, "de_dust2.json"), "w") as f:
            json.dump({"min_x": -3000, "min_y": -1000, "max_x": 2000, "max_y": 4000}, f)
        server = Server(path, "--map-images", images)
        try:
            self.assertEqual(server.json("/api/m/0/background")[1]["calibration"],
                             {"min_x": -3000.0, "min_y": -1000.0, "max_x": 2000.0, "max_y": 4000.0})
        finally:
            server.close()
        # Without --map-images there is none.
        server = Server(path)
        try:
            self.assertEqual(server.json("/api/m/0/background")[1]["image"], None)
        finally:
            server.close()

    def test_twenty_clients_two_hundred_frames_each(self):
        path = self.indexes().get("synthetic") or next(iter(self.indexes().values()))
        server = Server(path)
        try:
            last = server.json("/api/m/0/info")[1]["last_tick"]
            ticks = [random.Random(5).randint(0, last) for _ in range(20)]
            reference = {t: server.get("/api/m/0/frame?tick=%d" % t)[1] for t in ticks}
            times = []

            def client(k):
                wrong = 0
                for i in range(200):
                    t = ticks[(k + i) % len(ticks)]
                    t0 = time.monotonic()
                    status, body, _ = server.get("/api/m/0/frame?tick=%d" % t)
                    times.append(time.monotonic() - t0)
                    wrong += status != 200 or body != reference[t]
                return wrong

            started = time.monotonic()
            with concurrent.futures.ThreadPoolExecutor(20) as pool:
                wrong = sum(pool.map(client, range(20)))
            took = time.monotonic() - started
            self.assertEqual(len(times), 4000, "every request answered")
            self.assertEqual(wrong, 0, "none wrong")
            times.sort()
            print("load: 4000 frame requests from 20 clients in %.1f s; p50 %.1f ms, p99 %.1f ms; "
                  "payload %d bytes a frame (median)" % (
                      took, 1e3 * times[2000], 1e3 * times[3960],
                      sorted(len(b) for b in reference.values())[len(reference) // 2]))
        finally:
            server.close()

    def test_the_page_in_headless_chromium(self):
        if not os.path.exists("/usr/bin/chromium"):
            self.skipTest("SKIPPED: /usr/bin/chromium is not installed (tools/setup.sh installs it)")
        if not os.path.isdir(os.path.join(VIEW, "node_modules", "playwright-core")):
            self.skipTest("SKIPPED: tools/view/node_modules is missing (tools/setup.sh runs npm ci)")
        images = os.path.join(TMP, "page-map-images")
        os.makedirs(images, exist_ok=True)
        png(os.path.join(images, "de_dust2.png"), 256, 256)
        for label, path in self.indexes().items():
            with self.subTest(index=label):
                self.check_page(label, path, images if label == "cs2" else None)

    def check_page(self, label, path, images=None, ticks=None):
        """What the page drew and charted equals the index; (what it
        printed, the index's connection)."""
        con = connect(path)
        ticks = ticks or pick_ticks(con, 3, 7)[1:]
        server = Server(path, *(["--map-images", images] if images else []))
        shot = os.path.join(SHOTS or TMP, "%s.png" % label)
        try:
            env = dict(os.environ)
            env.pop("LD_PRELOAD", None)
            run = subprocess.run(["node", os.path.join(VIEW, "browser_check.js"), server.url,
                                  json.dumps(ticks), shot], capture_output=True, text=True,
                                 timeout=240, cwd=VIEW, env=env)
        finally:
            server.close()
        self.assertEqual(run.returncode, 0, run.stderr[-2000:])
        out = json.loads(run.stdout)
        self.assertIsNone(out.get("error"), label)
        self.assertEqual(out["errors"], [], label)
        for tick in ticks:
            drawn = out["frames"][str(tick)]["drawn"]
            self.assertEqual(out["frames"][str(tick)]["tick"], tick)
            frame_matches_index(self, con, drawn, tick, label + " (drawn)")
        # The charts hold the timeline's values, player by player.
        for column, chart in (out.get("charts") or {}).items():
            players = con.execute("SELECT slot FROM players ORDER BY slot").fetchall()
            for (slot,), series in zip(players, chart["series"]):
                want = dict(con.execute("SELECT tick, %s FROM timeline WHERE slot = ?" % column,
                                        (slot,)).fetchall())
                for t, v in zip(chart["ticks"], series["values"]):
                    self.assertEqual(v, want.get(t), "%s %s slot %d tick %d" % (label, column,
                                                                                slot, t))
        if out.get("charts"):
            self.assertNotEqual(out["click"]["before"], out["click"]["after"], "a click seeks")
        self.assertGreater(out["play"]["after"], out["play"]["before"], "play advances")
        self.assertGreater(out["slow"]["after"], out["slow"]["before"], "play at 0.25x advances")
        self.assertGreater(out["map_colours"], 3, "the map is not blank")
        self.assertEqual(out["background"]["image"], images is not None, "the map image")
        self.assertGreater(os.path.getsize(shot), 10000)
        return out, con

    def test_a_deadlock_match_in_headless_chromium(self):
        """A 20-minute gem-synth Deadlock match: at ticks around the urn's
        events (gem-synth's truth, not the index), the page names the
        carrier gem-synth wrote and rings its pawn, lists the objectives
        destroyed by then, counts the troopers it drew by their lane and
        team (gem_value), and charts the souls advantage (the timeline's
        sums)."""
        if not os.path.exists("/usr/bin/chromium"):
            self.skipTest("SKIPPED: /usr/bin/chromium is not installed (tools/setup.sh installs it)")
        if not os.path.isdir(os.path.join(VIEW, "node_modules", "playwright-core")):
            self.skipTest("SKIPPED: tools/view/node_modules is missing (tools/setup.sh runs npm ci)")
        fixture = replay_path(GAMES["deadlock"])
        if not os.path.exists(fixture):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (GAMES["deadlock"], FIXTURES))
        stem = os.path.join(TMP, "view-deadlock-20")
        subprocess.run([GEM_SYNTH, "--from", fixture, "--minutes", "20", "--seed", "5",
                        "--troopers", "2", "--match-truth", stem + ".truth", "--quiet", stem + ".dem"], check=True)
        subprocess.run([GEM_INDEX, "--quiet", "--force", stem + ".dem", stem + ".db"], check=True)
        with open(stem + ".truth") as f:
            urn = [r for r in map(json.loads, f) if r.get("kind") == "urn" and
                   r["event"] in ("picked_up", "returned", "dropped")]
        self.assertEqual([r["event"] for r in urn], ["picked_up", "returned", "picked_up",
                                                     "dropped"])
        ticks = [r["tick"] + 300 for r in urn]
        out, con = self.check_page("deadlock-synthetic", stem + ".db", ticks=ticks)
        for tick in ticks:
            frame = out["frames"][str(tick)]
            state = frame["deadlock"]
            last = [r for r in urn if r["tick"] <= tick][-1]
            carrier = last["slot"] if last["event"] == "picked_up" else None
            self.assertEqual(state["carrier"], carrier, tick)
            self.assertEqual("carried by" in frame["panel"], carrier is not None, tick)
            if carrier is not None:
                self.assertIn(carrier, [u["s"] for u in frame["drawn"]], "the carrier is drawn")
            destroyed = [e for (e,) in con.execute(
                "SELECT entity FROM objectives WHERE destroyed_tick <= ? ORDER BY entity",
                (tick,))]
            self.assertGreater(len(destroyed), 0)
            self.assertEqual(sorted(state["destroyed"]), destroyed, tick)
            lanes = collections.Counter()
            for u in frame["drawn"]:
                if u["k"] == "trooper":
                    lane = con.execute("SELECT gem_value(?, 'm_iLane', ?)",
                                       (u["e"], tick)).fetchone()[0]
                    self.assertEqual(u["l"], lane)
                    if lane is not None:
                        lanes["%d/%d" % (lane, u["t"])] += 1
            self.assertGreater(len(lanes), 1)
            self.assertEqual(state["lanes"], dict(lanes), tick)
        chart = out["charts"]["souls"]
        self.assertEqual(chart["series"][-1]["label"], "amber advantage")
        want = dict(con.execute(
            "SELECT tick, total(CASE p.team WHEN 2 THEN souls WHEN 3 THEN -souls END) "
            "FROM timeline JOIN players p USING (slot) GROUP BY tick"))
        self.assertEqual(chart["series"][-1]["values"], [want[t] for t in chart["ticks"]])


if __name__ == "__main__":
    junit.main()
