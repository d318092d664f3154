"""gem-view's match page in Debian's headless Chromium (playwright-core), on
a 12-minute gem-synth Dota match and a 6-round gem-synth CS2 match: every
number the page shows equals SQL written here apart from gemview/pages.py
(over the timeline, the combat log's rows, the actions, the draft, the
rounds and the CS2 views); the charts' x axes read the game clock at whole
minutes; the M key shows the page; a click on a CS2 round seeks the map to
the round's start; a click on a Dota teamfight seeks to it and draws its
area; the items column is, at the clock's tick, each hero's inventory as of
its last change by then; the ward map draws the wards its range holds. On
CS2's map at chosen ticks: a smoke's area and the seconds it has left, a
grenade in flight with its whole path, the bomb's timer and the round's
clock, against the rounds, grenades, paths and bomb rows."""
import json
import math
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import junit  # noqa: E402
from gemtest import (AUTO, CHECKOUT, FIXTURES, GEM_INDEX, GEM_SYNTH, LIB, TMP,  # noqa: E402
                     connect, replay_path, synthetic_index)
from view_test import Server  # noqa: E402

VIEW = os.path.join(CHECKOUT, "tools", "view")
SHOTS = os.environ.get("GEM_VIEW_SHOTS")
CS2 = "cs2_demofilenet_14155_de_dust2"
DEADLOCK = "deadlock_demofilenet_hltv_10423_dl_midtown"


def need_browser(test):
    if not os.path.exists("/usr/bin/chromium"):
        test.skipTest("SKIPPED: /usr/bin/chromium is not installed (tools/setup.sh installs it)")
    if not os.path.isdir(os.path.join(VIEW, "node_modules", "playwright-core")):
        test.skipTest("SKIPPED: tools/view/node_modules is missing (tools/setup.sh runs npm ci)")


