// BitReader: reads Source 2 bit streams (least significant bit first).
//
// Source 2 packs entity updates, string-table entries and inner message
// headers as bit streams: bits are taken from each byte starting with its
// least significant bit. This reader is the base of every decoder in core/.
//
// Contract:
// - The reader does not own the bytes; they must outlive it.
// - Reads never touch memory past the end. A read that runs past the end
//   returns zero bits for the missing part and leaves overflowed() true;
//   callers check overflowed() once after a unit of work (one message, one
//   entity) instead of after every read. Loops driven by read values must
//   also stop on overflowed() so damaged input cannot make them spin.
// - Nothing here allocates except ReadString into a std::string.
#ifndef GEM_CORE_UTIL_BIT_READER_H_
#define GEM_CORE_UTIL_BIT_READER_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace gem {

class BitReader {
 public:
  BitReader() = default;
  BitReader(const uint8_t* data, size_t size_bytes)
      : data_(data), size_bytes_(size_bytes), size_bits_(size_bytes * 8) {}

  size_t position_bits() const { return pos_; }
  size_t size_bits() const { return size_bits_; }
  // Bits left to read; zero once the reader has overflowed.
  size_t bits_left() const { return pos_ >= size_bits_ ? 0 : size_bits_ - pos_; }
  bool overflowed() const { return pos_ > size_bits_; }
  bool at_end() const { return pos_ >= size_bits_; }

  // Reads n bits, 0 <= n <= 32.
  uint32_t ReadBits(unsigned n) {
    uint64_t v = Peek57();
    pos_ += n;
    return static_cast<uint32_t>(v & ((uint64_t{1} << n) - 1));
  }

  // Reads n bits, 0 <= n <= 64.
  uint64_t ReadBits64(unsigned n) {
    if (n <= 32) return ReadBits(n);
    uint64_t lo = ReadBits(32);
    uint64_t hi = ReadBits(n - 32);
    return lo | (hi << 32);
  }

  bool ReadBool() {
    bool b = (Peek57() & 1) != 0;
    pos_ += 1;
    return b;
  }

  // Returns the next up-to-57 bits without consuming them (low bit first).
  uint64_t Peek57() const {
    size_t byte = pos_ >> 3;
    uint64_t w;
    if (byte + 8 <= size_bytes_) {
      std::memcpy(&w, data_ + byte, 8);  // little-endian host assumed
    } else {
      w = LoadTail(byte);
    }
    return w >> (pos_ & 7);
  }

  void Skip(size_t n_bits) { pos_ += n_bits; }

  // Valve's "ubit var": 6 bits whose top two select 0, 4, 8 or 28 more bits.
  // (One look at the next 57 bits covers the longest, 34 bits; past the
  // end the look gives zeros, as bit-by-bit reads would.)
  uint32_t ReadUBitVar() {
    const uint64_t w = Peek57();
    const uint32_t low = static_cast<uint32_t>(w & 15);
    switch (w & 0x30) {
      case 0:
        pos_ += 6;
        return low;
      case 16:
        pos_ += 10;
        return low | (static_cast<uint32_t>((w >> 6) & 0xF) << 4);
      case 32:
        pos_ += 14;
        return low | (static_cast<uint32_t>((w >> 6) & 0xFF) << 4);
      default:
        pos_ += 34;
        return low | (static_cast<uint32_t>((w >> 6) & 0xFFFFFFF) << 4);
    }
  }

  // The field-path flavour: a unary prefix selects 2, 4, 10, 17 or 31 bits
  // (35 bits at most: one look).
  uint32_t ReadUBitVarFieldPath() {
    const uint64_t w = Peek57();
    if (w & 1) {
      pos_ += 3;
      return static_cast<uint32_t>((w >> 1) & 0x3);
    }
    if (w & 2) {
      pos_ += 6;
      return static_cast<uint32_t>((w >> 2) & 0xF);
    }
    if (w & 4) {
      pos_ += 13;
      return static_cast<uint32_t>((w >> 3) & 0x3FF);
    }
    if (w & 8) {
      pos_ += 21;
      return static_cast<uint32_t>((w >> 4) & 0x1FFFF);
    }
    pos_ += 35;
    return static_cast<uint32_t>((w >> 4) & 0x7FFFFFFF);
  }

