// BitReader and BitWriter: bit order, Valve's variable-length integers,
// varints, coordinates, angles, normals, strings, and reads past the end.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/bit_reader.h"
#include "core/bit_writer.h"
#include "gtest/gtest.h"

namespace gem {
namespace {

BitReader ReaderOf(const std::vector<uint8_t>& bytes) {
  return BitReader(bytes.data(), bytes.size());
}

TEST(BitReader, ReadsLeastSignificantBitFirst) {
  std::vector<uint8_t> bytes = {0b10110010, 0b00000001};
  BitReader r = ReaderOf(bytes);
  EXPECT_FALSE(r.ReadBool());
  EXPECT_TRUE(r.ReadBool());
  EXPECT_EQ(r.ReadBits(3), 0b100u);
  EXPECT_EQ(r.ReadBits(4), 0b1101u);  // crosses into the second byte
  EXPECT_EQ(r.position_bits(), 9u);
  EXPECT_FALSE(r.overflowed());
}

TEST(BitReader, ReadsWholeWordsAtAnyAlignment) {
  std::vector<uint8_t> bytes(16);
  for (int i = 0; i < 16; ++i) bytes[i] = static_cast<uint8_t>(0x11 * i + 7);
  for (unsigned skip = 0; skip < 8; ++skip) {
    BitReader r = ReaderOf(bytes);
    r.Skip(skip);
    uint64_t expected = 0;
    for (int b = 0; b < 64; ++b) {
      size_t bit = skip + b;
      expected |= uint64_t((bytes[bit / 8] >> (bit % 8)) & 1) << b;
    }
    EXPECT_EQ(r.ReadBits64(64), expected) << "skip " << skip;
  }
}

TEST(BitReader, OverflowReturnsZerosAndIsSticky) {
  std::vector<uint8_t> bytes = {0xFF};
  BitReader r = ReaderOf(bytes);
  EXPECT_EQ(r.ReadBits(6), 0x3Fu);
  EXPECT_FALSE(r.overflowed());
  EXPECT_EQ(r.ReadBits(8), 0x3u);  // two real bits, six missing zeros
  EXPECT_TRUE(r.overflowed());
  EXPECT_EQ(r.ReadBits(32), 0u);
  EXPECT_TRUE(r.overflowed());
  EXPECT_EQ(r.bits_left(), 0u);
}

TEST(BitReader, EmptyInputOverflowsOnFirstRead) {
  BitReader r(nullptr, 0);
  EXPECT_TRUE(r.at_end());
  EXPECT_FALSE(r.ReadBool());
  EXPECT_TRUE(r.overflowed());
}

TEST(BitReader, UBitVarAllFourWidths) {
  // 6 bits for < 16, then 4, 8 or 28 more bits selected by bits 4-5.
  for (uint32_t v : {0u, 15u, 16u, 255u, 256u, 4095u, 4096u, 123456789u, 0xFFFFFFFFu}) {
    BitWriter w;
    w.WriteUBitVar(v);
    BitReader r(w.bytes().data(), w.bytes().size());
    EXPECT_EQ(r.ReadUBitVar(), v);
    EXPECT_EQ(r.position_bits(), w.size_bits()) << v;
  }
  BitWriter w;
  w.WriteUBitVar(16);
  EXPECT_EQ(w.size_bits(), 10u);
  BitWriter w2;
  w2.WriteUBitVar(4096);
  EXPECT_EQ(w2.size_bits(), 34u);
}

TEST(BitReader, UBitVarKnownEncoding) {
  // 55 (svc_PacketEntities): low nibble 7, selector 48 -> 28 more bits = 3.
  BitWriter w;
  w.WriteBits(7 | 48, 6);
  w.WriteBits(3, 28);
  BitReader r(w.bytes().data(), w.bytes().size());
  EXPECT_EQ(r.ReadUBitVar(), 55u);
}

TEST(BitReader, FieldPathUBitVar) {
  for (uint32_t v : {0u, 3u, 4u, 15u, 16u, 1023u, 1024u, 131071u, 131072u, 0x7FFFFFFFu}) {
    BitWriter w;
    w.WriteUBitVarFieldPath(v);
    BitReader r(w.bytes().data(), w.bytes().size());
    EXPECT_EQ(r.ReadUBitVarFieldPath(), v);
    EXPECT_EQ(r.position_bits(), w.size_bits());
  }
  // "1" then 2 bits: 3 bits in all.
  BitWriter w;
  w.WriteUBitVarFieldPath(2);
  EXPECT_EQ(w.size_bits(), 3u);
}

TEST(BitReader, Varints) {
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 300ull, 0xFFFFFFFFull,
                     0x123456789ABCDEFull, 0xFFFFFFFFFFFFFFFFull}) {
    BitWriter w;
    w.WriteBits(1, 3);  // misalign on purpose
    w.WriteVarUint64(v);
    BitReader r(w.bytes().data(), w.bytes().size());
    r.Skip(3);
    EXPECT_EQ(r.ReadVarUint64(), v);
  }
  for (int32_t v : {0, 1, -1, 2, -2, 1000000, -1000000, std::numeric_limits<int32_t>::max(),
                    std::numeric_limits<int32_t>::min()}) {
    BitWriter w;
    w.WriteVarInt32(v);
    BitReader r(w.bytes().data(), w.bytes().size());
    EXPECT_EQ(r.ReadVarInt32(), v);
  }
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1} << 40, -(int64_t{1} << 40),
                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    BitWriter w;
    w.WriteVarInt64(v);
    BitReader r(w.bytes().data(), w.bytes().size());
    EXPECT_EQ(r.ReadVarInt64(), v);
  }
  // Zigzag: -1 is 1, 1 is 2.
  std::vector<uint8_t> one = {0x01}, two = {0x02};
  EXPECT_EQ(ReaderOf(one).ReadVarInt32(), -1);
  EXPECT_EQ(ReaderOf(two).ReadVarInt32(), 1);
  // A 32-bit varint stops after five bytes even without a terminator.
  std::vector<uint8_t> long_varint = {0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x55};
  BitReader r = ReaderOf(long_varint);
  EXPECT_EQ(r.ReadVarUint32(), 0xFFFFFFFFu);
  EXPECT_EQ(r.ReadBits(8), 0x55u);
}

