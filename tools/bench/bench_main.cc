// gem-bench: what gem costs, replay by replay. For each replay: its size
// and ticks, the field changes it holds, parse-only time and rate, index
// time, gem-index's peak memory, the index's size and bytes per change,
// and query latencies through libgem. Times are medians of --runs runs;
// parse and index runs alternate, and index/parse ratios pair each index
// run with the parse run before it. With --peer PATH, gem's parse is also
// set against another parser's (`PATH FILE.dem`), and on the synthetic
// replays gem-index too, as whole processes run alternately on the same
// files (see peer.h); --peer-only measures just that.
//
//   gem-bench [--json] [--runs N] [--minutes 5,15,30,60] [--match-minutes 30]
//             [--cs2-rounds 24] [--cs2-from FIXTURE]
//             [--no-fixtures] [--fixtures DIR] [--from FIXTURE] [--work DIR]
//             [--peer PATH [--peer-only]] [REPLAY...]
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
#include <map>
#include <string>
#include <vector>

#include "tools/bench/compression_cost.h"
#include "tools/bench/match_cost.h"
#include "tools/bench/measure.h"
#include "tools/bench/peer.h"
#include "tools/bench/keyframe_cost.h"
#include "tools/bench/queries.h"

namespace {

using namespace gem::bench;

struct Options {
  bool json = false;
  int runs = 3;
  std::vector<double> minutes = {5, 15, 30, 60};
  std::vector<double> match_minutes = {30};  // synthetic lengths whose match layer is timed
  std::vector<double> keyframe_minutes = {60};  // ... whose keyframes are measured
  int keyframe_ticks = 101;
  std::string view = "tools/view/gem-view";  // its frame request is measured too
  int cs2_rounds = 24;     // the synthetic CS2 match's length; 0: none
  std::string cs2_from;    // its fixture
  bool fixtures = true;
  std::string fixtures_dir;
  std::string from;
  std::string work = "/tmp/gem-bench";
  std::string peer;        // another parser to set gem's parse against
  bool peer_only = false;  // measure only that
  std::vector<std::string> replays;
};

struct Row {
  std::string name;
  std::string error;
  double bytes = 0;
  int64_t ticks = 0;
  double changes = 0, created_values = 0;
  double parse_s = 0, parse_peak_mib = 0, parse_cpu_s = 0;
  double index_s = 0, index_parse_s = 0, index_sqlite_s = 0, index_peak_mib = 0, index_cpu_s = 0;
  // Medians over the runs of index time / parse time, each run's index
  // against the parse run just before it (this machine's speed drifts).
  double index_over_parse = 0, index_cpu_over_parse = 0;
  double db_bytes = 0;
  QueryLatencies q;
  MatchLayerCost match;  // when measured
  GameTablesCost tables;  // the CS2 synthetic match: its tables' cost
  KeyframeFigures keyframes;  // when measured
  PeerComparison peer;   // with --peer
  PeerComparison index_peer;  // with --peer, synthetic replays: gem-index against it
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
  if (!o.peer.empty()) {
    row.peer = ComparePeer(Tool("tools/gem-dump"), o.peer, replay, o.runs);
    // The index beside the peer's parse, on the long replays.
    if (name.rfind("synthetic", 0) == 0) {
      row.index_peer = CompareIndexToPeer(Tool("indexer/gem-index"), o.peer, replay,
                                          o.work + "/bench-peer-index.db", o.runs);
    }
    if (o.peer_only) return row;
  }
  // Parse and index alternate, so that each index run is compared with a
  // parse run made under the same conditions.
  const std::string db = o.work + "/bench-index.db";
  std::vector<double> parse_times, parse_cpu, times, cpu, ratios, cpu_ratios;
  std::vector<ChildRun> runs;
  for (int i = 0; i < o.runs; ++i) {
    ParseRuns parse = MeasureParse(replay, 1);
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

// gem's parse (or its index) against the peer's parse, replay by replay.
void PrintPeerTable(const std::vector<Row>& rows, const std::string& peer, bool index) {
  fmt::print(
      "{} against {} (whole processes, alternating; x = gem / peer,\n"
      "the median over pairs of the ratio within each pair, min..max beside):\n"
      "{:<52} {:>8} {:>8} {:>6} {:>13} {:>7} {:>7} {:>6}\n",
      index ? "gem-index" : "gem-dump parse", peer, "replay", "gem_s", "peer_s", "wall_x",
      "x_min..max", "gem_MB", "peer_MB", "peak_x");
  for (const Row& r : rows) {
    const PeerComparison& c = index ? r.index_peer : r.peer;
    if (index && !c.ran && c.error.empty()) continue;  // not measured (a fixture)
    if (!c.ran) {
      fmt::print("{:<52}  ({})\n", r.name, c.error);
      continue;
    }
    fmt::print("{:<52} {:8.3f} {:8.3f} {:6.3f} {:6.3f}..{:<6.3f} {:7.1f} {:7.1f} {:6.2f}\n", r.name,
               c.gem_s, c.peer_s, c.wall_ratio, c.wall_ratio_min, c.wall_ratio_max, c.gem_peak_mib,
               c.peer_peak_mib, c.peak_ratio);
  }
}

void PrintTable(const std::vector<Row>& rows) {
  fmt::print(
      "{:<52} {:>7} {:>7} {:>9} {:>7} {:>6} {:>6} {:>7} {:>5} {:>5} {:>6} {:>5} {:>6} {:>6} {:>5} "
      "{:>6} {:>6} {:>6} {:>6} {:>7} {:>8} "
      "{:>7} {:>7}\n",
      "replay", "MB", "ticks", "changes", "parse_s", "MB/s", "Mchg/s", "index_s", "x", "cpu_x",
      "ns/chg", "sql%", "peakMB", "db_MB", "B/chg", "val_us", "v_p99", "v_auto", "v_mmap", "ent_us",
      "all_ms", "hist_us", "samp_ms");
  for (const Row& r : rows) {
    if (!r.error.empty()) {
      fmt::print("{:<52} {:7.2f}  ({})\n", r.name, r.bytes / 1e6, r.error);
      continue;
    }
    const double c = std::max(1.0, r.changes);
    fmt::print(
        "{:<52} {:7.2f} {:7} {:9.0f} {:7.3f} {:6.1f} {:6.2f} {:7.3f} {:5.2f} {:5.2f} {:6.0f} "
        "{:5.1f} {:6.0f} {:6.2f} "
        "{:5.2f} {:6.1f} {:6.1f} {:6.1f} {:6.1f} {:7.1f} {:8.1f} {:7.1f} {:7.2f}\n",
        r.name, r.bytes / 1e6, r.ticks, r.changes, r.parse_s, r.bytes / 1e6 / r.parse_s,
        r.changes / 1e6 / r.parse_s, r.index_s, r.index_over_parse, r.index_cpu_over_parse,
        r.index_s / c * 1e9, 100 * r.index_sqlite_s / std::max(1e-9, r.index_s), r.index_peak_mib,
        r.db_bytes / 1e6, r.db_bytes / c, r.q.value_median_us, r.q.value_p99_us,
        r.q.value_autocommit_median_us, r.q.value_mmap_median_us, r.q.state_entity_median_us,
        r.q.state_all_median_ms, r.q.history_median_us, r.q.sample_median_ms);
  }
  bool any_match = false;
  for (const Row& r : rows) any_match |= r.match.ok;
  for (const Row& r : rows) {
    if (!r.tables.ok) continue;
    const GameTablesCost& t = r.tables;
    fmt::print(
        "\ngame tables ({}: gem-index with them over --no-game-tables, {} pairs):\n"
        "wall {:.3f}x ({:.3f}-{:.3f}; {:.3f} vs {:.3f} s), cpu {:.3f}x, index {:.2f} vs {:.2f} MB, "
        "peak {:.0f} vs {:.0f} MiB\n",
        r.name, t.pairs, t.wall_ratio, t.wall_ratio_min, t.wall_ratio_max, t.with_s, t.without_s,
        t.cpu_ratio, t.with_mb, t.without_mb, t.with_peak_mib, t.without_peak_mib);
  }
  for (const Row& r : rows) {
    if (!r.keyframes.ok) continue;
    PrintKeyframes(r.name, r.keyframes);
  }
  if (any_match) {
    fmt::print(
        "\nmatch layer (gem-index without it, with its default step, with every tick):\n"
        "{:<40} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8} {:>8} {:>8} {:>9} {:>9} {:>7} {:>7}\n",
        "replay", "none_s", "dflt_s", "tick1_s", "dflt_x", "tick1_x", "none_MB", "dflt_MB",
        "tick1_MB", "dflt_rows", "tick1_rows", "dflt_pk", "tick1_pk");
    for (const Row& r : rows) {
      if (!r.match.ok) continue;
      const MatchLayerCost& m = r.match;
      fmt::print(
          "{:<40} {:8.3f} {:8.3f} {:8.3f} {:6.3f} {:6.3f} {:8.2f} {:8.2f} {:8.2f} {:9} {:9} "
          "{:7.0f} {:7.0f}\n",
          r.name, m.without_s, m.default_s, m.every_tick_s, m.default_ratio, m.every_tick_ratio,
          m.without_mb, m.default_mb, m.every_tick_mb, m.default_rows, m.every_tick_rows,
          m.default_peak_mib, m.every_tick_peak_mib);
    }
  }
  fmt::print(
      "\nx = index time / parse time, the median over runs of each index run against the\n"
      "parse run before it (they alternate); cpu_x = the same for CPU time (user + system,\n"
      "all threads); ns/chg = index time per field change; sql% = share of\n"
      "index time spent in SQLite calls; B/chg = index bytes per field change; val = gem_value\n"
      "median and p99, each lookup a statement run inside one read transaction (v_auto:\n"
      "median in autocommit mode, a file lock per statement; v_mmap: median with PRAGMA\n"
      "mmap_size = 1 GiB); ent = gem_state of one entity; all = gem_state of every entity\n"
      "at a tick; hist = one field's history (gem_changes); samp = gem_sample of one field\n"
      "of one entity over the whole replay at a step of 15 ticks. Medians of the runs.\n"
      "Match layer: x = index time over the index without the match layer, the median over\n"
      "runs of each run against the one without it just before; pk = peak MiB.\n");
}

void PrintJson(const std::vector<Row>& rows, int runs) {
  fmt::print("{{\"runs\":{},\"replays\":[", runs);
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    fmt::print("{}\n{{\"replay\":\"{}\"", i ? "," : "", r.name);
    if (!r.error.empty()) {
      std::string e;
      for (char ch : r.error) {
        if (ch == '"' || ch == '\\') e += '\\';
        if (static_cast<unsigned char>(ch) >= 0x20) e += ch;
      }
      fmt::print(",\"bytes\":{:.0f},\"error\":\"{}\"}}", r.bytes, e);
      continue;
    }
    if (r.peer.ran || !r.peer.error.empty()) {
      const PeerComparison& p = r.peer;
      if (p.ran) {
        fmt::print(
            ",\"peer\":{{\"pairs\":{},\"gem_seconds\":{:.6f},\"peer_seconds\":{:.6f},"
            "\"wall_ratio\":{:.4f},\"wall_ratio_min\":{:.4f},\"wall_ratio_max\":{:.4f},"
            "\"gem_peak_mib\":{:.1f},\"peer_peak_mib\":{:.1f},\"peak_ratio\":{:.3f}}}",
            p.pairs, p.gem_s, p.peer_s, p.wall_ratio, p.wall_ratio_min, p.wall_ratio_max,
            p.gem_peak_mib, p.peer_peak_mib, p.peak_ratio);
      } else {
        fmt::print(",\"peer\":{{\"error\":\"{}\"}}", p.error);
      }
    }
    if (r.index_peer.ran) {
      const PeerComparison& p = r.index_peer;
      fmt::print(
          ",\"index_peer\":{{\"pairs\":{},\"gem_seconds\":{:.6f},\"peer_seconds\":{:.6f},"
          "\"wall_ratio\":{:.4f},\"wall_ratio_min\":{:.4f},\"wall_ratio_max\":{:.4f},"
          "\"gem_peak_mib\":{:.1f},\"peer_peak_mib\":{:.1f},\"peak_ratio\":{:.3f}}}",
          p.pairs, p.gem_s, p.peer_s, p.wall_ratio, p.wall_ratio_min, p.wall_ratio_max,
          p.gem_peak_mib, p.peer_peak_mib, p.peak_ratio);
    }
    if (r.q.last_tick == 0 && r.changes == 0) {  // --peer-only: nothing else measured
      fmt::print(",\"bytes\":{:.0f}}}", r.bytes);
      continue;
    }
    const double c = std::max(1.0, r.changes);
    fmt::print(
        ",\"bytes\":{:.0f},\"ticks\":{},\"field_changes\":{:.0f},\"created_values\":{:.0f},"
        "\"parse_seconds\":{:.6f},\"parse_mb_per_second\":{:.3f},\"parse_changes_per_second\":{:."
        "0f},"
        "\"parse_peak_mib\":{:.1f},\"parse_cpu_seconds\":{:.6f},\"index_seconds\":{:.6f},"
        "\"index_cpu_seconds\":{:.6f},\"index_over_parse\":{:.3f},\"index_cpu_over_parse\":{:.3f},"
        "\"index_ns_per_change\":{:.1f},\"index_parse_seconds\":{:.6f},"
        "\"index_sqlite_seconds\":{:.6f},\"index_peak_mib\":{:.1f},\"db_bytes\":{:.0f},"
        "\"db_bytes_per_change\":{:.3f},\"gem_value_median_us\":{:.2f},\"gem_value_p99_us\":{:.2f},"
        "\"gem_value_autocommit_median_us\":{:.2f},\"gem_value_mmap_median_us\":{:.2f},\"gem_value_"
        "mmap_p99_us\":{:.2f},"
        "\"gem_state_entity_median_us\":{:.2f},\"gem_state_all_median_ms\":{:.3f},"
        "\"gem_state_all_rows\":{:.0f},\"history_median_us\":{:.2f},\"history_rows\":{:.1f},"
        "\"gem_sample_median_ms\":{:.3f},\"gem_sample_rows\":{:.0f}",
        r.bytes, r.ticks, r.changes, r.created_values, r.parse_s, r.bytes / 1e6 / r.parse_s,
        r.changes / r.parse_s, r.parse_peak_mib, r.parse_cpu_s, r.index_s, r.index_cpu_s,
        r.index_over_parse, r.index_cpu_over_parse, r.index_s / c * 1e9, r.index_parse_s,
        r.index_sqlite_s, r.index_peak_mib, r.db_bytes, r.db_bytes / c, r.q.value_median_us,
        r.q.value_p99_us, r.q.value_autocommit_median_us, r.q.value_mmap_median_us,
        r.q.value_mmap_p99_us, r.q.state_entity_median_us, r.q.state_all_median_ms,
        r.q.state_all_rows, r.q.history_median_us, r.q.history_rows, r.q.sample_median_ms,
        r.q.sample_rows);
    if (r.tables.ok) {
      const GameTablesCost& t = r.tables;
      fmt::print(
          ",\"game_tables\":{{\"pairs\":{},\"with_seconds\":{:.6f},\"without_seconds\":{:.6f},"
          "\"wall_ratio\":{:.4f},\"wall_ratio_min\":{:.4f},\"wall_ratio_max\":{:.4f},"
          "\"cpu_ratio\":{:.4f},\"with_mb\":{:.3f},\"without_mb\":{:.3f},"
          "\"with_peak_mib\":{:.1f},\"without_peak_mib\":{:.1f}}}",
          t.pairs, t.with_s, t.without_s, t.wall_ratio, t.wall_ratio_min, t.wall_ratio_max,
          t.cpu_ratio, t.with_mb, t.without_mb, t.with_peak_mib, t.without_peak_mib);
    }
    if (r.keyframes.ok) {
      fmt::print(",\"keyframes\":{{{}}}", KeyframesJson(r.keyframes));
    }
    if (r.match.ok) {
      const MatchLayerCost& m = r.match;
      fmt::print(
          ",\"match_layer\":{{\"without_seconds\":{:.6f},\"default_seconds\":{:.6f},"
          "\"every_tick_seconds\":{:.6f},\"default_over_without\":{:.4f},"
          "\"every_tick_over_without\":{:.4f},\"without_mb\":{:.3f},\"default_mb\":{:.3f},"
          "\"every_tick_mb\":{:.3f},\"default_timeline_rows\":{},"
          "\"every_tick_timeline_rows\":{},\"default_peak_mib\":{:.1f},"
          "\"every_tick_peak_mib\":{:.1f}}}",
          m.without_s, m.default_s, m.every_tick_s, m.default_ratio, m.every_tick_ratio,
          m.without_mb, m.default_mb, m.every_tick_mb, m.default_rows, m.every_tick_rows,
          m.default_peak_mib, m.every_tick_peak_mib);
    }
    fmt::print("}}");
  }
  fmt::print("\n]}}\n");
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
             "usage: gem-bench [--json] [--runs N] [--minutes 5,15,30,60] [--match-minutes 30]\n"
             "                 [--keyframe-minutes 60] [--keyframe-ticks 101] [--view PATH]\n"
             "                 [--cs2-rounds 24] [--cs2-from FIXTURE]\n"
             "                 [--no-fixtures] [--fixtures DIR] [--from FIXTURE] [--work DIR]\n"
             "                 [--peer PATH [--peer-only]] [REPLAY...]\n"
             "\n"
             "Measures parse and index time, gem-index's peak memory, index size and query\n"
             "latencies for the fixtures (or the REPLAYs given) and for synthetic replays of\n"
             "each --minutes length (none with --minutes ''), and what the match layer costs\n"
             "gem-index on the synthetic replays of each --match-minutes length. Medians of\n"
             "--runs runs (3). --peer PATH sets gem-dump parse against `PATH FILE.dem` on\n"
             "every replay, and gem-index against it on the synthetic ones, whole processes\n"
             "run alternately (wall time and peak memory, ratios within pairs); --peer-only\n"
             "measures just that. A synthetic CS2 match of --cs2-rounds rounds (24; 0: none),\n"
             "written from --cs2-from (the de_dust2 fixture), is measured too, with what\n"
             "its tables cost: gem-index with them over --no-game-tables, alternating.\n"
             "On the synthetic replays of each --keyframe-minutes length, what keyframes\n"
             "buy and cost: gem_state of every entity at --keyframe-ticks random ticks with\n"
             "and without them, SQLite's own cost of as many rows, index sizes and times,\n"
             "and gem-view's frame request (--view, tools/view/gem-view from the checkout).\n");
}

}  // namespace

