// Keyframe blocks: how keyframe rows (keyframe_codec.h) are stored. A block
// holds the rows of one keyframe interval for a run of consecutive
// entities (ascending ids), compressed together as one zstd frame: rows
// of one interval look alike (entities of a class share most values), so
// a block compresses better than its rows would one by one, and one frame
// of tens of kilobytes decompresses several times faster than as many
// frames of a few hundred bytes (a frame's set-up is most of a small
// one's cost). A reader of every entity's state at a tick reads each block
// of that interval once; a reader of one entity decompresses one block.
//
// The keyframes table's key of a block is KeyframeBlockKey(slot, first
// entity): the block holding entity E at slot S is the row with the
// largest key at or below KeyframeBlockKey(S, E) whose slot is S, when E is
// in its directory.
//
// Layout (integers are LEB128 varints):
//   u8      block format version (1)
//   u8      flags: 1 compressed: what follows is a varint (the body's
//           length, at most kMaxKeyframeBody) and the body as one zstd
//           frame (no checksum, no content size); else the body itself
//   body:
//     varint  n, the number of rows (>= 1)
//     n x     varint entity - previous (previous starts at the block's
//             first entity, so the first is 0, the others > 0), varint
//             the row's length
//     the n rows, one after another
#ifndef GEM_CORE_CODEC_KEYFRAME_BLOCK_H_
#define GEM_CORE_CODEC_KEYFRAME_BLOCK_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;
typedef struct ZSTD_CCtx_s ZSTD_CCtx;
typedef struct ZSTD_DCtx_s ZSTD_DCtx;

namespace gem {

constexpr uint8_t kKeyframeBlockVersion = 1;
constexpr uint8_t kKeyframeBlockCompressed = 1;
// A body larger than this is damage; the writer closes blocks far below.
constexpr size_t kMaxKeyframeBody = 16u << 20;
// The writer closes a block once its rows take this many bytes: on the
// 60-minute synthetic replay, 16 KiB blocks took 6.86 MB, 32 KiB 6.77 MB
// and 64 KiB 6.69 MB (rows one by one: 8.29 MB), all decompressing at
// about the same speed; 32 KiB keeps one entity's read small.
constexpr size_t kKeyframeBlockBytes = 32u << 10;
// A block of more rows than this is damage (a directory of empty rows
// would otherwise claim millions of entries from a few hundred bytes of
// zstd); the writer closes a block at this many.
constexpr size_t kMaxKeyframeBlockRows = 1u << 16;

// The keyframes table's key of the block of slot `slot` (KeyframeSlot)
// whose first entity is `entity`: slot * 2^32 + entity. False when they do
// not fit (an entity id of 2^32 or more, a slot of 2^24 or more).
constexpr int kKeyframeEntityBits = 32;
constexpr int kKeyframeSlotBits = 24;
inline bool KeyframeBlockKey(int64_t slot, int64_t entity, int64_t* key) {
  if (entity < 0 || entity >= (int64_t{1} << kKeyframeEntityBits) || slot < 0 ||
      slot >= (int64_t{1} << kKeyframeSlotBits)) {
    return false;
  }
  *key = (slot << kKeyframeEntityBits) | entity;
  return true;
}
// The slot of keyframe tick `k` (a multiple of `interval` > 0, at least
// -interval): k / interval + 1, so that tick -1 has one.
inline int64_t KeyframeSlot(int64_t k, int64_t interval) { return k / interval + 1; }

// zstd compression of blocks' bodies, one context kept for every block.
class KeyframeCompressor {
 public:
  KeyframeCompressor();
  ~KeyframeCompressor();
  KeyframeCompressor(const KeyframeCompressor&) = delete;
  KeyframeCompressor& operator=(const KeyframeCompressor&) = delete;
  // `body` as one zstd frame appended to `out`; false on failure.
  bool Compress(std::string_view body, std::string* out);

 private:
  // zstd's level 4. On the 30-minute synthetic replay's blocks (7.8 MB of
  // rows, compressed on the thread that inserts the chunks at the end):
  // level 1 3.80 MB in 0.023 s, 2 3.70 MB in 0.027 s, 3 3.66 MB in 0.036
  // s, 4 3.58 MB in 0.037 s, 5 3.55 MB in 0.055 s, 9 3.47 MB in about
  // 0.11 s; all decompress alike.
  static constexpr int kLevel = 4;
  ZSTD_CCtx* cctx_;
  bool ok_ = false;
};

class KeyframeDecompressor {
 public:
  KeyframeDecompressor();
  ~KeyframeDecompressor();
  KeyframeDecompressor(const KeyframeDecompressor&) = delete;
  KeyframeDecompressor& operator=(const KeyframeDecompressor&) = delete;
  // Decompresses `in`, exactly one frame, into *out, which must come out
  // exactly `size` bytes (*out is resized to it).
  bool Decompress(std::string_view in, size_t size, std::string* out);

 private:
  ZSTD_DCtx* dctx_;
};

// Builds one block: Add each row (ascending entities), then Finish.
class KeyframeBlockWriter {
 public:
  bool empty() const { return count_ == 0; }
  int64_t first_entity() const { return first_entity_; }
  int64_t last_entity() const { return last_entity_; }
  // Bytes the rows take so far (to close the block at kKeyframeBlockBytes).
  size_t row_bytes() const { return rows_.size(); }
  size_t rows() const { return count_; }
  // False, and nothing added, when `entity` is not past the last one.
  [[nodiscard]] bool Add(int64_t entity, std::string_view row);
  // The block into *out (replaced), compressed when that is smaller; the
  // writer is empty again. False when compression failed.
  bool Finish(KeyframeCompressor* compressor, std::string* out);

 private:
  int64_t first_entity_ = 0, last_entity_ = 0;
  size_t count_ = 0;
  std::string directory_, rows_, body_;
};

// Reads a block. The rows are views of the block's own copy of the body,
// valid until the next Open.
class KeyframeBlock {
 public:
  // `blob` is the block of key KeyframeBlockKey(slot, first_entity). False
  // on damage: a bad header, a body that does not decompress to its
  // length, a directory of no rows or more than kMaxKeyframeBlockRows, not
  // ascending from `first_entity` or not fitting the body, bytes left over.
  bool Open(std::string_view blob, int64_t first_entity, KeyframeDecompressor* decompressor);
  int64_t first_entity() const { return entries_.empty() ? 0 : entries_.front().entity; }
  int64_t last_entity() const { return entries_.empty() ? 0 : entries_.back().entity; }
  size_t rows() const { return entries_.size(); }
  // The memory the block holds (its body and directory).
  size_t bytes() const { return body_.capacity() + entries_.capacity() * sizeof(Entry); }
  // The row of `entity`; false when the block has none.
  bool Find(int64_t entity, std::string_view* row) const;
  // The position of `entity`'s row (< rows()); false when the block has
  // none. Then row(i) is the row.
  bool IndexOf(int64_t entity, size_t* i) const;
  // The decompressed body, which every row is a view of.
  std::string_view body() const { return body_; }
  std::string_view row(size_t i) const {
    return std::string_view(body_).substr(entries_[i].offset, entries_[i].size);
  }

 private:
  struct Entry {
    int64_t entity;
    size_t offset, size;
  };
  std::string body_;
  std::vector<Entry> entries_;
};

}  // namespace gem

#endif  // GEM_CORE_CODEC_KEYFRAME_BLOCK_H_
