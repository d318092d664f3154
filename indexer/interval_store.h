// IntervalStore: the field changes of a parse, written as it goes, one
// keyframe interval at a time (core/codec/keyframe_codec.h).
//
// The replay's ticks are cut into intervals (K, K + E] (K a multiple of
// the interval E; the first, slot 0, starts before the signon's tick -1).
// While an interval is open, each entity's changes gather by field. A
// field that changes at most `max_logged` times in the interval keeps its
// changes here; one that changes more has them packed into runs
// (chunk_codec.h) of at most `max_per_run` changes, each placed in the
// changes table (run_pages.h) as soon as it is full. When the interval
// closes (CloseInterval: every change up to its end tick B is in) each
// entity that lived in it gets its row: its state at K (from the parser's
// state there, given by Snapshot) or, created in the interval, none (its
// creation state is), then its fields' changes: logged, or where their
// runs are. The rows go out in ascending entity id (row_blocks.h).
//
// Speed: changes arrive entity by entity, each touching a few of the
// entity's fields. Each entity appends its changes to a small buffer, and
// a full buffer is sorted by field and packed field by field: each run is
// touched once per buffer, not once per change.
//
// Memory: per entity a buffer of at most kBufferedPerEntity changes, the
// interval's changes of its fields that change rarely, and one open run
// per field that changes often. Open runs hold at most about
// `held_budget` changes in all: past it the fullest close early (Trim),
// which costs a few more runs, not more bytes a change. An entity deleted
// in the interval has its row made at once and its changes freed. Nothing
// grows with the length of the match but the entity list.
//
// Thread: one (the pipeline's worker). Allocation is per buffer, run or
// row, never per change.
#ifndef GEM_INDEXER_INTERVAL_STORE_H_
#define GEM_INDEXER_INTERVAL_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/codec/keyframe_codec.h"
#include "core/util/status.h"
#include "indexer/held_change.h"
#include "indexer/quantizer_registry.h"
#include "indexer/row_blocks.h"
#include "indexer/run_pages.h"

namespace gem::index {

struct IntervalSettings {
  // Whether intervals close (CloseInterval gives their length, as soon as
  // the replay's tick rate is known); else one interval spans the whole
  // replay (its rows then hold no state but the creation state).
  bool keyframes = true;
  // A field with at most this many changes in an interval keeps them in
  // its entity's row; with more, they go to runs.
  uint32_t max_logged = 16;
  // A run closes at this many changes, or when its bytes would pass
  // max_run_bytes.
  uint32_t max_per_run = 256;
  size_t max_run_bytes = 940;
  // Changes open runs may hold before the fullest close early.
  uint64_t held_budget = uint64_t{1} << 20;
  // Changes an entity buffers before they are packed (at most
  // IntervalStore::kBufferedPerEntity). Each buffer is 32 bytes a change
  // for every entity that changes: 128 against 512 took the 72-minute
  // Deadlock match's peak from 102 to 89 MiB for the same CPU on the
  // 30-minute Dota replay (1.00x, 9 pairs) and 1.05x on Deadlock's.
  uint32_t buffered = 128;
};

struct IntervalStats {
  uint64_t changes = 0;
  uint64_t logged = 0;         // changes kept in rows
  uint64_t logged_fields = 0;  // (entity, interval, field) kept in rows
  uint64_t run_fields = 0;     // (entity, interval, field) with runs
  uint64_t runs = 0;
  uint64_t intervals = 0;      // closed
  uint64_t peak_held = 0;      // changes in open runs at once
  uint64_t trims = 0;          // times Trim closed runs early
};

class IntervalStore {
 public:
  static constexpr size_t kBufferedPerEntity = 512;

  // `quantizers` (may be null), `pages` and `rows` must outlive the store.
  IntervalStore(const IntervalSettings& settings, const QuantizerRegistry* quantizers,
                RunPages* pages, RowBlocks* rows);
  ~IntervalStore();
  IntervalStore(const IntervalStore&) = delete;
  IntervalStore& operator=(const IntervalStore&) = delete;

