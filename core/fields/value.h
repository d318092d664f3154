// Value: one decoded field value, as the decoders produce it.
//
// Kinds follow what the wire carries, not the declared C type: every
// varint-coded unsigned type is kUint (uint64), every signed one kInt
// (int64), floats are float32, vectors and angles hold 2-4 float32
// components, strings are bytes. A Value's string_view points into storage
// owned by whoever produced it (a decoder's scratch buffer or a field state
// slot) and is valid only until that owner changes it.
#ifndef GEM_CORE_FIELDS_VALUE_H_
#define GEM_CORE_FIELDS_VALUE_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gem {

enum class ValueKind : uint8_t {
  kNone = 0,  // no value (never sent, or dropped)
  kBool,
  kInt,
  kUint,
  kFloat,
  kVector,  // `count` float32 components (2, 3 or 4)
  kString,
};

const char* ValueKindName(ValueKind kind);

struct Value {
  ValueKind kind = ValueKind::kNone;
  uint8_t count = 0;  // vector components
  union {
    bool b;
    int64_t i;
    uint64_t u;
    float f;
    float v[4];
  };
  std::string_view s;

  Value() : v{0, 0, 0, 0} {}

  static Value None() { return Value(); }
  static Value Bool(bool x) { return Bits(ValueKind::kBool, 0, x ? 1 : 0, 0); }
  static Value Int(int64_t x) { return Bits(ValueKind::kInt, 0, static_cast<uint64_t>(x), 0); }
  static Value Uint(uint64_t x) { return Bits(ValueKind::kUint, 0, x, 0); }
  static Value Float(float x) {
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    return Bits(ValueKind::kFloat, 0, bits, 0);
  }
  static Value Vector(const float* xs, int n) {
    float v[4] = {0, 0, 0, 0};
    for (int k = 0; k < n; ++k) v[k] = xs[k];
    uint64_t w[2];
    std::memcpy(w, v, 16);
    return Bits(ValueKind::kVector, static_cast<uint8_t>(n), w[0], w[1]);
  }
  static Value String(std::string_view x) {
    Value r;
    r.kind = ValueKind::kString;
    r.s = x;
    return r;
  }

  bool is_none() const { return kind == ValueKind::kNone; }

  // A value from its 16 bytes of payload (little-endian lanes), written
  // in one piece: a decoded value is copied on at once (into the change
  // list and the entity's state), and a copy that reads back what several
  // narrower writes just wrote waits on them.
  // (Left to itself the compiler writes a constant upper half as a store
  // of its own, and the copy that reads 16 bytes back waits on both: a
  // fifth of the entity decoder's time. One 16-byte store it is.)
  static Value Bits(ValueKind k, uint8_t n, uint64_t lo, uint64_t hi) {
    Value r;
    r.kind = k;
    r.count = n;
#if defined(__SSE2__)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(r.v),
                     _mm_set_epi64x(static_cast<int64_t>(hi), static_cast<int64_t>(lo)));
#else
    const uint64_t w[2] = {lo, hi};
    std::memcpy(r.v, w, 16);
#endif
    return r;
  }

  // Exact equality: same kind, same bits (floats compared bitwise, so NaN
  // equals itself and -0 differs from +0: a change is a change).
  bool SameAs(const Value& o) const;

  // JSON text: null, true/false, integers, shortest round-trip float32,
  // [x,y,z] for vectors, quoted escaped strings.
  void AppendJson(std::string* out) const;
};

// Shortest decimal text that reads back as the same float32 ("1.1", "-1000").
void AppendFloat32(float f, std::string* out);
// A vector value's JSON text ([x,y,z], as AppendJson writes it) at `out`,
// which has room for kMaxVectorJson bytes; returns the end. No heap: a
// query of every entity's state writes thousands of them.
constexpr size_t kMaxVectorJson = 2 + 4 * 16 + 3;
char* WriteVectorJson(const Value& v, char* out);
// JSON string literal with escapes; invalid UTF-8 bytes become U+FFFD.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace gem

#endif  // GEM_CORE_FIELDS_VALUE_H_
