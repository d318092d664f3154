#include "core/dota/combat_log_table.h"

#include <charconv>

#include "core/dota/combat_log_columns.h"
#include "core/dota/tables.h"

namespace gem::dota {
namespace {

constexpr const char* kNameFields[] = {"target_name", "target_source_name", "attacker_name",
                                       "damage_source_name", "inflictor_name"};

int CombatLogSourceId(CombatLogEntry::Source source) {
  switch (source) {
    case CombatLogEntry::Source::kHltv: return 0;
    case CombatLogEntry::Source::kBulk: return 1;
    case CombatLogEntry::Source::kLegacyGameEvent: return 2;
  }
  return 2;
}

// A number as JSON: integers as they are; a float as the shortest text of
// its exact double value (so that json_extract gives the same REAL a
// column would hold).
void AppendJsonNumber(double v, std::string* out) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, r.ptr);
}
void AppendJsonNumber(int64_t v, std::string* out) { out->append(std::to_string(v)); }

}  // namespace

TableSpec CombatLogTypesTable() {
  return NamesTable("combat_log_types", "type",
                    "DOTA_COMBATLOG_TYPES: a combat-log entry's type and its name");
}

TableSpec CombatLogNamesTable() {
  return NamesTable("combat_log_names", "idx",
                    "CombatLogNames entries, each once it has a name (names never change)");
}

TableSpec CombatLogEntriesTable() {
  TableSpec t;
  t.name = "combat_log_entries";
  t.comment = "one row per combat-log entry; names as CombatLogNames indexes";
  t.auto_id = true;
  t.columns = {{"tick", "INTEGER NOT NULL"},
               {"source", "INTEGER NOT NULL"},  // 0 hltv, 1 bulk, 2 legacy_game_event
               {"type", "INTEGER NOT NULL"}};
  for (const char* name : kNameFields) t.columns.push_back({std::string(name) + "_idx", "INTEGER"});
  t.columns.push_back({"value_name", "TEXT"});
  t.columns.push_back({"assist_players", "TEXT"});
#define GEM_COLUMN(field, kind, place) \
  if (#place[0] == 'C') t.columns.push_back({#field, #kind[0] == 'R' ? "REAL" : "INTEGER"});
  GEM_COMBAT_LOG_PLAIN_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  t.columns.push_back({"extra", "TEXT"});  // JSON object: the EXTRA fields that are set
  return t;
}

std::string CombatLogViewSql() {
  std::string sql =
      "CREATE VIEW combat_log AS SELECT\n"
      "  c.id, c.tick,\n"
      "  CASE c.source WHEN 0 THEN 'hltv' WHEN 1 THEN 'bulk' ELSE 'legacy_game_event' END\n"
      "    AS source,\n"
      "  c.type, t.name AS type_name";
  for (int i = 0; i < 5; ++i) {
    const std::string f = kNameFields[i];
    sql += ",\n  n" + std::to_string(i) + ".name AS " + f + ", c." + f + "_idx";
  }
  sql += ",\n  c.value_name, c.assist_players";
#define GEM_COLUMN(field, kind, place)                                        \
  sql += #place[0] == 'C' ? std::string(",\n  c." #field)                   \
                          : std::string(",\n  json_extract(c.extra, '$." #field "') AS " #field);
  GEM_COMBAT_LOG_PLAIN_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  sql += "\nFROM combat_log_entries c\n  LEFT JOIN combat_log_types t ON t.type = c.type";
  for (int i = 0; i < 5; ++i) {
    const std::string n = "n" + std::to_string(i);
    sql += "\n  LEFT JOIN combat_log_names " + n + " ON " + n + ".idx = c." + kNameFields[i] +
           "_idx";
  }
  sql += ";\nCREATE INDEX combat_log_by_tick ON combat_log_entries(tick);\n";
  return sql;
}

std::span<const MatchValue> CombatLogRow::Build(int64_t tick, const CombatLogEntry& c) {
  const proto::CMsgDOTACombatLogEntry& e = *c.entry;
  // Every column, in order, into storage sized once.
  if (values_.empty()) values_.resize(CombatLogEntriesTable().columns.size());
  size_t n = 0;
  auto put = [&](MatchValue v) { values_[n++] = v; };
  auto name = [&](bool has, uint32_t idx) {
    put(has ? MatchValue::Int(idx) : MatchValue());
  };
  put(MatchValue::Int(tick));
  put(MatchValue::Int(CombatLogSourceId(c.source)));
  put(MatchValue::Int(e.type()));
  name(e.has_target_name(), e.target_name());
  name(e.has_target_source_name(), e.target_source_name());
  name(e.has_attacker_name(), e.attacker_name());
  name(e.has_damage_source_name(), e.damage_source_name());
  name(e.has_inflictor_name(), e.inflictor_name());
  put(c.value_name.empty() ? MatchValue() : MatchValue::Text(c.value_name));
  if (e.assist_players_size() > 0) {
    assist_ = "[";
    for (int i = 0; i < e.assist_players_size(); ++i) {
      if (i) assist_ += ',';
      assist_ += std::to_string(e.assist_players(i));
    }
    assist_ += ']';
    put(MatchValue::Text(assist_));
  } else {
    put(MatchValue());
  }
  extra_.clear();
  // Plain columns in order; the rest go to the extra JSON, the last column.
#define GEM_COLUMN(field, kind, place)                                                  \
  if (#place[0] == 'C') {                                                               \
    if (!e.has_##field()) {                                                             \
      put(MatchValue());                                                                \
    } else if (#kind[0] == 'R') {                                                       \
      put(MatchValue::Real(e.field()));                                                 \
    } else {                                                                            \
      put(MatchValue::Int(static_cast<int64_t>(e.field())));                            \
    }                                                                                   \
  } else if (e.has_##field()) {                                                         \
    extra_ += extra_.empty() ? "{\"" #field "\":" : ",\"" #field "\":";                 \
    if (#kind[0] == 'R') {                                                              \
      AppendJsonNumber(static_cast<double>(e.field()), &extra_);                        \
    } else {                                                                            \
      AppendJsonNumber(static_cast<int64_t>(e.field()), &extra_);                       \
    }                                                                                   \
  }
  GEM_COMBAT_LOG_PLAIN_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  if (extra_.empty()) {
    put(MatchValue());
  } else {
    extra_ += '}';
    put(MatchValue::Text(extra_));
  }
  return std::span<const MatchValue>(values_.data(), n);
}

void CombatLogNameRows::Write(match::MatchContext& ctx, bool at_end) {
  const StringTable* names = ctx.tables().Find("CombatLogNames");
  if (names == nullptr) return;
  auto write = [&](int64_t i) {
    const StringTableEntry* e = names->Find(i);
    if (e == nullptr || e->name.empty()) return false;
    const MatchValue row[] = {MatchValue::Int(i), MatchValue::Text(e->name)};
    ctx.Row(kCombatLogNames, row);
    return true;
  };
  // (Entries added without a name are rare: the list is almost always
  // empty.)
  size_t kept = 0;
  for (int64_t i : unnamed_) {
    if (!write(i) && !at_end) unnamed_[kept++] = i;
  }
  unnamed_.resize(kept);
  for (; next_ < names->size(); ++next_) {
    if (!write(static_cast<int64_t>(next_))) unnamed_.push_back(static_cast<int64_t>(next_));
  }
}

}  // namespace gem::dota
