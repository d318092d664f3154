"""Deadlock's message tables (core/deadlock/) on a 36-minute gem-synth
match from the dl_midtown fixture, with flaws.

Every row of damage, kill_streaks, respawns, objective_events, mid_boss,
purchases, purchase_notifications, ability_casts, pings, idol_returns,
flex_slots, banned_heroes, pauses, urn, ability_cooldowns and patron_phases,
and every
Deadlock chat line, must equal what
gem-synth wrote (tools/synth/deadlock_events.h), value by value and in
order; the winner is GameOver's. Objectives killed and deleted in the same
packet keep their class and name. The flaws (a Damage naming no victim, an
AbilitiesChanged with an id that is no name's token) give NULLs and meta
counts, not dropped rows. Each row's game_time is the match clock at its
tick, and the views sum what the truth says."""
import collections
import json
import os
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from gemtest import (FIXTURES, GEM_INDEX, GEM_SYNTH, RUNFILES, SANITIZED, TMP, docs_sql,  # noqa: E402
                     check_game_time, connect, replay_path)
from teamfights_rule import teamfights_by_the_rule  # noqa: E402

FIXTURE = "deadlock_demofilenet_hltv_10423_dl_midtown"
TABLES = ["damage", "kill_streaks", "respawns", "objective_events", "mid_boss", "purchases",
          "purchase_notifications", "ability_casts", "pings", "idol_returns", "flex_slots",
          "banned_heroes", "pauses", "urn", "ability_cooldowns"]
# Written as each modifier's life ends: compared in the order they began.
LIVES = "modifiers"
_made = {}


def synthetic(flaws=True, record=True):
    """(index connection, truth rows by kind), made once per kind of match
    (the flawed one, with its post-match record, by default)."""
    options = (("--flaws",) if flaws else ()) + (() if record else ("--no-post-match",))
    if options in _made:
        return _made[options]
    fixture = replay_path(FIXTURE)
    if not os.path.exists(fixture):
        raise unittest.SkipTest("SKIPPED: fixture %s.dem not found in %s" % (FIXTURE, FIXTURES))
    stem = os.path.join(TMP, "deadlock-36" + "".join(o.replace("-", "_") for o in options))
    # The flawed match with a crowd of 12 players and a light trooper load
    # (--troopers 2, 110 MB; the standard match's 26 take minutes to write,
    # and tell no more; under the sanitizers one a wave, which still makes
    # the crowd and its kills); the others, which check the record alone, light.
    troopers = "1" if SANITIZED else "2"
    crowd = ["--troopers", troopers] if options == ("--flaws",) else ["--light"]
    subprocess.run([GEM_SYNTH, "--from", fixture, "--minutes", "36", "--seed", "5"] + crowd +
                   list(options) + ["--match-truth", stem + ".truth", "--quiet", stem + ".dem"],
                   check=True)
    subprocess.run([GEM_INDEX, "--quiet", "--force", stem + ".dem", stem + ".db"], check=True)
    truth = collections.defaultdict(list)
    with open(stem + ".truth") as f:
        for line in f:
            row = json.loads(line)
            if "kind" in row:
                truth[row.pop("kind")].append(row)
    _made[options] = (connect(stem + ".db"), truth)
    return _made[options]


def clock(con, truth, tick):
    """The match clock at `tick` by the truth's one pause: stopped from its
    start, behind by its length after it."""
    start, rate = con.execute("SELECT start_tick, tick_rate FROM match_info").fetchone()
    pause = truth["pauses"][0]
    if pause["tick"] <= tick < pause["end_tick"]:
        tick = pause["tick"]
    elif tick >= pause["end_tick"]:
        tick -= pause["end_tick"] - pause["tick"]
    return (tick - start) / rate


def rows_of(con, table):
    cur = con.execute("SELECT * FROM %s ORDER BY id" % table)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


