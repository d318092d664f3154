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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import junit  # noqa: E402
from dota_synth import clock, replay, synthetic  # noqa: E402
from gemtest import (AUTO, GEM_INDEX, NEKIT, TMP, check_game_time,  # noqa: E402
                     connect, f32, need, readme_sql)

FLAW_MINUTES = 3  # long enough for a burst of kills: multi-kills by the rule
TABLES = ["actions", "lanes", "ability_uses", "item_uses", "multi_kills", "kill_streaks",
          "pauses", "hero_deaths"]
NAME_TABLES = {"gold_reason_names": 22, "xp_reason_names": 8, "unit_order_names": 43}
VIEWS = ["apm", "actions_by_type", "gold_reasons", "xp_reasons", "time_dead", "credited_deaths",
         "kills_by_kind", "killed_by", "laning"]
MULTI_KILL_TICKS = 18 * 30
LANING = ["last_hits", "denies", "net_worth", "xp"]


def lane_of_cell(cx, cy):
    """OpenDota's lane map (odota/core laneMappings, as getLaneFromPosData
    reads it: row 192 - y, column x - 64): 1 bot, 2 mid, 3 top, 4 Radiant
    jungle, 5 Dire jungle; 0 off the grid."""
    row, col = 192 - cy, cx - 64
    if not (0 <= row < 128 and 0 <= col < 128):
        return 0
    if abs(row - (127 - col)) < 8:
        return 2
    if col < 27 or row < 27:
        return 3
    if col >= 100 or row >= 100:
        return 1
    if row < 50:
        return 5
    if row >= 77:
        return 4
    return 2


def opendota_lanes(con):
    """{slot: (team, lane, role, roaming, samples, lane_samples)} by
    OpenDota's rule over each timeline sample's hero cell and offset fields
    (cellX + vecX / 128, rounded halves up), game_time <= 600."""
    cells, teams = {}, {}
    for slot, tick, entity, team, game_time in con.execute(
            "SELECT slot, tick, entity, team, game_time FROM timeline ORDER BY slot, tick"):
        if game_time is None or game_time > 600:
            continue
        cells.setdefault(slot, {})
        if team is not None:
            teams[slot] = team
        v = [con.execute("SELECT gem_value(?, ?, ?)", (entity, "CBodyComponent.m_" + f, tick))
             .fetchone()[0] for f in ("cellX", "vecX", "cellY", "vecY")]
        if entity is None or None in v:
            continue
        key = (math.floor(v[0] + v[1] / 128 + 0.5), math.floor(v[2] + v[3] / 128 + 0.5))
        cells[slot][key] = cells[slot].get(key, 0) + 1
    out = {}
    for slot, counted in cells.items():
        lanes = []
        for (cx, cy) in sorted(counted):
            lane = lane_of_cell(cx, cy)
            if lane:
                lanes += [lane] * counted[(cx, cy)]
        seen, best, mode = {}, 0, None
        for lane in lanes:
            seen[lane] = seen.get(lane, 0) + 1
            if seen[lane] > best:
                best, mode = seen[lane], lane
        team = teams.get(slot)
        role = None
        if mode and team in (2, 3):
            role = {1: 1 if team == 2 else 3, 2: 2, 3: 3 if team == 2 else 1, 4: 4, 5: 4}[mode]
        roaming = None if mode is None else int(best / len(lanes) < 0.45)
        out[slot] = (team, mode, role, roaming, len(lanes), best if mode else None)
    return out


def life_spans(con):
    """[(tick, slot, state, respawn_tick)] from each hero's m_lifeState
    changes after its creation: a span opens when it leaves 0, closes when
    it is 0 again."""
    spans = []
    for slot, entity in con.execute("SELECT DISTINCT slot, entity FROM timeline "
                                    "WHERE entity IS NOT NULL ORDER BY slot, entity"):
        created = con.execute("SELECT created_tick FROM entities WHERE entity = ?",
                              (entity,)).fetchone()[0]
        open_ = None
        for tick, value in con.execute("SELECT tick, value FROM gem_changes WHERE entity = ? "
                                       "AND field = 'm_lifeState' ORDER BY tick", (entity,)):
            if tick <= created:
                continue
            if value != 0 and open_ is None:
                open_ = (tick, value)
            elif value == 0 and open_ is not None:
                spans.append((open_[0], slot, open_[1], tick))
                open_ = None
        if open_ is not None:
            spans.append((open_[0], slot, open_[1], None))
    return sorted(spans)


def pause_spans(con):
    """[(tick, end_tick, slot)]: the game rules' m_bGamePaused spans,
    each with the player of the last CHAT_MESSAGE_PAUSED before its end
    and after the pause before."""
    rules = con.execute("SELECT entity FROM entities JOIN classes USING (class_id) "
                        "WHERE name = 'CDOTAGamerulesProxy'").fetchone()
    if rules is None:
        return []
    paused = [(t, p[0] if p and p[0] >= 0 else None) for t, p in (
        (t, [int(x) for x in ids.strip("[]").split(",")]) for t, ids in con.execute(
            "SELECT tick, player_ids FROM chat_events WHERE type = 34 ORDER BY id"))]
    spans, start, last_end = [], None, -1
    for tick, value in con.execute("SELECT tick, value FROM gem_changes WHERE entity = ? AND "
                                   "field = 'm_pGameRules.m_bGamePaused' ORDER BY tick", rules):
        if value and start is None:
            start = tick
        elif not value and start is not None:
            by = [p for t, p in paused if last_end < t <= tick]
            spans.append((start, tick, by[-1] if by else None))
            start, last_end = None, tick
    if start is not None:
        by = [p for t, p in paused if t > last_end]
        spans.append((start, None, by[-1] if by else None))
    return spans


