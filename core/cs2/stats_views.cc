#include "core/cs2/stats_views.h"

namespace gem::cs2 {
namespace {

// The views' rules are stats_views.h's; each view reads the ones before it.
const char kStatsViewsSql[] = R"sql(
-- Settings of the stat views: trade_window_s, the seconds after a death
-- in which the killer's death trades it (5 by default).
CREATE TABLE stat_settings(name TEXT PRIMARY KEY, value) WITHOUT ROWID;
INSERT INTO stat_settings VALUES('trade_window_s', 5.0);
CREATE VIEW enemy_kills AS
SELECT id, round, tick, killer, victim, killer_team, victim_team, weapon, headshot,
       assisters, assistedflash
FROM kills
WHERE round IS NOT NULL AND killer IS NOT NULL AND killer <> victim
  AND killer_team IS NOT victim_team;
CREATE VIEW opening_duels AS
SELECT k.round, k.tick, k.killer AS attacker, k.victim, k.killer_team AS attacker_team,
       k.victim_team, k.weapon, k.headshot,
       CASE WHEN r.winner IS NULL THEN NULL ELSE r.winner = k.killer_team END AS won
FROM (SELECT *, row_number() OVER (PARTITION BY round ORDER BY tick, id) AS nth
      FROM enemy_kills) k
  LEFT JOIN rounds r USING (round)
WHERE k.nth = 1;
CREATE VIEW trades AS
WITH rate(ticks_a_second) AS (SELECT tick_rate FROM match_info),
trade_window(ticks) AS (
  SELECT coalesce((SELECT value FROM stat_settings WHERE name = 'trade_window_s'), 5.0)
         * (SELECT ticks_a_second FROM rate))
SELECT t.round, t.tick, t.killer AS trader, t.killer_team AS trader_team, d.killer,
       d.victim AS traded, d.tick AS traded_tick,
       round((t.tick - d.tick) / (SELECT ticks_a_second FROM rate), 3) AS seconds
FROM enemy_kills d, trade_window w
  JOIN enemy_kills t ON t.round = d.round AND t.victim = d.killer AND t.killer <> d.victim
   AND t.killer_team IS d.victim_team AND t.tick >= d.tick AND t.tick <= d.tick + w.ticks;
CREATE VIEW clutches AS
WITH roster AS (SELECT round, slot, team FROM economy WHERE team IN (2, 3)),
sizes AS (
  SELECT round, sum(team = 2) AS t_players, sum(team = 3) AS ct_players
  FROM roster GROUP BY round),
deaths AS (
  SELECT k.id, k.round, k.tick, k.victim,
         s.t_players - sum(coalesce(v.team = 2, 0)) OVER w AS t_alive,
         s.ct_players - sum(coalesce(v.team = 3, 0)) OVER w AS ct_alive,
         row_number() OVER w AS nth
  FROM kills k JOIN sizes s USING (round)
    LEFT JOIN roster v ON v.round = k.round AND v.slot = k.victim
  WINDOW w AS (PARTITION BY k.round ORDER BY k.tick, k.id)),
first_one AS (
  SELECT * FROM deaths d
  WHERE ((d.t_alive = 1 AND d.ct_alive >= 1) OR (d.ct_alive = 1 AND d.t_alive >= 1))
    AND d.nth = (SELECT min(x.nth) FROM deaths x WHERE x.round = d.round
                 AND ((x.t_alive = 1 AND x.ct_alive >= 1) OR (x.ct_alive = 1 AND x.t_alive >= 1)))),
starts(round, id, tick, nth, team, opponents) AS (
  SELECT round, id, tick, nth, 2, ct_alive FROM first_one WHERE t_alive = 1
  UNION ALL
  SELECT round, id, tick, nth, 3, t_alive FROM first_one WHERE ct_alive = 1
  UNION ALL
  SELECT d.round, d.id, d.tick, d.nth, CASE WHEN f.t_alive = 1 THEN 3 ELSE 2 END, 1
  FROM first_one f JOIN deaths d ON d.round = f.round AND d.nth > f.nth
  WHERE NOT (f.t_alive = 1 AND f.ct_alive = 1) AND d.t_alive = 1 AND d.ct_alive = 1
    AND d.nth = (SELECT min(x.nth) FROM deaths x WHERE x.round = f.round AND x.nth > f.nth
                 AND x.t_alive = 1 AND x.ct_alive = 1)),
clutchers AS (
  SELECT s.*, (SELECT p.slot FROM roster p
               WHERE p.round = s.round AND p.team = s.team
                 AND p.slot NOT IN (SELECT x.victim FROM deaths x
                                    WHERE x.round = s.round AND x.nth <= s.nth)
               ORDER BY p.slot LIMIT 1) AS slot
  FROM starts s)
SELECT c.round, c.slot, c.team, c.opponents, c.tick,
       CASE WHEN r.winner IS NULL THEN NULL ELSE r.winner = c.team END AS won,
       (SELECT count(*) FROM enemy_kills k WHERE k.round = c.round AND k.killer = c.slot
          AND (k.tick > c.tick OR (k.tick = c.tick AND k.id > c.id))) AS kills,
       NOT EXISTS (SELECT 1 FROM kills k WHERE k.round = c.round AND k.victim = c.slot)
         AS survived,
       r.bomb_plant_tick IS NOT NULL AS bomb_planted,
       EXISTS (SELECT 1 FROM bomb b WHERE b.round = c.round AND b.kind = 'defuse')
         AS bomb_defused
FROM clutchers c LEFT JOIN rounds r USING (round);
CREATE VIEW multi_kill_rounds AS
SELECT round, killer AS slot, count(*) AS kills
FROM enemy_kills GROUP BY round, killer HAVING count(*) >= 2;
CREATE VIEW utility AS
SELECT e.round, e.slot, e.team,
  coalesce((SELECT sum(d.damage_real) FROM damages d WHERE d.round = e.round
     AND d.attacker = e.slot AND d.attacker_team IS NOT d.victim_team
     AND d.weapon = 'hegrenade'), 0) AS he_damage,
  coalesce((SELECT sum(d.damage_real) FROM damages d WHERE d.round = e.round
     AND d.attacker = e.slot AND d.attacker_team IS NOT d.victim_team
     AND d.weapon IN ('inferno', 'molotov', 'incgrenade')), 0) AS fire_damage,
  (SELECT count(*) FROM enemy_kills k, json_each(k.assisters) a
     WHERE k.round = e.round AND k.assistedflash = 1 AND a.value = e.slot) AS flash_assists,
  (SELECT count(*) FROM flashes f WHERE f.round = e.round AND f.thrower = e.slot
     AND f.thrower_team IS NOT f.victim_team) AS enemies_flashed,
  coalesce((SELECT sum(f.duration) FROM flashes f WHERE f.round = e.round
     AND f.thrower = e.slot AND f.thrower_team IS NOT f.victim_team), 0) AS blind_time,
  (SELECT count(*) FROM grenades g WHERE g.round = e.round AND g.thrower = e.slot
     AND g.kind = 'flash') AS flashes_thrown,
  (SELECT count(*) FROM grenades g WHERE g.round = e.round AND g.thrower = e.slot
     AND g.kind = 'smoke') AS smokes_thrown,
  (SELECT count(*) FROM grenades g WHERE g.round = e.round AND g.thrower = e.slot
     AND g.kind = 'he') AS hes_thrown,
  (SELECT count(*) FROM grenades g WHERE g.round = e.round AND g.thrower = e.slot
     AND g.kind IN ('molotov', 'incendiary')) AS fires_thrown
FROM economy e;
CREATE VIEW buys AS
WITH sides AS (
  SELECT round, team, count(*) AS players, sum(start_money) AS start_money,
         sum(equipment_value) AS equipment_value, sum(spent) AS spent,
         sum(start_money) - sum(spent) AS money_left,
         sum(start_money = 800) = count(*) AS pistol
  FROM economy WHERE team IN (2, 3) GROUP BY round, team)
SELECT round, team, players, start_money, equipment_value, spent, money_left,
       CASE
         WHEN pistol THEN 'pistol'
         WHEN equipment_value >= players * CASE team WHEN 2 THEN 4000 ELSE 4500 END
           THEN 'full'
         WHEN equipment_value <= players * 1000 THEN 'eco'
         WHEN money_left < players * 1000 THEN 'force'
         ELSE 'half'
       END AS buy_type
FROM sides;
CREATE VIEW accuracy AS
WITH fired AS (
  SELECT slot, CASE WHEN substr(weapon, 1, 7) = 'weapon_' THEN substr(weapon, 8)
                    ELSE weapon END AS weapon, count(*) AS shots
  FROM shots WHERE slot IS NOT NULL AND weapon IS NOT NULL GROUP BY 1, 2),
hit AS (
  SELECT attacker AS slot, weapon, count(*) AS hits, sum(hitgroup = 'head') AS headshots
  FROM damages WHERE attacker IS NOT NULL AND attacker_team IS NOT victim_team
  GROUP BY attacker, weapon)
SELECT f.slot, f.weapon, f.shots, coalesce(h.hits, 0) AS hits,
       coalesce(h.headshots, 0) AS headshots,
       1.0 * coalesce(h.hits, 0) / f.shots AS accuracy,
       1.0 * coalesce(h.headshots, 0) / f.shots AS headshot_accuracy
FROM fired f LEFT JOIN hit h USING (slot, weapon);
CREATE VIEW player_rounds AS
WITH per AS (
  SELECT e.round, e.slot,
    (SELECT count(*) FROM enemy_kills k WHERE k.round = e.round AND k.killer = e.slot)
      AS kills,
    (SELECT count(*) FROM kills k WHERE k.round = e.round AND k.victim = e.slot) AS deaths,
    (SELECT count(*) FROM kills k, json_each(k.assisters) a
       WHERE k.round = e.round AND a.value = e.slot) AS assists,
    coalesce((SELECT sum(d.damage_real) FROM damages d WHERE d.round = e.round
       AND d.attacker = e.slot AND d.attacker_team IS NOT d.victim_team), 0) AS damage,
    EXISTS (SELECT 1 FROM trades t WHERE t.round = e.round AND t.traded = e.slot) AS traded,
    (SELECT count(*) FROM enemy_kills k WHERE k.round = e.round AND k.killer = e.slot
       AND k.headshot = 1) AS headshot_kills
  FROM economy e)
SELECT round, slot, kills, deaths, assists, damage, deaths = 0 AS survived, traded,
       (kills > 0 OR assists > 0 OR deaths = 0 OR traded) AS kast, headshot_kills
FROM per;
CREATE VIEW player_stats AS
WITH base AS (
  SELECT r.slot, count(*) AS rounds, sum(r.kills) AS kills, sum(r.deaths) AS deaths,
         sum(r.assists) AS assists, sum(r.damage) AS damage, sum(r.kast) AS kast_rounds,
         sum(r.kills = 1) AS k1, sum(r.kills = 2) AS k2, sum(r.kills = 3) AS k3,
         sum(r.kills = 4) AS k4, sum(r.kills >= 5) AS k5, sum(r.headshot_kills) AS headshots
  FROM player_rounds r GROUP BY r.slot)
SELECT b.slot, b.rounds,
       1.0 * b.damage / b.rounds AS adr,
       100.0 * b.kast_rounds / b.rounds AS kast,
       1.0 * b.kills / b.rounds AS kpr,
       1.0 * b.deaths / b.rounds AS dpr,
       coalesce((SELECT sum(d.damage_real) FROM damages d WHERE d.attacker = b.slot
         AND d.attacker_team IS NOT d.victim_team
         AND d.weapon IN ('hegrenade', 'inferno', 'molotov', 'incgrenade')), 0)
         AS utility_damage,
       (SELECT count(*) FROM grenades g WHERE g.thrower = b.slot AND g.kind = 'flash')
         AS flashes_thrown,
       (SELECT count(*) FROM flashes f WHERE f.thrower = b.slot
         AND f.thrower_team IS NOT f.victim_team) AS enemies_flashed,
       1.0 * b.assists / b.rounds AS apr,
       CASE WHEN b.kills = 0 THEN NULL ELSE 100.0 * b.headshots / b.kills END AS hs_pct,
       (SELECT count(*) FROM opening_duels o WHERE o.attacker = b.slot) AS opening_kills,
       (SELECT count(*) FROM opening_duels o WHERE o.victim = b.slot) AS opening_deaths,
       (SELECT count(*) FROM trades t WHERE t.trader = b.slot) AS trade_kills,
       (SELECT count(*) FROM trades t WHERE t.traded = b.slot) AS traded_deaths,
       (SELECT count(*) FROM clutches c WHERE c.slot = b.slot) AS clutches,
       (SELECT count(*) FROM clutches c WHERE c.slot = b.slot AND c.won = 1) AS clutches_won,
       (SELECT count(*) FROM enemy_kills k, json_each(k.assisters) a
          WHERE k.assistedflash = 1 AND a.value = b.slot) AS flash_assists,
       b.k1, b.k2, b.k3, b.k4, b.k5,
       (1.0 * b.kills / b.rounds / 0.679 + 0.7 * (1.0 * (b.rounds - b.deaths) / b.rounds) / 0.317
        + (1.0 * (b.k1 + 4 * b.k2 + 9 * b.k3 + 16 * b.k4 + 25 * b.k5) / b.rounds) / 1.277)
         / 2.7 AS rating,
       2.13 * b.kills / b.rounds + 0.42 * b.assists / b.rounds - 0.41 AS impact
FROM base b;
CREATE INDEX damages_by_round ON damages(round, attacker);
CREATE INDEX shots_by_round ON shots(round, slot);
CREATE INDEX kills_by_round ON kills(round);
)sql";

}  // namespace

const char* StatsViewsSql() { return kStatsViewsSql; }

}  // namespace gem::cs2
