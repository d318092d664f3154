// ChangeStore: field changes collected during a parse, packed into chunks
// (core/codec/chunk_codec.h) as they arrive and written in key order at the
// end, so that the changes table is appended in (entity, field_id,
// start_tick, seq) order.
//
// Memory: one open chunk per (entity, field) that has changed since its
// last chunk was closed, plus every closed chunk's bytes until WriteAll().
#ifndef GEM_INDEXER_CHANGE_STORE_H_
#define GEM_INDEXER_CHANGE_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/status.h"
#include "core/value.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

class ChangeStore {
 public:
  explicit ChangeStore(uint32_t max_per_chunk) : max_per_chunk_(max_per_chunk) {}

  // Records a change. `entity` is a lifetime id (small, dense); ticks of one
  // (entity, field) must not decrease. `quantizer` (may be null) tells how
  // the field's floats were quantized (copied).
  void Add(uint64_t entity, uint32_t field, int64_t tick, const Value& value,
           const FloatQuantizer* quantizer = nullptr);
  // The entity is gone: closes its chunks and frees their writers.
  void CloseEntity(uint64_t entity);
  // Closes every chunk and writes all rows with `insert`, which binds
  // (entity, field_id, start_tick, seq, end_tick, count, data).
  Status WriteAll(Stmt* insert);

  uint64_t changes() const { return changes_; }
  uint64_t chunks() const { return done_.size(); }
  uint64_t blob_bytes() const { return blob_bytes_; }

 private:
  struct Open {
    ChunkWriter writer;
    uint32_t next_seq = 0;
  };
  struct Done {
    uint64_t entity;
    uint32_t field;
    uint32_t seq;
    int64_t start_tick;
    int64_t end_tick;
    uint32_t count;
    const char* data;
    uint32_t size;
  };

  void Close(uint64_t entity, uint32_t field, Open* open);
  const char* Store(const std::string& blob);

  uint32_t max_per_chunk_;
  // The open chunks of one entity: only fields that changed get a writer;
  // slot_ maps a field id to its writer (index + 1, 0 = none yet).
  struct EntityChunks {
    std::vector<uint32_t> slot;
    std::vector<Open> open;
    std::vector<uint32_t> field_of;  // writer index -> field id
  };
  std::vector<EntityChunks> open_;  // by entity
  std::vector<Done> done_;
  // Closed chunks' bytes, in blocks that never move.
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<std::unique_ptr<char[]>> big_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  std::string scratch_;
  uint64_t changes_ = 0;
  uint64_t blob_bytes_ = 0;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_CHANGE_STORE_H_
