"""A synthetic replay end to end: gem-synth writes two minutes of play and
the ground truth it encoded; gem-index indexes it; gem_state (through
/usr/bin/python3's sqlite3 and libgem) must give the truth's every value at
every truth tick, with no value the truth lacks; every combat_log row must
hold exactly the fields of the entry gem-synth wrote; and the index's counts
must equal what gem-synth says it wrote."""
import collections
import json
import os
import sqlite3
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402

from gemtest import (FIXTURES, GEM_DUMP, GEM_INDEX, GEM_SYNTH, TMP, check_game_time,  # noqa: E402
                     connect, f32)
AUTO = "dota2_haste_auto-20240102-2233-start"
MINUTES = 3
_made = {}


def synthetic():
    """(index path, truth path, gem-synth's counts), made once."""
    if "db" in _made:
        return _made["db"]
    replay = os.path.join(FIXTURES, AUTO + ".dem")
    if not os.path.exists(replay):
        raise unittest.SkipTest("SKIPPED: fixture %s.dem not found in %s" % (AUTO, FIXTURES))
    dem, truth, db, combat, match = (os.path.join(TMP, "synth." + x)
                                     for x in ("dem", "truth", "db", "combat", "match"))
    out = subprocess.run([GEM_SYNTH, "--from", replay, "--minutes", str(MINUTES), "--seed", "42",
                          "--truth", truth, "--combat-truth", combat, "--match-truth", match,
                          dem],
                         capture_output=True, text=True, check=True).stdout
    _made["combat"] = combat
    with open(match) as f:
        _made["match"] = [json.loads(line) for line in f]
    counts = {k: int(v) for k, v in (line.split("\t") for line in out.splitlines())}
    subprocess.run([GEM_INDEX, "--quiet", dem, db], check=True)
    _made["db"] = (db, truth, counts)
    _made["dem"] = dem
    return _made["db"]


def same(truth, ours):
    """A truth JSON value against the extension's SQL value, exactly (floats
    as float32)."""
    if truth is None:
        return ours is None
    if isinstance(truth, bool):
        return ours == int(truth)
    if isinstance(truth, list):
        try:
            ours = json.loads(ours)
        except (TypeError, ValueError):
            return False
        return len(truth) == len(ours) and all(same(t, o) for t, o in zip(truth, ours))
    if isinstance(truth, float) or isinstance(ours, float):
        return ours is not None and f32(truth) == f32(ours)
    if isinstance(truth, int):
        return ours == truth or (ours is not None and ours < 0 and ours + 2**64 == truth)
    return truth == ours


