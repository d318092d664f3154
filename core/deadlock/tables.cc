#include "core/deadlock/tables.h"

#include <initializer_list>
#include <utility>

#include "core/deadlock/post_match.h"
#include "core/match/held_entities.h"

namespace gem::deadlock {
namespace {

using Cols = std::initializer_list<std::pair<const char*, const char*>>;

// A table of `cols` alone.
TableSpec Plain(const char* name, const char* comment, Cols cols) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  for (const auto& [column, type] : cols) t.columns.push_back({column, type});
  return t;
}

// An event table: `id` first, then tick and game_time, then `cols`.
TableSpec Event(const char* name, const char* comment, Cols cols) {
  TableSpec t = Plain(name, comment, cols);
  t.auto_id = true;
  t.columns.insert(t.columns.begin(), {{"tick", "INTEGER NOT NULL"}, {"game_time", "REAL"}});
  return t;
}

// Per attacking player and what they hit: a player (victim_slot) or a unit
// by class. Self-inflicted damage is kept (attacker = victim).
const char kViewsSql[] = R"sql(
CREATE VIEW damage_dealt AS
SELECT attacker AS slot, victim AS victim_slot, victim_class,
       sum(damage) AS damage, sum(health_lost) AS health_lost, count(*) AS hits
FROM damage WHERE attacker IS NOT NULL
GROUP BY attacker, victim, victim_class;
CREATE VIEW damage_taken AS
SELECT victim AS slot, attacker AS attacker_slot, attacker_class,
       sum(damage) AS damage, sum(health_lost) AS health_lost, count(*) AS hits
FROM damage WHERE victim IS NOT NULL
GROUP BY victim, attacker, attacker_class;
CREATE VIEW objectives AS
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
CREATE VIEW ability_upgrades AS
SELECT tick, game_time, slot, ability, level, level - before AS points, entity FROM (
  SELECT tick, game_time, slot, ability, level, entity, id,
         lag(level) OVER (PARTITION BY slot, entity ORDER BY tick, id) AS before
  FROM abilities)
WHERE level > before;
CREATE VIEW record_damage_totals AS
SELECT dealer_slot, target_slot, stat_type, sum(gained) AS value
FROM record_damage WHERE category IS NOT 1
GROUP BY dealer_slot, target_slot, stat_type;
CREATE VIEW healing AS
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
CREATE VIEW purchase_checks AS
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
CREATE INDEX inventory_by_slot ON inventory(slot, position, tick);
CREATE INDEX abilities_by_slot ON abilities(slot, position, tick);
)sql";

