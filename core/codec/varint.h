// LEB128 varints and zigzag coding on byte strings: the integer format of
// the storage codec (and of protobuf, for tools that write it by hand).
#ifndef GEM_CORE_CODEC_VARINT_H_
#define GEM_CORE_CODEC_VARINT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gem {

// Writes `v` at `p`, which has room for 10 bytes; returns the end.
inline char* WriteVarint(uint64_t v, char* p) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void PutVarint(uint64_t v, std::string* out) {
  if (v < 0x80) {  // most: a byte
    out->push_back(static_cast<char>(v));
    return;
  }
  char buf[10];
  out->append(buf, static_cast<size_t>(WriteVarint(v, buf) - buf));
}

// Bytes WriteVarint takes for `v`: (significant bits + 6) / 7, at least
// 1, as a multiply and a shift (x * 37 >> 8 is x / 7 for x up to 69): the
// chunk writer sizes every float it holds in every mode with it.
inline size_t VarintLength(uint64_t v) {
  const uint32_t bits = 64 - static_cast<uint32_t>(__builtin_clzll(v | 1));
  return ((bits + 6) * 37) >> 8;
}

// Reads a varint at *pos and advances it; false when the data ends first
// or the varint is longer than 64 bits.
inline bool GetVarint(std::string_view data, size_t* pos, uint64_t* out) {
  uint64_t result = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (*pos >= data.size()) return false;
    uint8_t b = static_cast<uint8_t>(data[(*pos)++]);
    result |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *out = result;
      return true;
    }
  }
  return false;
}

inline uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t UnZigZag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

}  // namespace gem

#endif  // GEM_CORE_CODEC_VARINT_H_
