// The storage codec of field changes: how a run of (tick, value) changes of
// one field of one entity is packed into one blob. The indexer encodes, the
// SQLite extension decodes; nothing else knows the layout.
//
// Layout, format 2 (integers are LEB128 varints unless said otherwise):
//   u8      format version (2)
//   varint  count (>= 1)
//   u8      the values' kind (ValueKind); one chunk holds one kind
//   u8      float mode, for float and vector chunks only (see below)
//   varint  byte length of the tick section
//   tick section: the count - 1 tick deltas (>= 0; the first tick is
//           stored outside the blob, in the row's start_tick column), run-
//           length coded: an even varint 2d is a delta d; an odd varint
//           2r+1 repeats the previous delta r+1 more times
//   values, each by kind:
//     none    nothing (values dropped by an array shrink)
//     bool    one byte, 0 or 1
//     int     zigzag(value - previous)           previous starts at 0
//     uint    zigzag(value - previous)           64-bit wrapping difference
//     float   the float32 bit pattern b against the previous one p (p
//             starts at 0), by the chunk's float mode:
//               0 delta   zigzag(b - p) as a signed 32-bit difference
//               1 delta of deltas   zigzag(d - previous d), d as in mode 0
//                         (previous d starts at 0; 64-bit difference)
//               2 xor     x = b ^ p; 0 when x == 0, else
//                         ((x >> t) << 5) | t with t = trailing zeros of x
//               3 quantized, delta   the value as quantizer units u (see
//                         below): zigzag(u - previous u) + 1
//               4 quantized, delta of deltas   zigzag((u - previous u) -
//                         previous (u - previous u)) + 1
//             In modes 3 and 4 a 0 is an escape: the value's 4 bytes follow
//             (little-endian bit pattern) and the unit state stays as it
//             was. The writer keeps the shorter of modes 3 and 4 for a
//             field the replay quantizes, else the shortest of 0 to 2.
//   quantizer (modes 3 and 4 only, right after the mode byte): low, high
//           and mul as float32 bit patterns (4 bytes each, little-endian);
//           units u give the float low + (high - low) * (float(u) * mul),
//           computed in float32 in that order (QuantizedFromUnits), which
//           is how replays' quantized floats decode.
//     vector  u8 component count, then each component like a float, against
//             the same component of the previous vector
//     string  varint length, bytes
// Deltas run inside one chunk only: every chunk decodes on its own.
#ifndef GEM_CORE_CODEC_CHUNK_CODEC_H_
#define GEM_CORE_CODEC_CHUNK_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/codec/varint.h"
#include "core/fields/quantized_units.h"
#include "core/fields/value.h"

namespace gem {

constexpr uint8_t kChunkFormatVersion = 2;

// A quantized float's decoding: `bits` wide units over [low, high].
struct FloatQuantizer {
  float low = 0.0f;
  float high = 1.0f;
  float mul = 0.0f;   // 1 / (2^bits - 1), as the decoder computed it
  uint32_t bits = 0;  // 1..31
};

// Builds one chunk as changes arrive. Holds the encoded ticks and values,
// floats as their bit patterns (4 bytes a value), so that many chunks can
// be open at once.
class ChunkWriter {
 public:
  bool empty() const { return count_ == 0; }
  uint32_t count() const { return count_; }
  int64_t first_tick() const { return first_tick_; }
  int64_t last_tick() const { return last_tick_; }
  ValueKind kind() const { return kind_; }
  // Bytes the blob would take now, about (to bound chunk sizes).
  size_t bytes() const { return 8 + ticks_.size() + values_.size() + float_estimate_; }

  // Whether `value` can join this chunk: same kind (any value can start an
  // empty chunk). Ticks must not decrease.
  bool Accepts(const Value& value) const { return count_ == 0 || value.kind == kind_; }
  // Float and vector values of this chunk come from a quantized decoder:
  // lets the writer store them as units. Set before the first Add of a
  // chunk (null: none).
  void SetQuantizer(const FloatQuantizer* q) {
    has_quantizer_ = q != nullptr;
    if (q != nullptr) quantizer_ = *q;
  }
  // Inline for the changes most chunks hold (every change of a field
  // goes through here): a float or an integer joining a chunk of its
  // kind; the rest takes AddSlow.
  void Add(int64_t tick, const Value& value) {
    if (count_ != 0 && value.kind == kind_) {
      if (kind_ == ValueKind::kFloat) {
        AddTick(tick);
        AddFloatBits(0, FloatBits(value.f));
        return;
      }
      if (kind_ == ValueKind::kInt || kind_ == ValueKind::kUint) {
        AddTick(tick);
        // The same 64 bits either way; the difference wraps.
        PutVarint(ZigZag(static_cast<int64_t>(value.u - prev_)), &values_);
        prev_ = value.u;
        return;
      }
    }
    AddSlow(tick, value);
  }

  // Appends the blob to `out` and empties the writer (keeping capacity).
  void Finish(std::string* out);
  // An empty writer gives its buffers back (assigning a new writer would
  // not: a moved-from short string leaves the target's buffer in place).
  void ReleaseMemory() {
    std::string().swap(ticks_);
    std::string().swap(values_);
    std::vector<uint32_t>().swap(floats_);
  }
  // Heap bytes its buffers hold (a string short enough to live inside
  // its object holds none).
  size_t heap_bytes() const {
    auto string_bytes = [](const std::string& b) {
      return b.capacity() > std::string().capacity() ? b.capacity() + 1 : 0;
    };
    return string_bytes(ticks_) + string_bytes(values_) + floats_.capacity() * sizeof(uint32_t);
  }

