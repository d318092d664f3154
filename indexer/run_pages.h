// RunPages: the changes table's rows. Each run of a field's changes
// (core/codec/chunk_codec.h) is placed, whole, in a row of at most
// kRunPageBytes (core/codec/index_format.h) holding several runs one after
// another, so that every row fills about one b-tree page: a row per run
// (each with its own key, header and the slack of a page that cannot take
// the next) cost 37 bytes a run on the 30-minute synthetic replay.
//
// Rows are written (recorded in a RowBuffer, store_rows.h) in ascending id
// as they fill, an append at the table's right edge. Runs go to the first of a few open rows with room
// for them (first fit), so that a row is left with little room unused; a
// row is sealed when almost full, when it is the oldest of too many open
// ones, or at Flush. Ids are given as rows open, and a row is inserted
// only after every row of a smaller id, so that a run's place is known
// the moment it is placed.
//
// Thread: one (the pipeline's worker).
#ifndef GEM_INDEXER_RUN_PAGES_H_
#define GEM_INDEXER_RUN_PAGES_H_

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "core/util/status.h"
#include "indexer/row_buffer.h"
#include "indexer/store_rows.h"

namespace gem::index {

struct RunPageStats {
  uint64_t runs = 0;
  uint64_t pages = 0;       // rows written
  uint64_t run_bytes = 0;   // the runs' bytes
  uint64_t page_bytes = 0;  // rows' capacity used or left: pages * kRunPageBytes (big runs: theirs)
};

class RunPages {
 public:
  // Rows open at once to place runs in.
  static constexpr size_t kOpenPages = 8;
  // Rows sealed and waiting for an older open one before that one is
  // sealed too.
  static constexpr size_t kMaxWaiting = 32;
  // A row with less room than this left is sealed.
  static constexpr size_t kSealBelow = 24;

  // Where rows go (kPageRow rows), from now on; it must outlive the calls
  // that write to it.
  void SetOutput(RowBuffer* out) { out_ = out; }

  // Places `run` in a row: *page is its id, *offset where the run starts
  // in its data. Writes the rows that become ready.
  void Place(std::string_view run, int64_t* page, uint32_t* offset);
  // Seals every open row and writes them all: every run placed so far is
  // then written.
  void Flush();

  const RunPageStats& stats() const { return stats_; }

 private:
  struct Page {
    int64_t id;
    std::string data;
    bool sealed = false;
  };
  // Writes the sealed rows at the front.
  void WriteReady();
  // Seals the oldest open row (there is one).
  void SealOldest();

  RowBuffer* out_ = nullptr;
  std::deque<Page> pages_;  // ascending ids, none inserted yet
  size_t open_ = 0;         // of pages_, not sealed
  int64_t next_id_ = 1;
  RunPageStats stats_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_RUN_PAGES_H_
