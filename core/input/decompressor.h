// Decompressor: the streaming decoders of the compressed replays users
// have (Valve's downloads are .dem.bz2; FACEIT and others hand out .dem.gz
// and .dem.zst), over Debian's libbz2, zlib and libzstd.
//
// Which one applies is told by the file's first bytes, never its name.
// Concatenated streams (pbzip2 writes one bzip2 stream per block, pigz and
// zstd may write several members or frames) decode as one: when a stream
// ends and more input follows, the next must start with the same magic.
#ifndef GEM_CORE_INPUT_DECOMPRESSOR_H_
#define GEM_CORE_INPUT_DECOMPRESSOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/util/status.h"

namespace gem {

enum class Compression { kNone, kBzip2, kGzip, kZstd };

// "none", "bzip2", "gzip", "zstd": the word meta.compression records.
const char* CompressionName(Compression c);

// The compression whose magic `head` starts with (kNone for anything else,
// a replay among them). Needs at most 4 bytes.
Compression DetectCompression(const uint8_t* head, size_t size);

class Decompressor {
 public:
  virtual ~Decompressor() = default;
  // nullptr for kNone.
  static std::unique_ptr<Decompressor> New(Compression c);

  // Decodes from `in` into `out` (room `room`): *used input bytes taken,
  // *produced output bytes written. Call again with the rest of the input
  // and fresh room until it takes nothing and writes nothing. Corrupt
  // names the compression and the compressed offset (counted over every
  // call) where the data stopped decoding.
  virtual Status Decode(const uint8_t* in, size_t size, size_t* used, uint8_t* out,
                        size_t room, size_t* produced) = 0;
  // At the end of the input: ok when the last stream ended, else the
  // Truncated status of a cut stream (naming where).
  virtual Status Finish() const = 0;
  // Compressed bytes taken so far.
  uint64_t consumed() const { return consumed_; }

 protected:
  uint64_t consumed_ = 0;
};

}  // namespace gem

#endif  // GEM_CORE_INPUT_DECOMPRESSOR_H_