  // The parse, in order. `entity` is a lifetime id (1, 2, ...: small,
  // dense, ascending as entities are created).
  //
  // The entity was created (in the open interval).
  void Create(uint64_t entity);
  // Changes of `entity` in tick order, strings read from `arena`
  // (`has_strings`: some change is a string). Inline: called once per
  // entity update (millions of times, ~2 changes each); a string, a first
  // change or a full buffer takes AddSlow.
  void Add(uint64_t entity, std::span<const HeldChange> changes, bool has_strings,
           std::string_view arena) {
    if (!has_strings && entity < data_.size() && data_[entity] != nullptr) {
      std::vector<HeldChange>& buffer = data_[entity]->buffer;
      if (buffer.size() + changes.size() < buffered_ && buffer.capacity() != 0) {
        for (const HeldChange& c : changes) buffer.push_back(c);
        stats_.changes += changes.size();
        return;
      }
    }
    AddSlow(entity, changes, has_strings, arena);
  }
  // The entity was deleted: it has no more changes; its row is made now.
  void Delete(uint64_t entity);
  // Every change up to `boundary` is in: the open interval (K, boundary]
  // closes, its rows and runs are written, and (K', ...] with K' =
  // boundary opens. Snapshot then gives the state at K' of each entity
  // alive there. `interval` is E (> 0, the same every time): the first
  // boundary is 0, slot 0's K is -E.
  Status CloseInterval(int64_t boundary, int64_t interval);
  void Snapshot(uint64_t entity, std::string_view state);
  // The end: the open interval closes as it stands.
  Status Finish();
  // Where the runs' pages and the rows' blocks are written (store_rows.h),
  // from now on.
  void SetOutput(RowBuffer* out);

  // The first failure (a run or row not written); once set, the store
  // writes nothing more.
  const Status& status() const { return status_; }

  // The open interval: its slot and keyframe tick (slot 0's: -1 until the
  // first boundary gives E).
  int64_t slot() const { return slot_; }
  int64_t keyframe_tick() const { return k_; }
  // The state at the open interval's keyframe tick of an entity alive
  // there (empty: created in it, or unknown).
  std::string_view StateAtStart(uint64_t entity) const;
  // Entities with a row in the open interval, ascending.
  const std::vector<uint64_t>& active() const { return active_; }
  const IntervalStats& stats() const { return stats_; }
  uint64_t held() const { return held_; }

 private:
  struct Field {
    uint32_t id;
    uint32_t count = 0;  // changes in the interval
    int32_t open = -1;   // its run's writer (in runs), or -1 while logged
  };
  struct RunEntry {
    uint32_t field;
    RunRef ref;
  };
  struct EntityData {
    bool born = true;             // created in the open interval: no state
    bool needs_snapshot = false;  // alive at the open interval's start, state not given yet
    std::string state;            // its state at the open interval's keyframe tick
    // Changes not packed yet, their strings' bytes in `strings`.
    std::vector<HeldChange> buffer;
    std::string strings;
    // The fields that changed in the interval (slot: field id -> index + 1).
    std::vector<uint32_t> slot;
    std::vector<Field> fields;
    // The changes of fields still logged (and of fields that went to runs
    // since: theirs are passed over), in arrival order.
    std::vector<HeldChange> small;
    std::string small_strings;
    struct Open {
      ChunkWriter writer;
      uint32_t field;
    };
    std::vector<Open> open;       // the runs being filled
    std::vector<RunEntry> runs;   // the interval's closed runs
  };

  void AddSlow(uint64_t entity, std::span<const HeldChange> changes, bool has_strings,
               std::string_view arena);
  EntityData& DataOf(uint64_t entity);
  void Pack(EntityData* d);
  // The field's changes so far go to runs from now on.
  void ToRuns(EntityData* d, Field* f);
  void AddToRun(EntityData* d, Field* f, int64_t tick, const Value& value, uint16_t quantizer);
  void CloseRun(EntityData* d, uint32_t writer);
  // Closes the fullest open runs until about half the held changes are
  // gone.
  void Trim();
  // The entity's row for the open interval (its open runs closed first).
  void BuildRow(uint64_t entity, EntityData* d, std::string* row);
  void Fail(const Status& s) {
    if (status_.ok()) status_ = s;
  }
  Status CloseOpen(bool last);

  IntervalSettings settings_;
  size_t buffered_;       // settings_.buffered, at most kBufferedPerEntity
  int64_t interval_ = 0;  // E, once known
  const QuantizerRegistry* quantizers_;
  RunPages* pages_;
  RowBlocks* rows_;
  int64_t slot_ = 0;
  int64_t k_ = 0;
  // By entity id: its data while it lives (null before it appears and once
  // it is gone).
  std::vector<std::unique_ptr<EntityData>> data_;
  std::vector<uint64_t> active_;
  // Rows of entities deleted in the open interval, ascending entity.
  std::vector<std::pair<uint64_t, std::string>> done_;
  // Pack's scratch: each buffered change's field, where each field's
  // changes start in order_, and the buffer's indices grouped by field.
  std::vector<uint32_t> field_of_, starts_, order_;
  // BuildRow's scratch.
  KeyframeWriter writer_;
  std::string run_blob_;
  std::vector<uint32_t> by_field_;
  std::vector<uint8_t> kinds_;
  std::vector<RunRef> refs_;
  std::string row_;
  uint64_t held_ = 0;
  std::vector<uint64_t> held_by_fullness_;  // Trim's scratch
  IntervalStats stats_;
  Status status_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_INTERVAL_STORE_H_
