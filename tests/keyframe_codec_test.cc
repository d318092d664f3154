// The keyframe codec on its own: rows read back what was written (state,
// sought and logged fields, compressed or not), damage is refused, and row
// keys are where the layout says.
#include "core/codec/keyframe_codec.h"

#include <gtest/gtest.h>

#include <string>

#include "core/codec/state_codec.h"
#include "core/codec/varint.h"

namespace gem {
namespace {

std::string Row(bool compress) {
  KeyframeWriter w;
  w.Begin(1800, kKeyframeOverlay);
  w.AddState(3, Value::Int(-7));
  w.AddState(9, Value::String("radiant"));
  w.AddState(10, Value::None());
  w.AddSought(4, 1805);
  EXPECT_TRUE(w.AddLogged(9, 1801, Value::String("dire")));
  EXPECT_TRUE(w.AddLogged(9, 1900, Value::None()));
  EXPECT_FALSE(w.AddLogged(9, 1950, Value::Int(3)));  // another kind: refused
  EXPECT_TRUE(w.AddLogged(12, 3599, Value::Float(2.5f)));
  std::string row;
  w.Finish(&row);
  if (!compress) return row;
  // Repetitive enough to shrink.
  KeyframeWriter big;
  big.Begin(1800, 0);
  for (uint32_t f = 1; f < 200; ++f) big.AddState(f, Value::Uint(5));
  big.Finish(&row);
  std::string out;
  KeyframeCompressor c;
  EXPECT_TRUE(c.Compress(row, &out));
  EXPECT_LT(out.size(), row.size());
  return out;
}

TEST(KeyframeCodec, ReadsBackWhatWasWritten) {
  KeyframeDecompressor decompressor;
  KeyframeReader r;
  const std::string row = Row(false);  // the reader's views point into it
  ASSERT_TRUE(r.Open(row, 1800, &decompressor));
  EXPECT_TRUE(r.overlay());
  EXPECT_FALSE(r.born());
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
  EXPECT_TRUE(v.is_none());
  EXPECT_FALSE(state.Next(&f, &v));
  ASSERT_EQ(r.later_count(), 3u);
  bool sought;
  int64_t first, t;
  ASSERT_TRUE(r.NextLater(&f, &sought, &first));
  EXPECT_EQ(f, 4u);
  EXPECT_TRUE(sought);
  EXPECT_EQ(first, 1805);
  ASSERT_TRUE(r.NextLater(&f, &sought, &first));
  EXPECT_EQ(f, 9u);
  EXPECT_FALSE(sought);
  ASSERT_TRUE(r.NextLogged(&t, &v));  // the second change is left unread
  EXPECT_EQ(t, 1801);
  EXPECT_EQ(v.s, "dire");
  EXPECT_EQ(r.later_count(), 3u);
  ASSERT_TRUE(r.NextLater(&f, &sought, &first));
  EXPECT_EQ(f, 12u);
  ASSERT_TRUE(r.NextLogged(&t, &v));
  EXPECT_EQ(t, 3599);
  EXPECT_EQ(v.f, 2.5f);
  EXPECT_FALSE(r.NextLogged(&t, &v));
  EXPECT_FALSE(r.NextLater(&f, &sought, &first));
  EXPECT_TRUE(r.ok());
}

TEST(KeyframeCodec, CompressedRowsDecompress) {
  KeyframeDecompressor decompressor;
  KeyframeReader r;
  const std::string row = Row(true);
  ASSERT_TRUE(r.Open(row, 1800, &decompressor));
  StateReader state;
  ASSERT_TRUE(state.Open(r.state()));
  EXPECT_EQ(state.count(), 199u);
}

TEST(KeyframeCodec, RefusesDamage) {
  KeyframeDecompressor decompressor;
  KeyframeReader r;
  const std::string good = Row(false);
  for (size_t cut = 0; cut < good.size(); ++cut) {
    // Every prefix either fails to open or fails while reading.
    const std::string prefix = good.substr(0, cut);
    bool ok = r.Open(prefix, 1800, &decompressor);
    uint32_t f;
    bool sought;
    int64_t first, t;
    Value v;
    while (ok && r.NextLater(&f, &sought, &first)) {
      while (r.NextLogged(&t, &v)) {
      }
    }
    EXPECT_FALSE(ok && r.ok()) << "prefix of " << cut << " bytes";
  }
  EXPECT_FALSE(r.Open(std::string("\x02\x08", 2), 0, &decompressor));  // unknown flag
  EXPECT_FALSE(r.Open(std::string("\x01\x00\x00", 3), 0, &decompressor));  // old version
  EXPECT_FALSE(r.Open(std::string("\x03\x00\x00", 3), 0, &decompressor));  // unknown version
  // A compressed body claiming more than kMaxKeyframeBody, or more than
  // its bytes could expand to.
  const std::string huge = std::string("\x02\x04\x81\x80\x80\x08", 6) + std::string(64, '\0');
  EXPECT_FALSE(r.Open(huge, 0, &decompressor));
  EXPECT_FALSE(r.Open(std::string("\x02\x04\x80\x80\x40", 5) + std::string(3, '\0'), 0,
                      &decompressor));
  // A good frame claiming one byte more or less than it holds, or with
  // bytes after it.
  const std::string compressed = Row(true);
  ASSERT_TRUE(r.Open(compressed, 1800, &decompressor));
  size_t pos = 2;
  uint64_t size = 0;
  ASSERT_TRUE(GetVarint(compressed, &pos, &size));
  for (uint64_t claim : {size - 1, size + 1}) {
    std::string bad = compressed.substr(0, 2);
    PutVarint(claim, &bad);
    bad += compressed.substr(pos);
    EXPECT_FALSE(r.Open(bad, 1800, &decompressor)) << claim;
  }
  EXPECT_FALSE(r.Open(compressed + std::string(1, '\0'), 1800, &decompressor));
}

TEST(KeyframeCodec, KeysAndTicks) {
  EXPECT_EQ(KeyframeTickOf(-1, 1800), -1800);
  EXPECT_EQ(KeyframeTickOf(0, 1800), 0);
  EXPECT_EQ(KeyframeTickOf(3599, 1800), 1800);
  int64_t key = 0;
  ASSERT_TRUE(KeyframeKey(7, -1800, 1800, &key));
  EXPECT_EQ(key, int64_t{7} << kKeyframeSlotBits);
  ASSERT_TRUE(KeyframeKey(7, 3600, 1800, &key));
  EXPECT_EQ(key, (int64_t{7} << kKeyframeSlotBits) | 3);
  EXPECT_FALSE(KeyframeKey(7, -3600, 1800, &key));
  EXPECT_FALSE(KeyframeKey(int64_t{1} << 38, 0, 1800, &key));
  EXPECT_FALSE(KeyframeKey(7, 0, 0, &key));
}

}  // namespace
}  // namespace gem
