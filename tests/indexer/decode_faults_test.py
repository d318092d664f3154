"""Entity packets that do not decode to their end (docs/recordings.md, The
next patch; core/entities/decode_fault.h).

- No fixture's packet faults: every modern fixture indexes with meta
  decode_faults 0 and an empty decode_faults table (the packet-end rule
  holds for every packet the games send).
- A synthetic Dota match whose delta packet at tick 3000 lost the second
  half of its entity data (gem-synth --damage-packet) indexes to its end:
  one fault at 3000, refreshed at the next full packet (the frames'
  DEM_FullPacket ticks, read from gem-dump trace). Against the undamaged
  match (same seed), the state of every entity is the same at every
  sampled tick before 3000 and from the refresh on; between them only
  entities the fault names stale differ, and some do. gem-dump verify
  prints the fault as the table has it, and exits 1.
- A match whose send tables name a type no rule knows (gem-synth --retype,
  as the next patch may bring) faults once, at its first full packet; the
  rule search finds the rule the packets were written by, the packet then
  refreshes the state. Every table equals the undamaged match's, but for
  the declared type's name, the fault's own rows and meta, and the
  creation rows (and so the keyframes) of the entities that packet created
  before the fault; the state at every sampled tick is the same. The
  damaged packet's search finds no rule."""
import json
import os
import sqlite3
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, GEM_DUMP, GEM_SYNTH, INPUT_KEYS, LIB, MODERN, TMP,  # noqa: E402
                     assert_same_index, gem_index, index_of, need_some, replay_path)

DAMAGED_TICK = 3000
FAULT_KEYS = ("decode_faults", "decode_faults_unrefreshed", "decode_fault_stale_entities",
              "unknown_type_rules", "rule_searches", "rules_undone", "default_rule_types", "replay_sha256",
              "replay_bytes", "field_changes")


def meta(db):
    c = sqlite3.connect(db)
    out = dict(c.execute("SELECT key, value FROM meta"))
    c.close()
    return out


def faults(db):
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    rows = [dict(r) for r in c.execute("SELECT * FROM decode_faults ORDER BY fault")]
    c.close()
    return rows


def states(db, tick):
    """{(ent_index, serial, class, field): value} at `tick`, through libgem."""
    c = sqlite3.connect(db)
    c.enable_load_extension(True)
    c.load_extension(LIB)
    out = {(i, s, k, f): v for i, s, k, f, v in c.execute(
        "SELECT ent_index, serial, class, field, value FROM gem_state(?)", (tick,))}
    c.close()
    return out


def full_packet_ticks(replay):
    trace = subprocess.run([GEM_DUMP, "trace", replay], check=True, capture_output=True,
                           text=True).stdout
    return [int(line.split("\t")[3]) for line in trace.splitlines()
            if line.startswith("frame\t") and line.split("\t")[2] == "DEM_FullPacket"]


def synth(name, *extra):
    dem = os.path.join(TMP, name + ".dem")
    subprocess.run([GEM_SYNTH, "--from", replay_path(AUTO), "--minutes", "3", "--seed", "7",
                    *extra, "--quiet", dem], check=True)
    db = os.path.join(TMP, name + ".db")
    r = gem_index(dem, db)
    return dem, db, r


class Fixtures(unittest.TestCase):
    def test_no_fixture_packet_faults(self):
        need_some(MODERN)
        for stem in MODERN:
            db = index_of(stem)
            if db is None:
                continue
            with self.subTest(replay=stem):
                self.assertEqual(meta(db)["decode_faults"], 0)
                self.assertEqual(faults(db), [])


