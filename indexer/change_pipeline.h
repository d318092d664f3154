// ChangePipeline: feeds an IntervalStore, and runs SQLite inserts, on
// threads of their own.
//
// Packing changes into runs and rows is the indexer's biggest cost after
// parsing itself, and SQLite's inserts come next; neither needs anything
// from the parser but the data. The parser's thread copies each change
// into a batch (a sequential append) and records each row in the batch's
// RowBuffer. Full batches go to a packing thread, which runs the
// IntervalStore (its pages and blocks recorded in the batch: store_rows.h),
// then to a writing thread, which inserts the batch's rows and commits: on
// two cores, the parse, packing and writing overlap, the second core's
// time shared by the two that keep up with the parse, and the time the
// parse leaves its core (waiting for a batch or for the file) taken by
// them too. They run at a lower priority than the parse, which sets the
// pace: a run on one core would otherwise take turns with them. Batches go
// round a ring: the parser fills one while the others are packed and
// written; nothing is allocated once all have grown to size.
//
// Order is kept: a batch's events (changes, creations, deletions, the
// ends of intervals and the states that start the next) are applied in
// order, batches in order, and each table's rows are inserted in the order
// they were recorded. While the pipeline runs, only the writing thread
// uses the database connection.
#ifndef GEM_INDEXER_CHANGE_PIPELINE_H_
#define GEM_INDEXER_CHANGE_PIPELINE_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/events/sink.h"
#include "core/fields/value.h"
#include "indexer/entity_states.h"
#include "indexer/held_change.h"
#include "indexer/interval_store.h"
#include "indexer/live_index.h"
#include "indexer/quantizer_registry.h"
#include "indexer/row_buffer.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

class ChangePipeline {
 public:
  static constexpr size_t kBatchRecords = 1 << 15;  // changes a batch holds
  static constexpr size_t kBatchRowBytes = 1 << 20;
  // A batch's string bytes: past this the next changes start a new batch,
  // so that string offsets (32 bits) stay within a batch's arena.
  static constexpr size_t kBatchStringBytes = 16u << 20;

  // `row_inserts` (the inserts rows name by index, prepared before the
  // first row) must outlive the pipeline; so must the store and its rows'
  // inserts (store_rows.h), set before the first batch. Only the threads
  // touch them until Drain() returns.
  explicit ChangePipeline(std::span<Insert> row_inserts);
  void SetStore(IntervalStore* store, std::span<Insert> store_inserts) {
    store_ = store;
    store_inserts_ = store_inserts;
  }
  ~ChangePipeline();
  ChangePipeline(const ChangePipeline&) = delete;
  ChangePipeline& operator=(const ChangePipeline&) = delete;

  // Records one entity's changes at one tick, applied later on the worker
  // (as IntervalStore::Add). `quantizers[field]`, where the field has one,
  // says how its floats were quantized (a QuantizerRegistry id).
  // Inline: called once per entity update (millions of times, ~2 changes
  // each); a batch boundary takes the slow path.
  void AddChanges(uint64_t entity, int64_t tick, std::span<const FieldChange> changes,
                  std::span<const uint16_t> quantizers) {
    Batch& b = *filling_;
    if (changes.empty() || changes.size() > b.capacity - b.size ||
        b.strings.size() >= kBatchStringBytes) {
      AddChangesAcrossBatches(entity, tick, changes, quantizers);
      return;
    }
    Copy(&b, entity, tick, changes, quantizers);
  }
  // An entity created at `tick` with `state`: its entity_states row
  // (entity_states.h) and IntervalStore::Create, on the packing thread.
  void CreateEntity(uint64_t entity, int32_t class_id, int64_t tick,
                    std::span<const FieldChange> state);
  // As IntervalStore's Delete, CloseInterval and Snapshot (of `state`,
  // encoded on the packing thread), applied later there.
  void DeleteEntity(uint64_t entity) { Event(entity, Kind::kDelete); }
  // (`interval` is at most UINT32_MAX ticks.)
  void CloseInterval(int64_t boundary, int64_t interval) {
    Event(static_cast<uint64_t>(boundary), Kind::kBoundary, static_cast<uint32_t>(interval));
  }
  void Snapshot(uint64_t entity, std::span<const FieldChange> state);
  // Starts a row of statement `stmt` in the filling batch (see
  // RowBuffer::Begin); its values follow on the returned buffer.
  RowBuffer& Row(uint8_t stmt);

  // A live run (live_index.h): the threads also keep its tail, and commit
  // where Commit() says. Before the first batch.
  void SetLive(LiveIndex* live) { live_ = live; }
  // A row for the live index's next commit (a LiveIndex::LiveStmt).
  RowBuffer& LiveRow(uint8_t stmt) { return filling_->live_rows.Begin(stmt); }
  // A live run's end rows of rewritten table `table` follow: the table's
  // last commit's rows go first (LiveIndex::ClearRewritten), before the
  // filling batch's rows.
  void ClearBeforeRows(const std::string& table) { filling_->clear_tables.push_back(table); }
  // Ends the filling batch with a commit of the live index as the
  // snapshot of `tick`: once it and every batch before it are written. `clock`: where the game clock reads 0 and the tick rate,
  // once known (the live index gives rows without a clock theirs).
  void Commit(int64_t tick, std::optional<LiveClock> clock) {
    filling_->commit = true;
    filling_->commit_tick = tick;
    filling_->commit_clock = clock;
    Submit();
  }
  // Applies everything queued and stops the threads; the store and the
  // statements are then the caller's again. Idempotent.
  void Drain();
  // Stops the threads after the batches they are on, dropping what is
  // queued (a failed index needs none of it). Idempotent; the destructor
  // drains instead when neither was called.
  void Abandon();
  // The threads' first failure to write a row (they write no more after
  // one). Cheap enough to ask once a frame.
  Status error() const;
  // Seconds the parser's thread waited for the others (a full ring),
  // Drain included.
  double wait_seconds() const { return wait_seconds_; }
  // Batches handed over so far.
  uint64_t submitted() const { return submitted_; }
  // Seconds the writing thread spent inserting rows. Read after Drain().
  double row_seconds() const { return row_seconds_; }
  // Seconds of CPU the packing and the writing thread used. Read after
  // Drain().
  double pack_cpu_seconds() const { return pack_cpu_seconds_; }
  double write_cpu_seconds() const { return write_cpu_seconds_; }

