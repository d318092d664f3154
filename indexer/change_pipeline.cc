#include "indexer/change_pipeline.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "indexer/thread_cpu.h"

namespace gem::index {
namespace {

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

ChangePipeline::ChangePipeline(std::span<Insert> row_inserts) : row_inserts_(row_inserts) {
  // The packer and the writer run at a lower priority than the parse,
  // which sets the pace (change_pipeline.h). A failure to lower it (not
  // allowed here) only costs that.
  auto lower = [] { (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 5); };
  packer_ = std::thread([this, lower] {
    lower();
    PackLoop();
  });
  writer_ = std::thread([this, lower] {
    lower();
    WriteLoop();
  });
}

ChangePipeline::~ChangePipeline() { Drain(); }

void ChangePipeline::AddChangesAcrossBatches(uint64_t entity, int64_t tick,
                                             std::span<const FieldChange> changes,
                                             std::span<const uint16_t> quantizers) {
  while (!changes.empty()) {
    if (filling_->size == filling_->capacity || filling_->strings.size() >= kBatchStringBytes) {
      Submit();
    }
    const size_t n = std::min(changes.size(), filling_->capacity - filling_->size);
    Copy(filling_, entity, tick, changes.first(n), quantizers);
    changes = changes.subspan(n);
  }
}

void ChangePipeline::Event(uint64_t entity, Kind kind, uint32_t count) {
  if (filling_->segments.size() >= kBatchRecords) Submit();
  filling_->segments.push_back(Segment{entity, count, kind, false});
}

void ChangePipeline::CopyState(uint64_t entity, int64_t tick, std::span<const FieldChange> state,
                               Kind kind) {
  if (state.size() > filling_->capacity - filling_->size || filling_->segments.size() >= kBatchRecords ||
      filling_->strings.size() >= kBatchStringBytes) {
    Submit();
  }
  Batch& b = *filling_;
  if (state.size() > b.capacity - b.size) {
    // A state of more values than a batch holds (none seen): this batch,
    // empty, grows to it.
    b.changes.reset(new HeldChange[state.size()]);
    b.capacity = state.size();
  }
  Copy(&b, entity, tick, state, {}, kind);
}

void ChangePipeline::CreateEntity(uint64_t entity, int32_t class_id, int64_t tick,
                                  std::span<const FieldChange> state) {
  CopyState(entity, tick, state, Kind::kCreate);
  filling_->created.emplace_back(class_id, tick);
}

void ChangePipeline::Snapshot(uint64_t entity, std::span<const FieldChange> state) {
  CopyState(entity, 0, state, Kind::kSnapshot);
}

RowBuffer& ChangePipeline::Row(uint8_t stmt) {
  if (filling_->rows.bytes() >= kBatchRowBytes) Submit();
  return filling_->rows.Begin(stmt);
}

Status ChangePipeline::error() const {
  if (!row_failed_.load(std::memory_order_acquire)) return Status::Ok();
  std::lock_guard<std::mutex> lock(mu_);
  return row_error_;
}

void ChangePipeline::Fail(const Status& s) {
  if (s.ok() || row_failed_.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (row_failed_.load(std::memory_order_relaxed)) return;
  row_error_ = s;
  row_failed_.store(true, std::memory_order_release);
}

void ChangePipeline::Submit() {
  HeldChange::StreamFence();  // the batch's changes, before the packer reads them
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return to_pack_ + packed_ + 1 < kBatches; });
  wait_seconds_ += Since(start);
  ++to_pack_;
  ++submitted_;
  filling_ = &batches_[(write_head_ + packed_ + to_pack_) % kBatches];
  cv_.notify_all();
}

void ChangePipeline::PackLoop() {
  for (;;) {
    Batch* batch;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return to_pack_ > 0 || stop_; });
      if (to_pack_ == 0) {  // stopped, nothing left
        pack_cpu_seconds_ = ThreadCpuSeconds();
        return;
      }
      batch = &batches_[pack_head_];
    }
    if (!row_failed_.load(std::memory_order_relaxed) && !dropping_.load()) Pack(batch);
    std::lock_guard<std::mutex> lock(mu_);
    pack_head_ = (pack_head_ + 1) % kBatches;
    --to_pack_;
    ++packed_;
    cv_.notify_all();
  }
}

