// String tables: the entry encoding and the rules of the string-table seed
// (relative jumps, a 32-name history over every entry, names that never
// change, updates without data clearing it), on hand-encoded messages.
#include <snappy.h>

#include <string>
#include <vector>

#include "core/util/bit_writer.h"
#include "core/string_tables/string_table.h"
#include "gtest/gtest.h"

namespace gem {
namespace {

class EntryWriter {
 public:
  explicit EntryWriter(bool varint_sizes = true) : varint_sizes_(varint_sizes) {}
  EntryWriter& Next() {
    w.WriteBool(true);
    return *this;
  }
  EntryWriter& Jump(uint32_t v) {  // index += v + 2
    w.WriteBool(false);
    w.WriteVarUint32(v);
    return *this;
  }
  EntryWriter& NoName() {
    w.WriteBool(false);
    return *this;
  }
  EntryWriter& Name(const std::string& s) {
    w.WriteBool(true);
    w.WriteBool(false);
    w.WriteString(s);
    return *this;
  }
  EntryWriter& HistoryName(uint32_t position, uint32_t length, const std::string& suffix) {
    w.WriteBool(true);
    w.WriteBool(true);
    w.WriteBits(position, 5);
    w.WriteBits(length, 5);
    w.WriteString(suffix);
    return *this;
  }
  EntryWriter& NoData() {
    w.WriteBool(false);
    return *this;
  }
  EntryWriter& Data(const std::string& d, bool compressed_flag_present = false,
                    bool compressed = false) {
    w.WriteBool(true);
    if (compressed_flag_present) w.WriteBool(compressed);
    if (varint_sizes_) {
      w.WriteUBitVar(static_cast<uint32_t>(d.size()));
    } else {
      w.WriteBits(d.size(), 17);
    }
    w.WriteBytes(d);
    return *this;
  }
  BitWriter w;

