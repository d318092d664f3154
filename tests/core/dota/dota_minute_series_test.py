"""OpenDota's per-minute arrays: the minute_series view
(core/dota/minute_views.h).

On the gem-synth match each row must equal the rule computed here apart:
the sample each minute from the timeline's rows, hero damage and healing
from gem-synth's own combat-log truth (what it wrote, not what gem read)
in OpenDota's minute buckets, and the wards from gem-synth's ward truth.
The game-start rule (the GAME_STATE 5 entry, else the first entry after the
horn) and the buckets' edges are tried on rows made for them, through the
index's own view SQL; the docs' query runs."""
import math
import os
import sqlite3
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from dota_synth import synthetic  # noqa: E402
from gemtest import docs_sql  # noqa: E402


def seconds(ts):
    """Java's Math.round of a float timestamp: half up."""
    return math.floor(ts + 0.5)


def bucket(t):
    """odota/parser's minuteBucket: (60 (k - 1), 60 k] is bucket k."""
    return max(0, math.ceil(t / 60))


class MinuteSeries(unittest.TestCase):
    def test_each_minute_is_the_rule_over_what_gem_synth_wrote(self):
        con, truth, entries, _ = synthetic()
        names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
        hero_slot = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
        start_tick, rate = con.execute("SELECT start_tick, tick_rate FROM match_info").fetchone()
        # gem-synth writes no GAME_STATE entry: the start is the first entry
        # at or after the horn, less its seconds since.
        self.assertFalse([e for e in entries if e["type"] == 9])
        first = min((e for e in entries if e["tick"] >= start_tick and
                     e.get("timestamp") is not None), key=lambda e: e["tick"])
        start = seconds(first["timestamp"] - (first["tick"] - start_tick) / rate)
        sums = {}
        for e in entries:
            if e["type"] not in (0, 1) or not e.get("is_target_hero") or \
                    e.get("is_target_illusion") or e.get("timestamp") is None:
                continue
            src, tgt = names.get(e["damage_source_name"]), names.get(e["target_name"])
            if src not in hero_slot or tgt == src:
                continue
            key = (hero_slot[src], e["type"], bucket(seconds(e["timestamp"]) - start))
            sums[key] = sums.get(key, 0) + e["value"]
        timeline = con.execute("SELECT slot, tick, game_time, earned_gold, xp, last_hits, "
                               "denies, camps_stacked FROM timeline ORDER BY tick").fetchall()
        wards = truth["ward"]
        want = []
        for slot in sorted(hero_slot.values()):
            minute = 0
            rows = [r for r in timeline if r[0] == slot]
            while True:
                later = [r for r in rows if r[2] >= 60 * minute - 0.5]
                if not later:
                    break
                r = later[0]
                m = math.floor((r[2] + 0.5) / 60)  # the minute this sample rounds into
                if m == minute:
                    want.append((slot, minute, r[1], r[2], r[3], r[4], r[5], r[6], r[7],
                                 sum(v for (s, t, b), v in sums.items()
                                     if s == slot and t == 0 and b <= minute),
                                 sum(v for (s, t, b), v in sums.items()
                                     if s == slot and t == 1 and b <= minute),
                                 sum(1 for w in wards if w["owner"] == slot and
                                     w["ward"] == "observer" and w["placed_tick"] <= r[1]),
                                 sum(1 for w in wards if w["owner"] == slot and
                                     w["ward"] == "sentry" and w["placed_tick"] <= r[1])))
                minute += 1
        got = con.execute("SELECT * FROM minute_series ORDER BY slot, minute").fetchall()
        self.assertEqual(got, want)
        self.assertEqual(len(got), 10 * 12)
        self.assertTrue(any(r[9] > 0 for r in got) and any(r[10] > 0 for r in got))
        self.assertTrue(any(r[11] > 0 for r in got) and any(r[12] > 0 for r in got))
        # The pause: minute 2's sample is past 2 x 1,800 ticks after the horn.
        self.assertGreater([r for r in got if r[1] == 2][0][2], start_tick + 2 * 1800)

    def test_the_start_and_the_buckets_on_rows_made_for_them(self):
        con, _, _, _ = synthetic()
        view = con.execute("SELECT sql FROM sqlite_schema WHERE name = 'minute_series'")\
            .fetchone()[0]
        scratch = sqlite3.connect(":memory:")
        for sql in ("CREATE TABLE combat_log_entries(id, tick, type, value, timestamp, "
                    "damage_source_name_idx, target_name_idx, is_target_hero, "
                    "is_target_illusion)",
                    "CREATE TABLE combat_log_names(idx, name)",
                    "CREATE TABLE players(slot, hero)",
                    "CREATE TABLE match_info(start_tick, tick_rate)",
                    "CREATE TABLE timeline(slot, tick, game_time, earned_gold, xp, last_hits, "
                    "denies, camps_stacked)",
                    "CREATE TABLE wards(owner, kind, placed_tick)", view):
            scratch.execute(sql)
        scratch.executemany("INSERT INTO combat_log_names VALUES (?, ?)",
                            [(1, "npc_dota_hero_axe"), (2, "npc_dota_hero_lina"),
                             (3, "npc_dota_creep_goodguys_melee")])
        scratch.execute("INSERT INTO players VALUES (0, 'npc_dota_hero_axe')")
        scratch.execute("INSERT INTO match_info VALUES (3000, 30.0)")
        for minute in range(4):
            scratch.execute("INSERT INTO timeline VALUES (0, ?, ?, 0, 0, 0, 0, 0)",
                            (3000 + 1800 * minute, 60.0 * minute))
        # The horn's entry: GAME_STATE 5 at 100.4 s, so the start is 100
        # (the first entry after the horn, at 300.0 s, would say 200).
        entries = [(9, 5, 100.4, 2, 2, 0, 0), (0, 7, 300.0, 1, 2, 1, 0),
                   (0, 11, 160.4, 1, 2, 1, 0),    # 60 s: bucket 1
                   (0, 13, 160.5, 1, 2, 1, 0),    # 61 s (half up): bucket 2
                   (0, 17, 99.0, 1, 2, 1, 0),     # -1 s: bucket 0
                   (0, 19, 150.0, 1, 2, 1, 1),    # an illusion hit: not counted
                   (0, 23, 150.0, 1, 3, 0, 0),    # a creep hit: not counted
                   (0, 29, 150.0, 1, 1, 1, 0),    # himself: not counted
                   (1, 31, 220.0, 1, 2, 1, 0),    # healing at 120 s: bucket 2
                   (0, 37, 220.6, 2, 1, 1, 0)]    # Lina's: not his
        for i, (kind, value, ts, src, tgt, hero, illusion) in enumerate(entries):
            scratch.execute("INSERT INTO combat_log_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (i + 1, 3000 + 30 * i, kind, value, ts, src, tgt, hero, illusion))
        got = scratch.execute("SELECT minute, hero_damage, hero_healing FROM minute_series "
                              "ORDER BY minute").fetchall()
        # 300.0 s is 200 s: bucket 4, past the last sample.
        self.assertEqual(got, [(0, 17, 0), (1, 28, 0), (2, 41, 31), (3, 41, 31)])
        # Without the GAME_STATE entry the start is the first entry after
        # the horn (tick 3000 + 30 at 300.0 s: 1 s after the horn, so 299).
        scratch.execute("DELETE FROM combat_log_entries WHERE type = 9")
        got = scratch.execute("SELECT minute, hero_damage FROM minute_series ORDER BY minute")\
            .fetchall()
        # 300.0 s is then 1 s: bucket 1; the rest are before the start.
        self.assertEqual(got, [(0, 41), (1, 48), (2, 48), (3, 48)])


class MinuteSeriesDocs(unittest.TestCase):
    def test_the_query_answers_the_view(self):
        blocks = docs_sql("dota.md", "## Per-minute series")
        self.assertEqual(len(blocks), 1)
        con, _, _, _ = synthetic()
        got = con.execute(blocks[0]).fetchall()
        want = con.execute("SELECT p.hero, m.gold, m.xp, m.last_hits, m.hero_damage "
                           "FROM minute_series m JOIN players p USING (slot) "
                           "WHERE m.minute = 10 ORDER BY m.slot").fetchall()
        self.assertEqual(got, want)
        self.assertEqual(len(got), 10)


if __name__ == "__main__":
    junit.main()