  // Protobuf-style varints read from the bit stream (at most 5 / 10 bytes).
  // A 32-bit one (40 bits at most) is taken from one look.
  uint32_t ReadVarUint32() {
    const uint64_t w = Peek57();
    uint32_t result = 0;
    for (unsigned k = 0; k < 5; ++k) {
      const uint32_t b = static_cast<uint32_t>(w >> (8 * k)) & 0xFF;
      result |= (b & 0x7F) << (7 * k);
      if ((b & 0x80) == 0) {
        pos_ += 8 * (k + 1);
        return result;
      }
    }
    pos_ += 40;
    return result;
  }
  int32_t ReadVarInt32() {
    uint32_t u = ReadVarUint32();
    return static_cast<int32_t>((u >> 1) ^ (~(u & 1) + 1));
  }
  uint64_t ReadVarUint64() {
    uint64_t result = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
      uint64_t b = ReadBits(8);
      result |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) break;
    }
    return result;
  }
  int64_t ReadVarInt64() {
    uint64_t u = ReadVarUint64();
    return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  }

  uint64_t ReadLeUint64() { return ReadBits64(64); }

  float ReadFloat32() {
    uint32_t bits = ReadBits(32);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }

  // Source's bit coordinate: integer and fraction flags, sign, 14-bit
  // integer part (+1), 5-bit fraction.
  float ReadCoord() {
    uint32_t int_flag = ReadBits(1);
    uint32_t fract_flag = ReadBits(1);
    if (int_flag == 0 && fract_flag == 0) return 0.0f;
    bool negative = ReadBool();
    uint32_t int_val = int_flag ? ReadBits(14) + 1 : 0;
    uint32_t fract_val = fract_flag ? ReadBits(5) : 0;
    float value = static_cast<float>(int_val) +
                  static_cast<float>(fract_val) * (1.0f / (1 << 5));
    return negative ? -value : value;
  }

  // An angle quantized to n bits over [0, 360).
  float ReadAngle(unsigned n) {
    return static_cast<float>(ReadBits(n)) * 360.0f /
           static_cast<float>(uint64_t{1} << n);
  }

  // One component of a normal: sign bit and 11-bit magnitude.
  float ReadNormal() {
    bool negative = ReadBool();
    uint32_t len = ReadBits(11);
    float v = static_cast<float>(len) * (1.0f / (static_cast<float>(1 << 11) - 1.0f));
    return negative ? -v : v;
  }

  // A unit vector: optional x and y, z derived from them, sign of z.
  void Read3BitNormal(float out[3]) {
    out[0] = out[1] = out[2] = 0.0f;
    bool has_x = ReadBool();
    bool has_y = ReadBool();
    if (has_x) out[0] = ReadNormal();
    if (has_y) out[1] = ReadNormal();
    bool negative_z = ReadBool();
    float sum = out[0] * out[0] + out[1] * out[1];
    out[2] = sum < 1.0f ? static_cast<float>(std::sqrt(static_cast<double>(1.0f - sum))) : 0.0f;
    if (negative_z) out[2] = -out[2];
  }

  // Reads a NUL-terminated string into `out` (without the NUL). Stops at the
  // end of the stream or after max_len bytes; returns false in those cases.
  bool ReadString(std::string* out, size_t max_len) {
    out->clear();
    while (!at_end()) {
      char c = static_cast<char>(ReadBits(8));
      if (c == 0) return true;
      if (out->size() >= max_len) return false;
      out->push_back(c);
    }
    pos_ = size_bits_ + 1;  // ran out before the terminator
    return false;
  }

  // Copies n whole bytes (at any bit alignment) into out.
  void ReadBytes(uint8_t* out, size_t n) {
    if (n == 0) return;  // `out` may be null then (memcpy's arguments may not)
    const unsigned shift = pos_ & 7;
    size_t byte = pos_ >> 3;
    if (shift == 0 && byte + n <= size_bytes_) {
      std::memcpy(out, data_ + byte, n);
      pos_ += n * 8;
      return;
    }
    // Unaligned (inner messages follow bit-sized headers): eight bytes at
    // a time from two overlapping loads, while nine source bytes remain.
    size_t i = 0;
    if (shift != 0) {
      for (; i + 8 <= n && byte + 9 <= size_bytes_; i += 8, byte += 8) {
        uint64_t lo;
        std::memcpy(&lo, data_ + byte, 8);
        const uint64_t w = (lo >> shift) | (uint64_t{data_[byte + 8]} << (64 - shift));
        std::memcpy(out + i, &w, 8);
      }
      pos_ += i * 8;
    }
    for (; i < n; ++i) out[i] = static_cast<uint8_t>(ReadBits(8));
  }

  // Copies n_bits bits as bytes; the last byte holds the remainder bits.
  void ReadBitsAsBytes(uint8_t* out, size_t n_bits) {
    ReadBytes(out, n_bits / 8);
    if (n_bits % 8) out[n_bits / 8] = static_cast<uint8_t>(ReadBits(n_bits % 8));
  }

 private:
  uint64_t LoadTail(size_t byte) const {
    uint64_t w = 0;
    for (size_t i = 0; i < 8 && byte + i < size_bytes_; ++i) {
      w |= static_cast<uint64_t>(data_[byte + i]) << (8 * i);
    }
    return w;
  }

  const uint8_t* data_ = nullptr;
  size_t size_bytes_ = 0;
  size_t size_bits_ = 0;
  size_t pos_ = 0;
};

}  // namespace gem

#endif  // GEM_CORE_UTIL_BIT_READER_H_
