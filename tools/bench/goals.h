// The speed, memory and size goals gem holds itself to, each beside the
// figure gem-bench measured for it in this run (issues 30 and 48's lines):
//   parse          gem-dump parse at most 0.8 times haste's wall time, and
//                  at most twice its peak memory, on the auto and nekit
//                  fixtures and the 10-, 30- and 60-minute synthetic replays;
//   index          gem-index at most 1.5 times haste's parse wall time and
//                  2.8 times its CPU time at 10, 30 and 60 minutes and on
//                  the 36-minute Deadlock match (keyframes and every table
//                  on), and the replays a CPU-hour of gem-index indexes (a
//                  figure, no line: what a corpus pays);
//   memory         gem-index's peak at most 100 MiB at 60 minutes of Dota
//                  and at every Deadlock length measured (36 and 72);
//   storage        at most 3.5 bytes a field change, keyframes included, in
//                  the index without the match layer (the whole index's,
//                  and its size against the replay and its .dem.bz2, for
//                  the record);
//   state          gem_state of every entity at a random tick (40 seeded
//                  ticks of the keyframe replay) p50 at most 10 ms, the
//                  slowest at most 25 ms, p50 at most 1.5 times SQLite's
//                  own floor for as many rows; gem_value at most 20 us;
//   live           a live run (--commit-seconds 1) at most twice a plain
//                  run's CPU, its finished file within 2% of the plain
//                  one's; the lag to readable rows at two commit intervals
//                  (figures);
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
  // The figures behind a ratio, for a reader: gem's ("1.94 s") and the
  // peer's ("haste 0.95 s"); empty when the goal is no ratio to a peer.
  std::string gem_figure, peer_figure;
  bool met() const {
    return measured && (!has_target || (at_most ? value <= target : value >= target));
  }
};

std::vector<Goal> Goals(const std::vector<Row>& rows);

void PrintGoals(const std::vector<Goal>& goals);
// The JSON document's "goals" member (without the key).
std::string GoalsJson(const std::vector<Goal>& goals);

// Where and when a run was made, for the performance page.
struct RunFacts {
  std::string date;     // UTC, YYYY-MM-DD
  std::string commit;   // git's short hash of the checkout, "+ changes" when it has some
  std::string machine;  // CPU model, cores, memory
  std::string command;  // the command line
};
// docs/performance.md: the goals as one Markdown table (the measure, its
// replay, its line, gem's figure, the peer's, met or not) under the run's
// date, commit and machine. Each run replaces the page.
std::string GoalsMarkdown(const std::vector<Goal>& goals, const RunFacts& facts);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_GOALS_H_
