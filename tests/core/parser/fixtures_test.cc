// Every fixture replay is read to its end: Dota 2, Deadlock and CS2 reach
// their file info's playback ticks; the three 2014 beta Dota replays are
// refused as legacy replays.
#include <map>
#include <string>
#include <vector>

#include "core/parser/parser.h"
#include "gtest/gtest.h"
#include "tests/support/golden.h"
#include "tests/support/replay_fixture.h"
#include "tests/support/test_env.h"

namespace gem::testing {
namespace {

struct ManifestRow {
  std::string game;
  std::string notes;
};

std::map<std::string, ManifestRow> ReadManifest() {
  std::map<std::string, ManifestRow> out;
  std::vector<std::vector<std::string>> rows;
  if (!ReadTsv(FixturesDir() + "/MANIFEST.tsv", &rows)) return out;
  for (const auto& r : rows) {
    if (r.size() >= 10) out[r[0]] = {r[3], r[9]};
  }
  return out;
}

TEST(Fixtures, EveryReplayIsReadToItsEnd) {
  std::vector<std::string> names = AllFixtures();
  if (names.empty()) GTEST_SKIP() << "SKIPPED: no fixtures in " << FixturesDir();
  std::map<std::string, ManifestRow> manifest = ReadManifest();
  ASSERT_FALSE(manifest.empty()) << "MANIFEST.tsv missing from " << FixturesDir();
  int modern = 0, legacy = 0, cs2 = 0;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    auto parsed = ParseReplayFile(FixturesDir() + "/" + name, nullptr);
    const bool is_legacy = manifest[name].notes.find("LEGACY") != std::string::npos;
    if (is_legacy) {
      ++legacy;
      EXPECT_EQ(parsed->status.code(), Status::Code::kUnsupported);
      EXPECT_NE(parsed->status.message().find("legacy replay not supported"),
                std::string::npos)
          << parsed->status.ToString();
      continue;
    }
    ++modern;
    ASSERT_TRUE(parsed->status.ok()) << parsed->status.ToString();
    const ReplayMetadata& m = parsed->parser->metadata();
    EXPECT_FALSE(m.truncated);
    EXPECT_EQ(m.bytes_read, m.bytes) << "read to the end of the file";
    EXPECT_TRUE(m.has_file_info);
    EXPECT_GT(m.playback_ticks, 0);
    EXPECT_EQ(m.last_tick, m.playback_ticks) << "reaches the file info's playback ticks";
    EXPECT_GT(parsed->parser->entities().live_count(), 0u);
    EXPECT_EQ(m.game, manifest[name].game);
    // What the indexer does before its finish on a long replay: the
    // entities' states go, their class registries stay.
    const EntityManager& em = parsed->parser->entities();
    int found = 0, registries = 0;
    for (int i = 0; i < EntityManager::kMaxEntities; ++i) {
      const Entity* e = em.Get(i);
      if (e == nullptr) continue;
      ++found;
      registries += em.class_fields(e->class_id) != nullptr;
    }
    EXPECT_EQ(found, static_cast<int>(em.live_count()));
    const uint64_t live = em.live_count();
    parsed->parser->ReleaseEntityStates();
    int left = 0, kept = 0;
    for (int i = 0; i < EntityManager::kMaxEntities; ++i) left += em.Get(i) != nullptr;
    for (int c = 0; c < 1 << 14; ++c) kept += em.class_fields(c) != nullptr;
    EXPECT_EQ(left, 0);
    EXPECT_EQ(em.live_count(), live);
    EXPECT_GT(kept, 0);
    EXPECT_EQ(registries, found);
    if (m.game == "cs2") ++cs2;
  }
  EXPECT_EQ(modern + legacy, static_cast<int>(names.size()));
  std::printf("fixtures: %d read to their end (%d CS2), %d legacy refused\n", modern, cs2,
              legacy);
}

}  // namespace
}  // namespace gem::testing