 private:
  // A batch is a sequence of segments: `count` consecutive changes of one
  // entity (one copy each, strings in the batch's `strings`), or an event:
  // an entity created (its `count` values follow as changes; its class
  // and tick are the next of the batch's `created`) or deleted, an
  // interval's end (`entity` holding the boundary tick, `count` the
  // interval's length), or an entity's state at an interval's start (its
  // `count` values follow as changes).
  enum class Kind : uint8_t { kChanges, kCreate, kDelete, kBoundary, kSnapshot };
  struct Segment {
    uint64_t entity;
    uint32_t count;
    Kind kind;
    bool has_strings;     // some change of the segment is a string
  };
  static_assert(sizeof(Segment) == 16, "a segment is recorded per entity update");
  struct Batch {
    std::unique_ptr<HeldChange[]> changes{new HeldChange[kBatchRecords]};
    size_t capacity = kBatchRecords;  // of `changes` (more for a huge state)
    size_t size = 0;      // changes used
    std::vector<Segment> segments;
    std::string strings;
    std::vector<std::pair<int32_t, int64_t>> created;  // kCreate segments' class, tick
    RowBuffer rows;
    RowBuffer live_rows;   // LiveIndex::LiveStmt rows of its commit
    std::vector<std::string> clear_tables;  // ClearBeforeRows
    // What packing it wrote (store_rows.h), and whether the tail table is
    // emptied first (an interval closed).
    RowBuffer store_rows;
    bool clear_tail = false;
    bool commit = false;   // ends with a commit of the live index
    int64_t commit_tick = 0;
    std::optional<LiveClock> commit_clock;
  };

  void AddChangesAcrossBatches(uint64_t entity, int64_t tick, std::span<const FieldChange> changes,
                               std::span<const uint16_t> quantizers);
  // Appends `changes` (which fit) to `b` as one segment.
  static void Copy(Batch* b, uint64_t entity, int64_t tick, std::span<const FieldChange> changes,
                   std::span<const uint16_t> quantizers, Kind kind = Kind::kChanges) {
    HeldChange* out = b->changes.get() + b->size;
    bool has_strings = false;
    for (const FieldChange& c : changes) {
      const uint16_t q =
          c.field_id < quantizers.size() ? quantizers[c.field_id] : QuantizerRegistry::kNone;
      HeldChange::StreamTo(out, c.field_id, tick, c.value, q, &b->strings);
      has_strings |= c.value.kind == ValueKind::kString;
      ++out;
    }
    b->size += changes.size();
    b->segments.push_back(
        Segment{entity, static_cast<uint32_t>(changes.size()), kind, has_strings});
  }
  // A state's values in the filling batch, whole (a batch is started, or
  // grown, to hold them).
  void CopyState(uint64_t entity, int64_t tick, std::span<const FieldChange> state, Kind kind);
  void Event(uint64_t entity, Kind kind, uint32_t count = 0);
  void Submit();
  // Waits for the batches queued, then ends the threads.
  void Stop();
  void PackLoop();
  void WriteLoop();
  void Pack(Batch* batch);
  void Write(Batch* batch);
  void Fail(const Status& s);

  IntervalStore* store_ = nullptr;
  EntityStates states_;  // the packer's
  std::span<Insert> row_inserts_, store_inserts_;
  LiveIndex* live_ = nullptr;
  // A ring: the writer writes batches_[write_head_] and the packed_ - 1
  // after it; the packer packs batches_[pack_head_] and the to_pack_ - 1
  // after it; the parser fills the one after those. Several let the
  // others fall behind for a while (a stretch of many rows, an interval's
  // end) without stopping the parser.
  static constexpr size_t kBatches = 6;
  Batch batches_[kBatches];
  Batch* filling_ = &batches_[0];
  size_t pack_head_ = 0, write_head_ = 0;  // guarded by mu_
  size_t to_pack_ = 0, packed_ = 0;        // guarded by mu_
  bool stop_ = false;
  bool drained_ = false;
  double wait_seconds_ = 0;
  uint64_t submitted_ = 0;
  double row_seconds_ = 0;        // the writer's
  double pack_cpu_seconds_ = 0;   // the packer's, when it ends
  double write_cpu_seconds_ = 0;  // the writer's, when it ends
  Status row_error_;                      // guarded by mu_
  std::atomic<bool> row_failed_{false};   // row_error_ is set
  std::atomic<bool> dropping_{false};     // Abandon: what is queued is not applied
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::thread packer_, writer_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_CHANGE_PIPELINE_H_
