// The seed cutter (seed_cutter.h) cuts whole frames and real messages: each
// seed is checked by the decoder it is meant for, read the way its fuzz
// target reads it.
#include "tests/fuzz/seed_cutter.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/util/bit_reader.h"
#include "core/codec/chunk_codec.h"
#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"
#include "core/input/demo_stream.h"
#include "core/fields/field_path.h"
#include "core/input/mapped_file.h"
#include "core/string_tables/string_table.h"
#include "indexer/indexer.h"
#include "tests/fuzz/input_reader.h"
#include "tests/fuzz/targets.h"
#include "tests/support/test_env.h"

namespace gem::fuzz {
namespace {

constexpr char kAuto[] = "dota2_haste_auto-20240102-2233-start.dem";

std::map<std::string, std::vector<const Seed*>> ByTarget(const std::vector<Seed>& seeds) {
  std::map<std::string, std::vector<const Seed*>> out;
  std::set<std::string> names;
  for (const Seed& s : seeds) {
    EXPECT_TRUE(names.insert(s.target + "/" + s.name).second) << s.name << " is cut twice";
    EXPECT_FALSE(s.bytes.empty()) << s.name;
    EXPECT_LE(s.bytes.size(), kMaxSeedBytes) << s.name;
    out[s.target].push_back(&s);
  }
  return out;
}

const uint8_t* Bytes(const Seed* s) { return reinterpret_cast<const uint8_t*>(s->bytes.data()); }

TEST(SeedCutter, ReplaySeedsAreWholeFramesAndRealMessages) {
  GEM_REQUIRE_FIXTURE(path, kAuto);
  // NewAutoFixtureEntities finds the fixture through GEM_FIXTURES.
  setenv("GEM_FIXTURES", testing::FixturesDir().c_str(), 1);
  MappedFile file;
  ASSERT_TRUE(file.Open(path).ok());
  std::vector<Seed> seeds;
  ASSERT_TRUE(CutReplaySeeds(file.data(), file.size(), "auto", true, &seeds).ok());
  auto by = ByTarget(seeds);

  // The outer stream: the header, then frames that end where the seed does.
  ASSERT_GE(by["demo_stream"].size(), 10u);
  for (const Seed* s : by["demo_stream"]) {
    gem::DemoStream stream(Bytes(s), s->bytes.size());
    ASSERT_TRUE(stream.Open().ok()) << s->name;
    int frames = 0;
    for (bool end = false;;) {
      Frame frame;
      ASSERT_TRUE(stream.Next(&frame, &end).ok()) << s->name << " cuts a frame";
      if (end) break;
      ++frames;
    }
    EXPECT_GE(frames, 1) << s->name;
  }

  // Entity packets: the signon's full update creates the match's entities
  // over the schema and baselines the target loads.
  ASSERT_FALSE(by["packet_entities_update"].empty());
  size_t most_created = 0;
  for (const Seed* s : by["packet_entities_update"]) {
    std::unique_ptr<EntityManager> entities = NewAutoFixtureEntities();
    ASSERT_NE(entities, nullptr);
    InputReader in(Bytes(s), s->bytes.size());
    if (entities->Apply(ReadEntityPacket(&in), TickInfo()).ok()) {
      most_created = std::max(most_created, entities->live_count());
    }
  }
  EXPECT_GE(most_created, 100u);

  // A table's creating entries apply under the settings the seed carries,
  // giving as many entries as the message said (an update's may need the
  // entries it changes, so they are only read).
  ASSERT_GE(by["string_table_entries"].size(), 5u);
  int creates = 0, updates = 0;
  for (const Seed* s : by["string_table_entries"]) {
    if (s->name.find(".update.") != std::string::npos) {
      ++updates;
      continue;
    }
    ++creates;
    InputReader in(Bytes(s), s->bytes.size());
    const auto [settings, entries] = ReadTableInput(&in);  // as the target reads it
    StringTable table(0, "seed", settings);
    std::vector<int32_t> changed;
    ASSERT_TRUE(table.ApplyEntries(in.rest(), in.rest_size(), entries, &changed).ok()) << s->name;
    EXPECT_EQ(table.size(), static_cast<size_t>(entries)) << s->name;
  }
  EXPECT_GE(creates, 5);
  EXPECT_GE(updates, 1);

  // Baselines: field-path streams from bit 0.
  ASSERT_GE(by["field_paths_and_decoders"].size(), 10u);
  for (const Seed* s : by["field_paths_and_decoders"]) {
    BitReader r(Bytes(s) + 1, s->bytes.size() - 1);
    std::vector<FieldPath> paths;
    ASSERT_TRUE(ReadFieldPaths(&r, &paths).ok()) << s->name;
    EXPECT_FALSE(paths.empty()) << s->name;
  }
}

TEST(SeedCutter, IndexSeedsAreChunksAndStatesTheCodecsRead) {
  GEM_REQUIRE_FIXTURE(path, kAuto);
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string index = std::string(tmp != nullptr ? tmp : "/tmp") + "/seed_cutter_test.db";
  index::IndexOptions options;
  options.force = true;
  index::IndexReport report;
  ASSERT_TRUE(index::IndexReplay(path, index, options, &report).ok());
  std::vector<Seed> seeds;
  ASSERT_TRUE(CutIndexSeeds(index, "auto", &seeds).ok());
  auto by = ByTarget(seeds);

  int chunks = 0, states = 0, blocks = 0;
  KeyframeDecompressor decompressor;
  for (const Seed* s : by["chunk_and_state_codecs"]) {
    int values = 0;
    int64_t tick;
    uint32_t id;
    Value v;
    if (s->name.find(".keyframes.") != std::string::npos) {
      // A block whose every row opens (the first entity is the key's).
      KeyframeBlock block;
      ASSERT_TRUE(block.Open(s->bytes, 1, &decompressor)) << s->name;
      std::string_view row;
      for (int64_t e = block.first_entity(); e <= block.last_entity(); ++e) {
        KeyframeReader r;
        if (block.Find(e, &row)) values += r.Open(row, 0) ? 1 : -1000;
      }
      EXPECT_EQ(values, static_cast<int>(block.rows())) << s->name;
      ++blocks;
    } else if (s->name.find(".chunk.") != std::string::npos) {
      ChunkReader reader;
      ASSERT_TRUE(reader.Open(s->bytes, 0)) << s->name;
      while (reader.Next(&tick, &v)) ++values;
      ++chunks;
    } else {
      StateReader reader;
      ASSERT_TRUE(reader.Open(s->bytes)) << s->name;
      while (reader.Next(&id, &v)) ++values;
      ++states;
    }
    EXPECT_GE(values, 1) << s->name;
  }
  EXPECT_GE(chunks, 10);
  EXPECT_GE(states, 10);
  EXPECT_GE(blocks, 1);

  // The extension target's layout: its first number is a creation tick
  // the index holds, the entity's state blob follows its header.
  ASSERT_GE(by["extension_queries"].size(), 10u);
  for (const Seed* s : by["extension_queries"]) {
    InputReader in(Bytes(s), s->bytes.size());
    const int64_t tick = in.Int();
    EXPECT_GE(tick, 0) << s->name;
    EXPECT_LE(tick, report.meta.last_tick) << s->name;
    in.Int();
    EXPECT_EQ(in.Int(), 7200) << s->name;  // keyframe_interval
    in.Byte();
    for (int i = 0; i < 6 * 2 + 1; ++i) in.Byte();
    for (int i = 0; i < 5; ++i) in.Byte();
    EXPECT_EQ(in.Int(), tick) << s->name;  // created_tick
    in.Int();
    EXPECT_EQ(in.U16(), 0) << s->name;  // no number of another type
    StateReader state;
    EXPECT_TRUE(state.Open(in.Blob())) << s->name;
  }
  // Some entity's seed holds rows, and a row names runs the seed holds.
  size_t with_rows = 0, with_runs = 0;
  for (const Seed* s : by["extension_queries"]) {
    InputReader in(Bytes(s), s->bytes.size());
    for (int i = 0; i < 3; ++i) in.Int();
    for (int i = 0; i < 1 + 6 * 2 + 1 + 5; ++i) in.Byte();
    in.Int();
    in.Int();
    in.U16();
    in.Blob();
    in.Int();
    in.Byte();
    const int rows = in.Byte();
    with_rows += rows > 0;
    for (int r = 0; r < rows; ++r) {
      in.Byte();
      const int64_t k = in.Int();
      KeyframeReader row;
      ASSERT_TRUE(row.Open(in.Blob(), k)) << s->name;
      in.Byte();
    }
    const int pages = in.Byte();
    with_runs += pages > 0;
    for (int p = 0; p < pages; ++p) {
      EXPECT_EQ(in.Byte(), p + 1) << s->name;
      ChunkReader run;
      EXPECT_TRUE(run.Open(in.Blob(), 0)) << s->name;
    }
  }
  EXPECT_GE(with_rows, 10u);
  EXPECT_GE(with_runs, 1u);
}

}  // namespace
}  // namespace gem::fuzz
