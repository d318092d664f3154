// Query latencies on a gem index through libgem, in this process with
// Debian's SQLite: each statement is prepared once and each sample timed
// from bind to its last row, values read.
#ifndef GEM_TOOLS_BENCH_QUERIES_H_
#define GEM_TOOLS_BENCH_QUERIES_H_

#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace gem::bench {

// An index opened read-only with libgem loaded (close it with
// sqlite3_close); null with *error set.
sqlite3* OpenWithGem(const std::string& path, const std::string& libgem, std::string* error);

// Steps `st` to its end reading every column (text fetched, as a caller
// would), then resets it; the rows, or -1 on an error.
int64_t DrainRows(sqlite3_stmt* st);

struct QueryLatencies {
  bool ok = false;
  std::string error;
  int64_t last_tick = 0;
  // gem_value(entity, field, tick), each lookup its own statement run,
  // inside one read transaction (as a program making many lookups runs).
  double value_median_us = 0;
  double value_p99_us = 0;
  int value_samples = 0;
  // The same in autocommit mode: each statement then also takes and drops
  // SQLite's file lock and checks for a hot journal (system calls).
  double value_autocommit_median_us = 0;
  // In a read transaction with the index memory-mapped (PRAGMA mmap_size
  // = 1 GiB): SQLite reads pages without a system call each.
  double value_mmap_median_us = 0;
  double value_mmap_p99_us = 0;
  double state_entity_median_us = 0;  // gem_state(tick, entity), all rows
  double state_all_median_ms = 0;     // gem_state(tick), all rows
  double state_all_rows = 0;          // rows per gem_state(tick), median
  double history_median_us = 0;       // gem_changes of one (entity, field)
  double history_rows = 0;            // rows per history, mean
  // gem_sample of one field of one entity over the whole replay at a
  // step of 15 ticks (7,200 rows an hour at 30 ticks a second): one pass
  // over the field's changes.
  double sample_median_ms = 0;
  double sample_rows = 0;             // rows per sample query, median
};

// Samples are drawn with a fixed seed from the index's own changes.
QueryLatencies MeasureQueries(const std::string& db_path, const std::string& libgem,
                              int value_samples);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_QUERIES_H_
