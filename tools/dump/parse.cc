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

#include "core/exit_codes.h"
#include "tools/cli/replay_file.h"
#include "tools/dump/commands.h"

namespace gem::dump {
// See RunParse. Not file-local: a store to it cannot be optimized away.
Parser* g_kept_parser = nullptr;

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
  MappedFile file;
  if (int rc = cli::OpenReplay("gem-dump", path, &file); rc != 0) return rc;
  std::vector<double> seconds;
  for (int run = 0; run < repeat; ++run) {
    auto start = std::chrono::steady_clock::now();
    ParserOptions options;
    // One pass: what is read need not stay resident.
    if (repeat == 1) options.consumed = [&file](uint64_t at) { file.DropBefore(at); };
    auto parser = std::make_unique<Parser>(nullptr, options);
    Status s = parser->Parse(file.data(), file.size());
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The last parse's state goes with the process, which ends next: giving
    // its many small blocks back one by one would cost a short replay's
    // parse about a twelfth more. Kept in a static, it is still reachable
    // at exit: a leak checker does not count it as lost.
    if (run + 1 == repeat) g_kept_parser = parser.release();
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
  fmt::print("mb_per_second\t{:.2f}\n", file.size() / 1e6 / median);
  fmt::print("peak_rss_kib\t{}\n", ru.ru_maxrss);
  return cli::kExitOk;
}

}  // namespace gem::dump