def run_page(test, path, label, ticks=()):
    """page_check.js on the index at `path` (a server started for it) or on
    a report (a file:// URL)."""
    server = None if path.startswith("file://") else Server(path)
    shot = os.path.join(SHOTS or TMP, "page-%s.png" % label)
    try:
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        run = subprocess.run(["node", os.path.join(VIEW, "page_check.js"),
                              server.url if server else path, shot, json.dumps(list(ticks))],
                             capture_output=True, text=True, timeout=240, cwd=VIEW, env=env)
    finally:
        if server:
            server.close()
    test.assertEqual(run.returncode, 0, run.stderr[-2000:])
    out = json.loads(run.stdout)
    test.assertIsNone(out.get("error"), label)
    test.assertEqual(out["errors"], [], label)
    test.assertGreater(os.path.getsize(shot), 20000)
    # The browser's timings are figures, printed (never asserted).
    t = out.get("timings", {})
    frames = sorted(t.get("frame_ms") or [0])
    print("%s: first paint %.0f ms, match page %.0f ms, %d frame requests p50 %.1f ms p99 "
          "%.1f ms" % (label, t.get("first_paint_ms") or 0, t.get("page_ms") or 0,
                       len(t.get("frame_ms") or []), frames[len(frames) // 2],
                       frames[min(len(frames) - 1, int(0.99 * len(frames)))]))
    return out


def check_clock(test, labels):
    """The x labels: m:ss at whole minutes, in order."""
    test.assertTrue(labels)
    minutes = []
    for s in labels:
        m = re.match(r"^(-?)(\d+):(\d\d)$", s)
        test.assertIsNotNone(m, s)
        test.assertEqual(m.group(3), "00", s)
        minutes.append(int(m.group(2)) * (-1 if m.group(1) else 1))
    test.assertEqual(minutes, sorted(set(minutes)))


def game_time_at(con, tick):
    """The page's clock at a tick: the last timeline sample's game_time at
    or before it, plus the ticks since."""
    row = con.execute("SELECT tick, max(game_time) FROM timeline WHERE tick = (SELECT max(tick) "
                      "FROM timeline WHERE tick <= ?)", (tick,)).fetchone()
    interval = con.execute("SELECT value FROM meta WHERE key = 'tick_interval'").fetchone()[0]
    if row[0] is None:
        first = con.execute("SELECT value FROM meta WHERE key = 'first_tick'").fetchone()[0]
        return (tick - first) * interval
    return row[1] + (tick - row[0]) * interval


def check_heatmaps(test, con, out, game):
    """Every heatmap the page drew: its bins equal a count of the same rows
    by square, here in Python; and the PNG saved is one."""
    size = {"dota2": 256, "cs2": 64}[game]
    sql = {
        "positions": "SELECT x, y, tick, slot, team FROM timeline WHERE alive = 1",
        "deaths": "SELECT k.x, k.y, k.tick, k.victim, p.team FROM kills k LEFT JOIN players p "
                  "ON p.slot = k.victim",
        "grenades": "SELECT g.x, g.y, g.detonate_tick, g.thrower, e.team FROM grenades g "
                    "LEFT JOIN economy e ON e.slot = g.thrower AND e.round = g.round "
                    "WHERE g.detonate_tick IS NOT NULL",
        "wards": "SELECT x, y, placed_tick, owner, team FROM wards",
    }
    test.assertTrue(out["heatmaps"])
    for name, h in out["heatmaps"].items():
        kind = h["kind"]
        who = h["who"].split(":") if h["who"] else None
        counts = {}
        for x, y, tick, slot, team in con.execute(sql[kind]):
            if x is None or y is None or tick is None or not h["from"] <= tick <= h["to"]:
                continue
            if who and ((who[0] == "slot" and slot != int(who[1])) or
                        (who[0] == "team" and team != int(who[1]))):
                continue
            key = (math.floor(x / size), math.floor(y / size))
            counts[key] = counts.get(key, 0) + 1
        test.assertEqual(h["bin"], size)
        test.assertEqual({(i, j): n for i, j, n in h["bins"]}, counts, name)
        test.assertTrue(counts, name)
    with open(out["png"], "rb") as f:
        data = f.read()
    test.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
    test.assertGreater(len(data), 10000)


def report(test, path, label):
    """gem-view --export of the index: the report's path (and it is one
    file, with no outside reference)."""
    out = os.path.join(TMP, "report-%s.html" % label)
    run = subprocess.run(["/usr/bin/python3", os.path.join(VIEW, "gem-view"), path,
                          "--extension", LIB, "--export", out], capture_output=True, text=True,
                         timeout=120)
    test.assertEqual(run.returncode, 0, run.stderr)
    with open(out, encoding="utf-8") as f:
        text = f.read()
    test.assertNotRegex(text, r'(src|href)="(/|https?:)', "nothing outside the file")
    return "file://" + out


class DotaPage(unittest.TestCase):
    def path(self):
        need_browser(self)
        path = synthetic_index(12, 11)
        if path is None:
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (AUTO, FIXTURES))
        return path

    def test_the_numbers_and_controls(self):
        path = self.path()
        self.check(run_page(self, path, "dota2"), connect(path))

    def test_the_report_offline_shows_the_same(self):
        path = self.path()
        out = run_page(self, report(self, path, "dota2"), "dota2-report")
        self.assertEqual(out["requests"], [])
        self.check(out, connect(path))

    def check(self, out, con):
        for labels in out["clock"].values():
            check_clock(self, labels)
        page = out["page"]
        minutes = con.execute("SELECT duration_s / 60.0 FROM match_info").fetchone()[0]
        names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        teams = dict(con.execute("SELECT slot, team FROM players"))
        slot_of = {h: s for s, h in heroes.items()}
        damage, healing = {}, {}
        for kind, source, target, hero, illusion, value in con.execute(
                "SELECT type, damage_source_name_idx, target_name_idx, is_target_hero, "
                "is_target_illusion, value FROM combat_log_entries WHERE type IN (0, 1)"):
            slot = slot_of.get(names.get(source))
            if slot is None or not hero or illusion:
                continue
            if kind == 0 and names.get(target) != heroes[slot]:
                damage[slot] = damage.get(slot, 0) + value
            if kind == 1:
                healing[slot] = healing.get(slot, 0) + value
        actions = dict(con.execute("SELECT slot, count(*) FROM actions GROUP BY slot"))
        self.assertEqual(len(page["players"]), 10)
        for slot, shown in page["players"].items():
            slot = int(slot)
            last = con.execute("SELECT kills, deaths, assists, last_hits, denies, net_worth, "
                               "earned_gold, xp FROM timeline WHERE slot = ? ORDER BY tick DESC "
                               "LIMIT 1", (slot,)).fetchone()
            self.assertEqual(shown["kda"], list(last[:3]), slot)
            self.assertEqual((shown["lh"], shown["dn"], shown["nw"]), last[3:6], slot)
            # (JavaScript's Math.round: halves up.)
            self.assertEqual(shown["gpm"], math.floor(last[6] / minutes + 0.5), slot)
            self.assertEqual(shown["xpm"], math.floor(last[7] / minutes + 0.5), slot)
            self.assertEqual(shown["damage"], damage.get(slot, 0), slot)
            self.assertEqual(shown["healing"], healing.get(slot, 0), slot)
            self.assertEqual(shown["apm"], int(actions.get(slot, 0) // minutes), slot)
        self.assertEqual(page["draft"], [list(r) for r in con.execute(
            "SELECT team, is_pick, hero FROM draft ORDER BY ord")])
        # The advantage: Radiant's net worth and XP less Dire's, every sample.
        sums = {}
        for tick, slot, nw, xp in con.execute("SELECT tick, slot, net_worth, xp FROM timeline"):
            s = sums.setdefault(tick, [0, 0])
            sign = 1 if teams[slot] == 2 else -1
            s[0] += sign * (nw or 0)
            s[1] += sign * (xp or 0)
        adv = page["advantage"]
        self.assertEqual(adv["ticks"], sorted(sums))
        self.assertEqual(adv["gold"], [sums[t][0] for t in adv["ticks"]])
        self.assertEqual(adv["xp"], [sums[t][1] for t in adv["ticks"]])
        self.assertGreater(adv["marks"], 10)
        fights = con.execute("SELECT id, deaths FROM teamfights ORDER BY id").fetchall()
        self.assertEqual([(f["id"], f["deaths"]) for f in page["fights"]], fights)
        for f in page["fights"]:
            self.assertEqual(f["players"], {str(s): [g, d, x] for s, g, d, x in con.execute(
                "SELECT slot, damage, deaths, gold_delta FROM teamfight_players WHERE id = ? "
                "AND (damage <> 0 OR deaths <> 0 OR gold_delta <> 0)", (f["id"],))})
            for team in (2, 3):
                self.assertEqual(f["gold"][str(team)], con.execute(
                    "SELECT total(gold_delta) FROM teamfight_players t JOIN players p USING "
                    "(slot) WHERE t.id = ? AND p.team = ?", (f["id"], team)).fetchone()[0])
        # The skill builds: each rise of an ability's level over its row
        # before (the level it was first seen at is not a point spent).
        level, builds = {}, {}
        for slot, ability, lv in con.execute("SELECT slot, ability, level FROM abilities "
                                             "WHERE ability IS NOT NULL ORDER BY tick, id"):
            if (slot, ability) in level and lv > level[(slot, ability)]:
                builds.setdefault(str(slot), []).append([ability, lv])
            level[(slot, ability)] = lv
        self.assertEqual(page["skills"], builds)
        self.assertGreater(sum(len(b) for b in builds.values()), 20)
        # The items at the last tick.
        held = {}
        for slot, position, item in con.execute("SELECT slot, position, item FROM inventory "
                                                "WHERE position <= 5 ORDER BY tick, id"):
            held.setdefault(slot, {})[position] = item
        self.assertEqual(out["items_last"]["held"], {
            str(s): [i for _, i in sorted(p.items()) if i is not None] for s, p in held.items()})
        # The wards placed from -2:00 to 5:00 of the clock.
        wards = sum(1 for tick, x in con.execute("SELECT placed_tick, x FROM wards")
                    if x is not None and -120 <= game_time_at(con, tick) <= 300)
        self.assertEqual(out["wards_5"]["drawn"], wards)
        self.assertGreater(wards, 0)
        check_heatmaps(self, con, out, "dota2")
        self.assertEqual(set(out["heatmaps"]), {"positions", "deaths", "wards", "all_positions"})
        # The first teamfight, chosen: the map at its start, its area drawn.
        first = con.execute("SELECT id, start_tick, x, y FROM teamfights ORDER BY id").fetchone()
        self.assertEqual(out["fight"]["tick"], first[1])
        self.assertTrue(out["fight"]["map"])
        self.assertEqual(out["fight"]["fight"]["id"], first[0])
        self.assertAlmostEqual(out["fight"]["fight"]["x"], first[2], places=3)


class Cs2Page(unittest.TestCase):
    def path(self):
        need_browser(self)
        fixture = replay_path(CS2)
        if not os.path.exists(fixture):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (CS2, FIXTURES))
        stem = os.path.join(TMP, "page-cs2")
        if not os.path.exists(stem + ".db"):
            subprocess.run([GEM_SYNTH, "--from", fixture, "--rounds", "6", "--seed", "7",
                            "--quiet", stem + ".dem"], check=True)
            subprocess.run([GEM_INDEX, "--quiet", "--force", stem + ".dem", stem + ".db"],
                           check=True)
        return stem + ".db"

    def test_the_numbers_the_round_bar_and_one_round(self):
        self.check(self.path(), "cs2")

    def test_the_report_offline_shows_the_same(self):
        path = self.path()
        self.check(path, "cs2-report", report(self, path, "cs2"))

    def check(self, path, label, url=None):
        con = connect(path)
        # Ticks with a smoke or a fire burning, a grenade in flight, a bomb
        # ticking (in a round where it went off).
        smoke = con.execute("SELECT id, detonate_tick + 40, end_tick, x, y FROM grenades WHERE "
                            "kind = 'smoke' AND end_tick > detonate_tick + 40").fetchone()
        flying = con.execute("SELECT id, throw_tick + 5 FROM grenades WHERE detonate_tick > "
                             "throw_tick + 5").fetchone()
        bomb = con.execute("SELECT p.tick + 64, e.tick, p.x, p.site FROM bomb p JOIN bomb e ON "
                           "e.round = p.round AND e.kind = 'explode' WHERE p.kind = 'plant' AND "
                           "e.tick > p.tick + 64").fetchone()
        self.assertTrue(smoke and flying and bomb)
        out = run_page(self, url or path, label, [smoke[1], flying[1], bomb[0]])
        self.assertEqual(out["requests"], [])
        rate = 1 / con.execute("SELECT value FROM meta WHERE key = 'tick_interval'").fetchone()[0]
        state = out["states"][str(smoke[1])]["cs2"]
        area = [a for a in state["areas"] if a["id"] == smoke[0]]
        self.assertEqual(len(area), 1)
        self.assertEqual(area[0]["kind"], "smoke")
        self.assertAlmostEqual(area[0]["left"], (smoke[2] - smoke[1]) / rate, places=6)
        self.assertAlmostEqual(area[0]["x"], smoke[3], places=3)
        state = out["states"][str(flying[1])]["cs2"]
        path = [g for g in state["grenades"] if g["id"] == flying[0]]
        self.assertEqual(len(path), 1)
        self.assertEqual([p[2] for p in path[0]["path"]], [t for (t,) in con.execute(
            "SELECT tick FROM grenade_paths WHERE id = ? ORDER BY tick", (flying[0],))])
        state = out["states"][str(bomb[0])]["cs2"]
        self.assertAlmostEqual(state["bomb"]["left"], (bomb[1] - bomb[0]) / rate, places=6)
        self.assertEqual(state["bomb"]["site"], bomb[3])
        round_, freeze_end = con.execute("SELECT round, freeze_end_tick FROM rounds WHERE "
                                         "start_tick <= ? ORDER BY round DESC LIMIT 1",
                                         (bomb[0],)).fetchone()
        self.assertEqual(state["round"], round_)
        self.assertAlmostEqual(state["clock"], (bomb[0] - freeze_end) / rate, places=6)
        self.assertTrue(out["states"][str(bomb[0])]["time"].startswith("R%d " % round_))
        for labels in out["clock"].values():
            check_clock(self, labels)
        page = out["page"]
        rounds = con.execute("SELECT round, winner, reason, coalesce(start_tick, tick) FROM rounds "
                             "ORDER BY round").fetchall()
        self.assertEqual([(r["round"], r["winner"], r["reason"], r["seek"]) for r in page["rounds"]],
                         rounds)
        glyphs = {"ct_eliminated": "elimination", "t_eliminated": "elimination",
                  "bomb_exploded": "bomb", "bomb_defused": "defuse", "target_saved": "time"}
        for r in page["rounds"]:
            self.assertEqual(r["glyph"], glyphs[r["reason"]], r)
        self.assertEqual(page["buys"], {"%d/%d" % (r, t): [e, b] for r, t, e, b in con.execute(
            "SELECT round, team, equipment_value, buy_type FROM buys")})
        stats = {r[0]: r[1:] for r in con.execute(
            "SELECT slot, kpr, adr, kast, hs_pct, rating, opening_kills, opening_deaths, "
            "clutches_won, clutches FROM player_stats")}
        self.assertEqual(set(int(s) for s in page["players"]), set(stats))
        for slot, shown in page["players"].items():
            s = stats[int(slot)]
            self.assertEqual([shown["kpr"], shown["adr"], shown["kast"], shown["hs"],
                              shown["rating"]], list(s[:5]), slot)
            self.assertEqual(shown["opening"], list(s[5:7]), slot)
            self.assertEqual(shown["kda"], list(con.execute(
                "SELECT total(kills), total(deaths), total(assists) FROM player_rounds "
                "WHERE slot = ?", (int(slot),)).fetchone()), slot)
            self.assertEqual(shown["clutches"], list(s[7:9]), slot)
        check_heatmaps(self, con, out, "cs2")
        self.assertEqual(set(out["heatmaps"]), {"positions", "deaths", "grenades",
                                                "all_positions"})
        # The second round's box seeks the map to that round's start.
        self.assertEqual(out["round_seek"]["tick"], rounds[1][3])
        self.assertFalse(out["round_seek"]["page"], "the map is shown")
        # Round 2 alone.
        self.assertEqual(out["round_view"]["over"], 2)
        want = {str(s): {"kills": k, "deaths": d, "assists": a, "damage": g, "kast": t}
                for s, k, d, a, g, t in con.execute(
                    "SELECT slot, kills, deaths, assists, damage, kast FROM player_rounds "
                    "WHERE round = 2")}
        self.assertEqual(out["round_view"]["players"], want)


class DeadlockPage(unittest.TestCase):
    def test_the_players_and_the_souls_advantage(self):
        need_browser(self)
        fixture = replay_path(DEADLOCK)
        if not os.path.exists(fixture):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (DEADLOCK, FIXTURES))
        stem = os.path.join(TMP, "page-deadlock")
        subprocess.run([GEM_SYNTH, "--from", fixture, "--minutes", "4", "--seed", "5",
                        "--troopers", "2", "--quiet", stem + ".dem"], check=True)
        subprocess.run([GEM_INDEX, "--quiet", "--force", stem + ".dem", stem + ".db"], check=True)
        out = run_page(self, stem + ".db", "deadlock")
        con = connect(stem + ".db")
        for labels in out["clock"].values():
            check_clock(self, labels)
        page = out["page"]
        want = {}
        for slot, k, d, a, souls in con.execute(
                "SELECT slot, kills, deaths, assists, souls FROM timeline t WHERE tick = "
                "(SELECT max(tick) FROM timeline u WHERE u.slot = t.slot)"):
            want[str(slot)] = {"kda": [k, d, a], "souls": souls}
        self.assertEqual(page["players"], want)
        sums = dict(con.execute(
            "SELECT tick, total(CASE p.team WHEN 2 THEN souls WHEN 3 THEN -souls END) "
            "FROM timeline JOIN players p USING (slot) GROUP BY tick"))
        self.assertEqual(page["advantage"]["ticks"], sorted(sums))
        self.assertEqual(page["advantage"]["souls"], [sums[t] for t in sorted(sums)])
        self.assertEqual(page.get("objectives", []), [list(r) for r in con.execute(
            "SELECT destroyed_tick, team FROM objectives WHERE destroyed_tick IS NOT NULL "
            "ORDER BY destroyed_tick, entity")])


if __name__ == "__main__":
    junit.main()
