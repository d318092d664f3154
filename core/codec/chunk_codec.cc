#include "core/codec/chunk_codec.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/codec/varint.h"

namespace gem {
namespace {

uint32_t FloatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float BitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

int TrailingZeros(uint32_t x) { return x == 0 ? 0 : __builtin_ctz(x); }

// a + b, wrapping: a damaged blob can make a reader's running sums
// overflow, which must not be undefined behaviour (valid blobs never do).
int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// The units u with QuantizedFromUnits(u) == a float, bit for bit, for one
// chunk's quantizer (what it needs computed once: every float of the chunk
// goes through Units).
class UnitMapper {
 public:
  explicit UnitMapper(const FloatQuantizer& q)
      : q_(q),
        max_units_(static_cast<double>((uint64_t{1} << q.bits) - 1)),
        range_ok_(static_cast<double>(q.high) - q.low > 0),
        scale_(range_ok_ ? max_units_ / (static_cast<double>(q.high) - q.low) : 0) {}

  // False when there are none (a value the quantizer cannot give).
  bool Units(uint32_t bits, int64_t* units) const {
    const float v = BitsFloat(bits);
    if (!range_ok_ || !std::isfinite(v)) return false;
    const double x = (static_cast<double>(v) - q_.low) * scale_;
    if (!(x > -1 && x < max_units_ + 1)) return false;  // no units near it
    // Rounded by hand, no libm call: a guess one off either way (the
    // scale's own rounding) is tried next.
    const int64_t guess = static_cast<int64_t>(x + 0.5);  // x + 0.5 > -0.5
    for (int64_t u : {guess, guess - 1, guess + 1}) {
      if (u < 0 || static_cast<double>(u) > max_units_) continue;
      const uint32_t k = static_cast<uint32_t>(u);
      if (FloatBits(QuantizedFromUnits(q_.low, q_.high, q_.mul, k)) == bits) {
        *units = k;
        return true;
      }
    }
    return false;
  }

