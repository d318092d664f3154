#include "core/fields/field_decoder.h"

#include <cmath>
#include <cstring>

namespace gem {
namespace {

// Largest string or binary block accepted from one field.
constexpr size_t kMaxFieldBytes = 1u << 20;

}  // namespace

// --- Quantized floats -------------------------------------------------------

QuantizedFloat QuantizedFloat::Make(uint32_t bit_count,
                                    std::optional<int32_t> flags_in,
                                    std::optional<float> low_in,
                                    std::optional<float> high_in) {
  QuantizedFloat q;
  q.bit_count = bit_count;
  q.low = low_in.value_or(0.0f);
  q.high = high_in.value_or(1.0f);
  q.flags = static_cast<uint32_t>(flags_in.value_or(0)) & 0xF;

  // Validate the flags the way the encoder does.
  if (q.flags != 0) {
    // A range ending at zero and rounded to that end encodes zero already.
    if ((q.low == 0.0f && (q.flags & kRoundDown)) ||
        (q.high == 0.0f && (q.flags & kRoundUp))) {
      q.flags &= ~kEncodeZero;
    }
    // Zero at an end of the range: encode that end exactly instead.
    if (q.low == 0.0f && (q.flags & kEncodeZero)) {
      q.flags |= kRoundDown;
      q.flags &= ~kEncodeZero;
    }
    if (q.high == 0.0f && (q.flags & kEncodeZero)) {
      q.flags |= kRoundUp;
      q.flags &= ~kEncodeZero;
    }
    // A range that does not span zero needs no zero marker.
    if (q.low > 0.0f || q.high < 0.0f) q.flags &= ~kEncodeZero;
    // Exact integers override everything else.
    if (q.flags & kEncodeIntegers) {
      q.flags &= ~(kRoundUp | kRoundDown | kEncodeZero);
    }
    // Both roundings at once is invalid; keep round-down.
    if ((q.flags & (kRoundDown | kRoundUp)) == (kRoundDown | kRoundUp)) {
      q.flags &= ~kRoundUp;
    }
  }

  uint64_t steps = uint64_t{1} << q.bit_count;
  if (q.flags & kRoundDown) {
    float range = q.high - q.low;
    q.offset = range / static_cast<float>(steps);
    q.high -= q.offset;
  } else if (q.flags & kRoundUp) {
    float range = q.high - q.low;
    q.offset = range / static_cast<float>(steps);
    q.low += q.offset;
  }

  // Untrusted send tables: an integer range past 2^30 (or NaN, or
  // infinite) cannot widen the bit count (a shift past 63, a cast of NaN);
  // such a field keeps its bits and decodes as a plain range.
  if ((q.flags & kEncodeIntegers) && !(q.high - q.low <= static_cast<float>(1u << 30))) {
    q.flags &= ~kEncodeIntegers;
  }
  if (q.flags & kEncodeIntegers) {
    float delta = q.high - q.low;
    if (delta < 1.0f) delta = 1.0f;
    double delta_log2 = std::ceil(std::log2(static_cast<double>(delta)));
    uint64_t range2 = uint64_t{1} << static_cast<unsigned>(delta_log2);
    uint32_t bc = q.bit_count;
    while ((uint64_t{1} << bc) <= range2) ++bc;
    if (bc > q.bit_count) {
      q.bit_count = bc;
      steps = uint64_t{1} << q.bit_count;
    }
    q.offset = static_cast<float>(range2) / static_cast<float>(steps);
    q.high = q.low + static_cast<float>(range2) - q.offset;
  }

  // Multipliers.
  uint32_t high_int = q.bit_count == 32 ? 0xFFFFFFFEu
                                         : static_cast<uint32_t>((uint64_t{1} << q.bit_count) - 1);
  float range = q.high - q.low;
  float high_mul = std::fabs(range) <= 0.0f ? static_cast<float>(high_int)
                                            : static_cast<float>(high_int) / range;
  auto too_big = [&](float mul) {
    float product = mul * range;
    return product > static_cast<float>(high_int) ||
           static_cast<double>(product) > static_cast<double>(high_int);
  };
  if (too_big(high_mul)) {
    // Precision trouble: back off until the product fits.
    for (float m : {0.9999f, 0.99f, 0.9f, 0.8f, 0.7f}) {
      high_mul = static_cast<float>(high_int) / range * m;
      if (!too_big(high_mul)) break;
    }
  }
  q.high_low_mul = high_mul;
  q.dec_mul = 1.0f / static_cast<float>(steps - 1);

  // Drop marker flags whose value the plain encoding reproduces anyway.
  if ((q.flags & kRoundDown) && q.Quantize(q.low) == q.low) q.flags &= ~kRoundDown;
  if ((q.flags & kRoundUp) && q.Quantize(q.high) == q.high) q.flags &= ~kRoundUp;
  if ((q.flags & kEncodeZero) && q.Quantize(0.0f) == 0.0f) q.flags &= ~kEncodeZero;
  return q;
}

float QuantizedFloat::Quantize(float value) const {
  if (value < low) return low;
  if (value > high) return high;
  // NaN, or a product past the units (an infinite span), has no units:
  // casting it would be undefined.
  const float units = (value - low) * high_low_mul;
  const uint32_t i = units >= 0.0f && units < 4294967040.0f ? static_cast<uint32_t>(units) : 0;
  return low + (high - low) * (static_cast<float>(i) * dec_mul);
}

// --- Decoding ---------------------------------------------------------------

namespace {

[[gnu::always_inline]] inline float DecodeFloat(const FieldDecoder& d, BitReader* r) {
  switch (d.float_encoding) {
    case FloatEncoding::kNoScale:
      return r->ReadFloat32();
    case FloatEncoding::kCoord:
      return r->ReadCoord();
    case FloatEncoding::kSimTime:
      return static_cast<float>(r->ReadVarUint32()) * d.tick_interval;
    case FloatEncoding::kRuneTime: {
      uint32_t bits = r->ReadBits(4);
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case FloatEncoding::kQuantized:
      return d.quantized.Decode(r);
    case FloatEncoding::kNormal:
      return r->ReadNormal();
  }
  return 0.0f;
}

void ReadBytesInto(BitReader* r, size_t n, std::string* scratch) {
  scratch->resize(n);
  r->ReadBytes(reinterpret_cast<uint8_t*>(scratch->data()), n);
}

}  // namespace

void FieldDecoder::Decode(BitReader* r, Value* out, std::string* scratch) const {
  if (DecodeCommon(r, out)) return;
  switch (op) {
    case DecodeOp::kBool:
    case DecodeOp::kUVar32:
    case DecodeOp::kSVar32:
      return;  // DecodeCommon's
    case DecodeOp::kUVar64:
      *out = Value::Uint(r->ReadVarUint64());
      return;
    case DecodeOp::kSVar64:
      *out = Value::Int(r->ReadVarInt64());
      return;
    case DecodeOp::kFixed64:
      *out = Value::Uint(r->ReadLeUint64());
      return;
    case DecodeOp::kUVar32MinusOne:
      *out = Value::Int(static_cast<int64_t>(r->ReadVarUint32()) - 1);
      return;
    case DecodeOp::kFloat:
      *out = Value::Float(DecodeFloat(*this, r));
      return;
    case DecodeOp::kVector: {
      float v[4] = {0, 0, 0, 0};
      for (int k = 0; k < count; ++k) v[k] = DecodeFloat(*this, r);
      *out = Value::Vector(v, count);
      return;
    }
    case DecodeOp::kVectorNormal: {
      float v[3];
      r->Read3BitNormal(v);
      *out = Value::Vector(v, 3);
      return;
    }
    case DecodeOp::kQAngleBits: {
      float v[3];
      for (float& c : v) c = r->ReadAngle(angle_bits);
      *out = Value::Vector(v, 3);
      return;
    }
    case DecodeOp::kQAnglePitchYaw: {
      float v[3] = {0, 0, 0};
      v[0] = r->ReadAngle(angle_bits);
      v[1] = r->ReadAngle(angle_bits);
      *out = Value::Vector(v, 3);
      return;
    }
    case DecodeOp::kQAngleCoord: {
      float v[3] = {0, 0, 0};
      bool has[3] = {r->ReadBool(), r->ReadBool(), r->ReadBool()};
      for (int k = 0; k < 3; ++k) {
        if (has[k]) v[k] = r->ReadCoord();
      }
      *out = Value::Vector(v, 3);
      return;
    }
    case DecodeOp::kQAnglePrecise: {
      // Each component sent is 20 bits of a turn, from -180 degrees: the
      // replays prove it (players run where this yaw points; read from 0
      // it points behind them). Components not sent are 0.
      float v[3] = {0, 0, 0};
      bool has[3] = {r->ReadBool(), r->ReadBool(), r->ReadBool()};
      for (int k = 0; k < 3; ++k) {
        if (has[k]) v[k] = r->ReadAngle(20) - 180.0f;
      }
      *out = Value::Vector(v, 3);
      return;
    }
    case DecodeOp::kString: {
      if (!r->ReadString(scratch, kMaxFieldBytes)) scratch->clear();
      *out = Value::String(*scratch);
      return;
    }
    case DecodeOp::kBinaryBlock: {
      uint32_t n = r->ReadVarUint32();
      if (n > r->bits_left() / 8 || n > kMaxFieldBytes) {
        r->Skip(r->bits_left() + 1);  // mark the overflow, read nothing
        scratch->clear();
      } else {
        ReadBytesInto(r, n, scratch);
      }
      *out = Value::String(*scratch);
      return;
    }
    case DecodeOp::kComponentBit:
      *out = Value::Uint(r->ReadBits(1));
      return;
    case DecodeOp::kPointer:
      *out = Value::Bool(r->ReadBool());
      return;
    case DecodeOp::kPolymorphicPointer: {
      // Presence bit, then the index of the pointee's type (0 = the field's
      // own serializer, k >= 1 = the k-th polymorphic type).
      bool present = r->ReadBool();
      uint32_t type_index = r->ReadUBitVar();
      *out = present ? Value::Uint(type_index) : Value::Bool(false);
      return;
    }
  }
}

std::string FieldDecoder::Describe() const {
  static const char* kOps[] = {
      "bool",     "uvarint32", "svarint32",  "uvarint64",   "svarint64",
      "fixed64",  "uvarint32-1", "float",    "vector",      "normal vector",
      "qangle bits", "qangle pitch/yaw", "qangle coord", "qangle precise",
      "string",   "binary block", "component bit", "pointer",
      "polymorphic pointer"};
  static const char* kFloats[] = {"noscale", "coord",     "simtime",
                                  "runetime", "quantized", "normal"};
  std::string out = kOps[static_cast<int>(op)];
  if (op == DecodeOp::kFloat || op == DecodeOp::kVector) {
    if (op == DecodeOp::kVector) out += "[" + std::to_string(count) + "]";
    out += " ";
    out += kFloats[static_cast<int>(float_encoding)];
    if (float_encoding == FloatEncoding::kQuantized) {
      out += " " + std::to_string(quantized.bit_count) + " bits";
    }
  }
  if (op == DecodeOp::kQAngleBits || op == DecodeOp::kQAnglePitchYaw) {
    out += " " + std::to_string(angle_bits) + " bits";
  }
  if (default_rule) out += " (default rule)";
  return out;
}

// --- Choosing a decoder -----------------------------------------------------

namespace {

FieldDecoder Make(DecodeOp op) {
  FieldDecoder d;
  d.op = op;
  return d;
}

// The float rules shared by float32, CNetworkedQuantizedFloat and vector
// components.
void ChooseFloatEncoding(const DecoderSpec& spec, FieldDecoder* d) {
  d->tick_interval = spec.tick_interval;
  if (spec.encoder == "coord") {
    d->float_encoding = FloatEncoding::kCoord;
  } else if (spec.encoder == "simtime" ||
             spec.var_serializer == "simulationTimeSerializer" ||
             spec.var_serializer == "animTimeSerializer") {
    d->float_encoding = FloatEncoding::kSimTime;
  } else if (spec.encoder == "runetime") {
    d->float_encoding = FloatEncoding::kRuneTime;
  } else if (spec.encoder == "normal") {
    d->float_encoding = FloatEncoding::kNormal;
  } else if (!spec.bit_count.has_value() || *spec.bit_count <= 0 ||
             *spec.bit_count >= 32) {
    d->float_encoding = FloatEncoding::kNoScale;
  } else {
    d->float_encoding = FloatEncoding::kQuantized;
    d->quantized = QuantizedFloat::Make(static_cast<uint32_t>(*spec.bit_count),
                                        spec.encode_flags, spec.low_value,
                                        spec.high_value);
  }
}

bool IsOneOf(std::string_view s, std::initializer_list<std::string_view> set) {
  for (std::string_view x : set) {
    if (s == x) return true;
  }
  return false;
}

}  // namespace

FieldDecoder SelectDecoder(const DecoderSpec& spec) {
  const std::string_view type = spec.base_type;

  // Per-serializer overrides (CS2/Deadlock name the decoding explicitly).
  if (spec.var_serializer == "minusone") return Make(DecodeOp::kUVar32MinusOne);
  // The game's own integer types.
  for (const TypeRule& r : spec.game_rules) {
    if (type == r.type) return Make(r.op);
  }

  // Simulation and animation times are tick counts on the wire whatever the
  // declared type says (Valve's demo tools override their encoding).
  if (spec.var_name == "m_flSimulationTime" || spec.var_name == "m_flAnimTime") {
    FieldDecoder d = Make(DecodeOp::kFloat);
    d.float_encoding = FloatEncoding::kSimTime;
    d.tick_interval = spec.tick_interval;
    return d;
  }

  if (type == "float32" || type == "CNetworkedQuantizedFloat") {
    FieldDecoder d = Make(DecodeOp::kFloat);
    ChooseFloatEncoding(spec, &d);
    return d;
  }
  if (IsOneOf(type, {"Vector", "VectorWS", "Vector2D", "Vector4D", "Quaternion"})) {
    uint8_t n = type == "Vector2D" ? 2 : (type == "Vector4D" || type == "Quaternion") ? 4 : 3;
    if (n == 3 && spec.encoder == "normal") return Make(DecodeOp::kVectorNormal);
    FieldDecoder d = Make(DecodeOp::kVector);
    d.count = n;
    ChooseFloatEncoding(spec, &d);
    return d;
  }
  if (type == "QAngle") {
    int bits = spec.bit_count.value_or(0);
    if (spec.encoder == "qangle_precise") return Make(DecodeOp::kQAnglePrecise);
    if (spec.encoder == "qangle_pitch_yaw") {
      FieldDecoder d = Make(DecodeOp::kQAnglePitchYaw);
      d.angle_bits = static_cast<uint8_t>(bits > 0 && bits <= 32 ? bits : 32);
      return d;
    }
    if (bits > 0 && bits <= 32) {
      FieldDecoder d = Make(DecodeOp::kQAngleBits);
      d.angle_bits = static_cast<uint8_t>(bits);
      return d;
    }
    return Make(DecodeOp::kQAngleCoord);
  }
  if (type == "uint64" || type == "CStrongHandle") {
    return Make(spec.encoder == "fixed64" ? DecodeOp::kFixed64 : DecodeOp::kUVar64);
  }
  if (type == "bool") return Make(DecodeOp::kBool);
  if (IsOneOf(type, {"int8", "int16", "int32", "CEntityIndex"})) {
    return Make(DecodeOp::kSVar32);
  }
  if (type == "int64") return Make(DecodeOp::kSVar64);
  if (IsOneOf(type, {"uint8", "uint16", "uint32", "color32", "Color", "CHandle",
                     "CEntityHandle", "CGameSceneNodeHandle",
                     "CBaseVRHandAttachmentHandle", "CUtlStringToken",
                     "WorldGroupId_t", "CPlayerSlot", "GameTick_t", "BloodType",
                     "HSequence"})) {
    return Make(DecodeOp::kUVar32);
  }
  if (IsOneOf(type, {"MatchID_t", "itemid_t", "ResourceId_t", "HeroFacetKey_t"})) {
    return Make(spec.encoder == "fixed64" ? DecodeOp::kFixed64 : DecodeOp::kUVar64);
  }
  if (type == "GameTime_t") {
    FieldDecoder d = Make(DecodeOp::kFloat);
    d.float_encoding = FloatEncoding::kNoScale;
    return d;
  }
  if (IsOneOf(type, {"char", "CUtlString", "CUtlSymbolLarge", "CGlobalSymbol"})) {
    return Make(DecodeOp::kString);
  }
  if (type == "CUtlBinaryBlock") return Make(DecodeOp::kBinaryBlock);
  if (IsOneOf(type, {"CBodyComponent", "CPhysicsComponent", "CRenderComponent"})) {
    return Make(DecodeOp::kComponentBit);
  }

  // No rule: the engine's default encoding for integers and enums.
  FieldDecoder d = Make(DecodeOp::kUVar32);
  d.default_rule = true;
  return d;
}

}  // namespace gem
