// ParseFlattenedSerializer on messages written here byte by byte: a
// serializer's field list sent one tag a value (as Valve's encoder sends
// it) and packed, with values of one to five varint bytes, other fields
// before, between and after, and damaged messages.
#include <cstdint>
#include <string>
#include <vector>

#include "core/fields/serializer_message.h"
#include "gtest/gtest.h"

namespace gem::testing {
namespace {

void Varint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
void VarintField(uint32_t field, uint64_t v, std::string* out) {
  Varint(field << 3, out);
  Varint(v, out);
}
void BytesField(uint32_t field, const std::string& bytes, std::string* out) {
  Varint(field << 3 | 2, out);
  Varint(bytes.size(), out);
  out->append(bytes);
}

// Every varint length a field index can take, and the edges between them.
const std::vector<int32_t> kIndexes = {0,     1,       127,       128,       300,
                                       16383, 16384,   2097151,   2097152,   5,
                                       0,     1 << 28, 123456789, 2147483647, 64};

TEST(SerializerMessage, UnpackedIndexesOfEveryLengthWithFieldsAround) {
  std::string ser;
  VarintField(1, 7, &ser);  // name symbol
  for (size_t i = 0; i < kIndexes.size(); ++i) {
    VarintField(3, static_cast<uint32_t>(kIndexes[i]), &ser);
    if (i == 4) VarintField(2, 3, &ser);  // the version, in the middle of the run
  }
  VarintField(9, 99, &ser);  // a field the reader does not know
  VarintField(3, 42, &ser);  // and one index more after it
  std::string second;
  VarintField(1, 8, &second);
  VarintField(3, 16384, &second);
  VarintField(3, 1, &second);
  std::string msg;
  BytesField(2, "Pawn", &msg);
  BytesField(1, ser, &msg);
  BytesField(1, second, &msg);

  FlattenedSerializerMessage out;
  ASSERT_TRUE(ParseFlattenedSerializer(msg, &out));
  ASSERT_EQ(out.serializers.size(), 2u);
  std::vector<int32_t> want = kIndexes;
  want.push_back(42);
  const SerializerDesc& s = out.serializers[0];
  EXPECT_EQ(s.name_sym, 7);
  EXPECT_EQ(s.version, 3);
  ASSERT_EQ(s.fields_count, want.size());
  EXPECT_EQ(std::vector<int32_t>(out.field_indexes.begin() + s.fields_begin,
                                 out.field_indexes.begin() + s.fields_begin + s.fields_count),
            want);
  const SerializerDesc& t = out.serializers[1];
  EXPECT_EQ(t.name_sym, 8);
  ASSERT_EQ(t.fields_count, 2u);
  EXPECT_EQ(out.field_indexes[t.fields_begin], 16384);
  EXPECT_EQ(out.field_indexes[t.fields_begin + 1], 1);
}

TEST(SerializerMessage, PackedIndexesReadAsUnpacked) {
  std::string packed;
  for (int32_t v : kIndexes) Varint(static_cast<uint32_t>(v), &packed);
  std::string ser;
  VarintField(1, 7, &ser);
  BytesField(3, packed, &ser);
  std::string msg;
  BytesField(1, ser, &msg);
  FlattenedSerializerMessage out;
  ASSERT_TRUE(ParseFlattenedSerializer(msg, &out));
  ASSERT_EQ(out.serializers.size(), 1u);
  EXPECT_EQ(out.field_indexes, kIndexes);
}

TEST(SerializerMessage, AnIndexCutShortIsDamage) {
  // A run whose last index is cut after its tag, and one cut inside its
  // varint: neither reads as a message.
  for (int cut : {1, 2}) {
    SCOPED_TRACE(cut);
    std::string ser;
    VarintField(3, 5, &ser);
    VarintField(3, 6, &ser);
    VarintField(3, 300, &ser);
    ser.resize(ser.size() - cut);
    std::string msg;
    BytesField(1, ser, &msg);
    FlattenedSerializerMessage out;
    EXPECT_FALSE(ParseFlattenedSerializer(msg, &out));
  }
}

}  // namespace
}  // namespace gem::testing
