// LiveChanges: the changes table of a live index (gem-index --follow, a
// broadcast), kept readable as the match is played.
//
// The final index's chunks are made by ChangeStore and written in key order
// at the end; a live index cannot wait for that. This keeps, apart from the
// ChangeStore and with no effect on it, one open chunk per (entity, field)
// that changed, and at each commit writes every chunk that changed since
// the one before with INSERT OR REPLACE under its final key (entity,
// field_id, start_tick, seq): an open chunk's row is replaced as it grows,
// and a closed chunk's row is its last version. The rows are the same
// chunk format readers already read, so the extension reads a live index
// with the code it reads a finished one with. Their boundaries are this
// class's (a chunk closes when full, as ChangeStore's do, but never early):
// the finished index's rows are ChangeStore's, written at the end in place
// of these (indexer.h: the live index is replaced by the plain one).
//
// Cost: a chunk that changes is re-encoded at each commit until it closes;
// with chunks of at most 256 changes a field's change is encoded a few
// times, never more than 256. Memory: one open chunk per field of each
// living entity that has changed; a gone entity's are freed at the next
// commit.
//
// Thread: the pipeline's worker only (Add, CloseEntity, Write).
#ifndef GEM_INDEXER_LIVE_CHANGES_H_
#define GEM_INDEXER_LIVE_CHANGES_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/codec/chunk_codec.h"
#include "core/status.h"
#include "indexer/change_store.h"
#include "indexer/quantizer_registry.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

class LiveChanges {
 public:
  // `quantizers` may be null; it must outlive this.
  LiveChanges(uint32_t max_per_chunk, size_t max_chunk_bytes,
              const QuantizerRegistry* quantizers)
      : max_per_chunk_(max_per_chunk), max_chunk_bytes_(max_chunk_bytes),
        quantizers_(quantizers) {}

  // As ChangeStore::Add: `entity`'s changes in tick order, strings in
  // `arena`.
  void Add(uint64_t entity, std::span<const HeldChange> changes, std::string_view arena);
  // The entity is gone: its chunks close (written at the next Write).
  void CloseEntity(uint64_t entity);
  // Writes every chunk that changed since the last Write with `replace`
  // (INSERT OR REPLACE, columns entity, field_id, start_tick, seq,
  // end_tick, count, data) and forgets the closed ones.
  Status Write(Insert* replace);

  // Rows written so far (a chunk rewritten counts each time).
  uint64_t rows_written() const { return rows_written_; }

 private:
  struct Chunk {
    ChunkWriter writer;
    uint32_t seq = 0;      // this chunk's; the next one's is seq + 1
    bool dirty = false;    // changed since the last Write
  };
  struct Closed {
    uint64_t entity;
    uint32_t field;
    uint32_t seq;
    int64_t start_tick, end_tick;
    uint32_t count;
    std::string data;
  };
  // An entity's chunks by field: slot[field] is its chunk's index + 1 (0:
  // none yet), as ChangeStore finds its writers, with no hashing per
  // change.
  struct EntityChunks {
    std::vector<uint32_t> slot;
    std::vector<Chunk> chunks;
    std::vector<uint32_t> field_of;  // chunk index -> field id
    Chunk* Find(uint32_t field) {
      return field < slot.size() && slot[field] != 0 ? &chunks[slot[field] - 1] : nullptr;
    }
  };
  // Ends `chunk` into closed_ and readies it for the next one.
  void Close(uint64_t entity, uint32_t field, Chunk* chunk);

  uint32_t max_per_chunk_;
  size_t max_chunk_bytes_;
  const QuantizerRegistry* quantizers_;
  std::unordered_map<uint64_t, EntityChunks> entities_;
  std::vector<std::pair<uint64_t, uint32_t>> dirty_;  // (entity, field) changed
  std::vector<Closed> closed_;
  std::string blob_;
  uint64_t rows_written_ = 0;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_LIVE_CHANGES_H_
