"""CS2's second questions end to end (core/cs2/stats_views.h): opening
duels, trades, clutches, multi-kill rounds, utility, buys, accuracy and
player_stats' new columns with HLTV's Rating 1.0.

On a gem-synth match of 24 rounds, opening_duels, trades and clutches must
equal what gem-synth's own record of who was alive wrote (tools/synth/
cs2_duels.cc), and every view what its rule, computed here apart, makes of
the rows gem-synth wrote. On the synthetic match and on every CS2 fixture,
opening duels, trades, clutches and multi-kill rounds must also equal a
second implementation over the raw player_death events. gem-synth --flaws
has a round with no kills. The docs' CS2 second-question queries run
and answer what was written."""
import json
import math
import os
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from cs2_synth import synthetic  # noqa: E402
from gemtest import MODERN, connect, need, docs_sql  # noqa: E402

RATE = 64
CS2 = [stem for stem in MODERN if stem.startswith("cs2")]


def enemy(k):
    return (k["killer"] is not None and k["killer"] != k["victim"] and
            k["killer_team"] != k["victim_team"])


def by_round(items):
    out = {}
    for t in items:
        out.setdefault(t["round"], []).append(t)
    return out


def trades_of(kills, window_ticks):
    """{(round, tick, trader, trader_team, killer, traded, traded_tick)}
    over kills in order: an enemy kill of V by A, then A killed by a
    teammate of V (not V) within the window."""
    out = set()
    for d in kills:
        if not enemy(d):
            continue
        for t in kills:
            if (t["round"] == d["round"] and enemy(t) and t["victim"] == d["killer"] and
                    t["killer"] != d["victim"] and t["killer_team"] == d["victim_team"] and
                    d["tick"] <= t["tick"] <= d["tick"] + window_ticks):
                out.add((t["round"], t["tick"], t["killer"], t["killer_team"], d["killer"],
                         d["victim"], d["tick"]))
    return out


def clutches_of(kills, roster, winners, planted, defused):
    """[(round, slot, team, opponents, tick, won, kills, survived,
    bomb_planted, bomb_defused)] by stats_views.h's rule, from the kills
    in order (each a dict with round, tick, killer, victim and teams) and
    each round's players {round: {slot: team}}."""
    out = []
    for r, players in roster.items():
        mine = [k for k in kills if k["round"] == r]
        dead, found = set(), []
        for i, k in enumerate(mine):
            if k["victim"] in players:
                dead.add(k["victim"])
            alive = {team: [s for s, t in players.items() if t == team and s not in dead]
                     for team in (2, 3)}
            n = {team: len(alive[team]) for team in (2, 3)}
            if not found:
                for team in (2, 3):
                    if n[team] == 1 and n[5 - team] >= 1:
                        found.append((alive[team][0], team, n[5 - team], k["tick"], i))
            elif len(found) == 1 and n[2] == 1 and n[3] == 1:
                team = 5 - found[0][1]
                found.append((alive[team][0], team, 1, k["tick"], i))
        for slot, team, opponents, tick, i in found:
            won = None if winners.get(r) is None else int(winners[r] == team)
            later = sum(1 for k in mine[i + 1:] if k["killer"] == slot and enemy(k))
            survived = int(all(k["victim"] != slot for k in mine))
            out.append((r, slot, team, opponents, tick, won, later, survived,
                        int(r in planted), int(r in defused)))
    return sorted(out)


def raw_kills(con):
    """The player_death events of the index's game_events, in order, as
    kill dicts: the slot is the event's user id (a CS2 controller's entity
    index less one, as its events number players), the round the one whose
    start is the last at or before the event, teams the economy's."""
    starts = con.execute("SELECT round, tick FROM rounds ORDER BY tick").fetchall()
    teams = {(r, s): t for r, s, t in con.execute("SELECT round, slot, team FROM economy")}
    out = []
    for tick, keys in con.execute("SELECT tick, keys FROM game_events WHERE name = "
                                  "'player_death' ORDER BY id"):
        e = json.loads(keys)
        rounds = [r for r, t in starts if t <= tick]
        if not rounds:
            continue
        r = rounds[-1]

        def slot(who):
            v = e.get(who)
            return None if v is None or v < 0 or v == 65535 or e.get(who + "_pawn", 0) == -1 \
                else v
        killer, victim = slot("attacker"), slot("userid")
        out.append({"round": r, "tick": tick, "killer": killer, "victim": victim,
                    "killer_team": teams.get((r, killer)), "victim_team": teams.get((r, victim)),
                    "weapon": e.get("weapon"), "headshot": int(bool(e.get("headshot")))})
    return out


