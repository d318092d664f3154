"""gem-corpus benchmarks DIR: what a corpus says is usual, per Dota hero and
per CS2 map, as tables of DIR/benchmarks.db that a match's players can be
ranked against in SQL.

Each indexed match gives its players' figures (one SQL statement per game,
run on the cluster like `query`), kept in benchmarks.db by the replay's
sha256 and the index format that gave them:

    sources(sha256, replay_id, game, map, index_format, read_at)
    dota_player_matches(sha256, slot, hero, minutes, gpm, xpm, kills,
                        last_hits, hero_damage_pm, healing_pm, tower_damage,
                        camps_stacked)
    dota_player_wards(sha256, slot, hero, observer_life_s, sentry_life_s)
    cs2_player_matches(sha256, slot, map, rounds, adr, kast, rating)
    cs2_player_aim(sha256, slot, map, time_to_damage_ms, crosshair_angle,
                   rifle_counter_strafed)
    cs2_match_sides(sha256, map, side, rounds, rounds_won)

(dota_player_wards and cs2_player_aim come from the ward_lives and aim_stats
views: an index made before them has no rows there.)

and from all of them, remade every run:

    dota_hero_benchmarks(hero, metric, matches, p10, p25, p50, p75, p90)
      (metrics: the player figures above, camps stacked, and the mean life
      of the player's observer and sentry wards)
    cs2_map_benchmarks(map, metric, players, p10, p25, p50, p75, p90)
      (metrics: adr, kast, rating, and each player's median time to damage
      and crosshair placement and share of rifle shots counter-strafed)
    cs2_map_sides(map, side, matches, rounds, rounds_won, win_rate)

A re-run reads only the indexes it has no figures of (new replays, and
indexes of another format); the figures of replays no longer indexed are
dropped. The percentiles are linear between the closest ranks: the p-th of
n sorted values v is v[i] + f (v[i + 1] - v[i]) with i + f = p / 100 (n - 1),
as numpy's default and Python's statistics.quantiles(method='inclusive')
give them."""
import math
import os
import sqlite3
import time

from . import engine, tasks
from .catalog import Catalog

PERCENTILES = (10, 25, 50, 75, 90)

# Per player of a Dota match that reached the horn: the figures at the last
# timeline sample over the game clock's minutes then (match_info.duration_s),
# the combat log's damage to real heroes other than their own and healing
# of real heroes (the damage and healing views: credited to the damage
# source's player) a minute, and damage to towers in all.
DOTA_SQL = """
WITH m AS (SELECT duration_s / 60.0 AS minutes FROM match_info WHERE duration_s > 0),
last AS (SELECT t.* FROM timeline t
         WHERE t.tick = (SELECT max(u.tick) FROM timeline u WHERE u.slot = t.slot))
SELECT p.slot, p.hero, m.minutes,
       l.earned_gold / m.minutes AS gpm, l.xp / m.minutes AS xpm, l.kills, l.last_hits,
       coalesce((SELECT sum(d.damage) FROM damage d WHERE d.slot = p.slot AND d.target_hero = 1
                 AND d.target_illusion = 0 AND d.target <> p.hero), 0) / m.minutes
         AS hero_damage_pm,
       coalesce((SELECT sum(h.healing) FROM healing h WHERE h.slot = p.slot
                 AND h.target_hero = 1 AND h.target_illusion = 0), 0) / m.minutes
         AS healing_pm,
       coalesce((SELECT sum(d.damage) FROM damage d WHERE d.slot = p.slot
                 AND instr(d.target, '_tower') > 0), 0) AS tower_damage,
       l.camps_stacked
FROM players p CROSS JOIN m JOIN last l ON l.slot = p.slot
WHERE p.hero IS NOT NULL
ORDER BY p.slot
"""
DOTA_METRICS = ["gpm", "xpm", "kills", "last_hits", "hero_damage_pm", "healing_pm",
                "tower_damage", "camps_stacked"]
