#include "core/cs2/stats_views.h"

namespace gem::cs2 {
namespace {

// Each view's rule is its comment, and each column's its doc (the column
// lists); each view reads the ones before it.
const char kStatsViewsSql[] = R"sql(
CREATE TABLE stat_settings(  -- a setting of the stat views, read as a query runs: UPDATE a value
  -- and the views follow
  name TEXT PRIMARY KEY,  -- the setting: trade_window_s, the seconds after a death in which
  -- killing its killer trades it (trades, player_rounds.traded and so KAST)
  value  -- its value: trade_window_s 5.0 by default (gem's rule; awpy's KAST uses 3)
) WITHOUT ROWID;
INSERT INTO stat_settings VALUES('trade_window_s', 5.0);
CREATE VIEW enemy_kills(  -- a kill of a player by a player of the other side in a round: a kills
  -- row with a round and a killer who is not the victim, whose killer_team is not victim_team
  -- (gem's rule: suicides, team kills and deaths to the world are not; the other views' kills)
  id,  -- the kill: kills.id
  round,  -- the round (rounds.round)
  tick,  -- the tick of the death
  killer,  -- the killer's slot
  victim,  -- the victim's slot
  killer_team,  -- the killer's team then: 2 T, 3 CT (NULL when unknown)
  victim_team,  -- the victim's team then: 2 T, 3 CT
  weapon,  -- player_death's weapon, as the event names it (ak47, hegrenade, inferno)
  headshot,  -- 1 when player_death says headshot
  assisters,  -- kills.assisters: a JSON array of the assister's slot (player_death's assister), []
  -- when none
  assistedflash  -- 1 when the assist was a flash assist: player_death's assistedflash
) AS
SELECT id, round, tick, killer, victim, killer_team, victim_team, weapon, headshot,
       assisters, assistedflash
FROM kills
WHERE round IS NOT NULL AND killer IS NOT NULL AND killer <> victim
  AND killer_team IS NOT victim_team;
CREATE VIEW opening_duels(  -- a round's opening duel: its first enemy kill (enemy_kills), by
  -- tick, then the order of the events (kills.id)
  round,  -- the round
  tick,  -- the tick of the kill
  attacker,  -- who won the duel: the killer's slot
  victim,  -- who lost it: the victim's slot
  attacker_team,  -- the killer's team: 2 T, 3 CT
  victim_team,  -- the victim's team: 2 T, 3 CT
  weapon,  -- the weapon of the kill, as player_death names it
  headshot,  -- 1 when it was a headshot
  won  -- 1 when the attacker's side won the round (rounds.winner), 0 when it lost; NULL when the
  -- round has no winner
) AS
SELECT k.round, k.tick, k.killer AS attacker, k.victim, k.killer_team AS attacker_team,
       k.victim_team, k.weapon, k.headshot,
       CASE WHEN r.winner IS NULL THEN NULL ELSE r.winner = k.killer_team END AS won
FROM (SELECT *, row_number() OVER (PARTITION BY round ORDER BY tick, id) AS nth
      FROM enemy_kills) k
  LEFT JOIN rounds r USING (round)
WHERE k.nth = 1;
CREATE VIEW trades(  -- a traded death: an enemy (killer) killed a player (traded), and a
  -- teammate of the traded (trader, not the traded) killed that killer in the same round, at the
  -- same tick or up to trade_window_s later (stat_settings: 5 s; awpy's KAST uses 3). gem's rule;
  -- a row per traded death, so one kill that avenges two deaths makes two rows
  round,  -- the round
  tick,  -- the trading kill's tick
  trader,  -- the slot who killed the killer
  trader_team,  -- the trader's team: 2 T, 3 CT
  killer,  -- the slot who killed the traded and was killed by the trader
  traded,  -- the slot whose death was traded
  traded_tick,  -- the tick of the traded death
  seconds  -- seconds from the traded death to the trade: the ticks over match_info.tick_rate,
  -- rounded to the millisecond
) AS
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
CREATE VIEW clutches(  -- a clutch: after each death of a round, the players still alive on
  -- each side are the round's economy players less the dead (any death in kills); the first death
  -- that leaves a side one player against one or more makes that player a clutcher against the
  -- other side's players then (both, when it leaves one against one); a later death that leaves one
  -- against one makes the other side's last player a clutcher too (as cs-demo-manager counts them)
  round,  -- the round
  slot,  -- the clutcher: the side's one player left alive
  team,  -- the clutcher's side: 2 T, 3 CT
  opponents,  -- the enemies alive as the clutch began (1 to 5)
  tick,  -- the tick of the death that began the clutch
  won,  -- 1 when the clutcher's side won the round (rounds.winner), alive or not (see survived); 0
  -- when it lost; NULL when the round has no winner
  kills,  -- the clutcher's enemy kills after the clutch began (enemy_kills)
  survived,  -- 1 when the clutcher did not die in the round (no kills row with them as victim)
  bomb_planted,  -- 1 when the bomb was planted in the round, by anyone (rounds.bomb_plant_tick)
  bomb_defused  -- 1 when the bomb was defused in the round, by anyone (a bomb row of kind defuse)
) AS
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
CREATE VIEW multi_kill_rounds(  -- a player's round of two or more enemy kills (enemy_kills)
  round,  -- the round
  slot,  -- the killer
  kills  -- the player's enemy kills in the round, 2 or more
) AS
SELECT round, killer AS slot, count(*) AS kills
FROM enemy_kills GROUP BY round, killer HAVING count(*) >= 2;
CREATE VIEW utility(  -- a player's utility in a round: one row for each economy row (the
  -- players in play as the freeze time ended). Damage is damage_real dealt to players of another
  -- team (damages.attacker_team not victim_team)
  round,  -- the round
  slot,  -- the player
  team,  -- the player's team in the round (economy.team): 2 T, 3 CT
  he_damage,  -- damage to enemies by the player's HE grenades (damages.weapon hegrenade); 0 none
  fire_damage,  -- damage to enemies by the player's fire (damages.weapon inferno, molotov or
  -- incgrenade); 0 none
  flash_assists,  -- enemy kills of the round whose assist the game flagged assistedflash, with the
  -- player the assister
  enemies_flashed,  -- flashes rows of the round with the player the thrower and a victim of another
  -- team
  blind_time,  -- those enemies' seconds blind, summed (flashes.duration); 0 none
  flashes_thrown,  -- the player's grenades of kind flash thrown in the round (grenades.round)
  smokes_thrown,  -- the player's grenades of kind smoke thrown in the round
  hes_thrown,  -- the player's grenades of kind he thrown in the round
  fires_thrown  -- the player's molotovs and incendiaries thrown in the round
) AS
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
CREATE VIEW buys(  -- a side's buy in a round: the economy rows of its players (team 2 or 3)
  -- summed, and its buy type
  round,  -- the round
  team,  -- the side: 2 T, 3 CT
  players,  -- the side's players in the round (economy rows)
  start_money,  -- the money they started the round with, summed (economy.start_money)
  equipment_value,  -- the value of their equipment as the freeze ended, summed
  -- (economy.equipment_value)
  spent,  -- what they spent in the round, summed (economy.spent)
  money_left,  -- start_money less spent: what they kept back; NULL when spent is
  buy_type  -- the first that holds: pistol (every player started with $800: a half's first round),
  -- full (equipment_value at least $4,000 a player for Ts, $4,500 for CTs: a rifle, armour and
  -- utility, as cs-demo-manager draws the line), eco (at most $1,000 a player), force (under
  -- $1,000 a player left unspent), else half (money kept back)
) AS
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
CREATE VIEW accuracy(  -- a player's shots with a weapon and their hits on players of another
  -- team, over the whole replay (warm-up too): one row for each player and weapon fired (shots)
  slot,  -- the shooter
  weapon,  -- the weapon: shots.weapon less its weapon_ prefix (ak47), the name damages gives it
  shots,  -- the player's shots with it: weapon_fire events (shots rows)
  hits,  -- the player's hits on enemies with a weapon of that name: player_hurt events (damages
  -- rows; attacker_team not victim_team)
  headshots,  -- those hits in the head (damages.hitgroup head)
  accuracy,  -- hits over shots, a fraction (it may pass 1 when one shot makes several player_hurt
  -- events)
  headshot_accuracy  -- headshots over shots, a fraction
) AS
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
CREATE VIEW player_rounds(  -- a player's round: one row for each economy row (the players in
  -- play as the freeze time ended)
  round,  -- the round
  slot,  -- the player
  kills,  -- the player's enemy kills in the round (enemy_kills)
  deaths,  -- the player's deaths in the round, whoever killed them (kills rows with them as victim)
  assists,  -- the kills of the round (any kills row) with the player among the assisters
  damage,  -- the damage the player dealt to enemies in the round: damages.damage_real summed over
  -- hits on players of another team (the victim's health caps each, as awpy counts ADR); 0 none
  survived,  -- 1 when the player did not die in the round (deaths = 0)
  traded,  -- 1 when the player's death in the round was traded: a row of trades
  kast,  -- 1 when the round counts for KAST: a kill, an assist, survived or traded
  headshot_kills  -- the player's enemy kills in the round that were headshots
) AS
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
CREATE VIEW player_stats(  -- a player over the match, an HLTV-style scoreboard: their rounds are
  -- those of player_rounds (the rounds the economy has them in), and each figure a round is a sum
  -- over them divided by rounds
  slot,  -- the player
  rounds,  -- the player's rounds (player_rounds rows)
  adr,  -- average damage a round: player_rounds.damage (damage_real to enemies, as awpy counts
  -- ADR) over rounds
  kast,  -- the percentage of rounds with a kill, an assist, survived or traded (player_rounds.kast)
  kpr,  -- enemy kills a round
  dpr,  -- deaths a round
  utility_damage,  -- damage_real to players of another team by the player's hegrenade, inferno,
  -- molotov or incgrenade, over every damages row of the replay (warm-up too: no round is asked)
  flashes_thrown,  -- the player's grenades of kind flash, every one of the replay (warm-up too)
  enemies_flashed,  -- flashes rows with the player the thrower and a victim of another team, every
  -- one of the replay (warm-up too)
  apr,  -- assists a round (player_rounds.assists)
  hs_pct,  -- the percentage of enemy kills that were headshots; NULL without kills
  opening_kills,  -- opening duels won: opening_duels rows with the player the attacker
  opening_deaths,  -- opening duels lost: opening_duels rows with the player the victim
  trade_kills,  -- trades rows with the player the trader (a kill that trades two deaths counts two)
  traded_deaths,  -- the player's deaths traded: trades rows with the player the traded
  clutches,  -- the player's clutches (clutches rows)
  clutches_won,  -- those the player's side won
  flash_assists,  -- enemy kills flagged assistedflash with the player among the assisters
  k1,  -- rounds of exactly one enemy kill
  k2,  -- rounds of exactly two enemy kills
  k3,  -- rounds of exactly three enemy kills
  k4,  -- rounds of exactly four enemy kills
  k5,  -- rounds of five or more enemy kills
  rating,  -- HLTV's published Rating 1.0 (2010), with HLTV's averages, as cs-demo-analyzer computes
  -- it: (kpr / 0.679 + 0.7 * ((rounds - deaths) / rounds) / 0.317 + (k1 + 4 k2 + 9 k3 + 16 k4 +
  -- 25 k5) / rounds / 1.277) / 2.7
  impact  -- 2.13 kpr + 0.42 apr - 0.41: a community regression of HLTV 2.0's Impact (flashed.gg's,
  -- as awpy computes it), not HLTV's own; HLTV has not published Rating 2.0
) AS
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
