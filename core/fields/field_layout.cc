#include "core/fields/field_layout.h"

#include <algorithm>

namespace gem {

FieldLayout::FieldLayout() { nodes_.push_back({kNone, -1, 0, 0, 0}); }

uint32_t FieldLayout::AddChild(uint32_t parent, uint32_t index) {
  Node& n = nodes_[parent];
  if (index >= n.child_capacity) {
    // Room for the new index and then some: tables of arrays fill up in
    // index order, one element at a time.
    const uint32_t capacity = std::max<uint32_t>({index + 1, n.child_capacity * 2, 4});
    const uint32_t offset = static_cast<uint32_t>(children_.size());
    children_.resize(children_.size() + capacity, 0);
    std::copy_n(children_.begin() + n.child_offset, n.child_count, children_.begin() + offset);
    n.child_offset = offset;
    n.child_capacity = capacity;
  }
  n.child_count = std::max(n.child_count, index + 1);
  const uint32_t slot = static_cast<uint32_t>(nodes_.size());
  children_[n.child_offset + index] = slot + 1;
  nodes_.push_back({parent, static_cast<int32_t>(index), 0, 0, 0});
  return slot;
}

uint32_t FieldLayout::Intern(const FieldPath& path) {
  if (path.last < 0 || path.last >= FieldPath::kMaxDepth) return kNone;
  for (int i = 0; i <= path.last; ++i) {
    if (path.index[i] < 0 || path.index[i] > kMaxIndex) return kNone;
  }
  uint32_t slot = kRoot;
  for (int i = 0; i <= path.last; ++i) {
    const uint32_t index = static_cast<uint32_t>(path.index[i]);
    const uint32_t next = child(slot, index);
    slot = next != kNone ? next : AddChild(slot, index);
  }
  return slot;
}

FieldPath FieldLayout::path(uint32_t slot) const {
  int32_t reversed[FieldPath::kMaxDepth];
  int depth = 0;
  for (uint32_t s = slot; s != kRoot && depth < FieldPath::kMaxDepth; s = nodes_[s].parent) {
    reversed[depth++] = nodes_[s].index;
  }
  FieldPath out;
  out.last = depth - 1;
  for (int i = 0; i < depth; ++i) out.index[i] = reversed[depth - 1 - i];
  return out;
}

}  // namespace gem
