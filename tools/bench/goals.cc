#include "tools/bench/goals.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace gem::bench {
namespace {

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The replays the parse goals name, and the index ones (issue 48's lines:
// the 10-, 30- and 60-minute synthetic Dota replays).
bool ParseGoalReplay(const std::string& name) {
  return StartsWith(name, "dota2_haste_auto") || StartsWith(name, "dota2_haste_nekit") ||
         StartsWith(name, "synthetic-10min") || StartsWith(name, "synthetic-30min") ||
         StartsWith(name, "synthetic-60min");
}
bool IndexGoalReplay(const std::string& name) {
  return StartsWith(name, "synthetic-10min") || StartsWith(name, "synthetic-30min") ||
         StartsWith(name, "synthetic-60min");
}

// The row's result against the Dota peer (any binary: haste-bench), or
// against demoparser2's parseTicks; null when not measured.
const PeerResult* DotaPeer(const Row& r) {
  for (const PeerResult& p : r.peers) {
    if (!StartsWith(p.peer, "demoparser2")) return &p;
  }
  return nullptr;
}
const PeerResult* TicksPeer(const Row& r) {
  for (const PeerResult& p : r.peers) {
    if (p.peer == "demoparser2 ticks") return &p;
  }
  return nullptr;
}

void Add(std::vector<Goal>* goals, const std::string& what, const std::string& replay,
         double target, bool measured, double value, bool at_most = true) {
  Goal g;
  g.what = what;
  g.replay = replay;
  g.target = target;
  g.at_most = at_most;
  g.measured = measured;
  g.value = measured ? value : 0;
  goals->push_back(g);
}

// The figures behind the last goal added: gem's and the peer's, in seconds
// (`cpu`: CPU seconds) or MiB.
enum class Measure { kWall, kCpu, kPeak };
void Behind(std::vector<Goal>* goals, const PeerResult* p, const PeerComparison& c,
            Measure m) {
  if (p == nullptr || !c.ran) return;
  Goal& g = goals->back();
  switch (m) {
    case Measure::kWall:
      g.gem_figure = fmt::format("{:.2f} s", c.gem_s);
      g.peer_figure = fmt::format("{} {:.2f} s", p->peer, c.peer_s);
      break;
    case Measure::kCpu:
      g.gem_figure = fmt::format("{:.2f} s CPU", c.gem_cpu_s);
      g.peer_figure = fmt::format("{} {:.2f} s CPU", p->peer, c.peer_cpu_s);
      break;
    case Measure::kPeak:
      g.gem_figure = fmt::format("{:.0f} MiB", c.gem_peak_mib);
      g.peer_figure = fmt::format("{} {:.0f} MiB", p->peer, c.peer_peak_mib);
      break;
  }
}

}  // namespace

std::vector<Goal> Goals(const std::vector<Row>& rows) {
  std::vector<Goal> goals;
  for (const Row& r : rows) {
    if (!r.error.empty()) continue;
    if (ParseGoalReplay(r.name)) {
      const PeerResult* p = DotaPeer(r);
      const bool ok = p != nullptr && p->parse.ran;
      Add(&goals, "parse wall / haste", r.name, 0.8, ok, ok ? p->parse.wall_ratio : 0);
      if (ok) Behind(&goals, p, p->parse, Measure::kWall);
      Add(&goals, "parse peak memory / haste", r.name, 2.0, ok, ok ? p->parse.peak_ratio : 0);
      if (ok) Behind(&goals, p, p->parse, Measure::kPeak);
    }
    if (IndexGoalReplay(r.name)) {
      const PeerResult* p = DotaPeer(r);
      const bool ok = p != nullptr && p->index.ran;
      Add(&goals, "index wall / haste parse", r.name, 1.5, ok, ok ? p->index.wall_ratio : 0);
      if (ok) Behind(&goals, p, p->index, Measure::kWall);
      Add(&goals, "index CPU / haste parse CPU", r.name, 2.8, ok, ok ? p->index.cpu_ratio : 0);
      if (ok) Behind(&goals, p, p->index, Measure::kCpu);
      Add(&goals, "index: replays a CPU-hour", r.name, 0, r.index_cpu_s > 0,
          r.index_cpu_s > 0 ? 3600 / r.index_cpu_s : 0);
      goals.back().has_target = false;
      Add(&goals, "gem_value median us", r.name, 20, r.q.ok, r.q.value_median_us);
      if (StartsWith(r.name, "synthetic-60min")) {
        Add(&goals, "index peak MiB", r.name, 100, r.index_peak_mib > 0, r.index_peak_mib);
      }
    }
    if (r.match.ok && r.changes > 0) {
      Add(&goals, "bytes per field change, no match layer", r.name, 3.5, true,
          r.match.without_mb * 1e6 / r.changes);
      Add(&goals, "bytes per field change, whole index (for the record)", r.name, 0, true,
          r.db_bytes / r.changes);
      goals.back().has_target = false;
      Add(&goals, "index size / the replay's (for the record)", r.name, 0, r.bytes > 0,
          r.bytes > 0 ? r.db_bytes / r.bytes : 0);
      goals.back().has_target = false;
      Add(&goals, "index size / the replay's .dem.bz2 (for the record)", r.name, 0,
          r.bz2_bytes > 0, r.bz2_bytes > 0 ? r.db_bytes / r.bz2_bytes : 0);
      goals.back().has_target = false;
      // The 5% line holds for the waves of tables from now on; the match
      // layer's cost, a wave before it, is the figure it is read against.
      Add(&goals, "match layer's cost: index time over without it", r.name, 0, true,
          r.match.default_ratio);
      goals.back().has_target = false;
    }
    if (r.keyframes.ok) {
      const KeyframeFigures& k = r.keyframes;
      Add(&goals, "gem_state p50 ms", r.name, 10, true, k.with_p50_ms);
      Add(&goals, fmt::format("gem_state slowest of {} ms", k.ticks), r.name, 25, true,
          k.with_slowest_ms);
      Add(&goals, "gem_state p50 / SQLite's floor", r.name, 1.5, k.floor_p50_ms > 0,
          k.floor_p50_ms > 0 ? k.with_p50_ms / k.floor_p50_ms : 0);
    }
    if (r.live.ok) {
      const LiveCost& l = r.live;
      Add(&goals, "live CPU / plain CPU (1-second commits)", r.name, 2.0, true, l.cpu_ratio);
      Add(&goals, "live finished file / plain file", r.name, 1.02, l.plain_bytes > 0,
          l.plain_bytes > 0 ? static_cast<double>(l.live_bytes) / l.plain_bytes : 0);
      for (const LiveLag& lag : l.lags) {
        const std::string where = l.lag_replay;
        Add(&goals, fmt::format("live lag p50 ms, commit every {:g} s", lag.commit_seconds),
            where, 0, true, lag.p50_ms);
        goals.back().has_target = false;
        Add(&goals, fmt::format("live lag p99 ms, commit every {:g} s", lag.commit_seconds),
            where, 0, true, lag.p99_ms);
        goals.back().has_target = false;
      }
    }
    if (StartsWith(r.name, "synthetic-deadlock-")) {
      // Issue 48's lines on the standard match (36 minutes) and memory at
      // any length.
      const PeerResult* p = DotaPeer(r);
      const bool index = p != nullptr && p->index.ran, parse = p != nullptr && p->parse.ran;
      const bool standard = StartsWith(r.name, "synthetic-deadlock-36min");
      Add(&goals, "Deadlock index wall / haste parse", r.name, standard ? 1.5 : 2.0, index,
          index ? p->index.wall_ratio : 0);
      if (index) Behind(&goals, p, p->index, Measure::kWall);
      Add(&goals, "Deadlock index CPU / haste parse CPU", r.name, 2.8, index,
          index ? p->index.cpu_ratio : 0);
      if (index) Behind(&goals, p, p->index, Measure::kCpu);
      goals.back().has_target = standard;
      Add(&goals, "Deadlock parse wall / haste", r.name, 1.0, parse,
          parse ? p->parse.wall_ratio : 0);
      if (parse) Behind(&goals, p, p->parse, Measure::kWall);
      Add(&goals, "Deadlock index peak MiB", r.name, 100, r.index_peak_mib > 0,
          r.index_peak_mib);
      if (r.tables.ok) {
        Add(&goals, "Deadlock tables' cost: index time over without them", r.name, 1.05, true,
            r.tables.wall_ratio);
      }
    }
    if (StartsWith(r.name, "synthetic-cs2-")) {
      const PeerResult* p = TicksPeer(r);
      const bool index = p != nullptr && p->index.ran, parse = p != nullptr && p->parse.ran;
      Add(&goals, "CS2 index wall / demoparser2 parseTicks", r.name, 0.5, index,
          index ? p->index.wall_ratio : 0);
      if (index) Behind(&goals, p, p->index, Measure::kWall);
      Add(&goals, "CS2 index peak memory / demoparser2", r.name, 1.0, index,
          index ? p->index.peak_ratio : 0);
      if (index) Behind(&goals, p, p->index, Measure::kPeak);
      Add(&goals, "CS2 parse wall / demoparser2 parseTicks", r.name, 0.5, parse,
          parse ? p->parse.wall_ratio : 0);
      if (parse) Behind(&goals, p, p->parse, Measure::kWall);
      Add(&goals, "CS2 parse peak memory / demoparser2", r.name, 1.0, parse,
          parse ? p->parse.peak_ratio : 0);
      if (parse) Behind(&goals, p, p->parse, Measure::kPeak);
      if (r.tables.ok) {
        Add(&goals, "CS2 tables' cost: index time over without them", r.name, 0, true,
            r.tables.wall_ratio);
        goals.back().has_target = false;
      }
    }
  }
  return goals;
}

void PrintGoals(const std::vector<Goal>& goals) {
  if (goals.empty()) return;
  fmt::print("\ngoals (this run's figure beside each line):\n{:<56} {:<40} {:>9} {:>9}  {}\n",
             "goal", "replay", "measured", "target", "");
  for (const Goal& g : goals) {
    if (!g.measured) {
      fmt::print("{:<56} {:<40} {:>9} {:>9}  not measured\n", g.what, g.replay, "-",
                 g.has_target ? fmt::format("{}{:g}", g.at_most ? "<= " : ">= ", g.target)
                              : "-");
      continue;
    }
    if (!g.has_target) {
      fmt::print("{:<56} {:<40} {:9.3f} {:>9}\n", g.what, g.replay, g.value, "-");
      continue;
    }
    fmt::print("{:<56} {:<40} {:9.3f} {:>9}  {}\n", g.what, g.replay, g.value,
               fmt::format("{}{:g}", g.at_most ? "<= " : ">= ", g.target),
               g.met() ? "met" : "NOT MET");
  }
}

std::string GoalsJson(const std::vector<Goal>& goals) {
  std::string out = "[";
  for (size_t i = 0; i < goals.size(); ++i) {
    const Goal& g = goals[i];
    fmt::format_to(std::back_inserter(out),
                   "{}\n{{\"goal\":\"{}\",\"replay\":\"{}\",\"target\":{},\"at_most\":{},"
                   "\"measured\":{},\"value\":{:.4f},\"met\":{}}}",
                   i ? "," : "", g.what, g.replay,
                   g.has_target ? fmt::format("{:g}", g.target) : "null",
                   g.at_most ? "true" : "false", g.measured ? "true" : "false", g.value,
                   g.met() ? "true" : "false");
  }
  return out + "\n]";
}

std::string GoalsMarkdown(const std::vector<Goal>& goals, const RunFacts& facts) {
  std::string out = fmt::format(
      "<!-- Written by gem-bench --markdown; each run replaces it. Do not edit. -->\n\n"
      "# Performance\n\n"
      "gem-bench's last run: each goal gem holds itself to (tools/bench/goals.h), "
      "its line, this run's figure, and the figures behind a ratio, gem's and the "
      "peer's, measured side by side (whole processes, alternating, medians of the "
      "ratios within pairs). The machine's speed drifts between hours: read the "
      "ratios, not the seconds. Synthetic replays are gem-synth's, seed 1 "
      "([tools.md](tools.md)).\n\n"
      "Run on {} at commit {}, on {}:\n\n    {}\n\n"
      "| measure | replay | line | figure | gem | peer | |\n"
      "|---|---|---|---|---|---|---|\n",
      facts.date, facts.commit, facts.machine, facts.command);
  for (const Goal& g : goals) {
    const std::string line =
        g.has_target ? fmt::format("{}{:g}", g.at_most ? "<= " : ">= ", g.target) : "";
    const std::string figure = !g.measured      ? "not measured"
                               : g.value >= 100 ? fmt::format("{:.0f}", g.value)
                               : g.value >= 10  ? fmt::format("{:.1f}", g.value)
                                                : fmt::format("{:.2f}", g.value);
    const char* verdict = !g.measured || !g.has_target ? "" : g.met() ? "met" : "**not met**";
    fmt::format_to(std::back_inserter(out), "| {} | {} | {} | {} | {} | {} | {} |\n", g.what,
                   g.replay, line, figure, g.gem_figure, g.peer_figure, verdict);
  }
  return out;
}

}  // namespace gem::bench
