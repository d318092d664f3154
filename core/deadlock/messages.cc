#include "core/deadlock/messages.h"

#include <cstring>

#include "core/codec/varint.h"
#include "core/util/proto_wire.h"

namespace gem::deadlock {
namespace {

constexpr uint8_t kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5;

}  // namespace

bool MessageFields::Parse(const uint8_t* data, size_t size) {
  present_ = 0;
  WireReader r(data, size);
  while (r.Next()) {
    const uint32_t f = r.field();
    if (f > kMaxField) continue;
    present_ |= uint64_t{1} << f;
    wire_type_[f] = static_cast<uint8_t>(r.wire_type());
    value_[f] = r.varint();
    bytes_[f] = r.wire_type() == kBytes ? r.bytes() : std::string_view();
  }
  if (!r.ok()) present_ = 0;
  return r.ok();
}

std::optional<int32_t> MessageFields::Int32(uint32_t f) const {
  if (!Has(f) || wire_type_[f] != kVarint) return std::nullopt;
  return static_cast<int32_t>(value_[f]);
}

std::optional<uint32_t> MessageFields::Uint32(uint32_t f) const {
  if (!Has(f) || wire_type_[f] != kVarint) return std::nullopt;
  return static_cast<uint32_t>(value_[f]);
}

std::optional<uint64_t> MessageFields::Uint64(uint32_t f) const {
  if (!Has(f) || (wire_type_[f] != kVarint && wire_type_[f] != kFixed64)) return std::nullopt;
  return value_[f];
}

std::optional<bool> MessageFields::Bool(uint32_t f) const {
  if (!Has(f) || wire_type_[f] != kVarint) return std::nullopt;
  return value_[f] != 0;
}

std::optional<double> MessageFields::Real(uint32_t f) const {
  if (!Has(f)) return std::nullopt;
  if (wire_type_[f] == kFixed32) {
    const uint32_t bits = static_cast<uint32_t>(value_[f]);
    float v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  if (wire_type_[f] == kVarint) return static_cast<int32_t>(value_[f]);
  return std::nullopt;
}

std::optional<std::string_view> MessageFields::Bytes(uint32_t f) const {
  if (!Has(f) || wire_type_[f] != kBytes) return std::nullopt;
  return bytes_[f];
}

bool MessageFields::Vector(uint32_t f, double xyz[3]) const {
  const std::optional<std::string_view> b = Bytes(f);
  if (!b) return false;
  MessageFields v;
  if (!v.Parse(reinterpret_cast<const uint8_t*>(b->data()), b->size())) return false;
  for (uint32_t axis = 0; axis < 3; ++axis) xyz[axis] = v.Real(axis + 1).value_or(0.0);
  return true;
}

bool RepeatedVarints(const uint8_t* data, size_t size, uint32_t f, bool is_signed,
                     std::vector<int64_t>* out) {
  auto take = [&](uint64_t v) {
    out->push_back(is_signed ? int64_t{static_cast<int32_t>(v)}
                             : int64_t{static_cast<uint32_t>(v)});
  };
  WireReader r(data, size);
  while (r.Next()) {
    if (r.field() != f) continue;
    if (r.wire_type() == kVarint) {
      take(r.varint());
    } else if (r.wire_type() == kBytes) {  // packed
      const std::string_view packed = r.bytes();
      size_t pos = 0;
      uint64_t v;
      while (pos < packed.size()) {
        if (!GetVarint(packed, &pos, &v)) return false;
        take(v);
      }
    }
  }
  return r.ok();
}

uint32_t StringToken(std::string_view name) {
  // MurmurHash2 (Austin Appleby's, public domain), over the lower-cased
  // bytes read as little-endian words.
  constexpr uint32_t kSeed = 0x31415926, m = 0x5bd1e995;
  constexpr int r = 24;
  auto lower = [](char c) -> uint32_t {
    const uint8_t b = static_cast<uint8_t>(c);
    return (b >= 'A' && b <= 'Z') ? b + 32u : b;
  };
  size_t len = name.size();
  uint32_t h = kSeed ^ static_cast<uint32_t>(len);
  size_t i = 0;
  for (; len >= 4; len -= 4, i += 4) {
    uint32_t k = lower(name[i]) | lower(name[i + 1]) << 8 | lower(name[i + 2]) << 16 |
                 lower(name[i + 3]) << 24;
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
  }
  switch (len) {
    case 3: h ^= lower(name[i + 2]) << 16; [[fallthrough]];
    case 2: h ^= lower(name[i + 1]) << 8; [[fallthrough]];
    case 1: h ^= lower(name[i]); h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return h;
}

}  // namespace gem::deadlock
