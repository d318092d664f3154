// Keyframe rows decoded once (core/codec/keyframe_rows.h): a row's state
// as of its keyframe, its own or the entity's creation state (a born row),
// its later fields, the latest logged change and the run holding any tick
// of the interval; damage is refused and leaves nothing behind.
#include "core/codec/keyframe_rows.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"
#include "core/codec/varint.h"
#include "tests/support/keyframe_row_example.h"

namespace gem {
namespace {

constexpr int64_t kTick = 1800;  // every row's keyframe tick

std::string Creation() {
  std::vector<std::pair<uint32_t, Value>> entries = {
      {3, Value::Int(1)},       {4, Value::Uint(8)},    {9, Value::String("x")},
      {10, Value::Int(5)},      {11, Value::Bool(true)}};
  std::string blob;
  EncodeState(&entries, &blob);
  return blob;
}

// The example row (keyframe_row_example.h): 3 = -7, 9 = "radiant", 10 =
// 2.0; 4 in runs from 1805 and 1900; 9 logged at 1801 ("dire") and 1900
// (dropped); 12 logged at 3599.
std::string ExampleRow() { return testing::ExampleRow(); }

// A born row: its state is the creation state; 11 logged at 1800 and 1802.
std::string BornRow() {
  KeyframeWriter w;
  w.Begin(kTick, kKeyframeBorn);
  EXPECT_TRUE(w.AddLogged(11, 1800, Value::Bool(false)));
  EXPECT_TRUE(w.AddLogged(11, 1802, Value::Bool(true)));
  std::string row;
  w.Finish(&row);
  return row;
}

// A whole row: fields 1..n, every value a vector (x, -x) but field 2's, a
// string; field 1 in a run from 1900.
std::string WholeRow(uint32_t n) {
  KeyframeWriter w;
  w.Begin(kTick, 0);
  for (uint32_t f = 1; f <= n; ++f) {
    const float xs[2] = {static_cast<float>(f), -static_cast<float>(f)};
    w.AddState(f, f == 2 ? Value::String("two") : Value::Vector(xs, 2));
  }
  const RunRef runs[] = {RunRef{1900, 1, 0, 10}};
  w.AddRuns(1, runs);
  std::string row;
  w.Finish(&row);
  return row;
}

// A block of `rows` for entities 20, 21, ...
std::string Block(const std::vector<std::string>& rows) {
  KeyframeBlockWriter w;
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_TRUE(w.Add(20 + static_cast<int64_t>(i), rows[i]));
  KeyframeCompressor c;
  std::string block;
  EXPECT_TRUE(w.Finish(&c, &block));
  return block;
}

// The row's state as (field, JSON) pairs.
std::vector<std::pair<uint32_t, std::string>> StateOf(const KeyframeRows& rows, size_t i) {
  std::vector<std::pair<uint32_t, std::string>> out;
  const KeyframeRows::Row& row = rows.row(i);
  for (uint32_t s = row.state.begin; s < row.state.end; ++s) {
    std::string json;
    Value v;
    rows.Get(rows.state(s), &v);
    v.AppendJson(&json);
    out.emplace_back(rows.state(s).field, json);
  }
  return out;
}

// The JSON of the latest logged change of later field `l` of row i at
// `tick`, or "absent".
std::string Logged(const KeyframeRows& rows, size_t i, uint32_t field, int64_t tick) {
  const KeyframeRows::Row& row = rows.row(i);
  for (uint32_t l = row.later.begin; l < row.later.end; ++l) {
    if (rows.later(l).field != field) continue;
    Value v;
    if (!rows.LatestLogged(rows.later(l), static_cast<uint64_t>(tick - kTick), &v)) {
      return "absent";
    }
    std::string json;
    v.AppendJson(&json);
    return json;
  }
  return "not a later field";
}

TEST(KeyframeRows, ReadsARowAndMergesABornOneWithTheCreationState) {
  const std::string block = Block({ExampleRow(), BornRow()});
  KeyframeDecompressor d;
  KeyframeRows rows;
  ASSERT_TRUE(rows.Open(block, 20, &d));
  size_t i = 9;
  ASSERT_TRUE(rows.IndexOf(20, &i));
  EXPECT_EQ(i, 0u);
  EXPECT_FALSE(rows.IndexOf(22, &i));
  EXPECT_FALSE(rows.NeedsCreationState(0));
  EXPECT_TRUE(rows.NeedsCreationState(1));
  EXPECT_FALSE(rows.decoded(0));
  const std::string creation = Creation();
  uint64_t values = 0;
  ASSERT_TRUE(rows.Decode(0, kTick, creation, &values));
  EXPECT_TRUE(rows.decoded(0));
  EXPECT_FALSE(rows.decoded(1));
  // 3 state values, 3 logged changes.
  EXPECT_EQ(values, 6u);
  using Pairs = std::vector<std::pair<uint32_t, std::string>>;
  EXPECT_EQ(StateOf(rows, 0), (Pairs{{3, "-7"}, {9, "\"radiant\""}, {10, "2"}}));
  const KeyframeRows::Row& row = rows.row(0);
  ASSERT_EQ(row.later.end - row.later.begin, 3u);
  const KeyframeRows::Later& runs = rows.later(row.later.begin);
  EXPECT_EQ(runs.field, 4u);
  EXPECT_TRUE(runs.runs());
  ASSERT_EQ(runs.count(), 2u);
  const KeyframeRows::Run& first = rows.run(runs.begin);
  EXPECT_EQ(first.tick, 5u);  // 1805 - 1800
  EXPECT_EQ(first.page, 7);
  EXPECT_EQ(first.offset, 0u);
  EXPECT_EQ(first.length, 12u);
  EXPECT_EQ(rows.run(runs.begin + 1).page, 5);
  EXPECT_EQ(rows.run(runs.begin + 1).offset, 40u);
  // The run holding a tick: none before 1805, the first to 1899, the
  // second from 1900.
  EXPECT_EQ(rows.LatestRun(runs, 4), -1);
  EXPECT_EQ(rows.LatestRun(runs, 5), static_cast<int64_t>(runs.begin));
  EXPECT_EQ(rows.LatestRun(runs, 99), static_cast<int64_t>(runs.begin));
  EXPECT_EQ(rows.LatestRun(runs, 100), static_cast<int64_t>(runs.begin) + 1);
  EXPECT_EQ(rows.LatestRun(runs, 1799), static_cast<int64_t>(runs.begin) + 1);
  EXPECT_EQ(Logged(rows, 0, 9, 1800), "absent");
  EXPECT_EQ(Logged(rows, 0, 9, 1801), "\"dire\"");
  EXPECT_EQ(Logged(rows, 0, 9, 1899), "\"dire\"");
  EXPECT_EQ(Logged(rows, 0, 9, 1900), "null");  // dropped
  EXPECT_EQ(Logged(rows, 0, 9, 3599), "null");
  EXPECT_EQ(Logged(rows, 0, 12, 3598), "absent");
  EXPECT_EQ(Logged(rows, 0, 12, 3599), "2.5");
  // Every logged change in order.
  std::vector<std::pair<uint32_t, std::string>> logged;
  rows.ForEachLogged(rows.later(row.later.begin + 1), [&](uint32_t t, const Value& v) {
    std::string json;
    v.AppendJson(&json);
    logged.emplace_back(t, json);
  });
  EXPECT_EQ(logged, (Pairs{{1, "\"dire\""}, {100, "null"}}));

  ASSERT_TRUE(rows.Decode(1, kTick, creation, &values));
  EXPECT_EQ(StateOf(rows, 1),
            (Pairs{{3, "1"}, {4, "8"}, {9, "\"x\""}, {10, "5"}, {11, "true"}}));
  EXPECT_EQ(Logged(rows, 1, 11, 1800), "false");
  EXPECT_EQ(Logged(rows, 1, 11, 1801), "false");
  EXPECT_EQ(Logged(rows, 1, 11, 1802), "true");
  // The first row's values are still there after the second's decoded.
  EXPECT_EQ(StateOf(rows, 0).size(), 3u);
  EXPECT_EQ(Logged(rows, 0, 9, 1801), "\"dire\"");
  // A born row of an entity with no creation state recorded: no state.
  KeyframeRows again;
  ASSERT_TRUE(again.Open(block, 20, &d));
  ASSERT_TRUE(again.Decode(1, kTick, "", &values));
  EXPECT_TRUE(StateOf(again, 1).empty());
}

TEST(KeyframeRows, ReadsAWholeRowWhereItIs) {
  const std::string block = Block({WholeRow(300), WholeRow(2)});
  KeyframeDecompressor d;
  KeyframeRows rows;
  ASSERT_TRUE(rows.Open(block, 20, &d));
  EXPECT_FALSE(rows.NeedsCreationState(0));
  const size_t opened = rows.bytes();
  uint64_t values = 0;
  // The second row first: rows decode in any order.
  ASSERT_TRUE(rows.Decode(1, kTick, "", &values));
  ASSERT_TRUE(rows.Decode(0, kTick, "", &values));
  EXPECT_EQ(values, 302u);
  const auto state = StateOf(rows, 0);
  ASSERT_EQ(state.size(), 300u);
  EXPECT_EQ(state[0], std::make_pair(1u, std::string("[1,-1]")));
  EXPECT_EQ(state[1], std::make_pair(2u, std::string("\"two\"")));
  EXPECT_EQ(state[299], std::make_pair(300u, std::string("[300,-300]")));
  EXPECT_EQ(StateOf(rows, 1).size(), 2u);
  const KeyframeRows::Later& later = rows.later(rows.row(0).later.begin);
  ASSERT_TRUE(later.runs());
  EXPECT_EQ(rows.run(later.begin).tick, 100u);  // a run from 1900
  // Decoding kept 8 bytes a value (at most twice that as the array grows),
  // two later fields and two runs, and copied no value: whole rows' values
  // are read where they are in the body (300 vectors copied would add 2.7
  // KB more).
  EXPECT_LE(rows.bytes() - opened, 16 * 302 + 2 * 16 * 2 + 2 * 48);
}

TEST(KeyframeRows, RefusesDamageAndKeepsNothingOfIt) {
  KeyframeDecompressor d;
  uint64_t values = 0;
  // A creation state whose field ids do not ascend.
  std::string twice;
  twice.push_back(static_cast<char>(kStateFormatVersion));
  PutVarint(2, &twice);
  for (int k = 0; k < 2; ++k) {
    PutVarint((k == 0 ? 5u : 0u) << 3 | static_cast<uint32_t>(ValueKind::kInt), &twice);
    PutVarint(ZigZag(k), &twice);
  }
  {
    KeyframeRows rows;
    ASSERT_TRUE(rows.Open(Block({BornRow(), ExampleRow()}), 20, &d));
    const size_t empty = rows.bytes();
    EXPECT_FALSE(rows.Decode(0, kTick, twice, &values));
    EXPECT_FALSE(rows.decoded(0));
    EXPECT_FALSE(rows.Decode(0, kTick, Creation().substr(0, 6), &values));  // cut
    // What a failed decode wrote is gone: the next row starts at 0.
    ASSERT_TRUE(rows.Decode(1, kTick, Creation(), &values));
    EXPECT_EQ(rows.row(1).state.begin, 0u);
    EXPECT_EQ(rows.row(1).later.begin, 0u);
    EXPECT_GT(rows.bytes(), empty);
  }
  {
    // A row cut short.
    const std::string row = ExampleRow();
    KeyframeRows rows;
    ASSERT_TRUE(rows.Open(Block({row.substr(0, row.size() - 2)}), 20, &d));
    EXPECT_FALSE(rows.Decode(0, kTick, Creation(), &values));
    ASSERT_TRUE(rows.Open(Block({row}), 20, &d));
    EXPECT_TRUE(rows.Decode(0, kTick, Creation(), &values));
  }
  // Changes 2^32 ticks or more past the keyframe tick, logged or in runs.
  for (bool sought : {false, true}) {
    KeyframeWriter w;
    w.Begin(kTick, 0);
    w.AddState(1, Value::Int(1));
    const int64_t far = kTick + (int64_t{1} << 32);
    if (sought) {
      const RunRef runs[] = {RunRef{far, 1, 0, 4}};
      w.AddRuns(2, runs);
    } else {
      EXPECT_TRUE(w.AddLogged(2, far - 1, Value::Int(3)));
      EXPECT_TRUE(w.AddLogged(2, far, Value::Int(4)));
    }
    std::string row;
    w.Finish(&row);
    KeyframeRows rows;
    ASSERT_TRUE(rows.Open(Block({row}), 20, &d));
    EXPECT_FALSE(rows.Decode(0, kTick, "", &values)) << sought;
    EXPECT_FALSE(rows.decoded(0));
  }
  // Runs whose first ticks do not ascend, and a delta row (the tail's
  // alone) in a block.
  {
    KeyframeWriter w;
    w.Begin(kTick, 0);
    const RunRef runs[] = {RunRef{1900, 1, 0, 4}, RunRef{1850, 2, 0, 4}};
    w.AddRuns(2, runs);
    std::string row;
    w.Finish(&row);
    w.Begin(kTick, kKeyframeDelta);
    EXPECT_TRUE(w.AddLogged(2, 1801, Value::Int(1)));
    std::string delta;
    w.Finish(&delta);
    KeyframeRows rows;
    ASSERT_TRUE(rows.Open(Block({row, delta}), 20, &d));
    EXPECT_FALSE(rows.Decode(0, kTick, "", &values));
    EXPECT_FALSE(rows.Decode(1, kTick, "", &values));
  }
}

}  // namespace
}  // namespace gem
