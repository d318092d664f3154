"""Dota's analyst tables (core/dota/) end to end.

On a gem-synth match (a captains' draft, purchases and the items they put in
the heroes' slots, ability levels, buildings, Roshan, the aegis, runes,
buybacks, kill bursts; tools/synth/*.h) every row must equal what gem-synth
wrote, value by value, and the teamfights what OpenDota's rule makes of the
kills and the combat log gem-synth wrote (computed here, apart). On the real
fixtures inventory and abilities must equal what gem_state says of the
heroes' handles and the entities they name at every tick where those
change, and nekit's draft the bans its chat events and its game rules name.
A replay with damaged names and handles gives NULLs and counts, not a crash
or a dropped row."""
import os
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import dota_synth  # noqa: E402
import junit  # noqa: E402
import match_expect  # noqa: E402
from dota_synth import clock, position  # noqa: E402
from gemtest import (AUTO, GEM_INDEX, MODERN, NEKIT, TMP,  # noqa: E402
                     check_game_time, connect, f32, need, docs_sql)

DOTA_TABLES = ["purchases", "inventory", "abilities", "objectives", "runes", "buybacks", "draft",
               "teamfights", "teamfight_players", "combat_log_entries", "combat_log_names",
               "combat_log_types", "chat_events", "file_info_players"]


def synthetic(flaws=False):
    """The 12-minute match (3 minutes with flaws): dota_synth.synthetic."""
    return dota_synth.synthetic(flaws, dota_synth.FLAW_MINUTES if flaws else dota_synth.MINUTES)


def expected_fights(con, truth, combat):
    """OpenDota's teamfights over the kills and combat log gem-synth wrote:
    [((start_tick, end_tick, deaths, x, y, start_clamped, start_time),
    {slot: [deaths, damage, healing, gold, xp]})]. A fight whose 15 s
    before its first death begin before the replay starts at its first
    tick, flagged, and its start_time is the clock there; another's is its
    first death's clock less 15 s."""
    names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
    slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
    first, last = con.execute("SELECT first_tick, last_tick FROM match_info").fetchone()
    deaths = [(k["tick"], k["victim"], position(k)) for k in truth["kill"]]
    cooldown = 15 * 30
    want, i = [], 0
    while i < len(deaths):
        j = i + 1
        while j < len(deaths) and deaths[j][0] - deaths[j - 1][0] <= cooldown:
            j += 1
        if j - i >= 3:
            start = max(deaths[i][0] - cooldown, first)
            clamped = int(deaths[i][0] - cooldown < first)
            end = min(deaths[j - 1][0] + cooldown, max(deaths[j - 1][0], last))
            players = {s: [0, 0, 0, 0, 0] for s in range(10)}
            for d in deaths[i:j]:
                players[d[1]][0] += 1
            for c in combat:
                if not start <= c["tick"] <= end:
                    continue
                kind, value = c.get("type"), c.get("value", 0)
                if kind in (0, 1) and c.get("is_target_hero") and not c.get("is_target_illusion"):
                    slot = slot_of.get(names.get(c.get("damage_source_name")))
                    column = 1 if kind == 0 else 2
                elif kind in (8, 10):
                    slot = slot_of.get(names.get(c.get("target_name")))
                    column = 3 if kind == 8 else 4
                    value = value - 2**32 if value >= 2**31 else value
                else:
                    continue
                if slot is not None:
                    players[slot][column] += value
            xs = [d[2][0] for d in deaths[i:j]]
            ys = [d[2][1] for d in deaths[i:j]]
            start_time = clock(con, start) if clamped else clock(con, deaths[i][0]) - 15
            want.append(((start, end, j - i, sum(xs) / len(xs), sum(ys) / len(ys), clamped,
                          start_time), players))
        i = j
    return want


