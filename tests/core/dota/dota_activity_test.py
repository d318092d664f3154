"""Dota's second questions end to end: lanes and laning, the players'
orders and APM, gold and XP by reason, ability and item uses, multi-kills
and streaks, deaths and what each player killed, and pauses
(core/dota/activity.h, core/dota/player_views.h).

On a gem-synth match every table and view must equal what gem-synth wrote
(tools/synth/dota_activity.h), value by value, and, like on the real
fixtures, a second implementation written here over the index's raw
fields, combat log and chat events: OpenDota's lane rule over each hero's
cell and offset fields, the life state's and the pause flag's changes,
the combat log's rows. gem-synth --flaws (no multi-kill or streak entries,
an order of an unknown type and from no player, reasons outside the
enumerations) gives the game's rule, NULL names and counts."""
import math
import os
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from dota_rules import (LANING, death_credits, expected_laning, life_spans,  # noqa: E402
                        opendota_lanes, pause_spans, rule_streaks, streak_entries, uses)
from dota_synth import FLAW_MINUTES, clock, replay, synthetic  # noqa: E402
from gemtest import (AUTO, GEM_INDEX, NEKIT, TMP, check_game_time,  # noqa: E402
                     connect, f32, need, docs_sql)

TABLES = ["actions", "lanes", "ability_uses", "item_uses", "multi_kills", "kill_streaks",
          "pauses", "hero_deaths"]
NAME_TABLES = {"gold_reason_names": 22, "xp_reason_names": 8, "unit_order_names": 43}
VIEWS = ["apm", "actions_by_type", "gold_reasons", "xp_reasons", "time_dead", "credited_deaths",
         "kills_by_kind", "killed_by", "laning"]


class SecondImplementations(unittest.TestCase):
    """The tables against what the index's raw fields, chat events and
    combat log say, on the synthetic match and the Dota fixtures."""

    def indexes(self):
        con, _, _, _ = synthetic()
        return [("synthetic", con), ("auto", connect(need(AUTO))), ("nekit", connect(need(NEKIT)))]

    def test_lanes_are_opendotas_rule_over_the_heroes_cells(self):
        for name, con in self.indexes():
            with self.subTest(name):
                want = opendota_lanes(con)
                got = {r[0]: r[1:] for r in con.execute(
                    "SELECT slot, team, lane, lane_role, is_roaming, samples, lane_samples "
                    "FROM lanes")}
                self.assertEqual(got, want)
                for lane, lane_name, role, role_name in con.execute(
                        "SELECT lane, lane_name, lane_role, role_name FROM lanes"):
                    self.assertEqual(lane_name, [None, "bot", "mid", "top", "radiant_jungle",
                                                 "dire_jungle"][lane or 0])
                    self.assertEqual(role_name, [None, "safe", "mid", "off", "jungle"][role or 0])
        self.assertEqual(len(opendota_lanes(connect(need(AUTO)))), 10)

    def test_hero_deaths_are_the_life_states_spans(self):
        for name, con in self.indexes():
            with self.subTest(name):
                rows = con.execute("SELECT tick, slot, life_state, respawn_tick FROM hero_deaths "
                                   "ORDER BY tick, slot").fetchall()
                self.assertEqual(rows, sorted(life_spans(con)))

    def test_pauses_are_the_pause_flags_spans_and_who_paused(self):
        for name, con in self.indexes():
            with self.subTest(name):
                rows = con.execute("SELECT tick, end_tick, slot FROM pauses ORDER BY id")
                self.assertEqual(rows.fetchall(), pause_spans(con))

    def test_ability_and_item_uses_are_the_combat_logs_rows(self):
        for name, con in self.indexes():
            with self.subTest(name):
                for table, kind in (("ability_uses", 5), ("item_uses", 6)):
                    what = "ability" if kind == 5 else "item"
                    rows = con.execute("SELECT tick, slot, %s, target, target_hero, "
                                       "target_illusion FROM %s ORDER BY id" % (what, table))
                    self.assertEqual(rows.fetchall(), uses(con, kind), table)

    def test_actions_are_absent_without_the_spectator_orders_and_meta_says_so(self):
        for stem in (AUTO, NEKIT):
            con = connect(need(stem))
            self.assertEqual(con.execute("SELECT count(*) FROM actions").fetchone()[0], 0)
            meta = dict(con.execute("SELECT key, value FROM meta"))
            self.assertEqual(int(meta["unit_orders"]), 0)
            self.assertEqual([r[1] for r in con.execute("SELECT slot, actions FROM apm")],
                             [0] * con.execute("SELECT count(*) FROM players").fetchone()[0])

    def test_every_dota_index_has_the_tables_views_and_names(self):
        for name, con in self.indexes():
            with self.subTest(name):
                for table in TABLES + VIEWS:
                    con.execute("SELECT count(*) FROM %s" % table).fetchone()
                for table, n in NAME_TABLES.items():
                    self.assertEqual(con.execute("SELECT count(*) FROM %s" % table).fetchone()[0],
                                     n, table)


