#include "core/dota/tables.h"

#include "core/dota/chat.h"
#include "core/dota/enum_names.h"
#include "core/dota/hero_deaths.h"
#include "core/dota/lanes.h"
#include "core/dota/pauses.h"
#include "core/dota/player_events.h"
#include "core/dota/player_views.h"
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
// real heroes told apart from illusions.
std::string CreditViewSql(const char* view, int type) {
  return std::string("CREATE VIEW ") + view +
         " AS\n"
         "SELECT p.slot, t.name AS target, coalesce(c.is_target_hero, 0) AS target_hero,\n"
         "       coalesce(c.is_target_illusion, 0) AS target_illusion,\n"
         "       sum(c.value) AS " + view + ", count(*) AS hits\n"
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
      "inventory", "change of one of a hero's item slots (m_hItems)", "item", "charges");
  s.tables[kAbilities] = match::HeldTableSpec(
      "abilities", "change of one of a hero's abilities (m_hAbilities): its level", "ability",
      "level");
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
  s.after_sql += CreditViewSql("damage", kCombatLogDamage);
  s.after_sql += CreditViewSql("healing", kCombatLogHeal);
  // Hits on heroes that are not illusions, per inflictor (OpenDota's
  // hero_hits; auto-attacks are the inflictor dota_unknown).
  s.after_sql +=
      "CREATE VIEW hero_hits AS\n"
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
  t.columns = {{"tick", "INTEGER NOT NULL"}, {"game_time", "REAL"}};
  for (TableColumn& c : columns) t.columns.push_back(std::move(c));
  return t;
}

TableSpec NamesTable(const char* name, const char* key, const char* comment) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  t.columns = {{key, "INTEGER PRIMARY KEY"}, {"name", "TEXT NOT NULL"}};
  return t;
}

const GameSchema& DotaSchema() {
  static const GameSchema* const kSchema = new GameSchema(Build());
  return *kSchema;
}

}  // namespace gem::dota
