// FieldCodes: which of an entity's changed fields a game module cares
// about, answered per change in one array load.
//
// A module names the fields it follows as patterns, each with a kind:
// a plain name ("m_iCurrentCharges"), or a name with one array index
// ("m_hItems.#", "m_vecPlayerTeamData.#.m_hSelectedHero": '#' stands for
// the four-digit index). Per class, each field id maps to a code: 0 for a
// field no pattern names, else kind and index (Code::kind, Code::index).
// A class's fields are matched once, as the replay registers them: a
// lookup of a field id past those matched matches the new ones.
#ifndef GEM_CORE_MATCH_FIELD_CODES_H_
#define GEM_CORE_MATCH_FIELD_CODES_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/entities.h"

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

  // The code of field `field_id` of `e`'s class.
  uint32_t Code(const Entity& e, uint32_t field_id) {
    if (e.class_id >= 0 && e.class_id < kDense) {
      const size_t c = static_cast<size_t>(e.class_id);
      if (c < classes_.size() && field_id < classes_[c].size()) return classes_[c][field_id];
    }
    return Slow(e, field_id);
  }

 private:
  uint32_t Slow(const Entity& e, uint32_t field_id);
  uint32_t Match(const std::string& name) const;

  // Class ids past kDense (a hostile replay's) are kept in a map.
  static constexpr int32_t kDense = 1 << 14;
  struct Split {
    std::string prefix, suffix;
    bool indexed = false;
    uint16_t kind = 0;
  };
  std::vector<Split> patterns_;
  std::vector<std::vector<uint32_t>> classes_;  // by class id: code by field id
  std::unordered_map<int32_t, std::vector<uint32_t>> sparse_;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_FIELD_CODES_H_
