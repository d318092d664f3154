// What gem-bench measures by running things: child processes timed on the
// wall clock with their peak resident memory (wait4's rusage), and the
// parser alone in a forked child (so that its peak memory is its own).
#ifndef GEM_TOOLS_BENCH_MEASURE_H_
#define GEM_TOOLS_BENCH_MEASURE_H_

#include <string>
#include <vector>

namespace gem::bench {

struct ChildRun {
  int exit_code = -1;      // -1: did not run or was killed
  double seconds = 0;      // wall clock
  double cpu_seconds = 0;  // user + system time of all its threads
  long peak_rss_kib = 0;   // the child's peak resident set
  std::string out;         // its standard output
};

// Runs argv[0] with its arguments, stdout captured, stderr passed through.
ChildRun RunChild(const std::vector<std::string>& argv);

struct ParseRuns {
  bool ok = false;
  std::string error;
  std::vector<double> seconds;  // one per run
  double cpu_seconds = 0;       // user + system time of the child, all runs
  long peak_rss_kib = 0;
};

// Parses `replay` `runs` times with no sink, in a forked child.
ParseRuns MeasureParse(const std::string& replay, int runs);

// Seconds on the monotonic clock.
double Now();

double Median(std::vector<double> v);
// The value below which `q` (0..1) of the samples fall (nearest rank).
double Quantile(std::vector<double> v, double q);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_MEASURE_H_
