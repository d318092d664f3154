"""Today's index format holds the values the previous one did, value by
value: every modern fixture and the 30-minute synthetic Dota replay are
indexed by this build and read through this build's libgem, and every
plain table's rows, every change of every field of every entity
(gem_changes, class by class) and every entity's state at the stored
ticks (gem_state: keyframe ticks, their neighbours, random ones) must give
the digests in tests/data/format_digests.json. Those were made from
indexes of the previous format, written and read by the gem-index and
libgem of the commit the file names (tools/compare_index.py --digest):
not by the code under test.

A deliberate change of values (a decoder fix, a new column) makes this
fail; the digests are then remade from the commit before the change, and
the commit says why."""
import hashlib
import json
import os
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402
from gemtest import (FIXTURES, GEM_INDEX, GEM_SYNTH, LIB, MODERN, RUNFILES,  # noqa: E402
                     SANITIZED, TMP, index_of, need_some, replay_path)

sys.path.insert(0, os.path.join(RUNFILES, "tools"))
from index_digest import connect, digest  # noqa: E402

# What the index gained after the stored digests' commit, with nothing of
# that format to hold: meta's count of timeline rows out of the recorder's
# view, the decode faults (table and meta counts) and the creates of a
# class with no baseline, the tables whose events never came, the wards'
# clocks and how each went, and CS2's aim: sightings, the weapons table, each
# shot's speed and place in its burst, each kill's victim's weapon and
# grenades held, the counts of shots without a weapon and mask bits naming
# no player, and the two stat_settings rows of the aim views; Dota's count
# of wards the clock says went before they were placed; Deadlock's
# timeline lane and creep souls, and its teamfights (a name Dota's table
# has long had: skipped only where the stored index has no such table).
ADDED_TABLES = {"decode_faults", "sightings", "weapons"}
ADDED_WHERE_NEW = {"teamfights"}
ADDED_COLUMNS = {"wards": {"placed_time", "removed_time", "killed", "killer_name"},
                 "shots": {"speed", "burst_shot"},
                 "kills": {"victim_weapon", "utility_held", "utility_value"},
                 "timeline": {"lane", "creep_kill_souls", "creep_air_orb_souls",
                              "creep_ground_orb_souls", "creep_solo_bonus_souls",
                              "creep_deny_souls", "creep_neutral_souls"}}
ADDED_ROWS = {"stat_settings": {"counter_strafe_share", "flash_kill_window_s"}}
ADDED_META = {"timeline_out_of_view", "decode_faults", "decode_faults_unrefreshed",
              "decode_fault_stale_entities", "unknown_type_rules", "rule_searches",
              "rules_undone", "missing_class_baselines", "tables_without_their_events",
              "shots_without_weapon", "spotted_by_no_player", "wards_ended_before_placed"}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                       "format_digests.json")) as f:
    STORED = json.load(f)


def differences(want, got):
    """What differs between two digests, one line each."""
    out = []
    for part in ("tables", "changes", "state"):
        w, g = want[part], got[part]
        for key in sorted(set(w) | set(g)):
            if w.get(key) != g.get(key):
                out.append("%s %s: stored %s, this build %s" % (part, key, w.get(key), g.get(key)))
    return out


class FormatCompat(unittest.TestCase):
    def check(self, name, db):
        want = STORED["replays"][name]
        con = connect(db, LIB)
        added = ADDED_TABLES | {t for t in ADDED_WHERE_NEW if t not in want["tables"]}
        got = digest(con, sorted(int(t) for t in want["state"]), added, ADDED_META,
                     ADDED_COLUMNS, ADDED_ROWS)
        con.close()
        problems = differences(want, got)
        self.assertEqual(problems, [], "%s differs from the %s index:\n%s" %
                         (name, STORED["made_by"], "\n".join(problems[:20])))
        # Not vacuous: the stored digests cover the index's contents.
        self.assertGreater(len(want["tables"]), 5)
        self.assertGreater(sum(n for n, _ in want["changes"].values()), 0)
        self.assertGreater(sum(n for n, _ in want["state"].values()), 0)

    def test_every_modern_fixture_holds_the_previous_formats_values(self):
        need_some(MODERN)
        for stem in MODERN:
            with self.subTest(replay=stem):
                if not os.path.exists(replay_path(stem)):
                    self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
                self.check(stem, index_of(stem))

    def test_the_30_minute_synthetic_replay_holds_the_previous_formats_values(self):
        if SANITIZED:
            self.skipTest("SKIPPED under the sanitizers: the plain run indexes the 30-minute "
                          "replay, the fixtures above run here")
        synth = STORED["synthetic"]
        source = replay_path(synth["from"])
        if not os.path.exists(source):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (synth["from"], FIXTURES))
        replay = os.path.join(TMP, "synthetic-30min.dem")
        subprocess.run([GEM_SYNTH, "--from", source] + synth["args"] + ["--quiet", replay],
                       check=True)
        h = hashlib.sha256()
        with open(replay, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        self.assertEqual(h.hexdigest(), synth["sha256"],
                         "gem-synth wrote another replay than the one the digests were made "
                         "from: remake them (see this file's docstring)")
        db = os.path.join(TMP, "synthetic-30min.db")
        subprocess.run([GEM_INDEX, "--quiet", "--force", replay, db], check=True)
        self.check("synthetic-30min", db)
        os.remove(replay)


if __name__ == "__main__":
    junit.main()
