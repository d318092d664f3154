"""The match page's data: per game, what an analyst reads of a match, every
number a fixed, parameterless SQL statement over the index's analyst
tables and views (no request value reaches the SQL; the smoke routes'
statements take the index's own smokes as their values). A table the index
lacks (an older index, another build) is simply left out.

    page(match) -> {"game": ..., <the game's parts>}

Dota (OpenDota's match page): the draft; per player K/D/A, last hits and
denies, net worth (the last timeline sample's), GPM and XPM (earned gold
and XP over the game clock's minutes at the end), damage to real heroes
but their own and healing of real heroes (the damage and healing views),
the lane, role and laning at 10:00, actions per minute; the Radiant's
gold and XP advantage at every timeline sample (team 2's net worth and XP
less team 3's); the objectives and teamfights marked on it; the
teamfights with each player's share; wards (and which were dewarded),
the smokes with each hero's route while smoked, lane outcomes at 10:00,
runes, buybacks; every change
of the heroes' item slots (the page replays them to the clock), every
purchase (the item timings) and the skill build.

CS2: the rounds (winner, reason, score, bomb); each side's buy per round;
player_stats; each player's aim and utility (aim_stats, flash_stats,
he_stats) and the money in grenades left at their deaths (utility_on_death);
each player's round (player_rounds and utility) for the page's
one-round view; each player's kills of enemies by weapon.

Deadlock: the players' heroes and scoreboard at the end and the souls
advantage; each lane's souls at 5, 10 and 15 minutes (lane_leads); the
teamfights (boon's rule); each player's souls by source (soul_sources);
every change of their item slots; the objectives, mid boss and urn events
(the map's side panel has these too).

Names stay internal here: the facts carry their display names
(match_names.py), which the page reads."""

from . import kinds


def _rows(match, sql, tables):
    """[{column: value}] of `sql`, or None when it reads a table or view
    the index does not have (`tables`: the names it reads)."""
    if not set(tables) <= match.tables:
        return None
    cols, rows = match.query_columns(sql)
    return [dict(zip(cols, r)) for r in rows]


def _advantage(match, columns):
    """{ticks, game_time, <column>: [team 2's sum less team 3's]} at every
    timeline sample."""
    if "timeline" not in match.tables:
        return None
    sums = ", ".join("total(CASE p.team WHEN 2 THEN t.%s WHEN 3 THEN -t.%s END)" % (c, c)
                     for c in columns)
    rows = match.query("SELECT t.tick, max(t.game_time), %s FROM timeline t JOIN players p "
                       "USING (slot) GROUP BY t.tick ORDER BY t.tick" % sums)
    out = {"ticks": [r[0] for r in rows], "game_time": [r[1] for r in rows]}
    for i, c in enumerate(columns):
        out[c] = [r[2 + i] for r in rows]
    return out


DOTA_PLAYERS = """
WITH m AS (SELECT duration_s / 60.0 AS minutes FROM match_info),
last AS (SELECT t.* FROM timeline t
         WHERE t.tick = (SELECT max(u.tick) FROM timeline u WHERE u.slot = t.slot))
SELECT p.slot, p.name, p.team, p.hero, l.kills, l.deaths, l.assists, l.last_hits, l.denies,
       l.net_worth,
       CASE WHEN m.minutes > 0 THEN l.earned_gold / m.minutes END AS gpm,
       CASE WHEN m.minutes > 0 THEN l.xp / m.minutes END AS xpm,
       (SELECT total(d.damage) FROM damage d WHERE d.slot = p.slot AND d.target_hero = 1
          AND d.target_illusion = 0 AND d.target <> p.hero) AS hero_damage,
       (SELECT total(h.healing) FROM healing h WHERE h.slot = p.slot AND h.target_hero = 1
          AND h.target_illusion = 0) AS healing
FROM players p CROSS JOIN m LEFT JOIN last l ON l.slot = p.slot
ORDER BY p.slot
"""
DOTA_LANES = """
SELECT l.slot, l.lane_name, l.role_name, l.is_roaming, g.last_hits AS lh_10,
       g.denies AS dn_10, g.opponent_slot, g.last_hits_diff, g.net_worth_diff, g.xp_diff,
       a.apm
FROM lanes l LEFT JOIN laning g USING (slot) LEFT JOIN apm a USING (slot)
ORDER BY l.slot
"""


