// Field decoders: which rule each declared type gets, and what each rule
// reads, on hand-encoded bit streams.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/util/bit_writer.h"
#include "core/fields/field_decoder.h"
#include "gtest/gtest.h"

namespace gem {
namespace {

FieldDecoder For(std::string_view type, std::string_view encoder = "",
                 std::optional<int32_t> bits = std::nullopt,
                 std::optional<float> low = std::nullopt,
                 std::optional<float> high = std::nullopt,
                 std::optional<int32_t> flags = std::nullopt,
                 std::string_view name = "m_x") {
  DecoderSpec s;
  s.base_type = type;
  s.encoder = encoder;
  s.bit_count = bits;
  s.low_value = low;
  s.high_value = high;
  s.encode_flags = flags;
  s.var_name = name;
  s.tick_interval = 1.0f / 30;
  return SelectDecoder(s);
}

Value Decode(const FieldDecoder& d, const BitWriter& w, size_t* used = nullptr) {
  BitReader r(w.bytes().data(), w.bytes().size());
  Value v;
  std::string scratch;
  d.Decode(&r, &v, &scratch);
  EXPECT_FALSE(r.overflowed());
  if (used) *used = r.position_bits();
  if (v.kind == ValueKind::kString) {
    static std::string keep;
    keep = std::string(v.s);
    v.s = keep;
  }
  return v;
}

TEST(FieldDecoder, IntegerRules) {
  EXPECT_EQ(For("bool").op, DecodeOp::kBool);
  for (auto t : {"int8", "int16", "int32"}) EXPECT_EQ(For(t).op, DecodeOp::kSVar32) << t;
  for (auto t : {"uint8", "uint16", "uint32", "CHandle", "CEntityHandle", "Color",
                 "CUtlStringToken", "CGameSceneNodeHandle"}) {
    EXPECT_EQ(For(t).op, DecodeOp::kUVar32) << t;
    EXPECT_FALSE(For(t).default_rule) << t;
  }
  EXPECT_EQ(For("int64").op, DecodeOp::kSVar64);
  for (auto t : {"uint64", "CStrongHandle", "MatchID_t", "itemid_t", "ResourceId_t",
                 "HeroFacetKey_t"}) {
    EXPECT_EQ(For(t).op, DecodeOp::kUVar64) << t;
    EXPECT_EQ(For(t, "fixed64").op, DecodeOp::kFixed64) << t;
  }
  DecoderSpec minusone;
  minusone.base_type = "uint32";
  minusone.var_serializer = "minusone";
  EXPECT_EQ(SelectDecoder(minusone).op, DecodeOp::kUVar32MinusOne);

  BitWriter w;
  w.WriteVarInt32(-5);
  EXPECT_EQ(Decode(For("int32"), w).i, -5);
  BitWriter u;
  u.WriteVarUint64(6660075552ull);  // a real 64-bit match id
  EXPECT_EQ(Decode(For("MatchID_t"), u).u, 6660075552ull);
  BitWriter f;
  f.WriteBits(0x0110000100ABCDEFull, 64);
  EXPECT_EQ(Decode(For("uint64", "fixed64"), f).u, 0x0110000100ABCDEFull);
  BitWriter s64;
  s64.WriteVarInt64(-(int64_t{1} << 40));
  EXPECT_EQ(Decode(For("int64"), s64).i, -(int64_t{1} << 40));
  BitWriter m1;
  m1.WriteVarUint32(0);
  EXPECT_EQ(Decode(SelectDecoder(minusone), m1).i, -1);
}

TEST(FieldDecoder, UnknownTypesUseTheDefaultRuleAndSaySo) {
  FieldDecoder d = For("DOTA_SomethingNew_t");
  EXPECT_EQ(d.op, DecodeOp::kUVar32);
  EXPECT_TRUE(d.default_rule);
  BitWriter w;
  w.WriteVarUint32(4294967295u);
  EXPECT_EQ(Decode(d, w).u, 4294967295u);
}

TEST(FieldDecoder, FloatRules) {
  EXPECT_EQ(For("float32").float_encoding, FloatEncoding::kNoScale);
  EXPECT_EQ(For("float32", "", 0).float_encoding, FloatEncoding::kNoScale);
  EXPECT_EQ(For("float32", "", 32).float_encoding, FloatEncoding::kNoScale);
  EXPECT_EQ(For("float32", "", 10, 0.f, 1.f).float_encoding, FloatEncoding::kQuantized);
  EXPECT_EQ(For("float32", "coord").float_encoding, FloatEncoding::kCoord);
  EXPECT_EQ(For("GameTime_t", "", 10).float_encoding, FloatEncoding::kNoScale);
  // A quantized float type without a usable bit count is a plain float,
  // not a zero.
  FieldDecoder q0 = For("CNetworkedQuantizedFloat", "", 0);
  EXPECT_EQ(q0.float_encoding, FloatEncoding::kNoScale);
  BitWriter w;
  w.WriteFloat32(12.25f);
  EXPECT_EQ(Decode(q0, w).f, 12.25f);

  // Simulation time: a tick count, whatever the declared encoding.
  FieldDecoder sim = For("float32", "", 32, std::nullopt, std::nullopt, std::nullopt,
                         "m_flSimulationTime");
  EXPECT_EQ(sim.float_encoding, FloatEncoding::kSimTime);
  BitWriter t;
  t.WriteVarUint32(33);
  EXPECT_EQ(Decode(sim, t).f, 33.0f * (1.0f / 30));
}

TEST(FieldDecoder, QuantizedPlain) {
  FieldDecoder d = For("float32", "", 8, 0.f, 1.f);
  EXPECT_EQ(d.quantized.flags, 0u);
  BitWriter w;
  w.WriteBits(255, 8);
  w.WriteBits(0, 8);
  w.WriteBits(51, 8);
  BitReader r(w.bytes().data(), w.bytes().size());
  EXPECT_EQ(d.quantized.Decode(&r), 1.0f);
  EXPECT_EQ(d.quantized.Decode(&r), 0.0f);
  EXPECT_EQ(d.quantized.Decode(&r), 0.0f + 1.0f * (51.0f * (1.0f / 255.0f)));
}

// The decoder reads markers and units from one look at the stream; it
// must equal reading them bit by bit, for every marker set and width, at
// every offset (the end of the bytes included: zeros past it).
TEST(FieldDecoder, QuantizedEqualsReadingBitByBit) {
  std::vector<uint8_t> bytes(24);
  uint32_t x = 99;
  for (uint8_t& b : bytes) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(x >> 24);
  }
  for (uint32_t flags = 0; flags < 8; ++flags) {
    for (uint32_t bits : {1u, 7u, 18u, 31u}) {
      QuantizedFloat q;
      q.low = -3.0f;
      q.high = 5.0f;
      q.bit_count = bits;
      q.dec_mul = 1.0f / static_cast<float>((uint64_t{1} << bits) - 1);
      q.flags = flags;
      for (size_t at = 0; at <= bytes.size() * 8; ++at) {
        BitReader fast(bytes.data(), bytes.size()), slow(bytes.data(), bytes.size());
        fast.Skip(at);
        slow.Skip(at);
        float want;
        if ((flags & QuantizedFloat::kRoundDown) && slow.ReadBool()) {
          want = q.low;
        } else if ((flags & QuantizedFloat::kRoundUp) && slow.ReadBool()) {
          want = q.high;
        } else if ((flags & QuantizedFloat::kEncodeZero) && slow.ReadBool()) {
          want = 0.0f;
        } else {
          want = QuantizedFromUnits(q.low, q.high, q.dec_mul, slow.ReadBits(bits));
        }
        const float got = q.Decode(&fast);
        ASSERT_EQ(std::memcmp(&got, &want, 4), 0)
            << "flags " << flags << " bits " << bits << " at " << at;
        ASSERT_EQ(fast.position_bits(), slow.position_bits())
            << "flags " << flags << " bits " << bits << " at " << at;
      }
    }
  }
}

TEST(FieldDecoder, QuantizedRoundDownShrinksTheRange) {
  // Round down: the top step is dropped (high -= range / steps); the low
  // end is then exact, so no marker bit is needed.
  FieldDecoder d = For("float32", "", 4, 0.f, 10.f, 1);
  EXPECT_EQ(d.quantized.high, 10.0f - 10.0f / 16);
  EXPECT_EQ(d.quantized.flags, 0u);
  BitWriter w;
  w.WriteBits(15, 4);
  EXPECT_EQ(Decode(d, w).f, d.quantized.high);
}

TEST(FieldDecoder, QuantizedEncodeZeroKeepsItsMarker) {
  FieldDecoder d = For("float32", "", 3, -1.f, 2.f, 4);
  EXPECT_EQ(d.quantized.flags, QuantizedFloat::kEncodeZero);
  BitWriter w;
  w.WriteBool(true);  // exactly zero
  w.WriteBool(false);
  w.WriteBits(7, 3);
  BitReader r(w.bytes().data(), w.bytes().size());
  EXPECT_EQ(d.quantized.Decode(&r), 0.0f);
  EXPECT_EQ(d.quantized.Decode(&r), 2.0f);
  EXPECT_EQ(r.position_bits(), 5u);
}

TEST(FieldDecoder, QuantizedEncodeIntegersWidensTheBitCount) {
  // [0, 100] as integers needs 128 steps of one: 8 bits over [0, 127.5].
  FieldDecoder d = For("float32", "", 4, 0.f, 100.f, 8);
  EXPECT_EQ(d.quantized.bit_count, 8u);
  EXPECT_EQ(d.quantized.high, 127.5f);
  BitWriter w;
  w.WriteBits(2, 8);
  EXPECT_FLOAT_EQ(Decode(d, w).f, 1.0f);
}

TEST(FieldDecoder, QuantizedRangesFromUntrustedTablesStayDefined) {
  // Send tables are untrusted. NaN or infinite ends, a span that overflows
  // (real replays declare -FLT_MAX to FLT_MAX), or an integer range past
  // 2^30 must still give a decoder that reads its declared bits, and
  // computing its parameters must stay defined (the sanitizer build runs
  // this test: a NaN cast to an integer is what the fuzzer found).
  const float inf = INFINITY, big = 3.4028235e38f;
  struct Case {
    float low, high;
    int32_t flags;
  } cases[] = {{NAN, 1.f, 1}, {0.f, NAN, 2}, {-inf, 1.f, 4}, {0.f, inf, 2},
               {-big, big, 2}, {-big, big, 1}, {-big, big, 4}, {0.f, 3e9f, 8}, {NAN, NAN, 8}};
  for (const Case& c : cases) {
    FieldDecoder d = For("float32", "", 6, c.low, c.high, c.flags);
    ASSERT_EQ(d.float_encoding, FloatEncoding::kQuantized);
    EXPECT_EQ(d.quantized.bit_count, 6u) << c.low << " " << c.high << " " << c.flags;
    BitWriter w;
    w.WriteBits(0, 3 + 6);
    w.WriteBits(0x2A5, 10);
    BitReader r(w.bytes().data(), w.bytes().size());
    d.quantized.Decode(&r);
    // The markers the flags kept, then the six bits: never more.
    EXPECT_LE(r.position_bits(), 3u + 6u);
    EXPECT_GE(r.position_bits(), 6u);
  }
  // An integer range within 2^30 still widens as Valve's encoder does.
  EXPECT_EQ(For("float32", "", 4, 0.f, 1e9f, 8).quantized.bit_count, 31u);
}

TEST(FieldDecoder, VectorsAndNormals) {
  FieldDecoder v3 = For("Vector");
  EXPECT_EQ(v3.op, DecodeOp::kVector);
  EXPECT_EQ(v3.count, 3);
  EXPECT_EQ(For("Vector2D").count, 2);
  EXPECT_EQ(For("Vector4D").count, 4);
  EXPECT_EQ(For("Quaternion").count, 4);
  EXPECT_EQ(For("Vector", "normal").op, DecodeOp::kVectorNormal);
  BitWriter w;
  w.WriteFloat32(1.5f);
  w.WriteFloat32(-2.0f);
  w.WriteFloat32(1e9f);
  Value v = Decode(v3, w);
  ASSERT_EQ(v.kind, ValueKind::kVector);
  EXPECT_EQ(v.count, 3);
  EXPECT_EQ(v.v[0], 1.5f);
  EXPECT_EQ(v.v[1], -2.0f);
  EXPECT_EQ(v.v[2], 1e9f);
  // Components follow the field's encoding: coord here.
  BitWriter c;
  for (int k = 0; k < 2; ++k) c.WriteBits(0, 2);
  FieldDecoder v2 = For("Vector2D", "coord");
  size_t used = 0;
  Value z = Decode(v2, c, &used);
  EXPECT_EQ(z.v[0], 0.0f);
  EXPECT_EQ(used, 4u);
}

TEST(FieldDecoder, QAngleEncodings) {
  FieldDecoder bits = For("QAngle", "", 8);
  EXPECT_EQ(bits.op, DecodeOp::kQAngleBits);
  BitWriter w;
  w.WriteBits(64, 8);
  w.WriteBits(128, 8);
  w.WriteBits(0, 8);
  Value a = Decode(bits, w);
  EXPECT_EQ(a.v[0], 90.0f);
  EXPECT_EQ(a.v[1], 180.0f);
  EXPECT_EQ(a.v[2], 0.0f);

  FieldDecoder py = For("QAngle", "qangle_pitch_yaw", 8);
  EXPECT_EQ(py.op, DecodeOp::kQAnglePitchYaw);
  BitWriter p;
  p.WriteBits(64, 8);
  p.WriteBits(192, 8);
  size_t used = 0;
  Value b = Decode(py, p, &used);
  EXPECT_EQ(b.v[1], 270.0f);
  EXPECT_EQ(b.v[2], 0.0f);
  EXPECT_EQ(used, 16u);

  FieldDecoder coord = For("QAngle", "qangle");
  EXPECT_EQ(coord.op, DecodeOp::kQAngleCoord);
  BitWriter c;
  c.WriteBits(0b010, 3);  // only y present
  c.WriteBits(1, 1);      // int part
  c.WriteBits(0, 1);      // no fraction
  c.WriteBits(0, 1);      // positive
  c.WriteBits(44, 14);    // 45
  Value d = Decode(coord, c);
  EXPECT_EQ(d.v[0], 0.0f);
  EXPECT_EQ(d.v[1], 45.0f);

  FieldDecoder precise = For("QAngle", "qangle_precise");
  EXPECT_EQ(precise.op, DecodeOp::kQAnglePrecise);
  BitWriter q;
  q.WriteBits(0b110, 3);  // y and z
  q.WriteBits(1 << 18, 20);  // a quarter turn from -180
  q.WriteBits(3 << 18, 20);  // three quarters
  Value e = Decode(precise, q);
  EXPECT_EQ(e.v[0], 0.0f);  // not sent
  EXPECT_EQ(e.v[1], -90.0f);
  EXPECT_EQ(e.v[2], 90.0f);
  BitWriter zero;
  zero.WriteBits(0b001, 3);  // x sent as 0 steps: -180
  zero.WriteBits(0, 20);
  EXPECT_EQ(Decode(precise, zero).v[0], -180.0f);
}

TEST(FieldDecoder, StringsAndBlocks) {
  EXPECT_EQ(For("char").op, DecodeOp::kString);
  EXPECT_EQ(For("CUtlSymbolLarge").op, DecodeOp::kString);
  EXPECT_EQ(For("CGlobalSymbol").op, DecodeOp::kString);
  BitWriter w;
  w.WriteString("npc_dota_hero_axe");
  EXPECT_EQ(Decode(For("CUtlString"), w).s, "npc_dota_hero_axe");
  BitWriter b;
  b.WriteVarUint32(3);
  b.WriteBytes(std::string("\0\1\2", 3));
  Value v = Decode(For("CUtlBinaryBlock"), b);
  EXPECT_EQ(v.s, std::string("\0\1\2", 3));
  // A block longer than the data is refused without reading.
  BitWriter bad;
  bad.WriteVarUint32(1000);
  BitReader r(bad.bytes().data(), bad.bytes().size());
  Value out;
  std::string scratch;
  For("CUtlBinaryBlock").Decode(&r, &out, &scratch);
  EXPECT_TRUE(r.overflowed());
}

TEST(FieldDecoder, PointersAndComponents) {
  FieldDecoder p;
  p.op = DecodeOp::kPolymorphicPointer;
  BitWriter w;
  w.WriteBool(true);
  w.WriteUBitVar(2);
  EXPECT_EQ(Decode(p, w).u, 2u);
  BitWriter n;
  n.WriteBool(false);
  n.WriteUBitVar(0);
  Value none = Decode(p, n);
  EXPECT_EQ(none.kind, ValueKind::kBool);
  EXPECT_FALSE(none.b);
  EXPECT_EQ(For("CBodyComponent").op, DecodeOp::kComponentBit);
}

}  // namespace
}  // namespace gem
