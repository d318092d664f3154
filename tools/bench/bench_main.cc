// gem-bench: what gem costs, replay by replay. For each replay: its size
// and ticks, the field changes it holds, parse-only time and rate, index
// time, gem-index's peak memory, the index's size and bytes per change,
// and query latencies through libgem. Times are medians of --runs runs;
// parse and index runs alternate, and index/parse ratios pair each index
// run with the parse run before it. With --peer PATH (or demoparser2), gem's parse is also
// set against another parser's (`PATH FILE.dem`), and on the synthetic
// replays gem-index too, as whole processes run alternately on the same
// files (see peer.h); --peer-only measures just that.
//
//   gem-bench [--json] [--markdown FILE] [--runs N] [--minutes 5,15,30,60] [--match-minutes 30]
//             [--cs2-rounds 24] [--cs2-from FIXTURE]
//             [--no-fixtures] [--fixtures DIR] [--from FIXTURE] [--work DIR]
//             [--peer PATH|demoparser2 ... [--peer-only]] [REPLAY...]
//
// Last, the goals (goals.h), each beside this run's figure; --markdown FILE
// writes them as docs/performance.md.
//
// Without REPLAY arguments it measures every replay in the fixtures
// directory ($GEM_FIXTURES, else ../shared/fixtures) that parses, then
// synthetic replays of each --minutes length written by gem-synth from
// --from (default: the dota2_haste_auto fixture) into --work (default
// /tmp/gem-bench), kept there for later runs.
#include <dirent.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "tools/bench/compression_cost.h"
#include "tools/bench/goals.h"
#include "tools/bench/keyframe_cost.h"
#include "tools/bench/live_cost.h"
#include "tools/bench/match_cost.h"
#include "tools/bench/measure.h"
#include "tools/bench/peer.h"
#include "tools/bench/queries.h"
#include "tools/bench/report.h"

namespace {

using namespace gem::bench;

// The first line `command` prints, or "".
std::string FirstLine(const char* command) {
  std::string out;
  if (FILE* p = popen(command, "r")) {
    char buf[512];
    if (std::fgets(buf, sizeof buf, p)) out = buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string Today() {
  const std::time_t now = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

std::string Commit() {
  std::string commit = FirstLine("git rev-parse --short HEAD 2>/dev/null");
  if (commit.empty()) return "unknown";
  if (!FirstLine("git status --porcelain --untracked-files=no 2>/dev/null").empty()) {
    commit += " + changes";
  }
  return commit;
}

std::string Machine() {
  std::string model = FirstLine("sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo");
  const std::string mem = FirstLine("awk '/^MemTotal/ {printf \"%.0f\", $2 / 1048576}' "
                                    "/proc/meminfo");
  return fmt::format("{}, {} cores, {} GiB", model.empty() ? "an unknown CPU" : model,
                     sysconf(_SC_NPROCESSORS_ONLN), mem.empty() ? "?" : mem);
}

struct Options {
  bool json = false;
  std::string markdown;  // --markdown FILE: the goals as docs/performance.md
  int runs = 3;
  std::vector<double> minutes = {10, 30, 60};
  std::vector<double> match_minutes = {30};  // synthetic lengths whose match layer is timed
  std::vector<double> keyframe_minutes = {60};  // ... whose keyframes are measured
  int keyframe_ticks = 40;
  std::vector<double> live_minutes = {10};  // ... whose live runs are measured
  std::string live_lag;  // the replay live_lag.py plays (default: the nekit fixture); '': none
  bool live_lag_given = false;
  std::string view = "tools/view/gem-view";  // its frame request is measured too
  int cs2_rounds = 24;     // the synthetic CS2 match's length; 0: none
  std::string cs2_from;    // its fixture
  // The synthetic Deadlock matches' lengths (36: the standard match; 72:
  // memory at twice its length).
  std::vector<double> deadlock_minutes = {36, 72};
  std::string deadlock_from;     // its fixture
  bool fixtures = true;
  std::string fixtures_dir;
  std::string from;
  std::string work = "/tmp/gem-bench";
  std::vector<std::string> peer_specs;  // --peer values
  std::vector<Peer> peers;  // the parsers they name, to set gem against
  bool peer_only = false;   // measure only that
  std::vector<std::string> replays;
};

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}
double FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? static_cast<double>(st.st_size) : 0;
}

// A tool built beside gem-bench (bazel-bin/<dir>/<name>), else in its
// runfiles.
std::string Tool(const std::string& relative) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return relative;
  self[n] = '\0';
  std::string exe(self);
  std::string dir = exe.substr(0, exe.rfind('/'));
  std::string bin = dir.substr(0, dir.rfind('/'));  // bazel-bin
  if (Exists(bin + "/" + relative)) return bin + "/" + relative;
  return exe + ".runfiles/gem/" + relative;
}

// The checkout the tools were built from: bazel-bin's execroot links its
// source directories (bazel-out/k8-opt/bin is three levels below it), else
// the working directory.
std::string Checkout() {
  const std::string tool = Tool("tools/gem-dump");
  std::string dir = tool.substr(0, tool.rfind('/'));  // .../bin/tools
  for (int up = 0; up < 4 && dir.rfind('/') != std::string::npos; ++up) {
    dir = dir.substr(0, dir.rfind('/'));
  }
  if (Exists(dir + "/tools/bench/peers")) return dir;
  char cwd[4096];
  return getcwd(cwd, sizeof cwd) != nullptr ? cwd : ".";
}

std::map<std::string, std::string> KeyValues(const std::string& text) {
  std::map<std::string, std::string> kv;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    size_t tab = line.find('\t');
    if (tab != std::string::npos) kv[line.substr(0, tab)] = line.substr(tab + 1);
    pos = end + 1;
  }
  return kv;
}

