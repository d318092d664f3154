#include "core/dota/tables.h"

#include "core/dota/chat.h"
#include "core/dota/enum_names.h"
#include "core/dota/hero_deaths.h"
#include "core/dota/lanes.h"
#include "core/dota/pauses.h"
#include "core/dota/player_events.h"
#include "core/dota/lane_views.h"
#include "core/dota/minute_views.h"
#include "core/dota/player_views.h"
#include "core/dota/smoke_views.h"
#include "core/dota/ward_views.h"
#include "core/dota/unit_orders.h"
#include "core/dota/combat_log_table.h"
#include "core/dota/draft.h"
#include "core/dota/file_info.h"
#include "core/dota/match_events.h"
#include "core/dota/teamfights.h"
#include "core/match/held_entities.h"

namespace gem::dota {
namespace {

// Damage and healing as OpenDota credits them: to the player whose hero
// the damage source is (an illusion's or a summon's owner), per target,
// real heroes told apart from illusions. `what` says what the view sums
// ("damage a player dealt"), `entry` the combat-log type, for its docs.
std::string CreditViewSql(const char* view, int type, const char* what, const char* entry) {
  const std::string v = view, e = entry;
  return "CREATE VIEW " + v + "(  -- " + what + ", per target: the combat log's " + e +
         "\n"
         "  -- entries summed, credited as OpenDota credits them to the player whose hero is\n"
         "  -- the entry's damage source (where the combat log names an illusion's or a\n"
         "  -- summon's owner)\n"
         "  slot,  -- the player (players.slot) whose hero is the entries' damage source\n"
         "  target,  -- the target's CombatLogNames name (npc_dota_hero_axe,\n"
         "  -- npc_dota_creep_goodguys_melee); NULL when the entry names none or\n"
         "  -- combat_log_names has no name for its index\n"
         "  target_hero,  -- 1 when the entries say the target is a hero (is_target_hero),\n"
         "  -- else 0\n"
         "  target_illusion,  -- 1 when the entries say the target is an illusion\n"
         "  -- (is_target_illusion), else 0: a real hero is target_hero = 1 AND\n"
         "  -- target_illusion = 0\n"
         "  " + v + ",  -- the sum of the entries' value, as the combat log records it; the\n"
         "  -- player's own hero can be a target (target <> players.hero leaves it out)\n"
         "  hits  -- the number of " + e + " entries summed\n"
         ") AS\n"
         "SELECT p.slot, t.name AS target, coalesce(c.is_target_hero, 0) AS target_hero,\n"
         "       coalesce(c.is_target_illusion, 0) AS target_illusion,\n"
         "       sum(c.value) AS " + v + ", count(*) AS hits\n"
         "FROM combat_log_entries c\n"
         "  JOIN combat_log_names s ON s.idx = c.damage_source_name_idx\n"
         "  JOIN players p ON p.hero = s.name\n"
         "  LEFT JOIN combat_log_names t ON t.idx = c.target_name_idx\n"
         "WHERE c.type = " + std::to_string(type) +
         "\n"
         "GROUP BY p.slot, c.target_name_idx, coalesce(c.is_target_hero, 0),\n"
         "         coalesce(c.is_target_illusion, 0);\n";
}

GameSchema Build() {
  GameSchema s;
  s.tables.resize(kTableCount);
  s.tables[kCombatLogTypes] = CombatLogTypesTable();
  s.tables[kCombatLogNames] = CombatLogNamesTable();
  s.tables[kCombatLogEntries] = CombatLogEntriesTable();
  s.tables[kChatEvents] = ChatEventsTable();
  s.tables[kFileInfoPlayers] = FileInfoPlayersTable();
  s.tables[kPurchases] = PurchasesTable();
  s.tables[kInventory] = match::HeldTableSpec(
      "inventory",
      "a change of what one position of a player's hero's item array (m_hItems) holds: another "
      "item, none, or the item's charges. Read at the end of the frame that moved it, so each "
      "row is what gem_state gives for those fields at its tick; a player's new hero gives a row "
      "for each position that differs from the last hero's",
      {"the position in the hero's m_hItems (m_Inventory.m_hItems in later builds): 0-5 the "
       "inventory, 6-8 the backpack, 9-14 the stash, 15 the teleport scroll, 16 the neutral "
       "item; later positions as the build has them",
       "item",
       "the item, its entity's EntityNames name (item_blink); NULL for a handle that names "
       "no live entity (counted in meta inventory_missing_entities) or an item entity without "
       "a name (inventory_unnamed_entities)",
       "charges",
       "the item entity's m_iCurrentCharges then; NULL for a handle that names no live "
       "entity"});
  s.tables[kAbilities] = match::HeldTableSpec(
      "abilities",
      "a change of what one position of a player's hero's ability array (m_hAbilities) holds, "
      "or of that ability's level: the skill build, talents included. The abilities the hero "
      "starts with are rows too (most at level 0). Read at the end of the frame that moved it, "
      "as gem_state reads the fields at its tick",
      {"the position in the hero's m_hAbilities (m_vecAbilities in builds that have it), in "
       "the order the game lists the hero's abilities and talents",
       "ability",
       "the ability, its entity's EntityNames name (antimage_blink; talents special_bonus_*); "
       "NULL for a handle that names no live entity (counted in meta "
       "abilities_missing_entities) or an ability entity without a name "
       "(abilities_unnamed_entities)",
       "level",
       "the ability entity's m_iLevel then: most start at 0, the shared ones at 1, so a point "
       "spent is a rise from the level first seen (a talent taken goes to 1); NULL for a handle "
       "that names no live entity"});
  s.tables[kObjectives] = ObjectivesTable();
  s.tables[kRunes] = RunesTable();
  s.tables[kBuybacks] = BuybacksTable();
  s.tables[kDraft] = DraftTable();
  s.tables[kTeamfights] = TeamfightsTable();
  s.tables[kTeamfightPlayers] = TeamfightPlayersTable();
  s.tables[kGoldReasonNames] = GoldReasonNamesTable();
  s.tables[kXpReasonNames] = XpReasonNamesTable();
  s.tables[kUnitOrderNames] = UnitOrderNamesTable();
  s.tables[kActions] = ActionsTable();
  s.tables[kLanes] = LanesTable();
  s.tables[kAbilityUses] = AbilityUsesTable();
  s.tables[kItemUses] = ItemUsesTable();
  s.tables[kMultiKills] = MultiKillsTable();
  s.tables[kKillStreaks] = KillStreaksTable();
  s.tables[kPauses] = PausesTable();
  s.tables[kHeroDeaths] = HeroDeathsTable();
  s.after_sql = CombatLogViewSql();
  s.after_sql += CreditViewSql("damage", kCombatLogDamage, "the damage a player dealt",
                               "DOTA_COMBATLOG_DAMAGE");
  s.after_sql += CreditViewSql("healing", kCombatLogHeal, "the healing a player gave",
                               "DOTA_COMBATLOG_HEAL");
  // Hits on heroes that are not illusions, per inflictor (OpenDota's
  // hero_hits; auto-attacks are the inflictor dota_unknown).
  s.after_sql +=
      "CREATE VIEW hero_hits(  -- a player's hits on one real hero with one inflictor\n"
      "  -- (OpenDota's hero_hits): the combat log's DOTA_COMBATLOG_DAMAGE entries whose\n"
      "  -- target is a hero (is_target_hero = 1) and not an illusion, credited to the player\n"
      "  -- whose hero is the entry's damage source (where the combat log names an illusion's\n"
      "  -- or a summon's owner)\n"
      "  slot,  -- the player (players.slot) whose hero is the entries' damage source\n"
      "  target,  -- the hero hit, its CombatLogNames name (npc_dota_hero_axe; the player's own\n"
      "  -- can be one); NULL when combat_log_names has no name for its index\n"
      "  inflictor,  -- what hit, its CombatLogNames name: an ability or an item\n"
      "  -- (lina_laguna_blade), dota_unknown for an attack; NULL when the entry names none\n"
      "  hits,  -- the number of DOTA_COMBATLOG_DAMAGE entries\n"
      "  damage  -- the sum of their value, as the combat log records it\n"
      ") AS\n"
      "SELECT p.slot, t.name AS target, i.name AS inflictor, count(*) AS hits,\n"
      "       sum(c.value) AS damage\n"
      "FROM combat_log_entries c\n"
      "  JOIN combat_log_names s ON s.idx = c.damage_source_name_idx\n"
      "  JOIN players p ON p.hero = s.name\n"
      "  LEFT JOIN combat_log_names t ON t.idx = c.target_name_idx\n"
      "  LEFT JOIN combat_log_names i ON i.idx = c.inflictor_name_idx\n"
      "WHERE c.type = 0 AND c.is_target_hero = 1 AND coalesce(c.is_target_illusion, 0) = 0\n"
      "GROUP BY p.slot, c.target_name_idx, c.inflictor_name_idx;\n"
      "CREATE INDEX purchases_by_slot ON purchases(slot, tick);\n"
      "CREATE INDEX inventory_by_slot ON inventory(slot, position, tick);\n"
      "CREATE INDEX abilities_by_slot ON abilities(slot, position, tick);\n";
  s.after_sql += PlayerViewsSql();
  s.after_sql += SmokeViewsSql();
  s.after_sql += LaneViewsSql();
  s.after_sql += WardViewsSql();
  s.after_sql += MinuteViewsSql();
  // Written when what they describe is over (TableSpec::written): a hero
  // death at the respawn, a pause at its end, a fight 15 s after its last
  // death, the lanes at 10:00, the draft at the horn, the combat log's
  // names as the table gets them; streaks and multi-kills as the replay
  // announces them (or, a replay without them, counted from the kills at
  // the end).
  for (size_t t : {kDraft, kHeroDeaths, kLanes, kPauses, kTeamfights, kTeamfightPlayers,
                   kCombatLogNames, kKillStreaks, kMultiKills}) {
    s.tables[t].written = TableSpec::Written::kWhenClosed;
  }
  return s;
}

}  // namespace

TableSpec EventTable(const char* name, const char* comment, std::vector<TableColumn> columns) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  t.auto_id = true;
  t.columns = {
      {"tick", "INTEGER NOT NULL", "the tick it happened at"},
      {"game_time", "REAL",
       "the game clock then, in seconds from the horn (negative before it), to the "
       "millisecond; before the replay shows the clock (hero selection), counted back from "
       "the horn's tick; NULL when the replay never tells when the horn is"}};
  for (TableColumn& c : columns) t.columns.push_back(std::move(c));
  return t;
}

TableSpec NamesTable(const char* name, const char* key, const char* comment, const char* key_doc,
                     const char* name_doc) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  t.columns = {{key, "INTEGER PRIMARY KEY", key_doc}, {"name", "TEXT NOT NULL", name_doc}};
  return t;
}

const GameSchema& DotaSchema() {
  static const GameSchema* const kSchema = new GameSchema(Build());
  return *kSchema;
}

}  // namespace gem::dota
