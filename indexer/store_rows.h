// The rows the changes' storage writes (interval_store.h): runs' pages,
// rows' blocks, a live index's tail rows and creation states
// (entity_states.h), recorded in a RowBuffer on the thread that packs them
// (StoreStmt numbers) and inserted on the one that writes
// (change_pipeline.h).
#ifndef GEM_INDEXER_STORE_ROWS_H_
#define GEM_INDEXER_STORE_ROWS_H_

#include <cstdint>

#include "core/util/status.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

enum StoreStmt : uint8_t { kPageRow, kBlockRow, kTailRow, kStateRow, kStoreStmts };

// The inserts of those rows, by StoreStmt.
inline Status PrepareStoreInserts(Db* db, Insert (&inserts)[kStoreStmts]) {
  GEM_RETURN_IF_ERROR(inserts[kPageRow].Prepare(db, "changes(id, data)", 2));
  GEM_RETURN_IF_ERROR(
      inserts[kBlockRow].Prepare(db, "keyframes(key, tick, first_entity, last_entity, data)", 5));
  GEM_RETURN_IF_ERROR(inserts[kTailRow].Prepare(db, "tail(seq, entity, part, tick, data)", 5));
  return inserts[kStateRow].Prepare(db, "entity_states(entity, tick, data, base)", 4);
}

}  // namespace gem::index

#endif  // GEM_INDEXER_STORE_ROWS_H_