class TablesTest(unittest.TestCase):
    def test_every_table_equals_the_truth(self):
        con, truth = synthetic()
        for table in TABLES:
            with self.subTest(table=table):
                want = truth[table]
                got = rows_of(con, table)
                self.assertGreater(len(want), 0)
                self.assertEqual(len(got), len(want))
                for i, (w, g) in enumerate(zip(want, got)):
                    for key, value in w.items():
                        column = "kind" if key == "kind_" else key
                        self.assertEqual(g[column], value, "%s row %d: %s" % (table, i, column))

    def test_modifier_lives(self):
        con, truth = synthetic()
        want = sorted(truth[LIVES], key=lambda w: (w["tick"], w["serial"]))
        # The fixture's own entries (serials below gem-synth's 100000) live on.
        rows = rows_of(con, LIVES)
        got = sorted((g for g in rows if g["serial"] >= 100000),
                     key=lambda g: (g["tick"], g["serial"]))
        fixture = [g for g in rows if g["serial"] < 100000]
        self.assertGreater(len(fixture), 0)
        self.assertTrue(all(g["removed_tick"] is None for g in fixture))
        self.assertGreater(len(want), 100)
        self.assertTrue(any(w["removed_tick"] is None for w in want))
        self.assertEqual(len(got), len(want))
        for i, (w, g) in enumerate(zip(want, got)):
            for key, value in w.items():
                self.assertEqual(g[key], value, "modifiers row %d: %s" % (i, key))
        for g in got:
            if g["removed_tick"] is not None:
                check_game_time(self, g["removed_time"], clock(con, truth, g["removed_tick"]))
        # Modifier names: the table's where it has the id, else NULL and
        # counted.
        self.assertTrue(any(w["modifier"] for w in want))
        self.assertTrue(any(w["modifier"] is None for w in want))
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        self.assertEqual(int(meta["unknown_modifier_ids"]),
                         sum(1 for g in rows if g["modifier"] is None))

    def test_purchases_checked_against_the_inventory(self):
        # Each item bought, and the tick its buyer first held it before
        # buying it again (gem-synth gives the item in the purchase's
        # packet; under --flaws every third never).
        con, truth = synthetic()
        want = [(w["tick"], w["slot"], w["item"], w["held_tick"])
                for w in truth["purchase_checks"]]
        self.assertTrue(any(w[3] is None for w in want))
        self.assertTrue(any(w[3] is not None for w in want))
        got = con.execute("SELECT tick, slot, item, held_tick FROM purchase_checks "
                          "WHERE item IS NOT NULL ORDER BY id").fetchall()
        self.assertEqual(got, want)
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        self.assertEqual(int(meta["purchases_never_held"]),
                         sum(1 for w in want if w[3] is None))
        self.assertGreater(con.execute("SELECT count(*) FROM inventory").fetchone()[0], 0)
        clean, truth = synthetic(flaws=False)
        self.assertGreater(len(truth["purchase_checks"]), 0)
        meta = dict(clean.execute("SELECT key, value FROM meta").fetchall())
        self.assertEqual(int(meta["purchases_never_held"]), 0)

    def test_ability_upgrades(self):
        con, truth = synthetic()
        want = [(w["tick"], w["slot"], w["ability"], w["level"]) for w in truth["ability_upgrades"]]
        self.assertGreater(len(want), 5)
        got = con.execute("SELECT tick, slot, ability, level FROM ability_upgrades "
                          "ORDER BY tick").fetchall()
        self.assertEqual(got, want)

    def test_heroes_named_by_the_replay_and_the_table(self):
        con, truth = synthetic()
        heroes = {r[0]: r[1:] for r in con.execute(
            "SELECT hero_id, name, internal_name, source FROM heroes")}
        # The player's hero: the fixture's Shiv, by its pawn's name.
        self.assertEqual(heroes[19], ("Shiv", "hero_shiv", "replay+table"))
        hero = con.execute("SELECT hero FROM players").fetchone()[0]
        self.assertEqual(hero, "hero_shiv")
        bans = [w["hero_id"] for w in truth["banned_heroes"]]
        self.assertIn(999, bans)
        for hero_id in bans:
            self.assertIn(hero_id, heroes)
        self.assertEqual(heroes[999], (None, None, None))
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        self.assertEqual(int(meta["unknown_hero_ids"]), 1)

    def test_chat_lines(self):
        con, truth = synthetic()
        got = con.execute("SELECT tick, sender, channel, text FROM chat WHERE kind = 'chat' "
                          "ORDER BY id").fetchall()
        want = [(w["tick"], w["sender"], w["channel"], w["text"]) for w in truth["chat"]]
        self.assertGreater(len(want), 0)
        self.assertEqual(got, want)

    def test_winner_is_game_over(self):
        con, truth = synthetic()
        self.assertEqual(con.execute("SELECT winner, winner_name FROM match_info").fetchone(),
                         (truth["game_over"][0]["winner"], "Sapphire"))

    def test_flaws_are_nulls_and_counts(self):
        con, truth = synthetic()
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        no_victim = sum(1 for w in truth["damage"] if w["victim_entity"] is None)
        unknown = sum(1 for w in truth["purchases"] if w["item"] is None)
        self.assertGreater(no_victim, 0)
        self.assertGreater(unknown, 0)
        self.assertEqual(int(meta["damage_without_victim"]), no_victim)
        self.assertEqual(int(meta["unknown_ability_ids"]), unknown)

    def test_killed_objectives_keep_their_class_though_deleted_with_the_message(self):
        con, truth = synthetic()
        killed = [w for w in truth["objective_events"] if w["kind_"] == "killed"]
        self.assertGreater(len(killed), 5)
        for w in killed:
            deleted = con.execute(
                "SELECT deleted_tick FROM entities WHERE ent_index = ? AND created_tick < ? "
                "ORDER BY created_tick DESC LIMIT 1", (w["entity"], w["tick"])).fetchone()
            self.assertEqual(deleted, (w["tick"],))
        # The view: one row an objective, its first damage and its death.
        view = {r[0]: r[1:] for r in con.execute(
            "SELECT entity, class, first_damage_tick, destroyed_tick, killer, lane "
            "FROM objectives")}
        for w in killed:
            damaged = [d for d in truth["objective_events"]
                       if d["kind_"] == "damaged" and d["entity"] == w["entity"]]
            self.assertEqual(view[w["entity"]],
                             (w["class"], damaged[0]["tick"], w["tick"], w["killer"], w["lane"]))
        self.assertEqual({w["lane"] for w in killed} - {None}, {0, 1, 4, 6})
        # Every kind falls: guardian, walker, base guardian, shrine, patron,
        # and the mid boss (an entity gem-synth makes from its class).
        self.assertEqual({w["class"] for w in killed},
                         {"CNPC_TrooperBoss", "CNPC_Boss_Tier2", "CNPC_TrooperBarrackBoss",
                          "CCitadel_Destroyable_Building", "CNPC_Boss_Tier3", "CNPC_MidBoss"})
        # Its kill is a mid_boss row: the killer's team and player.
        boss = [w for w in killed if w["class"] == "CNPC_MidBoss"]
        self.assertEqual(len(boss), 1)
        want = [(w["tick"], w["team"], w["slot"]) for w in truth["mid_boss"]
                if w["kind_"] == "killed"]
        self.assertEqual(want, [(boss[0]["tick"], want[0][1], boss[0]["killer"])])
        self.assertEqual(con.execute("SELECT tick, team, slot FROM mid_boss WHERE kind = 'killed'"
                                     ).fetchall(), want)

    def test_kills_with_assists_and_the_players_totals(self):
        # gem-synth's crowd (tools/synth/deadlock_crowd.h): 12 players, kills
        # by HeroKilled with their assisters, and each controller's counters.
        con, truth = synthetic()
        want = truth["kills"]
        self.assertGreater(len(want), 30)
        self.assertTrue(any(json.loads(w["assisters"]) for w in want))
        got = rows_of(con, "kills")
        self.assertEqual(len(got), len(want))
        for i, (w, g) in enumerate(zip(want, got)):
            for key, value in w.items():
                self.assertEqual(g[key], value, "kills row %d: %s" % (i, key))
        totals = truth["player_totals"]
        self.assertEqual(len(totals), 12)
        self.assertEqual(sorted((t["slot"], t["team"], t["hero"]) for t in totals),
                         con.execute("SELECT slot, team, hero FROM players ORDER BY slot"
                                     ).fetchall())
        last = con.execute("SELECT max(tick) FROM timeline").fetchone()[0]
        for t in totals:
            row = con.execute("SELECT kills, deaths, assists, souls FROM timeline "
                              "WHERE slot = ? AND tick = ?", (t["slot"], last)).fetchone()
            self.assertEqual(row, (t["kills"], t["deaths"], t["assists"], t["souls"]), t)
        # Every kill's killer, victim and assisters sum to the totals.
        counted = collections.Counter()
        for w in want:
            counted[(w["killer"], "kills")] += 1
            counted[(w["victim"], "deaths")] += 1
            for a in json.loads(w["assisters"]):
                counted[(a, "assists")] += 1
        fixture_start = {t["slot"]: t for t in totals}
        for slot, t in fixture_start.items():
            if slot != 0:  # the fixture's own player began with its own counts
                for key in ("kills", "deaths", "assists"):
                    self.assertEqual(counted[(slot, key)], t[key], (slot, key))

    def test_patron_phases_and_match_mode(self):
        con, truth = synthetic()
        want = truth["patron_phases"]
        self.assertEqual([w["phase"] for w in want if w["tick"] > 1], [2, 1])
        got = rows_of(con, "patron_phases")
        self.assertEqual([{k: g[k] for k in w} for g, w in zip(got, want)], want)
        self.assertEqual(len(got), len(want))
        for g in got[2:]:  # the changes: after the clock starts
            check_game_time(self, g["game_time"], clock(con, truth, g["tick"]))
        self.assertEqual(con.execute("SELECT match_mode FROM match_info").fetchone()[0],
                         truth["match_info"][0]["match_mode"])

    def test_urn_events(self):
        # Each kind the rule tells apart: a delivery (the return modifier
        # put on twice, the golden idol removed with it) is one 'returned'
        # and no drop; a modifier put on afresh is neither a drop nor a
        # pickup.
        con, truth = synthetic()
        self.assertEqual([w["event"] for w in truth["urn"]],
                         ["point_enabled", "picked_up", "returned", "point_disabled",
                          "picked_up", "dropped"])
        golden = con.execute("SELECT count(*) FROM modifiers WHERE ability_id = 2521299219"
                             ).fetchone()[0]
        returns = con.execute("SELECT count(*) FROM modifiers WHERE modifier_id = 3388847715"
                              ).fetchone()[0]
        self.assertEqual((golden, returns), (3, 2))

    def test_game_time_is_the_clock_at_the_tick(self):
        con, truth = synthetic()
        for table in TABLES:
            if table == "banned_heroes":
                continue  # no game_time column
            for tick, game_time in con.execute("SELECT tick, game_time FROM %s" % table):
                check_game_time(self, game_time, clock(con, truth, tick), msg=table)

    def test_damage_views_sum_the_truth(self):
        con, truth = synthetic()
        want = collections.Counter()
        for w in truth["damage"]:
            if w["attacker"] is not None:
                want[(w["attacker"], w["victim"], w["victim_class"])] += w["damage"]
        got = {(s, v, c): d for s, v, c, d in con.execute(
            "SELECT slot, victim_slot, victim_class, damage FROM damage_dealt")}
        self.assertEqual(got, dict(want))
        taken = collections.Counter()
        for w in truth["damage"]:
            if w["victim"] is not None:
                taken[(w["victim"], w["attacker"], w["attacker_class"])] += w["damage"]
        self.assertGreater(len(taken), 1)
        got = {(s, a, c): d for s, a, c, d in con.execute(
            "SELECT slot, attacker_slot, attacker_class, damage FROM damage_taken")}
        self.assertEqual(got, dict(taken))