TEST(BitReader, Float32) {
  BitWriter w;
  w.WriteBits(1, 1);
  w.WriteFloat32(-1.5f);
  BitReader r(w.bytes().data(), w.bytes().size());
  r.Skip(1);
  EXPECT_EQ(r.ReadFloat32(), -1.5f);
}

TEST(BitReader, Coord) {
  // Neither part: zero, two bits.
  BitWriter zero;
  zero.WriteBits(0, 2);
  BitReader rz(zero.bytes().data(), zero.bytes().size());
  EXPECT_EQ(rz.ReadCoord(), 0.0f);
  EXPECT_EQ(rz.position_bits(), 2u);
  // -(12 + 1) - 3/32: int flag, fraction flag, sign, 14 bits of int-1, 5 bits.
  BitWriter w;
  w.WriteBits(1, 1);
  w.WriteBits(1, 1);
  w.WriteBits(1, 1);
  w.WriteBits(12, 14);
  w.WriteBits(3, 5);
  BitReader r(w.bytes().data(), w.bytes().size());
  EXPECT_EQ(r.ReadCoord(), -(13.0f + 3.0f / 32));
  EXPECT_EQ(r.position_bits(), 22u);
}

TEST(BitReader, AngleNormalAnd3BitNormal) {
  BitWriter w;
  w.WriteBits(64, 8);  // 64/256 of a turn
  BitReader r(w.bytes().data(), w.bytes().size());
  EXPECT_EQ(r.ReadAngle(8), 90.0f);

  BitWriter n;
  n.WriteBits(1, 1);     // negative
  n.WriteBits(2047, 11);  // full magnitude
  BitReader rn(n.bytes().data(), n.bytes().size());
  EXPECT_EQ(rn.ReadNormal(), -1.0f);

  // x only (0.6 of the 11-bit range), z derived, negative z.
  BitWriter v;
  v.WriteBits(1, 1);  // has x
  v.WriteBits(0, 1);  // no y
  v.WriteBits(0, 1);  // x positive
  v.WriteBits(1228, 11);
  v.WriteBits(1, 1);  // z negative
  BitReader rv(v.bytes().data(), v.bytes().size());
  float out[3];
  rv.Read3BitNormal(out);
  float x = 1228.0f * (1.0f / 2047.0f);
  EXPECT_EQ(out[0], x);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_FLOAT_EQ(out[2], -std::sqrt(1.0f - x * x));
}

TEST(BitReader, Strings) {
  BitWriter w;
  w.WriteBits(5, 3);
  w.WriteString("hello");
  w.WriteString("");
  BitReader r(w.bytes().data(), w.bytes().size());
  r.Skip(3);
  std::string s;
  EXPECT_TRUE(r.ReadString(&s, 100));
  EXPECT_EQ(s, "hello");
  EXPECT_TRUE(r.ReadString(&s, 100));
  EXPECT_EQ(s, "");
  // Unterminated: false, and the reader reports the overflow.
  std::vector<uint8_t> bytes = {'a', 'b'};
  BitReader u = ReaderOf(bytes);
  EXPECT_FALSE(u.ReadString(&s, 100));
  EXPECT_TRUE(u.overflowed());
  // Too long for the limit: false.
  BitWriter big;
  big.WriteString("abcdef");
  BitReader b(big.bytes().data(), big.bytes().size());
  EXPECT_FALSE(b.ReadString(&s, 3));
}

TEST(BitReader, BytesAtAnyAlignment) {
  BitWriter w;
  w.WriteBits(1, 5);
  w.WriteBytes("xyz");
  w.WriteBits(0b101, 3);
  BitReader r(w.bytes().data(), w.bytes().size());
  r.Skip(5);
  uint8_t out[3];
  r.ReadBytes(out, 3);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(out), 3), "xyz");
  EXPECT_EQ(r.ReadBits(3), 0b101u);
  // Partial trailing byte.
  BitReader r2(w.bytes().data(), w.bytes().size());
  uint8_t two[2];
  r2.ReadBitsAsBytes(two, 13);
  EXPECT_EQ(two[0], static_cast<uint8_t>(1 | ('x' << 5)));
  EXPECT_EQ(r2.position_bits(), 13u);
}

}  // namespace
}  // namespace gem
