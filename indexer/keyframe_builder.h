// KeyframeBuilder: one entity's keyframe rows (core/codec/keyframe_codec.h)
// from its creation state and its change chunks, once the parse is over
// and the chunks are back in key order.
//
// Rows go to every interval [K, K + E) (K a multiple of the interval E) in
// which the entity is alive at some tick: created <= T < deleted, T at
// most the replay's last tick. Each row's state is whole: the entity's
// values as of K, or its creation state when it was created after K. Rows
// as overlays on the creation state took 6.80 MB in blocks on the 60-minute
// synthetic replay against 7.16 MB whole, but a reader then decodes the
// creation state as well and merges the two, 5% more instructions for
// gem_state of every entity; readers still read both kinds.
//
// Thread: one builder per thread; Build holds no reference after it
// returns. Allocation is per entity (scratch reused), never per change.
#ifndef GEM_INDEXER_KEYFRAME_BUILDER_H_
#define GEM_INDEXER_KEYFRAME_BUILDER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/codec/keyframe_codec.h"
#include "core/value.h"

namespace gem::index {

struct KeyframeSettings {
  int64_t interval = 0;  // ticks between keyframes; 0: none
  // A field with at most this many changes in an interval has them in the
  // row (logged); with more, only its first change's tick (sought).
  uint32_t max_logged = 16;
};

// One chunk of the entity's changes (the changes table's row, data as
// chunk_codec.h packs it), in key order: by field, then by tick.
struct ChunkView {
  uint32_t field;
  int64_t start_tick;
  int64_t end_tick;  // its last change's tick
  uint32_t count;    // its changes
  std::string_view data;
};

struct KeyframeRow {
  int64_t tick;
  std::string data;
};

struct KeyframeTotals {
  uint64_t rows = 0;
  uint64_t bytes = 0;   // the rows' own bytes (blocks compress them)
  uint64_t blocks = 0;  // blocks written (index_keyframes.cc)
  uint64_t block_bytes = 0;
  uint64_t state_values = 0;
  uint64_t logged_changes = 0;
  uint64_t sought_fields = 0;
};

class KeyframeBuilder {
 public:
  explicit KeyframeBuilder(KeyframeSettings settings) : settings_(settings) {}

  // The rows of an entity alive over [created, end) (end: its deletion
  // tick, or the replay's last tick + 1), into *rows (replaced).
  // `creation` is its whole creation state (a state blob; empty: none).
  // False when a chunk or the state does not decode (then *rows is
  // unspecified): the caller's own data, so a bug, reported as such.
  bool Build(int64_t created, int64_t end, std::string_view creation,
             std::span<const ChunkView> chunks, std::vector<KeyframeRow>* rows);

  const KeyframeTotals& totals() const { return totals_; }

 private:
  // One interval's row being built.
  struct Pending {
    int64_t tick;
    bool born;
    KeyframeWriter writer;
  };
  // Adds field `field`'s part to every pending row, from its creation
  // value (`has_creation`) and its chunks. A row needs the value as of its
  // tick, how many changes follow in its interval, and their values only
  // when they are few: the field's changes are read in order once, as
  // before, but a chunk that holds neither a keyframe's value nor a
  // logged change is passed over unread (its range and count say what
  // it holds). A field that changes every tick fills ~28 chunks an
  // interval of 240 s; one or two of them are read.
  bool AddField(uint32_t field, bool has_creation, const Value& creation,
                std::span<const ChunkView> chunks);
  // The field's changes, in order (AddField's cursor).
  class Changes;
  KeyframeSettings settings_;
  KeyframeTotals totals_;
  std::vector<Pending> pending_;
  // How many changes the chunks before each of the field's hold (one more
  // entry: the total).
  std::vector<size_t> before_;
  // One field's changes in an interval (strings point into the chunks).
  std::vector<std::pair<int64_t, Value>> later_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_KEYFRAME_BUILDER_H_