class SyntheticTables(unittest.TestCase):
    def test_purchases_are_the_combat_logs_purchases_recipes_and_starting_items_too(self):
        con, truth, _, counts = synthetic()
        rows = con.execute("SELECT tick, game_time, slot, item FROM purchases ORDER BY id").fetchall()
        want = [(t["tick"], t["slot"], t["item"]) for t in truth["purchase"]]
        self.assertEqual([(r[0], r[2], r[3]) for r in rows], want)
        self.assertEqual(len(rows), counts["purchases"])
        for tick, game_time, _, _ in rows:
            check_game_time(self, game_time, clock(con, tick))
        self.assertTrue(any(r[1] < 0 for r in rows), "starting items, bought before the horn")
        self.assertTrue(any(r[3] == "item_recipe_magic_wand" for r in rows))

    def test_inventory_is_every_change_of_a_heros_item_slots(self):
        con, truth, _, _ = synthetic()
        rows = con.execute(
            "SELECT i.tick, slot, position, item, charges, e.ent_index, e.serial, game_time "
            "FROM inventory i LEFT JOIN entities e USING (entity) ORDER BY i.id").fetchall()
        want = [(t["tick"], t["slot"], t["position"], t["item"], t["charges"], t["index"],
                 t["serial"]) for t in truth["inventory"]]
        self.assertEqual(sorted(r[:7] for r in rows), sorted(want))
        # (The fixture's first packet keeps the fixture's own clock.)
        first = con.execute("SELECT first_tick FROM match_info").fetchone()[0]
        for r in rows:
            if r[0] > first:
                check_game_time(self, r[7], clock(con, r[0]))
        # An item bought lands in a slot at its tick, or goes into a wand;
        # not when the hero's 15 slots are full, nor when it is sold or
        # used up in the packet it was bought in (gem-synth writes that
        # packet's end state).
        bought = [(t["tick"], t["slot"], t["item"]) for t in truth["purchase"]
                  if t["item"] != "item_recipe_magic_wand"]
        held = {(r[0], r[1], r[3]) for r in rows}
        landed = len([b for b in bought if b in held])
        self.assertGreater(landed, 0.9 * len(bought))
        self.assertIn("item_magic_wand", {r[3] for r in rows})
        self.assertTrue(any(r[3] is None for r in rows), "items used up, sold or moved")

    def test_abilities_are_every_change_of_a_heros_abilities(self):
        con, truth, _, counts = synthetic()
        rows = con.execute(
            "SELECT a.tick, slot, position, ability, level, e.ent_index, e.serial "
            "FROM abilities a LEFT JOIN entities e USING (entity) ORDER BY a.id").fetchall()
        want = [(t["tick"], t["slot"], t["position"], t["ability"], t["level"], t["index"],
                 t["serial"]) for t in truth["ability"]]
        self.assertEqual(sorted(rows), sorted(want))
        first = con.execute("SELECT first_tick FROM match_info").fetchone()[0]
        self.assertEqual(len([r for r in rows if r[0] > first]), counts["level_ups"])
        self.assertEqual(len({r[1] for r in rows}), 10)

    def test_objectives_are_the_buildings_roshan_and_events_written(self):
        con, truth, _, counts = synthetic()
        rows = con.execute("SELECT tick, kind, team, by_team, slot, target, value, x, y, z "
                           "FROM objectives ORDER BY id").fetchall()
        want = [(t["tick"], t["objective"], t["team"], t["by_team"], t["slot"], t["target"],
                 t["value"], *position(t)) for t in truth["objective"]]
        self.assertEqual(rows, want)
        self.assertEqual(len(rows), counts["objectives"])
        kinds = {r[1] for r in rows}
        self.assertTrue({"tower", "roshan", "aegis", "tormentor", "courier",
                         "first_blood"} <= kinds, kinds)
        self.assertTrue(all(r[7] is not None for r in rows if r[1] in ("tower", "barracks")))

    def test_a_death_the_aegis_undoes_is_no_kill(self):
        con, truth, combat, _ = synthetic()
        saved = [c for c in combat if c.get("type") == 4 and c.get("will_reincarnate")]
        self.assertTrue(saved)
        names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
        slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
        for c in saved:
            victim = slot_of[names[c["target_name"]]]
            self.assertIsNone(con.execute("SELECT id FROM kills WHERE tick = ? AND victim = ?",
                                          (c["tick"], victim)).fetchone())
        self.assertEqual(con.execute("SELECT count(*) FROM kills").fetchone()[0],
                         len(truth["kill"]))

    def test_runes_and_buybacks_are_the_ones_written(self):
        con, truth, _, _ = synthetic()
        names = ["double_damage", "haste", "illusion", "invisibility", "regeneration", "bounty",
                 "arcane", "water", "wisdom", "shield"]
        rows = con.execute("SELECT tick, slot, rune, rune_type, bottled FROM runes ORDER BY id")
        self.assertEqual(rows.fetchall(), [(t["tick"], t["slot"], names[t["rune_type"]],
                                            t["rune_type"], t["bottled"]) for t in truth["rune"]])
        self.assertGreater(len(truth["rune"]), 5)
        rows = con.execute("SELECT tick, slot FROM buybacks ORDER BY id").fetchall()
        self.assertEqual(rows, [(t["tick"], t["slot"]) for t in truth.get("buyback", [])])

    def test_draft_is_the_captains_draft_written(self):
        con, truth, _, _ = synthetic()
        rows = con.execute("SELECT ord, tick, team, is_pick, hero_id, slot, source, hero "
                           "FROM draft ORDER BY ord").fetchall()
        want = [(t["ord"], t["tick"], t["team"], t["is_pick"], t["hero_id"], t["slot"])
                for t in truth["draft"]]
        self.assertEqual([r[:6] for r in rows], want)
        self.assertEqual(len(rows), 24)
        self.assertEqual({r[6] for r in rows}, {"game_rules"})
        # A pick's hero is the hero its player plays.
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        for r in rows:
            if r[3]:
                self.assertEqual(r[7], heroes[r[5]])
            self.assertTrue(r[7].startswith("npc_dota_hero_"))
        meta = dict(con.execute("SELECT key, value FROM meta"))
        self.assertEqual(int(meta["draft_file_info_entries"]), 24)
        self.assertEqual(int(meta["draft_file_info_mismatches"]), 0)

    def test_teamfights_follow_opendotas_rule_over_what_was_written(self):
        con, truth, combat, _ = synthetic()
        want = expected_fights(con, truth, combat)
        fights = con.execute("SELECT id, start_tick, end_tick, deaths, x, y, start_clamped, "
                             "start_time FROM teamfights ORDER BY id").fetchall()
        self.assertGreater(len(fights), 1)
        self.assertEqual(len(fights), len(want))
        for (fight, players), row in zip(want, fights):
            self.assertEqual(row[1:4], fight[:3])
            self.assertAlmostEqual(row[4], fight[3], delta=1e-6)
            self.assertAlmostEqual(row[5], fight[4], delta=1e-6)
            self.assertEqual(row[6], fight[5])
            check_game_time(self, row[7], fight[6])
            got = {s: list(r) for s, *r in con.execute(
                "SELECT slot, deaths, damage, healing, gold_delta, xp_delta FROM "
                "teamfight_players WHERE id = ?", (row[0],))}
            self.assertEqual(got, players)
        self.assertTrue(any(p[3] < 0 for _, ps in want for p in ps.values()),
                        "a death's gold loss counts against it")

    def test_the_timelines_new_columns_are_the_fields_written(self):
        con, truth, _, _ = synthetic()
        columns = ["earned_gold", "stuns", "camps_stacked", "creeps_stacked",
                   "teamfight_participation"]
        for p in truth["player"]:
            row = con.execute("SELECT %s FROM timeline WHERE tick = ? AND slot = ?" %
                              ", ".join(columns), (p["tick"], p["slot"])).fetchone()
            self.assertEqual([f32(v) if isinstance(v, float) else v for v in row],
                             [f32(p[c]) if isinstance(p[c], float) else p[c] for c in columns],
                             "tick %d slot %d" % (p["tick"], p["slot"]))
        self.assertGreater(con.execute("SELECT max(stuns) FROM timeline").fetchone()[0], 0)

    def test_damage_healing_and_hero_hits_credit_the_damage_source(self):
        con, _, combat, _ = synthetic()
        names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
        slot_of = {h: s for s, h in con.execute("SELECT slot, hero FROM players")}
        sums = {"damage": {}, "healing": {}, "hero_hits": {}}
        for c in combat:
            slot = slot_of.get(names.get(c.get("damage_source_name")))
            if slot is None or c.get("type") not in (0, 1):
                continue
            target = names.get(c.get("target_name"))
            view = "damage" if c["type"] == 0 else "healing"
            key = (slot, target, int(bool(c.get("is_target_hero"))),
                   int(bool(c.get("is_target_illusion"))))
            s = sums[view].setdefault(key, [0, 0])
            s[0] += c["value"]
            s[1] += 1
            if view == "damage" and key[2] == 1 and key[3] == 0:
                h = sums["hero_hits"].setdefault(
                    (slot, target, names.get(c.get("inflictor_name"))), [0, 0])
                h[0] += 1
                h[1] += c["value"]
        for view in ("damage", "healing"):
            got = {tuple(r[:4]): list(r[4:]) for r in con.execute(
                "SELECT slot, target, target_hero, target_illusion, %s, hits FROM %s" %
                (view, view))}
            self.assertEqual(got, sums[view], view)
        got = {tuple(r[:3]): list(r[3:]) for r in con.execute(
            "SELECT slot, target, inflictor, hits, damage FROM hero_hits")}
        self.assertEqual(got, sums["hero_hits"])
        self.assertTrue(any(k[3] == 1 for k in sums["damage"]), "illusions told apart")


