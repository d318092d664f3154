// cut_seeds FIXTURES_DIR OUT_DIR: writes the fuzz targets' seed corpora
// (seed_cutter.h) cut from every replay in FIXTURES_DIR, and from the index
// gem writes of each, as OUT_DIR/TARGET/NAME; tools/fuzz.sh hands them to
// libFuzzer beside each target's own corpus. Exit 0, 64 (usage), 66 (no
// replay found) or 73 (a seed cannot be written).
#include <dirent.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/util/exit_codes.h"
#include "core/input/mapped_file.h"
#include "indexer/indexer.h"
#include "tests/fuzz/seed_cutter.h"

namespace {

// The replay whose schema and baselines packet_entities_update loads.
constexpr char kEntitySchemaReplay[] = "dota2_haste_auto-20240102-2233-start";

std::vector<std::string> Replays(const std::string& dir) {
  std::vector<std::string> stems;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".dem") == 0) {
        stems.push_back(name.substr(0, name.size() - 4));
      }
    }
    closedir(d);
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

bool WriteSeed(const std::string& dir, const gem::fuzz::Seed& seed) {
  mkdir(dir.c_str(), 0755);
  const std::string path = dir + "/" + seed.name;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(seed.bytes.data(), 1, seed.bytes.size(), f) == seed.bytes.size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr, "usage: cut_seeds FIXTURES_DIR OUT_DIR\n");
    return gem::cli::kExitUsage;
  }
  const std::string fixtures = argv[1], out = argv[2];
  const std::vector<std::string> stems = Replays(fixtures);
  if (stems.empty()) {
    fmt::print(stderr, "cut_seeds: no .dem replay in {}\n", fixtures);
    return gem::cli::kExitNoInput;
  }
  mkdir(out.c_str(), 0755);
  const std::string index = out + "/.cut_seeds.db";
  std::map<std::string, size_t> per_target;
  for (const std::string& stem : stems) {
    std::vector<gem::fuzz::Seed> seeds;
    const std::string replay = fixtures + "/" + stem + ".dem";
    gem::MappedFile file;
    if (!file.Open(replay).ok()) continue;
    // A replay gem refuses still gives what was cut before the refusal.
    static_cast<void>(gem::fuzz::CutReplaySeeds(file.data(), file.size(), stem,
                                                stem == kEntitySchemaReplay, &seeds));
    gem::index::IndexOptions options;
    options.force = true;
    gem::index::IndexReport report;
    if (gem::index::IndexReplay(replay, index, options, &report).ok()) {
      static_cast<void>(gem::fuzz::CutIndexSeeds(index, stem, &seeds));
    }
    for (const gem::fuzz::Seed& seed : seeds) {
      if (!WriteSeed(out + "/" + seed.target, seed)) {
        fmt::print(stderr, "cut_seeds: cannot write {}/{}/{}\n", out, seed.target, seed.name);
        return gem::cli::kExitCantCreate;
      }
      ++per_target[seed.target];
    }
  }
  unlink(index.c_str());
  for (const auto& [target, n] : per_target) fmt::print("{}: {} seeds\n", target, n);
  return gem::cli::kExitOk;
}
