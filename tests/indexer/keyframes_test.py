"""Keyframes change no value: gem_state of every entity, and of single
entities, and gem_sample of every field over windows (each entity's first
sample comes from its row of the interval), from an index with keyframes
equals the same query on the same replay indexed without them
(--keyframe-seconds 0: one interval for the whole replay, every row born,
so that every state is read from the entity's creation state and its
whole history), at many ticks: keyframe ticks and their neighbours,
random ones, the first and last, and past the end. The keyframes' states
are the parser's own at each interval's end: this is where they are held
to the replay's changes. On every modern fixture and on synthetic Dota
and CS2 replays, with the default keyframes and with dense ones that put
every field of a row in one of its two kinds (--keyframe-logged 0: all in
runs; 1000: all logged in the row), so that each way a row answers is
read, and gem_state of ten named fields, which reads the rows too."""
import json
import os
import random
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import (FIXTURES, GEM_SYNTH, MODERN, TMP, connect, index_of, need_some,  # noqa: E402
                     replay_path, synthetic_index, _index)

NONE = ("--keyframe-seconds", "0")
# (seconds, logged): the default, then dense keyframes with each later list.
VARIANTS = [(), ("--keyframe-seconds", "0.5", "--keyframe-logged", "0"),
            ("--keyframe-seconds", "0.5", "--keyframe-logged", "1000"),
            ("--keyframe-seconds", "2", "--keyframe-logged", "2")]
STATE = "SELECT entity, field, value FROM gem_state(?) ORDER BY entity, field"
ONE = "SELECT field, value FROM gem_state(?, ?) ORDER BY field"
# Every field of every entity over a window: each entity's first sample
# starts from its keyframe row.
SAMPLE = ("SELECT entity, field, tick, value FROM gem_sample(?, ?, ?) "
          "ORDER BY entity, field, tick")
SAMPLE_ONE = "SELECT field, tick, value FROM gem_sample(?, ?, ?, ?) ORDER BY field, tick"
_blocks_seen = set()  # (block flags, whether it holds several rows)