int main(int argc, char** argv) {
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
    } else if (a == "--keyframe-ticks") {
      o.keyframe_ticks = std::max(1, std::atoi(next().c_str()));
    } else if (a == "--cs2-rounds") {
      o.cs2_rounds = std::atoi(next().c_str());
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
      o.peer = next();
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
  if (o.peer_only && o.peer.empty()) {
    fmt::print(stderr, "gem-bench: --peer-only needs --peer PATH\n");
    return 64;
  }
  if (!o.peer.empty() && access(o.peer.c_str(), X_OK) != 0) {
    fmt::print(stderr, "gem-bench: cannot run the peer {}\n", o.peer);
    return 66;
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
    if (rows.back().error.empty() && name == cs2_name) {
      fmt::print(stderr, "gem-bench: {}: game tables\n", name);
      rows.back().tables = MeasureGameTables(Tool("indexer/gem-index"), path, o.work,
                                             std::max(o.runs, 5));
    }
  }
  if (o.json) {
    PrintJson(rows, o.runs);
  } else {
    if (!o.peer_only) PrintTable(rows);
    for (const CompressionCost& c : compression) PrintCompressionCost(c, stdout);
    if (!o.peer.empty()) {
      if (!o.peer_only) fmt::print("\n");
      PrintPeerTable(rows, o.peer, false);
      fmt::print("\n");
      PrintPeerTable(rows, o.peer, true);
    }
  }
  return 0;
}
