"""gem-corpus benchmarks over a corpus of synthetic Dota and CS2 matches and
the fixtures, on Dask (the embedded cluster): every player's figures must
equal what this test computes apart from each index's raw rows (the
timeline, the combat log's entries and names, the rounds), each
percentile numpy's of those figures, and docs/corpus.md's ranking query its
answer. A re-run reads only the new index (an old one made unreadable does
not matter), gives what a build from nothing gives, and drops a replay no
longer indexed."""
import os
import shutil
import sqlite3
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from gemtest import (AUTO, FIXTURES, GEM_INDEX, GEM_SYNTH, LIB, TMP, docs_sql,  # noqa: E402
                     replay_path)

CORPUS = os.path.join(os.environ.get("TEST_SRCDIR", ""), os.environ.get("TEST_WORKSPACE", ""),
                      "tools", "corpus", "gem-corpus")
TOOLS = ["--gem-index", GEM_INDEX, "--extension", LIB]
CS2 = "cs2_demofilenet_14155_de_dust2"
PERCENTILES = (10, 25, 50, 75, 90)
DOTA = ["gpm", "xpm", "kills", "last_hits", "hero_damage_pm", "healing_pm", "tower_damage",
        "camps_stacked"]
WARDS = ["observer_life_s", "sentry_life_s"]
AIM = ["time_to_damage_ms", "crosshair_angle", "rifle_counter_strafed"]
_made = {}


def corpus(*args, check=True):
    return subprocess.run([CORPUS] + TOOLS + list(args), capture_output=True, text=True,
                          timeout=300, check=check)


def made():
    """(corpus DIR, replay DIR): three Dota matches, two CS2 matches, the
    fixtures; indexed and benchmarked once."""
    if "dir" in _made:
        return _made["dir"], _made["replays"]
    if not os.path.exists(replay_path(AUTO)) or not os.path.exists(replay_path(CS2)):
        raise unittest.SkipTest("SKIPPED: fixtures not found in %s" % FIXTURES)
    replays = os.path.join(TMP, "bench-replays")
    os.makedirs(replays)
    for name in sorted(os.listdir(FIXTURES)):
        if name.endswith(".dem"):
            os.symlink(os.path.join(FIXTURES, name), os.path.join(replays, name))
    for seed in (1, 2, 3):
        subprocess.run([GEM_SYNTH, "--from", replay_path(AUTO), "--minutes", "1.5", "--seed",
                        str(seed), "--quiet", os.path.join(replays, "dota-%d.dem" % seed)],
                       check=True)
    for seed in (1, 2):
        subprocess.run([GEM_SYNTH, "--from", replay_path(CS2), "--rounds", "4", "--seed",
                        str(seed), "--quiet", os.path.join(replays, "cs2-%d.dem" % seed)],
                       check=True)
    out = os.path.join(TMP, "bench-corpus")
    # (The 2014 beta fixtures fail, as gem refuses them: exit 1.)
    corpus("index", "--out", out, "--workers", "2", "--quiet", replays, check=False)
    corpus("benchmarks", out, "--workers", "2")
    _made.update(dir=out, replays=replays)
    return out, replays


def indexes(out, game):
    con = sqlite3.connect(os.path.join(out, "catalog.db"))
    rows = con.execute("SELECT sha256, index_path, map FROM replays WHERE status = 'indexed' "
                       "AND game = ? ORDER BY id", (game,)).fetchall()
    con.close()
    return [(sha, os.path.join(out, path), map_) for sha, path, map_ in rows]


