#include "core/cs2/aim_views.h"

#include "core/cs2/weapons.h"

namespace gem::cs2 {
namespace {

// Each view's rule is its comment, and each column's its doc; each view
// reads the ones before it. Medians are the middle value, or the mean of
// the two middle values.
const char kAimViewsSql[] = R"sql(
INSERT INTO stat_settings VALUES('counter_strafe_share', 0.34);
INSERT INTO stat_settings VALUES('flash_kill_window_s', 2.0);
CREATE VIEW engagements(  -- a player (attacker) against an enemy (victim) they had spotted: from
  -- a sightings row's start to the attacker's first damage to the victim in it (damages), else the
  -- sighting's end (a death, the spot lost, a pawn gone). The issue's rule (Leetify's measures, on
  -- the radar's flag); first seen is the spotted mask's, fov_tick the field of view's (sightings)
  id,  -- the sighting: sightings.id
  round,  -- the round (sightings.round)
  attacker,  -- the player who had the victim spotted (sightings.observer)
  victim,  -- the enemy spotted (sightings.target)
  seen_tick,  -- first seen: the sighting's tick, by the spotted mask
  fov_tick,  -- the sighting's fov_tick when it is no later than the engagement's end, else NULL
  end_tick,  -- damage_tick, else the sighting's end_tick (NULL while it holds)
  outcome,  -- damage (the attacker hurt the victim), attacker_died, victim_died, lost_sight (the
  -- spotted bit went), gone (a pawn left the recording or changed team), open (held at the
  -- replay's end)
  damage_tick,  -- the tick of the attacker's first damages row on the victim from seen_tick to the
  -- sighting's end_tick, both included; NULL when none
  time_to_damage_ms,  -- damage_tick less seen_tick in milliseconds (match_info.tick_rate): 0 for
  -- a damage on the first tick seen
  time_to_damage_fov_ms,  -- damage_tick less fov_tick, milliseconds; NULL without both
  shot_tick,  -- the damaging shot: the attacker's last shots row at or before damage_tick with the
  -- weapon of the first damage (weapon_ and damages.weapon), for a gun (weapons.kind pistol, smg,
  -- rifle, sniper, shotgun or machine_gun); NULL else
  crosshair_angle,  -- crosshair placement: how far the view turned from seen_tick to the damaging
  -- shot, hypot(yaw turned, pitch turned) in degrees, the yaw taken the short way round; NULL
  -- without a shot
  head_angle  -- at first sight, the degrees between the attacker's view and the line to the
  -- victim's head (sightings.head_angle)
) AS
WITH rate AS (SELECT tick_rate FROM match_info),
base AS (
  SELECT s.*, (SELECT min(d.tick) FROM damages d WHERE d.attacker = s.observer
                 AND d.victim = s.target AND d.tick >= s.tick
                 AND (s.end_tick IS NULL OR d.tick <= s.end_tick)) AS damage_tick
  FROM sightings s),
hit AS (
  SELECT b.*, (SELECT d.weapon FROM damages d WHERE d.attacker = b.observer
                 AND d.victim = b.target AND d.tick = b.damage_tick ORDER BY d.id LIMIT 1)
                AS damage_weapon
  FROM base b),
shot AS (
  SELECT h.*, (SELECT x.id FROM shots x WHERE x.slot = h.observer AND x.tick <= h.damage_tick
                   AND x.weapon = 'weapon_' || h.damage_weapon
                   AND h.damage_weapon IN (SELECT weapon FROM weapons WHERE kind IN
                         ('pistol', 'smg', 'rifle', 'sniper', 'shotgun', 'machine_gun'))
                 ORDER BY x.tick DESC, x.id DESC LIMIT 1) AS shot_id
  FROM hit h)
SELECT s.id, s.round, s.observer, s.target, s.tick,
       CASE WHEN s.fov_tick <= coalesce(s.damage_tick, s.end_tick, s.fov_tick) THEN s.fov_tick END,
       coalesce(s.damage_tick, s.end_tick),
       CASE WHEN s.damage_tick IS NOT NULL THEN 'damage'
            WHEN s.ended = 'observer_dead' THEN 'attacker_died'
            WHEN s.ended = 'target_dead' THEN 'victim_died'
            WHEN s.ended = 'unspotted' THEN 'lost_sight'
            WHEN s.ended = 'gone' THEN 'gone' ELSE 'open' END,
       s.damage_tick,
       (s.damage_tick - s.tick) * 1000.0 / (SELECT tick_rate FROM rate),
       CASE WHEN s.fov_tick <= s.damage_tick
            THEN (s.damage_tick - s.fov_tick) * 1000.0 / (SELECT tick_rate FROM rate) END,
       x.tick,
       CASE WHEN x.id IS NOT NULL THEN
         sqrt((x.pitch - s.pitch) * (x.pitch - s.pitch) +
              ((x.yaw - s.yaw) - 360.0 * round((x.yaw - s.yaw) / 360.0)) *
              ((x.yaw - s.yaw) - 360.0 * round((x.yaw - s.yaw) / 360.0))) END,
       s.head_angle
FROM shot s LEFT JOIN shots x ON x.id = s.shot_id;
CREATE VIEW shot_aim(  -- a shot of a gun (shots whose weapon is a weapons row of kind pistol, smg,
  -- rifle, sniper, shotgun or machine_gun) and how it went; shots with no weapon are not in it
  id,  -- the shot: shots.id
  round,  -- the round
  tick,  -- the tick of the shot
  slot,  -- the shooter
  weapon,  -- weapons.weapon (shots.weapon less weapon_)
  kind,  -- weapons.kind: pistol, smg, rifle, sniper, shotgun, machine_gun
  burst_shot,  -- shots.burst_shot: 1 the burst's first bullet (m_iShotsFired)
  speed,  -- shots.speed: the shooter's speed across the ground, units a second
  max_speed,  -- the weapon's top speed (weapons.max_speed)
  counter_strafed,  -- 1 when speed is at most counter_strafe_share (stat_settings, 0.34: Leetify's
  -- 34%) of max_speed, else 0; NULL without a speed
  hit,  -- 1 when a damages row of the shooter's with this weapon on a player of another team has
  -- the shot's tick (a bullet hits as it is fired), else 0
  head,  -- 1 when such a row's hitgroup is head, else 0
  enemy_seen  -- 1 when the shooter had an enemy spotted then: a sightings row of theirs from its
  -- tick up to (not including) its end_tick, else 0
) AS
SELECT x.id, x.round, x.tick, x.slot, w.weapon, w.kind, x.burst_shot, x.speed, w.max_speed,
       CASE WHEN x.speed IS NOT NULL THEN
         x.speed <= (SELECT value FROM stat_settings WHERE name = 'counter_strafe_share')
                    * w.max_speed END,
       EXISTS (SELECT 1 FROM damages d WHERE d.attacker = x.slot AND d.tick = x.tick
                 AND d.weapon = w.weapon AND d.attacker_team IS NOT d.victim_team),
       EXISTS (SELECT 1 FROM damages d WHERE d.attacker = x.slot AND d.tick = x.tick
                 AND d.weapon = w.weapon AND d.attacker_team IS NOT d.victim_team
                 AND d.hitgroup = 'head'),
       EXISTS (SELECT 1 FROM sightings o WHERE o.observer = x.slot AND o.tick <= x.tick
                 AND (o.end_tick IS NULL OR o.end_tick > x.tick))
FROM shots x JOIN weapons w ON x.weapon = 'weapon_' || w.weapon
WHERE w.kind IN ('pistol', 'smg', 'rifle', 'sniper', 'shotgun', 'machine_gun');
CREATE VIEW aim_stats(  -- a player's aim over the replay (warm-up too), Leetify's measures by the
  -- rules of engagements and shot_aim; one row for each player (players)
  slot,  -- the player
  engagements,  -- engagements rows with the player the attacker
  damaged,  -- those that ended in damage
  time_to_damage_ms,  -- the median of their time_to_damage_ms (spotted mask)
  time_to_damage_fov_ms,  -- the median of their time_to_damage_fov_ms (field of view)
  crosshair_angle,  -- the median of their crosshair_angle, degrees
  head_angle,  -- the median head_angle over all the player's engagements, degrees
  rifle_shots,  -- shot_aim rows of kind rifle with a speed
  rifle_counter_strafed,  -- the share of them counter_strafed; NULL without any
  pistol_shots,  -- shot_aim rows of kind pistol with a speed
  pistol_counter_strafed,  -- the share of them counter_strafed; NULL without any
  shots,  -- the player's shot_aim rows
  first_bullet_accuracy,  -- hits over shots among burst_shot 1; NULL without any
  spray_accuracy,  -- hits over shots among burst_shot 4 or more (after the burst's third); NULL
  -- without any
  head_accuracy,  -- head over shots; NULL without shots
  seen_accuracy  -- hits over shots among those with enemy_seen; NULL without any
) AS
WITH vals AS (
  SELECT attacker AS slot, 't' AS m, time_to_damage_ms AS v FROM engagements
  UNION ALL SELECT attacker, 'f', time_to_damage_fov_ms FROM engagements
  UNION ALL SELECT attacker, 'c', crosshair_angle FROM engagements
  UNION ALL SELECT attacker, 'h', head_angle FROM engagements),
ranked AS (
  SELECT slot, m, v, row_number() OVER (PARTITION BY slot, m ORDER BY v) AS n,
         count(*) OVER (PARTITION BY slot, m) AS c
  FROM vals WHERE v IS NOT NULL),
med AS (
  SELECT slot, m, avg(v) AS v FROM ranked WHERE n IN ((c + 1) / 2, (c + 2) / 2) GROUP BY slot, m),
shot AS (
  SELECT slot, count(*) AS shots,
         sum(kind = 'rifle' AND speed IS NOT NULL) AS rifle_shots,
         sum(CASE WHEN kind = 'rifle' THEN counter_strafed END) AS rifle_good,
         sum(kind = 'pistol' AND speed IS NOT NULL) AS pistol_shots,
         sum(CASE WHEN kind = 'pistol' THEN counter_strafed END) AS pistol_good,
         sum(burst_shot = 1) AS first, sum(CASE WHEN burst_shot = 1 THEN hit END) AS first_hit,
         sum(burst_shot >= 4) AS spray, sum(CASE WHEN burst_shot >= 4 THEN hit END) AS spray_hit,
         sum(head) AS heads, sum(enemy_seen) AS seen,
         sum(CASE WHEN enemy_seen THEN hit END) AS seen_hit
  FROM shot_aim GROUP BY slot),
eng AS (
  SELECT attacker AS slot, count(*) AS n, sum(outcome = 'damage') AS damaged
  FROM engagements GROUP BY attacker)
SELECT p.slot, coalesce(e.n, 0), coalesce(e.damaged, 0),
       (SELECT v FROM med WHERE med.slot = p.slot AND m = 't'),
       (SELECT v FROM med WHERE med.slot = p.slot AND m = 'f'),
       (SELECT v FROM med WHERE med.slot = p.slot AND m = 'c'),
       (SELECT v FROM med WHERE med.slot = p.slot AND m = 'h'),
       coalesce(s.rifle_shots, 0), 1.0 * s.rifle_good / nullif(s.rifle_shots, 0),
       coalesce(s.pistol_shots, 0), 1.0 * s.pistol_good / nullif(s.pistol_shots, 0),
       coalesce(s.shots, 0), 1.0 * s.first_hit / nullif(s.first, 0),
       1.0 * s.spray_hit / nullif(s.spray, 0), 1.0 * s.heads / nullif(s.shots, 0),
       1.0 * s.seen_hit / nullif(s.seen, 0)
FROM players p LEFT JOIN eng e USING (slot) LEFT JOIN shot s USING (slot);
CREATE VIEW flash_stats(  -- a player's flashbangs over the replay: the grenades of kind flash they
  -- threw and the flashes rows those made (flashes.grenade); one row for each player (players)
  slot,  -- the thrower
  flashbangs,  -- grenades of kind flash the player threw
  enemies_flashed,  -- flashes rows of those with a victim of another team than the thrower's
  enemies_per_flash,  -- enemies_flashed over flashbangs; NULL without any
  enemy_blind_s,  -- the mean duration of those enemy flashes, seconds; NULL without any
  teammates_flashed,  -- flashes rows of those with a victim of the thrower's team, the thrower
  -- not counted
  flashes_to_kills  -- flashbangs after which the thrower or a teammate killed an enemy it
  -- blinded within flash_kill_window_s (stat_settings, 2 s) of the blinding (gem's rule: the
  -- kill from the flash's tick up to the window, both included)
) AS
WITH mine AS (
  SELECT f.*, g.thrower AS by_slot FROM flashes f JOIN grenades g ON g.id = f.grenade
  WHERE g.kind = 'flash'),
per AS (
  SELECT by_slot AS slot,
         sum(thrower_team IS NOT victim_team) AS enemies,
         avg(CASE WHEN thrower_team IS NOT victim_team THEN duration END) AS blind,
         sum(thrower_team = victim_team AND victim <> by_slot) AS mates
  FROM mine GROUP BY by_slot),
led AS (
  SELECT m.by_slot AS slot, count(DISTINCT m.grenade) AS n FROM mine m
  WHERE m.thrower_team IS NOT m.victim_team AND EXISTS (
    SELECT 1 FROM kills k WHERE k.victim = m.victim AND k.killer_team = m.thrower_team
      AND k.killer IS NOT NULL AND k.tick >= m.tick
      AND k.tick <= m.tick + (SELECT value FROM stat_settings WHERE name = 'flash_kill_window_s')
                             * (SELECT tick_rate FROM match_info))
  GROUP BY m.by_slot),
thrown AS (
  SELECT thrower AS slot, count(*) AS n FROM grenades WHERE kind = 'flash' GROUP BY thrower)
SELECT p.slot, coalesce(t.n, 0), coalesce(r.enemies, 0),
       1.0 * coalesce(r.enemies, 0) / nullif(t.n, 0), r.blind, coalesce(r.mates, 0),
       coalesce(l.n, 0)
FROM players p LEFT JOIN thrown t USING (slot) LEFT JOIN per r USING (slot)
  LEFT JOIN led l USING (slot);
CREATE VIEW he_stats(  -- a player's HE grenades over the replay; one row for each player (players)
  slot,  -- the thrower
  he_thrown,  -- grenades of kind he the player threw
  he_damage,  -- damage_real to players of another team by the player's hegrenade (damages)
  damage_per_grenade  -- he_damage over he_thrown; NULL without any
) AS
SELECT p.slot,
       (SELECT count(*) FROM grenades g WHERE g.thrower = p.slot AND g.kind = 'he'),
       coalesce((SELECT sum(d.damage_real) FROM damages d WHERE d.attacker = p.slot
                   AND d.weapon = 'hegrenade' AND d.attacker_team IS NOT d.victim_team), 0),
       1.0 * coalesce((SELECT sum(d.damage_real) FROM damages d WHERE d.attacker = p.slot
                   AND d.weapon = 'hegrenade' AND d.attacker_team IS NOT d.victim_team), 0)
         / nullif((SELECT count(*) FROM grenades g WHERE g.thrower = p.slot AND g.kind = 'he'), 0)
FROM players p;
CREATE VIEW utility_on_death(  -- a player's grenades left unused at their deaths over the
  -- replay: kills rows with the player the victim (kills.utility_held, utility_value). Leetify
  -- reports utility on death but publishes no rule: the per-death mean here is gem's
  slot,  -- the player
  deaths,  -- kills rows with the player the victim
  known,  -- those with utility_value known (the pawn read alive and in view)
  with_utility,  -- those with utility_value above 0
  value,  -- the sum of utility_value, dollars
  value_per_death  -- value over known; NULL without any
) AS
SELECT p.slot, count(k.id), count(k.utility_value), coalesce(sum(k.utility_value > 0), 0),
       coalesce(sum(k.utility_value), 0), avg(k.utility_value)
FROM players p LEFT JOIN kills k ON k.victim = p.slot
GROUP BY p.slot;
CREATE VIEW duels(  -- an enemy kill (enemy_kills) as a duel of the two players' weapon groups, for
  -- economy-adjusted figures: the killer's weapon is the event's, the victim's what they last held
  -- (kills.victim_weapon); groups and tiers are the weapons table's (gem's assignment to HLTV's 2025
  -- rating groups)
  id,  -- the kill: kills.id
  round,  -- the round
  tick,  -- the tick of the kill
  killer,  -- the killer's slot
  victim,  -- the victim's slot
  killer_weapon,  -- player_death's weapon (ak47, hegrenade, knife)
  victim_weapon,  -- kills.victim_weapon
  killer_group,  -- the killer's weapon's duel_group; NULL for one without (a grenade, a knife)
  victim_group,  -- the victim's weapon's duel_group; NULL as killer_group
  tier_gap  -- victim's tier less the killer's: above 0 when the killer won with the weaker
  -- weapon; NULL when either has no group
) AS
SELECT k.id, k.round, k.tick, k.killer, k.victim, k.weapon, v.victim_weapon, kw.duel_group,
       vw.duel_group, vw.tier - kw.tier
FROM enemy_kills k JOIN kills v ON v.id = k.id
  LEFT JOIN weapons kw ON kw.weapon = k.weapon LEFT JOIN weapons vw ON vw.weapon = v.victim_weapon;
CREATE INDEX damages_by_pair ON damages(attacker, victim, tick);
CREATE INDEX damages_by_tick ON damages(attacker, tick);
CREATE INDEX shots_by_slot ON shots(slot, tick);
CREATE INDEX sightings_by_observer ON sightings(observer, tick);
)sql";

}  // namespace

std::string AimViewsSql() { return WeaponsTableSql() + kAimViewsSql; }

}  // namespace gem::cs2