def dota(match):
    out = {"game": "dota2"}
    out["draft"] = _rows(match, "SELECT ord, tick, game_time, team, is_pick, hero, slot FROM "
                         "draft ORDER BY ord", ["draft"])
    out["players"] = _rows(match, DOTA_PLAYERS, ["players", "timeline", "match_info",
                                                 "damage", "healing"])
    out["lanes"] = _rows(match, DOTA_LANES, ["lanes", "laning", "apm"])
    out["advantage"] = _advantage(match, ["net_worth", "xp"])
    out["objectives"] = _rows(match, "SELECT tick, game_time, kind, team, by_team, slot, "
                              "target, x, y FROM objectives ORDER BY tick, id", ["objectives"])
    fights = _rows(match, "SELECT id, start_tick, end_tick, start_time, end_time, deaths, x, y "
                   "FROM teamfights ORDER BY id", ["teamfights"])
    if fights is not None and "teamfight_players" in match.tables:
        shares = {}
        for r in _rows(match, "SELECT id, slot, deaths, damage, healing, gold_delta, xp_delta "
                       "FROM teamfight_players ORDER BY id, slot", ["teamfight_players"]):
            shares.setdefault(r.pop("id"), []).append(r)
        for f in fights:
            f["players"] = shares.get(f["id"], [])
    out["teamfights"] = fights
    out["wards"] = _rows(match, "SELECT entity, kind, team, owner, placed_tick, removed_tick, "
                         "x, y FROM wards ORDER BY placed_tick, entity", ["wards"])
    out["dewards"] = _rows(match, "SELECT entity, dewarder, removed_tick FROM ward_lives "
                           "WHERE destroyed = 1 ORDER BY removed_tick, entity", ["ward_lives"])
    out["smokes"] = _smoke_routes(match)
    out["lane_outcomes"] = _rows(match, "SELECT o.lane, l.lane_name, o.team, o.players, "
                                 "o.net_worth_diff, o.xp_diff, o.outcome FROM lane_outcomes o "
                                 "LEFT JOIN (SELECT DISTINCT lane, lane_name FROM lanes) l "
                                 "USING (lane) ORDER BY o.lane, o.team",
                                 ["lane_outcomes", "lanes"])
    out["runes"] = _rows(match, "SELECT tick, game_time, slot, rune FROM runes ORDER BY tick, "
                         "id", ["runes"])
    out["buybacks"] = _rows(match, "SELECT tick, game_time, slot FROM buybacks ORDER BY tick, "
                            "id", ["buybacks"])
    out["items"] = _rows(match, "SELECT tick, slot, position, item FROM inventory "
                         "WHERE position <= 5 ORDER BY tick, id", ["inventory"])
    out["purchases"] = _rows(match, "SELECT tick, game_time, slot, item FROM purchases "
                             "WHERE item IS NOT NULL ORDER BY slot, tick, id", ["purchases"])
    out["skills"] = _rows(match, """
SELECT slot, tick, game_time, ability, level FROM (
  SELECT slot, tick, id, game_time, ability, level,
         lag(level) OVER (PARTITION BY slot, ability ORDER BY tick, id) AS before
  FROM abilities WHERE ability IS NOT NULL)
WHERE level > before ORDER BY slot, tick, id""", ["abilities"])
    return out


def _smoke_routes(match):
    """The smokes (the smokes view) with each hero's route while smoked:
    their timeline positions from the smoke's start to its end (end_s less
    start_s after it, in ticks)."""
    smokes = _rows(match, "SELECT team, start_tick, start_s, end_s, heroes, slots, kills "
                   "FROM smokes ORDER BY start_tick, team", ["smokes", "timeline", "match_info"])
    if smokes is None:
        return None
    rate = match.query("SELECT tick_rate FROM match_info")[0][0] or 30
    for smoke in smokes:
        end = smoke["start_tick"] + (smoke["end_s"] - smoke["start_s"]) * rate
        smoke["routes"] = {}
        for slot, x, y in match.query(
                "SELECT t.slot, t.x, t.y FROM timeline t, json_each(?) j WHERE t.slot = j.value "
                "AND t.tick BETWEEN ? AND ? AND t.x IS NOT NULL ORDER BY t.slot, t.tick",
                (smoke["slots"], smoke["start_tick"], end)):
            smoke["routes"].setdefault(slot, []).append([x, y])
    return smokes


