"""gem-view over a live index: gem-index follows a replay written at a set
pace while gem-view serves the index and Debian's headless Chromium shows
it (playwright-core). As commits land the scrubber's end moves to each
commit's tick (meta's live_tick, the server's last_tick), the charts
extend, the clock follows the live edge; a seek of the user's away from
the edge stays there as commits come, and the Live button jumps back to
the edge and follows it again. When the match ends the page opens the
finished index at its last tick. The server answers a tick past the last
commit with a 400 and, before the first commit, everything but info with
a 409."""
import json
import os
import sqlite3
import subprocess
import sys
import time
import unittest
import urllib.error
import urllib.request

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402

from gemtest import (CHECKOUT, FIXTURES, GEM_INDEX, LIB, NEKIT, TMP, Writer,  # noqa: E402
                     replay_path)

VIEW = os.path.join(CHECKOUT, "tools", "view")
LIMIT = 180


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class ViewLive(unittest.TestCase):
    def test_the_page_follows_a_live_index_to_its_end(self):
        replay = replay_path(NEKIT)
        if not os.path.exists(replay):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (NEKIT, FIXTURES))
        data = open(replay, "rb").read()
        growing = os.path.join(TMP, "view-live.dem")
        out = os.path.join(TMP, "view-live.db")
        for f in (out, out + "-wal", out + "-shm"):
            if os.path.exists(f):
                os.remove(f)
        # The signon is most of the file: its first 40% arrive at once, the
        # rest over 12 s (64 s of game: a commit every 2 s of it).
        head = len(data) * 2 // 5
        with open(growing, "wb") as f:
            f.write(data[:head])
        writer = Writer.over(growing, data[head:], seconds=12, pieces=150, append=True)
        index = subprocess.Popen([GEM_INDEX, "--quiet", "--follow", "--idle-seconds", "3600",
                                  "--commit-seconds", "2", growing, out],
                                 stderr=subprocess.PIPE, text=True)
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        server = None
        try:
            deadline = time.time() + 30
            while time.time() < deadline and not os.path.exists(out):
                time.sleep(0.01)
            server = subprocess.Popen(["/usr/bin/python3", os.path.join(VIEW, "gem-view"), out,
                                       "--extension", LIB], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env)
            url = server.stdout.readline().strip()
            if not url.startswith("http://127.0.0.1:"):
                self.fail("gem-view did not start: %r %s" % (url, server.stderr.read()))
            # Before the first commit (the rest of the replay not yet
            # written, its signon still being read): info says so, a frame
            # is a 409 or, once a tick is in, an answer.
            status, body = get(url + "api/m/0/info")
            self.assertEqual(status, 200)
            self.assertTrue(body["live"])
            status, err = get(url + "api/m/0/frame?tick=0")
            if body.get("waiting"):
                # (A commit may land between the two asks: then the frame
                # is answered.)
                self.assertIn(status, (409, 200), err)
                if status == 409:
                    self.assertIn("no tick committed yet", err["error"])
            else:
                self.assertEqual(status, 200, err)
            # The rest of the replay arrives as the page watches.
            writer.start()
            check = subprocess.Popen(["node", os.path.join(VIEW, "live_check.js"), url,
                                      str(LIMIT - 30)], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, cwd=VIEW, env=env)
            # Past the last commit: a 400 that says how far the index is.
            past = None
            while index.poll() is None and past is None:
                status, body = get(url + "api/m/0/info")
                if status == 200 and body.get("live") and not body.get("waiting"):
                    status, err = get(url + "api/m/0/frame?tick=%d" % (body["last_tick"] + 5))
                    if status != 409:
                        past = (status, err, body["last_tick"])
                time.sleep(0.1)
            stdout, stderr = check.communicate(timeout=LIMIT)
            index.communicate(timeout=LIMIT)
            writer.join()
        finally:
            if server is not None:
                server.terminate()
                server.wait(10)
            if index.poll() is None:
                index.kill()
        self.assertEqual(index.returncode, 0)
        self.assertEqual(check.returncode, 0, stderr[-2000:])
        self.assertIsNotNone(past, "no live answer came before the end")
        self.assertEqual(past[0], 400, past)
        self.assertIn("out of range", past[1]["error"])
        out_json = json.loads(stdout)
        self.assertEqual(out_json["errors"], [])
        con = sqlite3.connect(out)
        final = dict(con.execute("SELECT key, value FROM meta"))
        con.close()
        first, samples = out_json["first"], out_json["samples"]
        self.assertTrue(first["live"] and first["button"], first)
        live = [s for s in samples if s["live"]]
        self.assertGreaterEqual(len(live), 4, samples)
        # Each commit moves the scrubber's end to its tick, and on.
        ends = [first["max"]] + [s["max"] for s in live]
        self.assertEqual(ends, sorted(ends))
        self.assertGreater(ends[-1], ends[0])
        self.assertTrue(all(s["max"] == s["last_tick"] for s in live), live)
        # The charts extend.
        self.assertGreater(live[-1]["chart_ticks"], first["chart_ticks"])
        self.assertGreater(first["chart_ticks"], 0)
        # Following: the clock at the edge.
        follow = [s for s in live if s["phase"] == "follow"]
        self.assertTrue(follow and all(s["tick"] == s["max"] and s["following"] for s in follow),
                        follow)
        # Away: it stays where the user put it as a commit comes.
        away = out_json["away"]
        self.assertFalse(away["following"])
        self.assertLess(away["tick"], away["max"])
        # The Live button: back to the edge, following the next commits.
        clicked = out_json["clicked"]
        self.assertTrue(clicked["following"])
        self.assertEqual(clicked["tick"], clicked["max"])
        later = [s for s in live if s["phase"] == "followed"]
        self.assertTrue(all(s["tick"] == s["max"] for s in later), later)
        # The end: the finished index, at its last tick.
        end = out_json["end"]
        self.assertFalse(end["live"])
        self.assertFalse(end["button"])
        self.assertEqual(final["live"], 0)
        self.assertEqual(end["max"], final["last_tick"])
        self.assertEqual(end["tick"], final["last_tick"])
        self.assertIsNone(end["error"])


if __name__ == "__main__":
    junit.main()