 private:
  FloatQuantizer q_;
  double max_units_;
  bool range_ok_;
  double scale_;
};

}  // namespace

void ChunkWriter::PutNewTickDelta(uint64_t delta) {
  FlushRun();
  PutVarint(delta << 1, &ticks_);
  last_delta_ = delta;
}

void ChunkWriter::FlushRun() {
  if (run_ == 0) return;
  PutVarint(((run_ - 1) << 1) | 1, &ticks_);
  run_ = 0;
}

namespace {

// The xor mode's code for x = bits ^ previous bits.
uint64_t XorCode(uint32_t x) {
  const int t = TrailingZeros(x);
  return x == 0 ? 0 : ((static_cast<uint64_t>(x >> t) << 5) | static_cast<uint64_t>(t));
}

// What one float stream remembers of its previous value, in every mode.
// A stream is a float chunk's values, or one component of a vector
// chunk's values.
struct FloatStream {
  uint32_t prev = 0;
  int64_t prev_delta = 0;
  int64_t prev_units = 0;
  int64_t prev_units_delta = 0;
};

// Calls visit(k, bits, at) for each float of a chunk in order (k: the
// stream, at: the float's index in `floats`), and count(n) for each
// vector's component count.
template <typename Visit, typename Count>
void ForEachFloat(ValueKind kind, const std::vector<uint32_t>& floats, Visit visit, Count count) {
  if (kind == ValueKind::kFloat) {
    for (size_t i = 0; i < floats.size(); ++i) visit(0, floats[i], i);
    return;
  }
  for (size_t i = 0; i < floats.size();) {
    const uint32_t n = floats[i++];
    count(n);
    for (uint32_t k = 0; k < n && k < 4; ++k, ++i) visit(static_cast<int>(k), floats[i], i);
  }
}

}  // namespace

void ChunkWriter::CostFloats(size_t cost[kFloatModes]) const {
  FloatStream streams[4];
  for (int m = 0; m < kFloatModes; ++m) cost[m] = 0;
  const bool units = use_units_;
  ForEachFloat(
      kind_, floats_,
      [&](int k, uint32_t bits, size_t at) __attribute__((always_inline)) {
        FloatStream& s = streams[k];
        if (!units) {
          const int64_t delta = static_cast<int32_t>(bits - s.prev);
          cost[0] += VarintLength(ZigZag(delta));
          cost[1] += VarintLength(ZigZag(delta - s.prev_delta));
          cost[2] += VarintLength(XorCode(bits ^ s.prev));
          s.prev = bits;
          s.prev_delta = delta;
          return;
        }
        const int64_t u = units_[at];
        if (u < 0) {  // escaped: the unit state stays
          cost[3] += 5;
          cost[4] += 5;
          return;
        }
        const int64_t du = u - s.prev_units;
        cost[3] += VarintLength(ZigZag(du) + 1);
        cost[4] += VarintLength(ZigZag(du - s.prev_units_delta) + 1);
        s.prev_units = u;
        s.prev_units_delta = du;
      },
      [&](uint32_t) {
        for (int m = 0; m < kFloatModes; ++m) ++cost[m];
      });
}

char* ChunkWriter::WriteFloats(int mode, char* p) const {
  // One loop per mode: the mode is the chunk's, not each float's.
  switch (mode) {
    case 0: return WriteFloatsIn<0>(p);
    case 1: return WriteFloatsIn<1>(p);
    case 2: return WriteFloatsIn<2>(p);
    case 3: return WriteFloatsIn<3>(p);
    default: return WriteFloatsIn<4>(p);
  }
}

template <int kMode>
char* ChunkWriter::WriteFloatsIn(char* p) const {
  constexpr int mode = kMode;
  FloatStream streams[4];
  ForEachFloat(
      kind_, floats_,
      [&](int k, uint32_t bits, size_t at) __attribute__((always_inline)) {
        FloatStream& s = streams[k];
        const int64_t delta = static_cast<int32_t>(bits - s.prev);
        uint64_t code = 0;
        switch (mode) {
          case 0:
            code = ZigZag(delta);
            break;
          case 1:
            code = ZigZag(delta - s.prev_delta);
            break;
          case 2:
            code = XorCode(bits ^ s.prev);
            break;
          default: {
            const int64_t u = units_[at];
            if (u < 0) {
              *p++ = 0;  // escape, then the bit pattern
              for (int i = 0; i < 4; ++i) *p++ = static_cast<char>(bits >> (8 * i));
              s.prev = bits;
              s.prev_delta = delta;
              return;
            }
            const int64_t du = u - s.prev_units;
            code = ZigZag(mode == 3 ? du : du - s.prev_units_delta) + 1;
            s.prev_units = u;
            s.prev_units_delta = du;
            break;
          }
        }
        s.prev = bits;
        s.prev_delta = delta;
        p = WriteVarint(code, p);
      },
      [&](uint32_t n) { *p++ = static_cast<char>(n); });
  return p;
}

void ChunkWriter::AddSlow(int64_t tick, const Value& value) {
  if (count_ == 0) {
    kind_ = value.kind;
    first_tick_ = tick;
    last_tick_ = tick;
    count_ = 1;
    prev_ = 0;
    run_ = 0;
    float_estimate_ = 0;
    std::memset(estimate_prev_, 0, sizeof estimate_prev_);
    use_units_ = has_quantizer_ && quantizer_.bits >= 1 && quantizer_.bits <= 31 &&
                 (value.kind == ValueKind::kFloat || value.kind == ValueKind::kVector);
  } else {
    AddTick(tick);
  }
  switch (value.kind) {
    case ValueKind::kNone:
      break;
    case ValueKind::kBool:
      values_.push_back(value.b ? 1 : 0);
      break;
    case ValueKind::kInt:
    case ValueKind::kUint:
      // The same 64 bits either way; the difference wraps.
      PutVarint(ZigZag(static_cast<int64_t>(value.u - prev_)), &values_);
      prev_ = value.u;
      break;
    case ValueKind::kFloat:
      AddFloatBits(0, FloatBits(value.f));
      break;
    case ValueKind::kVector:
      floats_.push_back(value.count);
      ++float_estimate_;
      for (int k = 0; k < value.count && k < 4; ++k) AddFloatBits(k, FloatBits(value.v[k]));
      break;
    case ValueKind::kString:
      PutVarint(value.s.size(), &values_);
      values_.append(value.s);
      break;
  }
}

void ChunkWriter::Finish(std::string* out) {
  FlushRun();
  out->push_back(static_cast<char>(kChunkFormatVersion));
  PutVarint(count_, out);
  out->push_back(static_cast<char>(kind_));
  if (kind_ == ValueKind::kFloat || kind_ == ValueKind::kVector) {
    size_t cost[kFloatModes];
    if (use_units_) {
      // Units once per float (a vector's count slots get -1, unused).
      static thread_local std::vector<int64_t> scratch;
      if (scratch.size() < floats_.size()) scratch.resize(floats_.size());
      units_ = scratch.data();
      const UnitMapper mapper(quantizer_);
      if (kind_ == ValueKind::kFloat) {
        // Most chunks: one stream of floats, costed as their units are
        // found (CostFloats' modes 3 and 4, in the same pass).
        cost[3] = cost[4] = 0;
        int64_t prev = 0, prev_delta = 0;
        for (size_t i = 0; i < floats_.size(); ++i) {
          int64_t u;
          if (!mapper.Units(floats_[i], &u)) {
            units_[i] = -1;
            cost[3] += 5;
            cost[4] += 5;
            continue;
          }
          units_[i] = u;
          const int64_t du = u - prev;
          cost[3] += VarintLength(ZigZag(du) + 1);
          cost[4] += VarintLength(ZigZag(du - prev_delta) + 1);
          prev = u;
          prev_delta = du;
        }
      } else {
        for (size_t i = 0; i < floats_.size(); ++i) {
          int64_t u;
          units_[i] = mapper.Units(floats_[i], &u) ? u : -1;
        }
        CostFloats(cost);
      }
    } else {
      CostFloats(cost);
    }
    // A quantized field's floats are stored as units (modes 3 and 4),
    // else as bit patterns (0 to 2). Trying the bit patterns too for
    // quantized fields won 1,555 of 25,685 such chunks of the 30-minute
    // synthetic replay, 12.7 KB in all (0.03% of its index), for twice
    // the costing.
    int best = 0;
    size_t best_cost = SIZE_MAX;
    for (int m = use_units_ ? 3 : 0; m < (use_units_ ? kFloatModes : 3); ++m) {
      const size_t with_quantizer = cost[m] + (m >= 3 ? 12 : 0);
      if (with_quantizer < best_cost) best = m, best_cost = with_quantizer;
    }
    out->push_back(static_cast<char>(best));
    if (best >= 3) {
      for (float f : {quantizer_.low, quantizer_.high, quantizer_.mul}) {
        const uint32_t b = FloatBits(f);
        for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(b >> (8 * i)));
      }
    }
    PutVarint(ticks_.size(), out);
    out->append(ticks_);
    // The size is known: write in place.
    const size_t at = out->size();
    out->resize(at + cost[best]);
    char* end = WriteFloats(best, out->data() + at);
    out->resize(static_cast<size_t>(end - out->data()));
  } else {
    PutVarint(ticks_.size(), out);
    out->append(ticks_);
    out->append(values_);
  }
  ticks_.clear();
  values_.clear();
  floats_.clear();
  units_ = nullptr;
  count_ = 0;
}

