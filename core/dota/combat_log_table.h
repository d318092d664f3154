// The combat log as tables: combat_log_entries (one row per entry, name
// fields as CombatLogNames indexes, the fields real entries seldom set in
// an `extra` JSON object), combat_log_names (the final CombatLogNames:
// names never change), combat_log_types (DOTA_COMBATLOG_TYPES), and the
// combat_log view that joins them, names beside their indexes.
#ifndef GEM_CORE_DOTA_COMBAT_LOG_TABLE_H_
#define GEM_CORE_DOTA_COMBAT_LOG_TABLE_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/dota/combat_log.h"
#include "core/match_rows.h"
#include "core/table_spec.h"

namespace gem::dota {

TableSpec CombatLogTypesTable();
TableSpec CombatLogNamesTable();
TableSpec CombatLogEntriesTable();
// CREATE VIEW combat_log, and the entries' index by tick.
std::string CombatLogViewSql();

// Builds an entry's row, in CombatLogEntriesTable's column order; the row
// views this builder's storage until the next Build.
class CombatLogRow {
 public:
  std::span<const MatchValue> Build(int64_t tick, const CombatLogEntry& e);

 private:
  std::vector<MatchValue> values_;
  std::string assist_, extra_;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_COMBAT_LOG_TABLE_H_