void ChangePipeline::WriteLoop() {
  for (;;) {
    Batch* batch;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return packed_ > 0 || (stop_ && to_pack_ == 0); });
      if (packed_ == 0) {  // stopped, nothing left
        write_cpu_seconds_ = ThreadCpuSeconds();
        return;
      }
      batch = &batches_[write_head_];
    }
    if (!row_failed_.load(std::memory_order_relaxed) && !dropping_.load()) Write(batch);
    batch->size = 0;
    batch->segments.clear();
    batch->strings.clear();
    batch->created.clear();
    batch->rows.clear();
    batch->live_rows.clear();
    batch->store_rows.clear();
    batch->clear_tables.clear();
    batch->clear_tail = false;
    batch->commit = false;
    std::lock_guard<std::mutex> lock(mu_);
    write_head_ = (write_head_ + 1) % kBatches;
    --packed_;
    cv_.notify_all();
  }
}

void ChangePipeline::Pack(Batch* batch) {
  store_->SetOutput(&batch->store_rows);
  const HeldChange* next = batch->changes.get();
  size_t created_at = 0;
  Status s;
  for (const Segment& segment : batch->segments) {
    switch (segment.kind) {
      case Kind::kChanges: {
        const std::span<const HeldChange> changes(next, segment.count);
        store_->Add(segment.entity, changes, segment.has_strings, batch->strings);
        if (live_ != nullptr) {
          live_->tail().Add(segment.entity, changes, segment.has_strings, batch->strings);
        }
        next += segment.count;
        break;
      }
      case Kind::kCreate: {
        const auto [class_id, tick] = batch->created[created_at++];
        states_.Created(segment.entity, class_id, tick,
                        std::span<const HeldChange>(next, segment.count), batch->strings,
                        &batch->store_rows);
        store_->Create(segment.entity);
        next += segment.count;
        break;
      }
      case Kind::kDelete:
        store_->Delete(segment.entity);
        break;
      case Kind::kBoundary:
        if (s.ok()) s = store_->CloseInterval(static_cast<int64_t>(segment.entity), segment.count);
        if (live_ != nullptr) {
          // The tail's rows so far are the closed interval's: gone before
          // this batch's rows are written.
          live_->tail().Clear();
          batch->clear_tail = true;
        }
        break;
      case Kind::kSnapshot:
        store_->Snapshot(segment.entity, states_.Encode(std::span<const HeldChange>(
                                             next, segment.count), batch->strings));
        next += segment.count;
        break;
    }
  }
  if (s.ok()) s = store_->status();
  if (s.ok() && live_ != nullptr && batch->commit) {
    live_->tail().Write(*store_, &batch->store_rows);
  }
  Fail(s);
}

void ChangePipeline::Write(Batch* batch) {
  Status s;
  const auto start = std::chrono::steady_clock::now();
  if (live_ != nullptr) {
    if (batch->clear_tail) s = live_->ClearTail();
    for (const std::string& table : batch->clear_tables) {
      if (s.ok()) s = live_->ClearRewritten(table);
    }
  }
  if (s.ok() && !batch->store_rows.empty()) s = batch->store_rows.RunAll(store_inserts_);
  if (s.ok() && !batch->rows.empty()) s = batch->rows.RunAll(row_inserts_);
  row_seconds_ += Since(start);
  if (s.ok() && live_ != nullptr && batch->commit) {
    s = live_->Commit(batch->live_rows, batch->commit_tick, batch->commit_clock);
  }
  Fail(s);
}

void ChangePipeline::Drain() {
  if (drained_) return;
  if (!filling_->segments.empty() || !filling_->rows.empty() ||
      !filling_->clear_tables.empty()) {
    Submit();
  }
  Stop();
}

void ChangePipeline::Abandon() {
  if (drained_) return;
  dropping_.store(true);  // the threads pass over what is queued
  Stop();
}

void ChangePipeline::Stop() {
  drained_ = true;
  {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return (to_pack_ == 0 && packed_ == 0) || row_failed_.load(); });
    wait_seconds_ += Since(start);
    stop_ = true;
    cv_.notify_all();
  }
  packer_.join();
  writer_.join();
}

}  // namespace gem::index
