// The speed, memory and size goals gem holds itself to, each beside the
// figure gem-bench measured for it in this run (issue 30's lines):
//   parse          gem-dump parse at most 0.8 times haste's wall time, and
//                  at most twice its peak memory, on the auto and nekit
//                  fixtures and the 30- and 60-minute synthetic replays;
//   index          gem-index at most 1.6 times haste's parse wall time and
//                  3.0 times its CPU time at 30 and 60 minutes (keyframes
//                  and every table on), and the replays a CPU-hour of
//                  gem-index indexes (a figure, no line: what a corpus pays);
//   storage        at most 3.8 bytes a field change, keyframes included, in
//                  the index without the match layer (and the whole one's,
//                  for the record), keyframes within 12% of the index;
//   state          gem_state of every entity at a random tick at most 1.5
//                  times SQLite's own floor for as many rows, p50 at most
//                  20 ms and p99 at most 40 ms (the keyframe replay);
//   CS2            gem-index and gem-dump parse at most 0.5 times
//                  demoparser2's wall time (parseTicks of the timeline's
//                  props) and at most its memory, on the synthetic match;
//   tables         each wave of tables from now on costs gem-index at most
//                  5%: the match layer's and CS2's tables' costs (waves
//                  before the line) are figures to read a new wave against.
// A goal whose figure this run did not measure (no --peer, a length not
// written) is listed as not measured.
#ifndef GEM_TOOLS_BENCH_GOALS_H_
#define GEM_TOOLS_BENCH_GOALS_H_

#include <string>
#include <vector>

#include "tools/bench/report.h"

namespace gem::bench {

struct Goal {
  std::string what;     // "parse wall / haste"
  std::string replay;   // the replay it was measured on
  double target = 0;
  bool at_most = true;  // the figure must stay at or under the target
  bool has_target = true;  // false: a figure reported beside the goals
  bool measured = false;
  double value = 0;
  bool met() const {
    return measured && (!has_target || (at_most ? value <= target : value >= target));
  }
};

std::vector<Goal> Goals(const std::vector<Row>& rows);

void PrintGoals(const std::vector<Goal>& goals);
// The JSON document's "goals" member (without the key).
std::string GoalsJson(const std::vector<Goal>& goals);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_GOALS_H_
