#include "tools/bench/report.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace gem::bench {
namespace {

// `s` as the inside of a JSON string (quotes and backslashes escaped,
// control bytes dropped).
std::string JsonText(const std::string& s) {
  std::string e;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') e += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20) e += ch;
  }
  return e;
}

// A comparison as a JSON object.
std::string ComparisonJson(const PeerComparison& p) {
  if (!p.ran) return "{\"error\":\"" + JsonText(p.error) + "\"}";
  return fmt::format(
      "{{\"pairs\":{},\"gem_seconds\":{:.6f},\"peer_seconds\":{:.6f},"
      "\"wall_ratio\":{:.4f},\"wall_ratio_min\":{:.4f},\"wall_ratio_max\":{:.4f},"
      "\"gem_cpu_seconds\":{:.6f},\"peer_cpu_seconds\":{:.6f},\"cpu_ratio\":{:.4f},"
      "\"gem_peak_mib\":{:.1f},\"peer_peak_mib\":{:.1f},\"peak_ratio\":{:.3f}}}",
      p.pairs, p.gem_s, p.peer_s, p.wall_ratio, p.wall_ratio_min, p.wall_ratio_max, p.gem_cpu_s,
      p.peer_cpu_s, p.cpu_ratio, p.gem_peak_mib, p.peer_peak_mib, p.peak_ratio);
}

// gem's parse (or its index) against one peer, replay by replay.
void PrintPeerTable(const std::vector<Row>& rows, const std::string& peer, bool index) {
  fmt::print(
      "{} against {} (whole processes, alternating; x = gem / peer,\n"
      "the median over pairs of the ratio within each pair, min..max beside):\n"
      "{:<52} {:>8} {:>8} {:>6} {:>13} {:>6} {:>7} {:>7} {:>6}\n",
      index ? "gem-index" : "gem-dump parse", peer, "replay", "gem_s", "peer_s", "wall_x",
      "x_min..max", "cpu_x", "gem_MB", "peer_MB", "peak_x");
  for (const Row& r : rows) {
    for (const PeerResult& result : r.peers) {
      if (result.peer != peer) continue;
      const PeerComparison& c = index ? result.index : result.parse;
      if (index && !c.ran && c.error.empty()) continue;  // not measured (a fixture)
      if (!c.ran) {
        fmt::print("{:<52}  ({})\n", r.name, c.error);
        continue;
      }
      fmt::print("{:<52} {:8.3f} {:8.3f} {:6.3f} {:6.3f}..{:<6.3f} {:6.2f} {:7.1f} {:7.1f} {:6.2f}\n",
                 r.name, c.gem_s, c.peer_s, c.wall_ratio, c.wall_ratio_min, c.wall_ratio_max,
                 c.cpu_ratio, c.gem_peak_mib, c.peer_peak_mib, c.peak_ratio);
    }
  }
}

}  // namespace

void PrintPeerTables(const std::vector<Row>& rows) {
  std::vector<std::string> peers;
  for (const Row& r : rows) {
    for (const PeerResult& result : r.peers) {
      if (std::find(peers.begin(), peers.end(), result.peer) == peers.end()) {
        peers.push_back(result.peer);
      }
    }
  }
  for (const std::string& peer : peers) {
    for (const bool index : {false, true}) {
      bool any = false;  // gem-index runs only beside the synthetic replays
      for (const Row& r : rows) {
        for (const PeerResult& result : r.peers) {
          const PeerComparison& c = index ? result.index : result.parse;
          any |= result.peer == peer && (c.ran || !c.error.empty());
        }
      }
      if (!any) continue;
      fmt::print("\n");
      PrintPeerTable(rows, peer, index);
    }
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
  for (const Row& r : rows) {
    if (r.live.ok) PrintLive(r.name, r.live);
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

std::string ReplaysJson(const std::vector<Row>& rows) {
  std::string out;
  auto put = [&out]<typename... Args>(fmt::format_string<Args...> f, Args&&... args) {
    fmt::format_to(std::back_inserter(out), f, std::forward<Args>(args)...);
  };
  put("[");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    put("{}\n{{\"replay\":\"{}\"", i ? "," : "", r.name);
    if (!r.error.empty()) {
      put(",\"bytes\":{:.0f},\"error\":\"{}\"}}", r.bytes, JsonText(r.error));
      continue;
    }
    // Each peer's figures; the first's also as "peer" and "index_peer".
    std::string peers;
    for (const PeerResult& result : r.peers) {
      peers += peers.empty() ? "" : ",";
      peers += "{\"peer\":\"" + JsonText(result.peer) + "\",\"parse\":" +
               ComparisonJson(result.parse);
      if (result.index.ran || !result.index.error.empty()) {
        peers += ",\"index\":" + ComparisonJson(result.index);
      }
      peers += "}";
    }
    if (!r.peers.empty()) {
      put(",\"game\":\"{}\",\"peers\":[{}],\"peer\":{}", JsonText(r.game), peers,
          ComparisonJson(r.peers[0].parse));
      if (r.peers[0].index.ran) put(",\"index_peer\":{}", ComparisonJson(r.peers[0].index));
    }
    if (r.q.last_tick == 0 && r.changes == 0) {  // --peer-only: nothing else measured
      put(",\"bytes\":{:.0f}}}", r.bytes);
      continue;
    }
    const double c = std::max(1.0, r.changes);
    put(
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
      put(
          ",\"game_tables\":{{\"pairs\":{},\"with_seconds\":{:.6f},\"without_seconds\":{:.6f},"
          "\"wall_ratio\":{:.4f},\"wall_ratio_min\":{:.4f},\"wall_ratio_max\":{:.4f},"
          "\"cpu_ratio\":{:.4f},\"with_mb\":{:.3f},\"without_mb\":{:.3f},"
          "\"with_peak_mib\":{:.1f},\"without_peak_mib\":{:.1f}}}",
          t.pairs, t.with_s, t.without_s, t.wall_ratio, t.wall_ratio_min, t.wall_ratio_max,
          t.cpu_ratio, t.with_mb, t.without_mb, t.with_peak_mib, t.without_peak_mib);
    }
    if (r.keyframes.ok) {
      put(",\"keyframes\":{{{}}}", KeyframesJson(r.keyframes));
    }
    if (r.live.ok) put(",\"live\":{{{}}}", LiveJson(r.live));
    if (r.bz2_bytes > 0) put(",\"bz2_bytes\":{:.0f}", r.bz2_bytes);
    if (r.match.ok) {
      const MatchLayerCost& m = r.match;
      put(
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
    put("}}");
  }
  put("\n]");
  return out;
}

}  // namespace gem::bench