 private:
  // Ticks mostly advance by the same delta: a repeat only counts.
  void PutTickDelta(uint64_t delta) {
    if (count_ >= 2 && delta == last_delta_) {
      ++run_;
    } else {
      PutNewTickDelta(delta);
    }
  }
  void PutNewTickDelta(uint64_t delta);
  void AddSlow(int64_t tick, const Value& value);
  // A later change's tick (the chunk is not empty).
  void AddTick(int64_t tick) {
    PutTickDelta(static_cast<uint64_t>(tick - last_tick_));
    last_tick_ = tick;
    ++count_;
  }
  static uint32_t FloatBits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  // Floats are kept as bit patterns and encoded by Finish, in the mode
  // that turns out shortest; meanwhile the size of mode 0 (never smaller
  // than the one chosen) bounds the chunk.
  void AddFloatBits(int k, uint32_t bits) {
    floats_.push_back(bits);
    float_estimate_ += VarintLength(ZigZag(static_cast<int32_t>(bits - estimate_prev_[k])));
    estimate_prev_[k] = bits;
  }
  void FlushRun();
  static constexpr int kFloatModes = 5;
  // The bytes the floats take in each mode (one pass for all modes).
  void CostFloats(size_t cost[kFloatModes]) const;
  // Writes the floats in `mode` at `p` (room for their cost in that mode);
  // returns the end.
  char* WriteFloats(int mode, char* p) const;
  template <int kMode>
  char* WriteFloatsIn(char* p) const;
  FloatQuantizer quantizer_;
  bool has_quantizer_ = false;
  bool use_units_ = false;  // a quantizer was set when the chunk started
  uint32_t count_ = 0;
  ValueKind kind_ = ValueKind::kNone;
  int64_t first_tick_ = 0;
  int64_t last_tick_ = 0;
  uint64_t prev_ = 0;  // int / uint
  uint64_t last_delta_ = 0;  // tick delta being repeated
  uint64_t run_ = 0;         // pending repeats of last_delta_
  std::string ticks_;
  std::string values_;            // all kinds but floats and vectors
  // Floats and vectors, as bit patterns (a vector: its count, then its
  // components), encoded by Finish.
  std::vector<uint32_t> floats_;
  // Finish: floats_ as units (-1: none), in a scratch of the thread's
  // (tens of thousands of writers stay open at once; each keeping its own
  // grew with the match's length).
  int64_t* units_ = nullptr;
  size_t float_estimate_ = 0;     // their size in mode 0
  uint32_t estimate_prev_[4] = {0, 0, 0, 0};
};

// Reads a blob. Usage: Open(), then Next() until it returns false.
class ChunkReader {
 public:
  // `first_tick` is the row's start_tick. False on a malformed header.
  bool Open(std::string_view blob, int64_t first_tick);
  size_t count() const { return count_; }
  ValueKind kind() const { return kind_; }
  // The next change; strings point into the blob. False after the last one
  // or on damage (then ok() is false).
  bool Next(int64_t* tick, Value* value);
  bool ok() const { return ok_; }
  // Right after Open: the last change at or before `tick` (*at, *value),
  // building no value before it and reading nothing after it. Returns how
  // many changes are at or before the tick: 0 when none is (then *value is
  // untouched) or on damage at or before the tick (then ok() is false and
  // *at may be set). The reader is spent after it. Same answer as calling
  // Next until a change is past the tick.
  size_t LastAtOrBefore(int64_t tick, int64_t* at, Value* value);
  // Right after Open: how many changes are at or before `tick`, read from
  // the tick section alone (a run of equal deltas at once); 0 on damage
  // (then ok() is false). The reader is spent after it.
  size_t CountAtOrBefore(int64_t tick);
  // Right after Open: the tick of change `i` (< count()), read from the
  // tick section alone; false on damage or past the count. The reader is
  // spent after it.
  bool TickAt(size_t i, int64_t* tick);

 private:
  std::string_view blob_;
  size_t count_ = 0;
  size_t index_ = 0;
  size_t tick_pos_ = 0;
  size_t tick_end_ = 0;
  size_t value_pos_ = 0;
  int64_t tick_ = 0;
  uint64_t delta_ = 0;
  uint64_t repeats_ = 0;
  ValueKind kind_ = ValueKind::kNone;
  uint8_t float_mode_ = 0;
  bool ok_ = true;
  uint64_t prev_ = 0;
  uint32_t prev_bits_[4] = {0, 0, 0, 0};
  int64_t prev_delta_[4] = {0, 0, 0, 0};
  float q_low_ = 0, q_high_ = 0, q_mul_ = 0;
  int64_t prev_units_[4] = {0, 0, 0, 0};

  // The next float of a component into *bits; without kWant the bits of
  // quantized units may be left unset (a value skipped).
  template <bool kWant>
  bool NextFloat(int component, uint32_t* bits);
  // Moves tick_ to change index_'s tick.
  bool StepTick();
  // Decodes the next value into *value; without kWant it only moves past
  // it (value may be null).
  template <bool kWant>
  bool StepValue(Value* value);
  // Counts the changes at or before `tick` (tick_ left at the last one's
  // tick), for CountAtOrBefore and LastAtOrBefore.
  size_t CountTicks(int64_t tick);
  // Moves past `n` values.
  bool SkipValues(size_t n);
};

}  // namespace gem

#endif  // GEM_CORE_CODEC_CHUNK_CODEC_H_
