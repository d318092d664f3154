// The gem index: the SQLite schema gem-index writes and libgem reads.
//
// Identification: PRAGMA application_id = kApplicationId ('GEM1') and
// PRAGMA user_version = kSchemaVersion. A reader refuses other versions.
//
// Ticks: every row carries an index tick. Play ticks are the replay's
// outer ticks (never decreasing: a tick smaller than one already seen is
// raised to it); everything that arrives during the signon (before
// DEM_SyncTick) gets kSignonTick, before any tick of play. "The state at
// tick T" is the state after every packet whose tick is <= T.
#ifndef GEM_INDEXER_INDEX_SCHEMA_H_
#define GEM_INDEXER_INDEX_SCHEMA_H_

#include <cstdint>

#include "core/codec/index_format.h"
#include "core/events/tick_order.h"

namespace gem::index {

constexpr int32_t kApplicationId = kIndexApplicationId;
constexpr int32_t kSchemaVersion = kIndexSchemaVersion;
using gem::kSignonTick;

// CREATE statements of the tables every index has, run in one transaction
// on an empty database; the game's own tables (core/events/table_spec.h) and the
// match layer's follow them.
extern const char kCreateSchemaSql[];

// CREATE INDEX statements of the tables the packing worker fills during
// the parse, run with the schema: the worker keeps them up to date beside
// the parse (their rows arrive in or near index order), instead of the
// indexer building them after it, when nothing else runs.
extern const char kCreateRowIndexesSql[];

// CREATE INDEX statements, run after the bulk load.
extern const char kCreateIndexesSql[];

}  // namespace gem::index

#endif  // GEM_INDEXER_INDEX_SCHEMA_H_
