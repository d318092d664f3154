// ChangePipeline: feeds a ChangeStore on a thread of its own.
//
// Packing changes into chunks is the indexer's biggest cost after parsing
// itself, and it needs nothing from the parser but the changes. The parser's
// thread copies each change into a batch (a sequential append); full
// batches go to a worker thread that runs the ChangeStore, so parsing and
// packing overlap on two cores. Two batches ping-pong: the parser fills one
// while the worker empties the other; nothing is allocated once both have
// grown to size.
//
// Order is kept: a batch is applied in order, batches in order, so a
// CloseEntity lands after that entity's changes.
#ifndef GEM_INDEXER_CHANGE_PIPELINE_H_
#define GEM_INDEXER_CHANGE_PIPELINE_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/value.h"
#include "indexer/change_store.h"

namespace gem::index {

class ChangePipeline {
 public:
  static constexpr size_t kBatchRecords = 1 << 15;

  // `store` must outlive the pipeline; only the worker touches it until
  // Drain() returns.
  explicit ChangePipeline(ChangeStore* store);
  ~ChangePipeline();
  ChangePipeline(const ChangePipeline&) = delete;
  ChangePipeline& operator=(const ChangePipeline&) = delete;

  // As ChangeStore::Add / CloseEntity, applied later on the worker.
  void Add(uint64_t entity, uint32_t field, int64_t tick, const Value& value,
           const FloatQuantizer* quantizer);
  void CloseEntity(uint64_t entity);
  // Applies everything queued and stops the worker; the store is then the
  // caller's again. Idempotent.
  void Drain();
  // Seconds the parser's thread waited for the worker (a full batch and the
  // worker still busy with the previous one), Drain included.
  double wait_seconds() const { return wait_seconds_; }

 private:
  struct Record {
    uint64_t entity;
    bool close;         // a CloseEntity, not a change
    HeldChange change;  // strings in the batch's `strings`
  };
  struct Batch {
    std::vector<Record> records;
    std::string strings;
  };

  void Submit();
  void Run();
  static void Apply(const Batch& batch, ChangeStore* store);

  ChangeStore* store_;
  Batch batches_[2];
  Batch* filling_ = &batches_[0];
  Batch* handed_ = nullptr;  // the worker's, while non-null
  bool stop_ = false;
  bool drained_ = false;
  double wait_seconds_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread worker_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_CHANGE_PIPELINE_H_