def meta(con, key):
    row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def ticks_to_check(con, count):
    last = meta(con, "last_tick")
    interval = meta(con, "keyframe_interval") or 0
    rng = random.Random(last * 31 + interval)
    ticks = {-1, 0, 1, last - 1, last, last + 1, last + 1000}
    if interval:
        marks = list(range(0, last + 1, interval))
        for k in rng.sample(marks, min(len(marks), count // 2)):
            ticks.update((k - 1, k, k + 1))
    ticks.update(rng.randint(0, last) for _ in range(count))
    return sorted(ticks)


def debug_value(con, name):
    return json.loads(con.execute("SELECT gem_debug()").fetchone()[0].decode())[name]


def counter(con, name):
    return debug_value(con, "counters")[name]


def keyframes_read(con):
    return counter(con, "keyframes_read")


def open_index(path):
    con = connect(path)
    con.text_factory = bytes  # strings are the replay's bytes, not always UTF-8
    return con


class KeyframesKeepValues(unittest.TestCase):
    def compare(self, name, reference, variants, count=12):
        ref = open_index(reference)
        for path in variants:
            with self.subTest(replay=name, index=os.path.basename(path)):
                con = open_index(path)
                interval = meta(con, "keyframe_interval")
                self.assertGreater(interval, 0, "the index has keyframes")
                rows = con.execute("SELECT count(*) FROM keyframes").fetchone()[0]
                self.assertGreater(rows, 0)
                for flags, several in con.execute("SELECT DISTINCT hex(substr(data, 2, 1)), "
                                                  "last_entity > first_entity FROM keyframes"):
                    _blocks_seen.add((int(flags, 16), several))
                entities = [e for (e,) in ref.execute(
                    "SELECT entity FROM entities ORDER BY entity")]
                rng = random.Random(len(entities))
                # Many named fields read the keyframe rows too: the ten
                # names most entities have at the middle tick.
                middle = meta(con, "last_tick") // 2
                names = [n for (n,) in ref.execute(
                    "SELECT field FROM gem_state(?) GROUP BY field "
                    "ORDER BY count(*) DESC, field LIMIT 10", (middle,))]
                named = ("SELECT entity, field, value FROM gem_state(?) WHERE field IN (%s) "
                         "ORDER BY entity, field" % ",".join("?" * len(names)))
                named_read_keyframes = False
                for i, tick in enumerate(ticks_to_check(con, count)):
                    if names:
                        before = keyframes_read(con)
                        self.assertEqual(con.execute(named, [tick] + names).fetchall(),
                                         ref.execute(named, [tick] + names).fetchall(),
                                         "tick %d, %d named fields" % (tick, len(names)))
                        named_read_keyframes |= keyframes_read(con) > before
                    want = ref.execute(STATE, (tick,)).fetchall()
                    got = con.execute(STATE, (tick,)).fetchall()
                    if got != want:
                        extra = sorted(set(got) - set(want))[:3]
                        missing = sorted(set(want) - set(got))[:3]
                        self.fail("tick %d: %d rows, want %d; extra %s; missing %s" %
                                  (tick, len(got), len(want), extra, missing))
                    for entity in rng.sample(entities, min(3, len(entities))):
                        self.assertEqual(con.execute(ONE, (tick, entity)).fetchall(),
                                         ref.execute(ONE, (tick, entity)).fetchall(),
                                         "tick %d entity %d" % (tick, entity))
                    if i % 4 == 0:
                        # Single entities over a window of at most a dozen
                        # samples; every entity over two samples once below.
                        step = rng.randint(20, 97)
                        window = (tick, tick + rng.randint(0, 12 * step), step)
                        for entity in rng.sample(entities, min(3, len(entities))):
                            args = window + (entity,)
                            before = keyframes_read(con)
                            sampled = con.execute(SAMPLE_ONE, args).fetchall()
                            self.assertEqual(sampled, ref.execute(SAMPLE_ONE, args).fetchall(),
                                             "gem_sample%r" % (args,))
                            if sampled:
                                self.assertGreater(keyframes_read(con), before,
                                                   "gem_sample%r read keyframes" % (args,))
                        # Counted around the all-entity sample alone.
                        before = keyframes_read(con)
                        sampled_all = con.execute(SAMPLE, (tick, tick + step, step)).fetchall()
                        self.assertEqual(sampled_all,
                                         ref.execute(SAMPLE, (tick, tick + step, step)).fetchall(),
                                         "gem_sample(%d, %d, %d)" % (tick, tick + step, step))
                        if sampled_all:
                            self.assertGreater(keyframes_read(con), before,
                                               "gem_sample(%d, %d, %d) read keyframes" %
                                               (tick, tick + step, step))
                if len(names) >= 8:
                    self.assertTrue(named_read_keyframes, "the named fields read keyframe rows")
                debug = con.execute("SELECT gem_debug()").fetchone()[0].decode()
                self.assertNotIn('"keyframes_read":0}', debug, "the keyframes were read")
                # A connection keeps the blocks it decompressed: the state
                # at the middle tick read twice reads them once.
                fresh = open_index(path)
                want = ref.execute(STATE, (middle,)).fetchall()
                self.assertEqual(fresh.execute(STATE, (middle,)).fetchall(), want)
                first = counter(fresh, "keyframe_blocks_read")
                decoded = counter(fresh, "keyframe_rows_decoded")
                self.assertGreater(first, 0, "the first read decompressed blocks")
                self.assertGreater(decoded, 0, "the first read decoded rows")
                self.assertEqual(fresh.execute(STATE, (middle,)).fetchall(), want)
                self.assertEqual(counter(fresh, "keyframe_blocks_read"), first,
                                 "the second read found them kept")
                self.assertEqual(counter(fresh, "keyframe_rows_decoded"), decoded,
                                 "the second read found the rows decoded")
                # A lower limit lets the kept blocks go at once; read again,
                # they are read again, to the same rows.
                self.assertGreater(debug_value(fresh, "keyframe_cache_bytes"), 0)
                self.assertEqual(fresh.execute("SELECT gem_keyframe_cache(0)").fetchone()[0], 0)
                self.assertEqual(debug_value(fresh, "keyframe_cache_bytes"), 0, "blocks let go")
                fresh.execute("SELECT gem_keyframe_cache(?)", (64 << 20,))
                self.assertEqual(fresh.execute(STATE, (middle,)).fetchall(), want)
                self.assertEqual(counter(fresh, "keyframe_blocks_read"), 2 * first,
                                 "the blocks let go were read again")
                fresh.close()
                # Kept within a limit: with one byte, each block read makes
                # the others go, and the state read again reads them again.
                small = open_index(path)
                self.assertEqual(small.execute("SELECT gem_keyframe_cache()").fetchone()[0],
                                 64 << 20)
                self.assertEqual(small.execute("SELECT gem_keyframe_cache(1)").fetchone()[0], 1)
                self.assertEqual(small.execute(STATE, (middle,)).fetchall(), want)
                once = counter(small, "keyframe_blocks_read")
                self.assertEqual(small.execute(STATE, (middle,)).fetchall(), want)
                self.assertEqual(counter(small, "keyframe_blocks_read") - once,
                                 once if once > 1 else 0, "blocks read again")
                small.close()
        # The reference's rows hold no state but the creation state: one
        # interval, keyframe tick -1.
        self.assertEqual(meta(ref, "keyframe_interval"), 0)
        self.assertEqual(ref.execute("SELECT count(*) FROM keyframes WHERE tick <> -1").fetchone()[0],
                         0)

    def test_every_modern_fixture(self):
        need_some(MODERN)
        for stem in MODERN:
            reference = index_of(stem, *NONE)
            if reference is None:
                print("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
                continue
            self.compare(stem, reference, [index_of(stem, *v) for v in VARIANTS])

    def test_a_synthetic_dota_match(self):
        reference = synthetic_index(4, 5, *NONE)
        if reference is None:
            self.skipTest("SKIPPED: the auto fixture is not in %s" % FIXTURES)
        self.compare("synthetic dota", reference,
                     [synthetic_index(4, 5, *v) for v in VARIANTS], count=20)

    def test_a_synthetic_cs2_match(self):
        source = replay_path("cs2_demofilenet_14155_de_dust2")
        if not os.path.exists(source):
            self.skipTest("SKIPPED: the de_dust2 fixture is not in %s" % FIXTURES)
        dem = os.path.join(TMP, "kf-cs2.dem")
        subprocess.run([GEM_SYNTH, "--from", source, "--rounds", "3", "--seed", "2", "--quiet",
                        dem], check=True)
        reference = _index(("kf-cs2",) + NONE, dem, dem + ".none.db", NONE)
        variants = [_index(("kf-cs2", i), dem, dem + ".%d.db" % i, v)
                    for i, v in enumerate(VARIANTS)]
        self.compare("synthetic cs2", reference, variants, count=20)

    def test_z_compressed_blocks_of_several_rows_were_read(self):
        # Run last (by name): the other tests filled _blocks_seen.
        if not _blocks_seen:
            self.skipTest("SKIPPED: no index was compared")
        self.assertTrue(any(f & 1 for f, _ in _blocks_seen), "a compressed block was compared")
        self.assertTrue(any(several for _, several in _blocks_seen),
                        "a block of several rows was compared")


if __name__ == "__main__":
    junit.main()
