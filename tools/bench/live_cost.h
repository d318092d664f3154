// What a live run costs beside a plain one: the same finished replay
// indexed plain and live (--commit-seconds 1: committed every game second,
// readable while it is written), alternating run by run; CPU and wall
// medians, each ratio pairing a live run with the plain run just before
// it, and the two finished files' sizes. Then the lag from a fragment's
// arrival to its rows being readable, at two commit intervals, as
// tools/bench/live_lag.py measures it (in real time: the replay is played
// at its own pace).
#ifndef GEM_TOOLS_BENCH_LIVE_COST_H_
#define GEM_TOOLS_BENCH_LIVE_COST_H_

#include <cstdint>
#include <string>
#include <vector>

namespace gem::bench {

struct LiveLag {
  double commit_seconds = 0;
  int ticks = 0;  // ticks whose lag was measured
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
};

struct LiveCost {
  bool ok = false;
  std::string error;
  int pairs = 0;
  double plain_cpu_s = 0, live_cpu_s = 0, cpu_ratio = 0;
  double plain_s = 0, live_s = 0, wall_ratio = 0;
  double plain_peak_mib = 0, live_peak_mib = 0;
  uint64_t plain_bytes = 0, live_bytes = 0;
  // live_lag.py's figures: a growing file at each commit interval, and a
  // broadcast over HTTP (lag from each fragment's arrival).
  bool lag_ok = false;
  std::string lag_error;
  std::string lag_replay;
  std::vector<LiveLag> lags;
  double broadcast_p50_ms = 0, broadcast_p99_ms = 0;
};

// The CPU and size figures, on `replay`.
LiveCost MeasureLive(const std::string& gem_index, const std::string& replay,
                     const std::string& work, int runs);
// Adds the lag figures: live_lag.py (in `checkout`, with its build's
// gem-index) on `lag_replay` at commit intervals 1 and 4 s.
void MeasureLiveLag(const std::string& checkout, const std::string& lag_replay, LiveCost* c);

void PrintLive(const std::string& name, const LiveCost& c);
// The members of gem-bench's JSON object "live" (without the braces).
std::string LiveJson(const LiveCost& c);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_LIVE_COST_H_