class ReadmeQueries(unittest.TestCase):
    """The docs' Dota SQL (its section on Dota as analysts read it), each
    block run on the gem-synth match and its answer checked against what
    gem-synth wrote."""

    def test_every_readme_dota_query_answers_what_was_written(self):
        blocks = docs_sql("dota.md", "## Dota as analysts read it", "## Dota's second questions")
        self.assertEqual(len(blocks), 8)
        con, truth, combat, _ = synthetic()
        series, timings, skills, inventory, towers, draft, damage, fights = (
            con.execute(sql).fetchall() for sql in blocks)
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        slot_of_hero = {h: s for s, h in heroes.items()}
        # Per-minute series: each slot's first sample of each game minute.
        first = {}
        for slot, tick, game_time, gold, xp, lh, dn in con.execute(
                "SELECT slot, tick, game_time, earned_gold, xp, last_hits, denies FROM timeline "
                "ORDER BY tick"):
            if game_time >= 0:
                first.setdefault((slot, int(game_time // 60)), (tick, gold, xp, lh, dn))
        self.assertEqual({(r[0], r[1]): r[2:] for r in series},
                         {k: v[1:] for k, v in first.items()})
        self.assertGreaterEqual(max(r[1] for r in series), 10)
        players = {(p["tick"], p["slot"]): p for p in truth["player"]}
        matched = 0
        for (slot, minute), (tick, *values) in first.items():
            if (tick, slot) in players:
                p = players[(tick, slot)]
                self.assertEqual(values, [p["earned_gold"], p["xp"], p["last_hits"], p["denies"]])
                matched += 1
        self.assertGreater(matched, 20)
        # Item timings: the first purchase of each item, recipes left out.
        want = {}
        for t in truth["purchase"]:
            if t["item"].startswith("item_recipe_"):
                continue
            key = (heroes[t["slot"]], t["item"])
            first_time, n = want.get(key, (None, 0))
            want[key] = (first_time if first_time is not None else clock(con, t["tick"]), n + 1)
        got = {(h, item): (when, n) for h, item, when, n in timings}
        self.assertEqual(set(got), set(want))
        for key, (when, n) in want.items():
            check_game_time(self, got[key][0], when)
            self.assertEqual(got[key][1], n)
        # The skill build: every level gained after the ability's first row
        # (the levels a hero starts with are not points spent).
        level = {}
        gained = []
        for t in sorted(truth["ability"], key=lambda t: t["tick"]):
            if t["ability"] is None:
                continue
            key = (t["slot"], t["ability"])
            if key in level and t["level"] > level[key]:
                gained.append((t["slot"], t["ability"], t["level"]))
            level[key] = t["level"]
        self.assertEqual(sorted((r[0], r[2], r[3]) for r in skills), sorted(gained))
        self.assertGreater(len([g for g in gained if g[2] >= 2]), 0)
        first = {}
        for t in truth["ability"]:
            first.setdefault((t["slot"], t["ability"]), t["level"])
        self.assertTrue(any(v >= 1 for v in first.values()), "abilities that start learned")
        # The inventory at minute 10: each slot's last change by then.
        cut = con.execute("SELECT max(tick) FROM timeline WHERE game_time <= 600").fetchone()[0]
        last = {}
        for t in truth["inventory"]:
            if t["tick"] <= cut and t["position"] <= 5:
                last[(t["slot"], t["position"])] = (t["item"], t["charges"])
        self.assertEqual(sorted(inventory), sorted(
            (heroes[s], pos, item, charges) for (s, pos), (item, charges) in last.items()
            if item is not None))
        # Towers taken per team.
        taken = {}
        for t in truth["objective"]:
            if t["objective"] == "tower" and t["by_team"] != t["team"]:
                taken[t["by_team"]] = taken.get(t["by_team"], 0) + 1
        self.assertEqual(dict(towers), taken)
        self.assertTrue(taken)
        # The draft.
        names = {2: "radiant", 3: "dire"}
        self.assertEqual([(r[0], r[1], r[2], r[4]) for r in draft],
                         [(t["ord"], names[t["team"]], "pick" if t["is_pick"] else "ban",
                           t["slot"]) for t in truth["draft"]])
        self.assertTrue(all(r[3] == heroes[r[4]] for r in draft if r[2] == "pick"))
        # Damage to real heroes, by damage source.
        combat_names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
        sums = {}
        for c in combat:
            source = combat_names.get(c.get("damage_source_name"))
            target = combat_names.get(c.get("target_name"))
            if (c.get("type") == 0 and source in slot_of_hero and c.get("is_target_hero") and
                    not c.get("is_target_illusion") and target != source):
                sums[source] = sums.get(source, 0) + c["value"]
        self.assertEqual(dict(damage), sums)
        # The teamfights, and the gold each side gained in them.
        teams = dict(con.execute("SELECT slot, team FROM players"))
        want = expected_fights(con, truth, combat)
        self.assertEqual(len(fights), len(want))
        for row, ((start, end, deaths, x, y, _, _), ps) in zip(fights, want):
            self.assertEqual(row[3], deaths)
            self.assertAlmostEqual(row[4], x, delta=1e-6)
            self.assertEqual(row[6], sum(p[3] for s, p in ps.items() if teams[s] == 2))
            self.assertEqual(row[7], sum(p[3] for s, p in ps.items() if teams[s] == 3))


class FixtureTables(unittest.TestCase):
    def test_every_dota_index_has_the_tables_and_other_games_none(self):
        for stem in MODERN:
            with self.subTest(stem):
                con = connect(need(stem))
                tables = {r[0] for r in con.execute("SELECT name FROM sqlite_schema")}
                if stem.startswith("dota2"):
                    self.assertTrue(set(DOTA_TABLES) <= tables, set(DOTA_TABLES) - tables)
                    for view in ("damage", "healing", "hero_hits", "combat_log"):
                        con.execute("SELECT count(*) FROM %s" % view).fetchone()
                else:
                    # CS2 has no game tables of these names; Deadlock has its
                    # own inventory and abilities (core/deadlock/loadout.h),
                    # purchases, objectives and teamfights (boon's rule:
                    # core/deadlock/teamfights.h).
                    own = {"inventory", "abilities", "purchases", "objectives", "teamfights"} \
                        if stem.startswith("deadlock") else set()
                    self.assertEqual(set(DOTA_TABLES) & tables, own)

    def test_auto_inventory_and_abilities_equal_the_heroes_handles_at_every_change(self):
        con = connect(need(AUTO))
        players = con.execute("SELECT slot, pawn FROM players ORDER BY slot").fetchall()
        self.assertEqual(len(players), 10)
        for table, array, value, column, value_column in (
                ("inventory", "m_hItems", "m_iCurrentCharges", "item", "charges"),
                ("abilities", "m_hAbilities", "m_iLevel", "ability", "level")):
            checked = match_expect.check_held(self, con, table, players, array, [value], column,
                                              value_column)
            self.assertGreater(checked, 100)
            n = con.execute("SELECT count(DISTINCT slot) FROM %s WHERE tick <= 0" %
                            table).fetchone()[0]
            self.assertEqual(n, 10, "%s: ten heroes start with them" % table)
        self.assertGreater(con.execute("SELECT count(*) FROM inventory WHERE item = "
                                       "'item_tpscroll' AND position = 15").fetchone()[0], 5)

    def test_nekit_draft_holds_the_bans_its_chat_events_and_rules_name(self):
        con = connect(need(NEKIT))
        bans = [r[0] for r in con.execute(
            "SELECT hero_id FROM draft WHERE is_pick = 0 ORDER BY ord")]
        chat = [r[0] for r in con.execute(
            "SELECT value FROM chat_events WHERE type_name = 'CHAT_MESSAGE_HERO_BANNED' "
            "ORDER BY id")]
        last = con.execute("SELECT last_tick FROM match_info").fetchone()[0]
        rules = con.execute("SELECT entity FROM entities JOIN classes USING (class_id) "
                            "WHERE name = 'CDOTAGamerulesProxy'").fetchone()[0]
        f = match_expect.Fields(con)
        n = f.value(rules, "m_pGameRules.m_vecNewBannedHeroes", last)
        listed = [f.value(rules, "m_pGameRules.m_vecNewBannedHeroes.%04d" % i, last)
                  for i in range(n)]
        self.assertEqual(len(bans), 17)
        self.assertEqual(bans, chat)
        self.assertEqual(bans, listed)
        # Each ban's tick is the chat event's.
        self.assertEqual([r[0] for r in con.execute(
            "SELECT tick FROM draft WHERE is_pick = 0 ORDER BY ord")],
            [r[0] for r in con.execute("SELECT tick FROM chat_events WHERE type_name = "
                                       "'CHAT_MESSAGE_HERO_BANNED' ORDER BY id")])
        names = {r[0] for r in con.execute("SELECT hero FROM draft")}
        self.assertNotIn(None, names)


class WithoutTheMatchLayer(unittest.TestCase):
    def test_analyst_tables_are_empty_and_the_games_messages_whole(self):
        con, _, combat, _ = synthetic()
        dem = dota_synth.replay()
        db = os.path.join(TMP, "dota-plain-no-match.db")
        subprocess.run([GEM_INDEX, "--quiet", "--force", "--no-match-layer", dem, db], check=True)
        plain = connect(db)
        for table in ("purchases", "inventory", "abilities", "objectives", "runes", "buybacks",
                      "draft", "teamfights", "teamfight_players", "timeline", "kills"):
            self.assertEqual(plain.execute("SELECT count(*) FROM %s" % table).fetchone()[0], 0,
                             table)
        for table in ("combat_log_entries", "combat_log_names", "chat_events"):
            n = con.execute("SELECT count(*) FROM %s" % table).fetchone()[0]
            self.assertGreater(n, 0, table)
            self.assertEqual(plain.execute("SELECT count(*) FROM %s" % table).fetchone()[0], n)
        self.assertEqual(plain.execute("SELECT count(*) FROM combat_log").fetchone()[0],
                         len(combat))


class DamagedInput(unittest.TestCase):
    def test_names_and_handles_that_name_nothing_are_nulls_and_counts(self):
        con, truth, _, _ = synthetic(flaws=True)
        meta = dict(con.execute("SELECT key, value FROM meta"))
        self.assertEqual(int(meta["purchases_without_item"]), 1)
        self.assertGreaterEqual(int(meta["combat_log_unresolved_names"]), 1)
        self.assertGreaterEqual(int(meta["inventory_missing_entities"]), 1)
        self.assertGreaterEqual(int(meta["inventory_unnamed_entities"]), 1)
        # Every purchase is a row, the damaged one with no item.
        rows = con.execute("SELECT tick, slot, item FROM purchases ORDER BY id").fetchall()
        self.assertEqual(rows, [(t["tick"], t["slot"], t["item"]) for t in truth["purchase"]])
        self.assertIn(None, [r[2] for r in rows])
        # The unnamed item is a row: no name, its charges and entity.
        self.assertEqual(con.execute("SELECT count(*) FROM inventory WHERE item IS NULL AND "
                                     "entity IS NOT NULL AND charges = 2").fetchone()[0], 1)
        rows = con.execute("SELECT i.tick, slot, position, item, charges, e.ent_index, e.serial "
                           "FROM inventory i LEFT JOIN entities e USING (entity)").fetchall()
        self.assertEqual(sorted(rows), sorted(
            (t["tick"], t["slot"], t["position"], t["item"], t["charges"], t["index"],
             t["serial"]) for t in truth["inventory"]))


if __name__ == "__main__":
    junit.main()