 private:
  bool varint_sizes_;
};

StringTableSettings VarintSizes() {
  StringTableSettings s;
  s.using_varint_bitcounts = true;
  return s;
}

Status Apply(StringTable* t, const EntryWriter& e, int n, std::vector<int32_t>* changed) {
  changed->clear();
  return t->ApplyEntries(e.w.bytes().data(), e.w.bytes().size(), n, changed);
}

TEST(StringTable, SeedNameCompressionExample) {
  StringTable t(6, "EntityNames", VarintSizes());
  EntryWriter e;
  for (int i = 0; i < 20; ++i) e.Next().Name("unit_" + std::to_string(i)).NoData();
  e.Next().Name("alpha_wolf_critical_strike").NoData();
  // Position 20 (oldest first), its first 12 characters, then the rest.
  e.Next().HistoryName(20, 12, "ommand_aura").NoData();
  std::vector<int32_t> changed;
  ASSERT_TRUE(Apply(&t, e, 22, &changed).ok());
  ASSERT_EQ(t.size(), 22u);
  EXPECT_EQ(t.entry(20).name, "alpha_wolf_critical_strike");
  EXPECT_EQ(t.entry(21).name, "alpha_wolf_command_aura");
  EXPECT_EQ(changed.size(), 22u);
}

TEST(StringTable, HistoryHoldsTheLast32EntriesOldestFirst) {
  StringTable t(0, "t", VarintSizes());
  EntryWriter e;
  for (int i = 0; i < 40; ++i) e.Next().Name("name_" + std::to_string(i) + "_x").NoData();
  // 40 entries sent: the history holds entries 8..39, so position 0 is 8.
  e.Next().HistoryName(0, 7, "_copy").NoData();
  e.Next().HistoryName(31, 7, "_copy").NoData();  // position 31: entry 40
  std::vector<int32_t> changed;
  ASSERT_TRUE(Apply(&t, e, 42, &changed).ok());
  EXPECT_EQ(t.entry(40).name, "name_8__copy");
  EXPECT_EQ(t.entry(41).name, "name_8__copy");  // entry 40's name, as it is
}

TEST(StringTable, EntriesWithoutANameCountTowardsTheHistory) {
  StringTable t(0, "t", VarintSizes());
  std::vector<int32_t> changed;
  EntryWriter create;
  create.Next().Name("alpha_wolf_critical_strike").Data("a");
  create.Next().Name("other").Data("b");
  ASSERT_TRUE(Apply(&t, create, 2, &changed).ok());

  // An update: entry 0 without a name, then a new entry whose name takes
  // the first 10 characters of history position 0 - entry 0's name.
  EntryWriter update;
  update.Next().NoName().Data("c");
  update.Jump(0).HistoryName(0, 10, "_new").NoData();  // 0 + 0 + 2 = 2
  ASSERT_TRUE(Apply(&t, update, 2, &changed).ok());
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.entry(2).name, "alpha_wolf_new");
  EXPECT_EQ(changed, (std::vector<int32_t>{0, 2}));
}

TEST(StringTable, AJumpLandsWhereTheNameSays) {
  // Entries named by their own index, as ActiveModifiers does.
  StringTable t(0, "ActiveModifiers", VarintSizes());
  std::vector<int32_t> changed;
  EntryWriter create;
  for (int i = 0; i < 10; ++i) create.Next().Name(std::to_string(i)).Data("v");
  ASSERT_TRUE(Apply(&t, create, 10, &changed).ok());

  EntryWriter update;
  update.Jump(1).NoName().Data("first");    // -1 + 1 + 2 = 2
  update.Jump(3).NoName().Data("second");   // 2 + 3 + 2 = 7 (an absolute jump would say 4)
  update.Jump(1).Name("10").Data("new");    // 7 + 1 + 2 = 10, a new entry named "10"
  ASSERT_TRUE(Apply(&t, update, 3, &changed).ok());
  EXPECT_EQ(changed, (std::vector<int32_t>{2, 7, 10}));
  EXPECT_EQ(t.entry(2).data, "first");
  EXPECT_EQ(t.entry(7).data, "second");
  EXPECT_EQ(t.entry(4).data, "v");
  ASSERT_EQ(t.size(), 11u);
  EXPECT_EQ(t.entry(10).name, "10");
  for (size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t.entry(i).name, std::to_string(i));
}

TEST(StringTable, NamesNeverChangeAndEmptyUpdatesClearData) {
  StringTable t(0, "t", VarintSizes());
  std::vector<int32_t> changed;
  EntryWriter create;
  create.Next().Name("keep").Data("payload");
  ASSERT_TRUE(Apply(&t, create, 1, &changed).ok());
  EntryWriter update;
  update.Next().Name("renamed").NoData();
  ASSERT_TRUE(Apply(&t, update, 1, &changed).ok());
  EXPECT_EQ(t.entry(0).name, "keep");
  EXPECT_EQ(t.entry(0).data, "");
}

TEST(StringTable, FixedSizeEntriesUseTheBitCount) {
  StringTableSettings s;
  s.user_data_fixed_size = true;
  s.user_data_size = 2;
  s.user_data_size_bits = 12;
  StringTable t(0, "fixed", s);
  BitWriter w;
  w.WriteBool(true);   // next
  w.WriteBool(true);   // name
  w.WriteBool(false);
  w.WriteString("k");
  w.WriteBool(true);   // data: 12 bits, no size
  w.WriteBits(0xABC, 12);
  w.WriteBool(true);   // a second entry proves the bit count was right
  w.WriteBool(true);
  w.WriteBool(false);
  w.WriteString("l");
  w.WriteBool(false);
  std::vector<int32_t> changed;
  ASSERT_TRUE(t.ApplyEntries(w.bytes().data(), w.bytes().size(), 2, &changed).ok());
  EXPECT_EQ(t.entry(0).data, std::string("\xBC\x0A", 2));
  EXPECT_EQ(t.entry(1).name, "l");
}

TEST(StringTable, SeventeenBitSizesWithoutVarintBitCounts) {
  StringTable t(0, "t", StringTableSettings());
  EntryWriter e(/*varint_sizes=*/false);
  e.Next().Name("a").Data("xyz");
  e.Next().Name("b").Data("");
  std::vector<int32_t> changed;
  ASSERT_TRUE(Apply(&t, e, 2, &changed).ok());
  EXPECT_EQ(t.entry(0).data, "xyz");
  EXPECT_EQ(t.entry(1).name, "b");
}

TEST(StringTable, SnappyCompressedEntries) {
  StringTableSettings s = VarintSizes();
  s.flags = 1;  // entries carry a "compressed" bit
  StringTable t(0, "instancebaseline", s);
  std::string raw(300, 'q');
  std::string packed;
  snappy::Compress(raw.data(), raw.size(), &packed);
  EntryWriter e;
  e.Next().Name("1").Data(packed, true, true);
  e.Next().Name("2").Data("plain", true, false);
  std::vector<int32_t> changed;
  ASSERT_TRUE(Apply(&t, e, 2, &changed).ok());
  EXPECT_EQ(t.entry(0).data, raw);
  EXPECT_EQ(t.entry(1).data, "plain");
}

TEST(StringTable, SnapshotsOnlyFillGaps) {
  StringTable t(0, "userinfo", VarintSizes());
  std::vector<int32_t> changed;
  EntryWriter create;
  create.Next().Name("0").Data("stream");
  create.Next().Name("1").NoData();
  ASSERT_TRUE(Apply(&t, create, 2, &changed).ok());
  changed.clear();
  t.ApplySnapshotEntry(0, "0", true, "snapshot", &changed);  // has data: kept
  t.ApplySnapshotEntry(1, "1", true, "filled", &changed);    // empty: filled
  t.ApplySnapshotEntry(2, "2", true, "added", &changed);     // new
  EXPECT_EQ(changed, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(t.entry(0).data, "stream");
  EXPECT_EQ(t.entry(1).data, "filled");
  EXPECT_EQ(t.entry(2).name, "2");
}

TEST(StringTable, DamagedMessagesAreErrors) {
  StringTable t(0, "t", VarintSizes());
  std::vector<int32_t> changed;
  {
    EntryWriter e;
    e.Next().Name("a");
    e.w.WriteBool(true);
    e.w.WriteUBitVar(4000);  // more data than the message holds
    e.w.WriteBytes("abc");
    Status s = Apply(&t, e, 1, &changed);
    EXPECT_EQ(s.code(), Status::Code::kCorrupt);
  }
  {
    BitWriter w;
    w.WriteBool(true);
    w.WriteBool(true);
    w.WriteBool(false);
    w.WriteBytes("unterminated");
    Status s = t.ApplyEntries(w.bytes().data(), w.bytes().size(), 1, &changed);
    EXPECT_EQ(s.code(), Status::Code::kCorrupt);
  }
  {
    EntryWriter e;
    e.Next().Name("only one").NoData();
    Status s = Apply(&t, e, 5, &changed);  // claims five entries
    EXPECT_EQ(s.code(), Status::Code::kCorrupt);
  }
}

}  // namespace
}  // namespace gem
