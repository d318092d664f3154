// Every input that ever made a fuzz target crash, hang or trip a
// sanitizer (tests/fuzz/regressions/TARGET/, one file each), run through
// its target in the normal build: each must now be handled (the target
// returns). Under --config=asan the sanitizers watch them too.
#include <gtest/gtest.h>

#include <dirent.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/fuzz/targets.h"
#include "tests/support/test_env.h"

namespace gem::fuzz {
namespace {

using Target = int (*)(const uint8_t*, size_t);

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') files.push_back(dir + "/" + e->d_name);
    }
    closedir(d);
  }
  return files;
}

void RunAll(const std::string& target, Target fn, size_t* ran) {
  const char* root = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  ASSERT_NE(root, nullptr);
  const std::string dir = std::string(root) + "/" + (ws ? ws : "gem") +
                          "/tests/fuzz/regressions/" + target;
  for (const std::string& path : FilesIn(dir)) {
    std::string bytes;
    ASSERT_TRUE(testing::ReadFile(path, &bytes)) << path;
    EXPECT_EQ(fn(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0) << path;
    ++*ran;
  }
}

TEST(FuzzRegressions, EveryInputThatEverFailedIsHandled) {
  size_t ran = 0;
  RunAll("demo_stream", DemoStream, &ran);
  RunAll("compressed_replay", CompressedReplay, &ran);
  RunAll("packet_entities_update", PacketEntitiesUpdate, &ran);
  RunAll("string_table_entries", StringTableEntries, &ran);
  RunAll("field_paths_and_decoders", FieldPathsAndDecoders, &ran);
  RunAll("chunk_and_state_codecs", ChunkAndStateCodecs, &ran);
  RunAll("extension_queries", ExtensionQueries, &ran);
  RunAll("deadlock_user_messages", DeadlockUserMessages, &ran);
  RunAll("broadcast_fragments", BroadcastFragments, &ran);
  std::printf("fuzz regressions run: %zu\n", ran);
  if (ran == 0) GTEST_SKIP() << "SKIPPED: no regression input yet";
}

}  // namespace
}  // namespace gem::fuzz
