// The tables Dota's module writes (core/events/table_spec.h), by position in its
// schema: what the game's own messages carry (the combat log, chat events,
// the file info's players), written by every parse, and the analyst tables
// of the match layer (purchases, inventory, abilities, objectives, runes,
// buybacks, draft, teamfights), written when the match layer runs.
//
// Every analyst table numbers players by the match layer's slot (the
// player resource slot) and carries `tick` (the index tick of the event)
// and `game_time` (the game clock then; rows before the clock is known get
// it counted back from the start, as the timeline's do).
#ifndef GEM_CORE_DOTA_TABLES_H_
#define GEM_CORE_DOTA_TABLES_H_

#include <cstdint>
#include <vector>

#include "core/events/table_spec.h"

namespace gem::dota {

enum Table : uint32_t {
  kCombatLogTypes,
  kCombatLogNames,
  kCombatLogEntries,
  kChatEvents,
  kFileInfoPlayers,
  kPurchases,
  kInventory,
  kAbilities,
  kObjectives,
  kRunes,
  kBuybacks,
  kDraft,
  kTeamfights,
  kTeamfightPlayers,
  kGoldReasonNames,
  kXpReasonNames,
  kUnitOrderNames,
  kActions,
  kLanes,
  kAbilityUses,
  kItemUses,
  kMultiKills,
  kKillStreaks,
  kPauses,
  kHeroDeaths,
  kTableCount
};

// Every table, in Table order, and the indexes and views over them.
const GameSchema& DotaSchema();

// A table of things that happened: `id` in arrival order, then tick and
// game_time, then `columns`.
TableSpec EventTable(const char* name, const char* comment, std::vector<TableColumn> columns);
// A table of names by number: `key` (the primary key), then `name`, with
// their docs (TableColumn::doc); the defaults say what every such table's
// columns are.
TableSpec NamesTable(const char* name, const char* key, const char* comment,
                     const char* key_doc = "the number, as the rows that name it hold it",
                     const char* name_doc = "the name the number stands for");

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_TABLES_H_