CS2_PLAYERS = """
SELECT s.slot, p.name, (SELECT e.team FROM economy e WHERE e.slot = s.slot
                        ORDER BY e.round DESC LIMIT 1) AS team,
       s.rounds, s.kpr, s.dpr, s.adr, s.kast, s.hs_pct, s.rating, s.impact,
       s.opening_kills, s.opening_deaths, s.trade_kills, s.traded_deaths, s.clutches,
       s.clutches_won, s.utility_damage, s.flash_assists, s.enemies_flashed, s.k2, s.k3, s.k4,
       s.k5
FROM player_stats s LEFT JOIN players p USING (slot)
ORDER BY s.slot
"""
CS2_PLAYER_ROUNDS = """
SELECT r.round, r.slot, r.kills, r.deaths, r.assists, r.damage, r.kast, r.traded,
       u.he_damage + u.fire_damage AS utility_damage, u.flash_assists, u.enemies_flashed
FROM player_rounds r JOIN utility u USING (round, slot)
ORDER BY r.round, r.slot
"""

CS2_AIM = """
SELECT a.slot, a.engagements, a.time_to_damage_ms, a.crosshair_angle, a.rifle_counter_strafed,
       a.pistol_counter_strafed, a.first_bullet_accuracy, a.spray_accuracy, a.head_accuracy,
       f.flashbangs, f.enemies_per_flash, f.enemy_blind_s, f.flashes_to_kills,
       h.damage_per_grenade
FROM aim_stats a LEFT JOIN flash_stats f USING (slot) LEFT JOIN he_stats h USING (slot)
WHERE a.shots > 0 OR a.engagements > 0 OR f.flashbangs > 0 OR h.he_thrown > 0
ORDER BY a.slot
"""


def cs2(match):
    out = {"game": "cs2"}
    out["rounds"] = _rows(match, "SELECT round, tick, start_tick, freeze_end_tick, end_tick, "
                          "winner, reason, ct_score, t_score, bomb_plant_tick, bomb_site "
                          "FROM rounds ORDER BY round", ["rounds"])
    out["buys"] = _rows(match, "SELECT round, team, equipment_value, buy_type FROM buys "
                        "ORDER BY round, team", ["buys"])
    out["players"] = _rows(match, CS2_PLAYERS, ["player_stats", "players", "economy"])
    out["player_rounds"] = _rows(match, CS2_PLAYER_ROUNDS, ["player_rounds", "utility"])
    out["aim"] = _rows(match, CS2_AIM, ["aim_stats", "flash_stats", "he_stats"])
    out["utility_on_death"] = _rows(match, "SELECT slot, deaths, value, value_per_death FROM "
                                    "utility_on_death ORDER BY slot", ["utility_on_death"])
    out["weapon_kills"] = _rows(match, "SELECT killer AS slot, weapon, count(*) AS kills "
                                "FROM enemy_kills WHERE killer IS NOT NULL AND weapon IS NOT "
                                "NULL GROUP BY killer, weapon ORDER BY killer, kills DESC, weapon",
                                ["enemy_kills"])
    return out


def deadlock(match):
    out = {"game": "deadlock"}
    out["players"] = _rows(match, """
SELECT p.slot, p.name, p.team, p.hero, l.kills, l.deaths, l.assists, l.souls
FROM players p LEFT JOIN timeline l ON l.slot = p.slot
  AND l.tick = (SELECT max(u.tick) FROM timeline u WHERE u.slot = p.slot)
ORDER BY p.slot""", ["players", "timeline"])
    if "timeline" in match.tables and "souls" in match.facts.get("timeline_columns", []):
        out["advantage"] = _advantage(match, ["souls"])
    out["items"] = _rows(match, "SELECT tick, slot, position, item FROM inventory ORDER BY "
                         "tick, id", ["inventory"])
    out["lane_leads"] = _rows(match, "SELECT lane, team, slots, souls_5, lead_5, souls_10, "
                              "lead_10, souls_15, lead_15 FROM lane_leads ORDER BY lane, team",
                              ["lane_leads"])
    out["teamfights"] = _rows(match, "SELECT fight, start_tick, end_tick, start_time, "
                              "duration_s, slots, hero_damage, kills FROM teamfights "
                              "ORDER BY fight", ["teamfights"])
    out["soul_sources"] = _rows(match, "SELECT slot, source, souls, orbs, origin FROM "
                                "soul_sources WHERE souls > 0 ORDER BY slot, souls DESC, source",
                                ["soul_sources"])
    for table, order in kinds.EVENT_TABLES["deadlock"]:
        out[table] = _rows(match, "SELECT * FROM %s ORDER BY %s" % (table, order), [table])
    return out


PAGES = {"dota2": dota, "cs2": cs2, "deadlock": deadlock}


def page(match):
    build = PAGES.get(match.facts.get("game"))
    return build(match) if build else {"game": match.facts.get("game")}