Row Measure(const std::string& name, const std::string& replay, const Options& o) {
  Row row;
  row.name = name;
  row.bytes = FileSize(replay);
  if (!o.peers.empty()) {
    row.game = GameOf(replay);
    for (const Peer& peer : o.peers) {
      if (peer.cs2 != (row.game == "cs2")) continue;  // a parser of another game
      PeerResult result;
      result.peer = peer.name;
      result.parse = ComparePeer(Tool("tools/gem-dump"), peer, replay, o.runs);
      // The index beside the peer's parse, on the long replays.
      if (name.rfind("synthetic", 0) == 0) {
        result.index = CompareIndexToPeer(Tool("indexer/gem-index"), peer, replay,
                                          o.work + "/bench-peer-index.db", o.runs);
      }
      row.peers.push_back(result);
    }
    if (o.peer_only) return row;
  }
  // Parse and index alternate, so that each index run is compared with a
  // parse run made under the same conditions.
  const std::string db = o.work + "/bench-index.db";
  std::vector<double> parse_times, parse_cpu, times, cpu, ratios, cpu_ratios;
  std::vector<ChildRun> runs;
  for (int i = 0; i < o.runs; ++i) {
    ParseRuns parse = MeasureParse(Tool("tools/gem-dump"), replay, 1);
    if (!parse.ok) {
      row.error = parse.error;
      return row;
    }
    parse_times.push_back(parse.seconds[0]);
    parse_cpu.push_back(parse.cpu_seconds);
    row.parse_peak_mib = std::max(row.parse_peak_mib, parse.peak_rss_kib / 1024.0);
    ChildRun run = RunChild({Tool("indexer/gem-index"), "--force", "--quiet", "--stats",
                             replay, db});
    if (run.exit_code != 0) {
      row.error = "gem-index exited with " + std::to_string(run.exit_code);
      return row;
    }
    times.push_back(run.seconds);
    cpu.push_back(run.cpu_seconds);
    ratios.push_back(run.seconds / std::max(1e-9, parse.seconds[0]));
    cpu_ratios.push_back(run.cpu_seconds / std::max(1e-9, parse.cpu_seconds));
    row.index_peak_mib = std::max(row.index_peak_mib, run.peak_rss_kib / 1024.0);
    runs.push_back(run);
  }
  row.parse_s = Median(parse_times);
  row.parse_cpu_s = Median(parse_cpu);
  row.index_cpu_s = Median(cpu);
  row.index_over_parse = Median(ratios);
  row.index_cpu_over_parse = Median(cpu_ratios);
  row.index_s = Median(times);
  // The stats of the run whose time is the median.
  for (const ChildRun& run : runs) {
    if (run.seconds != row.index_s) continue;
    auto kv = KeyValues(run.out);
    row.index_parse_s = std::atof(kv["parse_seconds"].c_str());
    row.index_sqlite_s = std::atof(kv["sqlite_seconds"].c_str());
    row.changes = std::atof(kv["field_changes"].c_str());
    row.created_values = std::atof(kv["created_values"].c_str());
    break;
  }
  row.db_bytes = FileSize(db);
  row.q = MeasureQueries(db, Tool("sqlext/libgem.so"), 2000);
  row.ticks = row.q.last_tick;
  std::remove(db.c_str());
  return row;
}