GameSchema Build() {
  GameSchema s;
  s.tables.resize(kTableCount);
  s.tables[kInventory] = match::HeldTableSpec(
      "inventory", "change of one of a pawn's items (m_vecAbilities' CCitadel_Item_*)", "item",
      "charges");
  s.tables[kAbilities] = match::HeldTableSpec(
      "abilities", "change of one of a pawn's abilities (m_vecAbilities): upgrade bits set",
      "ability", "level");
  s.tables[kDamage] = Event(
      "damage", "CCitadelUserMessage_Damage: one row a message",
      {{"attacker", "INTEGER"}, {"victim", "INTEGER"}, {"attacker_entity", "INTEGER"},
       {"victim_entity", "INTEGER"}, {"inflictor_entity", "INTEGER"},
       {"attacker_class", "TEXT"}, {"victim_class", "TEXT"}, {"inflictor_class", "TEXT"},
       {"ability", "TEXT"}, {"ability_id", "INTEGER"}, {"damage", "INTEGER"},
       {"pre_damage", "REAL"}, {"absorbed", "REAL"}, {"crit_damage", "REAL"},
       {"health_lost", "INTEGER"}, {"health_after", "INTEGER"}, {"health_max", "INTEGER"},
       {"shield_after", "INTEGER"}, {"shield_max", "INTEGER"}, {"hits", "INTEGER"},
       {"hitgroup", "INTEGER"}, {"type", "INTEGER"}, {"citadel_type", "INTEGER"},
       {"flags", "INTEGER"}, {"secondary", "INTEGER"}, {"effectiveness", "REAL"},
       {"server_tick", "INTEGER"}, {"x", "REAL"}, {"y", "REAL"}, {"z", "REAL"}});
  s.tables[kKillStreaks] = Event(
      "kill_streaks", "CCitadelUserMsg_KillStreak: a player's streak grew, began or ended",
      {{"slot", "INTEGER"}, {"kills", "INTEGER"}, {"first_blood", "INTEGER"},
       {"ended", "INTEGER"}, {"duration", "REAL"}});
  s.tables[kRespawns] = Event("respawns", "CCitadelUserMsg_PlayerRespawned",
                              {{"slot", "INTEGER"}, {"yaw", "REAL"}});
  s.tables[kObjectiveEvents] = Event(
      "objective_events",
      "CCitadelUserMsg_BossDamaged (kind 'damaged') and BossKilled ('killed'): guardians, "
      "walkers, shrines, the patron and the mid boss, labelled by the entity's class",
      {{"kind", "TEXT NOT NULL"}, {"entity", "INTEGER"}, {"class", "TEXT"}, {"name", "TEXT"},
       {"team", "INTEGER"}, {"lane", "INTEGER"}, {"objective_id", "INTEGER"},
       {"mask_change", "INTEGER"},
       {"killer", "INTEGER"}, {"killer_entity", "INTEGER"}, {"killer_class", "TEXT"},
       {"bosses_remaining", "INTEGER"}, {"message_time", "REAL"}, {"x", "REAL"},
       {"y", "REAL"}, {"z", "REAL"}});
  s.tables[kMidBoss] = Event(
      "mid_boss",
      "CCitadelUserMsg_MidBossSpawned (kind 'spawned') and RejuvStatus ('rejuv')",
      {{"kind", "TEXT NOT NULL"}, {"team", "INTEGER"}, {"slot", "INTEGER"},
       {"user_team", "INTEGER"}, {"event_type", "INTEGER"}});
  s.tables[kPurchases] = Event(
      "purchases",
      "CCitadelUserMsg_AbilitiesChanged: a shop change (bought, upgraded, sold, swapped, "
      "failed)",
      {{"slot", "INTEGER"}, {"item", "TEXT"}, {"ability_id", "INTEGER"},
       {"change", "TEXT"}});
  s.tables[kPurchaseNotifications] = Event(
      "purchase_notifications", "CCitadelUserMessage_ItemPurchaseNotification",
      {{"slot", "INTEGER"}, {"item", "TEXT"}, {"ability_id", "INTEGER"},
       {"sold", "INTEGER"}, {"quickbuy", "INTEGER"}});
  s.tables[kAbilityCasts] = Event(
      "ability_casts", "CCitadelUserMessage_ImportantAbilityUsed",
      {{"slot", "INTEGER"}, {"caster_entity", "INTEGER"}, {"caster_class", "TEXT"},
       {"ability", "TEXT"}});
  s.tables[kPings] = Event(
      "pings", "CCitadelUserMsg_MapPing (kind 'map') and ChatWheel ('wheel')",
      {{"slot", "INTEGER"}, {"kind", "TEXT NOT NULL"}, {"message_id", "INTEGER"},
       {"entity", "INTEGER"}, {"entity_class", "TEXT"}, {"x", "REAL"}, {"y", "REAL"},
       {"z", "REAL"}, {"enemy", "INTEGER"}, {"minimap", "INTEGER"}, {"blind", "INTEGER"},
       {"hero", "TEXT"}, {"param", "TEXT"}, {"lane_color", "INTEGER"}});
  s.tables[kIdolReturns] = Event(
      "idol_returns", "CCitadelUserMsg_ReturnIdol: where the urn (idol) is to be delivered",
      {{"location_index", "INTEGER"}, {"enabled", "INTEGER"}, {"x", "REAL"}, {"y", "REAL"},
       {"z", "REAL"}});
  s.tables[kFlexSlots] = Event("flex_slots", "CCitadelUserMsg_FlexSlotUnlocked",
                               {{"team", "INTEGER"}, {"flex_slot", "INTEGER"}});
  TableSpec bans;
  bans.name = "banned_heroes";
  bans.comment = "CCitadelUserMsg_BannedHeroes: one row an id, in the message's order";
  bans.auto_id = true;
  bans.columns = {{"tick", "INTEGER NOT NULL"}, {"hero_id", "INTEGER NOT NULL"}};
  s.tables[kBannedHeroes] = bans;
  s.tables[kModifiers] = Event(
      "modifiers",
      "a life of an ActiveModifiers entry (CModifierTableEntry): applied at tick, removed at "
      "removed_tick",
      {{"removed_tick", "INTEGER"}, {"removed_time", "REAL"}, {"slot", "INTEGER"},
       {"parent", "INTEGER"}, {"parent_class", "TEXT"}, {"caster", "INTEGER"},
       {"caster_slot", "INTEGER"}, {"ability", "TEXT"}, {"ability_id", "INTEGER"},
       {"modifier_id", "INTEGER"}, {"modifier", "TEXT"}, {"serial", "INTEGER"},
       {"stacks", "INTEGER"}, {"max_stacks", "INTEGER"}, {"duration", "REAL"},
       {"last_applied", "REAL"}});
  s.tables[kHeroes] = Plain(
      "heroes", "hero id the replay names (players' m_nHeroID, bans), with its names",
      {{"hero_id", "INTEGER PRIMARY KEY"}, {"name", "TEXT"}, {"internal_name", "TEXT"},
       {"source", "TEXT"}});
  s.tables[kKnownNames] = Plain(
      "known_names", "the names gem knows of item and modifier ids a replay may not name",
      {{"token", "INTEGER NOT NULL"}, {"name", "TEXT NOT NULL"}, {"kind", "TEXT NOT NULL"},
       {"source", "TEXT NOT NULL"}});
  s.tables[kPauses] = Event("pauses", "the game paused (the game rules' m_bGamePaused)",
                            {{"end_tick", "INTEGER"}, {"duration_s", "REAL"},
                             {"team", "INTEGER"}});
  s.tables[kUrn] = Event(
      "urn",
      "the urn (idol): 'picked_up', 'dropped', 'returned' by a player's pawn (ActiveModifiers), "
      "delivery points 'point_enabled', 'point_disabled' (CCitadelIdolReturnTrigger)",
      {{"event", "TEXT NOT NULL"}, {"slot", "INTEGER"}, {"team", "INTEGER"},
       {"entity", "INTEGER"}, {"x", "REAL"}, {"y", "REAL"}, {"z", "REAL"}});
  s.tables[kPatronPhases] = Event(
      "patron_phases", "the patron's (CNPC_Boss_Tier3) m_ePhase: at creation and each change",
      {{"entity", "INTEGER NOT NULL"}, {"team", "INTEGER"}, {"phase", "INTEGER"}});
  s.tables[kAbilityCooldowns] = Event(
      "ability_cooldowns",
      "a cooldown began: a player's ability or item took a new m_flCooldownStart",
      {{"slot", "INTEGER"}, {"ability", "TEXT"}, {"entity", "INTEGER"},
       {"cooldown_start", "REAL"}, {"cooldown_end", "REAL"}, {"duration_s", "REAL"}});
  AddRecordTables(&s);
  s.kill_columns = {{"victim_team", "INTEGER"},
                    {"respawn_reason", "INTEGER"},
                    {"inflictor_class", "TEXT"},
                    {"killer_ability", "TEXT"},
                    {"killer_ability_id", "INTEGER"}};
  s.after_sql = kViewsSql;
  // Written at the end (TableSpec::written): the heroes the match had (a
  // live index's commits rewrite it as it stands).
  s.tables[kHeroes].written = TableSpec::Written::kAtEnd;
  // A modifier's row once it is removed, a pause's once it ends.
  s.tables[kModifiers].written = TableSpec::Written::kWhenClosed;
  s.tables[kPauses].written = TableSpec::Written::kWhenClosed;
  return s;
}

}  // namespace

const GameSchema& DeadlockSchema() {
  static const GameSchema* const kSchema = new GameSchema(Build());
  return *kSchema;
}

}  // namespace gem::deadlock