def round_facts(con):
    roster = {}
    for r, s, t in con.execute("SELECT round, slot, team FROM economy WHERE team IN (2, 3)"):
        roster.setdefault(r, {})[s] = t
    winners = dict(con.execute("SELECT round, winner FROM rounds"))
    planted = {r for r, in con.execute("SELECT round FROM rounds WHERE bomb_plant_tick "
                                       "IS NOT NULL")}
    defused = {r for r, in con.execute("SELECT round FROM bomb WHERE kind = 'defuse'")}
    return roster, winners, planted, defused


class SyntheticTruth(unittest.TestCase):
    def test_opening_duels_trades_and_clutches_are_the_ones_played(self):
        con, truth = synthetic()
        for kind, view, cols in (
                ("opening", "opening_duels", ["round", "tick", "attacker", "victim",
                                              "attacker_team", "victim_team", "weapon",
                                              "headshot", "won"]),
                ("trade", "trades", ["round", "tick", "trader", "trader_team", "killer",
                                     "traded", "traded_tick"]),
                ("clutch", "clutches", ["round", "slot", "team", "opponents", "tick", "won",
                                        "kills", "survived", "bomb_planted", "bomb_defused"])):
            got = sorted(con.execute("SELECT %s FROM %s" % (", ".join(cols), view)).fetchall())
            want = sorted(tuple(t[c] for c in cols) for t in truth[kind])
            self.assertEqual(got, want, view)
        clutches = truth["clutch"]
        self.assertTrue(any(c["won"] for c in clutches) and not all(c["won"] for c in clutches))
        self.assertTrue(any(c["opponents"] >= 3 for c in clutches))
        self.assertTrue(any(c["opponents"] == 1 for c in clutches), "one against one")
        self.assertGreater(len(truth["trade"]), 5)
        self.assertEqual(len(truth["opening"]), 24)
        for t in con.execute("SELECT tick - traded_tick, seconds FROM trades"):
            # Rounded half away from zero, as SQLite's round() does (3.5625
            # is 3.563; Python's round() would give 3.562).
            self.assertAlmostEqual(t[1], math.floor(t[0] * 1000 / RATE + 0.5) / 1000, places=9)

    def test_trades_follow_the_window_set(self):
        con, truth = synthetic()
        kills = truth["kill"]
        for window in (0, 3, 5, 10):
            con.execute("UPDATE stat_settings SET value = ? WHERE name = 'trade_window_s'",
                        (window,))
            got = set(con.execute("SELECT round, tick, trader, trader_team, killer, traded, "
                                  "traded_tick FROM trades"))
            self.assertEqual(got, trades_of(kills, window * RATE), window)
            traded = {(r, s) for r, s in con.execute("SELECT round, slot FROM player_rounds "
                                                     "WHERE traded = 1")}
            self.assertEqual(traded, {(t[0], t[5]) for t in got}, window)
        con.execute("UPDATE stat_settings SET value = 5 WHERE name = 'trade_window_s'")
        con.commit()
        self.assertLess(len(trades_of(kills, 0)), len(trades_of(kills, 10 * RATE)))

    def test_multi_kill_rounds_utility_buys_and_accuracy_follow_their_rules(self):
        con, truth = synthetic()
        kills = [k for k in truth["kill"] if enemy(k)]
        counts = {}
        for k in kills:
            counts[(k["round"], k["killer"])] = counts.get((k["round"], k["killer"]), 0) + 1
        self.assertEqual(set(con.execute("SELECT round, slot, kills FROM multi_kill_rounds")),
                         {(r, s, n) for (r, s), n in counts.items() if n >= 2})
        # Utility, per player and round.
        want = {}
        for e in truth["economy"]:
            r, s = e["round"], e["slot"]
            dmg = [d for d in truth["damage"] if d["round"] == r and d["attacker"] == s and
                   d["attacker_team"] != d["victim_team"]]
            fl = [f for f in truth["flash"] if f["round"] == r and f["thrower"] == s and
                  f["thrower_team"] != f["victim_team"]]
            thrown = [g["kind_"] for g in truth["grenade"] if g["round"] == r and
                      g["thrower"] == s]
            want[(r, s)] = (
                e["team"], sum(d["damage_real"] for d in dmg if d["weapon"] == "hegrenade"),
                sum(d["damage_real"] for d in dmg if d["weapon"] == "inferno"),
                sum(1 for k in kills if k["round"] == r and k["assistedflash"] and
                    s in json.loads(k["assisters"])),
                len(fl), sum(f["duration"] for f in fl), thrown.count("flash"),
                thrown.count("smoke"), thrown.count("he"),
                thrown.count("molotov") + thrown.count("incendiary"))
        got = {(r[0], r[1]): r[2:] for r in con.execute("SELECT * FROM utility")}
        self.assertEqual(set(got), set(want))
        for key, w in want.items():
            g = got[key]
            self.assertEqual(g[:5] + g[6:], w[:5] + w[6:], key)
            self.assertAlmostEqual(g[5], w[5], places=3)
        self.assertGreater(sum(w[3] for w in want.values()), 0, "flash assists")
        # Buys, by docs/cs2.md's thresholds.
        sides = {}
        for e in truth["economy"]:
            s = sides.setdefault((e["round"], e["team"]), [0, 0, 0, 0, True])
            s[0] += 1
            s[1] += e["start_money"]
            s[2] += e["equipment_value"]
            s[3] += e["spent"]
            s[4] = s[4] and e["start_money"] == 800
        want = {}
        for (r, team), (n, money, equipment, spent, pistol) in sides.items():
            left = money - spent
            kind = ("pistol" if pistol else
                    "full" if equipment >= n * (4000 if team == 2 else 4500) else
                    "eco" if equipment <= n * 1000 else
                    "force" if left < n * 1000 else "half")
            want[(r, team)] = (n, money, equipment, spent, left, kind)
        got = {(r[0], r[1]): r[2:] for r in con.execute("SELECT * FROM buys")}
        self.assertEqual(got, want)
        self.assertEqual({w[5] for w in want.values()}, {"pistol", "full", "eco", "force", "half"})
        # Accuracy per weapon fired.
        fired = {}
        for s in truth["shot"]:
            key = (s["slot"], s["weapon"][len("weapon_"):])
            fired[key] = fired.get(key, 0) + 1
        want = {}
        for (slot, weapon), shots in fired.items():
            hits = [d for d in truth["damage"] if d["attacker"] == slot and
                    d["weapon"] == weapon and d["attacker_team"] != d["victim_team"]]
            heads = sum(1 for d in hits if d["hitgroup"] == "head")
            want[(slot, weapon)] = (shots, len(hits), heads, len(hits) / shots, heads / shots)
        got = {(r[0], r[1]): r[2:] for r in con.execute("SELECT * FROM accuracy")}
        self.assertEqual(set(got), set(want))
        for key, w in want.items():
            self.assertEqual(got[key][:3], w[:3], key)
            self.assertAlmostEqual(got[key][3], w[3], places=12)
            self.assertAlmostEqual(got[key][4], w[4], places=12)

    def test_buy_types_change_at_their_lines(self):
        con, _ = synthetic()
        con.commit()  # (a backup waits on a transaction left open)
        copy = connect()
        con.backup(copy)
        # (start_money, spent, equipment_value) of every player of a side,
        # and the buy type docs/cs2.md's lines give.
        for team, start, spent, equipment, kind in (
                (2, 800, 0, 200, "pistol"), (3, 800, 700, 1000, "pistol"),
                (2, 6000, 3900, 4000, "full"), (2, 6000, 3899, 3999, "half"),
                (3, 6000, 4400, 4500, "full"), (3, 6000, 4399, 4499, "half"),
                (2, 3000, 800, 1000, "eco"), (2, 3000, 801, 1001, "half"),
                (3, 3000, 2001, 2201, "force"), (3, 3000, 2000, 2200, "half")):
            copy.execute("UPDATE economy SET start_money = ?, spent = ?, equipment_value = ? "
                         "WHERE round = 2 AND team = ?", (start, spent, equipment, team))
            self.assertEqual(copy.execute("SELECT buy_type FROM buys WHERE round = 2 AND "
                                          "team = ?", (team,)).fetchone()[0], kind,
                             (team, start, spent, equipment))

    def test_player_stats_give_hltvs_rating_and_the_duels(self):
        con, truth = synthetic()
        kills = truth["kill"]
        per = {}
        for e in truth["economy"]:
            r, s = e["round"], e["slot"]
            mine = [k for k in kills if k["round"] == r]
            per.setdefault(s, []).append((
                sum(1 for k in mine if k["killer"] == s and enemy(k)),
                sum(1 for k in mine if k["victim"] == s),
                sum(1 for k in mine if s in json.loads(k["assisters"])),
                sum(1 for k in mine if k["killer"] == s and enemy(k) and k["headshot"])))
        trades = trades_of(kills, 5 * RATE)
        cols = ["rounds", "apr", "hs_pct", "opening_kills", "opening_deaths", "trade_kills",
                "traded_deaths", "clutches", "clutches_won", "flash_assists", "k1", "k2", "k3",
                "k4", "k5", "rating", "impact"]
        got = {r[0]: dict(zip(cols, r[1:])) for r in con.execute(
            "SELECT slot, %s FROM player_stats" % ", ".join(cols))}
        self.assertEqual(set(got), set(per))
        for slot, rounds in per.items():
            n = len(rounds)
            k = sum(r[0] for r in rounds)
            d = sum(r[1] for r in rounds)
            a = sum(r[2] for r in rounds)
            multi = [sum(1 for r in rounds if r[0] == i) for i in range(1, 5)]
            multi.append(sum(1 for r in rounds if r[0] >= 5))
            rating = (k / n / 0.679 + 0.7 * ((n - d) / n) / 0.317 +
                      sum((i + 1) ** 2 * m for i, m in enumerate(multi)) / n / 1.277) / 2.7
            want = {
                "rounds": n, "apr": a / n,
                "hs_pct": None if k == 0 else 100.0 * sum(r[3] for r in rounds) / k,
                "opening_kills": sum(1 for o in truth["opening"] if o["attacker"] == slot),
                "opening_deaths": sum(1 for o in truth["opening"] if o["victim"] == slot),
                "trade_kills": sum(1 for t in trades if t[2] == slot),
                "traded_deaths": sum(1 for t in trades if t[5] == slot),
                "clutches": sum(1 for c in truth["clutch"] if c["slot"] == slot),
                "clutches_won": sum(1 for c in truth["clutch"] if c["slot"] == slot and
                                    c["won"]),
                "flash_assists": sum(1 for x in kills if enemy(x) and x["assistedflash"] and
                                     slot in json.loads(x["assisters"])),
                "k1": multi[0], "k2": multi[1], "k3": multi[2], "k4": multi[3], "k5": multi[4],
                "rating": rating, "impact": 2.13 * k / n + 0.42 * a / n - 0.41}
            for c in cols:
                if isinstance(want[c], float):
                    self.assertAlmostEqual(got[slot][c], want[c], places=9, msg=(slot, c))
                else:
                    self.assertEqual(got[slot][c], want[c], (slot, c))
        ratings = [g["rating"] for g in got.values()]
        self.assertTrue(0.3 < min(ratings) < max(ratings) < 3, ratings)
        self.assertTrue(any(g["k3"] for g in got.values()), "a triple kill")

    def test_a_round_without_kills_has_no_duels(self):
        con, truth = synthetic("--flaws", rounds=6)
        self.assertFalse([k for k in truth["kill"] if k["round"] == 3])
        for view in ("opening_duels", "trades", "clutches", "multi_kill_rounds"):
            self.assertEqual(con.execute("SELECT count(*) FROM %s WHERE round = 3" % view)
                             .fetchone()[0], 0, view)
        self.assertEqual(con.execute("SELECT count(*) FROM opening_duels").fetchone()[0], 5)
        self.assertEqual(con.execute("SELECT sum(kills), sum(deaths), sum(survived) FROM "
                                     "player_rounds WHERE round = 3").fetchone(), (0, 0, 10))
        self.assertEqual(con.execute("SELECT count(*) FROM player_stats WHERE rating IS NOT "
                                     "NULL").fetchone()[0], 10)
        for kind, view, cols in (("opening", "opening_duels", ["round", "tick", "attacker"]),
                                 ("clutch", "clutches", ["round", "slot", "won", "kills"])):
            self.assertEqual(sorted(con.execute("SELECT %s FROM %s" % (", ".join(cols), view))),
                             sorted(tuple(t[c] for c in cols) for t in truth[kind]))


