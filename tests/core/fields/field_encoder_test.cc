// Round-trip property tests of the writing side: random values of every
// decoding rule encode and decode back to themselves; random lists of
// field paths survive WriteFieldPaths / ReadFieldPaths.
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/util/bit_writer.h"
#include "core/fields/field_decoder.h"
#include "core/fields/field_encoder.h"
#include "core/fields/field_path.h"
#include "gtest/gtest.h"
#include "tests/support/decoder_specs.h"

namespace gem {
namespace {

using testing::AllSpecs;
using testing::DecoderOf;
using testing::Spec;

// Random bits decoded by `d`: a value the encoding can hold.
Value RandomDecodable(const FieldDecoder& d, std::mt19937_64* rng, std::string* storage) {
  BitWriter w;
  if (d.op == DecodeOp::kString) {
    std::string s;
    for (int i = 0, n = static_cast<int>((*rng)() % 30); i < n; ++i) {
      s.push_back(static_cast<char>(1 + (*rng)() % 255));
    }
    w.WriteString(s);
  } else if (d.op == DecodeOp::kBinaryBlock) {
    int n = static_cast<int>((*rng)() % 30);
    w.WriteVarUint32(n);
    for (int i = 0; i < n; ++i) w.WriteBits((*rng)() & 0xFF, 8);
  } else if (d.op == DecodeOp::kUVar32 || d.op == DecodeOp::kSVar32 ||
             d.op == DecodeOp::kUVar64 || d.op == DecodeOp::kSVar64 ||
             d.op == DecodeOp::kUVar32MinusOne ||
             (d.op == DecodeOp::kFloat && d.float_encoding == FloatEncoding::kSimTime)) {
    uint64_t v = (*rng)();
    if ((*rng)() % 2) v %= 1000;
    if (d.op == DecodeOp::kUVar32 || d.op == DecodeOp::kSVar32 ||
        d.op == DecodeOp::kUVar32MinusOne || d.op == DecodeOp::kFloat) {
      v &= 0xFFFFFFFF;
    }
    if (d.op == DecodeOp::kFloat) v %= 1u << 20;  // tick counts
    w.WriteVarUint64(v);
  } else {
    for (int i = 0; i < 16; ++i) w.WriteBits((*rng)(), 64);
  }
  BitReader r(w.bytes().data(), w.bytes().size());
  Value v;
  d.Decode(&r, &v, storage);
  return v;
}

bool Equal(const Value& a, const Value& b) {
  if (a.kind == ValueKind::kFloat && b.kind == ValueKind::kFloat && std::isnan(a.f)) {
    return std::isnan(b.f);
  }
  return a.SameAs(b);
}

TEST(FieldEncoder, EveryRuleRoundTripsRandomValues) {
  std::mt19937_64 rng(2024);
  for (const Spec& spec : AllSpecs()) {
    FieldDecoder d = DecoderOf(spec);
    for (int trial = 0; trial < 300; ++trial) {
      std::string storage, scratch;
      Value v = RandomDecodable(d, &rng, &storage);
      BitWriter w;
      ASSERT_TRUE(EncodeField(d, v, &w)) << spec.type << " " << d.Describe();
      w.WriteBits(0x2A, 6);  // a sentinel: the encoder wrote exactly its bits
      BitReader r(w.bytes().data(), w.bytes().size());
      Value back;
      d.Decode(&r, &back, &scratch);
      EXPECT_TRUE(Equal(back, v)) << spec.type << " " << spec.encoder << " " << d.Describe()
                                  << " trial " << trial;
      EXPECT_EQ(r.ReadBits(6), 0x2Au) << spec.type << " " << d.Describe();
      EXPECT_FALSE(r.overflowed());
    }
  }
}

TEST(FieldEncoder, NearestRepresentableValue) {
  // A quantized float between steps decodes to the nearest step.
  FieldDecoder q = DecoderOf({"float32", "", 8, 0.f, 255.f});
  Value v = RepresentableValue(q, Value::Float(10.4f));
  EXPECT_NEAR(v.f, 10.0f, 1e-4);
  FieldDecoder coord = DecoderOf({"float32", "coord"});
  EXPECT_EQ(RepresentableValue(coord, Value::Float(-3.51f)).f, -3.5f);
  // Wrong kinds are refused.
  BitWriter w;
  EXPECT_FALSE(EncodeField(DecoderOf({"int32", ""}), Value::Uint(1), &w));
  EXPECT_FALSE(EncodeField(DecoderOf({"Vector", ""}), Value::Float(1), &w));
}

TEST(FieldEncoder, FieldPathsRoundTrip) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<FieldPath> paths(1 + rng() % 60);
    for (FieldPath& p : paths) {
      p.last = static_cast<int32_t>(rng() % 4);
      for (int i = 0; i <= p.last; ++i) {
        p.index[i] = static_cast<int32_t>(rng() % 3 == 0 ? rng() % 2000 : rng() % 12);
      }
    }
    if (trial % 2) std::sort(paths.begin(), paths.end(), [](const FieldPath& a, const FieldPath& b) {
      return std::lexicographical_compare(a.index, a.index + a.last + 1, b.index, b.index + b.last + 1);
    });
    BitWriter w;
    WriteFieldPaths(paths, &w);
    w.WriteBits(0x15, 5);
    BitReader r(w.bytes().data(), w.bytes().size());
    std::vector<FieldPath> back;
    ASSERT_TRUE(ReadFieldPaths(&r, &back).ok()) << "trial " << trial;
    ASSERT_EQ(back.size(), paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
      EXPECT_EQ(back[i].ToString(), paths[i].ToString()) << "trial " << trial << " path " << i;
    }
    EXPECT_EQ(r.ReadBits(5), 0x15u);
  }
}

TEST(FieldEncoder, SortedPathsUseShortOps) {
  // 100 consecutive top-level fields: one bit each (PlusOne), plus the end.
  std::vector<FieldPath> paths(100);
  for (int i = 0; i < 100; ++i) {
    paths[i].last = 0;
    paths[i].index[0] = i;
  }
  BitWriter w;
  WriteFieldPaths(paths, &w);
  EXPECT_EQ(w.size_bits(), 100u + 2u);
}

}  // namespace
}  // namespace gem
