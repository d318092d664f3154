#include "indexer/change_pipeline.h"

#include "indexer/thread_cpu.h"

#include <algorithm>
#include <chrono>

namespace gem::index {
namespace {

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

ChangePipeline::ChangePipeline(std::span<Insert> row_inserts) : row_inserts_(row_inserts) {
  worker_ = std::thread([this] { Run(); });
}

ChangePipeline::~ChangePipeline() { Drain(); }

void ChangePipeline::AddChangesAcrossBatches(uint64_t entity, int64_t tick,
                                             std::span<const FieldChange> changes,
                                             std::span<const uint16_t> quantizers) {
  while (!changes.empty()) {
    if (filling_->size == kBatchRecords || filling_->strings.size() >= kBatchStringBytes) Submit();
    const size_t n = std::min(changes.size(), kBatchRecords - filling_->size);
    Copy(filling_, entity, tick, changes.first(n), quantizers);
    changes = changes.subspan(n);
  }
}

void ChangePipeline::Event(uint64_t entity, Kind kind, uint32_t count) {
  if (filling_->segments.size() >= kBatchRecords) Submit();
  filling_->segments.push_back(Segment{entity, count, kind, false});
}

void ChangePipeline::Snapshot(uint64_t entity, std::string_view state) {
  if (filling_->segments.size() >= kBatchRecords || filling_->states.size() >= kBatchStringBytes) {
    Submit();
  }
  filling_->states.append(state);
  filling_->segments.push_back(
      Segment{entity, static_cast<uint32_t>(state.size()), Kind::kSnapshot, false});
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

void ChangePipeline::Submit() {
  HeldChange::StreamFence();  // the batch's changes, before the worker reads them
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return queued_ + 1 < kBatches; });
  wait_seconds_ += Since(start);
  ++queued_;
  ++submitted_;
  filling_ = &batches_[(head_ + queued_) % kBatches];
  cv_.notify_all();
}

void ChangePipeline::Run() {
  for (;;) {
    Batch* batch;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return queued_ > 0 || stop_; });
      if (queued_ == 0) {  // stopped, nothing left
        worker_cpu_seconds_ = ThreadCpuSeconds();
        return;
      }
      batch = &batches_[head_];
    }
    Apply(*batch);
    batch->size = 0;
    batch->segments.clear();
    batch->strings.clear();
    batch->states.clear();
    batch->rows.clear();
    batch->live_rows.clear();
    batch->clear_tables.clear();
    batch->commit = false;
    std::lock_guard<std::mutex> lock(mu_);
    head_ = (head_ + 1) % kBatches;
    --queued_;
    cv_.notify_all();
  }
}

void ChangePipeline::Apply(const Batch& batch) {
  const HeldChange* next = batch.changes.get();
  size_t state_at = 0;
  Status s;
  for (const Segment& segment : batch.segments) {
    switch (segment.kind) {
      case Kind::kChanges: {
        const std::span<const HeldChange> changes(next, segment.count);
        store_->Add(segment.entity, changes, segment.has_strings, batch.strings);
        if (live_ != nullptr) {
          live_->tail().Add(segment.entity, changes, segment.has_strings, batch.strings);
        }
        next += segment.count;
        break;
      }
      case Kind::kCreate:
        store_->Create(segment.entity);
        break;
      case Kind::kDelete:
        store_->Delete(segment.entity);
        break;
      case Kind::kBoundary:
        if (s.ok()) s = store_->CloseInterval(static_cast<int64_t>(segment.entity), segment.count);
        if (s.ok() && live_ != nullptr) s = live_->tail().Clear();
        break;
      case Kind::kSnapshot:
        store_->Snapshot(segment.entity,
                         std::string_view(batch.states).substr(state_at, segment.count));
        state_at += segment.count;
        break;
    }
  }
  if (s.ok()) s = store_->status();
  if (!s.ok() && !row_failed_.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(mu_);
    row_error_ = s;
    row_failed_.store(true, std::memory_order_release);
  }
  if (row_failed_.load(std::memory_order_relaxed)) return;
  if (live_ != nullptr) {
    for (const std::string& table : batch.clear_tables) {
      if (s.ok()) s = live_->ClearRewritten(table);
    }
  }
  if (s.ok() && !batch.rows.empty()) {
    const auto start = std::chrono::steady_clock::now();
    s = batch.rows.RunAll(row_inserts_);
    row_seconds_ += Since(start);
  }
  if (s.ok() && live_ != nullptr && batch.commit) {
    s = live_->Commit(*store_, batch.live_rows, batch.commit_tick, batch.commit_clock);
  }
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    row_error_ = s;
    row_failed_.store(true, std::memory_order_release);
  }
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
  Stop();
}

void ChangePipeline::Stop() {
  drained_ = true;
  {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return queued_ == 0; });
    wait_seconds_ += Since(start);
    stop_ = true;
    cv_.notify_all();
  }
  worker_.join();
}

}  // namespace gem::index
