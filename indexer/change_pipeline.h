// ChangePipeline: feeds an IntervalStore, and runs SQLite inserts, on a
// thread of its own.
//
// Packing changes into runs and rows is the indexer's biggest cost after
// parsing itself, and SQLite's inserts come next; neither needs anything
// from the parser but the data. The parser's thread copies each change
// into a batch (a sequential append) and records each row in the batch's
// RowBuffer; full batches go to a worker thread that runs the
// IntervalStore and the rows, so parsing, packing and inserting overlap on
// two cores. Batches
// go round a ring of four: the parser fills one while the worker empties
// those queued before it; nothing is allocated once all have grown to
// size. With only two (ping-pong) the parser waited whenever the worker
// met a stretch of heavy batches: 30-minute index 0.907 -> 0.840 s
// (medians of 11), pipeline waits 0.08 -> 0.03 s.
//
// Order is kept: a batch's events (changes, creations, deletions, the
// ends of intervals and the states that start the next) are applied in
// order, batches in order, and each table's rows are inserted in the order
// they were recorded (after the batch's events). While the pipeline runs,
// only the worker uses the database connection.
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
#include "core/sink.h"
#include "core/value.h"
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
  // first row) must outlive the pipeline; so must the store, set before
  // the first batch. Only the worker touches them until Drain() returns.
  explicit ChangePipeline(std::span<Insert> row_inserts);
  void SetStore(IntervalStore* store) { store_ = store; }
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
    if (changes.empty() || changes.size() > kBatchRecords - b.size ||
        b.strings.size() >= kBatchStringBytes) {
      AddChangesAcrossBatches(entity, tick, changes, quantizers);
      return;
    }
    Copy(&b, entity, tick, changes, quantizers);
  }
  // As IntervalStore's Create, Delete, CloseInterval and Snapshot,
  // applied later on the worker.
  void CreateEntity(uint64_t entity) { Event(entity, Kind::kCreate); }
  void DeleteEntity(uint64_t entity) { Event(entity, Kind::kDelete); }
  // (`interval` is at most UINT32_MAX ticks.)
  void CloseInterval(int64_t boundary, int64_t interval) {
    Event(static_cast<uint64_t>(boundary), Kind::kBoundary, static_cast<uint32_t>(interval));
  }
  void Snapshot(uint64_t entity, std::string_view state);
  // Starts a row of statement `stmt` in the filling batch (see
  // RowBuffer::Begin); its values follow on the returned buffer.
  RowBuffer& Row(uint8_t stmt);

  // A live run (live_index.h): the worker also gives every change to its
  // tail, and commits where Commit() says. Before the first batch.
  void SetLive(LiveIndex* live) { live_ = live; }
  // A row for the live index's next commit (a LiveIndex::LiveStmt).
  RowBuffer& LiveRow(uint8_t stmt) { return filling_->live_rows.Begin(stmt); }
  // A live run's end rows of rewritten table `table` follow: the table's
  // last commit's rows go first (LiveIndex::ClearRewritten), before the
  // filling batch's rows.
  void ClearBeforeRows(const std::string& table) { filling_->clear_tables.push_back(table); }
  // Ends the filling batch with a commit of the live index as the
  // snapshot of `tick`: once the worker has applied it and every batch
  // before it. `clock`: where the game clock reads 0 and the tick rate,
  // once known (the live index gives rows without a clock theirs).
  void Commit(int64_t tick, std::optional<LiveClock> clock) {
    filling_->commit = true;
    filling_->commit_tick = tick;
    filling_->commit_clock = clock;
    Submit();
  }
  // Applies everything queued and stops the worker; the store and the
  // statements are then the caller's again. Idempotent.
  void Drain();
  // Stops the worker after the batch it is applying, dropping what is
  // queued (a failed index needs none of it). Idempotent; the destructor
  // drains instead when neither was called.
  void Abandon();
  // The worker's first failure to insert a row or keep a chunk (it
  // inserts no more after one). Cheap enough to ask once a frame.
  Status error() const;
  // Seconds the parser's thread waited for the worker (a full batch and
  // every other batch still queued), Drain included.
  double wait_seconds() const { return wait_seconds_; }
  // Batches handed to the worker so far.
  uint64_t submitted() const { return submitted_; }
  // Seconds the worker spent inserting rows. Read after Drain().
  double row_seconds() const { return row_seconds_; }
  // Seconds of CPU the worker used. Read after Drain().
  double worker_cpu_seconds() const { return worker_cpu_seconds_; }

 private:
  // A batch is a sequence of segments: `count` consecutive changes of one
  // entity (one copy each, strings in the batch's `strings`), or an event:
  // an entity created or deleted, an interval's end (`entity` holding the
  // boundary tick, `count` the interval's length), or a state at an
  // interval's start (`count` bytes, the next of the batch's `states`).
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
    size_t size = 0;      // changes used
    std::vector<Segment> segments;
    std::string strings;
    std::string states;    // the kSnapshot segments' bytes, one after another
    RowBuffer rows;
    RowBuffer live_rows;   // LiveIndex::LiveStmt rows of its commit
    std::vector<std::string> clear_tables;  // ClearBeforeRows
    bool commit = false;   // ends with a commit of the live index
    int64_t commit_tick = 0;
    std::optional<LiveClock> commit_clock;
  };

  void AddChangesAcrossBatches(uint64_t entity, int64_t tick, std::span<const FieldChange> changes,
                               std::span<const uint16_t> quantizers);
  // Appends `changes` (which fit) to `b` as one segment.
  static void Copy(Batch* b, uint64_t entity, int64_t tick, std::span<const FieldChange> changes,
                   std::span<const uint16_t> quantizers) {
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
        Segment{entity, static_cast<uint32_t>(changes.size()), Kind::kChanges, has_strings});
  }
  void Event(uint64_t entity, Kind kind, uint32_t count = 0);
  void Submit();
  // Waits for the batches queued, then ends the worker.
  void Stop();
  void Run();
  void Apply(const Batch& batch);

  IntervalStore* store_ = nullptr;
  std::span<Insert> row_inserts_;
  LiveIndex* live_ = nullptr;
  // A ring: the worker applies batches_[head_] and the queued_ - 1 after
  // it; the parser fills the one after those. More than two let the
  // worker fall behind for a while (a stretch of many rows) without
  // stopping the parser.
  static constexpr size_t kBatches = 4;
  Batch batches_[kBatches];
  Batch* filling_ = &batches_[0];
  size_t head_ = 0;    // guarded by mu_
  size_t queued_ = 0;  // guarded by mu_
  bool stop_ = false;
  bool drained_ = false;
  double wait_seconds_ = 0;
  uint64_t submitted_ = 0;
  double row_seconds_ = 0;                 // the worker's
  double worker_cpu_seconds_ = 0;          // the worker's, when it ends
  Status row_error_;                       // guarded by mu_
  std::atomic<bool> row_failed_{false};   // row_error_ is set
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::thread worker_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_CHANGE_PIPELINE_H_