// "5,15,30" as numbers.
std::vector<double> NumberList(const std::string& list) {
  std::vector<double> out;
  for (size_t p = 0; p < list.size();) {
    size_t e = list.find(',', p);
    if (e == std::string::npos) e = list.size();
    if (e > p) out.push_back(std::atof(list.substr(p, e - p).c_str()));
    p = e + 1;
  }
  return out;
}

void Usage(FILE* out) {
  fmt::print(out,
             "usage: gem-bench [--json] [--markdown FILE] [--runs N] [--minutes 10,30,60]\n"
             "                 [--match-minutes 30] [--keyframe-minutes 60] [--keyframe-ticks 40] [--view PATH]\n"
             "                 [--live-minutes 10] [--live-lag REPLAY]\n"
             "                 [--cs2-rounds 24] [--cs2-from FIXTURE]\n"
             "                 [--deadlock-minutes 36,72] [--deadlock-from FIXTURE]\n"
             "                 [--no-fixtures] [--fixtures DIR] [--from FIXTURE] [--work DIR]\n"
             "                 [--peer PATH|demoparser2 ... [--peer-only]] [REPLAY...]\n"
             "\n"
             "Measures parse and index time, gem-index's peak memory, index size and query\n"
             "latencies for the fixtures (or the REPLAYs given) and for synthetic replays of\n"
             "each --minutes length (none with --minutes ''), and what the match layer costs\n"
             "gem-index on the synthetic replays of each --match-minutes length. Medians of\n"
             "--runs runs (3). --peer PATH sets gem-dump parse against `PATH FILE.dem` on\n"
             "every replay but CS2's, and gem-index against it on the synthetic ones, whole\n"
             "processes run alternately (wall and CPU time and peak memory, ratios within\n"
             "pairs); --peer demoparser2 does the same on CS2 replays with demoparser2's\n"
             "parseTicks (the timeline's props) and parseEvents(all), run by node from\n"
             "tools/bench/peers (npm ci there); --peer may be given more than once; --peer-only\n"
             "measures just that. A synthetic CS2 match of --cs2-rounds rounds (24; 0: none),\n"
             "written from --cs2-from (the de_dust2 fixture), is measured too, with what\n"
             "its tables cost: gem-index with them over --no-game-tables, alternating; and\n"
             "the same for Deadlock matches of each --deadlock-minutes length (36,72; '':\n"
             "none) from --deadlock-from (the dl_midtown fixture), with its peers; neither\n"
             "is measured with --peer-only.\n"
             "On the synthetic replays of each --keyframe-minutes length, what keyframes\n"
             "buy and cost: gem_state of every entity at --keyframe-ticks random ticks with\n"
             "and without them, SQLite's own cost of as many rows, index sizes and times,\n"
             "and gem-view's frame request (--view, tools/view/gem-view from the checkout).\n"
             "On those of each --live-minutes length (10), a live run (--commit-seconds 1)\n"
             "against a plain one, alternating: CPU, wall time and the finished files' sizes;\n"
             "and tools/bench/live_lag.py's lags (1- and 4-second commits, in real time) on\n"
             "--live-lag (the nekit fixture; '': none).\n"
             "Last, each goal of tools/bench/goals.h beside this run's figure for it;\n"
             "--markdown FILE writes them as one table with the date, the commit and the\n"
             "machine (docs/performance.md: --markdown docs/performance.md).\n");
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything else: children are forked by a process this small
  // (measure.h).
  StartLauncher();
  Options o;
  const char* env = std::getenv("GEM_FIXTURES");
  o.fixtures_dir = env != nullptr && *env ? env : "../shared/fixtures";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "gem-bench: {} needs a value\n", a);
        std::exit(64);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      Usage(stdout);
      return 0;
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--markdown") {
      o.markdown = next();
    } else if (a == "--runs") {
      o.runs = std::max(1, std::atoi(next().c_str()));
    } else if (a == "--minutes") {
      o.minutes = NumberList(next());
    } else if (a == "--match-minutes") {
      o.match_minutes = NumberList(next());
    } else if (a == "--keyframe-minutes") {
      o.keyframe_minutes = NumberList(next());
    } else if (a == "--view") {
      o.view = next();
    } else if (a == "--live-minutes") {
      o.live_minutes = NumberList(next());
    } else if (a == "--live-lag") {
      o.live_lag = next();
      o.live_lag_given = true;
    } else if (a == "--keyframe-ticks") {
      o.keyframe_ticks = std::max(1, std::atoi(next().c_str()));
    } else if (a == "--cs2-rounds") {
      o.cs2_rounds = std::atoi(next().c_str());
    } else if (a == "--deadlock-minutes") {
      o.deadlock_minutes = NumberList(next());
    } else if (a == "--deadlock-from") {
      o.deadlock_from = next();
    } else if (a == "--cs2-from") {
      o.cs2_from = next();
    } else if (a == "--no-fixtures") {
      o.fixtures = false;
    } else if (a == "--fixtures") {
      o.fixtures_dir = next();
    } else if (a == "--from") {
      o.from = next();
    } else if (a == "--work") {
      o.work = next();
    } else if (a == "--peer") {
      o.peer_specs.push_back(next());
    } else if (a == "--peer-only") {
      o.peer_only = true;
    } else if (a[0] == '-') {
      Usage(stderr);
      return 64;
    } else {
      o.replays.push_back(a);
    }
  }
  if (o.from.empty()) o.from = o.fixtures_dir + "/dota2_haste_auto-20240102-2233-start.dem";
  if (o.peer_only && o.peer_specs.empty()) {
    fmt::print(stderr, "gem-bench: --peer-only needs --peer PATH\n");
    return 64;
  }
  for (const std::string& spec : o.peer_specs) {
    std::string error;
    if (!PeersFor(spec, Checkout(), &o.peers, &error)) {
      fmt::print(stderr, "gem-bench: {}\n", error);
      return 66;
    }
  }
  mkdir(o.work.c_str(), 0755);

  std::vector<std::pair<std::string, std::string>> todo;  // (name, path)
  std::vector<std::string> match_names;                    // their match layer timed too
  std::vector<std::string> keyframe_names;                 // their keyframes measured
  if (!o.replays.empty()) {
    for (const std::string& r : o.replays) todo.emplace_back(r.substr(r.rfind('/') + 1), r);
  } else if (o.fixtures) {
    std::vector<std::string> names;
    if (DIR* d = opendir(o.fixtures_dir.c_str())) {
      while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 4 && n.substr(n.size() - 4) == ".dem") names.push_back(n);
      }
      closedir(d);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) todo.emplace_back(n, o.fixtures_dir + "/" + n);
  }
  for (double m : o.minutes) {
    char name[64];
    std::snprintf(name, sizeof name, "synthetic-%gmin-seed1.dem", m);
    const std::string path = o.work + "/" + name;
    if (!Exists(path)) {
      fmt::print(stderr, "gem-bench: writing {}\n", path);
      ChildRun run = RunChild({Tool("tools/gem-synth"), "--from", o.from, "--minutes",
                               std::to_string(m), "--seed", "1", "--quiet", path});
      if (run.exit_code != 0) {
        fmt::print(stderr, "gem-bench: gem-synth failed for {:g} minutes\n", m);
        continue;
      }
    }
    todo.emplace_back(name, path);
    if (std::find(o.match_minutes.begin(), o.match_minutes.end(), m) != o.match_minutes.end()) {
      match_names.push_back(name);
    }
    if (std::find(o.keyframe_minutes.begin(), o.keyframe_minutes.end(), m) !=
        o.keyframe_minutes.end()) {
      keyframe_names.push_back(name);
    }
  }

  std::string cs2_name;
  if (o.replays.empty() && o.cs2_rounds > 0 && !o.peer_only) {
    // The synthetic CS2 match, for what its tables cost.
    if (o.cs2_from.empty()) o.cs2_from = o.fixtures_dir + "/cs2_demofilenet_14155_de_dust2.dem";
    cs2_name = "synthetic-cs2-" + std::to_string(o.cs2_rounds) + "rounds-seed1.dem";
    const std::string path = o.work + "/" + cs2_name;
    if (!Exists(path)) {
      fmt::print(stderr, "gem-bench: writing {}\n", path);
      ChildRun run = RunChild({Tool("tools/gem-synth"), "--from", o.cs2_from, "--rounds",
                               std::to_string(o.cs2_rounds), "--seed", "1", "--quiet", path});
      if (run.exit_code != 0) {
        fmt::print(stderr, "gem-bench: gem-synth failed for the CS2 match\n");
        cs2_name.clear();
      }
    }
    if (!cs2_name.empty()) todo.emplace_back(cs2_name, path);
  }

  std::vector<std::string> deadlock_names;
  if (o.replays.empty() && !o.peer_only) {
    // The synthetic standard Deadlock match (gem-synth's crowd: about
    // boon's 458 MB in 36 minutes) and longer ones, for the index's speed
    // and memory and what its tables cost.
    if (o.deadlock_from.empty()) {
      o.deadlock_from = o.fixtures_dir + "/deadlock_demofilenet_hltv_10423_dl_midtown.dem";
    }
    for (double m : o.deadlock_minutes) {
      const std::string name = fmt::format("synthetic-deadlock-{:g}min-seed1.dem", m);
      const std::string path = o.work + "/" + name;
      if (!Exists(path)) {
        fmt::print(stderr, "gem-bench: writing {}\n", path);
        ChildRun run = RunChild({Tool("tools/gem-synth"), "--from", o.deadlock_from,
                                 "--minutes", fmt::format("{:g}", m), "--seed", "1", "--quiet",
                                 path});
        if (run.exit_code != 0) {
          fmt::print(stderr, "gem-bench: gem-synth failed for the {:g}-minute Deadlock match\n",
                     m);
          continue;
        }
      }
      todo.emplace_back(name, path);
      deadlock_names.push_back(name);
    }
  }
  std::vector<std::string> live_names;
  for (double m : o.live_minutes) live_names.push_back(fmt::format("synthetic-{:g}min-seed1.dem", m));
  if (!o.live_lag_given) {
    o.live_lag = o.fixtures_dir + "/dota2_haste_nekit.dem";
  }
  const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };

  std::vector<Row> rows;
  std::vector<CompressionCost> compression;  // of the match-layer lengths
  for (const auto& [name, path] : todo) {
    fmt::print(stderr, "gem-bench: {}\n", name);
    rows.push_back(Measure(name, path, o));
    if (rows.back().error.empty() && !o.peer_only &&
        std::find(match_names.begin(), match_names.end(), name) != match_names.end()) {
      fmt::print(stderr, "gem-bench: {}: match layer\n", name);
      rows.back().match = MeasureMatchLayer(Tool("indexer/gem-index"), path, o.work, o.runs);
      fmt::print(stderr, "gem-bench: {}: compressed input\n", name);
      compression.push_back(MeasureCompression(Tool("indexer/gem-index"), path, o.work, o.runs));
      for (const FormatCost& f : compression.back().formats) {
        if (f.format == "bzip2") rows.back().bz2_bytes = f.mb * 1e6;
      }
    }
    if (rows.back().error.empty() && !o.peer_only &&
        std::find(keyframe_names.begin(), keyframe_names.end(), name) != keyframe_names.end()) {
      fmt::print(stderr, "gem-bench: {}: keyframes\n", name);
      rows.back().keyframes =
          MeasureKeyframes(Tool("indexer/gem-index"), Tool("sqlext/libgem.so"), o.view, path,
                           o.work, o.runs, o.keyframe_ticks);
      if (!rows.back().keyframes.ok) {
        fmt::print(stderr, "gem-bench: {}: keyframes: {}\n", name, rows.back().keyframes.error);
      }
    }
    if (rows.back().error.empty() && !o.peer_only && listed(live_names, name)) {
      fmt::print(stderr, "gem-bench: {}: live\n", name);
      rows.back().live = MeasureLive(Tool("indexer/gem-index"), path, o.work, o.runs);
      if (rows.back().live.ok && Exists(o.live_lag)) {
        fmt::print(stderr, "gem-bench: {}: live lag, in real time\n", o.live_lag);
        MeasureLiveLag(Checkout(), o.live_lag, &rows.back().live);
      }
    }
    if (rows.back().error.empty() && !o.peer_only &&
        (name == cs2_name || (!deadlock_names.empty() && name == deadlock_names.front()))) {
      fmt::print(stderr, "gem-bench: {}: game tables\n", name);
      rows.back().tables = MeasureGameTables(Tool("indexer/gem-index"), path, o.work,
                                             std::max(o.runs, 5));
    }
  }
  const std::vector<Goal> goals = Goals(rows);
  if (!o.markdown.empty()) {
    std::string command = "bazel-bin/tools/gem-bench";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
    const std::string page = GoalsMarkdown(goals, {Today(), Commit(), Machine(), command});
    FILE* f = std::fopen(o.markdown.c_str(), "w");
    if (f == nullptr || std::fwrite(page.data(), 1, page.size(), f) != page.size() ||
        std::fclose(f) != 0) {
      fmt::print(stderr, "gem-bench: cannot write {}\n", o.markdown);
      return 73;
    }
  }
  if (o.json) {
    fmt::print("{{\"runs\":{},\"replays\":{},\"goals\":{}}}\n", o.runs, ReplaysJson(rows),
               GoalsJson(goals));
  } else {
    if (!o.peer_only) PrintTable(rows);
    for (const CompressionCost& c : compression) PrintCompressionCost(c, stdout);
    PrintPeerTables(rows);
    PrintGoals(goals);
  }
  return 0;
}
