// FieldState: the slot tree of one entity, with the rules of the
// field-state seed (growth, values never replace nodes, lengths resize).
#include <string>
#include <utility>
#include <vector>

#include "core/field_state.h"
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

TEST(FieldState, SeedExample) {
  FieldState state;
  state.Set(Fp({0, 16}), Value::Int(12), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0, 16})).value.i, 12);
  EXPECT_TRUE(state.HasNode(Fp({0})));          // a table with fields
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
  FieldState state;
  state.Set(Fp({0}), Value::Bool(true), 1, false, nullptr);  // presence flag first
  state.Set(Fp({0, 2}), Value::Int(7), 2, false, nullptr);
  EXPECT_TRUE(state.HasNode(Fp({0})));
  // The flag that arrived first moved onto the node.
  EXPECT_TRUE(state.Get(Fp({0})).value.b);
  // A later value for the slot does not drop the table's fields.
  state.Set(Fp({0}), Value::Bool(false), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0, 2})).value.i, 7);
  EXPECT_FALSE(state.Get(Fp({0})).value.b);
}

TEST(FieldState, GrowthRule) {
  // Nodes start with 8 slots; writing index i needs i + 2 and grows to
  // max(i + 2, 2 x size): 8, 16, 32, 64, 128, 256 for indexes 0..186.
  FieldState state;
  state.Set(Fp({0, 0}), Value::Int(0), 1, false, nullptr);
  EXPECT_EQ(state.NodeSize(Fp({0})), 8u);
  std::vector<uint32_t> sizes;
  for (int i = 1; i <= 186; ++i) {
    state.Set(Fp({0, i}), Value::Int(i), 1, false, nullptr);
    uint32_t n = state.NodeSize(Fp({0}));
    if (sizes.empty() || sizes.back() != n) sizes.push_back(n);
  }
  EXPECT_EQ(sizes, (std::vector<uint32_t>{8, 16, 32, 64, 128, 256}));
  // A far index jumps straight to i + 2.
  state.Set(Fp({1, 1000}), Value::Int(1), 2, false, nullptr);
  EXPECT_EQ(state.NodeSize(Fp({1})), 1002u);
  for (int i = 0; i <= 186; ++i) EXPECT_EQ(state.Get(Fp({0, i})).value.i, i);
}

TEST(FieldState, ShrinkDropsWholeSubtrees) {
  FieldState state;
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
  EXPECT_FALSE(state.HasNode(Fp({0, 1})));
  // A shrink to zero, then regrowth reuses storage without resurrecting.
  state.Set(Fp({0}), Value::Uint(0), 1, true, &dropped);
  state.Set(Fp({0}), Value::Uint(2), 1, true, &dropped);
  state.Set(Fp({0, 1, 0}), Value::Int(99), 2, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0, 1, 0})).value.i, 99);
  EXPECT_TRUE(state.Get(Fp({0, 0, 0})).value.is_none());
}

TEST(FieldState, LengthOnAValueSlotJustStoresIt) {
  FieldState state;
  Collect dropped;
  state.Set(Fp({4}), Value::Uint(3), 1, true, &dropped);
  state.Set(Fp({4}), Value::Uint(0), 1, true, &dropped);
  EXPECT_TRUE(dropped.seen.empty());
  EXPECT_EQ(state.Get(Fp({4})).value.u, 0u);
}

TEST(FieldState, VisitAllReportsEveryValueWithItsFieldInPathOrder) {
  FieldState state;
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
  FieldState state;
  std::string text = "first";
  state.Set(Fp({0}), Value::String(text), 1, false, nullptr);
  text = "xxxxx";  // the state keeps its own copy
  EXPECT_EQ(state.Get(Fp({0})).value.s, "first");
  state.Set(Fp({0}), Value::String("second, longer than sixteen bytes"), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0})).value.s, "second, longer than sixteen bytes");
  state.Set(Fp({0}), Value::Int(3), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0})).value.kind, ValueKind::kInt);
  // Copies are independent.
  FieldState copy = state;
  copy.Set(Fp({0}), Value::Int(4), 1, false, nullptr);
  EXPECT_EQ(state.Get(Fp({0})).value.i, 3);
}

TEST(FieldState, RefusesIndexesTooLargeToBeReal) {
  FieldState state;
  EXPECT_FALSE(state.Set(Fp({FieldState::kMaxIndex + 1}), Value::Int(1), 1, false, nullptr));
  EXPECT_FALSE(state.Set(Fp({-1}), Value::Int(1), 1, false, nullptr));
  EXPECT_EQ(state.slot_count(), FieldState::kInitialSlots);
}

}  // namespace
}  // namespace gem
