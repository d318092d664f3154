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

ChangePipeline::ChangePipeline(ChangeStore* store, std::span<Insert> row_inserts)
    : store_(store), row_inserts_(row_inserts) {
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

void ChangePipeline::CloseEntity(uint64_t entity) {
  if (filling_->segments.size() >= kBatchRecords) Submit();
  filling_->segments.push_back(Segment{entity, 0, true, false});
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
    batch->rows.clear();
    batch->live_rows.clear();
    batch->commit = false;
    std::lock_guard<std::mutex> lock(mu_);
    head_ = (head_ + 1) % kBatches;
    --queued_;
    cv_.notify_all();
  }
}

void ChangePipeline::Apply(const Batch& batch) {
  const HeldChange* next = batch.changes.get();
  for (const Segment& segment : batch.segments) {
    if (segment.close) {
      store_->CloseEntity(segment.entity);
      if (live_ != nullptr) live_->CloseEntity(segment.entity);
    } else {
      const std::span<const HeldChange> changes(next, segment.count);
      store_->Add(segment.entity, changes, segment.has_strings, batch.strings);
      if (live_ != nullptr) live_->Add(segment.entity, changes, batch.strings);
      next += segment.count;
    }
  }
  if (!store_->status().ok() && !row_failed_.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(mu_);
    row_error_ = store_->status();
    row_failed_.store(true, std::memory_order_release);
  }
  if (row_failed_.load(std::memory_order_relaxed)) return;
  Status s;
  if (!batch.rows.empty()) {
    const auto start = std::chrono::steady_clock::now();
    s = batch.rows.RunAll(row_inserts_);
    row_seconds_ += Since(start);
  }
  if (live_ != nullptr) {
    if (s.ok() && !batch.rows.empty()) s = live_->RunRows(batch.rows);
    if (s.ok() && batch.commit) s = live_->Commit(batch.live_rows, batch.commit_tick, batch.commit_clock);
  }
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    row_error_ = s;
    row_failed_.store(true, std::memory_order_release);
  }
}

void ChangePipeline::Drain() {
  if (drained_) return;
  if (!filling_->segments.empty() || !filling_->rows.empty()) Submit();
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
