// gem-index: turns a Source 2 replay into a gem index (an SQLite database).
//
//   gem-index [--force] [--quiet] [--stats] [--timeline-step N] [--no-match-layer]
//             [--no-game-tables] [--keyframe-seconds S] [--keyframe-logged N]
//             [--follow [--idle-seconds S]] [--commit-seconds S | --no-live]
//             REPLAY.dem OUT.db
//   gem-index [OPTIONS] PART1.dem PART2.dem ... OUT.db   (or a directory of parts)
//
// Exit codes (sysexits): 0 ok (also for a truncated replay, flagged in the
// index), 64 usage, 65 bad data, 66 input missing or unreadable, 73 cannot
// create the output, 74 I/O error while writing.
#include <fmt/core.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/input/broadcast_http.h"
#include "core/util/exit_codes.h"
#include "core/util/huge_page_heap.h"
#include "core/util/version.h"
#include "indexer/index_schema.h"
#include "indexer/indexer.h"

namespace {

// A positive whole number of ticks, or false.
bool ParseStep(const char* text, int64_t* out) {
  if (text == nullptr || *text == '\0') return false;
  int64_t v = 0;
  for (const char* p = text; *p != '\0'; ++p) {
    if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10) return false;
    v = v * 10 + (*p - '0');
  }
  if (v <= 0) return false;
  *out = v;
  return true;
}

void Usage(FILE* out) {
  fmt::print(
      out,
      "usage: gem-index [--force] [--quiet] [--stats] [--timeline-step N] [--no-match-layer]\n"
      "                 [--no-game-tables] [--keyframe-seconds S] [--keyframe-logged N]\n"
      "                 [--follow [--idle-seconds S]] [--commit-seconds S | --no-live]\n"
      "                 REPLAY.dem OUT.db\n"
      "       gem-index [OPTIONS] PART1.dem PART2.dem ... OUT.db\n"
      "\n"
      "Parses a Source 2 replay (Dota 2, Deadlock, CS2) and writes an SQLite index of\n"
      "its entity field changes, string tables, combat log, game events and chat.\n"
      "\n"
      "A match recorded in several files (a recording restarted mid-match) is given\n"
      "as its parts in recording order, or as a directory holding them (its .dem\n"
      "files, in the order of their names, numbers by value): one index of the match,\n"
      "its parts table saying how each file joins the one before (docs/recordings.md).\n"
      "\n"
      "  --force    replace OUT.db if it exists\n"
      "  --quiet    no progress, no notices (errors only)\n"
      "  --stats    print timings, counts and sizes (key<TAB>value) when done\n"
      "  --timeline-step N\n"
      "             sample the timeline every N ticks (1: every tick); default:\n"
      "             once a game second (the tick rate), and the last tick\n"
      "  --no-match-layer\n"
      "             leave players, timeline, kills, wards and match_info empty\n"
      "  --no-game-tables\n"
      "             with the match layer, leave the game's analyst tables empty\n"
      "             (CS2's rounds, damages, ...: to measure what they cost)\n"
      "  --keyframe-seconds S\n"
      "             keep every entity's state each S game seconds (default {}), so\n"
      "             that the state at any tick reads fast; 0: one interval for the\n"
      "             whole replay, no state but the entities' creation states\n"
      "  --keyframe-logged N\n"
      "             an interval's row of an entity holds the changes of each field\n"
      "             that changes at most N times in it (default {}); the others'\n"
      "             are runs in the changes table\n"
      "  --follow   REPLAY.dem is still being written: at the end of its bytes,\n"
      "             wait for more, to its DEM_Stop\n"
      "  --idle-seconds S\n"
      "             with --follow, a replay that has not grown for S seconds\n"
      "             (default {}) ends there, as a cut replay does; from a\n"
      "             broadcast URL, a relay that gave no fragment for S seconds\n"
      "  --commit-seconds S\n"
      "             OUT.db is readable while it is written (WAL mode), committed\n"
      "             every S seconds of game time (default {} with --follow or a URL);\n"
      "             meta's live = 1 and live_tick say how far it is. At the end\n"
      "             it becomes the finished index, as without\n"
      "  --no-live  with --follow or a URL, write OUT.db whole at the end\n"
      "  --help     this text\n"
      "  --version  the version and the index schema it writes\n"
      "\n"
      "exit codes: 0 ok (a truncated replay too; meta.truncated = 1), 64 usage,\n"
      "65 bad data, 66 input missing or unreadable, 73 cannot create OUT.db,\n"
      "74 I/O error while writing\n",
      gem::index::kDefaultKeyframeSeconds, gem::index::kDefaultKeyframeMaxLogged,
      gem::index::kDefaultIdleSeconds, gem::index::kDefaultCommitSeconds);
}

