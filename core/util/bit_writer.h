// BitWriter: writes Source 2 bit streams (least significant bit first), the
// mirror of BitReader. Used by tests and by encoders that produce replays.
#ifndef GEM_CORE_UTIL_BIT_WRITER_H_
#define GEM_CORE_UTIL_BIT_WRITER_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace gem {

class BitWriter {
 public:
  // Appends the low n bits of v (n <= 64).
  void WriteBits(uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i) {
      if ((bits_ & 7) == 0) bytes_.push_back(0);
      if ((v >> i) & 1) bytes_.back() |= static_cast<uint8_t>(1u << (bits_ & 7));
      ++bits_;
    }
  }
  void WriteBool(bool b) { WriteBits(b ? 1 : 0, 1); }

  // The inverse of BitReader::ReadUBitVar: the shortest of 6/10/14/34 bits.
  void WriteUBitVar(uint32_t v) {
    if (v < 16) {
      WriteBits(v, 6);
    } else if (v < (1u << 8)) {
      WriteBits((v & 15) | 16, 6);
      WriteBits(v >> 4, 4);
    } else if (v < (1u << 12)) {
      WriteBits((v & 15) | 32, 6);
      WriteBits(v >> 4, 8);
    } else {
      WriteBits((v & 15) | 48, 6);
      WriteBits(v >> 4, 28);
    }
  }

  // The inverse of BitReader::ReadUBitVarFieldPath.
  void WriteUBitVarFieldPath(uint32_t v) {
    if (v < 4) {
      WriteBool(true);
      WriteBits(v, 2);
    } else if (v < 16) {
      WriteBits(0b10, 2);
      WriteBits(v, 4);
    } else if (v < 1024) {
      WriteBits(0b100, 3);
      WriteBits(v, 10);
    } else if (v < (1u << 17)) {
      WriteBits(0b1000, 4);
      WriteBits(v, 17);
    } else {
      WriteBits(0, 4);
      WriteBits(v, 31);
    }
  }

  void WriteVarUint64(uint64_t v) {
    do {
      uint8_t b = v & 0x7F;
      v >>= 7;
      if (v) b |= 0x80;
      WriteBits(b, 8);
    } while (v);
  }
  void WriteVarUint32(uint32_t v) { WriteVarUint64(v); }
  void WriteVarInt32(int32_t v) {
    WriteVarUint32((static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31));
  }
  void WriteVarInt64(int64_t v) {
    WriteVarUint64((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }

  void WriteFloat32(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    WriteBits(bits, 32);
  }

  void WriteBytes(std::string_view data) {
    for (char c : data) WriteBits(static_cast<uint8_t>(c), 8);
  }
  // NUL-terminated.
  void WriteString(std::string_view s) {
    WriteBytes(s);
    WriteBits(0, 8);
  }

  size_t size_bits() const { return bits_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::string str() const { return std::string(bytes_.begin(), bytes_.end()); }

 private:
  std::vector<uint8_t> bytes_;
  size_t bits_ = 0;
};

}  // namespace gem

#endif  // GEM_CORE_UTIL_BIT_WRITER_H_
