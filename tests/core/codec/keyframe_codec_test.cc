// The keyframe codec on its own: rows read back what was written (state,
// sought and logged fields), blocks of rows give each row back (compressed
// or stored), damage is refused, and block keys are where the layout says.
#include "core/codec/keyframe_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/codec/keyframe_block.h"
#include "core/codec/state_codec.h"
#include "core/codec/varint.h"
#include "tests/support/keyframe_row_example.h"

namespace gem {
namespace {

std::string Row() { return testing::ExampleRow(); }

// A whole-state row of `fields` fields, all `value`.
std::string WholeRow(uint32_t fields, uint64_t value) {
  KeyframeWriter w;
  w.Begin(1800, 0);
  for (uint32_t f = 1; f <= fields; ++f) w.AddState(f, Value::Uint(value));
  std::string row;
  w.Finish(&row);
  return row;
}

bool SameRun(const RunRef& a, const RunRef& b) {
  return a.first_tick == b.first_tick && a.page == b.page && a.offset == b.offset &&
         a.length == b.length;
}

TEST(KeyframeCodec, ReadsBackWhatWasWritten) {
  KeyframeReader r;
  const std::string row = Row();  // the reader's views point into it
  ASSERT_TRUE(r.Open(row, 1800));
  EXPECT_FALSE(r.born());
  EXPECT_FALSE(r.delta());
  StateReader state;
  ASSERT_TRUE(state.Open(r.state()));
  uint32_t f;
  Value v;
  ASSERT_TRUE(state.Next(&f, &v));
  EXPECT_EQ(f, 3u);
  EXPECT_EQ(v.i, -7);
  ASSERT_TRUE(state.Next(&f, &v));
  EXPECT_EQ(v.s, "radiant");
  ASSERT_TRUE(state.Next(&f, &v));
  EXPECT_EQ(f, 10u);
  EXPECT_EQ(v.f, 2.0f);
  EXPECT_FALSE(state.Next(&f, &v));
  ASSERT_EQ(r.later_count(), 3u);
  bool runs;
  uint64_t count;
  int64_t t;
  ASSERT_TRUE(r.NextLater(&f, &runs, &count));
  EXPECT_EQ(f, 4u);
  EXPECT_TRUE(runs);
  ASSERT_EQ(count, 2u);
  RunRef run;
  for (const RunRef& want : testing::ExampleRuns()) {
    ASSERT_TRUE(r.NextRun(&run));
    EXPECT_TRUE(SameRun(run, want)) << run.first_tick;
  }
  EXPECT_FALSE(r.NextRun(&run));
  ASSERT_TRUE(r.NextLater(&f, &runs, &count));
  EXPECT_EQ(f, 9u);
  EXPECT_FALSE(runs);
  EXPECT_EQ(count, 2u);
  ASSERT_TRUE(r.NextLogged(&t, &v));  // the second change is left unread
  EXPECT_EQ(t, 1801);
  EXPECT_EQ(v.s, "dire");
  ASSERT_TRUE(r.NextLater(&f, &runs, &count));
  EXPECT_EQ(f, 12u);
  ASSERT_TRUE(r.NextLogged(&t, &v));
  EXPECT_EQ(t, 3599);
  EXPECT_EQ(v.f, 2.5f);
  EXPECT_FALSE(r.NextLogged(&t, &v));
  EXPECT_FALSE(r.NextLater(&f, &runs, &count));
  EXPECT_TRUE(r.ok());
}

TEST(KeyframeCodec, AWholeStateBlobAndADeltaRow) {
  // SetState takes a state blob as the row's state, verbatim.
  std::vector<std::pair<uint32_t, Value>> entries = {{2, Value::Int(4)}, {7, Value::Bool(true)}};
  std::string blob;
  EncodeState(&entries, &blob);
  KeyframeWriter w;
  w.Begin(0, 0);
  w.SetState(blob);
  ASSERT_TRUE(w.AddLogged(2, 5, Value::Int(6)));
  std::string row;
  w.Finish(&row);
  KeyframeReader r;
  ASSERT_TRUE(r.Open(row, 0));
  EXPECT_EQ(r.state(), blob);
  // A delta row has no state part, only logged changes.
  w.Begin(0, kKeyframeDelta);
  ASSERT_TRUE(w.AddLogged(7, 3, Value::Bool(false)));
  w.Finish(&row);
  ASSERT_TRUE(r.Open(row, 0));
  EXPECT_TRUE(r.delta());
  EXPECT_TRUE(r.state().empty());
  uint32_t f;
  bool runs;
  uint64_t count;
  ASSERT_TRUE(r.NextLater(&f, &runs, &count));
  EXPECT_EQ(f, 7u);
  EXPECT_FALSE(runs);
  // Born and delta at once is not a row.
  std::string both = row;
  both[1] = static_cast<char>(kKeyframeBorn | kKeyframeDelta);
  EXPECT_FALSE(r.Open(both, 0));
}

TEST(KeyframeCodec, ANegativeKeyframeTickReadsItsTicks) {
  // The signon's interval starts at minus the interval: its row's logged
  // and run ticks count from a negative tick (once a signed overflow in
  // the reader's bound, which UBSan caught).
  const int64_t k = -7200;
  KeyframeWriter w;
  w.Begin(k, 0);
  w.AddState(1, Value::Uint(5));
  ASSERT_TRUE(w.AddLogged(2, -1, Value::Int(-3)));
  ASSERT_TRUE(w.AddLogged(2, 40, Value::Int(7)));
  const RunRef runs3[] = {RunRef{-1, 3, 0, 9}};
  w.AddRuns(3, runs3);
  std::string row;
  w.Finish(&row);
  KeyframeReader r;
  ASSERT_TRUE(r.Open(row, k));
  uint32_t f;
  bool runs;
  uint64_t count;
  int64_t tick;
  Value v;
  ASSERT_TRUE(r.NextLater(&f, &runs, &count));
  EXPECT_EQ(f, 2u);
  EXPECT_FALSE(runs);
  ASSERT_TRUE(r.NextLogged(&tick, &v));
  EXPECT_EQ(tick, -1);
  EXPECT_EQ(v.i, -3);
  ASSERT_TRUE(r.NextLogged(&tick, &v));
  EXPECT_EQ(tick, 40);
  EXPECT_EQ(v.i, 7);
  ASSERT_TRUE(r.NextLater(&f, &runs, &count));
  EXPECT_EQ(f, 3u);
  EXPECT_TRUE(runs);
  RunRef run;
  ASSERT_TRUE(r.NextRun(&run));
  EXPECT_EQ(run.first_tick, -1);
  EXPECT_FALSE(r.NextLater(&f, &runs, &count));
  EXPECT_TRUE(r.ok());
  // A delta past int64 from the most negative tick is still refused.
  std::string far;
  far.push_back(static_cast<char>(kKeyframeFormatVersion));
  far.push_back(static_cast<char>(kKeyframeBorn));
  PutVarint(1, &far);  // one later field
  PutVarint(4, &far);  // field 4
  PutVarint(3, &far);  // one run
  PutVarint(~uint64_t{0}, &far);
  PutVarint(1, &far);
  PutVarint(0, &far);
  PutVarint(1, &far);
  ASSERT_TRUE(r.Open(far, INT64_MIN + 1));
  ASSERT_TRUE(r.NextLater(&f, &runs, &count));
  EXPECT_FALSE(r.NextRun(&run));
  EXPECT_FALSE(r.ok());
}

TEST(KeyframeCodec, RefusesDamage) {
  KeyframeReader r;
  const std::string good = Row();
  for (size_t cut = 0; cut < good.size(); ++cut) {
    // Every prefix either fails to open or fails while reading.
    const std::string prefix = good.substr(0, cut);
    bool ok = r.Open(prefix, 1800);
    uint32_t f;
    bool runs;
    uint64_t count;
    int64_t t;
    Value v;
    RunRef run;
    while (ok && r.NextLater(&f, &runs, &count)) {
      while (r.NextLogged(&t, &v) || r.NextRun(&run)) {
      }
    }
    EXPECT_FALSE(ok && r.ok()) << "prefix of " << cut << " bytes";
  }
  EXPECT_FALSE(r.Open(std::string("\x03\x04", 2), 0));  // unknown flag
  EXPECT_FALSE(r.Open(std::string("\x02\x00\x00", 3), 0));  // format 2 rows are gone
  EXPECT_FALSE(r.Open(std::string("\x04\x00\x00", 3), 0));  // unknown version
  // A run of no bytes, a page id of 0 and a later run before its page 1
  // are damage.
  for (const auto& [page, length] : {std::pair<uint64_t, uint64_t>{3, 0}, {0, 4}}) {
    std::string bad;
    bad.push_back(static_cast<char>(kKeyframeFormatVersion));
    bad.push_back(static_cast<char>(kKeyframeBorn));
    PutVarint(1, &bad);
    PutVarint(1, &bad);
    PutVarint(3, &bad);  // one run
    PutVarint(1, &bad);
    PutVarint(page, &bad);
    PutVarint(0, &bad);
    PutVarint(length, &bad);
    ASSERT_TRUE(r.Open(bad, 0));
    uint32_t f;
    bool runs;
    uint64_t count;
    RunRef run;
    ASSERT_TRUE(r.NextLater(&f, &runs, &count));
    EXPECT_FALSE(r.NextRun(&run)) << page << " " << length;
  }
  // A code of 0 or 1 (no changes, no runs) is damage.
  for (uint64_t code : {0, 1}) {
    std::string bad;
    bad.push_back(static_cast<char>(kKeyframeFormatVersion));
    bad.push_back(static_cast<char>(kKeyframeBorn));
    PutVarint(1, &bad);
    PutVarint(1, &bad);
    PutVarint(code, &bad);
    bad += std::string(8, '\0');
    ASSERT_TRUE(r.Open(bad, 0));
    uint32_t f;
    bool runs;
    uint64_t count;
    EXPECT_FALSE(r.NextLater(&f, &runs, &count)) << code;
  }
}

// Rows of entities 5, 6 and 9, the middle one repetitive enough to shrink.
std::string Block(std::vector<std::string>* rows) {
  *rows = {Row(), WholeRow(200, 5), WholeRow(1, 7)};
  KeyframeBlockWriter w;
  EXPECT_TRUE(w.empty());
  EXPECT_TRUE(w.Add(5, (*rows)[0]));
  EXPECT_TRUE(w.Add(6, (*rows)[1]));
  EXPECT_FALSE(w.Add(6, (*rows)[2]));  // not past the last entity
  EXPECT_TRUE(w.Add(9, (*rows)[2]));
  EXPECT_EQ(w.first_entity(), 5);
  EXPECT_EQ(w.last_entity(), 9);
  EXPECT_EQ(w.row_bytes(), (*rows)[0].size() + (*rows)[1].size() + (*rows)[2].size());
  KeyframeCompressor c;
  std::string block;
  EXPECT_TRUE(w.Finish(&c, &block));
  EXPECT_TRUE(w.empty());
  return block;
}

TEST(KeyframeBlock, GivesEachRowBack) {
  std::vector<std::string> rows;
  const std::string block = Block(&rows);
  EXPECT_EQ(block[1], kKeyframeBlockCompressed);
  EXPECT_LT(block.size(), rows[1].size());
  KeyframeDecompressor d;
  KeyframeBlock b;
  ASSERT_TRUE(b.Open(block, 5, &d));
  EXPECT_EQ(b.rows(), 3u);
  EXPECT_EQ(b.first_entity(), 5);
  EXPECT_EQ(b.last_entity(), 9);
  std::string_view row;
  const int64_t entities[] = {5, 6, 9};
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(b.Find(entities[i], &row)) << entities[i];
    EXPECT_EQ(row, rows[i]);
  }
  for (int64_t absent : {4, 7, 8, 10}) EXPECT_FALSE(b.Find(absent, &row)) << absent;
  // The rows read as rows.
  ASSERT_TRUE(b.Find(6, &row));
  KeyframeReader r;
  ASSERT_TRUE(r.Open(row, 1800));
  StateReader state;
  ASSERT_TRUE(state.Open(r.state()));
  EXPECT_EQ(state.count(), 200u);
}

TEST(KeyframeBlock, StoresWhatDoesNotShrink) {
  // One row of one field: zstd's frame is larger than the body.
  KeyframeBlockWriter w;
  const std::string row = WholeRow(1, 3);
  ASSERT_TRUE(w.Add(12, row));
  KeyframeCompressor c;
  std::string block;
  ASSERT_TRUE(w.Finish(&c, &block));
  EXPECT_EQ(block[1], 0);
  KeyframeDecompressor d;
  KeyframeBlock b;
  ASSERT_TRUE(b.Open(block, 12, &d));
  std::string_view got;
  ASSERT_TRUE(b.Find(12, &got));
  EXPECT_EQ(got, row);
  // The block's entities count from its key's: read under another key,
  // its row is another entity's (which the table's last_entity catches).
  ASSERT_TRUE(b.Open(block, 11, &d));
  EXPECT_FALSE(b.Find(12, &got));
  EXPECT_EQ(b.last_entity(), 11);
}

TEST(KeyframeBlock, RefusesDamage) {
  std::vector<std::string> rows;
  const std::string block = Block(&rows);
  KeyframeDecompressor d;
  KeyframeBlock b;
  for (size_t cut = 0; cut < block.size(); ++cut) {
    EXPECT_FALSE(b.Open(block.substr(0, cut), 5, &d)) << "prefix of " << cut << " bytes";
  }
  EXPECT_FALSE(b.Open(block + std::string(1, '\0'), 5, &d));  // bytes after the frame
  EXPECT_FALSE(b.Open(std::string("\x02\x00\x01\x00\x00", 5), 5, &d));  // unknown version
  EXPECT_FALSE(b.Open(std::string("\x01\x02\x01\x00\x00", 5), 5, &d));  // unknown flag
  // A body claiming more than kMaxKeyframeBody, or more than its bytes
  // could expand to: refused before anything is allocated.
  EXPECT_FALSE(b.Open(std::string("\x01\x01\x81\x80\x80\x08", 6) + std::string(64, '\0'), 5, &d));
  EXPECT_FALSE(b.Open(std::string("\x01\x01\x80\x80\x40", 5) + std::string(3, '\0'), 5, &d));
  // A good frame claiming one byte more or less than it holds.
  size_t pos = 2;
  uint64_t size = 0;
  ASSERT_TRUE(GetVarint(block, &pos, &size));
  for (uint64_t claim : {size - 1, size + 1}) {
    std::string bad = block.substr(0, 2);
    PutVarint(claim, &bad);
    bad += block.substr(pos);
    EXPECT_FALSE(b.Open(bad, 5, &d)) << claim;
  }
  // Stored bodies: no rows; entities not ascending; rows overrunning the
  // body or leaving bytes over.
  const std::string stored("\x01\x00", 2);
  EXPECT_FALSE(b.Open(stored + std::string("\x00", 1), 5, &d));
  EXPECT_FALSE(b.Open(stored + std::string("\x02\x00\x01\x00\x01xy", 7), 5, &d));
  EXPECT_FALSE(b.Open(stored + std::string("\x01\x00\x03xy", 5), 5, &d));
  EXPECT_FALSE(b.Open(stored + std::string("\x01\x00\x01xy", 5), 5, &d));
  // More rows than a block may hold, though the body is long enough.
  std::string many = stored;
  PutVarint(kMaxKeyframeBlockRows + 1, &many);
  many += std::string(2 * kMaxKeyframeBlockRows + 4, '\0');
  EXPECT_FALSE(b.Open(many, 5, &d));
  EXPECT_TRUE(b.Open(stored + std::string("\x01\x00\x02xy", 5), 5, &d));
  EXPECT_TRUE(b.Open(stored + std::string("\x02\x00\x01\x03\x01xy", 7), 5, &d));
  EXPECT_EQ(b.last_entity(), 8);
}

TEST(KeyframeCodec, KeysAndTicks) {
  EXPECT_EQ(KeyframeTickOf(-1, 1800), -1800);
  EXPECT_EQ(KeyframeTickOf(0, 1800), 0);
  EXPECT_EQ(KeyframeTickOf(3599, 1800), 1800);
  EXPECT_EQ(KeyframeSlot(-1800, 1800), 0);
  EXPECT_EQ(KeyframeSlot(3600, 1800), 3);
  int64_t key = 0;
  ASSERT_TRUE(KeyframeBlockKey(0, 7, &key));
  EXPECT_EQ(key, 7);
  ASSERT_TRUE(KeyframeBlockKey(3, 7, &key));
  EXPECT_EQ(key, (int64_t{3} << 32) | 7);
  EXPECT_FALSE(KeyframeBlockKey(-1, 7, &key));
  EXPECT_FALSE(KeyframeBlockKey(int64_t{1} << 24, 7, &key));
  EXPECT_FALSE(KeyframeBlockKey(3, int64_t{1} << 32, &key));
  EXPECT_FALSE(KeyframeBlockKey(3, -1, &key));
}

}  // namespace
}  // namespace gem
