#include "core/field_state.h"

#include <algorithm>
#include <cstring>

namespace gem {

void FieldState::Reset() {
  nodes_.clear();
  slots_.clear();
  strings_.clear();
  free_strings_.clear();
  free_nodes_.clear();
  NewNode(kInitialSlots);
}

uint32_t FieldState::NewNode(uint32_t capacity) {
  if (!free_nodes_.empty()) {
    // Reuse a dropped node (already emptied by ClearNode) with its slots.
    uint32_t id = free_nodes_.back();
    free_nodes_.pop_back();
    nodes_[id].self = Slot();
    return id;
  }
  Node n;
  n.offset = static_cast<uint32_t>(slots_.size());
  n.capacity = capacity;
  slots_.resize(slots_.size() + capacity);
  nodes_.push_back(n);
  return static_cast<uint32_t>(nodes_.size() - 1);
}

void FieldState::Grow(uint32_t node, uint32_t needed) {
  Node& n = nodes_[node];
  uint32_t capacity = std::max(needed, n.capacity * 2);
  uint32_t offset = static_cast<uint32_t>(slots_.size());
  // The node's slots move to the end; the old range is left unused.
  slots_.resize(slots_.size() + capacity);
  Node& m = nodes_[node];  // resize may not move nodes_, but be explicit
  std::copy(slots_.begin() + m.offset, slots_.begin() + m.offset + m.capacity,
            slots_.begin() + offset);
  std::fill(slots_.begin() + m.offset, slots_.begin() + m.offset + m.capacity,
            Slot());
  m.offset = offset;
  m.capacity = capacity;
}

void FieldState::Store(Slot* slot, const Value& value, uint32_t field_id) {
  if (slot->kind == ValueKind::kString && value.kind != ValueKind::kString) {
    free_strings_.push_back(slot->aux);
  }
  if (value.kind == ValueKind::kString) {
    if (slot->kind != ValueKind::kString) {
      if (!free_strings_.empty()) {
        slot->aux = free_strings_.back();
        free_strings_.pop_back();
      } else {
        slot->aux = static_cast<uint32_t>(strings_.size());
        strings_.emplace_back();
      }
    }
    strings_[slot->aux].assign(value.s);
  }
  slot->kind = value.kind;
  slot->count = value.count;
  slot->field_id = value.kind == ValueKind::kNone ? kNoField : field_id;
  std::memcpy(slot->v, value.v, sizeof slot->v);
}

Value FieldState::Load(const Slot& slot) const {
  Value v;
  v.kind = slot.kind;
  v.count = slot.count;
  std::memcpy(v.v, slot.v, sizeof v.v);
  if (slot.kind == ValueKind::kString) v.s = strings_[slot.aux];
  return v;
}

void FieldState::Clear(Slot* slot, Visitor* dropped) {
  if (slot->is_node) {
    ClearNode(slot->aux, dropped);
    free_nodes_.push_back(slot->aux);
    *slot = Slot();
    return;
  }
  if (slot->kind == ValueKind::kNone) return;
  if (dropped != nullptr) dropped->Visit(slot->field_id, Value::None());
  if (slot->kind == ValueKind::kString) free_strings_.push_back(slot->aux);
  *slot = Slot();
}

void FieldState::ClearNode(uint32_t node, Visitor* dropped) {
  Clear(&nodes_[node].self, dropped);
  for (uint32_t k = 0; k < nodes_[node].capacity; ++k) {
    Clear(&slots_[nodes_[node].offset + k], dropped);
  }
}

bool FieldState::Set(const FieldPath& path, const Value& value,
                     uint32_t field_id, bool is_length, Visitor* dropped) {
  for (int i = 0; i <= path.last; ++i) {
    if (path.index[i] < 0 || path.index[i] > kMaxIndex) return false;
  }
  uint32_t node = 0;
  for (int i = 0;; ++i) {
    uint32_t z = static_cast<uint32_t>(path.index[i]);
    if (nodes_[node].capacity < z + 2) Grow(node, z + 2);
    Slot* slot = &slots_[nodes_[node].offset + z];
    if (i == path.last) {
      if (!slot->is_node) {
        Store(slot, value, field_id);
        return true;
      }
      uint32_t child = slot->aux;
      Store(&nodes_[child].self, value, field_id);
      if (is_length && (value.kind == ValueKind::kUint ||
                        value.kind == ValueKind::kInt)) {
        uint64_t length = value.kind == ValueKind::kUint
                              ? value.u
                              : static_cast<uint64_t>(std::max<int64_t>(0, value.i));
        for (uint64_t k = length; k < nodes_[child].capacity; ++k) {
          Clear(&slots_[nodes_[child].offset + k], dropped);
        }
      }
      return true;
    }
    if (!slot->is_node) {
      // The slot becomes a node; a value already there (the length or flag
      // that arrived first) becomes the node's own value.
      Slot old = *slot;
      uint32_t child = NewNode(kInitialSlots);
      slot = &slots_[nodes_[node].offset + z];  // NewNode may move slots_
      *slot = Slot();
      slot->is_node = true;
      slot->aux = child;
      nodes_[child].self = old;
    }
    node = slot->aux;
  }
}

const FieldState::Slot* FieldState::Find(const FieldPath& path) const {
  uint32_t node = 0;
  for (int i = 0;; ++i) {
    int32_t z = path.index[i];
    if (z < 0 || static_cast<uint32_t>(z) + 2 > nodes_[node].capacity) {
      return nullptr;
    }
    const Slot* slot = &slots_[nodes_[node].offset + z];
    if (i == path.last) return slot;
    if (!slot->is_node) return nullptr;
    node = slot->aux;
  }
}

FieldState::Stored FieldState::Get(const FieldPath& path) const {
  Stored out;
  const Slot* slot = Find(path);
  if (slot == nullptr) return out;
  if (slot->is_node) slot = &nodes_[slot->aux].self;
  out.field_id = slot->field_id;
  out.value = Load(*slot);
  return out;
}

bool FieldState::HasNode(const FieldPath& path) const {
  const Slot* slot = Find(path);
  return slot != nullptr && slot->is_node;
}

uint32_t FieldState::NodeSize(const FieldPath& path) const {
  const Slot* slot = Find(path);
  return slot != nullptr && slot->is_node ? nodes_[slot->aux].capacity : 0;
}

void FieldState::VisitNode(uint32_t node, Visitor* visitor) const {
  for (uint32_t k = 0; k < nodes_[node].capacity; ++k) {
    const Slot& slot = slots_[nodes_[node].offset + k];
    if (slot.is_node) {
      const Slot& self = nodes_[slot.aux].self;
      if (self.kind != ValueKind::kNone) visitor->Visit(self.field_id, Load(self));
      VisitNode(slot.aux, visitor);
    } else if (slot.kind != ValueKind::kNone) {
      visitor->Visit(slot.field_id, Load(slot));
    }
  }
}

void FieldState::VisitAll(Visitor* visitor) const { VisitNode(0, visitor); }

}  // namespace gem
