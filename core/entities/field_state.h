// FieldState: the values of one entity, one per slot of its class's
// FieldLayout.
//
// The rules of the field-state seed hold, with the layout's trie standing
// for the seed's tree of nodes:
// - A path's value lives in its slot; a table's presence flag or an
//   array's length lives in the slot of the table or array, beside (never
//   instead of) the values below it.
// - A length resizes: setting an array's (or variable table's) length to n
//   drops every element at index >= n, with everything below it, reported
//   in path order (an element before its fields).
// Every stored value remembers the id of the field it belongs to, so that
// dropped values and whole-state walks can be reported by field id.
//
// Storage is one flat vector indexed by slot (and one of strings): setting
// a value is an index, and copying a state (a class baseline into a new
// entity) is a couple of vector copies.
#ifndef GEM_CORE_ENTITIES_FIELD_STATE_H_
#define GEM_CORE_ENTITIES_FIELD_STATE_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/fields/field_layout.h"
#include "core/fields/field_path.h"
#include "core/fields/value.h"

namespace gem {

class FieldState {
 public:
  static constexpr uint32_t kNoField = UINT32_MAX;

  // A stored value, as returned by Get().
  struct Stored {
    uint32_t field_id = kNoField;
    Value value;  // kNone when empty; strings point into the state
  };

  // Receives (field id, value) pairs; used for drops and whole-state walks.
  class Visitor {
   public:
    virtual ~Visitor() = default;
    virtual void Visit(uint32_t field_id, const Value& value) = 0;
  };

  // Empties the state (keeps capacity).
  void Reset();

  // Stores `value` for field `field_id` in `slot` of `layout`. When
  // `is_length` is set, elements at or past the new length are dropped;
  // each dropped value is reported to `dropped` (may be null).
  void Set(const FieldLayout& layout, uint32_t slot, const Value& value, uint32_t field_id,
           bool is_length, Visitor* dropped) {
    if (slot >= slots_.size()) slots_.resize(layout.size());
    Slot& s = slots_[slot];
    if (value.kind == ValueKind::kString || s.kind == ValueKind::kString) {
      StoreString(&s, value);
    } else {
      s.kind = value.kind;
      s.count = value.count;
      std::memcpy(s.v, value.v, sizeof s.v);
    }
    s.field_id = field_id;
    if (is_length && layout.child_count(slot) != 0) Resize(layout, slot, value, dropped);
  }

  // Set for a field that is not a length and whose slot never holds a
  // string (its decoder reads none, and no other field shares the slot):
  // then the slot need not be read before it is written. Reading it was
  // a third of the entity decoder's time on a long replay: the states of
  // a thousand entities are far from the cache, and a write that misses
  // waits for nothing, where a read waits for memory.
  void SetPlain(const FieldLayout& layout, uint32_t slot, const Value& value,
                uint32_t field_id) {
    if (slot >= slots_.size()) slots_.resize(layout.size());
    Slot& s = slots_[slot];
    s.kind = value.kind;
    s.count = value.count;
    s.field_id = field_id;
    std::memcpy(s.v, value.v, sizeof s.v);
  }

  // The value in `slot`.
  Stored Get(uint32_t slot) const {
    Stored out;
    if (slot < slots_.size() && slots_[slot].kind != ValueKind::kNone) {
      out.field_id = slots_[slot].field_id;
      out.value = Load(slots_[slot]);
    }
    return out;
  }
  // The value at `path` (empty when the class never used the path).
  Stored Get(const FieldLayout& layout, const FieldPath& path) const {
    return Get(layout.Find(path));
  }
  // Whether some path below `slot` holds a value (a table with fields, an
  // element with fields).
  bool AnyBelow(const FieldLayout& layout, uint32_t slot) const;

  // Reports every stored value in path order (a table's or array's own
  // value before what lies below it).
  void VisitAll(const FieldLayout& layout, Visitor* visitor) const;

 private:
  // 24 bytes: a string's index shares the value's room (a string slot has
  // no other value), where a field of its own made slots 32 bytes and the
  // states of a long replay's thousand live entities a third larger.
  struct Slot {
    ValueKind kind = ValueKind::kNone;
    uint8_t count = 0;
    uint32_t field_id = kNoField;
    union {
      bool b;
      int64_t i;
      uint64_t u;
      float f;
      float v[4];
      uint32_t string;  // index in strings_ when kind == kString
    };
    Slot() : v{0, 0, 0, 0} {}
  };
  static_assert(sizeof(Slot) == 24, "a slot per field of every live entity");

  void StoreString(Slot* slot, const Value& value);
  void Resize(const FieldLayout& layout, uint32_t slot, const Value& length, Visitor* dropped);
  void DropTree(const FieldLayout& layout, uint32_t slot, Visitor* dropped);
  void VisitTree(const FieldLayout& layout, uint32_t slot, Visitor* visitor) const;
  Value Load(const Slot& slot) const {
    Value v;
    v.kind = slot.kind;
    v.count = slot.count;
    if (slot.kind == ValueKind::kString) {
      v.s = strings_[slot.string];  // (its v stays zero, as a string's)
    } else {
      std::memcpy(v.v, slot.v, sizeof v.v);
    }
    return v;
  }

  std::vector<Slot> slots_;  // by layout slot; may be shorter than the layout
  std::vector<std::string> strings_;
  std::vector<uint32_t> free_strings_;
};

}  // namespace gem

#endif  // GEM_CORE_ENTITIES_FIELD_STATE_H_