RECORD = ["record_match", "record_players", "record_stats", "record_souls", "record_items",
          "record_deaths", "record_objectives", "record_mid_boss", "record_pauses",
          "record_damage", "record_paths"]


class PostMatchRecord(unittest.TestCase):
    """The post-match record gem-synth writes in the last packet
    (CMsgMatchMetaDataContents, written by protobuf's own classes), as
    gem's record tables; and where it disagrees with the replay."""

    def test_every_record_table_equals_the_truth(self):
        con, truth = synthetic()
        for table in RECORD:
            with self.subTest(table=table):
                want = truth[table]
                self.assertGreater(len(want), 0)
                cur = con.execute("SELECT * FROM %s ORDER BY rowid" % table)
                names = [d[0] for d in cur.description]
                got = [dict(zip(names, r)) for r in cur.fetchall()]
                self.assertEqual(len(got), len(want))
                for i, (w, g) in enumerate(zip(want, got)):
                    for key, value in w.items():
                        self.assertEqual(g[key], value, "%s row %d: %s" % (table, i, key))

    def test_damage_matrix_cells_are_running_totals_counted_once(self):
        con, truth = synthetic()
        cells = truth["record_damage"]
        # A cell shorter than the sample times covers the last of them.
        samples = max(w["sample"] for w in cells) + 1
        late = [w for w in cells if w["target_slot"] == w["dealer_slot"] + 2]
        self.assertGreater(len(late), 0)
        self.assertEqual({w["sample"] for w in late}, {samples - 2, samples - 1})
        # Totals: each cell's last running total, over the specific
        # sources only (the category repeats their hits).
        last = {}
        for w in cells:
            key = (w["dealer_slot"], w["target_slot"], w["source_index"])
            if key not in last or w["sample"] > last[key]["sample"]:
                last[key] = w
        want = collections.Counter()
        for w in last.values():
            if not w["category"]:
                want[(w["dealer_slot"], w["target_slot"], w["stat_type"])] += w["value"]
        self.assertTrue(any(w["category"] for w in cells))
        got = {(d, t, s): v for d, t, s, v in con.execute(
            "SELECT dealer_slot, target_slot, stat_type, value FROM record_damage_totals")}
        self.assertEqual(got, dict(want))

    def test_healing_per_player_and_target(self):
        con, truth = synthetic()
        want = collections.Counter()
        for w in truth["record_damage"]:
            if w["stat_type"] == 1 and not w["category"]:
                want[(w["dealer_slot"], w["target_slot"], "record")] += w["gained"]
        for t in truth["player_totals"]:
            want[(t["slot"], None, "controller")] += t["hero_healing"]
            want[(t["slot"], t["slot"], "controller")] += t["self_healing"]
            self.assertGreater(t["self_healing"], 0)
            self.assertGreaterEqual(t["hero_healing"], t["self_healing"])
        got = {(s, t, src): h for s, t, h, src in con.execute(
            "SELECT slot, target_slot, healing, source FROM healing")}
        self.assertEqual(got, dict(want))

    def test_items_and_heroes_are_named(self):
        con, _ = synthetic()
        # The fixture's Shiv and the crowd's eleven (ids 1-13 by
        # deadlock-api's hero list).
        self.assertEqual(sorted(h for (h,) in con.execute("SELECT hero FROM record_players")),
                         sorted(["Shiv", "Infernus", "Seven", "Vindicta", "Lady Geist", "Abrams",
                                 "Wraith", "McGinnis", "Paradox", "Dynamo", "Kelvin", "Haze"]))
        self.assertEqual(con.execute("SELECT count(*) FROM record_items WHERE item IS NULL")
                         .fetchone()[0], 0)

    def test_meta_counts_where_the_record_disagrees(self):
        con, _ = synthetic()
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        self.assertEqual(int(meta["post_match_record"]), 1)
        # Under --flaws: every player's net worth is 100 souls more, an
        # objective more fell.
        players = con.execute("SELECT count(*) FROM players").fetchone()[0]
        self.assertEqual(players, 12)
        self.assertEqual(int(meta["record_souls_disagree"]), players)
        self.assertEqual(int(meta["record_kills_disagree"]), 0)
        self.assertEqual(int(meta["record_objectives_disagree"]), 1)
        clean, _ = synthetic(flaws=False)
        meta = dict(clean.execute("SELECT key, value FROM meta").fetchall())
        self.assertEqual(int(meta["record_souls_disagree"]), 0)
        self.assertEqual(int(meta["record_objectives_disagree"]), 0)

    def test_a_recording_cut_before_the_record_has_none(self):
        con, truth = synthetic(record=False)
        self.assertEqual(truth["record_match"], [])
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        self.assertEqual(int(meta["post_match_record"]), 0)
        for table in RECORD:
            self.assertEqual(con.execute("SELECT count(*) FROM %s" % table).fetchone()[0], 0)


