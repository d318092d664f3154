// What gem-bench measures by running things: child processes timed on the
// wall clock with their CPU time and peak resident memory (wait4's
// rusage).
//
// A child's peak counts what the process was before its exec: a fork of
// gem-bench itself, grown by then with what it measured (SQLite's pages,
// libgem): tens of MiB on a whole run, more than a short replay's parse.
// So children are forked by a launcher, a process forked from gem-bench
// first thing (StartLauncher), while it is a few MiB.
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

// Forks the launcher that runs every child from then on. Call first thing
// in main(), once; without it children are forked from gem-bench.
void StartLauncher();

// Runs argv[0] (a path) with its arguments, stdout captured, stderr
// passed through.
ChildRun RunChild(const std::vector<std::string>& argv);

struct ParseRuns {
  bool ok = false;
  std::string error;
  std::vector<double> seconds;  // one per run
  double cpu_seconds = 0;       // user + system time of the child, all runs
  long peak_rss_kib = 0;
};

// Parses `replay` `runs` times with no sink: `gem_dump` parse --repeat
// (the parse's own times, without the process's start and exit).
ParseRuns MeasureParse(const std::string& gem_dump, const std::string& replay, int runs);

// Two commands run in turn (A B A B ...): `runs` counted pairs after one
// pair that warms up. Ratios are A over B within each pair, so that they
// hold while the machine's speed drifts; times and ratios are medians.
struct PairedRuns {
  bool ok = false;
  std::string error;  // "A exited with N" / "B exited with N"
  double a_seconds = 0, b_seconds = 0, a_cpu_seconds = 0, b_cpu_seconds = 0;
  double wall_ratio = 0, cpu_ratio = 0, wall_ratio_min = 0, wall_ratio_max = 0;
  double a_peak_mib = 0, b_peak_mib = 0;  // the largest of the counted runs
};
PairedRuns RunPairs(const std::vector<std::string>& a, const std::vector<std::string>& b,
                    int runs);

// Seconds on the monotonic clock.
double Now();

double Median(std::vector<double> v);
// The value below which `q` (0..1) of the samples fall (nearest rank).
double Quantile(std::vector<double> v, double q);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_MEASURE_H_
