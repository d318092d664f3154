// FieldState: one entity's values by slot of its class's FieldLayout,
// with the rules of the field-state seed (values never replace what lies
// below them, lengths resize); and the layout's trie of paths.
#include <string>
#include <utility>
#include <vector>

#include "core/fields/field_layout.h"
#include "core/entities/field_state.h"
#include "gtest/gtest.h"

namespace gem {
namespace {

FieldPath Fp(std::initializer_list<int32_t> xs) {
  FieldPath p;
  p.last = -1;
  for (int32_t x : xs) p.index[++p.last] = x;
  return p;
}

class Collect : public FieldState::Visitor {
 public:
  void Visit(uint32_t id, const Value& v) override {
    seen.emplace_back(id, v.is_none() ? std::string("none")
                                      : v.kind == ValueKind::kString ? std::string(v.s)
                                                                      : std::to_string(v.i));
  }
  std::vector<std::pair<uint32_t, std::string>> seen;
};

// A state with a layout of its own, addressed by path (as a class with one
// entity would be).
class PathState {
 public:
  explicit PathState(FieldLayout* layout = nullptr) : layout_(layout ? layout : &own_) {}
  void Set(const FieldPath& path, const Value& v, uint32_t id, bool is_length,
           FieldState::Visitor* dropped) {
    const uint32_t slot = layout_->Intern(path);
    ASSERT_NE(slot, FieldLayout::kNone);
    state_.Set(*layout_, slot, v, id, is_length, dropped);
  }
  FieldState::Stored Get(const FieldPath& path) const { return state_.Get(*layout_, path); }
  bool HasFields(const FieldPath& path) const {
    return state_.AnyBelow(*layout_, layout_->Find(path));
  }
  void VisitAll(FieldState::Visitor* v) const { state_.VisitAll(*layout_, v); }
  FieldState& state() { return state_; }

 private:
  FieldLayout own_;
  FieldLayout* layout_;
  FieldState state_;
};

TEST(FieldState, SeedExample) {
  PathState state;
  state.Set(Fp({0, 16}), Value::Int(12), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0, 16})).value.i, 12);
  EXPECT_TRUE(state.HasFields(Fp({0})));          // a table with fields
  EXPECT_TRUE(state.Get(Fp({5, 1})).value.is_none());

  // An array's length, its elements, then a shrink.
  Collect dropped;
  state.Set(Fp({3}), Value::Uint(2), 2, true, &dropped);
  state.Set(Fp({3, 0}), Value::String("a"), 3, false, &dropped);
  state.Set(Fp({3, 1}), Value::String("b"), 4, false, &dropped);
  EXPECT_EQ(state.Get(Fp({3})).value.u, 2u);  // the length, kept on the node
  state.Set(Fp({3}), Value::Uint(1), 2, true, &dropped);
  EXPECT_EQ(state.Get(Fp({3})).value.u, 1u);
  EXPECT_EQ(state.Get(Fp({3, 0})).value.s, "a");
  EXPECT_TRUE(state.Get(Fp({3, 1})).value.is_none());
  ASSERT_EQ(dropped.seen.size(), 1u);
  EXPECT_EQ(dropped.seen[0], std::make_pair(4u, std::string("none")));

  // Growing again gives empty slots: old values do not come back.
  state.Set(Fp({3}), Value::Uint(2), 2, true, &dropped);
  EXPECT_TRUE(state.Get(Fp({3, 1})).value.is_none());
}

TEST(FieldState, AValueNeverReplacesANode) {
  PathState state;
  state.Set(Fp({0}), Value::Bool(true), 1, false, nullptr);  // presence flag first
  state.Set(Fp({0, 2}), Value::Int(7), 2, false, nullptr);
  EXPECT_TRUE(state.HasFields(Fp({0})));
  // The flag that arrived first is still the table's own value.
  EXPECT_TRUE(state.Get(Fp({0})).value.b);
  // A later value for the slot does not drop the table's fields.
  state.Set(Fp({0}), Value::Bool(false), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0, 2})).value.i, 7);
  EXPECT_FALSE(state.Get(Fp({0})).value.b);
}