def lane_leads_by_the_rule(con):
    """lane_leads' rule, apart, over the timeline's rows: (lane, team,
    players, slots, souls and leads at 5, 10 and 15 minutes)."""
    samples = {}
    for slot, tick, game_time, team, lane, souls in con.execute(
            "SELECT slot, tick, game_time, team, lane, souls FROM timeline ORDER BY tick"):
        samples.setdefault(slot, []).append((tick, game_time, team, lane, souls))

    def at(rows, mark):
        if not rows or max(r[1] for r in rows) < mark:
            return None
        before = [r for r in rows if r[1] <= mark]
        return before[-1] if before else None

    sides = {}
    for slot, rows in sorted(samples.items()):
        early = [r for r in rows if r[1] <= 300]
        if not early:
            continue
        _, _, team, lane, _ = early[-1]
        if not lane or team not in (2, 3):
            continue
        souls = []
        for mark in (300, 600, 900):
            r = at(rows, mark)
            souls.append(r[4] if r else None)
        sides.setdefault((lane, team), []).append((slot, souls))
    out = []
    for (lane, team), players in sorted(sides.items()):
        def total(i, ps=players):
            values = [p[1][i] for p in ps]
            return None if any(v is None for v in values) else sum(values)
        mine = [total(i) for i in range(3)]
        other = sides.get((lane, 5 - team))
        theirs = [total(i, other) for i in range(3)] if other else [None] * 3
        leads = [None if a is None or b is None else a - b for a, b in zip(mine, theirs)]
        out.append((lane, team, len(players), json.dumps([p[0] for p in players],
                                                         separators=(",", ":")))
                   + tuple(mine) + tuple(leads))
    return out