# Per player of a Dota match that reached the horn and placed a ward: the
# mean lifetime of their observer and of their sentry wards (ward_lives:
# OpenDota's capped lifetimes); NULL for a kind they placed none of.
DOTA_WARDS_SQL = {"needs": "ward_lives", "sql": """
SELECT p.slot, p.hero,
       (SELECT avg(w.lifetime_s) FROM ward_lives w WHERE w.owner = p.slot
          AND w.kind = 'observer') AS observer_life_s,
       (SELECT avg(w.lifetime_s) FROM ward_lives w WHERE w.owner = p.slot
          AND w.kind = 'sentry') AS sentry_life_s
FROM players p
WHERE p.hero IS NOT NULL AND EXISTS (SELECT 1 FROM match_info WHERE duration_s > 0)
  AND EXISTS (SELECT 1 FROM ward_lives w WHERE w.owner = p.slot)
ORDER BY p.slot"""}
DOTA_WARD_METRICS = ["observer_life_s", "sentry_life_s"]
# Per CS2 player of a match with a round won (a recording that holds no
# whole round says nothing of a map): player_stats' ADR, KAST and Rating
# 1.0; and the rounds each side won of those decided.
CS2_PLAYERS_SQL = ("SELECT slot, rounds, adr, kast, rating FROM player_stats "
                   "WHERE EXISTS (SELECT 1 FROM rounds WHERE winner IN (2, 3)) ORDER BY slot")
CS2_SIDES_SQL = ("SELECT side, (SELECT count(*) FROM rounds WHERE winner IN (2, 3)), "
                 "(SELECT count(*) FROM rounds WHERE winner = side) "
                 "FROM (SELECT 2 AS side UNION ALL SELECT 3) "
                 "WHERE EXISTS (SELECT 1 FROM rounds WHERE winner IN (2, 3)) ORDER BY side")
CS2_METRICS = ["adr", "kast", "rating"]
# Per CS2 player of such a match with an engagement or a shot: aim_stats'
# median time to damage and crosshair placement and rifle counter-strafing.
CS2_AIM_SQL = {"needs": "aim_stats", "sql": (
    "SELECT slot, time_to_damage_ms, crosshair_angle, rifle_counter_strafed FROM aim_stats "
    "WHERE (engagements > 0 OR shots > 0) "
    "AND EXISTS (SELECT 1 FROM rounds WHERE winner IN (2, 3)) ORDER BY slot")}
CS2_AIM_METRICS = ["time_to_damage_ms", "crosshair_angle", "rifle_counter_strafed"]
# The layout of benchmarks.db (PRAGMA user_version).
LAYOUT = 2
PER_MATCH = ("dota_player_matches", "dota_player_wards", "cs2_player_matches",
             "cs2_player_aim", "cs2_match_sides")