class SyntheticTruth(unittest.TestCase):
    """The tables against what gem-synth wrote."""

    def test_lanes_are_the_lanes_played_and_the_roamer_roams(self):
        con, truth, _, _ = synthetic()
        rows = {r[0]: r[1:] for r in con.execute("SELECT slot, lane, is_roaming FROM lanes")}
        self.assertEqual(len(rows), 10)
        for t in truth["lane"]:
            if t["roaming"]:
                self.assertEqual(rows[t["slot"]][1], 1, t)
            else:
                self.assertEqual(rows[t["slot"]], (t["lane"], 0), t)

    def test_laning_is_each_player_at_ten_minutes_and_against_the_lane_opponent(self):
        con, truth, _, _ = synthetic()
        want, at10 = expected_laning(con, truth)
        self.assertEqual(len(at10), 10)
        rows = con.execute("SELECT slot, tick, lane, is_roaming, %s, opponent_slot, %s FROM "
                           "laning ORDER BY slot" % (", ".join(LANING), ", ".join(
                               c + "_diff" for c in LANING))).fetchall()
        self.assertEqual(len(rows), 10)
        for r in rows:
            tick, lane, roaming, values, rival = want[r[0]]
            self.assertEqual(r[1:4], (tick, lane, roaming))
            self.assertEqual(list(r[4:8]), values)
            self.assertEqual(r[8], rival)
            self.assertEqual(list(r[9:]), [v - at10[rival][c] for v, c in zip(values, LANING)]
                             if rival is not None else [None] * 4)
        self.assertGreater(len([r for r in rows if r[8] is not None]), 5)

    def test_actions_are_the_orders_given_and_apm_their_rate(self):
        con, truth, _, _ = synthetic()
        rows = con.execute("SELECT tick, slot, order_type, units, target_index, ability_id, x, "
                           "y, z, queued, game_time FROM actions ORDER BY id").fetchall()
        want = [(t["tick"], t["slot"], t["order_type"], t["units"], t["target_index"],
                 t["ability_id"], *(None if t[a] is None else f32(t[a]) for a in "xyz"),
                 t["queued"]) for t in truth["order"]]
        self.assertEqual([r[:10] for r in rows], want)
        for r in rows[::97]:
            check_game_time(self, r[10], clock(con, r[0]))
        self.assertTrue(all(v is None or v == f32(v) for r in rows for v in r[6:9]))
        minutes = con.execute("SELECT duration_s / 60.0 FROM match_info").fetchone()[0]
        counts = {}
        for t in truth["order"]:
            counts[t["slot"]] = counts.get(t["slot"], 0) + 1
        apm = {r[0]: r[1:] for r in con.execute("SELECT slot, actions, minutes, apm FROM apm")}
        self.assertEqual(set(apm), set(range(10)))
        for slot, (n, m, rate) in apm.items():
            self.assertEqual((n, m), (counts[slot], minutes))
            self.assertAlmostEqual(rate, counts[slot] / minutes, delta=1e-9)
        by_type = {}
        for t in truth["order"]:
            key = (t["slot"], t["order_type"])
            by_type[key] = by_type.get(key, 0) + 1
        got = {(s, o): (name, n) for s, o, name, n in con.execute(
            "SELECT slot, order_type, order_name, actions FROM actions_by_type")}
        self.assertEqual({k: v[1] for k, v in got.items()}, by_type)
        self.assertEqual(got[(0, 1)][0], "DOTA_UNIT_ORDER_MOVE_TO_POSITION")
        self.assertEqual(got[(0, 16)][0], "DOTA_UNIT_ORDER_PURCHASE_ITEM")

    def test_ability_and_item_uses_are_the_casts_written(self):
        con, _, combat, _ = synthetic()
        names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
        slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
        meta = dict(con.execute("SELECT key, value FROM meta"))
        for table, kind, what in (("ability_uses", 5, "ability"), ("item_uses", 6, "item")):
            want, strays = [], 0
            for c in combat:
                if c.get("type") != kind:
                    continue
                slot = slot_of.get(names.get(c.get("attacker_name")))
                if slot is None:
                    strays += 1
                    continue
                target = names.get(c.get("target_name"))
                want.append((c["tick"], slot, names.get(c.get("inflictor_name")), target,
                             None if target is None else int(bool(c.get("is_target_hero"))),
                             None if target is None else int(bool(c.get("is_target_illusion")))))
            rows = con.execute("SELECT tick, slot, %s, target, target_hero, target_illusion "
                               "FROM %s ORDER BY id" % (what, table)).fetchall()
            self.assertEqual(rows, want, table)
            self.assertEqual(int(meta["%s_uses_without_player" % what]), strays)
            self.assertGreater(len([r for r in rows if r[5] == 1]), 0, "illusions targeted")
        self.assertIn("item_blink", {r[0] for r in con.execute("SELECT item FROM item_uses")})

    def test_multi_kills_and_streaks_are_the_combat_logs_entries(self):
        con, truth, combat, _ = synthetic()
        kills = [(k["tick"], k["killer"], k["victim"]) for k in truth["kill"]]
        for table, kind, rule in (("multi_kills", 15, 0), ("kill_streaks", 16, 1)):
            want = [e + ("combat_log",) for e in streak_entries(con, combat, kind)]
            rows = con.execute("SELECT tick, slot, %s, source FROM %s ORDER BY id" % (
                "kills" if kind == 15 else "streak", table)).fetchall()
            self.assertEqual(rows, want, table)
            self.assertGreater(len(rows), 3, table)
            # gem-synth writes them by the game's rule.
            self.assertEqual([r[:3] for r in rows], rule_streaks(kills)[rule])

    def test_without_the_entries_the_games_rule_makes_them(self):
        con, truth, combat, _ = synthetic(flaws=True, minutes=FLAW_MINUTES)
        self.assertFalse([c for c in combat if c.get("type") in (15, 16)])
        multis, streaks = rule_streaks([(k["tick"], k["killer"], k["victim"])
                                        for k in truth["kill"]])
        self.assertTrue(multis and streaks)
        for table, column, want in (("multi_kills", "kills", multis),
                                    ("kill_streaks", "streak", streaks)):
            rows = con.execute("SELECT tick, slot, %s, source, game_time FROM %s ORDER BY id" %
                               (column, table)).fetchall()
            self.assertEqual([r[:4] for r in rows], [w + ("rule",) for w in want])
            for r in rows:
                check_game_time(self, r[4], clock(con, r[0]))

    def test_hero_deaths_are_the_deaths_written_and_time_dead_their_sum(self):
        con, truth, _, _ = synthetic()
        last = con.execute("SELECT last_tick FROM match_info").fetchone()[0]
        rows = con.execute("SELECT tick, game_time, slot, life_state, respawn_tick, "
                           "respawn_time, seconds_dead FROM hero_deaths "
                           "ORDER BY tick, slot").fetchall()
        # Written as each hero is back (a live index has them then): ids in
        # respawn order, the heroes dead at the end last.
        back = [r[0] for r in con.execute("SELECT coalesce(respawn_tick, 1e18) FROM hero_deaths "
                                          "ORDER BY id")]
        self.assertEqual(back, sorted(back))
        want = sorted((t["tick"], t["slot"], t["respawn_tick"] if t["respawn_tick"] <= last
                       else None) for t in truth["death"])
        self.assertEqual([(r[0], r[2], r[4]) for r in rows], want)
        totals = {}
        for tick, game_time, slot, state, respawn, respawn_time, seconds in rows:
            self.assertEqual(state, 1)
            check_game_time(self, game_time, clock(con, tick))
            if respawn is None:
                self.assertEqual((respawn_time, seconds), (None, None))
                continue
            check_game_time(self, respawn_time, clock(con, respawn))
            self.assertAlmostEqual(seconds, respawn_time - game_time, delta=1e-9)
            totals[slot] = totals.get(slot, 0) + seconds
        deaths = {}
        for t in truth["death"]:
            deaths[t["slot"]] = deaths.get(t["slot"], 0) + 1
        for slot, n, seconds in con.execute("SELECT slot, deaths, seconds_dead FROM time_dead"):
            self.assertEqual(n, deaths.get(slot, 0))
            self.assertAlmostEqual(seconds, totals.get(slot, 0), delta=1e-6)
        self.assertTrue(any(r[4] is None for r in rows), "dead at the end")

    def test_kills_by_kind_and_killed_by_credit_the_damage_source(self):
        con, _, combat, _ = synthetic()
        by_kind, killed_by = death_credits(con, combat)
        self.assertEqual({(s, k): n for s, k, n in con.execute(
            "SELECT slot, kind, kills FROM kills_by_kind")}, by_kind)
        self.assertEqual({(s, k): n for s, k, n in con.execute(
            "SELECT slot, killer, kills FROM killed_by")}, killed_by)
        self.assertTrue({"hero", "lane_creep", "neutral"} <= {k for _, k in by_kind})
        self.assertTrue(any(c.get("will_reincarnate") for c in combat), "the aegis left out")

    def test_gold_and_xp_by_reason_are_the_entries_written(self):
        for flaws, minutes in ((False, 12), (True, FLAW_MINUTES)):
            con, _, combat, _ = synthetic(flaws, minutes)
            names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
            slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
            for view, kind, reason in (("gold_reasons", 8, "gold_reason"),
                                       ("xp_reasons", 10, "xp_reason")):
                want = {}
                for c in combat:
                    slot = slot_of.get(names.get(c.get("target_name")))
                    if c.get("type") != kind or slot is None:
                        continue
                    value = c.get("value", 0)
                    value = value - 2**32 if value >= 2**31 else value
                    s = want.setdefault((slot, c.get(reason)), [0, 0])
                    s[0] += value
                    s[1] += 1
                got = {(r[0], r[1]): [r[3], r[4]] for r in con.execute(
                    "SELECT * FROM %s" % view)}
                self.assertEqual(got, want, view)
            named = dict(((r[0], r[1]), r[2:]) for r in con.execute(
                "SELECT slot, reason, reason_name, gold FROM gold_reasons"))
            # A death's gold is lost: reason 1, negative.
            deaths = [v for (s, r), v in named.items() if r == 1]
            self.assertTrue(deaths)
            self.assertTrue(all(n == "DOTA_ModifyGold_Death" and g < 0 for n, g in deaths))
            self.assertEqual({r[0] for r in con.execute("SELECT reason_name FROM xp_reasons "
                                                        "WHERE reason = 1")},
                             {"DOTA_ModifyXP_HeroKill"})
            if flaws:
                self.assertIsNone(named[(0, 99)][0])
                self.assertIsNone(con.execute("SELECT reason_name FROM xp_reasons WHERE "
                                              "reason = 50").fetchone()[0])

    def test_the_pause_is_the_one_written_with_its_player(self):
        con, truth, _, _ = synthetic()
        teams = dict(con.execute("SELECT slot, team FROM players"))
        rows = con.execute("SELECT tick, end_tick, game_time, duration_s, slot, team "
                           "FROM pauses ORDER BY id").fetchall()
        self.assertEqual([r[:2] + r[3:] for r in rows],
                         [(t["start_tick"], t["end_tick"], 10.0, t["slot"], teams[t["slot"]])
                          for t in truth["pause"]])
        check_game_time(self, rows[0][2], clock(con, rows[0][0]))


