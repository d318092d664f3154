// FieldState: the values of one entity, as a tree of slots.
//
// A field path indexes the tree: (0, 16) is slot 16 of the node in slot 0
// of the root. A slot is empty, holds a value, or holds a child node (a
// table's fields or an array's elements). Rules (see the field-state seed):
// - Nodes start with 8 slots; writing index i needs i + 2 slots and grows
//   the node to max(i + 2, 2 x its size).
// - A value never replaces a node. The value of a field that owns a node (a
//   table's presence flag, an array's length) is kept on the node ("self").
// - A length resizes: setting an array's (or variable table's) length to n
//   drops every element at index >= n, with everything below it.
// Every stored value remembers the id of the field it belongs to, so that
// dropped values and whole-state walks can be reported by field id.
//
// Storage is flat: all slots of all nodes live in one vector, so copying a
// state (a class baseline into a new entity) is a couple of vector copies.
#ifndef GEM_CORE_FIELD_STATE_H_
#define GEM_CORE_FIELD_STATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/field_path.h"
#include "core/value.h"

namespace gem {

class FieldState {
 public:
  static constexpr uint32_t kInitialSlots = 8;
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

  FieldState() { Reset(); }

  // Empties the state (keeps capacity).
  void Reset();

  // Stores `value` at `path` for field `field_id`. When `is_length` is set
  // and the slot holds a node, elements at or past the new length are
  // dropped; each dropped value is reported to `dropped` (may be null).
  // Returns false when the path is too large to be real (an index beyond
  // kMaxIndex); nothing is changed then.
  bool Set(const FieldPath& path, const Value& value, uint32_t field_id,
           bool is_length, Visitor* dropped);

  // The value at `path` (a node's own value for a slot holding a node).
  Stored Get(const FieldPath& path) const;
  // True when the slot at `path` holds a child node.
  bool HasNode(const FieldPath& path) const;
  // Number of slots of the node at `path` (0 when there is none).
  uint32_t NodeSize(const FieldPath& path) const;

  // Reports every stored value in path order (a node's own value before
  // its children).
  void VisitAll(Visitor* visitor) const;

  // Counters for tests and benchmarks.
  size_t node_count() const { return nodes_.size(); }
  size_t slot_count() const { return slots_.size(); }

  static constexpr int32_t kMaxIndex = 1 << 20;

 private:
  struct Slot {
    ValueKind kind = ValueKind::kNone;
    uint8_t count = 0;
    bool is_node = false;
    uint32_t field_id = kNoField;
    uint32_t aux = 0;  // node id when is_node; string id when kind == kString
    union {
      bool b;
      int64_t i;
      uint64_t u;
      float f;
      float v[4];
    };
    Slot() : v{0, 0, 0, 0} {}
  };
  struct Node {
    uint32_t offset;    // first slot in slots_
    uint32_t capacity;  // number of slots
    Slot self;          // the value of the field that owns this node
  };

  uint32_t NewNode(uint32_t capacity);
  void Grow(uint32_t node, uint32_t needed);
  void Store(Slot* slot, const Value& value, uint32_t field_id);
  void Clear(Slot* slot, Visitor* dropped);
  void ClearNode(uint32_t node, Visitor* dropped);
  Value Load(const Slot& slot) const;
  const Slot* Find(const FieldPath& path) const;
  void VisitNode(uint32_t node, Visitor* visitor) const;

  std::vector<Node> nodes_;  // nodes_[0] is the root
  std::vector<Slot> slots_;
  std::vector<std::string> strings_;
  std::vector<uint32_t> free_strings_;
  std::vector<uint32_t> free_nodes_;  // dropped nodes, emptied, for reuse
};

}  // namespace gem

#endif  // GEM_CORE_FIELD_STATE_H_