// A directory that is not a broadcast's (which has a sync file).
bool IsDirectoryOfParts(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) &&
         !std::filesystem::exists(std::filesystem::path(path) / "sync", ec);
}

// Names compared with their runs of digits as numbers: part2 before part10.
bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      std::string_view x(a.data() + i, ie - i), y(b.data() + j, je - j);
      while (x.size() > 1 && x[0] == '0') x.remove_prefix(1);
      while (y.size() > 1 && y[0] == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// The replays in a directory of parts, in the order of their names.
std::vector<std::string> PartsInDirectory(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    for (const char* ext : {".dem", ".dem.bz2", ".dem.gz", ".dem.zst"}) {
      const size_t n = std::strlen(ext);
      if (name.size() > n && name.compare(name.size() - n, n, ext) == 0 &&
          e.is_regular_file(ec)) {
        names.push_back(name);
        break;
      }
    }
  }
  std::sort(names.begin(), names.end(), NaturalLess);
  for (std::string& name : names) name = (std::filesystem::path(dir) / name).string();
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  gem::BackHeapWithHugePages();
  using namespace gem;
  index::IndexOptions options;
  bool quiet = false, stats = false, idle_given = false, no_live = false;
  double commit_seconds = -1;
  std::string in, out;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0) {
      Usage(stdout);
      return 0;
    } else if (std::strcmp(a, "--version") == 0) {
      fmt::print("gem-index {} (index schema {})\n", kGemVersion, index::kSchemaVersion);
      return 0;
    } else if (std::strcmp(a, "--force") == 0) {
      options.force = true;
    } else if (std::strcmp(a, "--quiet") == 0) {
      quiet = true;
    } else if (std::strcmp(a, "--stats") == 0) {
      stats = true;
    } else if (std::strcmp(a, "--no-match-layer") == 0) {
      options.match_layer = false;
    } else if (std::strcmp(a, "--no-game-tables") == 0) {
      options.game_tables = false;
    } else if (std::strcmp(a, "--timeline-step") == 0 ||
               std::strncmp(a, "--timeline-step=", 16) == 0) {
      const char* v = a[15] == '=' ? a + 16 : (i + 1 < argc ? argv[++i] : nullptr);
      if (!ParseStep(v, &options.timeline_step)) {
        fmt::print(stderr,
                   "gem-index: --timeline-step needs a whole number of ticks of 1 or more "
                   "(got {})\n",
                   v == nullptr ? "nothing" : v);
        return cli::kExitUsage;
      }
    } else if (std::strcmp(a, "--follow") == 0) {
      options.follow = true;
    } else if (std::strcmp(a, "--idle-seconds") == 0) {
      const char* v = i + 1 < argc ? argv[++i] : nullptr;
      char* end = nullptr;
      const double d = v == nullptr ? -1 : std::strtod(v, &end);
      if (v == nullptr || end == v || *end != '\0' || !(d > 0) || d > 86400) {
        fmt::print(stderr, "gem-index: --idle-seconds needs a number of seconds over 0, "
                           "at most 86400 (got {})\n", v == nullptr ? "nothing" : v);
        return cli::kExitUsage;
      }
      options.idle_seconds = d;
      idle_given = true;
    } else if (std::strcmp(a, "--no-live") == 0) {
      no_live = true;
    } else if (std::strcmp(a, "--commit-seconds") == 0) {
      const char* v = i + 1 < argc ? argv[++i] : nullptr;
      char* end = nullptr;
      const double d = v == nullptr ? -1 : std::strtod(v, &end);
      if (v == nullptr || end == v || *end != '\0' || !(d >= 0.01) || d > 86400) {
        fmt::print(stderr, "gem-index: --commit-seconds needs a number of seconds from 0.01 "
                           "to 86400 (got {})\n", v == nullptr ? "nothing" : v);
        return cli::kExitUsage;
      }
      commit_seconds = d;
    } else if (std::strcmp(a, "--keyframe-seconds") == 0 ||
               std::strcmp(a, "--keyframe-logged") == 0) {
      const bool seconds = a[11] == 's';
      const char* v = i + 1 < argc ? argv[++i] : nullptr;
      char* end = nullptr;
      const double d = v == nullptr ? -1 : std::strtod(v, &end);
      if (v == nullptr || end == v || *end != '\0' || !(d >= 0) || d > 1e6 ||
          (!seconds && (d != static_cast<uint32_t>(d) || d > 1000))) {
        fmt::print(stderr, "gem-index: {} needs {} (got {})\n", a,
                   seconds ? "a number of seconds from 0 to 1000000"
                           : "a whole number from 0 to 1000",
                   v == nullptr ? "nothing" : v);
        return cli::kExitUsage;
      }
      if (seconds) options.keyframe_seconds = d;
      else options.keyframe_max_logged = static_cast<uint32_t>(d);
    } else if (a[0] == '-' && a[1] != '\0') {
      fmt::print(stderr, "gem-index: unknown option {}\n", a);
      Usage(stderr);
      return cli::kExitUsage;
    } else {
      inputs.push_back(a);
    }
  }
  if (inputs.size() < 2) {
    Usage(stderr);
    return cli::kExitUsage;
  }
  out = inputs.back();
  inputs.pop_back();
  in = inputs.front();
  if (inputs.size() == 1 && IsDirectoryOfParts(in)) {
    // (A directory with no replay in it is read as a broadcast's, whose
    // reader says what it lacks.)
    std::vector<std::string> parts = PartsInDirectory(in);
    if (!parts.empty()) inputs = std::move(parts);
  }
  if (idle_given && !options.follow && !IsBroadcastUrl(in)) {
    fmt::print(stderr, "gem-index: --idle-seconds is for --follow or a broadcast URL\n");
    return cli::kExitUsage;
  }
  if (no_live && commit_seconds > 0) {
    fmt::print(stderr, "gem-index: --commit-seconds and --no-live contradict each other\n");
    return cli::kExitUsage;
  }
  if (commit_seconds > 0) {
    options.commit_seconds = commit_seconds;
  } else if (!no_live && (options.follow || IsBroadcastUrl(in))) {
    options.commit_seconds = index::kDefaultCommitSeconds;
  }
  if (options.commit_seconds > 0 && out == "-") {
    fmt::print(stderr, "gem-index: a live index is a file that readers open: not -\n");
    return cli::kExitUsage;
  }
  options.progress = !quiet;
  options.exit_after = true;
  index::IndexReport report;
  Status s = index::IndexReplay(inputs, out, options, &report);
  if (!s.ok()) {
    const bool output_failed =
        s.code() == Status::Code::kCannotCreate || s.code() == Status::Code::kIoError;
    // A split recording's messages name the part at fault themselves.
    const std::string where = output_failed ? out + ": " : inputs.size() > 1 ? "" : in + ": ";
    fmt::print(stderr, "gem-index: {}{}\n", where, s.ToString());
    return cli::ExitCodeFor(s);
  }
  if (report.meta.truncated && !quiet) {
    fmt::print(stderr, "gem-index: {} is truncated ({}); indexed up to tick {}\n", inputs.back(),
               report.meta.truncation_reason, report.meta.last_tick);
  }
  if (stats) {
    const index::WriterStats& w = report.stats;
    uint64_t values = w.field_changes + w.created_values;
    fmt::print("seconds\t{:.6f}\n", report.seconds);
    fmt::print("parse_seconds\t{:.6f}\n", report.parse_seconds);
    fmt::print("cpu_seconds\t{:.6f}\n", report.cpu_seconds);
    fmt::print("parse_cpu_seconds\t{:.6f}\n", report.parse_cpu_seconds);
    fmt::print("pack_cpu_seconds\t{:.6f}\n", w.pack_cpu_seconds);
    fmt::print("write_cpu_seconds\t{:.6f}\n", w.write_cpu_seconds);
    fmt::print("sha_cpu_seconds\t{:.6f}\n", report.sha_cpu_seconds);
    fmt::print("sqlite_seconds\t{:.6f}\n", w.sqlite_seconds);
    fmt::print("finish_drain_seconds\t{:.6f}\n", w.finish_drain_seconds);
    fmt::print("finish_changes_seconds\t{:.6f}\n", w.finish_changes_seconds);
    fmt::print("pipeline_wait_seconds\t{:.6f}\n", w.pipeline_wait_seconds);
    fmt::print("finish_indexes_seconds\t{:.6f}\n", w.finish_indexes_seconds);
    fmt::print("finish_commit_seconds\t{:.6f}\n", w.finish_commit_seconds);
    fmt::print("finish_analyze_seconds\t{:.6f}\n", w.finish_analyze_seconds);
    fmt::print("db_bytes\t{}\n", report.db_bytes);
    fmt::print("field_changes\t{}\n", w.field_changes);
    fmt::print("created_values\t{}\n", w.created_values);
    fmt::print("entities\t{}\n", w.entities);
    fmt::print("string_table_rows\t{}\n", w.string_table_rows);
    fmt::print("game_table_rows\t{}\n", w.game_table_rows);
    fmt::print("bytes_per_value\t{:.3f}\n", values ? double(report.db_bytes) / values : 0.0);
    fmt::print("keyframe_interval\t{}\n", w.keyframe_interval);
    fmt::print("intervals\t{}\n", w.intervals.intervals);
    fmt::print("snapshots\t{}\n", w.snapshots);
    fmt::print("logged_changes\t{}\n", w.intervals.logged);
    fmt::print("logged_fields\t{}\n", w.intervals.logged_fields);
    fmt::print("run_fields\t{}\n", w.intervals.run_fields);
    fmt::print("runs\t{}\n", w.intervals.runs);
    fmt::print("run_bytes\t{}\n", w.pages.run_bytes);
    fmt::print("run_pages\t{}\n", w.pages.pages);
    fmt::print("run_page_bytes\t{}\n", w.pages.page_bytes);
    fmt::print("peak_held_changes\t{}\n", w.intervals.peak_held);
    fmt::print("run_trims\t{}\n", w.intervals.trims);
    fmt::print("keyframe_rows\t{}\n", w.blocks.rows);
    fmt::print("keyframe_bytes\t{}\n", w.blocks.row_bytes);
    fmt::print("keyframe_blocks\t{}\n", w.blocks.blocks);
    fmt::print("keyframe_block_bytes\t{}\n", w.blocks.block_bytes);
    fmt::print("truncated\t{}\n", report.meta.truncated ? 1 : 0);
    fmt::print("live_commits\t{}\n", w.live_commits);
    fmt::print("live_last_tick\t{}\n", w.live_last_tick);
    fmt::print("live_commit_time_seconds\t{:.6f}\n", w.live_commit_time_seconds);
    fmt::print("live_tail_rows\t{}\n", w.live_tail_rows);
  }
  return 0;
}