class LaneLeads(unittest.TestCase):
    def test_the_lanes_are_gem_synths_and_the_leads_the_rule(self):
        con, truth = synthetic()
        lanes = {t["slot"]: t["lane"] for t in truth["player_totals"]}
        self.assertEqual(len(lanes), 12)
        self.assertGreaterEqual(len(set(lanes.values())), 2)
        got = dict(con.execute("SELECT slot, lane FROM timeline WHERE team IN (2, 3) "
                               "ORDER BY tick"))  # each player's last sample
        self.assertEqual(got, lanes)
        want = lane_leads_by_the_rule(con)
        self.assertEqual(con.execute("SELECT * FROM lane_leads ORDER BY lane, team").fetchall(),
                         want)
        self.assertTrue(any(r[8] for r in want), "a lead at 10:00")
        self.assertTrue(all(r[4] is not None and r[6] is not None for r in want))
        # The docs' query.
        blocks = docs_sql("deadlock.md", "## Lane leads", "## Teamfights")
        self.assertEqual(len(blocks), 1)
        self.assertEqual(con.execute(blocks[0]).fetchall(),
                         [(r[0], r[1], r[3], r[5], r[8]) for r in want])


class SoulSources(unittest.TestCase):
    QUERY = "SELECT slot, source, souls, orbs, origin FROM soul_sources ORDER BY slot, source"

    def test_from_the_record_its_last_sample_by_source(self):
        # gem-synth's record keeps gold_sources but for every fourth player,
        # whose stats are PlayerStats' own fields, as builds before them.
        con, truth = synthetic()
        want = []
        for slot in sorted({r["slot"] for r in truth["record_stats"]}):
            souls = [r for r in truth["record_souls"] if r["slot"] == slot]
            if souls:
                last = max(r["time_s"] for r in souls)
                by = collections.defaultdict(lambda: [0, 0])
                for r in souls:
                    if r["time_s"] == last:
                        by[r["source"]][0] += r["souls"]
                        by[r["source"]][1] += r["souls_orbs"]
                want += [(slot, k, v[0], v[1], "record") for k, v in by.items()]
                continue
            stats = [r for r in truth["record_stats"] if r["slot"] == slot]
            last = max(stats, key=lambda r: r["time_s"])
            want += [(slot, "lane_creeps", last["souls_lane_creep"], None, "record"),
                     (slot, "players", last["souls_player"], None, "record")]
        self.assertTrue(any(w[1] == "neutrals" for w in want))
        self.assertTrue(any(w[1] == "lane_creeps" and w[3] is None for w in want))
        self.assertEqual(con.execute(self.QUERY).fetchall(), sorted(want, key=lambda w: w[:2]))
        blocks = docs_sql("deadlock.md", "## Soul sources")
        self.assertEqual(len(blocks), 1)
        self.assertEqual(con.execute(blocks[0]).fetchall(),
                         sorted(want, key=lambda w: (w[0], -w[2], w[1])))

    def test_without_the_record_the_controllers_creep_souls(self):
        # The crowd's match with its record taken out of a copy of the index.
        index, truth = synthetic()
        copy = os.path.join(TMP, "deadlock-36-no-record.db")
        if os.path.exists(copy):
            os.remove(copy)
        index.execute("VACUUM INTO ?", (copy,))
        con = connect(copy)
        con.execute("DELETE FROM record_stats")
        con.execute("DELETE FROM record_souls")
        names = {"creep_kill_souls": "creep_kill", "creep_air_orb_souls": "creep_air_orb",
                 "creep_ground_orb_souls": "creep_ground_orb",
                 "creep_solo_bonus_souls": "creep_solo_bonus", "creep_deny_souls": "creep_deny",
                 "creep_neutral_souls": "creep_neutral"}
        want = [(t["slot"], names[column], souls, None, "controller")
                for t in truth["player_totals"] for column, souls in t["creep_souls"].items()]
        self.assertEqual(len(want), 12 * 6)
        self.assertTrue(all(w[2] is not None for w in want) and any(w[2] > 100 for w in want))
        self.assertEqual(con.execute(self.QUERY).fetchall(), sorted(want, key=lambda w: w[:2]))


