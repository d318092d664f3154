// FieldLayout: the field paths one class's entities have used, as a trie
// of dense slot numbers.
//
// Every path seen (and every prefix of it) gets a slot: 0 is the root (the
// empty path), the others are numbered in order of first sight. A slot's
// children are kept by index in a flat table, so finding a path's slot is
// one array load per level, and a walk of the trie visits paths in path
// order (a prefix before what lies below it, indexes ascending).
//
// The layout is shared by every entity of the class: a FieldState stores
// one value per slot (see field_state.h). Slots are never removed, so a
// slot number, once given, names the same path for the class's lifetime.
#ifndef GEM_CORE_FIELDS_FIELD_LAYOUT_H_
#define GEM_CORE_FIELDS_FIELD_LAYOUT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/fields/field_path.h"

namespace gem {

class FieldLayout {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint32_t kRoot = 0;
  // Indexes above this are not real (a replay's arrays are far smaller);
  // refusing them bounds what a damaged path can make the trie allocate.
  static constexpr int32_t kMaxIndex = 1 << 20;

  FieldLayout();

  // Room for about `paths` paths without growing (a class's baseline
  // holds about one per schema field).
  void Reserve(size_t paths) {
    nodes_.reserve(paths + 1);
    children_.reserve(2 * paths);
  }

  // The slot of `path`, adding it and its prefixes on first sight; kNone
  // when an index is negative or above kMaxIndex.
  uint32_t Intern(const FieldPath& path);

  // The slot of `path`, or kNone when it was never interned.
  uint32_t Find(const FieldPath& path) const {
    uint32_t slot = kRoot;
    for (int i = 0; i <= path.last; ++i) {
      const Node& n = nodes_[slot];
      const uint32_t index = static_cast<uint32_t>(path.index[i]);
      if (index >= n.child_count) return kNone;
      const uint32_t child = children_[n.child_offset + index];
      if (child == 0) return kNone;
      slot = child - 1;
    }
    return slot;
  }

  // Number of slots, the root included: FieldState sizes itself by this.
  uint32_t size() const { return static_cast<uint32_t>(nodes_.size()); }
  // One more than the largest child index seen below `slot` (0: a leaf).
  uint32_t child_count(uint32_t slot) const { return nodes_[slot].child_count; }
  // The slot of child `index` of `slot`, or kNone.
  uint32_t child(uint32_t slot, uint32_t index) const {
    const Node& n = nodes_[slot];
    if (index >= n.child_count) return kNone;
    const uint32_t c = children_[n.child_offset + index];
    return c == 0 ? kNone : c - 1;
  }
  // The path of `slot` (the root's is empty: last = -1).
  FieldPath path(uint32_t slot) const;

 private:
  struct Node {
    uint32_t parent;
    int32_t index;          // in the parent
    uint32_t child_offset;  // first entry in children_
    uint32_t child_count;   // entries in use (largest index + 1)
    uint32_t child_capacity;
  };

  uint32_t AddChild(uint32_t parent, uint32_t index);

  std::vector<Node> nodes_;
  // Every node's child table, back to back: slot + 1 (0 = none). A table
  // that outgrows its room moves to the end (the old room stays unused).
  std::vector<uint32_t> children_;
};

}  // namespace gem

#endif  // GEM_CORE_FIELDS_FIELD_LAYOUT_H_