class RawEvents(unittest.TestCase):
    """The views against a second implementation over the raw player_death
    events, on the synthetic match and every CS2 fixture."""

    def check(self, con):
        kills = raw_kills(con)
        firsts = {}
        for k in kills:
            if enemy(k):
                firsts.setdefault(k["round"], k)
        winners = dict(con.execute("SELECT round, winner FROM rounds"))
        self.assertEqual(
            sorted(con.execute("SELECT round, tick, attacker, victim, weapon, headshot, won "
                               "FROM opening_duels")),
            sorted((r, k["tick"], k["killer"], k["victim"], k["weapon"], k["headshot"],
                    None if winners.get(r) is None else int(winners[r] == k["killer_team"]))
                   for r, k in firsts.items()))
        self.assertEqual(set(con.execute("SELECT round, tick, trader, trader_team, killer, "
                                         "traded, traded_tick FROM trades")),
                         trades_of(kills, 5 * con.execute("SELECT tick_rate FROM match_info")
                                   .fetchone()[0]))
        self.assertEqual(sorted(con.execute("SELECT * FROM clutches")),
                         clutches_of(kills, *round_facts(con)))
        counts = {}
        for k in kills:
            if enemy(k):
                counts[(k["round"], k["killer"])] = counts.get((k["round"], k["killer"]), 0) + 1
        self.assertEqual(set(con.execute("SELECT round, slot, kills FROM multi_kill_rounds")),
                         {(r, s, n) for (r, s), n in counts.items() if n >= 2})
        return len(kills)

    def test_the_synthetic_match(self):
        con, _ = synthetic()
        self.assertGreater(self.check(con), 100)

    def test_every_cs2_fixture(self):
        for stem in CS2:
            with self.subTest(stem):
                self.check(connect(need(stem)))