def dota_figures(path):
    """{slot: (hero, minutes, gpm, xpm, kills, last_hits, hero_damage_pm,
    healing_pm, tower_damage, camps_stacked)} of one index, from its raw
    rows: the last timeline sample of each player, the game clock at the
    end, and the combat log's damage (type 0) and heal (type 1) entries
    credited to the player whose hero is the damage source."""
    con = sqlite3.connect(path)
    duration = con.execute("SELECT duration_s FROM match_info").fetchone()[0]
    if not duration or duration <= 0:
        return {}
    minutes = duration / 60.0
    names = dict(con.execute("SELECT idx, name FROM combat_log_names"))
    heroes = {s: h for s, h in con.execute("SELECT slot, hero FROM players") if h is not None}
    slot_of = {h: s for s, h in heroes.items()}
    last = {}
    for row in con.execute("SELECT slot, tick, earned_gold, xp, kills, last_hits, "
                           "camps_stacked FROM timeline"):
        if row[0] not in last or row[1] > last[row[0]][0]:
            last[row[0]] = row[1:]
    damage, healing, towers = {}, {}, {}
    for kind, source, target, hero, illusion, value in con.execute(
            "SELECT type, damage_source_name_idx, target_name_idx, is_target_hero, "
            "is_target_illusion, value FROM combat_log_entries WHERE type IN (0, 1)"):
        slot = slot_of.get(names.get(source))
        if slot is None:
            continue
        target = names.get(target) or ""
        real = bool(hero) and not illusion
        if kind == 0 and real and target != heroes[slot]:
            damage[slot] = damage.get(slot, 0) + value
        if kind == 1 and real:
            healing[slot] = healing.get(slot, 0) + value
        if kind == 0 and "_tower" in target:
            towers[slot] = towers.get(slot, 0) + value
    con.close()
    return {s: (h, minutes, last[s][1] / minutes, last[s][2] / minutes, last[s][3],
                last[s][4], damage.get(s, 0) / minutes, healing.get(s, 0) / minutes,
                towers.get(s, 0), last[s][5]) for s, h in heroes.items() if s in last}


def ward_figures(path):
    """{slot: (hero, observer_life_s, sentry_life_s)} of one index that
    reached the horn: the mean ward_lives lifetime of each kind a player
    placed (None for a kind none of), players with a ward only."""
    con = sqlite3.connect(path)
    duration = con.execute("SELECT duration_s FROM match_info").fetchone()[0]
    if not duration or duration <= 0:
        return {}
    heroes = {s: h for s, h in con.execute("SELECT slot, hero FROM players") if h is not None}
    lives = {}
    for owner, kind, life in con.execute("SELECT owner, kind, lifetime_s FROM ward_lives"):
        mine = lives.setdefault(owner, {}).setdefault(kind, [])
        if life is not None:  # (a ward placed before the clock has no lifetime)
            mine.append(life)
    con.close()

    def mean(v):
        return sum(v) / len(v) if v else None
    return {s: (heroes[s], mean(k.get("observer", [])), mean(k.get("sentry", [])))
            for s, k in lives.items() if s in heroes}


def aim_figures(path):
    """{slot: (time_to_damage_ms, crosshair_angle, rifle_counter_strafed)}
    of a CS2 index with a round won: aim_stats' (cs2_aim_test holds it to
    its rules) of players with an engagement or a shot."""
    con = sqlite3.connect(path)
    if not con.execute("SELECT 1 FROM rounds WHERE winner IN (2, 3)").fetchone():
        return {}
    out = {r[0]: r[1:] for r in con.execute(
        "SELECT slot, time_to_damage_ms, crosshair_angle, rifle_counter_strafed FROM aim_stats "
        "WHERE engagements > 0 OR shots > 0")}
    con.close()
    return out


def cs2_figures(path):
    """(players {slot: (rounds, adr, kast, rating)}, sides {2: won, 3: won},
    decided rounds) of one index; nothing when no round was won."""
    con = sqlite3.connect(path)
    winners = [w for w, in con.execute("SELECT winner FROM rounds WHERE winner IN (2, 3)")]
    if not winners:
        return {}, {}, 0
    players = {r[0]: r[1:] for r in con.execute("SELECT slot, rounds, adr, kast, rating FROM "
                                                "player_stats")}
    con.close()
    return players, {side: winners.count(side) for side in (2, 3)}, len(winners)


def percentiles(values):
    import numpy
    return tuple(float(numpy.percentile(values, p)) for p in PERCENTILES)


