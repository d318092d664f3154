// LiveTail: a live index's open interval (gem-index --follow, a
// broadcast), readable at each commit.
//
// A closed interval's changes are in its rows (interval_store.h), written
// when it closes; the open one's are here, in the tail table
// (index_schema.h), so that a commit in the middle of an interval shows
// every change up to its tick. Each commit appends, for each entity that
// changed since the one before, a delta row (keyframe_codec.h: its
// changes since then, all logged) under the entity's next seq; the first
// commit of an interval also writes, under seq 0, the state at the
// interval's keyframe tick of each entity alive there. A reader of a tick
// in the open interval takes that state (or the creation state) and the
// entity's delta rows. When the interval closes its rows hold it all, and
// the tail is emptied in the same transaction.
//
// Cost: each change is written twice while live (here, then in its
// interval's rows or runs), once at each commit: a commit writes what
// changed since the last, never the interval again.
//
// Rows are recorded (store_rows.h) on the pipeline's packing thread and
// inserted on its writing one; the table is emptied there too
// (change_pipeline.h).
#ifndef GEM_INDEXER_LIVE_TAIL_H_
#define GEM_INDEXER_LIVE_TAIL_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/codec/keyframe_codec.h"
#include "core/util/status.h"
#include "indexer/held_change.h"
#include "indexer/interval_store.h"
#include "indexer/row_buffer.h"
#include "indexer/store_rows.h"

namespace gem::index {

class LiveTail {
 public:
  // The parse's changes, as IntervalStore::Add gets them: kept until the
  // next Write.
  void Add(uint64_t entity, std::span<const HeldChange> changes, bool has_strings,
           std::string_view arena);
  // The open interval closed: its rows hold its changes now. Forgets what
  // is kept (the caller empties the table); the next Write starts the new
  // interval with its states.
  void Clear();
  // A commit: the rows of the changes since the last Write, and, first in
  // an interval, the states at its start (`store`'s, whose open interval
  // this is), recorded in `out` (kTailRow rows).
  void Write(const IntervalStore& store, RowBuffer* out);

  uint64_t rows_written() const { return rows_written_; }

 private:
  struct Pending {
    std::vector<HeldChange> changes;
    std::string strings;
  };
  Pending& PendingOf(uint64_t entity);
  void Record(RowBuffer* out, uint64_t entity, uint32_t part, int64_t k, std::string_view row);

  std::vector<std::unique_ptr<Pending>> pending_;  // by entity
  std::vector<uint64_t> changed_;                  // entities with changes kept
  bool states_written_ = false;
  int64_t seq_ = 0;  // the last commit's (0: the states)
  KeyframeWriter writer_;
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> order_;
  std::string row_;
  uint64_t rows_written_ = 0;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_LIVE_TAIL_H_
