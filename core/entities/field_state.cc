#include "core/entities/field_state.h"

#include <cstring>

#include <algorithm>

namespace gem {

void FieldState::Reset() {
  slots_.clear();
  strings_.clear();
  free_strings_.clear();
}

void FieldState::StoreString(Slot* slot, const Value& value) {
  if (value.kind == ValueKind::kString) {
    uint32_t index;
    if (slot->kind == ValueKind::kString) {
      index = slot->string;
    } else if (!free_strings_.empty()) {
      index = free_strings_.back();
      free_strings_.pop_back();
    } else {
      index = static_cast<uint32_t>(strings_.size());
      strings_.emplace_back();
    }
    strings_[index].assign(value.s);
    std::memset(slot->v, 0, sizeof slot->v);
    slot->string = index;
  } else {
    // A string gives way to another kind: its index goes back first (it
    // shares the value's room).
    free_strings_.push_back(slot->string);
    std::memcpy(slot->v, value.v, sizeof slot->v);
  }
  slot->kind = value.kind;
  slot->count = value.count;
}

void FieldState::Resize(const FieldLayout& layout, uint32_t slot, const Value& length,
                        Visitor* dropped) {
  uint64_t n;
  if (length.kind == ValueKind::kUint) {
    n = length.u;
  } else if (length.kind == ValueKind::kInt) {
    n = static_cast<uint64_t>(std::max<int64_t>(0, length.i));
  } else {
    return;
  }
  for (uint64_t k = n; k < layout.child_count(slot); ++k) {
    const uint32_t element = layout.child(slot, static_cast<uint32_t>(k));
    if (element != FieldLayout::kNone) DropTree(layout, element, dropped);
  }
}

void FieldState::DropTree(const FieldLayout& layout, uint32_t slot, Visitor* dropped) {
  if (slot < slots_.size()) {
    Slot& s = slots_[slot];
    if (s.kind != ValueKind::kNone) {
      if (dropped != nullptr) dropped->Visit(s.field_id, Value::None());
      if (s.kind == ValueKind::kString) free_strings_.push_back(s.string);
      s = Slot();
    }
  }
  for (uint32_t k = 0; k < layout.child_count(slot); ++k) {
    const uint32_t c = layout.child(slot, k);
    if (c != FieldLayout::kNone) DropTree(layout, c, dropped);
  }
}

bool FieldState::AnyBelow(const FieldLayout& layout, uint32_t slot) const {
  if (slot == FieldLayout::kNone) return false;
  for (uint32_t k = 0; k < layout.child_count(slot); ++k) {
    const uint32_t c = layout.child(slot, k);
    if (c == FieldLayout::kNone) continue;
    if (c < slots_.size() && slots_[c].kind != ValueKind::kNone) return true;
    if (AnyBelow(layout, c)) return true;
  }
  return false;
}

void FieldState::VisitTree(const FieldLayout& layout, uint32_t slot, Visitor* visitor) const {
  for (uint32_t k = 0; k < layout.child_count(slot); ++k) {
    const uint32_t c = layout.child(slot, k);
    if (c == FieldLayout::kNone) continue;
    if (c < slots_.size() && slots_[c].kind != ValueKind::kNone) {
      visitor->Visit(slots_[c].field_id, Load(slots_[c]));
    }
    VisitTree(layout, c, visitor);
  }
}

void FieldState::VisitAll(const FieldLayout& layout, Visitor* visitor) const {
  VisitTree(layout, FieldLayout::kRoot, visitor);
}

}  // namespace gem