class ReadmeQueries(unittest.TestCase):
    """The docs' section on Dota's second questions: each query run on
    the gem-synth match, its answer checked against what gem-synth wrote."""

    def test_every_readme_query_answers_what_was_written(self):
        blocks = docs_sql("dota.md", "## Dota's second questions", "## Lane outcomes")
        self.assertEqual(len(blocks), 8)
        con, truth, combat, _ = synthetic()
        lanes, laning, apm, gold, casts, multis, dead, pauses = (
            con.execute(sql).fetchall() for sql in blocks)
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        teams = dict(con.execute("SELECT slot, team FROM players"))
        names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
        slot_of = {h: s for s, h in heroes.items()}
        # Lanes: OpenDota's rule over the heroes' fields, in team and lane order.
        od = opendota_lanes(con)
        lane_names = [None, "bot", "mid", "top", "radiant_jungle", "dire_jungle"]
        role_names = [None, "safe", "mid", "off", "jungle"]
        self.assertEqual(lanes, [(heroes[s], lane_names[v[1]], role_names[v[2]], v[3]) for s, v
                                 in sorted(od.items(), key=lambda i: (teams[i[0]], i[1][1], i[0]))])
        self.assertEqual(sum(r[3] for r in lanes), 1)
        # Laning at 10:00.
        want, at10 = expected_laning(con, truth)
        self.assertEqual(laning, [
            (heroes[s], heroes.get(w[4]), w[3][0], w[3][1],
             *([w[3][0] - at10[w[4]]["last_hits"], w[3][2] - at10[w[4]]["net_worth"],
                w[3][3] - at10[w[4]]["xp"]] if w[4] is not None else [None] * 3))
            for s, w in sorted(want.items())])
        # APM, floored, and the order given most.
        minutes = con.execute("SELECT duration_s / 60.0 FROM match_info").fetchone()[0]
        order_names = dict(con.execute("SELECT order_type, name FROM unit_order_names"))
        expected = []
        for slot in sorted(heroes):
            mine = [t["order_type"] for t in truth["order"] if t["slot"] == slot]
            most = min(set(mine), key=lambda o: (-mine.count(o), o))
            expected.append((heroes[slot], len(mine), math.floor(len(mine) / minutes),
                             order_names[most]))
        self.assertEqual(apm, expected)
        # Gold by reason, gains only.
        reason_names = dict(con.execute("SELECT reason, name FROM gold_reason_names"))
        sums = {}
        for c in combat:
            slot = slot_of.get(names.get(c.get("target_name")))
            if c.get("type") == 8 and slot is not None:
                v = c.get("value", 0)
                key = (slot, c.get("gold_reason"))
                sums[key] = sums.get(key, 0) + (v - 2**32 if v >= 2**31 else v)
        self.assertEqual(gold, [(heroes[s], reason_names.get(r), g) for (s, r), g in sorted(
            sums.items(), key=lambda i: (i[0][0], -i[1], -1 if i[0][1] is None else i[0][1]))
            if g > 0])
        # The abilities cast most.
        counted = {}
        for c in combat:
            slot = slot_of.get(names.get(c.get("attacker_name")))
            if c.get("type") == 5 and slot is not None:
                key = (slot, names.get(c.get("inflictor_name")))
                counted[key] = counted.get(key, 0) + 1
        top = sorted(counted.items(), key=lambda i: (-i[1], i[0][0], i[0][1] or ""))[:10]
        self.assertEqual(casts, [(heroes[s], a, n) for (s, a), n in top])
        # Multi-kills by size, and the longest streak.
        sizes, longest = {}, {}
        for _, slot, kills in streak_entries(con, combat, 15):
            sizes[(slot, kills)] = sizes.get((slot, kills), 0) + 1
        for _, slot, streak in streak_entries(con, combat, 16):
            longest[slot] = max(longest.get(slot, 0), streak)
        self.assertEqual(multis, [(heroes[s], k, n, longest.get(s))
                                  for (s, k), n in sorted(sizes.items())])
        self.assertTrue(any(r[1] >= 3 for r in multis), "a triple kill")
        # Time dead, hero kills and creeps killed.
        last = con.execute("SELECT last_tick FROM match_info").fetchone()[0]
        by_kind, _ = death_credits(con, combat)
        rows = []
        for slot in sorted(heroes):
            mine = [t for t in truth["death"] if t["slot"] == slot]
            seconds = sum(round(clock(con, t["respawn_tick"]), 3) - round(clock(con, t["tick"]), 3)
                          for t in mine if t["respawn_tick"] <= last)
            creeps = sum(by_kind.get((slot, k), 0) for k in ("lane_creep", "neutral"))
            rows.append((heroes[slot], len(mine), seconds, by_kind.get((slot, "hero")),
                         creeps or None))
        self.assertEqual([r[:2] + r[3:] for r in dead], [r[:2] + r[3:] for r in rows])
        for got, w in zip(dead, rows):
            self.assertAlmostEqual(got[2], w[2], delta=1e-6)
        # The pause and who called it.
        self.assertEqual([(r[1], r[2]) for r in pauses],
                         [(10.0, heroes[t["slot"]]) for t in truth["pause"]])
        check_game_time(self, pauses[0][0], clock(con, truth["pause"][0]["start_tick"]))