SCHEMA = """
CREATE TABLE IF NOT EXISTS sources(
  sha256 TEXT PRIMARY KEY, replay_id INTEGER, game TEXT, map TEXT, index_format INTEGER,
  read_at TEXT);
CREATE TABLE IF NOT EXISTS dota_player_matches(
  sha256 TEXT NOT NULL, slot INTEGER NOT NULL, hero TEXT NOT NULL, minutes REAL, gpm REAL,
  xpm REAL, kills INTEGER, last_hits INTEGER, hero_damage_pm REAL, healing_pm REAL,
  tower_damage INTEGER, camps_stacked INTEGER, PRIMARY KEY(sha256, slot));
CREATE INDEX IF NOT EXISTS dota_player_matches_by_hero ON dota_player_matches(hero);
CREATE TABLE IF NOT EXISTS dota_player_wards(
  sha256 TEXT NOT NULL, slot INTEGER NOT NULL, hero TEXT NOT NULL, observer_life_s REAL,
  sentry_life_s REAL, PRIMARY KEY(sha256, slot));
CREATE TABLE IF NOT EXISTS cs2_player_aim(
  sha256 TEXT NOT NULL, slot INTEGER NOT NULL, map TEXT, time_to_damage_ms REAL,
  crosshair_angle REAL, rifle_counter_strafed REAL, PRIMARY KEY(sha256, slot));
CREATE TABLE IF NOT EXISTS cs2_player_matches(
  sha256 TEXT NOT NULL, slot INTEGER NOT NULL, map TEXT, rounds INTEGER, adr REAL, kast REAL,
  rating REAL, PRIMARY KEY(sha256, slot));
CREATE INDEX IF NOT EXISTS cs2_player_matches_by_map ON cs2_player_matches(map);
CREATE TABLE IF NOT EXISTS cs2_match_sides(
  sha256 TEXT NOT NULL, map TEXT, side INTEGER NOT NULL, rounds INTEGER, rounds_won INTEGER,
  PRIMARY KEY(sha256, side));
"""
DERIVED = """
DROP TABLE IF EXISTS dota_hero_benchmarks;
CREATE TABLE dota_hero_benchmarks(
  hero TEXT NOT NULL, metric TEXT NOT NULL, matches INTEGER NOT NULL,
  p10 REAL, p25 REAL, p50 REAL, p75 REAL, p90 REAL, PRIMARY KEY(hero, metric));
DROP TABLE IF EXISTS cs2_map_benchmarks;
CREATE TABLE cs2_map_benchmarks(
  map TEXT NOT NULL, metric TEXT NOT NULL, players INTEGER NOT NULL,
  p10 REAL, p25 REAL, p50 REAL, p75 REAL, p90 REAL, PRIMARY KEY(map, metric));
DROP TABLE IF EXISTS cs2_map_sides;
CREATE TABLE cs2_map_sides AS
SELECT map, side, count(*) AS matches, sum(rounds) AS rounds, sum(rounds_won) AS rounds_won,
       CASE WHEN sum(rounds) > 0 THEN 1.0 * sum(rounds_won) / sum(rounds) END AS win_rate
FROM cs2_match_sides GROUP BY map, side;
"""


def percentile(values, p):
    """The p-th percentile of sorted `values`, linear between ranks."""
    if not values:
        return None
    at = p / 100 * (len(values) - 1)
    i = math.floor(at)
    if i + 1 >= len(values):
        return float(values[-1])
    return values[i] + (at - i) * (values[i + 1] - values[i])


def _jobs(catalog, have, extension):
    """The indexes to read (of the games benchmarks cover) and the
    catalog's sha256s of every indexed replay."""
    rows = catalog.con.execute(
        "SELECT id, sha256, game, map, index_path, path, index_format FROM replays "
        "WHERE status = 'indexed' AND game IN ('dota2', 'cs2') ORDER BY id").fetchall()
    jobs = []
    for rid, sha, game, map_, index_path, path, fmt in rows:
        if have.get(sha) == fmt:
            continue
        sqls = ([DOTA_SQL, DOTA_WARDS_SQL] if game == "dota2" else
                [CS2_PLAYERS_SQL, CS2_SIDES_SQL, CS2_AIM_SQL])
        jobs.append({"id": rid, "sha256": sha, "game": game, "map": map_, "path": path,
                     "index_format": fmt, "index": os.path.join(catalog.dir, index_path),
                     "sqls": sqls, "extension": extension})
    return jobs, {r[1] for r in rows}