TEST(FieldLayout, SlotsForPathsAndTheirPrefixesInOrderOfFirstSight) {
  FieldLayout layout;
  EXPECT_EQ(layout.size(), 1u);  // the root
  const uint32_t a = layout.Intern(Fp({0, 16}));
  EXPECT_EQ(layout.size(), 3u);  // (0) and (0, 16)
  EXPECT_EQ(a, 2u);
  EXPECT_EQ(layout.Find(Fp({0})), 1u);
  EXPECT_EQ(layout.Intern(Fp({0, 16})), a);  // once only
  EXPECT_EQ(layout.Find(Fp({0, 15})), FieldLayout::kNone);
  EXPECT_EQ(layout.Find(Fp({0, 16, 0})), FieldLayout::kNone);
  EXPECT_EQ(layout.Find(Fp({1})), FieldLayout::kNone);
  EXPECT_EQ(layout.child_count(layout.Find(Fp({0}))), 17u);
  EXPECT_EQ(layout.child_count(a), 0u);
  EXPECT_EQ(layout.path(a), Fp({0, 16}));
  EXPECT_EQ(layout.path(FieldLayout::kRoot).last, -1);
}

TEST(FieldLayout, ChildTablesGrowAndKeepWhatTheyHeld) {
  FieldLayout layout;
  std::vector<uint32_t> slots;
  for (int i = 0; i <= 186; ++i) slots.push_back(layout.Intern(Fp({0, i})));
  slots.push_back(layout.Intern(Fp({1, 1000})));  // a far index at once
  slots.push_back(layout.Intern(Fp({0, 3, 2, 1})));
  for (int i = 0; i <= 186; ++i) {
    ASSERT_EQ(layout.Find(Fp({0, i})), slots[i]) << i;
    ASSERT_EQ(layout.path(slots[i]), Fp({0, i})) << i;
  }
  EXPECT_EQ(layout.Find(Fp({1, 1000})), slots[187]);
  EXPECT_EQ(layout.Find(Fp({1, 999})), FieldLayout::kNone);
  EXPECT_EQ(layout.child_count(layout.Find(Fp({1}))), 1001u);
  EXPECT_EQ(layout.path(slots[188]), Fp({0, 3, 2, 1}));
}

TEST(FieldLayout, RefusesIndexesTooLargeToBeReal) {
  FieldLayout layout;
  EXPECT_EQ(layout.Intern(Fp({FieldLayout::kMaxIndex + 1})), FieldLayout::kNone);
  EXPECT_EQ(layout.Intern(Fp({0, -1})), FieldLayout::kNone);
  EXPECT_EQ(layout.size(), 1u);  // nothing added, not even the prefix
  EXPECT_NE(layout.Intern(Fp({FieldLayout::kMaxIndex})), FieldLayout::kNone);
}

TEST(FieldState, EntitiesOfAClassShareItsLayout) {
  // One entity's state was sized before the layout grew: slots it never
  // had read empty, and setting one sizes it.
  FieldLayout layout;
  PathState a(&layout), b(&layout);
  a.Set(Fp({0}), Value::Int(1), 1, false, nullptr);
  b.Set(Fp({0}), Value::Int(2), 1, false, nullptr);
  a.Set(Fp({5, 2}), Value::Int(3), 2, false, nullptr);
  EXPECT_TRUE(b.Get(Fp({5, 2})).value.is_none());
  EXPECT_FALSE(b.HasFields(Fp({5})));
  EXPECT_TRUE(a.HasFields(Fp({5})));
  b.Set(Fp({5, 2}), Value::Int(4), 2, false, nullptr);
  EXPECT_EQ(a.Get(Fp({5, 2})).value.i, 3);
  EXPECT_EQ(b.Get(Fp({5, 2})).value.i, 4);
  EXPECT_EQ(b.Get(Fp({0})).value.i, 2);
}

TEST(FieldState, ShrinkDropsWholeSubtrees) {
  PathState state;
  // A variable table of two rows, each with a field and a nested array.
  state.Set(Fp({0}), Value::Uint(2), 1, true, nullptr);
  for (int row = 0; row < 2; ++row) {
    state.Set(Fp({0, row, 0}), Value::Int(10 + row), 2, false, nullptr);
    state.Set(Fp({0, row, 1}), Value::Uint(1), 3, true, nullptr);
    state.Set(Fp({0, row, 1, 0}), Value::String("x"), 4, false, nullptr);
  }
  Collect dropped;
  state.Set(Fp({0}), Value::Uint(1), 1, true, &dropped);
  // Row 1: its field, the nested array's length and its element.
  EXPECT_EQ(dropped.seen.size(), 3u);
  EXPECT_EQ(state.Get(Fp({0, 0, 0})).value.i, 10);
  EXPECT_TRUE(state.Get(Fp({0, 1, 0})).value.is_none());
  EXPECT_FALSE(state.HasFields(Fp({0, 1})));
  // A shrink to zero, then regrowth reuses storage without resurrecting.
  state.Set(Fp({0}), Value::Uint(0), 1, true, &dropped);
  state.Set(Fp({0}), Value::Uint(2), 1, true, &dropped);
  state.Set(Fp({0, 1, 0}), Value::Int(99), 2, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0, 1, 0})).value.i, 99);
  EXPECT_TRUE(state.Get(Fp({0, 0, 0})).value.is_none());
}