class DamagedInput(unittest.TestCase):
    def test_unknown_damaged_and_playerless_orders_are_rows_or_counts(self):
        con, truth, _, _ = synthetic(flaws=True, minutes=FLAW_MINUTES)
        meta = dict(con.execute("SELECT key, value FROM meta"))
        self.assertEqual(int(meta["unit_orders_unknown_type"]), 1)
        self.assertEqual(int(meta["unit_orders_without_player"]), 1)
        self.assertEqual(int(meta["unit_orders_damaged"]), 1)
        self.assertEqual(int(meta["unit_orders"]), len(truth["order"]))
        rows = con.execute("SELECT tick, slot, order_type FROM actions ORDER BY id").fetchall()
        self.assertEqual(rows, [(t["tick"], t["slot"], t["order_type"]) for t in truth["order"]])
        self.assertIn(None, [r[1] for r in rows])
        self.assertIsNone(con.execute("SELECT order_name FROM actions_by_type WHERE order_type = "
                                      "1000").fetchone()[0])


class WithoutTheMatchLayer(unittest.TestCase):
    def test_the_tables_are_empty_and_the_names_whole(self):
        db = os.path.join(TMP, "activity-no-match.db")
        subprocess.run([GEM_INDEX, "--quiet", "--force", "--no-match-layer", replay(), db],
                       check=True)
        con = connect(db)
        for table in TABLES:
            self.assertEqual(con.execute("SELECT count(*) FROM %s" % table).fetchone()[0], 0,
                             table)
        for table, n in NAME_TABLES.items():
            self.assertEqual(con.execute("SELECT count(*) FROM %s" % table).fetchone()[0], n)


if __name__ == "__main__":
    junit.main()
