// HeldChange: a field change copied out of the parser's callback, to be
// packed later on another thread (change_pipeline.h, interval_store.h).
#ifndef GEM_INDEXER_HELD_CHANGE_H_
#define GEM_INDEXER_HELD_CHANGE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/fields/value.h"

namespace gem::index {

// A change held until it is packed: the value's bits, and for a string its
// place in a side arena (values' own strings live only as long as the
// parser's callback).
struct alignas(16) HeldChange {
  int64_t tick;
  uint32_t field;
  ValueKind kind;
  uint8_t count;
  uint16_t quantizer;  // a QuantizerRegistry id, or kNone
  union {
    uint64_t u;
    float v[4];
    struct {
      uint32_t offset, size;
    } s;
  };

  // Copies `value`; its string bytes are appended to `arena`.
  void Set(uint32_t field_id, int64_t at_tick, const Value& value, uint16_t q, std::string* arena) {
    tick = at_tick;
    field = field_id;
    kind = value.kind;
    count = value.count;
    quantizer = q;
    if (value.kind == ValueKind::kString) {
      s.offset = static_cast<uint32_t>(arena->size());
      s.size = static_cast<uint32_t>(value.s.size());
      arena->append(value.s);
    } else {
      std::memcpy(v, value.v, sizeof v);
    }
  }
  // As Set, into `out`, written around the caches where the CPU can
  // (non-temporal stores): what the parser's thread copies out for another
  // thread to read later should not push its own working set (the entities'
  // states) out of the cache. The stores are ordered before a hand-over by
  // StreamFence.
  static void StreamTo(HeldChange* out, uint32_t field_id, int64_t at_tick, const Value& value,
                       uint16_t q, std::string* arena) {
#if defined(__SSE2__)
    const uint64_t head = static_cast<uint64_t>(field_id) |
                          static_cast<uint64_t>(static_cast<uint8_t>(value.kind)) << 32 |
                          static_cast<uint64_t>(value.count) << 40 | static_cast<uint64_t>(q) << 48;
    uint64_t body[2];
    if (value.kind == ValueKind::kString) {
      body[0] = static_cast<uint32_t>(arena->size()) |
                static_cast<uint64_t>(static_cast<uint32_t>(value.s.size())) << 32;
      body[1] = 0;
      arena->append(value.s);
    } else {
      std::memcpy(body, value.v, sizeof body);
    }
    auto* p = reinterpret_cast<__m128i*>(out);
    _mm_stream_si128(p, _mm_set_epi64x(static_cast<int64_t>(head), at_tick));
    _mm_stream_si128(p + 1,
                     _mm_set_epi64x(static_cast<int64_t>(body[1]), static_cast<int64_t>(body[0])));
#else
    out->Set(field_id, at_tick, value, q, arena);
#endif
  }
  // Orders the StreamTo stores before what follows (a hand-over to another
  // thread).
  static void StreamFence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
  }
  // The value, strings pointing into `arena`.
  Value Get(std::string_view arena) const {
    Value value;
    value.kind = kind;
    value.count = count;
    if (kind == ValueKind::kString) {
      value.s = arena.substr(s.offset, s.size);
    } else {
      std::memcpy(value.v, v, sizeof v);
    }
    return value;
  }
};
static_assert(sizeof(HeldChange) == 32, "a held change is copied millions of times");
// StreamTo's layout: tick, then field | kind << 32 | count << 40 |
// quantizer << 48 (little-endian), then the value's 16 bytes.
static_assert(offsetof(HeldChange, field) == 8 && offsetof(HeldChange, kind) == 12 &&
                  offsetof(HeldChange, count) == 13 && offsetof(HeldChange, quantizer) == 14 &&
                  offsetof(HeldChange, u) == 16,
              "StreamTo writes this layout");

}  // namespace gem::index

#endif  // GEM_INDEXER_HELD_CHANGE_H_
