// The identity of a Dota ActiveModifiers string-table entry: its data is a
// CDOTAModifierBuffTableEntry whose first fields are entry_type (1 active,
// 2 removed), parent (entity handle), index and serial_num. A removal names
// the modifier it removes, so it must land on the entry holding that
// modifier: the replay's own check of the string-table index rules.
#ifndef GEM_TESTS_MODIFIER_ENTRY_H_
#define GEM_TESTS_MODIFIER_ENTRY_H_

#include <cstdint>
#include <string_view>

namespace gem::testing {

struct ModifierKey {
  uint64_t entry_type = 0;
  uint64_t parent = 0;
  uint64_t index = 0;
  uint64_t serial = 0;
  bool operator==(const ModifierKey& o) const {
    return parent == o.parent && index == o.index && serial == o.serial;
  }
};

// Reads fields 1-4 (varints) of the entry; false if the data is not one.
inline bool ParseModifierKey(std::string_view data, ModifierKey* out) {
  size_t pos = 0;
  int seen = 0;
  auto varint = [&](uint64_t* v) {
    *v = 0;
    for (unsigned shift = 0; shift < 64 && pos < data.size(); shift += 7) {
      uint8_t b = static_cast<uint8_t>(data[pos++]);
      *v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  };
  while (pos < data.size() && seen < 4) {
    uint64_t tag, v;
    if (!varint(&tag) || (tag & 7) != 0 || !varint(&v)) return false;
    switch (tag >> 3) {
      case 1: out->entry_type = v; ++seen; break;
      case 2: out->parent = v; ++seen; break;
      case 3: out->index = v; ++seen; break;
      case 4: out->serial = v; ++seen; break;
      default: return false;
    }
  }
  return seen == 4;
}

}  // namespace gem::testing

#endif  // GEM_TESTS_MODIFIER_ENTRY_H_
