#include "core/cs2/tables.h"

#include <string>
#include <utility>
#include <vector>

#include "core/cs2/stats_views.h"

namespace gem::cs2 {
namespace {

std::vector<TableColumn> Columns(std::vector<std::pair<const char*, const char*>> cols) {
  std::vector<TableColumn> out;
  for (const auto& [name, type] : cols) out.push_back({name, type});
  return out;
}

TableSpec Spec(const char* name, const char* comment, bool auto_id,
               std::vector<std::pair<const char*, const char*>> cols,
               const char* constraints = "", bool without_rowid = false) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  t.auto_id = auto_id;
  t.columns = Columns(std::move(cols));
  t.constraints = constraints;
  t.without_rowid = without_rowid;
  return t;
}

// The start of every event table's columns.
std::vector<std::pair<const char*, const char*>> Event(
    std::vector<std::pair<const char*, const char*>> cols) {
  std::vector<std::pair<const char*, const char*>> out = {
      {"tick", "INTEGER NOT NULL"}, {"game_time", "REAL"}, {"round", "INTEGER"}};
  out.insert(out.end(), cols.begin(), cols.end());
  return out;
}

GameSchema Build() {
  GameSchema s;
  s.tables.resize(kTableCount);
  s.tables[kRounds] = Spec(
      "rounds", "round (warm-up excluded): its ticks, winner, reason, score after it, bomb",
      false,
      {{"round", "INTEGER PRIMARY KEY"},
       {"tick", "INTEGER NOT NULL"},  // the start; the replay's first if it joins mid-round
       {"start_tick", "INTEGER"},
       {"freeze_end_tick", "INTEGER"},
       {"end_tick", "INTEGER"},
       {"official_end_tick", "INTEGER"},
       {"winner", "INTEGER"},  // team: 2 T, 3 CT
       {"reason", "TEXT"},
       {"ct_score", "INTEGER"},
       {"t_score", "INTEGER"},
       {"bomb_plant_tick", "INTEGER"},
       {"bomb_site", "TEXT"}});  // A or B
  s.tables[kDamages] = Spec("damages", "hit on a player (player_hurt)", true,
                            Event({{"attacker", "INTEGER"},
                                   {"victim", "INTEGER"},
                                   {"attacker_team", "INTEGER"},
                                   {"victim_team", "INTEGER"},
                                   {"weapon", "TEXT"},
                                   {"hitgroup", "TEXT"},
                                   {"damage", "INTEGER"},
                                   {"damage_armor", "INTEGER"},
                                   {"damage_real", "INTEGER"},
                                   {"health_after", "INTEGER"},
                                   {"armor_after", "INTEGER"},
                                   {"attacker_x", "REAL"},
                                   {"attacker_y", "REAL"},
                                   {"attacker_z", "REAL"},
                                   {"victim_x", "REAL"},
                                   {"victim_y", "REAL"},
                                   {"victim_z", "REAL"}}));
  s.tables[kShots] = Spec("shots", "shot fired (weapon_fire)", true,
                          Event({{"slot", "INTEGER"},
                                 {"weapon", "TEXT"},
                                 {"silenced", "INTEGER"},
                                 {"x", "REAL"},
                                 {"y", "REAL"},
                                 {"z", "REAL"},
                                 {"pitch", "REAL"},
                                 {"yaw", "REAL"}}));
  s.tables[kGrenades] = Spec(
      "grenades", "grenade thrown: a projectile entity, where it went off and when it ended",
      false,
      {{"id", "INTEGER PRIMARY KEY"},
       {"entity", "INTEGER"},  // the projectile's entities.entity
       {"tick", "INTEGER NOT NULL"},
       {"game_time", "REAL"},
       {"round", "INTEGER"},
       {"kind", "TEXT NOT NULL"},
       {"thrower", "INTEGER"},
       {"throw_tick", "INTEGER NOT NULL"},
       {"detonate_tick", "INTEGER"},
       {"end_tick", "INTEGER"},
       {"x", "REAL"},
       {"y", "REAL"},
       {"z", "REAL"}});
  s.tables[kGrenadePaths] =
      Spec("grenade_paths", "a grenade projectile's position at each tick it moved", false,
           {{"id", "INTEGER NOT NULL"},
            {"tick", "INTEGER NOT NULL"},
            {"x", "REAL"},
            {"y", "REAL"},
            {"z", "REAL"}},
           "PRIMARY KEY(id, tick)", true);
  s.tables[kFlashes] = Spec("flashes", "player blinded by a flashbang", true,
                            Event({{"thrower", "INTEGER"},
                                   {"victim", "INTEGER"},
                                   {"thrower_team", "INTEGER"},
                                   {"victim_team", "INTEGER"},
                                   {"duration", "REAL"},
                                   {"grenade", "INTEGER"}}));  // grenades.id
  s.tables[kBomb] = Spec("bomb", "bomb event: pickup, drop, plant, defuse, explosion", true,
                         Event({{"kind", "TEXT NOT NULL"},
                                {"slot", "INTEGER"},
                                {"site", "TEXT"},
                                {"x", "REAL"},
                                {"y", "REAL"},
                                {"z", "REAL"}}));
  s.tables[kEconomy] = Spec(
      "economy", "player per round: money and equipment at the freeze's end, spent, kill reward",
      false,
      {{"round", "INTEGER NOT NULL"},
       {"slot", "INTEGER NOT NULL"},
       {"team", "INTEGER"},           // the side the player is on then
       {"tick", "INTEGER NOT NULL"},  // the freeze's end
       {"start_money", "INTEGER"},
       {"equipment_value", "INTEGER"},
       {"spent", "INTEGER"},
       {"kill_reward", "INTEGER"}},
      "PRIMARY KEY(round, slot)", true);
  s.kill_columns = Columns({{"round", "INTEGER"},
                            {"killer_team", "INTEGER"},
                            {"victim_team", "INTEGER"},
                            {"penetrated", "INTEGER"},
                            {"thrusmoke", "INTEGER"},
                            {"noscope", "INTEGER"},
                            {"attackerblind", "INTEGER"},
                            {"assistedflash", "INTEGER"},
                            {"distance", "REAL"},
                            {"hitgroup", "TEXT"},
                            {"attacker_x", "REAL"},
                            {"attacker_y", "REAL"},
                            {"attacker_z", "REAL"}});
  s.after_sql = StatsViewsSql();
  // Written at the end (TableSpec::written; a live index's commits rewrite
  // them as they stand): rounds (a restart voids the rounds it undoes; a
  // plant's site is named by the bomb's rows), grenades (a grenade's row
  // says how it ended) and the bomb's rows (their site, from a plant later).
  s.tables[kRounds].written = TableSpec::Written::kAtEnd;
  s.tables[kGrenades].written = TableSpec::Written::kAtEnd;
  s.tables[kBomb].written = TableSpec::Written::kAtEnd;
  // A round's economy rows once it is over (what was spent).
  s.tables[kEconomy].written = TableSpec::Written::kWhenClosed;
  return s;
}

}  // namespace

const GameSchema& Cs2Schema() {
  static const GameSchema* const kSchema = new GameSchema(Build());
  return *kSchema;
}

}  // namespace gem::cs2