bool ChunkReader::Open(std::string_view blob, int64_t first_tick) {
  *this = ChunkReader();
  blob_ = blob;
  size_t pos = 1;
  uint64_t count, tick_bytes;
  if (blob.empty() || static_cast<uint8_t>(blob[0]) != kChunkFormatVersion ||
      !GetVarint(blob, &pos, &count) || count == 0 || count > (blob.size() + 4) * 64 ||
      pos >= blob.size()) {
    return ok_ = false;
  }
  uint8_t kind = static_cast<uint8_t>(blob[pos++]);
  if (kind > static_cast<uint8_t>(ValueKind::kString)) return ok_ = false;
  kind_ = static_cast<ValueKind>(kind);
  if (kind_ == ValueKind::kFloat || kind_ == ValueKind::kVector) {
    if (pos >= blob.size()) return ok_ = false;
    float_mode_ = static_cast<uint8_t>(blob[pos++]);
    if (float_mode_ > 4) return ok_ = false;
    if (float_mode_ >= 3) {
      if (blob.size() - pos < 12) return ok_ = false;
      float* params[] = {&q_low_, &q_high_, &q_mul_};
      for (float* f : params) {
        uint32_t b = 0;
        for (int i = 0; i < 4; ++i) b |= static_cast<uint32_t>(static_cast<uint8_t>(blob[pos++])) << (8 * i);
        *f = BitsFloat(b);
      }
    }
  }
  if (!GetVarint(blob, &pos, &tick_bytes) || tick_bytes > blob.size() - pos) return ok_ = false;
  count_ = static_cast<size_t>(count);
  tick_pos_ = pos;
  tick_end_ = pos + static_cast<size_t>(tick_bytes);
  value_pos_ = tick_end_;
  tick_ = first_tick;
  return true;
}

