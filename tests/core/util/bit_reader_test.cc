// BitReader and BitWriter: bit order, Valve's variable-length integers,
// varints, coordinates, angles, normals, strings, and reads past the end.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/util/bit_writer.h"
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

// Long copies take eight bytes a step: every alignment and length, up to
// the last byte of the buffer, equals reading the bits one byte at a time.
TEST(BitReader, LongBytesAtEveryAlignmentEqualByteReads) {
  std::vector<uint8_t> bytes(64);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + 11);
  for (unsigned skip = 0; skip < 8; ++skip) {
    for (size_t n = 0; n * 8 + skip <= bytes.size() * 8; ++n) {
      BitReader fast = ReaderOf(bytes), slow = ReaderOf(bytes);
      fast.Skip(skip);
      slow.Skip(skip);
      std::vector<uint8_t> got(n), want(n);
      fast.ReadBytes(got.data(), n);
      for (size_t i = 0; i < n; ++i) want[i] = static_cast<uint8_t>(slow.ReadBits(8));
      ASSERT_EQ(got, want) << "skip " << skip << " n " << n;
      ASSERT_EQ(fast.position_bits(), slow.position_bits());
      ASSERT_FALSE(fast.overflowed());
    }
    // One byte more than remains: overflow, as byte reads would.
    BitReader over = ReaderOf(bytes);
    over.Skip(skip);
    std::vector<uint8_t> out(bytes.size() + 1);
    over.ReadBytes(out.data(), out.size());
    EXPECT_TRUE(over.overflowed()) << "skip " << skip;
  }
}

// The variable-length reads look at many bits at once; they must equal the
// format read one field at a time, at every offset of random bytes and
// where the bytes run out (zeros past the end, the same position after).
uint32_t UBitVarOneByOne(BitReader* r) {
  uint32_t ret = r->ReadBits(6);
  switch (ret & 0x30) {
    case 16: return (ret & 15) | (r->ReadBits(4) << 4);
    case 32: return (ret & 15) | (r->ReadBits(8) << 4);
    case 48: return (ret & 15) | (r->ReadBits(28) << 4);
  }
  return ret;
}
uint32_t FieldPathUBitVarOneByOne(BitReader* r) {
  if (r->ReadBool()) return r->ReadBits(2);
  if (r->ReadBool()) return r->ReadBits(4);
  if (r->ReadBool()) return r->ReadBits(10);
  if (r->ReadBool()) return r->ReadBits(17);
  return r->ReadBits(31);
}
uint32_t VarUint32OneByOne(BitReader* r) {
  uint32_t result = 0;
  for (unsigned shift = 0; shift < 35; shift += 7) {
    uint32_t b = r->ReadBits(8);
    result |= (b & 0x7F) << shift;
    if ((b & 0x80) == 0) break;
  }
  return result;
}

TEST(BitReader, VariableLengthReadsEqualReadingFieldByField) {
  std::vector<uint8_t> bytes(48);
  uint32_t x = 12345;
  for (uint8_t& b : bytes) {
    x = x * 1103515245u + 12345u;
    b = static_cast<uint8_t>(x >> 16);
  }
  // Some bytes with the high bit set in a row: long varints.
  for (size_t i = 20; i < 26; ++i) bytes[i] |= 0x80;
  for (size_t bit = 0; bit <= bytes.size() * 8; ++bit) {
    for (int kind = 0; kind < 3; ++kind) {
      BitReader fast = ReaderOf(bytes), slow = ReaderOf(bytes);
      fast.Skip(bit);
      slow.Skip(bit);
      uint32_t got = 0, want = 0;
      if (kind == 0) {
        got = fast.ReadUBitVar();
        want = UBitVarOneByOne(&slow);
      } else if (kind == 1) {
        got = fast.ReadUBitVarFieldPath();
        want = FieldPathUBitVarOneByOne(&slow);
      } else {
        got = fast.ReadVarUint32();
        want = VarUint32OneByOne(&slow);
      }
      ASSERT_EQ(got, want) << "kind " << kind << " at bit " << bit;
      ASSERT_EQ(fast.position_bits(), slow.position_bits()) << "kind " << kind << " at bit " << bit;
      ASSERT_EQ(fast.overflowed(), slow.overflowed()) << "kind " << kind << " at bit " << bit;
    }
  }
}

}  // namespace
}  // namespace gem