class SyntheticReplay(unittest.TestCase):
    def test_gem_state_equals_the_ground_truth_at_every_truth_tick(self):
        db, truth_path, counts = synthetic()
        con = connect(db)
        by_tick = collections.defaultdict(list)
        with open(truth_path) as f:
            for line in f:
                entity = json.loads(line)
                by_tick[entity["tick"]].append(entity)
        self.assertEqual(len(by_tick), MINUTES * 60 * 30 // 300)
        compared = entities = bad = 0
        report = []
        for tick, truth in sorted(by_tick.items()):
            wanted = ",".join(str(e["index"]) for e in truth)
            rows = collections.defaultdict(dict)
            for ent_index, serial, cls, path, value in con.execute(
                    "SELECT ent_index, serial, class, path, value FROM gem_state(?) "
                    "WHERE ent_index IN (%s)" % wanted, (tick,)):
                rows[(ent_index, serial)][path] = (cls, value)
            for e in truth:
                entities += 1
                ours = rows.get((e["index"], e["serial"]))
                self.assertIsNotNone(ours, "tick %d: %s %d missing" % (tick, e["class"], e["index"]))
                self.assertEqual({p for p in ours}, {f["path"] for f in e["fields"]},
                                 "tick %d: %s %d has other fields" % (tick, e["class"], e["index"]))
                for f in e["fields"]:
                    compared += 1
                    cls, value = ours[f["path"]]
                    if cls != e["class"] or not same(f["v"], value):
                        bad += 1
                        if len(report) < 10:
                            report.append("tick %d %s %s: truth %r gem_state %r" % (
                                tick, e["class"], f["name"], f["v"], value))
        self.assertEqual(entities, counts["truth_entities"])
        self.assertGreater(compared, 100000)
        self.assertEqual(bad, 0, "\n".join(report))
        print("synthetic: %d values of %d entity samples equal the truth" % (compared, entities))

    def test_combat_log_rows_hold_exactly_the_entries_written(self):
        db, _, counts = synthetic()
        with open(_made["combat"]) as f:
            entries = [json.loads(line) for line in f]
        self.assertEqual(len(entries), counts["combat_log"])
        cur = sqlite3.connect(db).execute("SELECT * FROM combat_log ORDER BY id")
        cols = [d[0] for d in cur.description]
        rows = cur.fetchall()
        self.assertEqual(len(rows), len(entries))
        # A name field's index is column <name>_idx (<name> is the name
        # itself); every other field has a column of its name.
        def column(key):
            return key + "_idx" if key + "_idx" in cols else key
        # Columns the index derives rather than copies.
        derived = {"id", "source", "type_name", "value_name"} | {
            c for c in cols if c + "_idx" in cols}
        bad, report, assisted = 0, [], 0
        for i, (entry, row) in enumerate(zip(entries, rows)):
            got = dict(zip(cols, row))
            self.assertEqual(got["source"], "hltv")
            assisted += "assist_players" in entry
            for key in entry:
                self.assertIn(column(key), cols, key)
            for c in cols:
                if c in derived:
                    continue
                # The view signs value (the uint32 read as an int32) and
                # keeps the written number in value_bits.
                want = next((entry[k] for k in entry
                             if column(k) == ("value" if c == "value_bits" else c)), None)
                if c == "value" and want is not None and want >= 2 ** 31:
                    want -= 2 ** 32
                if not same(want, got[c]):
                    bad += 1
                    if len(report) < 10:
                        report.append("entry %d %s: written %r, combat_log %r" %
                                      (i, c, want, got[c]))
        self.assertGreater(assisted, 100)
        self.assertEqual(bad, 0, "\n".join(report))
        print("synthetic: %d combat-log rows equal the entries written (%d with assists)" %
              (len(rows), assisted))

    def test_index_counts_equal_what_gem_synth_wrote(self):
        db, _, counts = synthetic()
        con = connect(db)
        meta = dict(con.execute("SELECT key, value FROM meta"))
        self.assertEqual(int(meta["last_tick"]), counts["last_tick"])
        self.assertEqual(int(meta["truncated"]), 0)
        self.assertEqual(con.execute("SELECT count(*) FROM combat_log").fetchone()[0],
                         counts["combat_log"])
        self.assertEqual(con.execute("SELECT count(*) FROM entities WHERE deleted_tick IS NULL")
                         .fetchone()[0], counts["entities_live"])
        self.assertEqual(con.execute("SELECT count(*) FROM entities WHERE created_tick > 0")
                         .fetchone()[0], counts["entities_created"])
        self.assertEqual(con.execute("SELECT count(*) FROM entities WHERE deleted_tick IS NOT NULL")
                         .fetchone()[0], counts["entities_deleted"])
        live = con.execute("SELECT count(DISTINCT entity) FROM gem_state(?)",
                           (counts["last_tick"],)).fetchone()[0]
        self.assertEqual(live, counts["entities_live"])
        # Every modifier added or removed is a tick-versioned entry row.
        n = con.execute("SELECT count(*) FROM string_table_entries JOIN string_tables "
                        "USING (table_id) WHERE name = 'ActiveModifiers' AND tick > 0"
                        ).fetchone()[0]
        self.assertEqual(n, counts["modifiers_added"] + counts["modifiers_removed"])
        # Field changes: the fixture's first packet wrote none (it creates
        # everything); every later change is gem-synth's.
        self.assertEqual(int(meta["field_changes"]), counts["field_changes"])


class SyntheticMatchLayer(unittest.TestCase):
    """The players, kills and clock gem-synth wrote (player_stats.h), as the
    match tables give them."""

    def test_timeline_equals_each_players_state_written(self):
        db, _, _ = synthetic()
        con = connect(db)
        players = [m for m in _made["match"] if m["kind"] == "player"]
        self.assertEqual(len(players), 10 * MINUTES * 60 * 30 // 300)
        columns = ["gold", "net_worth", "xp", "last_hits", "denies", "kills", "deaths", "assists"]
        for p in players:
            row = con.execute(
                "SELECT %s, game_time, (SELECT ent_index FROM entities e WHERE e.entity = "
                "t.entity) FROM timeline t WHERE tick = ? AND slot = ?" % ", ".join(columns),
                (p["tick"], p["slot"])).fetchone()
            self.assertIsNotNone(row, "tick %d slot %d" % (p["tick"], p["slot"]))
            self.assertEqual(list(row[:len(columns)]), [p[c] for c in columns],
                             "tick %d slot %d" % (p["tick"], p["slot"]))
            check_game_time(self, row[-2], p["game_time"])
            self.assertEqual(row[-1], p["hero"])

    def test_kills_are_the_kills_written(self):
        db, _, counts = synthetic()
        con = connect(db)
        written = [m for m in _made["match"] if m["kind"] == "kill"]
        self.assertEqual(len(written), counts["kills"])
        self.assertGreater(len(written), 0)
        rows = con.execute("SELECT tick, victim, killer, assisters, weapon, headshot, x, y, z "
                           "FROM kills ORDER BY id").fetchall()
        self.assertEqual(len(rows), len(written))
        for k, row in zip(written, rows):
            position = [f32(f32(k["cell_" + a] * 128 - 16384) + k["vec_" + a]) for a in "xyz"]
            self.assertEqual(row, (k["tick"], k["victim"], k["killer"],
                                   json.dumps(k["assisters"], separators=(",", ":")),
                                   k["weapon"], None, *position))

    def test_wards_are_the_wards_planted(self):
        db, _, _ = synthetic()
        con = connect(db)
        written = sorted((m for m in _made["match"] if m["kind"] == "ward"),
                         key=lambda w: w["placed_tick"])
        self.assertGreater(len(written), 1)
        rows = con.execute("SELECT e.ent_index, kind, team, owner, placed_tick, removed_tick, x, y, "
                           "z FROM wards JOIN entities e USING (entity) ORDER BY placed_tick")
        rows = rows.fetchall()
        want = [(w["index"], w["ward"], w["team"], w["owner"], w["placed_tick"],
                 w["removed_tick"],
                 *[f32(f32(w["cell_" + a] * 128 - 16384) + w["vec_" + a]) for a in "xyz"])
                for w in written]
        self.assertEqual(rows, want)
        self.assertTrue(any(w["removed_tick"] is not None for w in written))

    def test_the_clock_starts_at_the_horn_and_stops_for_the_pause(self):
        db, _, counts = synthetic()
        con = connect(db)
        start, duration, first = con.execute(
            "SELECT start_tick, duration_s, first_tick FROM match_info").fetchone()
        self.assertEqual(start, first + 1200)  # gem-synth's horn
        # The last tick's clock: the game ran from the horn, less a 10 s pause.
        self.assertAlmostEqual(duration, (counts["last_tick"] - start) / 30 - 10, delta=1e-4)
        paused = con.execute("SELECT count(DISTINCT game_time) FROM timeline WHERE tick BETWEEN ? "
                             "AND ?", (start + 1800, start + 2100)).fetchone()[0]
        self.assertEqual(paused, 1)

    def test_the_rules_start_is_found_with_and_without_a_sink(self):
        # gem-index hears every change; gem-dump summary parses with no sink
        # (no change lists at all): both must find the horn gem-synth blew.
        db, _, counts = synthetic()
        con = connect(db)
        meta = dict(con.execute("SELECT key, value FROM meta"))
        summary = dict(line.split("\t", 1) for line in subprocess.run(
            [GEM_DUMP, "summary", _made["dem"]], capture_output=True, text=True,
            check=True).stdout.splitlines())
        horn = int(meta["first_tick"]) + 1200
        self.assertEqual(int(meta["game_start_tick"]), horn)
        self.assertEqual(int(summary["game_start_tick"]), horn)
        self.assertGreater(int(summary["field_decodes_delta"]), 0)


if __name__ == "__main__":
    junit.main()