template <bool kWant>
bool ChunkReader::NextFloat(int k, uint32_t* bits) {
  uint64_t raw;
  if (!GetVarint(blob_, &value_pos_, &raw)) return false;
  if (float_mode_ >= 3) {
    if (raw == 0) {  // escape: the bit pattern follows
      if (blob_.size() - value_pos_ < 4) return false;
      uint32_t b = 0;
      for (int i = 0; i < 4; ++i) b |= static_cast<uint32_t>(static_cast<uint8_t>(blob_[value_pos_++])) << (8 * i);
      *bits = b;
      return true;
    }
    const int64_t d = UnZigZag(raw - 1);
    prev_delta_[k] = float_mode_ == 3 ? d : WrapAdd(prev_delta_[k], d);
    prev_units_[k] = WrapAdd(prev_units_[k], prev_delta_[k]);
    if (prev_units_[k] < 0 || prev_units_[k] > int64_t{0x7FFFFFFF}) return false;
    // Skipped, a value's units are all the next one needs.
    if constexpr (kWant) {
      *bits = FloatBits(QuantizedFromUnits(q_low_, q_high_, q_mul_,
                                           static_cast<uint32_t>(prev_units_[k])));
    }
    return true;
  }
  switch (float_mode_) {
    case 0:
      prev_delta_[k] = UnZigZag(raw);
      break;
    case 1:
      prev_delta_[k] = WrapAdd(prev_delta_[k], UnZigZag(raw));
      break;
    default: {
      const uint32_t t = static_cast<uint32_t>(raw & 31);
      const uint64_t x = raw == 0 ? 0 : (raw >> 5) << t;
      if (x > UINT32_MAX) return false;
      prev_bits_[k] ^= static_cast<uint32_t>(x);
      *bits = prev_bits_[k];
      return true;
    }
  }
  prev_bits_[k] += static_cast<uint32_t>(prev_delta_[k]);
  *bits = prev_bits_[k];
  return true;
}

bool ChunkReader::StepTick() {
  if (index_ == 0) return true;  // the first tick is the row's
  if (repeats_ > 0) {
    --repeats_;
  } else {
    if (tick_pos_ >= tick_end_) return ok_ = false;
    uint64_t v;
    if (!GetVarint(blob_.substr(0, tick_end_), &tick_pos_, &v)) return ok_ = false;
    if (v & 1) {
      if (index_ < 2) return ok_ = false;  // nothing to repeat yet
      repeats_ = v >> 1;                   // this one is the first repeat
    } else {
      delta_ = v >> 1;
    }
  }
  // Ticks past int64 are damage, not a wrap.
  if (delta_ > static_cast<uint64_t>(INT64_MAX) ||
      __builtin_add_overflow(tick_, static_cast<int64_t>(delta_), &tick_)) {
    return ok_ = false;
  }
  return true;
}

template <bool kWant>
bool ChunkReader::StepValue(Value* value) {
  uint64_t raw;
  uint32_t bits = 0;
  switch (kind_) {
    case ValueKind::kNone:
      if constexpr (kWant) *value = Value::None();
      break;
    case ValueKind::kBool:
      if (value_pos_ >= blob_.size()) return ok_ = false;
      if constexpr (kWant) *value = Value::Bool(blob_[value_pos_] != 0);
      ++value_pos_;
      break;
    case ValueKind::kInt:
      if (!GetVarint(blob_, &value_pos_, &raw)) return ok_ = false;
      prev_ += static_cast<uint64_t>(UnZigZag(raw));
      if constexpr (kWant) *value = Value::Int(static_cast<int64_t>(prev_));
      break;
    case ValueKind::kUint:
      if (!GetVarint(blob_, &value_pos_, &raw)) return ok_ = false;
      prev_ += static_cast<uint64_t>(UnZigZag(raw));
      if constexpr (kWant) *value = Value::Uint(prev_);
      break;
    case ValueKind::kFloat:
      if (!NextFloat<kWant>(0, &bits)) return ok_ = false;
      if constexpr (kWant) *value = Value::Float(BitsFloat(bits));
      break;
    case ValueKind::kVector: {
      if (value_pos_ >= blob_.size()) return ok_ = false;
      uint8_t n = static_cast<uint8_t>(blob_[value_pos_++]);
      if (n > 4) return ok_ = false;
      float v[4] = {0, 0, 0, 0};
      for (int k = 0; k < n; ++k) {
        if (!NextFloat<kWant>(k, &bits)) return ok_ = false;
        v[k] = BitsFloat(bits);
      }
      if constexpr (kWant) *value = Value::Vector(v, n);
      break;
    }
    case ValueKind::kString:
      if (!GetVarint(blob_, &value_pos_, &raw) || raw > blob_.size() - value_pos_) {
        return ok_ = false;
      }
      if constexpr (kWant) *value = Value::String(blob_.substr(value_pos_, raw));
      value_pos_ += raw;
      break;
  }
  return true;
}