class Faults(unittest.TestCase):
    def setUp(self):
        if not os.path.exists(replay_path(AUTO)):
            self.skipTest("SKIPPED: fixture %s.dem not found" % AUTO)

    def test_a_damaged_packet_is_stale_until_the_next_full_packet(self):
        _, whole, r = synth("whole")
        self.assertEqual(r.returncode, 0, r.stderr)
        dem, damaged, r = synth("damaged", "--damage-packet", str(DAMAGED_TICK))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(faults(whole), [])
        refresh = min(t for t in full_packet_ticks(dem) if t > DAMAGED_TICK)
        rows = faults(damaged)
        self.assertEqual(len(rows), 1, rows)
        f = rows[0]
        self.assertEqual((f["tick"], f["full_packet"], f["refreshed_tick"]),
                         (DAMAGED_TICK, 0, refresh))
        self.assertIn("past the end", f["reason"])
        stale = set(json.loads(f["stale"]))
        self.assertEqual(len(stale), f["stale_entities"])
        self.assertIn(f["entity"], stale)
        m = meta(damaged)
        self.assertEqual((m["decode_faults"], m["decode_faults_unrefreshed"],
                          m["decode_fault_stale_entities"]), (1, 0, len(stale)))
        differing = set()
        for tick in (DAMAGED_TICK - 2, DAMAGED_TICK, DAMAGED_TICK + 2,
                     (DAMAGED_TICK + refresh) // 2, refresh - 2, refresh, refresh + 2, 5000):
            a, b = states(whole, tick), states(damaged, tick)
            self.assertGreater(len(a), 1000)
            diff = {k for k in set(a) | set(b) if a.get(k) != b.get(k)}
            ents = {k[0] for k in diff}
            with self.subTest(tick=tick):
                if tick < DAMAGED_TICK or tick >= refresh:
                    self.assertEqual(diff, set())
                else:
                    self.assertEqual(ents - stale, set())
                    differing |= ents
        self.assertTrue(differing, "the lost half changed nothing: the test tests nothing")
        # gem-dump verify says the same, and fails.
        v = subprocess.run([GEM_DUMP, "verify", dem], capture_output=True, text=True)
        self.assertEqual(v.returncode, 1, v.stderr)
        self.assertIn("tick %d: decode fault in a delta packet at entity %d (%s), field %s, bit %d"
                      % (f["tick"], f["entity"], f["class"], f["field"], f["bit"]), v.stdout)
        self.assertIn("%d entities stale, refreshed at tick %d" % (len(stale), refresh), v.stdout)
        self.assertIn("1 decode faults", v.stdout)

    def test_a_type_no_rule_names_gets_the_rule_its_packets_decode_by(self):
        _, whole, r = synth("whole")
        self.assertEqual(r.returncode, 0, r.stderr)
        _, db, r = synth("retyped", "--retype", "GameTime_t=GameTimeX_t")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = faults(db)
        m = meta(db)
        # The first packet that reads such a field faults; the search finds
        # the rule the packets were written by (GameTime_t's: a 32-bit
        # float), and that packet, the first full one, refreshes at once.
        self.assertEqual(len(rows), 1, rows)
        self.assertEqual((rows[0]["full_packet"], rows[0]["refreshed_tick"]),
                         (1, rows[0]["tick"]))
        self.assertRegex(m["unknown_type_rules"], r"^GameTimeX_t=float32 \(\d+ fields, fault 0\)$")
        self.assertEqual((m["decode_faults"], m["decode_faults_unrefreshed"], m["rule_searches"]),
                         (1, 0, 1))
        self.assertIn("GameTimeX_t", subprocess.run(
            [GEM_DUMP, "summary", os.path.join(TMP, "retyped.dem")], check=True,
            capture_output=True, text=True).stdout)
        # Then every table is the whole match's, but for the declared type's
        # name in field_defs, what tells of the fault, and the creation
        # rows of the entities that packet created before the fault: they
        # hold the old rule's values, which the refresh at the same tick
        # corrects (so the state at every tick is the whole match's).
        assert_same_index(self, whole, db, skip_meta=INPUT_KEYS + FAULT_KEYS,
                          skip_tables=("decode_faults", "field_defs", "sqlite_stat1",
                                       "entity_states", "keyframes"))
        for tick in (-1, 0, 2, DAMAGED_TICK, 5000):
            with self.subTest(tick=tick):
                self.assertEqual(states(whole, tick), states(db, tick))
        c = sqlite3.connect(db)
        c.execute("ATTACH ? AS whole", (whole,))
        created_before = {e for (e,) in c.execute(
            "SELECT entity FROM entities WHERE created_tick = ? AND ent_index < ?",
            (rows[0]["tick"], rows[0]["entity"]))}
        differ = {e for (e,) in c.execute(
            "SELECT entity FROM (SELECT * FROM entity_states EXCEPT "
            "SELECT * FROM whole.entity_states)")}
        self.assertTrue(differ)
        self.assertLessEqual(differ, created_before)
        self.assertEqual(c.execute(
            "SELECT count(*) FROM field_defs f JOIN whole.field_defs w USING (def_id) "
            "WHERE f.type = 'GameTimeX_t' AND w.type = 'GameTime_t' AND f.decoder = w.decoder")
            .fetchone()[0], c.execute(
            "SELECT count(*) FROM field_defs WHERE type = 'GameTimeX_t'").fetchone()[0])
        self.assertEqual(c.execute(
            "SELECT count(*) FROM (SELECT def_id, name, path, decoder FROM field_defs "
            "EXCEPT SELECT def_id, name, path, decoder FROM whole.field_defs)").fetchone()[0], 0)
        c.close()
        # A damaged packet finds no rule: its search is made, none kept.
        _, damaged, _ = synth("damaged", "--damage-packet", str(DAMAGED_TICK))
        self.assertEqual((meta(damaged)["unknown_type_rules"], meta(damaged)["rule_searches"]),
                         ("", 1))

if __name__ == "__main__":
    junit.main()
