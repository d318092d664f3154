// gem-dump parse: parse only (no sink), timed. Prints one line per run and
// the median wall time, the rate and the process's peak resident memory.
#include <fmt/core.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/util/exit_codes.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"

namespace gem::dump {

int RunParse(const Args& args) {
  int repeat = 1;
  std::string path;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--repeat" && i + 1 < args.size()) {
      repeat = std::max(1, std::atoi(args[++i].c_str()));
    } else {
      path = args[i];
    }
  }
  if (path.empty()) {
    fmt::print(stderr, "usage: gem-dump parse [--repeat N] REPLAY.dem\n");
    return cli::kExitUsage;
  }
  std::vector<double> seconds;
  uint64_t replay_bytes = 0;
  for (int run = 0; run < repeat; ++run) {
    // Each run opens the replay again: a stream (compressed, a pipe) is
    // read once. Standard input is read once, so --repeat takes a file.
    if (path == "-" && run > 0) break;
    ReplayInput input;
    if (int rc = cli::OpenReplay("gem-dump", path, &input); rc != 0) return rc;
    auto start = std::chrono::steady_clock::now();
    ParserOptions options;
    // One pass: what is read need not stay resident.
    if (repeat == 1) options.consumed = cli::DropBehind(&input);
    auto parser = std::make_unique<Parser>(nullptr, options);
    Status s = parser->Parse(input.source());
    if (!s.ok()) s = input.FailureOf(s);
    replay_bytes = parser->metadata().bytes;
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The last parse's state goes with the process, which ends next.
    if (run + 1 == repeat) KeepUntilExit(std::move(parser));
    if (!s.ok()) {
      fmt::print(stderr, "gem-dump: {}: {}\n", path, s.ToString().c_str());
      return cli::ExitCodeFor(s);
    }
    seconds.push_back(dt);
    fmt::print("run\t{}\t{:.6f}\n", run + 1, dt);
  }
  std::sort(seconds.begin(), seconds.end());
  double median = seconds[seconds.size() / 2];
  if (seconds.size() % 2 == 0) {
    median = (seconds[seconds.size() / 2 - 1] + seconds[seconds.size() / 2]) / 2;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  fmt::print("median_seconds\t{:.6f}\n", median);
  fmt::print("mb_per_second\t{:.2f}\n", replay_bytes / 1e6 / median);
  fmt::print("peak_rss_kib\t{}\n", ru.ru_maxrss);
  return cli::kExitOk;
}

}  // namespace gem::dump