bool ChunkReader::Next(int64_t* tick, Value* value) {
  if (!ok_ || index_ >= count_) return false;
  if (!StepTick()) return false;
  *tick = tick_;
  if (!StepValue<true>(value)) return false;
  ++index_;
  return true;
}

size_t ChunkReader::CountTicks(int64_t tick) {
  if (tick_ > tick) return 0;  // the first change is past it
  size_t n = 1;
  index_ = 1;
  while (index_ < count_) {
    if (repeats_ > 0) {
      // A run of one delta: as many of its changes as fit, at once.
      // tick_ <= tick here; a damaged start tick may put them further
      // apart than int64 spans, so the distance is taken unsigned.
      const uint64_t room = static_cast<uint64_t>(tick) - static_cast<uint64_t>(tick_);
      uint64_t fit = repeats_;
      if (delta_ > 0) fit = std::min<uint64_t>(fit, room / delta_);
      fit = std::min<uint64_t>(fit, count_ - index_);
      // fit * delta_ <= room: the tick stays at most `tick`.
      tick_ = static_cast<int64_t>(static_cast<uint64_t>(tick_) + fit * delta_);
      repeats_ -= fit;
      index_ += fit;
      n += fit;
      if (repeats_ > 0 && index_ < count_) break;  // the next one is past the tick
      continue;
    }
    // A one-byte delta (an even varint below 0x80: most are) that stays at
    // or before the tick is taken here; any other, and the one past the
    // tick, through StepTick, which checks everything.
    if (tick_pos_ < tick_end_) {
      const uint8_t b = static_cast<uint8_t>(blob_[tick_pos_]);
      const uint64_t room = static_cast<uint64_t>(tick) - static_cast<uint64_t>(tick_);
      if ((b & 0x81) == 0 && (b >> 1) <= room) {
        ++tick_pos_;
        delta_ = b >> 1;
        tick_ += static_cast<int64_t>(delta_);  // at most `tick`
        ++index_;
        ++n;
        continue;
      }
    }
    const int64_t before = tick_;
    if (!StepTick()) return 0;
    if (tick_ > tick) {
      tick_ = before;
      break;
    }
    ++index_;
    ++n;
  }
  return n;
}

bool ChunkReader::SkipValues(size_t n) {
  // StepValue's own decoding, building nothing (one layout, one reader).
  for (size_t i = 0; i < n; ++i) {
    if (!StepValue<false>(nullptr)) return false;
  }
  return true;
}

size_t ChunkReader::LastAtOrBefore(int64_t tick, int64_t* at, Value* value) {
  if (!ok_ || index_ != 0 || count_ == 0) return 0;
  // The ticks have their own section: count the changes at or before the
  // tick there first (a run of equal deltas at once), then move through
  // the values before the last one without building them.
  const size_t n = CountTicks(tick);
  index_ = count_;  // spent
  if (!ok_ || n == 0) return 0;
  *at = tick_;
  if (!SkipValues(n - 1)) return ok_ = false;
  if (!StepValue<true>(value)) return 0;
  return n;
}

size_t ChunkReader::CountAtOrBefore(int64_t tick) {
  if (!ok_ || index_ != 0 || count_ == 0) return 0;
  const size_t n = CountTicks(tick);
  index_ = count_;  // spent
  return ok_ ? n : 0;
}

bool ChunkReader::TickAt(size_t i, int64_t* tick) {
  if (!ok_ || index_ != 0 || i >= count_) return false;
  for (index_ = 1; index_ <= i; ++index_) {
    if (!StepTick()) return false;
  }
  index_ = count_;  // spent
  *tick = tick_;
  return true;
}

}  // namespace gem