class Teamfights(unittest.TestCase):
    def test_the_fights_are_boons_rule_over_the_base_tables(self):
        # tests/core/deadlock/teamfights_rule.py: the rule over damage,
        # kills and gem_position; teamfights_test.cc holds its edges.
        con, _ = synthetic()
        want = teamfights_by_the_rule(con)
        got = con.execute("SELECT fight, start_tick, end_tick, start_time, end_time, x, y, "
                          "heroes, slots, events, hero_damage, kills FROM teamfights "
                          "ORDER BY fight").fetchall()
        self.assertGreater(len(want), 50)
        self.assertGreater(sum(w[-1] for w in want), 3, "kills counted for fights")
        self.assertTrue(any(w[7] >= 4 for w in want))
        self.assertEqual(len(got), len(want))
        for w, g in zip(want, got):
            # gem_position writes each coordinate as its float32's shortest digits.
            self.assertEqual(g[:5] + g[7:], w[:5] + w[7:])
            self.assertAlmostEqual(g[5], w[5], places=3)
            self.assertAlmostEqual(g[6], w[6], places=3)
            self.assertAlmostEqual(con.execute("SELECT duration_s FROM teamfights WHERE fight = ?",
                                               (g[0],)).fetchone()[0], g[4] - g[3], places=9)
        # The docs' query.
        blocks = docs_sql("deadlock.md", "## Teamfights", "## Soul sources")
        self.assertEqual(len(blocks), 1)
        with_kills = sorted((w for w in want if w[11] > 0), key=lambda w: (-w[7], -w[10]))
        self.assertEqual([r[0] for r in con.execute(blocks[0])], [w[0] for w in with_kills])


