"""A match recorded in several files (gem-index PART1 PART2 ... OUT.db).

The parts are cut from one replay by gem-dump split, as a recording
restarted mid-match leaves them: each later part with its own header and
signon (the string tables as they stand at the cut), then a full packet,
its frame ticks starting again (docs/recordings.md).

- Cut at full packets into two and into three parts (a gem-synth match of
  each game), the parts' index equals the whole replay's table by table,
  every byte of changes and keyframes too. What differs is exactly: the
  parts table (a row a file, with its name, sha256 and ticks, each later
  part joining with every entity kept and nothing changed) and meta's
  parts, source and replay keys (the first part's file) and playback
  (each file's own, together: gem-dump split writes each part's).
- Cut at a tick between full packets, the frames from the cut to the next
  full packet are in no file. Exactly that is lost: the state at any tick
  up to the cut is the whole's, in the gap it stays as the cut left it,
  from the join on it is the whole's again; the events in the gap are
  missing and no other; and the parts table's counts at the join
  (entities kept, created, deleted, values changed) are what the whole
  replay's states at the cut and at the join differ by.
- Parts in the wrong order, a part again, or a part of another match are
  refused (exit 64) with a message naming both files, and no index is
  left. A directory of parts is read in the order of its names, numbers
  by value.

Expected values come from the whole replay's index and from hashlib, not
from the code under test's view of the parts."""
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, GEM_DUMP, GEM_INDEX, GEM_SYNTH, INPUT_KEYS, TMP,  # noqa: E402
                     assert_same_index, connect, gem_index, replay_path)

# The first part's file; how many; the playback, each file's own together.
SPLIT_KEYS = INPUT_KEYS + ("replay_sha256", "replay_bytes", "parts", "playback_ticks",
                           "playback_time", "playback_frames")
# gem-synth matches: (fixture, its arguments). Full packets every 1800
# ticks (Dota, Deadlock) or at 3841 and 7681 (CS2's three rounds).
MATCHES = {
    "dota2": (AUTO, ["--minutes", "3", "--seed", "5"]),
    "cs2": ("cs2_demofilenet_14155_de_dust2", ["--rounds", "3", "--seed", "2"]),
    "deadlock": ("deadlock_demofilenet_hltv_10423_dl_midtown",
                 ["--light", "--minutes", "2", "--seed", "2"]),
}
_made = {}


def match(game):
    """The synthetic replay of `game` and its whole index (made once)."""
    if game in _made:
        return _made[game]
    fixture, args = MATCHES[game]
    if not os.path.exists(replay_path(fixture)):
        return None
    dem = os.path.join(TMP, "split-%s.dem" % game)
    subprocess.run([GEM_SYNTH, "--from", replay_path(fixture), *args, "--quiet", dem],
                   check=True)
    db = dem[:-4] + ".db"
    r = gem_index(dem, db)
    assert r.returncode == 0, r.stderr
    _made[game] = (dem, db)
    return _made[game]


def full_packet_ticks(dem):
    out = subprocess.run([GEM_DUMP, "trace", dem], capture_output=True, text=True,
                         check=True).stdout
    return [int(line.split("\t")[3]) for line in out.splitlines()
            if line.startswith("frame\t") and "\tDEM_FullPacket\t" in line]


