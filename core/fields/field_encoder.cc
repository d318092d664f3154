#include "core/fields/field_encoder.h"

#include <cmath>
#include <cstring>
#include <string>

#include "core/util/bit_reader.h"

namespace gem {
namespace {

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

void WriteCoord(float v, BitWriter* w) {
  // Integer part (14 bits, stored minus one) and a 5-bit fraction.
  const bool negative = std::signbit(v);
  if (v == 0.0f && negative) {
    // -0: a fraction of zero with the sign set.
    w->WriteBits(0, 1);
    w->WriteBits(1, 1);
    w->WriteBool(true);
    w->WriteBits(0, 5);
    return;
  }
  double a = std::fabs(static_cast<double>(v));
  uint32_t scaled = static_cast<uint32_t>(std::lround(a * 32));
  uint32_t int_part = scaled >> 5;
  uint32_t fract = scaled & 31;
  if (int_part > (1u << 14)) {
    int_part = 1u << 14;
    fract = 31;
  }
  w->WriteBits(int_part != 0, 1);
  w->WriteBits(fract != 0, 1);
  if (int_part == 0 && fract == 0) return;
  w->WriteBool(negative);
  if (int_part) w->WriteBits(int_part - 1, 14);
  if (fract) w->WriteBits(fract, 5);
}

void WriteAngle(float degrees, unsigned n, BitWriter* w) {
  double turns = static_cast<double>(degrees) / 360.0;
  turns -= std::floor(turns);
  uint64_t steps = uint64_t{1} << n;
  uint64_t u = static_cast<uint64_t>(std::llround(turns * static_cast<double>(steps))) % steps;
  w->WriteBits(u, n);
}

// The quantized integer whose decoding is closest to `value`.
uint32_t QuantizedStep(const QuantizedFloat& q, float value) {
  const uint64_t max = (uint64_t{1} << q.bit_count) - 1;
  double range = static_cast<double>(q.high) - static_cast<double>(q.low);
  double guess = range != 0 ? (static_cast<double>(value) - q.low) / range * max : 0;
  int64_t center = std::llround(guess);
  uint32_t best = 0;
  double best_err = INFINITY;
  for (int64_t u = center - 2; u <= center + 2; ++u) {
    if (u < 0 || static_cast<uint64_t>(u) > max) continue;
    float decoded = q.low + (q.high - q.low) * (static_cast<float>(u) * q.dec_mul);
    double err = std::fabs(static_cast<double>(decoded) - value);
    if (err < best_err) {
      best_err = err;
      best = static_cast<uint32_t>(u);
    }
  }
  if (best_err == INFINITY) best = value <= q.low ? 0 : static_cast<uint32_t>(max);
  return best;
}

void WriteQuantized(const QuantizedFloat& q, float value, BitWriter* w) {
  using Q = QuantizedFloat;
  if (q.flags & Q::kRoundDown) {
    bool is_low = value <= q.low;
    w->WriteBool(is_low);
    if (is_low) return;
  }
  if (q.flags & Q::kRoundUp) {
    bool is_high = value >= q.high;
    w->WriteBool(is_high);
    if (is_high) return;
  }
  if (q.flags & Q::kEncodeZero) {
    bool zero = value == 0.0f;
    w->WriteBool(zero);
    if (zero) return;
  }
  w->WriteBits(QuantizedStep(q, value), q.bit_count);
}

void WriteNormal(float v, BitWriter* w) {
  w->WriteBool(std::signbit(v));
  double m = std::min(1.0, std::fabs(static_cast<double>(v)));
  w->WriteBits(static_cast<uint32_t>(std::lround(m * 2047)), 11);
}

}  // namespace

void EncodeFloat(const FieldDecoder& d, float value, BitWriter* w) {
  switch (d.float_encoding) {
    case FloatEncoding::kNoScale:
      w->WriteFloat32(value);
      return;
    case FloatEncoding::kCoord:
      WriteCoord(value, w);
      return;
    case FloatEncoding::kSimTime: {
      double ticks = d.tick_interval > 0 ? value / d.tick_interval : 0;
      w->WriteVarUint32(static_cast<uint32_t>(std::max<long long>(0, std::llround(ticks))));
      return;
    }
    case FloatEncoding::kRuneTime:
      w->WriteBits(Bits(value) & 15, 4);
      return;
    case FloatEncoding::kQuantized:
      WriteQuantized(d.quantized, value, w);
      return;
    case FloatEncoding::kNormal:
      WriteNormal(value, w);
      return;
  }
}

bool EncodeField(const FieldDecoder& d, const Value& v, BitWriter* w) {
  switch (d.op) {
    case DecodeOp::kBool:
    case DecodeOp::kPointer:
      if (v.kind != ValueKind::kBool) return false;
      w->WriteBool(v.b);
      return true;
    case DecodeOp::kUVar32:
      if (v.kind != ValueKind::kUint) return false;
      w->WriteVarUint32(static_cast<uint32_t>(v.u));
      return true;
    case DecodeOp::kSVar32:
      if (v.kind != ValueKind::kInt) return false;
      w->WriteVarInt32(static_cast<int32_t>(v.i));
      return true;
    case DecodeOp::kUVar64:
      if (v.kind != ValueKind::kUint) return false;
      w->WriteVarUint64(v.u);
      return true;
    case DecodeOp::kSVar64:
      if (v.kind != ValueKind::kInt) return false;
      w->WriteVarInt64(v.i);
      return true;
    case DecodeOp::kFixed64:
      if (v.kind != ValueKind::kUint) return false;
      w->WriteBits(v.u, 64);
      return true;
    case DecodeOp::kUVar32MinusOne:
      if (v.kind != ValueKind::kInt) return false;
      w->WriteVarUint32(static_cast<uint32_t>(v.i + 1));
      return true;
    case DecodeOp::kFloat:
      if (v.kind != ValueKind::kFloat) return false;
      EncodeFloat(d, v.f, w);
      return true;
    case DecodeOp::kVector:
      if (v.kind != ValueKind::kVector || v.count != d.count) return false;
      for (int k = 0; k < d.count; ++k) EncodeFloat(d, v.v[k], w);
      return true;
    case DecodeOp::kVectorNormal: {
      if (v.kind != ValueKind::kVector || v.count != 3) return false;
      // A component is sent when it is not +0 (-0 is sent: it has a sign).
      bool has_x = v.v[0] != 0.0f || std::signbit(v.v[0]);
      bool has_y = v.v[1] != 0.0f || std::signbit(v.v[1]);
      w->WriteBool(has_x);
      w->WriteBool(has_y);
      if (has_x) WriteNormal(v.v[0], w);
      if (has_y) WriteNormal(v.v[1], w);
      w->WriteBool(std::signbit(v.v[2]));
      return true;
    }
    case DecodeOp::kQAngleBits:
      if (v.kind != ValueKind::kVector || v.count != 3) return false;
      for (int k = 0; k < 3; ++k) WriteAngle(v.v[k], d.angle_bits, w);
      return true;
    case DecodeOp::kQAnglePitchYaw:
      if (v.kind != ValueKind::kVector || v.count != 3) return false;
      WriteAngle(v.v[0], d.angle_bits, w);
      WriteAngle(v.v[1], d.angle_bits, w);
      return true;
    case DecodeOp::kQAngleCoord:
    case DecodeOp::kQAnglePrecise: {
      if (v.kind != ValueKind::kVector || v.count != 3) return false;
      auto sent = [&](int k) { return v.v[k] != 0.0f || std::signbit(v.v[k]); };
      for (int k = 0; k < 3; ++k) w->WriteBool(sent(k));
      for (int k = 0; k < 3; ++k) {
        if (!sent(k)) continue;
        if (d.op == DecodeOp::kQAngleCoord) WriteCoord(v.v[k], w);
        else WriteAngle(v.v[k] + 180.0f, 20, w);  // precise angles count from -180
      }
      return true;
    }
    case DecodeOp::kString:
      if (v.kind != ValueKind::kString || v.s.find('\0') != std::string_view::npos) return false;
      w->WriteString(v.s);
      return true;
    case DecodeOp::kBinaryBlock:
      if (v.kind != ValueKind::kString) return false;
      w->WriteVarUint32(static_cast<uint32_t>(v.s.size()));
      w->WriteBytes(v.s);
      return true;
    case DecodeOp::kComponentBit:
      if (v.kind != ValueKind::kUint) return false;
      w->WriteBits(v.u & 1, 1);
      return true;
    case DecodeOp::kPolymorphicPointer:
      if (v.kind == ValueKind::kBool && !v.b) {
        w->WriteBool(false);
        w->WriteUBitVar(0);
        return true;
      }
      if (v.kind != ValueKind::kUint) return false;
      w->WriteBool(true);
      w->WriteUBitVar(static_cast<uint32_t>(v.u));
      return true;
  }
  return false;
}

Value RepresentableValue(const FieldDecoder& d, const Value& v) {
  if (v.kind == ValueKind::kString) return v;  // strings are written as they are
  BitWriter w;
  if (!EncodeField(d, v, &w)) return v;
  BitReader r(w.bytes().data(), w.bytes().size());
  Value out;
  static thread_local std::string scratch;
  d.Decode(&r, &out, &scratch);
  return out;
}

}  // namespace gem
