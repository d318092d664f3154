// What the match layer costs gem-index: the same replay indexed without it
// (--no-match-layer), with its default timeline step (a game second) and
// with every tick (--timeline-step 1), alternating run by run; times are
// medians and each ratio pairs a run with the run without the layer just
// before it (this machine's speed drifts).
#ifndef GEM_TOOLS_BENCH_MATCH_COST_H_
#define GEM_TOOLS_BENCH_MATCH_COST_H_

#include <cstdint>
#include <string>

namespace gem::bench {

struct MatchLayerCost {
  bool ok = false;
  std::string error;
  double without_s = 0, default_s = 0, every_tick_s = 0;
  double default_ratio = 0, every_tick_ratio = 0;  // over `without`
  double without_mb = 0, default_mb = 0, every_tick_mb = 0;
  int64_t default_rows = 0, every_tick_rows = 0;    // timeline rows
  double default_peak_mib = 0, every_tick_peak_mib = 0;
};

// What the game's analyst tables cost gem-index: the same replay with
// them and without (--no-game-tables), alternating run by run; each
// ratio pairs a run with the run without them just before it.
struct GameTablesCost {
  bool ok = false;
  std::string error;
  int pairs = 0;
  double with_s = 0, without_s = 0, wall_ratio = 0, cpu_ratio = 0;
  double wall_ratio_min = 0, wall_ratio_max = 0;
  double with_mb = 0, without_mb = 0, with_peak_mib = 0, without_peak_mib = 0;
};

GameTablesCost MeasureGameTables(const std::string& gem_index, const std::string& replay,
                                 const std::string& work, int runs);

MatchLayerCost MeasureMatchLayer(const std::string& gem_index, const std::string& replay,
                                 const std::string& work, int runs);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_MATCH_COST_H_
