// FieldCodes: which of an entity's changed fields a game module cares
// about, answered per change in one array load.
//
// A module names the fields it follows as patterns, each with a kind:
// a plain name ("m_iCurrentCharges"), or a name with one array index
// ("m_hItems.#", "m_vecPlayerTeamData.#.m_hSelectedHero": '#' stands for
// the four-digit index). Per class, each field id maps to a code: 0 for a
// field no pattern names, else kind and index (KindOf, IndexOf); and each
// (kind, index) to its field id, for reading it. A class's fields are
// matched once, as the replay registers them: asking past those matched
// matches the new ones first.
#ifndef GEM_CORE_MATCH_FIELD_CODES_H_
#define GEM_CORE_MATCH_FIELD_CODES_H_

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/fields/class_fields.h"
#include "core/entities/entities.h"

namespace gem::match {

class FieldCodes {
 public:
  struct Pattern {
    std::string name;  // '#' (at most once) for a four-digit array index
    uint16_t kind;     // 1 or more
  };
  static uint16_t KindOf(uint32_t code) { return static_cast<uint16_t>(code >> 16); }
  static uint16_t IndexOf(uint32_t code) { return static_cast<uint16_t>(code & 0xFFFF); }

  explicit FieldCodes(std::vector<Pattern> patterns);

  // The codes of `e`'s class by field id, covering every field the class
  // has registered (for a loop over an update's changes: an id past the
  // span is a field registered since, which Code() matches).
  std::span<const uint32_t> Codes(const Entity& e) { return Of(e).codes; }
  // The code of field `field_id` of `e`'s class.
  uint32_t Code(const Entity& e, uint32_t field_id) {
    const std::vector<uint32_t>& codes = Of(e).codes;
    return field_id < codes.size() ? codes[field_id] : 0;
  }
  // The field id of (kind, index) in `e`'s class, or ClassFields::kInvalid.
  uint32_t FieldOf(const Entity& e, uint16_t kind, uint16_t index);
  // One past the largest index of `kind` the class has (0: none).
  uint32_t Count(const Entity& e, uint16_t kind);

 private:
  struct PerClass {
    std::vector<uint32_t> codes;  // by field id
    std::unordered_map<uint32_t, uint32_t> fields;  // code -> field id
    std::unordered_map<uint16_t, uint32_t> counts;  // kind -> max index + 1
  };
  // `e`'s class, matched up to the fields it has registered.
  PerClass& Of(const Entity& e) {
    if (e.class_id >= 0 && e.class_id < kDense && e.fields != nullptr) {
      const size_t c = static_cast<size_t>(e.class_id);
      if (c < classes_.size() && classes_[c].codes.size() == e.fields->size()) return classes_[c];
    }
    return Slow(e);
  }
  PerClass& Slow(const Entity& e);
  uint32_t Match(const std::string& name) const;

  // Class ids past kDense (a hostile replay's) are kept in a map.
  static constexpr int32_t kDense = 1 << 14;
  struct Split {
    std::string prefix, suffix;
    bool indexed = false;
    uint16_t kind = 0;
  };
  std::vector<Split> patterns_;
  std::vector<PerClass> classes_;  // by class id
  std::unordered_map<int32_t, PerClass> sparse_;
  PerClass none_;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_FIELD_CODES_H_
