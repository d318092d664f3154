#include "core/cs2/event_keys.h"

#include "core/match/field_reader.h"

namespace gem::cs2 {

const GameEventKey* EventKeys::Find(const GameEvent& e, std::string_view name) {
  for (const GameEventKey& k : e.keys) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::optional<int64_t> EventKeys::Int(const GameEvent& e, std::string_view name) {
  const GameEventKey* k = Find(e, name);
  if (k == nullptr || k->value.kind == ValueKind::kNone) return std::nullopt;
  std::optional<int64_t> v = match::AsInt(k->value);
  if (!v) ++wrong_types_;
  return v;
}

std::optional<double> EventKeys::Real(const GameEvent& e, std::string_view name) {
  const GameEventKey* k = Find(e, name);
  if (k == nullptr || k->value.kind == ValueKind::kNone) return std::nullopt;
  if (k->value.kind == ValueKind::kBool) {
    ++wrong_types_;
    return std::nullopt;
  }
  std::optional<double> v = match::AsReal(k->value);
  if (!v) ++wrong_types_;
  return v;
}

std::optional<std::string_view> EventKeys::Text(const GameEvent& e, std::string_view name) {
  const GameEventKey* k = Find(e, name);
  if (k == nullptr || k->value.kind == ValueKind::kNone) return std::nullopt;
  if (k->value.kind != ValueKind::kString) {
    ++wrong_types_;
    return std::nullopt;
  }
  return k->value.s;
}

MatchValue EventKeys::IntCell(const GameEvent& e, std::string_view name) {
  const std::optional<int64_t> v = Int(e, name);
  return v ? MatchValue::Int(*v) : MatchValue();
}

MatchValue EventKeys::RealCell(const GameEvent& e, std::string_view name) {
  const std::optional<double> v = Real(e, name);
  return v ? MatchValue::Real(*v) : MatchValue();
}

MatchValue EventKeys::TextCell(const GameEvent& e, std::string_view name) {
  const std::optional<std::string_view> v = Text(e, name);
  return v ? MatchValue::Text(*v) : MatchValue();
}

}  // namespace gem::cs2