def _store(con, job, result):
    sha = job["sha256"]
    for table in PER_MATCH:
        con.execute("DELETE FROM %s WHERE sha256 = ?" % table, (sha,))
    if job["game"] == "dota2":
        con.executemany("INSERT INTO dota_player_matches VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                        [(sha,) + tuple(r) for r in result["results"][0]["rows"]])
        con.executemany("INSERT INTO dota_player_wards VALUES(?,?,?,?,?)",
                        [(sha,) + tuple(r) for r in result["results"][1]["rows"]])
    else:
        con.executemany("INSERT INTO cs2_player_matches VALUES(?,?,?,?,?,?,?)",
                        [(sha, r[0], job["map"]) + tuple(r[1:])
                         for r in result["results"][0]["rows"]])
        con.executemany("INSERT INTO cs2_match_sides VALUES(?,?,?,?,?)",
                        [(sha, job["map"]) + tuple(r) for r in result["results"][1]["rows"]])
        con.executemany("INSERT INTO cs2_player_aim VALUES(?,?,?,?,?,?)",
                        [(sha, r[0], job["map"]) + tuple(r[1:])
                         for r in result["results"][2]["rows"]])
    con.execute("INSERT OR REPLACE INTO sources VALUES(?,?,?,?,?,?)",
                (sha, job["id"], job["game"], job["map"], job["index_format"],
                 time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))


def _derive(con):
    # (Statement by statement: executescript would commit the transaction.)
    for statement in DERIVED.split(";"):
        if statement.strip():
            con.execute(statement)
    for table, key, metrics, out, count in (
            ("dota_player_matches", "hero", DOTA_METRICS, "dota_hero_benchmarks", "matches"),
            ("dota_player_wards", "hero", DOTA_WARD_METRICS, "dota_hero_benchmarks", "matches"),
            ("cs2_player_matches", "map", CS2_METRICS, "cs2_map_benchmarks", "players"),
            ("cs2_player_aim", "map", CS2_AIM_METRICS, "cs2_map_benchmarks", "players")):
        groups = [r[0] for r in con.execute("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL "
                                            "ORDER BY 1" % (key, table, key))]
        rows = []
        for group in groups:
            for metric in metrics:
                values = [r[0] for r in con.execute(
                    "SELECT %s FROM %s WHERE %s = ? AND %s IS NOT NULL ORDER BY 1" %
                    (metric, table, key, metric), (group,))]
                if values:
                    rows.append((group, metric, len(values)) +
                                tuple(percentile(values, p) for p in PERCENTILES))
        con.executemany("INSERT INTO %s(%s, metric, %s, p10, p25, p50, p75, p90) "
                        "VALUES(?,?,?,?,?,?,?,?)" % (out, key, count), rows)


def run(args, tools, say):
    """Updates DIR/benchmarks.db; returns the number of indexes that failed."""
    tools.need_extension()
    catalog = Catalog(args.dir)
    out = sqlite3.connect(os.path.join(catalog.dir, "benchmarks.db"), isolation_level=None)
    try:
        if out.execute("PRAGMA user_version").fetchone()[0] < LAYOUT:
            # An older layout: start over (every index is read again).
            for table in ("sources",) + PER_MATCH:
                out.execute("DROP TABLE IF EXISTS %s" % table)
            out.execute("PRAGMA user_version = %d" % LAYOUT)
        out.executescript(SCHEMA)
        have = dict(out.execute("SELECT sha256, index_format FROM sources"))
        jobs, indexed = _jobs(catalog, have, tools.extension)
        results = {}
        if jobs:
            with engine.cluster(args.scheduler, args.workers) as client:
                engine.run(client, tasks.query_many, jobs,
                           lambda job, result: results.__setitem__(job["id"], result))
        # One transaction: a run that stops leaves the file as it was.
        out.execute("BEGIN IMMEDIATE")
        failed = 0
        for job in jobs:
            r = results.get(job["id"], {"error": "no answer"})
            if "error" in r:
                say("gem-corpus: %s (%s): %s" % (job["index"], job["path"], r["error"]))
                failed += 1
                continue
            _store(out, job, r)
        gone = [sha for sha in have if sha not in indexed]
        for sha in gone:
            for table in ("sources",) + PER_MATCH:
                out.execute("DELETE FROM %s WHERE sha256 = ?" % table, (sha,))
        _derive(out)
        out.execute("COMMIT")
        kept = len(have) - len(gone) - sum(1 for j in jobs if j["sha256"] in have)
        say("gem-corpus: benchmarks of %d matches: %d read, %d kept, %d dropped, %d failed" % (
            out.execute("SELECT count(*) FROM sources").fetchone()[0], len(jobs) - failed,
            kept, len(gone), failed))
        return failed
    finally:
        out.close()
        catalog.close()
