#include "tools/bench/measure.h"

#include <fmt/core.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/mapped_file.h"
#include "core/parser.h"

namespace gem::bench {
namespace {

// Reads everything from fd until EOF.
std::string ReadAll(int fd) {
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return out;
    }
  }
}

double CpuSeconds(const struct rusage& ru) {
  auto sec = [](const struct timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return sec(ru.ru_utime) + sec(ru.ru_stime);
}

}  // namespace

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ChildRun RunChild(const std::vector<std::string>& argv) {
  ChildRun run;
  int pipefd[2];
  if (pipe(pipefd) != 0) return run;
  const double start = Now();
  pid_t pid = fork();
  if (pid < 0) {
    close(pipefd[0]);
    close(pipefd[1]);
    return run;
  }
  if (pid == 0) {
    dup2(pipefd[1], 1);
    close(pipefd[0]);
    close(pipefd[1]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    fmt::print(stderr, "gem-bench: cannot run {}: {}\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(pipefd[1]);
  run.out = ReadAll(pipefd[0]);
  close(pipefd[0]);
  int status = 0;
  struct rusage ru {};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  run.seconds = Now() - start;
  run.cpu_seconds = CpuSeconds(ru);
  run.peak_rss_kib = ru.ru_maxrss;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

ParseRuns MeasureParse(const std::string& replay, int runs) {
  ParseRuns result;
  int pipefd[2];
  if (pipe(pipefd) != 0) {
    result.error = "pipe failed";
    return result;
  }
  pid_t pid = fork();
  if (pid < 0) {
    result.error = "fork failed";
    return result;
  }
  if (pid == 0) {
    close(pipefd[0]);
    // The child: map, parse `runs` times, report "ok <seconds>..." or the
    // error, exit without running the parent's destructors.
    std::string report;
    MappedFile file;
    Status s = file.Open(replay);
    for (int i = 0; s.ok() && i < runs; ++i) {
      Parser parser(nullptr);
      const double start = Now();
      s = parser.Parse(file.data(), file.size());
      report += " " + std::to_string(Now() - start);
    }
    report = s.ok() ? "ok" + report : "error " + s.ToString();
    ssize_t ignored = write(pipefd[1], report.data(), report.size());
    static_cast<void>(ignored);
    _exit(0);
  }
  close(pipefd[1]);
  const std::string report = ReadAll(pipefd[0]);
  close(pipefd[0]);
  int status = 0;
  struct rusage ru {};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  result.peak_rss_kib = ru.ru_maxrss;
  result.cpu_seconds = CpuSeconds(ru);
  if (report.rfind("ok", 0) != 0) {
    result.error = report.empty() ? "the parse child died" : report;
    return result;
  }
  const char* p = report.c_str() + 2;
  char* end = nullptr;
  for (double v = std::strtod(p, &end); end != p; v = std::strtod(p, &end)) {
    result.seconds.push_back(v);
    p = end;
  }
  result.ok = true;
  return result;
}

double Median(std::vector<double> v) { return Quantile(std::move(v), 0.5); }

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
  if (rank > 0) --rank;
  return v[std::min(rank, v.size() - 1)];
}

}  // namespace gem::bench
