#include "tools/bench/frame_cost.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tools/bench/measure.h"

namespace gem::bench {
namespace {

// The child's first line of output (gem-view prints its URL), or "".
std::string FirstLine(int fd) {
  std::string line;
  char c;
  while (line.size() < 200 && read(fd, &c, 1) == 1 && c != '\n') line.push_back(c);
  return line;
}

// GET `path` from 127.0.0.1:`port`; the status code and body, or -1.
int Get(int port, const std::string& path, std::string* body) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  const std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  if (write(fd, req.data(), req.size()) != static_cast<ssize_t>(req.size())) {
    close(fd);
    return -1;
  }
  std::string all;
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) all.append(buf, static_cast<size_t>(n));
  close(fd);
  const size_t head = all.find("\r\n\r\n");
  int status = -1;
  if (head == std::string::npos || std::sscanf(all.c_str(), "HTTP/1.%*d %d", &status) != 1) {
    return -1;
  }
  *body = all.substr(head + 4);
  return status;
}

}  // namespace

FrameFigures MeasureFrames(const std::string& view, const std::string& libgem,
                           const std::string& index, int requests) {
  FrameFigures f;
  if (access(view.c_str(), X_OK) != 0) {
    f.error = view + " not found (run gem-bench from the checkout)";
    return f;
  }
  int out[2];
  if (pipe(out) != 0) {
    f.error = "pipe failed";
    return f;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    execl(view.c_str(), view.c_str(), index.c_str(), "--port", "0", "--extension",
          libgem.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  const std::string url = FirstLine(out[0]);
  int port = 0;
  if (pid < 0 || std::sscanf(url.c_str(), "http://127.0.0.1:%d/", &port) != 1) {
    f.error = "gem-view did not start (it said \"" + url + "\")";
  } else {
    std::string body;
    int64_t last_tick = 0;
    if (Get(port, "/api/m/0/info", &body) == 200) {
      const size_t at = body.find("\"last_tick\":");
      if (at != std::string::npos) last_tick = std::atoll(body.c_str() + at + 12);
    }
    std::mt19937_64 rng(11);
    std::vector<double> ms, bytes, units;
    Get(port, "/api/m/0/frame?tick=" + std::to_string(last_tick / 2), &body);  // warm-up
    for (int i = 0; i < requests && f.error.empty(); ++i) {
      const int64_t tick = static_cast<int64_t>(rng() % static_cast<uint64_t>(last_tick + 1));
      const double t0 = Now();
      const int status = Get(port, "/api/m/0/frame?tick=" + std::to_string(tick), &body);
      ms.push_back((Now() - t0) * 1e3);
      if (status != 200) {
        f.error = "frame at tick " + std::to_string(tick) + ": HTTP " + std::to_string(status);
        break;
      }
      bytes.push_back(static_cast<double>(body.size()));
      size_t n = 0;
      for (size_t p = body.find("{\"e\":"); p != std::string::npos; p = body.find("{\"e\":", p + 1)) {
        ++n;
      }
      units.push_back(static_cast<double>(n));
    }
    if (f.error.empty()) {
      f.requests = requests;
      f.p50_ms = Median(ms);
      f.p99_ms = Quantile(ms, 0.99);
      f.payload_bytes = Median(bytes);
      f.units = Median(units);
      f.ok = true;
    }
  }
  close(out[0]);
  if (pid > 0) {
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
  }
  return f;
}

}  // namespace gem::bench
