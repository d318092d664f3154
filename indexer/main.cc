// gem-index: turns a Source 2 replay into a gem index (an SQLite database).
//
//   gem-index [--force] [--quiet] [--stats] [--timeline-step N] [--no-match-layer]
//             REPLAY.dem OUT.db
//
// Exit codes (sysexits): 0 ok (also for a truncated replay, flagged in the
// index), 64 usage, 65 bad data, 66 input missing or unreadable, 73 cannot
// create the output, 74 I/O error while writing.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/exit_codes.h"
#include "core/huge_page_heap.h"
#include "core/version.h"
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
  std::fputs(
      "usage: gem-index [--force] [--quiet] [--stats] [--timeline-step N] [--no-match-layer]\n"
      "                 REPLAY.dem OUT.db\n"
      "\n"
      "Parses a Source 2 replay (Dota 2, Deadlock, CS2) and writes an SQLite index of\n"
      "its entity field changes, string tables, combat log, game events and chat.\n"
      "\n"
      "  --force    replace OUT.db if it exists\n"
      "  --quiet    no progress, no notices (errors only)\n"
      "  --stats    print timings, counts and sizes (key<TAB>value) when done\n"
      "  --timeline-step N\n"
      "             sample the timeline every N ticks (1: every tick); default:\n"
      "             once a game second (the tick rate), and the last tick\n"
      "  --no-match-layer\n"
      "             leave players, timeline, kills, wards and match_info empty\n"
      "  --help     this text\n"
      "  --version  the version and the index schema it writes\n"
      "\n"
      "exit codes: 0 ok (a truncated replay too; meta.truncated = 1), 64 usage,\n"
      "65 bad data, 66 input missing or unreadable, 73 cannot create OUT.db,\n"
      "74 I/O error while writing\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
  gem::BackHeapWithHugePages();
  using namespace gem;
  index::IndexOptions options;
  bool quiet = false, stats = false;
  std::string in, out;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0) {
      Usage(stdout);
      return 0;
    } else if (std::strcmp(a, "--version") == 0) {
      std::printf("gem-index %s (index schema %d)\n", kGemVersion, index::kSchemaVersion);
      return 0;
    } else if (std::strcmp(a, "--force") == 0) {
      options.force = true;
    } else if (std::strcmp(a, "--quiet") == 0) {
      quiet = true;
    } else if (std::strcmp(a, "--stats") == 0) {
      stats = true;
    } else if (std::strcmp(a, "--no-match-layer") == 0) {
      options.match_layer = false;
    } else if (std::strcmp(a, "--timeline-step") == 0 ||
               std::strncmp(a, "--timeline-step=", 16) == 0) {
      const char* v = a[15] == '=' ? a + 16 : (i + 1 < argc ? argv[++i] : nullptr);
      if (!ParseStep(v, &options.timeline_step)) {
        std::fprintf(stderr,
                     "gem-index: --timeline-step needs a whole number of ticks of 1 or more "
                     "(got %s)\n",
                     v == nullptr ? "nothing" : v);
        return cli::kExitUsage;
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      std::fprintf(stderr, "gem-index: unknown option %s\n", a);
      Usage(stderr);
      return cli::kExitUsage;
    } else if (in.empty()) {
      in = a;
    } else if (out.empty()) {
      out = a;
    } else {
      std::fprintf(stderr, "gem-index: too many arguments\n");
      Usage(stderr);
      return cli::kExitUsage;
    }
  }
  if (in.empty() || out.empty()) {
    Usage(stderr);
    return cli::kExitUsage;
  }
  options.progress = !quiet;
  index::IndexReport report;
  Status s = index::IndexReplay(in, out, options, &report);
  if (!s.ok()) {
    std::fprintf(stderr, "gem-index: %s: %s\n",
                 s.code() == Status::Code::kCannotCreate || s.code() == Status::Code::kIoError
                     ? out.c_str()
                     : in.c_str(),
                 s.ToString().c_str());
    return cli::ExitCodeFor(s);
  }
  if (report.meta.truncated && !quiet) {
    std::fprintf(stderr, "gem-index: %s is truncated (%s); indexed up to tick %lld\n",
                 in.c_str(), report.meta.truncation_reason.c_str(),
                 static_cast<long long>(report.meta.last_tick));
  }
  if (stats) {
    const index::WriterStats& w = report.stats;
    uint64_t values = w.field_changes + w.created_values;
    std::printf("seconds\t%.6f\n", report.seconds);
    std::printf("parse_seconds\t%.6f\n", report.parse_seconds);
    std::printf("sqlite_seconds\t%.6f\n", w.sqlite_seconds);
    std::printf("finish_drain_seconds\t%.6f\n", w.finish_drain_seconds);
    std::printf("finish_changes_seconds\t%.6f\n", w.finish_changes_seconds);
    std::printf("pipeline_wait_seconds\t%.6f\n", w.pipeline_wait_seconds);
    std::printf("finish_indexes_seconds\t%.6f\n", w.finish_indexes_seconds);
    std::printf("finish_commit_seconds\t%.6f\n", w.finish_commit_seconds);
    std::printf("finish_analyze_seconds\t%.6f\n", w.finish_analyze_seconds);
    std::printf("db_bytes\t%llu\n", static_cast<unsigned long long>(report.db_bytes));
    std::printf("field_changes\t%llu\n", static_cast<unsigned long long>(w.field_changes));
    std::printf("created_values\t%llu\n", static_cast<unsigned long long>(w.created_values));
    std::printf("chunks\t%llu\n", static_cast<unsigned long long>(w.chunks));
    std::printf("entities\t%llu\n", static_cast<unsigned long long>(w.entities));
    std::printf("string_table_rows\t%llu\n", static_cast<unsigned long long>(w.string_table_rows));
    std::printf("combat_log_rows\t%llu\n", static_cast<unsigned long long>(w.combat_log_rows));
    std::printf("bytes_per_value\t%.3f\n", values ? double(report.db_bytes) / values : 0.0);
    std::printf("truncated\t%d\n", report.meta.truncated ? 1 : 0);
  }
  return 0;
}