def split(dem, ticks, name):
    prefix = os.path.join(TMP, name)
    out = subprocess.run([GEM_DUMP, "split", "--at", ",".join(map(str, ticks)), dem, prefix],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return [line.split("\t")[0] for line in out.stdout.splitlines()]


def assert_same_but_parts(test, whole, db):
    """The index equals the whole's but for the parts table and meta's
    SPLIT_KEYS (and the parts table's own ANALYZE statistics)."""
    meta = assert_same_index(test, whole, db, skip_meta=SPLIT_KEYS,
                             skip_tables=("parts", "sqlite_stat1"))
    stats = "SELECT * FROM sqlite_stat1 WHERE tbl != 'parts' ORDER BY tbl, idx"
    test.assertEqual(sqlite3.connect(db).execute(stats).fetchall(),
                     sqlite3.connect(whole).execute(stats).fetchall())
    return meta


def index_parts(files, db):
    """gem-index --quiet PART... DB, over any old DB; bounded in time."""
    if os.path.exists(db):
        os.remove(db)
    return subprocess.run([GEM_INDEX, "--quiet", *files, db], capture_output=True, text=True,
                          timeout=300)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def state(con, tick):
    """gem_state at `tick`, each entity named by (index, serial, class)."""
    return sorted(con.execute(
        "SELECT e.ent_index, e.serial, e.class_id, s.field, quote(s.value) "
        "FROM gem_state(?) s JOIN entities e USING (entity)", (tick,)).fetchall())


class SplitTest(unittest.TestCase):
    def parts_rows(self, db):
        con = sqlite3.connect(db)
        con.row_factory = sqlite3.Row
        rows = [dict(r) for r in con.execute("SELECT * FROM parts ORDER BY part")]
        con.close()
        return rows

    def check_whole_again(self, game, cuts):
        made = match(game)
        if made is None:
            self.skipTest("fixture missing")
        dem, whole = made
        fulls = full_packet_ticks(dem)
        ticks = [fulls[c] for c in cuts]
        files = split(dem, ticks, "%s-%d-" % (game, len(cuts) + 1))
        self.assertEqual(len(files), len(cuts) + 1)
        db = os.path.join(TMP, "%s-%d.db" % (game, len(cuts) + 1))
        r = index_parts(files, db)
        self.assertEqual(r.returncode, 0, r.stderr)
        meta = assert_same_but_parts(self, whole, db)
        self.assertEqual(meta["parts"], len(files))
        self.assertEqual(meta["playback_ticks"], sum(r["playback_ticks"] for r in
                                                     self.parts_rows(db)))
        self.assertEqual(meta["source_name"], os.path.basename(files[0]))
        rows = self.parts_rows(db)
        self.assertEqual([r["name"] for r in rows], [os.path.basename(f) for f in files])
        self.assertEqual([r["sha256"] for r in rows], [sha256(f) for f in files])
        self.assertEqual([r["bytes"] for r in rows], [os.path.getsize(f) for f in files])
        self.assertEqual([r["joins"] for r in rows], ["first"] + ["continues"] * len(cuts))
        # Each later part starts at its cut's full packet, in the whole's ticks.
        self.assertEqual([r["first_tick"] for r in rows[1:]], ticks)
        whole_meta = dict(sqlite3.connect(whole).execute("SELECT key, value FROM meta"))
        self.assertEqual(rows[-1]["last_tick"], whole_meta["last_tick"])
        for prev, r in zip(rows, rows[1:]):
            self.assertEqual(prev["last_tick"], r["first_tick"])  # cut at a full packet
            self.assertEqual(r["gap_ticks"], 0)
            self.assertGreater(r["kept_entities"], 100)
            for k in ("created_entities", "deleted_entities", "changed_values",
                      "changed_entries"):
                self.assertEqual(r[k], 0, k)

    def test_dota_in_two_and_three_parts_is_the_whole(self):
        self.check_whole_again("dota2", [0])
        self.check_whole_again("dota2", [0, 1])

    def test_cs2_in_two_and_three_parts_is_the_whole(self):
        self.check_whole_again("cs2", [0])
        self.check_whole_again("cs2", [0, 1])

    def test_deadlock_in_two_and_three_parts_is_the_whole(self):
        self.check_whole_again("deadlock", [1])
        self.check_whole_again("deadlock", [0, 2])

    def test_a_gap_between_parts_loses_exactly_what_lies_in_it(self):
        made = match("dota2")
        if made is None:
            self.skipTest("fixture missing")
        dem, whole = made
        fulls = full_packet_ticks(dem)
        cut, join = fulls[0] + 211, fulls[1]  # the frames after 211 ticks on, to the join: lost
        files = split(dem, [cut], "gap-")
        db = os.path.join(TMP, "gap.db")
        r = index_parts(files, db)
        self.assertEqual(r.returncode, 0, r.stderr)
        a, b = connect(whole), connect(db)
        rows = self.parts_rows(db)
        self.assertEqual(rows[1]["first_tick"], join)
        self.assertEqual(rows[1]["gap_ticks"], join - rows[0]["last_tick"])
        end = rows[0]["last_tick"]  # the first part's last frame
        self.assertLessEqual(end, cut)
        self.assertGreater(end, cut - 4)  # a packet every other tick
        for t in (end - 300, end, end + 1, (end + join) // 2, join - 1):
            want = state(a, min(t, end))
            self.assertEqual(state(b, t), want, "state at %d" % t)
        for t in (join, join + 1, join + 777, rows[-1]["last_tick"]):
            self.assertEqual(state(b, t), state(a, t), "state at %d" % t)
        # The events: all but those in the gap.
        ev = "SELECT tick, name, keys FROM game_events ORDER BY id"
        self.assertEqual(b.execute(ev).fetchall(),
                         [e for e in a.execute(ev) if not end < e[0] <= join])
        # The join's counts are what the whole's states at the cut and the
        # join differ by.
        before, after = {}, {}
        for src, out in ((state(a, end), before), (state(a, join), after)):
            for idx, serial, cls, field, value in src:
                out.setdefault((idx, serial, cls), {})[field] = value
        kept = before.keys() & after.keys()
        changed = sum(1 for k in kept for f in before[k].keys() | after[k].keys()
                      if before[k].get(f) != after[k].get(f))
        self.assertEqual(rows[1]["kept_entities"], len(kept))
        self.assertEqual(rows[1]["created_entities"], len(after.keys() - before.keys()))
        self.assertEqual(rows[1]["deleted_entities"], len(before.keys() - after.keys()))
        self.assertEqual(rows[1]["changed_values"], changed)
        self.assertGreater(changed, 0)
        a.close()
        b.close()

    def test_parts_that_do_not_join_are_refused(self):
        made = match("dota2")
        if made is None or match("cs2") is None:
            self.skipTest("fixture missing")
        dem = made[0]
        fulls = full_packet_ticks(dem)
        p1, p2 = split(dem, [fulls[0]], "order-")
        other = match("cs2")[0]
        db = os.path.join(TMP, "refused.db")
        for files, words in (([p2, p1], ["does not follow"]),
                             ([p1, p2, p2], ["does not follow"]),
                             ([p1, other], ["not part of the same recording", "map"])):
            r = index_parts(files, db)
            self.assertEqual(r.returncode, 64, r.stderr)
            for f in files[-2:]:  # the two that do not join
                self.assertIn(os.path.basename(f), r.stderr)
            for w in words:
                self.assertIn(w, r.stderr)
            self.assertFalse(os.path.exists(db))

    def test_a_directory_of_parts_is_read_in_the_order_of_its_names(self):
        made = match("dota2")
        if made is None:
            self.skipTest("fixture missing")
        dem, whole = made
        fulls = full_packet_ticks(dem)
        files = split(dem, fulls[:2], "dir-")
        folder = os.path.join(TMP, "parts-dir")
        os.makedirs(folder, exist_ok=True)
        # p9 before p10: numbers by value, not by their characters.
        for f, name in zip(files, ["m-p8.dem", "m-p9.dem", "m-p10.dem"]):
            shutil.copy(f, os.path.join(folder, name))
        db = os.path.join(TMP, "dir.db")
        r = gem_index(folder, db)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([r["name"] for r in self.parts_rows(db)],
                         ["m-p8.dem", "m-p9.dem", "m-p10.dem"])
        assert_same_but_parts(self, whole, db)


if __name__ == "__main__":
    junit.main()
