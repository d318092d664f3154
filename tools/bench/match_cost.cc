#include "tools/bench/match_cost.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "tools/bench/measure.h"

namespace gem::bench {
namespace {

double MiB(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? static_cast<double>(st.st_size) / 1e6 : 0;
}

int64_t TimelineRows(const std::string& path) {
  sqlite3* db = nullptr;
  int64_t n = -1;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM timeline", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      n = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return n;
}

}  // namespace

GameTablesCost MeasureGameTables(const std::string& gem_index, const std::string& replay,
                                 const std::string& work, int runs) {
  GameTablesCost c;
  const std::string with_db = work + "/tables-with.db", without_db = work + "/tables-without.db";
  const PairedRuns p = RunPairs({gem_index, "--force", "--quiet", replay, with_db},
                                {gem_index, "--force", "--quiet", "--no-game-tables", replay,
                                 without_db},
                                runs);
  if (!p.ok) {
    c.error = "gem-index: " + p.error + " (A with the game's tables, B without)";
    return c;
  }
  c.pairs = runs;
  c.with_s = p.a_seconds;
  c.without_s = p.b_seconds;
  c.wall_ratio = p.wall_ratio;
  c.cpu_ratio = p.cpu_ratio;
  c.wall_ratio_min = p.wall_ratio_min;
  c.wall_ratio_max = p.wall_ratio_max;
  c.with_peak_mib = p.a_peak_mib;
  c.without_peak_mib = p.b_peak_mib;
  c.with_mb = MiB(with_db);
  c.without_mb = MiB(without_db);
  std::remove(with_db.c_str());
  std::remove(without_db.c_str());
  c.ok = true;
  return c;
}

MatchLayerCost MeasureMatchLayer(const std::string& gem_index, const std::string& replay,
                                 const std::string& work, int runs) {
  MatchLayerCost c;
  const std::string db[3] = {work + "/match-none.db", work + "/match-default.db",
                             work + "/match-every-tick.db"};
  const std::vector<std::string> extra[3] = {
      {"--no-match-layer"}, {}, {"--timeline-step", "1"}};
  std::vector<double> seconds[3], ratio[2];
  double peak[3] = {0, 0, 0};
  for (int i = 0; i < runs; ++i) {
    double without = 0;
    for (int k = 0; k < 3; ++k) {
      std::vector<std::string> argv = {gem_index, "--force", "--quiet"};
      argv.insert(argv.end(), extra[k].begin(), extra[k].end());
      argv.push_back(replay);
      argv.push_back(db[k]);
      const ChildRun run = RunChild(argv);
      if (run.exit_code != 0) {
        c.error = "gem-index exited with " + std::to_string(run.exit_code);
        return c;
      }
      seconds[k].push_back(run.seconds);
      peak[k] = std::max(peak[k], run.peak_rss_kib / 1024.0);
      if (k == 0) without = run.seconds;
      else ratio[k - 1].push_back(run.seconds / std::max(1e-9, without));
    }
  }
  c.without_s = Median(seconds[0]);
  c.default_s = Median(seconds[1]);
  c.every_tick_s = Median(seconds[2]);
  c.default_ratio = Median(ratio[0]);
  c.every_tick_ratio = Median(ratio[1]);
  c.without_mb = MiB(db[0]);
  c.default_mb = MiB(db[1]);
  c.every_tick_mb = MiB(db[2]);
  c.default_rows = TimelineRows(db[1]);
  c.every_tick_rows = TimelineRows(db[2]);
  c.default_peak_mib = peak[1];
  c.every_tick_peak_mib = peak[2];
  for (const std::string& path : db) std::remove(path.c_str());
  c.ok = true;
  return c;
}

}  // namespace gem::bench
