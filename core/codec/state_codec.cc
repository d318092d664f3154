#include "core/codec/state_codec.h"

#include <algorithm>
#include <cstring>

#include "core/codec/varint.h"

namespace gem {
namespace {


}  // namespace

char* WriteValueHead(const Value& v, char* p) {
  switch (v.kind) {
    case ValueKind::kNone:
      break;
    case ValueKind::kBool:
      *p++ = v.b ? 1 : 0;
      break;
    case ValueKind::kInt:
      p = WriteVarint(ZigZag(v.i), p);
      break;
    case ValueKind::kUint:
      p = WriteVarint(v.u, p);
      break;
    case ValueKind::kFloat:
      std::memcpy(p, &v.f, 4);  // little-endian host
      p += 4;
      break;
    case ValueKind::kVector: {
      const int n = std::min<int>(v.count, 4);
      *p++ = static_cast<char>(v.count);
      std::memcpy(p, v.v, 4 * static_cast<size_t>(n));
      p += 4 * n;
      break;
    }
    case ValueKind::kString:
      p = WriteVarint(v.s.size(), p);
      break;
  }
  return p;
}

void PutValueBody(const Value& v, std::string* out) {
  char head[kMaxValueHead];
  out->append(head, static_cast<size_t>(WriteValueHead(v, head) - head));
  if (v.kind == ValueKind::kString) out->append(v.s);
}

void EncodeState(std::vector<std::pair<uint32_t, Value>>* entries, std::string* out) {
  std::sort(entries->begin(), entries->end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  out->push_back(static_cast<char>(kStateFormatVersion));
  PutVarint(entries->size(), out);
  uint32_t prev = 0;
  for (const auto& [field, v] : *entries) {
    // The kind rides in the delta's low three bits: a byte an entry saved.
    // An entry is gathered and appended at once.
    char entry[10 + kMaxValueHead];
    char* p = WriteVarint((static_cast<uint64_t>(field - prev) << 3) |
                              static_cast<uint8_t>(v.kind),
                          entry);
    p = WriteValueHead(v, p);
    out->append(entry, static_cast<size_t>(p - entry));
    if (v.kind == ValueKind::kString) out->append(v.s);
    prev = field;
  }
}

namespace {

// One value's layout, read into *value (kWant) or passed over, building
// nothing: one reader for both.
template <bool kWant>
bool StepValueBody(uint8_t kind, std::string_view data, size_t* pos, Value* value) {
  uint64_t raw;
  switch (static_cast<ValueKind>(kind)) {
    case ValueKind::kNone:
      if constexpr (kWant) *value = Value::None();
      return true;
    case ValueKind::kBool:
      if (*pos >= data.size()) return false;
      if constexpr (kWant) *value = Value::Bool(data[*pos] != 0);
      ++*pos;
      return true;
    case ValueKind::kInt:
      if (!GetVarint(data, pos, &raw)) return false;
      if constexpr (kWant) *value = Value::Int(UnZigZag(raw));
      return true;
    case ValueKind::kUint:
      if (!GetVarint(data, pos, &raw)) return false;
      if constexpr (kWant) *value = Value::Uint(raw);
      return true;
    case ValueKind::kFloat:
      if (data.size() - *pos < 4) return false;
      if constexpr (kWant) {
        float f;
        std::memcpy(&f, data.data() + *pos, 4);  // little-endian host
        *value = Value::Float(f);
      }
      *pos += 4;
      return true;
    case ValueKind::kVector: {
      if (*pos >= data.size()) return false;
      const size_t n = static_cast<uint8_t>(data[(*pos)++]);
      if (n > 4 || 4 * n > data.size() - *pos) return false;
      if constexpr (kWant) {
        float v[4] = {0, 0, 0, 0};
        std::memcpy(v, data.data() + *pos, 4 * n);
        *value = Value::Vector(v, static_cast<int>(n));
      }
      *pos += 4 * n;
      return true;
    }
    case ValueKind::kString:
      if (!GetVarint(data, pos, &raw) || raw > data.size() - *pos) return false;
      if constexpr (kWant) *value = Value::String(data.substr(*pos, raw));
      *pos += raw;
      return true;
  }
  return false;
}

}  // namespace

bool GetValueBody(uint8_t kind, std::string_view data, size_t* pos, Value* value) {
  return StepValueBody<true>(kind, data, pos, value);
}

bool SkipValueBody(uint8_t kind, std::string_view data, size_t* pos) {
  return StepValueBody<false>(kind, data, pos, nullptr);
}

bool StateReader::Open(std::string_view blob) {
  *this = StateReader();
  blob_ = blob;
  uint64_t count;
  pos_ = 1;
  if (blob.empty() || static_cast<uint8_t>(blob[0]) != kStateFormatVersion ||
      !GetVarint(blob, &pos_, &count) || count > blob.size()) {
    return ok_ = false;
  }
  count_ = static_cast<size_t>(count);
  return true;
}

bool StateReader::Next(uint32_t* field_id, Value* value, size_t* value_at) {
  if (!ok_ || index_ >= count_) return false;
  uint64_t entry;
  // Ids ascend strictly: a delta of 0 after the first entry repeats one.
  if (!GetVarint(blob_, &pos_, &entry) || (entry >> 3) > UINT32_MAX - field_ ||
      (index_ > 0 && (entry >> 3) == 0)) {
    return ok_ = false;
  }
  field_ += static_cast<uint32_t>(entry >> 3);
  *field_id = field_;
  kind_ = static_cast<uint8_t>(entry & 7);
  if (value_at != nullptr) *value_at = pos_;
  if (value != nullptr ? !GetValueBody(kind_, blob_, &pos_, value)
                       : !SkipValueBody(kind_, blob_, &pos_)) {
    return ok_ = false;
  }
  ++index_;
  return true;
}

bool DiffState(const std::vector<std::pair<uint32_t, Value>>& entries, std::string_view base,
               std::vector<std::pair<uint32_t, Value>>* diff) {
  diff->clear();
  StateReader r;
  if (!r.Open(base)) return false;
  uint32_t field;
  Value v;
  size_t i = 0;
  while (r.Next(&field, &v)) {
    while (i < entries.size() && entries[i].first < field) diff->push_back(entries[i++]);
    if (i == entries.size() || entries[i].first != field) return false;  // absent now
    if (!entries[i].second.SameAs(v)) diff->push_back(entries[i]);
    ++i;
  }
  if (!r.ok()) return false;
  while (i < entries.size()) diff->push_back(entries[i++]);
  return true;
}

bool MergeStates(std::string_view base, std::string_view diff, std::string* out) {
  std::vector<std::pair<uint32_t, Value>> merged;
  StateReader b, d;
  if (!b.Open(base) || !d.Open(diff)) return false;
  merged.reserve(b.count() + d.count());
  uint32_t bf = 0, df = 0;
  Value bv, dv;
  bool has_b = b.Next(&bf, &bv), has_d = d.Next(&df, &dv);
  while (has_b || has_d) {
    if (has_d && (!has_b || df <= bf)) {
      if (has_b && bf == df) has_b = b.Next(&bf, &bv);  // overridden
      merged.emplace_back(df, dv);
      has_d = d.Next(&df, &dv);
    } else {
      merged.emplace_back(bf, bv);
      has_b = b.Next(&bf, &bv);
    }
  }
  if (!b.ok() || !d.ok()) return false;
  out->clear();
  EncodeState(&merged, out);  // strings point into base and diff, still alive
  return true;
}

}  // namespace gem
