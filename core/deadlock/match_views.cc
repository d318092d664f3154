#include "core/deadlock/match_views.h"

namespace gem::deadlock {
namespace {

// damage_dealt and damage_taken: per attacking player and what they hit, a
// player (victim_slot) or a unit by class. Self-inflicted damage is kept
// (attacker = victim).
const char kViews[] = R"sql(
CREATE VIEW damage_dealt(  -- the damage a player dealt, per target: the damage table's rows
  -- with a player as attacker, summed per target player (victim_slot) or, for units, per class
  -- (self-inflicted damage is kept: slot = victim_slot)
  slot,  -- the attacking player (players.slot)
  victim_slot,  -- the player hit (players.slot); NULL for a unit, told apart by victim_class
  victim_class,  -- the class of the entity hit (CCitadelPlayerPawn, CNPC_Trooper, ...); NULL when
  -- none was live
  damage,  -- the sum of the messages' damage
  health_lost,  -- the sum of the messages' health_lost
  hits  -- the number of Damage messages summed (not the sum of their hits field)
) AS
SELECT attacker AS slot, victim AS victim_slot, victim_class,
       sum(damage) AS damage, sum(health_lost) AS health_lost, count(*) AS hits
FROM damage WHERE attacker IS NOT NULL
GROUP BY attacker, victim, victim_class;
CREATE VIEW damage_taken(  -- the damage a player took, per source: the damage table's rows with
  -- a player as victim, summed per attacking player (attacker_slot) or, for units, per class
  slot,  -- the player hit (players.slot)
  attacker_slot,  -- the attacking player (players.slot); NULL for a unit, told apart by
  -- attacker_class
  attacker_class,  -- the class of the attacking entity (CCitadelPlayerPawn, CNPC_Trooper, ...);
  -- NULL when none was live
  damage,  -- the sum of the messages' damage
  health_lost,  -- the sum of the messages' health_lost
  hits  -- the number of Damage messages summed (not the sum of their hits field)
) AS
SELECT victim AS slot, attacker AS attacker_slot, attacker_class,
       sum(damage) AS damage, sum(health_lost) AS health_lost, count(*) AS hits
FROM damage WHERE victim IS NOT NULL
GROUP BY victim, attacker, attacker_class;
CREATE VIEW objectives(  -- an objective (guardian, walker, base guardian, shrine, patron, mid
  -- boss) with its first damage and its death, from objective_events: one row per entity index,
  -- class and name
  entity,  -- the objective's entity index (entities.ent_index)
  class,  -- its class (CNPC_TrooperBoss guardian, CNPC_Boss_Tier2 walker, CNPC_TrooperBarrackBoss
  -- base guardian, CCitadel_Destroyable_Building shrine, CNPC_Boss_Tier3 patron, CNPC_MidBoss)
  name,  -- its EntityNames name; NULL when it has none
  team,  -- the objective's team as its messages give it (the largest, should they differ)
  lane,  -- its m_iLane (CMsgLaneColor: 1 yellow, 3 green, 4 blue, 6 purple; 0 on the patron;
  -- NULL for shrines)
  first_damage_tick,  -- the tick of its first BossDamaged message; NULL when none came
  destroyed_tick,  -- the tick of its first BossKilled message; NULL while it stands at the end
  destroyed_time,  -- the match clock at its BossKilled, seconds; NULL while it stands
  killer,  -- the player (players.slot) whose pawn or controller BossKilled names as its killer;
  -- NULL when it stands or no player killed it
  x,  -- BossKilled's entity_position: where it died, world units; NULL while it stands
  y,  -- as x
  z  -- as x
) AS
SELECT entity, class, name,
       max(team) AS team, max(lane) AS lane,
       min(CASE WHEN kind = 'damaged' THEN tick END) AS first_damage_tick,
       min(CASE WHEN kind = 'killed' THEN tick END) AS destroyed_tick,
       max(CASE WHEN kind = 'killed' THEN game_time END) AS destroyed_time,
       max(CASE WHEN kind = 'killed' THEN killer END) AS killer,
       max(CASE WHEN kind = 'killed' THEN x END) AS x,
       max(CASE WHEN kind = 'killed' THEN y END) AS y,
       max(CASE WHEN kind = 'killed' THEN z END) AS z
FROM objective_events
GROUP BY entity, class, name;
CREATE VIEW ability_upgrades(  -- a rise of an ability's level in the abilities table: each
  -- ability point spent (the first row of an ability entity is where it starts, not a point
  -- spent)
  tick,  -- the tick the level rose at
  game_time,  -- the match clock then, seconds
  slot,  -- the player (players.slot)
  ability,  -- the ability's name (its EntityNames entry)
  level,  -- its level now: the upgrade bits set in m_nUpgradeBits (m_nUpgradeInfo in later
  -- builds)
  points,  -- how much it rose since the entity's row before
  entity  -- the ability entity (entities.entity)
) AS
SELECT tick, game_time, slot, ability, level, level - before AS points, entity FROM (
  SELECT tick, game_time, slot, ability, level, entity, id,
         lag(level) OVER (PARTITION BY slot, entity ORDER BY tick, id) AS before
  FROM abilities)
WHERE level > before;
CREATE VIEW record_damage_totals(  -- the post-match record's damage matrix counted once: per
  -- dealer, target and stat type, each cell's last running total summed over the specific
  -- sources (the coarse categories, which count every hit a second time, left out)
  dealer_slot,  -- the dealing player (the record's player_slot)
  target_slot,  -- the player dealt to (the record's player_slot)
  stat_type,  -- EStatType: 0 damage, 1 healing, 2 heal prevented, 3 mitigated, 4 lethal damage,
  -- 5 regen
  value  -- the total over the match: the sum of record_damage's gained
) AS
SELECT dealer_slot, target_slot, stat_type, sum(gained) AS value
FROM record_damage WHERE category IS NOT 1
GROUP BY dealer_slot, target_slot, stat_type;
CREATE VIEW healing(  -- healing per player and target, from two sources: the post-match record
  -- when the replay has one, and always the controller's counters (the replay's own messages
  -- carry no healing by target)
  slot,  -- the healing player (players.slot; the record's player_slot)
  target_slot,  -- the player healed; NULL on the controller's m_iHeroHealing row (no target)
  healing,  -- 'record': the record's stat_type 1 (healing) cells, specific sources only, summed
  -- per target; 'controller': m_PlayerDataGlobal.m_iHeroHealing (target NULL, the healing of
  -- heroes as the game counts it) or m_iSelfHealing (target the player's own slot), as of the
  -- player's last timeline row with a value
  source  -- where the row comes from: 'record' or 'controller'
) AS
SELECT dealer_slot AS slot, target_slot, sum(gained) AS healing, 'record' AS source
FROM record_damage WHERE stat_type = 1 AND category IS NOT 1
GROUP BY dealer_slot, target_slot
UNION ALL
SELECT slot, target_slot, healing, 'controller' FROM (
  SELECT slot, NULL AS target_slot, healing FROM timeline t
  WHERE tick = (SELECT max(tick) FROM timeline u WHERE u.slot = t.slot AND u.healing IS NOT NULL)
  UNION ALL
  SELECT slot, slot, self_healing FROM timeline t
  WHERE tick = (SELECT max(tick) FROM timeline u
                WHERE u.slot = t.slot AND u.self_healing IS NOT NULL));
CREATE VIEW purchase_checks(  -- an item bought (purchases' 'bought') checked against the buyer's
  -- inventory: whether and when the pawn held it (meta's purchases_never_held counts the
  -- purchases naming an item and a slot that the inventory never bears out)
  id,  -- the purchase (purchases.id)
  tick,  -- the purchase's tick
  game_time,  -- the match clock then, seconds
  slot,  -- the buyer (players.slot)
  item,  -- the item's name; NULL when the id is unknown
  next_tick,  -- the tick the same player next buys the same item; NULL when never
  held_tick  -- the purchase's tick when an inventory position of the player holds the item then,
  -- else the first tick one does before next_tick; NULL when none does, or the purchase names
  -- no item or player
) AS
SELECT b.id, b.tick, b.game_time, b.slot, b.item, b.next_tick,
       CASE WHEN EXISTS (
              SELECT 1 FROM inventory i
              WHERE i.slot = b.slot AND i.item = b.item AND i.tick <= b.tick
                AND i.tick = (SELECT max(j.tick) FROM inventory j
                              WHERE j.slot = i.slot AND j.position = i.position
                                AND j.tick <= b.tick))
            THEN b.tick
            ELSE (SELECT min(i.tick) FROM inventory i
                  WHERE i.slot = b.slot AND i.item = b.item AND i.tick > b.tick
                    AND (b.next_tick IS NULL OR i.tick < b.next_tick))
       END AS held_tick
FROM (SELECT id, tick, game_time, slot, item,
             (SELECT min(q.tick) FROM purchases q
              WHERE q.slot = p.slot AND q.item = p.item AND q.change = 'bought'
                AND q.tick > p.tick) AS next_tick
      FROM purchases p WHERE change = 'bought') b;
CREATE VIEW soul_sources(  -- a player's souls by source at the end: from the post-match
  -- record when the replay has it for the player, else from the controller's creep counters
  -- (meta's post_match_record says whether the record is there; origin says it per row)
  slot,  -- the player (players.slot; the record's player_slot)
  source,  -- 'record' rows: GoldSource.source by name (players, lane_creeps, neutrals, bosses,
  -- treasure, assists, denies, team_bonus, ...) as record_souls names it, or, from a record of
  -- a build before gold_sources, PlayerStats' own fields as players, lane_creeps, neutrals,
  -- bosses, treasure, denies and death_loss. 'controller' rows: creep_kill, creep_air_orb,
  -- creep_ground_orb, creep_solo_bonus, creep_deny, creep_neutral (m_iCreepGold* fields)
  souls,  -- the souls from the source: the record's at the player's last sample (summed should
  -- a source repeat in it), else the timeline's creep_*_souls at the player's last sample
  -- with them
  orbs,  -- the souls from its orbs (GoldSource.gold_orbs, PlayerStats' *_orbs fields); NULL
  -- where none is kept
  origin  -- 'record' or 'controller'
) AS
WITH souls_last AS (SELECT slot, max(time_s) AS time_s FROM record_souls GROUP BY slot),
stats_last AS (
  SELECT s.* FROM record_stats s
  JOIN (SELECT slot, max(time_s) AS time_s FROM record_stats GROUP BY slot) l
    ON l.slot = s.slot AND l.time_s = s.time_s
  WHERE s.slot NOT IN (SELECT slot FROM record_souls WHERE slot IS NOT NULL)),
flat AS (
  SELECT slot, 'players' AS source, souls_player AS souls, souls_player_orbs AS orbs
  FROM stats_last
  UNION ALL SELECT slot, 'lane_creeps', souls_lane_creep, souls_lane_creep_orbs FROM stats_last
  UNION ALL SELECT slot, 'neutrals', souls_neutral_creep, souls_neutral_creep_orbs
  FROM stats_last
  UNION ALL SELECT slot, 'bosses', souls_boss, souls_boss_orb FROM stats_last
  UNION ALL SELECT slot, 'treasure', souls_treasure, NULL FROM stats_last
  UNION ALL SELECT slot, 'denies', souls_denied, NULL FROM stats_last
  UNION ALL SELECT slot, 'death_loss', souls_death_loss, NULL FROM stats_last),
tl AS (
  SELECT t.* FROM timeline t
  JOIN (SELECT slot, max(tick) AS tick FROM timeline WHERE creep_kill_souls IS NOT NULL
        GROUP BY slot) l ON l.slot = t.slot AND l.tick = t.tick
  WHERE t.slot NOT IN (SELECT slot FROM record_stats WHERE slot IS NOT NULL
                       UNION SELECT slot FROM record_souls WHERE slot IS NOT NULL)),
controller AS (
  SELECT slot, 'creep_kill' AS source, creep_kill_souls AS souls FROM tl
  UNION ALL SELECT slot, 'creep_air_orb', creep_air_orb_souls FROM tl
  UNION ALL SELECT slot, 'creep_ground_orb', creep_ground_orb_souls FROM tl
  UNION ALL SELECT slot, 'creep_solo_bonus', creep_solo_bonus_souls FROM tl
  UNION ALL SELECT slot, 'creep_deny', creep_deny_souls FROM tl
  UNION ALL SELECT slot, 'creep_neutral', creep_neutral_souls FROM tl)
SELECT r.slot, r.source, sum(r.souls) AS souls, sum(r.souls_orbs) AS orbs, 'record' AS origin
FROM record_souls r JOIN souls_last l ON l.slot = r.slot AND l.time_s = r.time_s
GROUP BY r.slot, r.source
UNION ALL
SELECT slot, source, souls, orbs, 'record' FROM flat WHERE souls IS NOT NULL
UNION ALL
SELECT slot, source, souls, NULL, 'controller' FROM controller WHERE souls IS NOT NULL;
CREATE INDEX inventory_by_slot ON inventory(slot, position, tick);
CREATE INDEX abilities_by_slot ON abilities(slot, position, tick);
)sql";

}  // namespace

std::string MatchViewsSql() { return kViews; }

}  // namespace gem::deadlock
