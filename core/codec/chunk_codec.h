// The storage codec of field changes: how a run of (tick, value) changes of
// one field of one entity is packed into one blob. The indexer encodes, the
// SQLite extension decodes; nothing else knows the layout.
//
// Layout (integers are LEB128 varints unless said otherwise):
//   u8      format version (1)
//   varint  count (>= 1)
//   u8      the values' kind (ValueKind); one chunk holds one kind
//   varint  count - 1 tick deltas (>= 0; the first tick is stored outside
//           the blob, in the row's start_tick column)
//   values, each by kind:
//     none    nothing (values dropped by an array shrink)
//     bool    one byte, 0 or 1
//     int     zigzag(value - previous)           previous starts at 0
//     uint    zigzag(value - previous)           64-bit wrapping difference
//     float   zigzag(bits - previous bits)       float32 bit patterns as int32
//     vector  u8 component count, then each component like a float, against
//             the same component of the previous vector
//     string  varint length, bytes
// Deltas run inside one chunk only: every chunk decodes on its own.
#ifndef GEM_CORE_CODEC_CHUNK_CODEC_H_
#define GEM_CORE_CODEC_CHUNK_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/value.h"

namespace gem {

constexpr uint8_t kChunkFormatVersion = 1;

// Builds one chunk as changes arrive. Holds only the encoded bytes and the
// previous values, so that many chunks can be open at once.
class ChunkWriter {
 public:
  bool empty() const { return count_ == 0; }
  uint32_t count() const { return count_; }
  int64_t first_tick() const { return first_tick_; }
  int64_t last_tick() const { return last_tick_; }
  ValueKind kind() const { return kind_; }
  // Bytes held (to bound chunk sizes).
  size_t bytes() const { return ticks_.size() + values_.size(); }

  // Whether `value` can join this chunk: same kind (any value can start an
  // empty chunk). Ticks must not decrease.
  bool Accepts(const Value& value) const { return count_ == 0 || value.kind == kind_; }
  void Add(int64_t tick, const Value& value);

  // Appends the blob to `out` and empties the writer (keeping capacity).
  void Finish(std::string* out);

 private:
  uint32_t count_ = 0;
  ValueKind kind_ = ValueKind::kNone;
  int64_t first_tick_ = 0;
  int64_t last_tick_ = 0;
  uint64_t prev_ = 0;        // int / uint / float bits
  uint32_t prev_vec_[4] = {0, 0, 0, 0};
  std::string ticks_;
  std::string values_;
};

// Reads a blob. Usage: Open(), then Next() until it returns false.
class ChunkReader {
 public:
  // `first_tick` is the row's start_tick. False on a malformed header.
  bool Open(std::string_view blob, int64_t first_tick);
  size_t count() const { return count_; }
  ValueKind kind() const { return kind_; }
  // The next change; strings point into the blob. False after the last one
  // or on damage (then ok() is false).
  bool Next(int64_t* tick, Value* value);
  bool ok() const { return ok_; }

 private:
  std::string_view blob_;
  size_t count_ = 0;
  size_t index_ = 0;
  size_t tick_pos_ = 0;
  size_t value_pos_ = 0;
  int64_t tick_ = 0;
  ValueKind kind_ = ValueKind::kNone;
  bool ok_ = true;
  uint64_t prev_ = 0;
  uint32_t prev_vec_[4] = {0, 0, 0, 0};
};

}  // namespace gem

#endif  // GEM_CORE_CODEC_CHUNK_CODEC_H_
