// FieldReader: reads one named field from live entities of any class.
//
// A game module names the fields it needs ("m_iHealth",
// "CBodyComponent.m_cellX"); the reader resolves a name to the class's field
// id once per class and then reads the entity's state directly, so a sample
// costs one state lookup per field. A class learns fields as the replay
// first sends them: a name not found yet is looked up again, among the new
// fields only, when the class has registered more.
//
// Several names may be given (builds rename fields): a class uses the
// first of them it is found to have.
#ifndef GEM_CORE_MATCH_FIELD_READER_H_
#define GEM_CORE_MATCH_FIELD_READER_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/entities/entities.h"
#include "core/events/match_rows.h"
#include "core/fields/value.h"

namespace gem::match {

class FieldReader {
 public:
  FieldReader(std::initializer_list<std::string> names) : names_(names) {}
  explicit FieldReader(std::string name) : names_{std::move(name)} {}
  explicit FieldReader(std::vector<std::string> names) : names_(std::move(names)) {}

  // The value of the field in `e`; kNone when the class has no such field,
  // never sent it, or the value was dropped. Strings point into the entity.
  // Inline: the timeline reads a dozen fields of every player each sample.
  Value Read(const Entity& e) {
    const uint32_t id = Id(e);
    if (id == ClassFields::kInvalid) return Value();
    return e.state.Get(e.fields->slot(id)).value;
  }
  // The field id in `e`'s class, or ClassFields::kInvalid.
  uint32_t Id(const Entity& e) {
    if (e.fields != nullptr && e.class_id >= 0 &&
        static_cast<size_t>(e.class_id) < classes_.size()) {
      const uint32_t id = classes_[static_cast<size_t>(e.class_id)].id;
      if (id != ClassFields::kInvalid) return id;
    }
    return IdSlow(e);
  }

  const std::string& name() const { return names_.front(); }

 private:
  struct PerClass {
    uint32_t id = ClassFields::kInvalid;
    uint32_t checked = 0;  // field ids below this were compared
  };
  PerClass& Of(int32_t class_id);
  // Id for a class not resolved yet (or one past kDense).
  uint32_t IdSlow(const Entity& e);

  // Replays number their classes densely (a few thousand); class ids past
  // kDense (a hostile replay's) are kept in a map, not a huge vector.
  static constexpr int32_t kDense = 1 << 14;
  std::vector<std::string> names_;
  std::vector<PerClass> classes_;  // by class id below kDense
  std::unordered_map<int32_t, PerClass> sparse_;
};

// Value conversions that keep "no value" apart from zero (inline: modules
// convert a few values of every player at every frame).
inline std::optional<int64_t> AsInt(const Value& v) {
  switch (v.kind) {
    case ValueKind::kInt: return v.i;
    case ValueKind::kUint: return static_cast<int64_t>(v.u);
    case ValueKind::kBool: return v.b ? 1 : 0;
    default: return std::nullopt;
  }
}
inline std::optional<double> AsReal(const Value& v) {
  switch (v.kind) {
    case ValueKind::kFloat: return static_cast<double>(v.f);
    case ValueKind::kInt: return static_cast<double>(v.i);
    case ValueKind::kUint: return static_cast<double>(v.u);
    default: return std::nullopt;
  }
}
// `e` while it is in the recorder's view, else null. An entity a client's
// recording saw leave its view (left, not deleted) still holds what it had
// then; what it holds now is unknown, so a sample reads nothing from it.
inline const Entity* InView(const Entity* e) {
  return e != nullptr && e->active ? e : nullptr;
}

// Reads an integer / real field; nullopt when there is no value.
inline std::optional<int64_t> ReadInt(FieldReader& r, const Entity* e) {
  return e == nullptr ? std::nullopt : AsInt(r.Read(*e));
}
inline std::optional<double> ReadReal(FieldReader& r, const Entity* e) {
  return e == nullptr ? std::nullopt : AsReal(r.Read(*e));
}

// Values as match cells: NULL when absent.
inline MatchValue IntCell(std::optional<int64_t> v) {
  return v ? MatchValue::Int(*v) : MatchValue::Null();
}
inline MatchValue RealCell(std::optional<double> v) {
  return v ? MatchValue::Real(*v) : MatchValue::Null();
}

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_FIELD_READER_H_
