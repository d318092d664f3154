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
clock, against the rounds, grenades, paths and bomb rows.

The names a reader sees (issue 49), on the page and in each report, read
off the page's text: Dota's heroes, items, abilities and talents against
OpenDota's dotaconstants JSON as this test reads it (not through gemview),
no `special_bonus_` text anywhere on the page or the map; the skill grids,
the item timings and each teamfight's players against SQL here; Deadlock's
heroes (its heroes table, else deadlock_names.json) and items; CS2's
weapons (cs2_weapons.json) in the players' table and the kill feed.
gem-names' table and docs/names.md's queries over it: the same names."""
import json
import math
import os
import re
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from gemtest import (AUTO, CHECKOUT, FIXTURES, GEM_INDEX, GEM_SYNTH, LIB, TMP,  # noqa: E402
                     connect, replay_path)
from view_names import _json, check_name, dota_names, no_internal_talents  # noqa: E402
from view_panels import (check_aim, check_fights_and_souls, check_lane_leads,  # noqa: E402
                         check_vision)
from view_test import Server  # noqa: E402

VIEW = os.path.join(CHECKOUT, "tools", "view")
SHOTS = os.environ.get("GEM_VIEW_SHOTS")
CS2 = "cs2_demofilenet_14155_de_dust2"
DEADLOCK = "deadlock_demofilenet_hltv_10423_dl_midtown"


def clock_text(s):
    """core.js's clockText: m:ss of a game time (JavaScript's Math.round)."""
    whole = abs(math.floor(s + 0.5))
    return "%s%d:%02d" % ("-" if s < 0 else "", whole // 60, whole % 60)


def js_text(v):
    """A number as JavaScript writes it into the page."""
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


def skill_grid(points):
    """The grid the page should draw of a hero's points ([ability, level]
    in the order spent): its width (30 levels, or more points) and each
    ability's row (in the order of its first point): the ability's level
    after the k-th point in column k, empty elsewhere."""
    width = max(30, len(points))
    order, marks = [], {}
    for k, (ability, level) in enumerate(points, 1):
        if ability not in marks:
            order.append(ability)
            marks[ability] = {}
        marks[ability][k] = level
    return width, [(a, [js_text(marks[a].get(c, "")) for c in range(1, width + 1)])
                   for a in order]


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


def synthetic_match(test, stem, source, *options):
    """gem-synth's match of `source` (a fixture's stem) with `options`,
    indexed once, as TMP/`stem`.db; the test skipped without the fixture."""
    fixture = replay_path(source)
    if not os.path.exists(fixture):
        test.skipTest("SKIPPED: fixture %s.dem not found in %s" % (source, FIXTURES))
    stem = os.path.join(TMP, stem)
    if not os.path.exists(stem + ".db"):
        subprocess.run([GEM_SYNTH, "--from", fixture] + list(options) +
                       ["--quiet", stem + ".dem"], check=True)
        subprocess.run([GEM_INDEX, "--quiet", "--force", stem + ".dem", stem + ".db"],
                       check=True)
    return stem + ".db"


def vision_index(test):
    """The 12-minute gem-synth Dota match with smokes and dewards
    (--vision), indexed once."""
    return synthetic_match(test, "page-dota-vision", AUTO, "--minutes", "12", "--seed", "11",
                           "--vision")


def cs2_index(test):
    """The 6-round gem-synth CS2 match, indexed once (seed 5: a bomb goes off
    in it, which the page's checks need)."""
    return synthetic_match(test, "page-cs2", CS2, "--rounds", "6", "--seed", "5")


def deadlock_index(test):
    """The 6-minute gem-synth Deadlock match (its lanes reach 5:00), indexed
    once."""
    return synthetic_match(test, "page-deadlock", DEADLOCK, "--minutes", "6", "--seed", "5",
                           "--troopers", "2")


class DotaPage(unittest.TestCase):
    def path(self):
        need_browser(self)
        return vision_index(self)

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
            self.assertEqual(f["players"], {str(r[0]): list(r[1:]) for r in con.execute(
                "SELECT slot, deaths, damage, healing, gold_delta, xp_delta FROM "
                "teamfight_players WHERE id = ? AND (deaths <> 0 OR damage <> 0 OR "
                "healing <> 0)", (f["id"],))})
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
        check_vision(self, page, con, game_time_at)
        check_heatmaps(self, con, out, "dota2")
        self.assertEqual(set(out["heatmaps"]), {"positions", "deaths", "wards", "all_positions"})
        self.check_names(out, con, builds)
        # The first teamfight, chosen: the map at its start, its area drawn.
        first = con.execute("SELECT id, start_tick, x, y FROM teamfights ORDER BY id").fetchone()
        self.assertEqual(out["fight"]["tick"], first[1])
        self.assertTrue(out["fight"]["map"])
        self.assertEqual(out["fight"]["fight"]["id"], first[0])
        self.assertAlmostEqual(out["fight"]["fight"]["x"], first[2], places=3)


    def check_names(self, out, con, builds):
        """What a reader sees of heroes, items, abilities and talents: the
        names dotaconstants gives (read here), the skill grids, the item
        timings and each fight's players against SQL."""
        names = dota_names()
        dom, last = out["dom"], out["dom_last"]
        no_internal_talents(self, out)
        heroes = dict(con.execute("SELECT slot, hero FROM players"))
        teams = dict(con.execute("SELECT slot, team FROM players"))
        draft = con.execute("SELECT is_pick, hero FROM draft ORDER BY ord").fetchall()
        self.assertEqual(len(dom["draft"]), len(draft))
        for shown, (is_pick, hero) in zip(dom["draft"], draft):
            verb, _, name = shown.partition(" ")
            self.assertEqual(verb, "pick" if is_pick else "ban")
            check_name(self, name, hero, names["hero"])
        self.assertEqual(set(dom["players"]), {str(s) for s in heroes})
        for slot, hero in heroes.items():
            check_name(self, dom["players"][str(slot)][0], hero, names["hero"])
        # The items column at the last tick: the held items' names.
        for slot, held in out["items_last"]["held"].items():
            self.assertEqual(last["players"][slot][-1], ", ".join(
                names["item"].get(i, i) for i in held), slot)
        self.assertTrue(any(out["items_last"]["held"].values()))
        # The skill grids: a row per ability, a column per level.
        talents = 0
        for slot, hero in heroes.items():
            grid = dom["grids"][str(slot)]
            width, rows = skill_grid(builds.get(str(slot), []))
            check_name(self, grid["head"][0], hero, names["hero"])
            self.assertEqual(grid["head"][1:], [str(i) for i in range(1, width + 1)])
            self.assertEqual(len(grid["rows"]), len(rows), slot)
            for shown, (ability, marks) in zip(grid["rows"], rows):
                check_name(self, shown[0], ability, names["ability"])
                self.assertEqual(shown[1:], marks, (slot, ability))
                talents += ability.startswith("special_bonus_")
        self.assertGreater(talents, 5, "the grids show talents")
        # The item timings: every purchase of each hero at its game time.
        buys = {}
        for slot, game_time, item in con.execute(
                "SELECT slot, game_time, item FROM purchases WHERE item IS NOT NULL "
                "ORDER BY slot, tick, id"):
            buys.setdefault(slot, []).append((clock_text(game_time), item))
        self.assertTrue(buys)
        for slot, hero in heroes.items():
            row = dom["times"][str(slot)]
            check_name(self, row["hero"], hero, names["hero"])
            self.assertEqual(len(row["buys"]), len(buys.get(slot, [])), slot)
            for shown, (clock, item) in zip(row["buys"], buys.get(slot, [])):
                at, _, name = shown.partition(" ")
                self.assertEqual(at, clock, (slot, item))
                check_name(self, name, item, names["item"])
        # Each teamfight's players: who had a death, damage or healing in
        # it, Radiant's first, with their hero, deaths, damage, healing,
        # gold and XP.
        fought = {}
        for row in con.execute("SELECT id, slot, deaths, damage, healing, gold_delta, "
                               "xp_delta FROM teamfight_players WHERE deaths <> 0 OR "
                               "damage <> 0 OR healing <> 0"):
            fought.setdefault(row[0], []).append(row[1:])
        self.assertEqual([f["id"] for f in dom["fights"]],
                         [i for (i,) in con.execute("SELECT id FROM teamfights ORDER BY id")])
        for f in dom["fights"]:
            want = sorted(fought.get(f["id"], []), key=lambda r: (teams[r[0]], r[0]))
            self.assertEqual([p[0] for p in f["players"]], [r[0] for r in want], f["id"])
            for shown, row in zip(f["players"], want):
                check_name(self, shown[1], heroes[row[0]], names["hero"])
                self.assertEqual(shown[2:], [js_text(v) for v in row[1:]], f["id"])


class Cs2Page(unittest.TestCase):
    def path(self):
        need_browser(self)
        return cs2_index(self)

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
        check_aim(self, page, con)
        self.check_weapons(out, con)

    def check_weapons(self, out, con):
        """The players' kills by weapon and the kill feed, by the weapons'
        names (cs2_weapons.json, read here)."""
        no_internal_talents(self, out)
        table = _json(os.path.join(VIEW, "cs2_weapons.json"))["weapons"]

        def name(w):
            return table.get(w[len("weapon_"):] if w.startswith("weapon_") else w, w)

        want = {}
        for slot, weapon, n in con.execute(
                "SELECT killer, weapon, count(*) AS n FROM enemy_kills WHERE killer IS NOT "
                "NULL AND weapon IS NOT NULL GROUP BY killer, weapon ORDER BY killer, n DESC, "
                "weapon"):
            want.setdefault(slot, []).append((weapon, n))
        self.assertTrue(want)
        self.assertEqual(set(out["dom"]["players"]), set(out["page"]["players"]))
        for slot, cells in out["dom"]["players"].items():
            kills = want.get(int(slot), [])
            self.assertEqual(cells[-1], ", ".join("%s %d" % (name(w), n) for w, n in kills), slot)
            self.assertEqual(out["page"]["players"][slot]["weapons"], [list(k) for k in kills])
        # The kill feed at the last tick: its last 15 kills, each with its
        # weapon's name, none with the event's.
        feed = [w for (w,) in con.execute("SELECT weapon FROM kills ORDER BY tick, id")][-15:]
        self.assertTrue([w for w in feed if w])
        for w in {w for w in feed if w}:
            self.assertIn("(%s)" % name(w), out["map_text"])
            if name(w) != w:
                self.assertNotIn("(%s)" % w, out["map_text"])


class DeadlockPage(unittest.TestCase):
    def path(self):
        need_browser(self)
        return deadlock_index(self)

    def test_the_players_and_the_souls_advantage(self):
        path = self.path()
        self.check(run_page(self, path, "deadlock"), connect(path))

    def test_the_report_offline_shows_the_same(self):
        path = self.path()
        out = run_page(self, report(self, path, "deadlock"), "deadlock-report")
        self.assertEqual(out["requests"], [])
        self.check(out, connect(path))

    def check(self, out, con):
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
        check_lane_leads(self, page, con)
        check_fights_and_souls(self, page, con)
        self.check_names(out, con)

    def check_names(self, out, con):
        """Heroes by the index's own heroes table, else deadlock_names.json
        (read here); the items held at the page's tick (the inventory's
        rows replayed here) by the file's names."""
        no_internal_talents(self, out)
        local = _json(os.path.join(VIEW, "deadlock_names.json"))
        engine = dict(con.execute("SELECT internal_name, name FROM heroes WHERE internal_name "
                                  "IS NOT NULL AND name IS NOT NULL"))
        players = dict(con.execute("SELECT slot, hero FROM players"))
        self.assertEqual(set(out["dom"]["players"]), {str(s) for s in players})
        for slot, hero in players.items():
            want = engine.get(hero) or local["heroes"].get(hero) or hero
            self.assertEqual(out["dom"]["players"][str(slot)][0], want, slot)
            self.assertNotEqual(want, hero, "a fixture's hero is named")
        items = out["page"]["items"]
        held = {}
        for slot, position, item in con.execute("SELECT slot, position, item FROM inventory "
                                                "WHERE tick <= ? ORDER BY tick, id",
                                                (items["tick"],)):
            held.setdefault(slot, {})[position] = item
        want = {str(s): [i for _, i in sorted(held.get(s, {}).items()) if i is not None]
                for s in players}
        self.assertEqual(items["held"], want)
        self.assertTrue(any(want.values()))
        for slot, list_ in want.items():
            self.assertEqual(out["dom"]["players"][slot][-1], ", ".join(
                local["items"].get(i, i) for i in list_), slot)


if __name__ == "__main__":
    junit.main()
