// The combat log as tables: combat_log_entries (one row per entry, name
// fields as CombatLogNames indexes, the fields real entries seldom set in
// an `extra` JSON object), combat_log_names (CombatLogNames, each entry
// written once it has a name: names never change), combat_log_types (DOTA_COMBATLOG_TYPES), and the
// combat_log view that joins them, names beside their indexes.
#ifndef GEM_CORE_DOTA_COMBAT_LOG_TABLE_H_
#define GEM_CORE_DOTA_COMBAT_LOG_TABLE_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/dota/combat_log.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"
#include "core/events/table_spec.h"

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

// combat_log_names' rows: each CombatLogNames entry as soon as the table
// has it with a name (after every frame), so that a live index names what
// its entries use. An entry added without a name is looked at again after
// every frame until it has one. Cheap per frame: a lookup and a size
// compared. The table is taken as one that only grows (names never
// change): a table cleared and made again (svc_ClearAllStringTables)
// keeps the names written before.
class CombatLogNameRows {
 public:
  void OnFrameEnd(match::MatchContext& ctx) { Write(ctx, false); }
  void Finish(match::MatchContext& ctx) { Write(ctx, true); }

 private:
  void Write(match::MatchContext& ctx, bool at_end);

  size_t next_ = 0;                   // entries before it are written or unnamed_
  std::vector<int64_t> unnamed_;      // added without a name
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_COMBAT_LOG_TABLE_H_