def uses(con, kind):
    """[(tick, slot, inflictor, target, target_hero, target_illusion)]:
    the combat log's rows of `kind` (5 abilities, 6 items) whose attacker
    is a player's hero."""
    return con.execute(
        "SELECT c.tick, p.slot, i.name, t.name, CASE WHEN t.name IS NULL THEN NULL ELSE "
        "coalesce(c.is_target_hero, 0) END, CASE WHEN t.name IS NULL THEN NULL ELSE "
        "coalesce(c.is_target_illusion, 0) END FROM combat_log_entries c "
        "JOIN combat_log_names a ON a.idx = c.attacker_name_idx "
        "JOIN players p ON p.hero = a.name "
        "LEFT JOIN combat_log_names i ON i.idx = c.inflictor_name_idx "
        "LEFT JOIN combat_log_names t ON t.idx = c.target_name_idx "
        "WHERE c.type = ? ORDER BY c.id", (kind,)).fetchall()


def rule_streaks(kills):
    """The game's rule over [(tick, killer, victim)] in order: multi-kill
    rows (tick, slot, kills) from a multi-kill's second kill (kills 18 s or
    less apart) and streak rows (tick, slot, streak) from a streak's third
    kill (reset when the player dies)."""
    last, multi, streak, multis, streaks = {}, {}, {}, [], []
    for tick, killer, victim in kills:
        streak[victim] = 0
        if killer in last and tick - last[killer] <= MULTI_KILL_TICKS:
            multi[killer] += 1
        else:
            multi[killer] = 1
        last[killer] = tick
        streak[killer] = streak.get(killer, 0) + 1
        if multi[killer] >= 2:
            multis.append((tick, killer, multi[killer]))
        if streak[killer] >= 3:
            streaks.append((tick, killer, streak[killer]))
    return multis, streaks


def kind_of(name, illusion):
    """OpenDota's tests of a `killed` key (odota/core computeMatchData)."""
    if name.startswith("npc_dota_hero"):
        return "illusion" if illusion else "hero"
    for kind, parts in (("lane_creep", ["creep_goodguys", "creep_badguys"]),
                        ("observer", ["observer"]), ("sentry", ["sentry"]),
                        ("tower", ["_tower"]), ("barracks", ["_rax_"]), ("fort", ["_fort"]),
                        ("courier", ["courier"]), ("roshan", ["roshan"]),
                        ("necronomicon", ["necronomicon"])):
        if any(p in name for p in parts):
            return kind
    return "neutral" if name.startswith("npc_dota_neutral") else "other"


def death_credits(con, combat):
    """(kills_by_kind, killed_by) as dicts, from the combat truth's deaths
    by OpenDota's handleDeathCombat: reincarnations and suicides left out,
    the damage source credited."""
    names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
    slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
    by_kind, killed_by = {}, {}
    for c in combat:
        if c.get("type") != 4 or c.get("will_reincarnate"):
            continue
        target, source = names.get(c.get("target_name")), names.get(c.get("damage_source_name"))
        if target is None or source is None:
            continue
        if names.get(c.get("attacker_name")) == target and not c.get("is_attacker_illusion"):
            continue
        if source in slot_of and target != source:
            key = (slot_of[source], kind_of(target, c.get("is_target_illusion")))
            by_kind[key] = by_kind.get(key, 0) + 1
        if target in slot_of and c.get("is_target_hero") and not c.get("is_target_illusion"):
            key = (slot_of[target], source)
            killed_by[key] = killed_by.get(key, 0) + 1
    return by_kind, killed_by


def expected_laning(con, truth):
    """{slot: (tick, lane, roaming, [last_hits, denies, net_worth, xp],
    opponent)} at the timeline's last sample by 10:00, from gem-synth's
    player truth there and the lanes table."""
    tick = con.execute("SELECT max(tick) FROM timeline WHERE game_time <= 600").fetchone()[0]
    at10 = {p["slot"]: p for p in truth["player"] if p["tick"] == tick}
    lanes = {r[0]: r[1:] for r in con.execute("SELECT slot, team, lane, is_roaming FROM lanes")}
    out = {}
    for slot, (team, lane, roaming) in lanes.items():
        rivals = [s for s, (t, ln, ro) in lanes.items()
                  if t != team and ln == lane and lane in (1, 2, 3) and not ro and not roaming]
        rival = min(rivals, key=lambda s: (-at10[s]["net_worth"], s)) if rivals else None
        out[slot] = (tick, lane, roaming, [at10[slot][c] for c in LANING], rival)
    return out, at10


def streak_entries(con, combat, kind):
    """[(tick, slot, value)] of the combat truth's entries of `kind` (15
    multi-kills, 16 streaks)."""
    names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
    slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
    return [(c["tick"], slot_of[names[c["attacker_name"]]], c["value"])
            for c in combat if c.get("type") == kind]


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
                                   "ORDER BY id").fetchall()
                self.assertEqual(rows, life_spans(con))

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
                           "respawn_time, seconds_dead FROM hero_deaths ORDER BY id").fetchall()
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
    """The README's section on Dota's second questions: each query run on
    the gem-synth match, its answer checked against what gem-synth wrote."""

    def test_every_readme_query_answers_what_was_written(self):
        blocks = readme_sql("## Dota's second questions", "## CS2 as analysts read it")
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
