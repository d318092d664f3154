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
#include <cstdlib>
#include <cstring>


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

namespace {

// Forks argv[0] (stdout to a pipe), reads all it writes, waits for it.
ChildRun ForkAndWait(const std::vector<std::string>& argv) {
  ChildRun run;
  int pipefd[2];
  if (argv.empty() || pipe(pipefd) != 0) return run;
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

// The launcher's pipes (-1: no launcher).
int g_to_launcher = -1, g_from_launcher = -1;

bool WriteAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}
bool ReadExactly(int fd, void* data, size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}
bool WriteString(int fd, const std::string& s) {
  const uint64_t n = s.size();
  return WriteAll(fd, &n, sizeof n) && WriteAll(fd, s.data(), s.size());
}
bool ReadString(int fd, std::string* s) {
  uint64_t n = 0;
  if (!ReadExactly(fd, &n, sizeof n) || n > (uint64_t{1} << 32)) return false;
  s->resize(n);
  return ReadExactly(fd, s->data(), n);
}

// The launcher: a request is the argument count and each argument; the
// answer the run's figures and its output. It ends when gem-bench closes
// its end.
[[noreturn]] void Launch(int in, int out) {
  for (;;) {
    uint64_t argc = 0;
    if (!ReadExactly(in, &argc, sizeof argc) || argc > 4096) _exit(0);
    std::vector<std::string> argv(argc);
    for (std::string& a : argv) {
      if (!ReadString(in, &a)) _exit(0);
    }
    const ChildRun run = ForkAndWait(argv);
    const int64_t figures[2] = {run.exit_code, run.peak_rss_kib};
    const double times[2] = {run.seconds, run.cpu_seconds};
    if (!WriteAll(out, figures, sizeof figures) || !WriteAll(out, times, sizeof times) ||
        !WriteString(out, run.out)) {
      _exit(0);
    }
  }
}

}  // namespace

void StartLauncher() {
  int to[2], from[2];
  if (g_to_launcher >= 0 || pipe(to) != 0) return;
  if (pipe(from) != 0) {
    close(to[0]);
    close(to[1]);
    return;
  }
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(to[1]);
    close(from[0]);
    Launch(to[0], from[1]);
  }
  close(to[0]);
  close(from[1]);
  if (pid < 0) {
    close(to[1]);
    close(from[0]);
    return;
  }
  g_to_launcher = to[1];
  g_from_launcher = from[0];
}

ChildRun RunChild(const std::vector<std::string>& argv) {
  if (g_to_launcher < 0) return ForkAndWait(argv);
  ChildRun run;
  const uint64_t argc = argv.size();
  bool ok = WriteAll(g_to_launcher, &argc, sizeof argc);
  for (const std::string& a : argv) ok = ok && WriteString(g_to_launcher, a);
  int64_t figures[2];
  double times[2];
  if (!ok || !ReadExactly(g_from_launcher, figures, sizeof figures) ||
      !ReadExactly(g_from_launcher, times, sizeof times) ||
      !ReadString(g_from_launcher, &run.out)) {
    return ChildRun();  // the launcher is gone: did not run
  }
  run.exit_code = static_cast<int>(figures[0]);
  run.peak_rss_kib = static_cast<long>(figures[1]);
  run.seconds = times[0];
  run.cpu_seconds = times[1];
  return run;
}

ParseRuns MeasureParse(const std::string& gem_dump, const std::string& replay, int runs) {
  ParseRuns result;
  const ChildRun run =
      RunChild({gem_dump, "parse", "--repeat", std::to_string(std::max(1, runs)), replay});
  if (run.exit_code != 0) {
    result.error = "gem-dump parse exited with " + std::to_string(run.exit_code);
    return result;
  }
  result.peak_rss_kib = run.peak_rss_kib;
  result.cpu_seconds = run.cpu_seconds;
  // "run<TAB>N<TAB>seconds" lines.
  size_t pos = 0;
  while (pos < run.out.size()) {
    size_t end = run.out.find('\n', pos);
    if (end == std::string::npos) end = run.out.size();
    const std::string line = run.out.substr(pos, end - pos);
    if (line.rfind("run\t", 0) == 0) {
      const size_t tab = line.rfind('\t');
      result.seconds.push_back(std::atof(line.c_str() + tab + 1));
    }
    pos = end + 1;
  }
  result.ok = !result.seconds.empty();
  if (!result.ok) result.error = "gem-dump parse printed no run";
  return result;
}

PairedRuns RunPairs(const std::vector<std::string>& a, const std::vector<std::string>& b,
                    int runs) {
  PairedRuns p;
  std::vector<double> a_s, b_s, a_cpu, b_cpu, wall, cpu;
  for (int i = 0; i < runs + 1; ++i) {  // the first pair warms up
    const ChildRun ra = RunChild(a);
    const ChildRun rb = RunChild(b);
    if (ra.exit_code != 0 || rb.exit_code != 0) {
      p.error = ra.exit_code != 0 ? "A exited with " + std::to_string(ra.exit_code)
                                  : "B exited with " + std::to_string(rb.exit_code);
      return p;
    }
    if (i == 0) continue;
    a_s.push_back(ra.seconds);
    b_s.push_back(rb.seconds);
    a_cpu.push_back(ra.cpu_seconds);
    b_cpu.push_back(rb.cpu_seconds);
    wall.push_back(ra.seconds / std::max(1e-9, rb.seconds));
    cpu.push_back(ra.cpu_seconds / std::max(1e-9, rb.cpu_seconds));
    p.a_peak_mib = std::max(p.a_peak_mib, ra.peak_rss_kib / 1024.0);
    p.b_peak_mib = std::max(p.b_peak_mib, rb.peak_rss_kib / 1024.0);
  }
  if (wall.empty()) {
    p.error = "no pairs counted";
    return p;
  }
  p.a_seconds = Median(a_s);
  p.b_seconds = Median(b_s);
  p.a_cpu_seconds = Median(a_cpu);
  p.b_cpu_seconds = Median(b_cpu);
  p.wall_ratio = Median(wall);
  p.cpu_ratio = Median(cpu);
  p.wall_ratio_min = *std::min_element(wall.begin(), wall.end());
  p.wall_ratio_max = *std::max_element(wall.begin(), wall.end());
  p.ok = true;
  return p;
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