class ReadmeQueries(unittest.TestCase):
    """The docs' Deadlock SQL, each block run on the gem-synth match and
    its answer checked against what gem-synth wrote (souls: against the
    controllers' own field, read by gem_value)."""

    def test_every_readme_deadlock_query_answers_what_was_written(self):
        blocks = docs_sql("deadlock.md", "## Deadlock as analysts read it", "## Lane leads")
        self.assertEqual(len(blocks), 7)
        con, truth = synthetic()
        souls, builds, upgrades, dealt, objectives, mid_boss, urn = (con.execute(sql).fetchall()
                                                                for sql in blocks)
        self.assertEqual(upgrades, sorted((w["slot"], w["tick"], w["ability"], w["level"])
                                          for w in truth["ability_upgrades"]))
        self.assertGreater(len(souls), 0)
        tick = con.execute("SELECT max(tick) FROM timeline WHERE game_time <= 600").fetchone()[0]
        for slot, hero, value in souls:
            want = con.execute("SELECT gem_value(controller, 'm_iGoldNetWorth', ?) FROM players "
                               "WHERE slot = ?", (tick, slot)).fetchone()[0]
            self.assertEqual(value, want)
            self.assertIsNotNone(hero)
        self.assertEqual(builds, sorted((w["slot"], w["tick"], w["item"])
                                        for w in truth["purchases"] if w["change"] == "bought"))
        want = collections.Counter()
        for w in truth["damage"]:
            if w["attacker"] is not None:
                want[(w["attacker"], w["victim"], w["victim_class"])] += w["damage"]
        self.assertEqual({(r[0], r[1], r[2]): r[3] for r in dealt}, dict(want))
        self.assertEqual(objectives, [
            (w["tick"], w["class"], w["name"], w["team"], w["lane"], w["killer"])
            for w in truth["objective_events"] if w["kind_"] == "killed"])
        self.assertEqual(mid_boss, [(w["tick"], w["kind_"], w["team"], w["slot"])
                                    for w in truth["mid_boss"]])
        deliveries = [w for w in truth["urn"] if w["event"] == "returned"]
        self.assertGreater(len(deliveries), 0)
        self.assertEqual([(t, s, team) for t, _, s, team in urn],
                         [(w["tick"], w["slot"], w["team"]) for w in deliveries])
        for (_, g, _, _), w in zip(urn, deliveries):
            check_game_time(self, g, clock(con, truth, w["tick"]))


if __name__ == "__main__":
    junit.main()