class Benchmarks(unittest.TestCase):
    def check_percentiles(self, con, table, figures, metrics, places):
        """`table`'s rows (key, metric, count, p10..p90) against the
        percentiles of `figures` ((key, _, metric values...) each)."""
        by_key = {}
        for f in figures:
            for metric, v in zip(metrics, f[2:]):
                if v is not None:
                    by_key.setdefault((f[0], metric), []).append(v)
        rows = {(r[0], r[1]): r[2:] for r in con.execute(f"SELECT * FROM {table}")
                if r[1] in metrics}
        self.assertEqual(set(rows), set(by_key))
        for key, values in by_key.items():
            self.assertEqual(rows[key][0], len(values))
            for g, x in zip(rows[key][1:], percentiles(values)):
                self.assertAlmostEqual(g, x, places=places, msg=key)

    def check_figures(self, con, table, out, figures):
        """`table`'s rows (sha256, slot, key, figures...) against `figures`
        of each Dota index (a None where the figure is None); returns them
        by (sha256, slot)."""
        want = {}
        for sha, path, _ in indexes(out, "dota2"):
            for slot, f in figures(path).items():
                want[(sha, slot)] = f
        got = {(r[0], r[1]): r[2:] for r in con.execute("SELECT * FROM %s" % table)}
        self.assertEqual(set(got), set(want))
        for key, w in want.items():
            self.assertEqual(got[key][0], w[0])
            for g, x in zip(got[key][1:], w[1:]):
                self.assertEqual(g is None, x is None, key)
                if x is not None:
                    self.assertAlmostEqual(g, x, places=6, msg=key)
        return want

    def check(self, out):
        con = sqlite3.connect(os.path.join(out, "benchmarks.db"))
        # Dota: every player's figures, then each hero's percentiles.
        want = self.check_figures(con, "dota_player_matches", out, dota_figures)
        self.check_percentiles(con, "dota_hero_benchmarks", want.values(), DOTA, 6)
        # Their wards' lives.
        wards = self.check_figures(con, "dota_player_wards", out, ward_figures)
        self.assertTrue(wards)
        self.check_percentiles(con, "dota_hero_benchmarks",
                               [(f[0], None) + f[1:] for f in wards.values()], WARDS, 6)
        # CS2: players of matches with a round won, each map's percentiles
        # and its sides' win rates.
        players, sides = {}, {}
        for sha, path, map_ in indexes(out, "cs2"):
            ps, won, decided = cs2_figures(path)
            for slot, f in ps.items():
                players[(sha, slot)] = (map_,) + f
            for side, n in won.items():
                s = sides.setdefault((map_, side), [0, 0, 0])
                s[0] += 1
                s[1] += decided
                s[2] += n
        got = {(r[0], r[1]): r[2:] for r in con.execute("SELECT * FROM cs2_player_matches")}
        self.assertEqual(got, players)
        self.check_percentiles(con, "cs2_map_benchmarks", players.values(),
                               ["adr", "kast", "rating"], 9)
        # Their aim.
        aim = {}
        for sha, path, map_ in indexes(out, "cs2"):
            for slot, f in aim_figures(path).items():
                aim[(sha, slot)] = (map_,) + f
        got = {(r[0], r[1]): r[2:] for r in con.execute("SELECT * FROM cs2_player_aim")}
        self.assertEqual(got, aim)
        self.assertTrue(any(a[1] is not None for a in aim.values()))
        self.check_percentiles(con, "cs2_map_benchmarks",
                               [(a[0], None) + a[1:] for a in aim.values()], AIM, 9)
        self.assertEqual({(r[0], r[1]): r[2:] for r in con.execute(
            "SELECT * FROM cs2_map_sides")}, {k: (m, n, w, w / n) for k, (m, n, w) in
                                              sides.items()})
        self.assertEqual({k[0] for k in sides}, {"de_dust2"})
        n = con.execute("SELECT count(*) FROM sources").fetchone()[0]
        con.close()
        return len(want), len(players), n

    def test_the_benchmarks_are_the_figures_percentiles(self):
        out, _ = made()
        dota, cs2, sources = self.check(out)
        self.assertEqual((dota, cs2), (30, 20))
        # Every Dota and CS2 index read, fixtures included (their rows are
        # empty: no horn, no round won).
        self.assertEqual(sources, len(indexes(out, "dota2")) + len(indexes(out, "cs2")))

    def test_the_readme_ranks_a_matchs_players(self):
        out, _ = made()
        sql = docs_sql("corpus.md")[0]
        path = [p for _, p, _ in indexes(out, "dota2") if dota_figures(p)][-1]
        con = sqlite3.connect(path)
        attach, select = sql.split(";", 1)
        con.execute(attach.replace("corpus/benchmarks.db", os.path.join(out, "benchmarks.db")))
        rows = con.execute(select).fetchall()
        con.close()
        every = {}
        for _, p, _ in indexes(out, "dota2"):
            for slot, f in dota_figures(p).items():
                every.setdefault(f[0], []).append(f[2])
        mine = dota_figures(path)
        self.assertEqual(len(rows), 10)
        for (hero, gpm, median, rank), (slot, f) in zip(rows, sorted(mine.items())):
            values = every[f[0]]
            self.assertEqual(hero, f[0])
            self.assertAlmostEqual(gpm, f[2], places=6)
            self.assertAlmostEqual(median, percentiles(values)[2], places=6)
            self.assertAlmostEqual(rank, 100.0 * sum(1 for v in values if v <= f[2]) /
                                   len(values), places=6)

    def test_a_rerun_reads_only_new_indexes_and_drops_gone_ones(self):
        out, replays = made()
        # A copy of the corpus, so the other tests keep theirs.
        copy = os.path.join(TMP, "bench-rerun")
        shutil.copytree(out, copy)
        subprocess.run([GEM_SYNTH, "--from", replay_path(AUTO), "--minutes", "1.5", "--seed",
                        "4", "--quiet", os.path.join(replays, "dota-4.dem")], check=True)
        corpus("index", "--out", copy, "--workers", "2", "--quiet", replays, check=False)
        # An index read before, made unreadable: a re-run that read it again
        # would fail.
        sha, path, _ = indexes(copy, "dota2")[0]
        os.rename(path, path + ".away")
        r = corpus("benchmarks", copy, "--workers", "2")
        self.assertIn("1 read", r.stderr)
        os.rename(path + ".away", path)
        self.check(copy)
        with_rerun = sqlite3.connect(os.path.join(copy, "benchmarks.db")).execute(
            "SELECT * FROM dota_hero_benchmarks ORDER BY hero, metric").fetchall()
        os.remove(os.path.join(copy, "benchmarks.db"))
        corpus("benchmarks", copy, "--workers", "2")
        fresh = sqlite3.connect(os.path.join(copy, "benchmarks.db")).execute(
            "SELECT * FROM dota_hero_benchmarks ORDER BY hero, metric").fetchall()
        self.assertEqual(with_rerun, fresh)
        # A replay no longer indexed leaves the benchmarks.
        cat = sqlite3.connect(os.path.join(copy, "catalog.db"))
        cat.execute("UPDATE replays SET status = 'failed' WHERE sha256 = ?", (sha,))
        cat.commit()
        cat.close()
        r = corpus("benchmarks", copy, "--workers", "2")
        self.assertIn("0 read", r.stderr)
        self.assertIn("1 dropped", r.stderr)
        con = sqlite3.connect(os.path.join(copy, "benchmarks.db"))
        self.assertEqual(con.execute("SELECT count(*) FROM dota_player_matches WHERE "
                                     "sha256 = ?", (sha,)).fetchone()[0], 0)
        self.check(copy)

    def test_a_benchmarks_file_of_an_older_layout_is_started_over(self):
        out, _ = made()
        copy = os.path.join(TMP, "bench-old-layout")
        shutil.copytree(out, copy)
        # Layout 1: PRAGMA user_version 1, a player table of an older shape
        # and a source read before, with a row of it. Kept, the run could
        # not write the new columns and would call the source read.
        path = os.path.join(copy, "benchmarks.db")
        os.remove(path)
        old = sqlite3.connect(path)
        sha = indexes(copy, "dota2")[0][0]
        old.executescript(
            "CREATE TABLE sources(sha256 TEXT PRIMARY KEY, index_format INTEGER);"
            "CREATE TABLE dota_player_matches(sha256 TEXT, slot INTEGER, hero TEXT, gpm REAL);"
            "INSERT INTO sources VALUES('%s', 9);"
            "INSERT INTO dota_player_matches VALUES('%s', 0, 'npc_dota_hero_axe', 1e9);"
            "PRAGMA user_version = 1;" % (sha, sha))
        old.commit()
        old.close()
        r = corpus("benchmarks", copy, "--workers", "2")
        total = sum(len(indexes(copy, g)) for g in ("dota2", "cs2"))
        self.assertIn("%d read, 0 kept" % total, r.stderr)
        con = sqlite3.connect(path)
        self.assertEqual(con.execute("PRAGMA user_version").fetchone()[0], 2)
        con.close()
        self.check(copy)


if __name__ == "__main__":
    junit.main()
