#include "tools/bench/live_cost.h"

#include <fmt/core.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "tools/bench/measure.h"

namespace gem::bench {
namespace {

uint64_t FileBytes(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

}  // namespace

LiveCost MeasureLive(const std::string& gem_index, const std::string& replay,
                     const std::string& work, int runs) {
  LiveCost c;
  const std::string plain_db = work + "/live-plain.db", live_db = work + "/live-live.db";
  const PairedRuns p = RunPairs(
      {gem_index, "--force", "--quiet", "--commit-seconds", "1", replay, live_db},
      {gem_index, "--force", "--quiet", replay, plain_db}, runs);
  if (!p.ok) {
    c.error = "gem-index: " + p.error + " (A live, B plain)";
    return c;
  }
  c.pairs = runs;
  c.plain_cpu_s = p.b_cpu_seconds;
  c.live_cpu_s = p.a_cpu_seconds;
  c.cpu_ratio = p.cpu_ratio;
  c.plain_s = p.b_seconds;
  c.live_s = p.a_seconds;
  c.wall_ratio = p.wall_ratio;
  c.plain_peak_mib = p.b_peak_mib;
  c.live_peak_mib = p.a_peak_mib;
  c.plain_bytes = FileBytes(plain_db);
  c.live_bytes = FileBytes(live_db);
  std::remove(plain_db.c_str());
  std::remove(live_db.c_str());
  c.ok = true;
  return c;
}

void MeasureLiveLag(const std::string& checkout, const std::string& lag_replay, LiveCost* c) {
  c->lag_replay = lag_replay.substr(lag_replay.rfind('/') + 1);
  const ChildRun run = RunChild({"/usr/bin/python3", checkout + "/tools/bench/live_lag.py",
                                 lag_replay, "--commit-seconds", "1", "4", "--json"});
  if (run.exit_code != 0) {
    c->lag_error = "live_lag.py exited with " + std::to_string(run.exit_code);
    return;
  }
  const nlohmann::json j = nlohmann::json::parse(run.out, nullptr, false);
  if (j.is_discarded() || !j.contains("growing") || !j.contains("broadcast")) {
    c->lag_error = "live_lag.py printed no figures";
    return;
  }
  for (const auto& g : j["growing"]) {
    c->lags.push_back({g.value("commit_seconds", 0.0), g.value("ticks", 0),
                       g.value("p50_ms", 0.0), g.value("p99_ms", 0.0), g.value("max_ms", 0.0)});
  }
  c->broadcast_p50_ms = j["broadcast"].value("arrival_p50_ms", 0.0);
  c->broadcast_p99_ms = j["broadcast"].value("arrival_p99_ms", 0.0);
  c->lag_ok = true;
}

void PrintLive(const std::string& name, const LiveCost& c) {
  fmt::print(
      "\nlive ({}: --commit-seconds 1 against a plain run, {} alternating pairs):\n"
      "CPU {:.3f} vs {:.3f} s ({:.2f}x), wall {:.3f} vs {:.3f} s ({:.2f}x), peak {:.0f} vs "
      "{:.0f} MiB; the finished file {:.2f} vs {:.2f} MB ({:+.2f}%)\n",
      name, c.pairs, c.live_cpu_s, c.plain_cpu_s, c.cpu_ratio, c.live_s, c.plain_s, c.wall_ratio,
      c.live_peak_mib, c.plain_peak_mib, c.live_bytes / 1e6, c.plain_bytes / 1e6,
      c.plain_bytes ? 100.0 * (static_cast<double>(c.live_bytes) / c.plain_bytes - 1) : 0.0);
  if (!c.lag_ok) {
    if (!c.lag_error.empty()) fmt::print("live lag: not measured: {}\n", c.lag_error);
    return;
  }
  for (const LiveLag& l : c.lags) {
    fmt::print("live lag ({}, a growing file, commit every {:g} s): p50 {:.1f} ms, p99 {:.1f} "
               "ms, max {:.1f} ms over {} ticks\n",
               c.lag_replay, l.commit_seconds, l.p50_ms, l.p99_ms, l.max_ms, l.ticks);
  }
  fmt::print("live lag ({}, a broadcast over HTTP, from each fragment's arrival): p50 {:.1f} ms, "
             "p99 {:.1f} ms\n",
             c.lag_replay, c.broadcast_p50_ms, c.broadcast_p99_ms);
}

std::string LiveJson(const LiveCost& c) {
  std::string lags = "[";
  for (const LiveLag& l : c.lags) {
    lags += fmt::format("{}{{\"commit_seconds\":{:g},\"ticks\":{},\"p50_ms\":{:.2f},"
                        "\"p99_ms\":{:.2f},\"max_ms\":{:.2f}}}",
                        lags.size() > 1 ? "," : "", l.commit_seconds, l.ticks, l.p50_ms,
                        l.p99_ms, l.max_ms);
  }
  lags += "]";
  return fmt::format(
      "\"pairs\":{},\"plain_cpu_seconds\":{:.4f},\"live_cpu_seconds\":{:.4f},\"cpu_ratio\":{:.4f},"
      "\"plain_seconds\":{:.4f},\"live_seconds\":{:.4f},\"wall_ratio\":{:.4f},"
      "\"plain_bytes\":{},\"live_bytes\":{},\"lag_replay\":\"{}\",\"lags\":{},"
      "\"broadcast_p50_ms\":{:.2f},\"broadcast_p99_ms\":{:.2f}",
      c.pairs, c.plain_cpu_s, c.live_cpu_s, c.cpu_ratio, c.plain_s, c.live_s, c.wall_ratio,
      c.plain_bytes, c.live_bytes, c.lag_replay, lags, c.broadcast_p50_ms, c.broadcast_p99_ms);
}

}  // namespace gem::bench
