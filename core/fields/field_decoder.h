// Field decoders: how one entity field value is read from the bit stream.
//
// A decoder is chosen once per field from its declared type and the
// serializer's encoding properties (encoder name, bit count, range, flags),
// then applied to every value of that field. Decoders are plain data with a
// switch in Decode(); nothing is allocated per value (strings go to a
// caller-provided scratch buffer).
//
// The rules follow the replay format as the reference parsers read it:
// varints for integers (zigzag for signed types, 64-bit for 64-bit types),
// float32 with plain/coord/simulation-time/rune-time/quantized encodings,
// vectors of floats, normals, QAngles in every encoding, handles, strings.
// A type with no known rule is decoded as an unsigned 32-bit varint (the
// engine's default) and flagged `default_rule` so it can be counted.
#ifndef GEM_CORE_FIELDS_FIELD_DECODER_H_
#define GEM_CORE_FIELDS_FIELD_DECODER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <span>
#include <string_view>

#include "core/util/bit_reader.h"
#include "core/fields/quantized_units.h"
#include "core/fields/value.h"

namespace gem {

// Quantized float parameters, computed as Valve's encoder computes them.
struct QuantizedFloat {
  static constexpr uint32_t kRoundDown = 1u << 0;
  static constexpr uint32_t kRoundUp = 1u << 1;
  static constexpr uint32_t kEncodeZero = 1u << 2;
  static constexpr uint32_t kEncodeIntegers = 1u << 3;

  float low = 0.0f;
  float high = 1.0f;
  float high_low_mul = 0.0f;
  float dec_mul = 0.0f;
  float offset = 0.0f;
  uint32_t bit_count = 0;
  uint32_t flags = 0;  // after validation: which marker bits are read

  // bit_count must be in 1..31 (0 and >= 32 mean "no scale": plain float).
  static QuantizedFloat Make(uint32_t bit_count, std::optional<int32_t> flags,
                             std::optional<float> low,
                             std::optional<float> high);

  float Decode(BitReader* r) const {
    // The marker bits and the units, 34 bits at most: one look.
    uint64_t w = r->Peek57();
    unsigned used = 0;
    if (flags & kRoundDown) {
      if (w & 1) {
        r->Skip(1);
        return low;
      }
      w >>= 1;
      used = 1;
    }
    if (flags & kRoundUp) {
      if (w & 1) {
        r->Skip(used + 1);
        return high;
      }
      w >>= 1;
      ++used;
    }
    if (flags & kEncodeZero) {
      if (w & 1) {
        r->Skip(used + 1);
        return 0.0f;
      }
      w >>= 1;
      ++used;
    }
    r->Skip(used + bit_count);
    const uint32_t units = static_cast<uint32_t>(w & ((uint64_t{1} << bit_count) - 1));
    return QuantizedFromUnits(low, high, dec_mul, units);
  }

  // The value a float quantizes to (used to drop unneeded marker flags).
  float Quantize(float value) const;
};

enum class FloatEncoding : uint8_t {
  kNoScale,    // 32 raw bits
  kCoord,      // Source bit coordinate
  kSimTime,    // varint tick count x tick interval
  kRuneTime,   // 4 bits taken as float bits (kept for old Dota replays)
  kQuantized,  // bit_count bits over [low, high]
  kNormal,     // sign + 11-bit magnitude
};

enum class DecodeOp : uint8_t {
  kBool,
  kUVar32,
  kSVar32,
  kUVar64,
  kSVar64,
  kFixed64,
  kUVar32MinusOne,   // CS2 "minusone" serializer: varint - 1, signed
  kFloat,            // one float with `float_encoding`
  kVector,           // `count` floats with `float_encoding`
  kVectorNormal,     // 3-component unit vector, 3-bit-normal coded
  kQAngleBits,       // 3 angles of `angle_bits` bits
  kQAnglePitchYaw,   // 2 angles of `angle_bits` bits, z = 0
  kQAngleCoord,      // 3 presence bits, then bit coordinates
  kQAnglePrecise,    // 3 presence bits, then 20-bit angles from -180
  kString,           // NUL-terminated bytes
  kBinaryBlock,      // varint length, then bytes
  kComponentBit,     // one bit, as an unsigned integer
  kPointer,          // one bit: the pointee exists
  kPolymorphicPointer,  // one bit, then a ubit var type index
};

struct FieldDecoder {
  DecodeOp op = DecodeOp::kUVar32;
  FloatEncoding float_encoding = FloatEncoding::kNoScale;
  uint8_t count = 0;       // vector components
  uint8_t angle_bits = 0;  // QAngle bit count
  bool default_rule = false;  // no known rule for the type: counted
  float tick_interval = 1.0f / 30;  // for kSimTime
  QuantizedFloat quantized;

  // Reads one value. Strings are copied into *scratch and `out->s` points
  // there. Never fails: overflow shows on the reader.
  void Decode(BitReader* r, Value* out, std::string* scratch) const;
  // The same, with the commonest rules inline (for the entity decoder's
  // loop, where a call per value costs about a quarter of the value).
  void DecodeInline(BitReader* r, Value* out, std::string* scratch) const {
    if (!DecodeCommon(r, out)) Decode(r, out, scratch);
  }
  // The commonest rules (varints, bools, quantized and plain floats); false,
  // with nothing read, for the others.
  bool DecodeCommon(BitReader* r, Value* out) const {
    switch (op) {
      case DecodeOp::kUVar32:
        *out = Value::Uint(r->ReadVarUint32());
        return true;
      case DecodeOp::kSVar32:
        *out = Value::Int(r->ReadVarInt32());
        return true;
      case DecodeOp::kBool:
        *out = Value::Bool(r->ReadBool());
        return true;
      case DecodeOp::kFloat:
        if (float_encoding == FloatEncoding::kQuantized) {
          *out = Value::Float(quantized.Decode(r));
          return true;
        }
        if (float_encoding == FloatEncoding::kNoScale) {
          *out = Value::Float(r->ReadFloat32());
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  // Whether a value it reads can be a string (kString, kBinaryBlock).
  bool reads_strings() const { return op == DecodeOp::kString || op == DecodeOp::kBinaryBlock; }

  // A short description ("float32 quantized 13 bits [0,1]") for debugging.
  std::string Describe() const;
};

// What the decoder choice depends on: the serializer's description of a
// field, with the declared type already split into its base name.
// A game's own rule for an integer type that is a game's (a boxed integer
// whose signedness differs between games: HeroID_t), declared by the game's
// module (GameModule::type_rules) and consulted before the engine's rules.
struct TypeRule {
  const char* type;  // the declared base type, "HeroID_t"
  DecodeOp op;       // kSVar32, kUVar32, ...
};

struct DecoderSpec {
  std::string_view base_type;  // "float32", "CHandle", "Vector", ...
  std::span<const TypeRule> game_rules;  // checked first, by base_type
  std::string_view var_name;   // for per-field rules (simulation time)
  std::string_view encoder;    // "coord", "fixed64", "qangle_precise", ...
  std::string_view var_serializer;  // CS2 per-field serializer name
  std::optional<int32_t> bit_count;
  std::optional<float> low_value;
  std::optional<float> high_value;
  std::optional<int32_t> encode_flags;
  float tick_interval = 1.0f / 30;
};

FieldDecoder SelectDecoder(const DecoderSpec& spec);

}  // namespace gem

#endif  // GEM_CORE_FIELDS_FIELD_DECODER_H_