TEST(FieldState, LengthOnAValueSlotJustStoresIt) {
  PathState state;
  Collect dropped;
  state.Set(Fp({4}), Value::Uint(3), 1, true, &dropped);
  state.Set(Fp({4}), Value::Uint(0), 1, true, &dropped);
  EXPECT_TRUE(dropped.seen.empty());
  EXPECT_EQ(state.Get(Fp({4})).value.u, 0u);
}

TEST(FieldState, VisitAllReportsEveryValueWithItsFieldInPathOrder) {
  PathState state;
  state.Set(Fp({2}), Value::Int(5), 7, false, nullptr);
  state.Set(Fp({0}), Value::Uint(1), 1, true, nullptr);
  state.Set(Fp({0, 0}), Value::String("s"), 2, false, nullptr);
  state.Set(Fp({1}), Value::Int(-1), 3, false, nullptr);
  Collect all;
  state.VisitAll(&all);
  std::vector<std::pair<uint32_t, std::string>> expected = {
      {1, "1"}, {2, "s"}, {3, "-1"}, {7, "5"}};
  EXPECT_EQ(all.seen, expected);
}

TEST(FieldState, StringsAreOwnedAndReused) {
  PathState state;
  std::string text = "first";
  state.Set(Fp({0}), Value::String(text), 1, false, nullptr);
  text = "xxxxx";  // the state keeps its own copy
  EXPECT_EQ(state.Get(Fp({0})).value.s, "first");
  state.Set(Fp({0}), Value::String("second, longer than sixteen bytes"), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0})).value.s, "second, longer than sixteen bytes");
  state.Set(Fp({0}), Value::Int(3), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0})).value.kind, ValueKind::kInt);
  // Copies are independent (a baseline copied into a new entity).
  FieldLayout layout;
  PathState base(&layout);
  base.Set(Fp({0}), Value::String("base"), 1, false, nullptr);
  FieldState copy = base.state();
  copy.Set(layout, layout.Find(Fp({0})), Value::String("entity"), 1, false, nullptr);
  EXPECT_EQ(base.Get(Fp({0})).value.s, "base");
  EXPECT_EQ(copy.Get(layout, Fp({0})).value.s, "entity");
}

// A string's index and a number share a slot's room: every change of kind
// reads back as set, and a freed string is reused by the next one.
TEST(FieldState, StringsAndNumbersShareASlotInTurn) {
  PathState state;
  state.Set(Fp({0}), Value::String("zero"), 1, false, nullptr);
  state.Set(Fp({1}), Value::String("one"), 2, false, nullptr);
  // The first slot's string gives way to a number that fills its room.
  state.Set(Fp({0}), Value::Int(-1), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0})).value.kind, ValueKind::kInt);
  EXPECT_EQ(state.Get(Fp({0})).value.i, -1);
  EXPECT_EQ(state.Get(Fp({1})).value.s, "one");
  const float xyz[3] = {1.5f, -2.0f, 3.25f};
  state.Set(Fp({2}), Value::Vector(xyz, 3), 3, false, nullptr);
  // A third string takes the freed one; the others keep theirs.
  state.Set(Fp({2}), Value::String("two"), 3, false, nullptr);
  EXPECT_EQ(state.Get(Fp({2})).value.s, "two");
  EXPECT_EQ(state.Get(Fp({1})).value.s, "one");
  EXPECT_EQ(state.Get(Fp({0})).value.i, -1);
  // And back: a string where a number was, then a number where it was.
  state.Set(Fp({0}), Value::String("zero again"), 1, false, nullptr);
  state.Set(Fp({1}), Value::Int(7), 2, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0})).value.s, "zero again");
  EXPECT_EQ(state.Get(Fp({1})).value.i, 7);
  EXPECT_EQ(state.Get(Fp({2})).value.s, "two");
  // A string reads back with no number beside it (this one's index is 2,
  // which its room holds).
  const Value again = state.Get(Fp({0})).value;
  EXPECT_EQ(again.u, 0u);
  EXPECT_EQ(again.v[2], 0.0f);
}

}  // namespace
}  // namespace gem
