"""The laning phase's outcome: lane_outcomes (gem's rule) and
lane_efficiency (OpenDota's), core/dota/lane_views.h.

On the gem-synth match each row must equal what gem-synth wrote (each
player's net worth, XP and earned gold at the sample by 10:00, and the
lanes it gave the heroes), summed and shared here; the outcome's every
threshold is tried on rows made for it."""
import math
import os
import sqlite3
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from dota_rules import expected_laning  # noqa: E402
from dota_synth import synthetic  # noqa: E402
from gemtest import docs_sql  # noqa: E402

TEN_MINUTES_OF_GOLD = 40 * 60 + 45 * 20 + 74 * 2 + 600 * 1.5 + 600  # odota/core compute.ts


def outcome(share):
    """gem's rule, as docs/tables-dota.md states it."""
    if share is None:
        return None
    if share >= 0.60:
        return "stomp"
    if share >= 0.53:
        return "win"
    if share <= 0.40:
        return "stomped"
    if share <= 0.47:
        return "loss"
    return "draw"


class LaneOutcomes(unittest.TestCase):
    def test_each_lane_is_its_laners_against_the_others(self):
        con, truth, _, _ = synthetic()
        want, at10 = expected_laning(con, truth)
        team = dict(con.execute("SELECT slot, team FROM players"))
        sides = {}
        for slot, (_, lane, roaming, _, _) in want.items():
            if lane in (1, 2, 3) and not roaming:
                n, nw, xp = sides.get((lane, team[slot]), (0, 0, 0))
                sides[(lane, team[slot])] = (n + 1, nw + at10[slot]["net_worth"],
                                             xp + at10[slot]["xp"])
        expected = []
        for (lane, t), (n, nw, xp) in sorted(sides.items()):
            other = [v for (ln, ot), v in sides.items() if ln == lane and ot != t]
            if other:
                onw, oxp = other[0][1], other[0][2]
                share = nw / (nw + onw) if nw + onw > 0 else None
                expected.append((lane, t, n, nw, xp, onw, oxp, nw - onw, xp - oxp, share,
                                 outcome(share)))
            else:
                expected.append((lane, t, n, nw, xp, None, None, None, None, None, None))
        rows = con.execute("SELECT * FROM lane_outcomes ORDER BY lane, team").fetchall()
        self.assertEqual(rows, expected)
        self.assertEqual(len(rows), 6)  # gem-synth puts laners of both sides in each lane
        self.assertGreater(len({r[10] for r in rows}), 1)

    def test_every_threshold(self):
        # The views over lanes and timeline rows made for each outcome: each
        # lane one Radiant and one Dire laner, at 10:00.
        con, _, _, _ = synthetic()
        views = [sql for name, sql in con.execute(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'view' AND name IN "
            "('laning', 'lane_outcomes')")]
        scratch = sqlite3.connect(":memory:")
        scratch.execute("CREATE TABLE timeline(tick, game_time, slot, last_hits, denies, "
                        "net_worth, xp)")
        scratch.execute("CREATE TABLE lanes(slot, team, lane, is_roaming)")
        for sql in sorted(views, key=lambda s: "lane_outcomes" in s):  # laning first
            scratch.execute(sql)
        # (Radiant's net worth, Dire's): the share of each side at the edges.
        cases = [(60, 40), (53, 47), (50, 50), (47, 53), (40, 60), (61, 39), (39, 61),
                 (0, 0), (52, 48)]
        for lane_no, (radiant, dire) in enumerate(cases):
            scratch.execute("DELETE FROM timeline")
            scratch.execute("DELETE FROM lanes")
            for slot, t, nw in ((0, 2, radiant), (5, 3, dire)):
                scratch.execute("INSERT INTO lanes VALUES (?, ?, 1, 0)", (slot, t))
                scratch.execute("INSERT INTO timeline VALUES (100, 600.0, ?, 0, 0, ?, 0)",
                                (slot, nw))
            got = dict(scratch.execute("SELECT team, outcome FROM lane_outcomes"))
            share = radiant / (radiant + dire) if radiant + dire else None
            other = dire / (radiant + dire) if radiant + dire else None
            self.assertEqual(got, {2: outcome(share), 3: outcome(other)}, (radiant, dire))
        self.assertEqual([outcome(a / (a + b)) for a, b in cases[:5]],
                         ["stomp", "win", "draw", "loss", "stomped"])


class LaneEfficiency(unittest.TestCase):
    def test_earned_gold_at_ten_minutes_over_4948(self):
        self.assertEqual(TEN_MINUTES_OF_GOLD, 4948)
        con, truth, _, _ = synthetic()
        tick = con.execute("SELECT max(tick) FROM timeline WHERE game_time <= 600").fetchone()[0]
        expected = []
        for p in sorted((p for p in truth["player"] if p["tick"] == tick),
                        key=lambda p: p["slot"]):
            g = p["earned_gold"]
            eff = g / 4948 if g else None
            expected.append((p["slot"], tick, g, eff,
                             None if eff is None else math.floor(eff * 100)))
        rows = con.execute("SELECT slot, tick, earned_gold, lane_efficiency, lane_efficiency_pct "
                           "FROM lane_efficiency ORDER BY slot").fetchall()
        self.assertEqual(rows, expected)
        self.assertEqual(len(rows), 10)


class DocsQueries(unittest.TestCase):
    def test_the_lane_queries_answer_the_views(self):
        blocks = docs_sql("dota.md", "## Lane outcomes", "## Smoke ganks")
        self.assertEqual(len(blocks), 2)
        con, truth, _, _ = synthetic()
        outcomes, efficiency = (con.execute(sql).fetchall() for sql in blocks)
        want, at10 = expected_laning(con, truth)
        team = dict(con.execute("SELECT slot, team FROM players"))
        laners = {}
        for slot, (_, lane, roaming, _, _) in want.items():
            if lane in (1, 2, 3) and not roaming:
                laners.setdefault((lane, team[slot]), []).append(slot)
        expected = []
        for (lane, t), slots in sorted(laners.items()):
            nw = sum(at10[s]["net_worth"] for s in slots)
            xp = sum(at10[s]["xp"] for s in slots)
            other = [s for (ln, ot), ss in laners.items() if ln == lane and ot != t for s in ss]
            onw = sum(at10[s]["net_worth"] for s in other)
            oxp = sum(at10[s]["xp"] for s in other)
            share = nw / (nw + onw)
            expected.append((lane, t, len(slots), nw - onw, xp - oxp, round(share, 3),
                             outcome(share)))
        self.assertEqual(outcomes, expected)
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        self.assertEqual(efficiency, [
            (heroes[s], at10[s]["earned_gold"], math.floor(at10[s]["earned_gold"] / 4948 * 100))
            for s in sorted(at10)])


if __name__ == "__main__":
    junit.main()
