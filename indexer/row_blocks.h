// RowBlocks: the keyframes table's rows. Each interval's entity rows
// (core/codec/keyframe_codec.h) come in ascending entity id and are
// gathered into blocks (core/codec/keyframe_block.h), each closed once its
// rows take kKeyframeBlockBytes, compressed and written (recorded in a
// RowBuffer, store_rows.h): an append, in key order, since intervals come
// in order too.
//
// Thread: one (the pipeline's worker).
#ifndef GEM_INDEXER_ROW_BLOCKS_H_
#define GEM_INDEXER_ROW_BLOCKS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/codec/keyframe_block.h"
#include "core/util/status.h"
#include "indexer/row_buffer.h"
#include "indexer/store_rows.h"

namespace gem::index {

struct RowBlockStats {
  uint64_t rows = 0;
  uint64_t row_bytes = 0;  // before compression
  uint64_t blocks = 0;
  uint64_t block_bytes = 0;
};

class RowBlocks {
 public:
  // Where blocks go (kBlockRow rows), from now on; it must outlive the
  // calls that write to it.
  void SetOutput(RowBuffer* out) { out_ = out; }

  // Adds the row of `entity` in the interval of slot `slot` and keyframe
  // tick `k`. Rows of one slot come in ascending entity; slots ascend.
  Status Add(int64_t slot, int64_t k, int64_t entity, std::string_view row);
  // Closes the open block (an interval's last).
  Status Flush();

  const RowBlockStats& stats() const { return stats_; }

 private:
  RowBuffer* out_ = nullptr;
  KeyframeCompressor compressor_;
  KeyframeBlockWriter block_;
  int64_t slot_ = -1, k_ = 0;
  std::string blob_;
  RowBlockStats stats_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_ROW_BLOCKS_H_
