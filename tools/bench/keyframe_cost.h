// What keyframes buy and cost: one replay indexed with them (gem-index's
// default) and as one interval (--keyframe-seconds 0: no state but the
// creation states), the index sizes and the time of index runs, and
// `gem_state` of every entity at the same seeded random ticks on both,
// alternating, in one warm connection each; beside them, SQLite's own cost of stepping as many
// rows out of a virtual table that computes nothing (the floor no
// gem_state can go under), and gem_state pushed down to six fields.
#ifndef GEM_TOOLS_BENCH_KEYFRAME_COST_H_
#define GEM_TOOLS_BENCH_KEYFRAME_COST_H_

#include <string>

#include "tools/bench/frame_cost.h"

namespace gem::bench {

struct KeyframeFigures {
  bool ok = false;
  std::string error;
  int ticks = 0;                 // random ticks measured
  double rows = 0;               // rows per gem_state(tick), median
  double with_p50_ms = 0, with_p99_ms = 0, with_slowest_ms = 0;
  double without_p50_ms = 0, without_p99_ms = 0;
  double floor_p50_ms = 0, floor_p99_ms = 0;  // SQLite stepping as many rows
  double pushdown_p50_ms = 0;    // six fields of every entity, keyframes on
  double index_with_s = 0, index_without_s = 0;  // gem-index wall, medians
  uint64_t bytes_with = 0, bytes_without = 0;
  FrameFigures frames;  // gem-view's frame request on the index with keyframes
};

// `view`: tools/view/gem-view (its frame request is measured when it is
// there).
KeyframeFigures MeasureKeyframes(const std::string& gem_index, const std::string& libgem,
                                 const std::string& view, const std::string& replay,
                                 const std::string& work, int runs, int ticks);

// The figures as gem-bench's text (for replay `name`), and as the members
// of its JSON object "keyframes" (without the braces).
void PrintKeyframes(const std::string& name, const KeyframeFigures& k);
std::string KeyframesJson(const KeyframeFigures& k);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_KEYFRAME_COST_H_
