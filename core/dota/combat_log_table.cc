#include "core/dota/combat_log_table.h"

#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "core/dota/combat_log_columns.h"
#include "core/dota/tables.h"

namespace gem::dota {
namespace {

constexpr const char* kNameFields[] = {"target_name", "target_source_name", "attacker_name",
                                       "damage_source_name", "inflictor_name"};

// What each name field names (kNameFields' order): the docs of its index
// column and of the combat_log view's name column.
constexpr const char* kNameDocs[] = {
    "the target, the unit it happened to (npc_dota_hero_axe)",
    "the unit behind the target as the server names it: the owner of an illusion or a summon, "
    "else the target itself",
    "the attacker, the unit that acted: the one attacking, casting, using an item, killing",
    "the damage source, the unit the entry credits: the owner of an illusion or a summon, else "
    "the attacker (OpenDota credits damage, healing and kills to it, as the damage, healing and "
    "credited_deaths views do)",
    "the inflictor: the ability, item or modifier it came from (dota_unknown for an attack)"};

constexpr const char kTableComment[] =
    "one row per combat-log entry (CMsgDOTACombatLogEntry), in the order they arrive, written "
    "by every parse (with or without the match layer): from DOTA_UM_CombatLogDataHLTV (one "
    "entry a message, current replays), DOTA_UM_CombatLogBulkData (a list) or the legacy "
    "dota_combatlog game event (older replays, whose keys fill the same fields). Name fields "
    "are CombatLogNames indexes (combat_log_names names them), the fields real entries seldom "
    "set are keys of `extra`; each field column is the entry field of its name as the replay "
    "carries it (unsigned fields unsigned, floats as their exact value), NULL when the entry "
    "does not set it. The combat_log view shows it with its names";
constexpr const char kViewComment[] =
    "the combat log as one reads it: each combat_log_entries row with its type named "
    "(combat_log_types), each name index beside the name combat_log_names gives it, and each "
    "field kept in extra as a column of its own; a field the entry does not set is NULL";
constexpr const char kIdDoc[] = "the combat_log_entries row: entries numbered in arrival order";
constexpr const char kTickDoc[] = "the tick of the message that carried the entry";
constexpr const char kSourceDoc[] =
    "where the entry came from: 0 DOTA_UM_CombatLogDataHLTV, 1 DOTA_UM_CombatLogBulkData, 2 "
    "the legacy dota_combatlog game event";
constexpr const char kSourceNameDoc[] =
    "where the entry came from: hltv (DOTA_UM_CombatLogDataHLTV), bulk "
    "(DOTA_UM_CombatLogBulkData) or legacy_game_event (the dota_combatlog game event)";
constexpr const char kTypeDoc[] =
    "the entry type, DOTA_COMBATLOG_TYPES (combat_log_types names it): 0 damage, 1 heal, 2 and 3 "
    "modifier added and removed, 4 death, 5 ability, 6 item, 8 gold, 9 game state, 10 XP, 11 "
    "purchase, 12 buyback, 15 multi-kill, 16 kill streak, ...";
constexpr const char kTypeNameDoc[] =
    "the type by name (DOTA_COMBATLOG_DAMAGE), from combat_log_types; NULL for a number the "
    "enumeration gem was built with lacks";
constexpr const char kValueNameDoc[] =
    "for a PURCHASE entry, the item bought: its value resolved through CombatLogNames as the "
    "table stood when the entry arrived (item_blink); NULL for other types and for an index the "
    "table lacked (counted in meta combat_log_unresolved_names)";
constexpr const char kAssistDoc[] =
    "the players who assisted (a death), a JSON array of player ids ([3,7], the numbering of "
    "players.slot) in the order the entry lists them; NULL when it lists none";
constexpr const char kExtraDoc[] =
    "a JSON object of the fields real entries seldom set, each one this entry sets by its field "
    "name (aura_modifier, modifier_elapsed_duration, will_reincarnate, ...): booleans 1 or 0, "
    "floats as their exact value; NULL when it sets none. The combat_log view gives each its "
    "own column";

// A field column's doc: what it holds, then its rule (kind BOOL, INT or
// REAL).
std::string FieldDoc(const char* field, const char* kind, const char* doc) {
  std::string d = doc;
  d += kind[0] == 'B' ? "; 0 when the entry says not, NULL when it does not set the field"
                      : "; NULL when the entry does not set the field";
  return d + " (CMsgDOTACombatLogEntry `" + field + "`)";
}

// "name" and "the index ..." docs of a name field.
std::string NameIndexDoc(int i) {
  return std::string(kNameDocs[i]) +
         ", as a CombatLogNames index (combat_log_names.idx); NULL when the entry names none";
}
std::string NameDoc(int i) {
  return std::string(kNameDocs[i]) +
         ", by its CombatLogNames name; NULL when the entry names none or combat_log_names has "
         "no name for the index";
}

// The view's `value` is signed: the entry's uint32 read as the int32 it
// is, as clarity and OpenDota read it (a gold loss is negative); the raw
// number stays in value_bits (and combat_log_entries.value).
#define GEM_SIGNED_VALUE_SQL_ \
  "CASE WHEN c.value >= 2147483648 THEN c.value - 4294967296 ELSE c.value END"
constexpr char kSignedValueDoc[] =
    "the amount, signed: the replay carries an unsigned 32-bit number, read here as the "
    "signed one it is, as clarity and OpenDota read it (a death's gold loss is -242, not "
    "4294967054); by type: damage dealt (DAMAGE), health restored (HEAL), gold (GOLD), XP (XP), "
    "the item as a CombatLogNames index (PURCHASE), the player id (BUYBACK), the kills "
    "(MULTIKILL), the streak (KILLSTREAK), the game state (GAME_STATE)";
constexpr char kValueBitsDoc[] =
    "value as the replay carries it, an unsigned 32-bit number (combat_log_entries.value)";

// The combat_log view's columns, in order, with their docs.
std::vector<TableColumn> ViewColumns() {
  std::vector<TableColumn> c = {{"id", "", kIdDoc},
                                {"tick", "", kTickDoc},
                                {"source", "", kSourceNameDoc},
                                {"type", "", kTypeDoc},
                                {"type_name", "", kTypeNameDoc}};
  for (int i = 0; i < 5; ++i) {
    const std::string f = kNameFields[i];
    c.push_back({f, "", NameDoc(i)});
    c.push_back({f + "_idx", "", NameIndexDoc(i)});
  }
  c.push_back({"value_name", "", kValueNameDoc});
  c.push_back({"assist_players", "", kAssistDoc});
#define GEM_COLUMN(field, kind, place, doc) c.push_back({#field, "", FieldDoc(#field, #kind, doc)});
  GEM_COMBAT_LOG_DOCUMENTED_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  for (TableColumn& column : c) {
    if (column.name == "value") column.doc = kSignedValueDoc;
  }
  c.push_back({"value_bits", "", kValueBitsDoc});
  return c;
}

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
  return NamesTable(
      "combat_log_types", "type",
      "DOTA_COMBATLOG_TYPES: each combat-log entry type and its name, every one the enumeration "
      "gem was built with has (-1 DOTA_COMBATLOG_INVALID included), written at the start of "
      "every parse whatever the replay holds",
      "the type number, as combat_log_entries.type holds it",
      "its DOTA_COMBATLOG_TYPES name (DOTA_COMBATLOG_DAMAGE)");
}

TableSpec CombatLogNamesTable() {
  return NamesTable(
      "combat_log_names", "idx",
      "the CombatLogNames string table, which the combat log names units, abilities, items and "
      "modifiers by: each entry once it has a name, written after the frame that gives it one "
      "(names never change: a table cleared and made again keeps the names written before; an "
      "entry that never gets a name is not a row)",
      "the entry's index in CombatLogNames, as the combat log's name fields hold it "
      "(combat_log_entries.*_name_idx)",
      "its name, the entry's key (npc_dota_hero_axe, item_blink, modifier_stunned)");
}

TableSpec CombatLogEntriesTable() {
  TableSpec t;
  t.name = "combat_log_entries";
  t.comment = kTableComment;
  t.auto_id = true;
  t.columns = {{"tick", "INTEGER NOT NULL", kTickDoc},
               {"source", "INTEGER NOT NULL", kSourceDoc},
               {"type", "INTEGER NOT NULL", kTypeDoc}};
  for (int i = 0; i < 5; ++i) {
    t.columns.push_back({std::string(kNameFields[i]) + "_idx", "INTEGER", NameIndexDoc(i)});
  }
  t.columns.push_back({"value_name", "TEXT", kValueNameDoc});
  t.columns.push_back({"assist_players", "TEXT", kAssistDoc});
#define GEM_COLUMN(field, kind, place, doc)                                                   \
  if (#place[0] == 'C') {                                                                     \
    t.columns.push_back(                                                                      \
        {#field, #kind[0] == 'R' ? "REAL" : "INTEGER", FieldDoc(#field, #kind, doc)});        \
  }
  GEM_COMBAT_LOG_DOCUMENTED_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  t.columns.push_back({"extra", "TEXT", kExtraDoc});
  return t;
}

std::string CombatLogViewSql() {
  // The column list first, each name with its doc (the comma before the
  // comment, which runs to the end of the line).
  std::string sql = "CREATE VIEW combat_log(  -- ";
  sql += kViewComment;
  const std::vector<TableColumn> columns = ViewColumns();
  for (size_t i = 0; i < columns.size(); ++i) {
    sql += "\n  " + columns[i].name + (i + 1 < columns.size() ? ",  -- " : "  -- ") +
           columns[i].doc;
  }
  sql +=
      "\n) AS SELECT\n"
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
  sql += std::string_view(#field) == "value" ? std::string(",\n  " GEM_SIGNED_VALUE_SQL_ " AS value") \
         : #place[0] == 'C' ? std::string(",\n  c." #field)                                   \
                            : std::string(",\n  json_extract(c.extra, '$." #field "') AS " #field);
  GEM_COMBAT_LOG_PLAIN_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  sql += ",\n  c.value AS value_bits";
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