class ReadmeQueries(unittest.TestCase):
    """The docs' section on CS2's second questions: each query run on
    the gem-synth match, its answer checked against what gem-synth wrote."""

    def test_every_readme_query_answers_what_was_written(self):
        blocks = docs_sql("cs2.md", "## CS2's second questions", "## CS2 aim:")
        self.assertEqual(len(blocks), 6)
        con, truth = synthetic()
        names = dict(con.execute("SELECT slot, name FROM players"))
        board, openings, clutch, buys, utility, aim = (con.execute(sql).fetchall()
                                                       for sql in blocks)
        stats = {r[0]: r[1:] for r in con.execute(
            "SELECT slot, rating, kpr, adr, kast, hs_pct, opening_kills, opening_deaths "
            "FROM player_stats")}
        self.assertEqual(board, [(names[s], *v) for s, v in sorted(
            stats.items(), key=lambda i: (-i[1][0], i[0]))])
        won = {}
        for o in truth["opening"]:
            w = won.setdefault(o["attacker_team"], [0, 0])
            w[0] += 1
            w[1] += o["won"]
        self.assertEqual(openings, [(t, n, w) for t, (n, w) in sorted(won.items())])
        best = {}
        for c in truth["clutch"]:
            if c["won"]:
                best[c["slot"]] = max(best.get(c["slot"], 0), c["opponents"])
        self.assertEqual(clutch, [(names[s], n) for s, n in sorted(
            best.items(), key=lambda i: (-i[1], i[0]))])
        self.assertEqual(buys, con.execute("SELECT round, team, buy_type, equipment_value FROM "
                                           "buys ORDER BY round, team").fetchall())
        self.assertEqual(len(buys), 48)
        flashes = {}
        for k in truth["kill"]:
            if enemy(k) and k["assistedflash"]:
                for a in json.loads(k["assisters"]):
                    flashes[a] = flashes.get(a, 0) + 1
        self.assertEqual({r[0]: r[3] for r in utility}, {names[s]: flashes.get(s, 0)
                                                         for s in names})
        shots = {}
        for s in truth["shot"]:
            shots[s["slot"]] = shots.get(s["slot"], 0) + 1
        self.assertEqual({r[0]: r[2] for r in aim}, {names[s]: n for s, n in shots.items()})


if __name__ == "__main__":
    junit.main()
