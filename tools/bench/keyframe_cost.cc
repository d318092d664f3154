#include "tools/bench/keyframe_cost.h"

#include <fmt/core.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "tools/bench/measure.h"
#include "tools/bench/queries.h"

namespace gem::bench {
namespace {

// bench_rows(n): n rows (entity, field, value) made of nothing but a
// counter, through the same virtual-table interface gem_state uses: what
// SQLite itself spends per row, whatever the table does.
struct FloorCursor {
  sqlite3_vtab_cursor base;
  sqlite3_int64 row = 0, rows = 0;
};

int FloorConnect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(entity, field, value, n HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  *out = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (*out == nullptr) return SQLITE_NOMEM;
  **out = sqlite3_vtab{};
  return SQLITE_OK;
}
int FloorDisconnect(sqlite3_vtab* v) {
  sqlite3_free(v);
  return SQLITE_OK;
}
int FloorBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.usable && c.iColumn == 3 && c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->idxNum = 1;
    }
  }
  info->estimatedCost = 1;
  return SQLITE_OK;
}
int FloorOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  auto* c = new FloorCursor();
  *out = &c->base;
  return SQLITE_OK;
}
int FloorClose(sqlite3_vtab_cursor* c) {
  delete reinterpret_cast<FloorCursor*>(c);
  return SQLITE_OK;
}
int FloorFilter(sqlite3_vtab_cursor* base, int idx, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<FloorCursor*>(base);
  c->row = 0;
  c->rows = idx == 1 && argc == 1 ? sqlite3_value_int64(argv[0]) : 0;
  return SQLITE_OK;
}
int FloorNext(sqlite3_vtab_cursor* base) {
  ++reinterpret_cast<FloorCursor*>(base)->row;
  return SQLITE_OK;
}
int FloorEof(sqlite3_vtab_cursor* base) {
  auto* c = reinterpret_cast<FloorCursor*>(base);
  return c->row >= c->rows;
}
int FloorColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<FloorCursor*>(base);
  if (col == 1) {
    // gem_state's field is text. Its length is left to SQLite (-1) so that
    // it knows the text ends in a NUL: given 9, it would copy the text
    // into a buffer of its own to terminate it when the row is read, an
    // allocation a row that is no cost of stepping.
    sqlite3_result_text(ctx, "m_iHealth", -1, SQLITE_STATIC);
  } else {
    sqlite3_result_int64(ctx, c->row);
  }
  return SQLITE_OK;
}
int FloorRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<FloorCursor*>(base)->row;
  return SQLITE_OK;
}

sqlite3_module FloorModule() {
  sqlite3_module m{};
  m.xConnect = FloorConnect;
  m.xBestIndex = FloorBestIndex;
  m.xDisconnect = FloorDisconnect;
  m.xOpen = FloorOpen;
  m.xClose = FloorClose;
  m.xFilter = FloorFilter;
  m.xNext = FloorNext;
  m.xEof = FloorEof;
  m.xColumn = FloorColumn;
  m.xRowid = FloorRowid;
  return m;
}

// A connection closed on scope exit.
struct Db {
  sqlite3* db = nullptr;
  ~Db() { sqlite3_close(db); }
};

// Runs `sql` with ?1 = `arg` to its end (queries.h's DrainRows); rows, or -1.
int64_t Drain(sqlite3* db, const char* sql, int64_t arg) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) return -1;
  sqlite3_bind_int64(st, 1, arg);
  const int64_t rows = DrainRows(st);
  sqlite3_finalize(st);
  return rows;
}

uint64_t FileBytes(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

}  // namespace

KeyframeFigures MeasureKeyframes(const std::string& gem_index, const std::string& libgem,
                                 const std::string& view, const std::string& replay,
                                 const std::string& work, int runs, int ticks) {
  KeyframeFigures f;
  const std::string with_db = work + "/keyframes-on.db", without_db = work + "/keyframes-off.db";
  std::vector<double> with_s, without_s;
  for (int i = 0; i < std::max(runs, 1); ++i) {
    const ChildRun off = RunChild({gem_index, "--force", "--quiet", "--keyframe-seconds", "0",
                                   replay, without_db});
    const ChildRun on = RunChild({gem_index, "--force", "--quiet", replay, with_db});
    if (off.exit_code != 0 || on.exit_code != 0) {
      f.error = "gem-index failed on " + replay;
      return f;
    }
    without_s.push_back(off.seconds);
    with_s.push_back(on.seconds);
  }
  f.index_with_s = Median(with_s);
  f.index_without_s = Median(without_s);
  f.bytes_with = FileBytes(with_db);
  f.bytes_without = FileBytes(without_db);

  Db on{OpenWithGem(with_db, libgem, &f.error)};
  Db off{on.db ? OpenWithGem(without_db, libgem, &f.error) : nullptr};
  if (on.db == nullptr || off.db == nullptr) return f;
  static const sqlite3_module floor_module = FloorModule();
  sqlite3_create_module(on.db, "bench_rows", &floor_module, nullptr);
  sqlite3_stmt* st = nullptr;
  int64_t last_tick = 0;
  if (sqlite3_prepare_v2(on.db, "SELECT value FROM meta WHERE key = 'last_tick'", -1, &st,
                         nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    last_tick = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  const char* state = "SELECT entity, field, value FROM gem_state(?1)";
  const char* floor = "SELECT entity, field, value FROM bench_rows WHERE n = ?1";
  const char* pushdown =
      "SELECT entity, field, value FROM gem_state(?1) WHERE field IN ('m_iHealth', "
      "'m_iMaxHealth', 'm_iTeamNum', 'CBodyComponent.m_cellX', 'CBodyComponent.m_cellY', "
      "'m_lifeState')";
  // Warm-up: each connection's first query reads the entity list and the
  // classes' fields once.
  Drain(on.db, state, last_tick / 2);
  Drain(off.db, state, last_tick / 2);
  std::mt19937_64 rng(7);
  std::vector<double> with_ms, without_ms, floor_ms, pushdown_ms, rows;
  for (int i = 0; i < ticks; ++i) {
    const int64_t tick = static_cast<int64_t>(rng() % static_cast<uint64_t>(last_tick + 1));
    double t0 = Now();
    const int64_t n = Drain(on.db, state, tick);
    with_ms.push_back((Now() - t0) * 1e3);
    t0 = Now();
    const int64_t n_off = Drain(off.db, state, tick);
    without_ms.push_back((Now() - t0) * 1e3);
    if (n < 0 || n != n_off) {
      f.error = "gem_state at tick " + std::to_string(tick) + " gave " + std::to_string(n) +
                " rows with keyframes and " + std::to_string(n_off) + " without";
      return f;
    }
    t0 = Now();
    Drain(on.db, floor, n);
    floor_ms.push_back((Now() - t0) * 1e3);
    t0 = Now();
    Drain(on.db, pushdown, tick);
    pushdown_ms.push_back((Now() - t0) * 1e3);
    rows.push_back(static_cast<double>(n));
  }
  f.ticks = ticks;
  f.rows = Median(rows);
  f.with_p50_ms = Median(with_ms);
  f.with_p99_ms = Quantile(with_ms, 0.99);
  f.with_slowest_ms = *std::max_element(with_ms.begin(), with_ms.end());
  f.without_p50_ms = Median(without_ms);
  f.without_p99_ms = Quantile(without_ms, 0.99);
  f.floor_p50_ms = Median(floor_ms);
  f.floor_p99_ms = Quantile(floor_ms, 0.99);
  f.pushdown_p50_ms = Median(pushdown_ms);
  f.frames = MeasureFrames(view, libgem, with_db, ticks);
  f.ok = true;
  return f;
}

void PrintKeyframes(const std::string& name, const KeyframeFigures& k) {
  fmt::print(
      "\nkeyframes ({}: gem_state of every entity at {} random ticks, {:.0f} rows a tick):\n"
      "with p50 {:.2f} ms, p99 {:.2f} ms, slowest {:.2f} ms; one interval (--keyframe-seconds 0) "
      "p50 {:.2f} ms, p99 {:.2f} ms;\nSQLite stepping as many rows from a virtual table that computes nothing: "
      "p50 {:.2f} ms, p99 {:.2f} ms;\nsix fields pushed down, p50 {:.2f} ms; index {:.2f} vs "
      "{:.2f} MB ({:.3f}x), gem-index {:.3f} vs {:.3f} s\n",
      name, k.ticks, k.rows, k.with_p50_ms, k.with_p99_ms, k.with_slowest_ms, k.without_p50_ms, k.without_p99_ms,
      k.floor_p50_ms, k.floor_p99_ms, k.pushdown_p50_ms, k.bytes_with / 1e6, k.bytes_without / 1e6,
      k.bytes_without ? double(k.bytes_with) / k.bytes_without : 0.0, k.index_with_s,
      k.index_without_s);
  if (k.frames.ok) {
    fmt::print("gem-view's frame request ({} requests): p50 {:.2f} ms, p99 {:.2f} ms; "
               "{:.0f} units, {:.0f} bytes a frame (medians)\n",
               k.frames.requests, k.frames.p50_ms, k.frames.p99_ms, k.frames.units,
               k.frames.payload_bytes);
  } else {
    fmt::print("gem-view's frame request: not measured: {}\n", k.frames.error);
  }
}

std::string KeyframesJson(const KeyframeFigures& k) {
  return fmt::format(
      "\"ticks\":{},\"rows\":{:.0f},\"with_p50_ms\":{:.3f},\"with_p99_ms\":{:.3f},"
      "\"with_slowest_ms\":{:.3f},"
      "\"without_p50_ms\":{:.3f},\"without_p99_ms\":{:.3f},\"floor_p50_ms\":{:.3f},"
      "\"floor_p99_ms\":{:.3f},\"pushdown_p50_ms\":{:.3f},\"bytes_with\":{},\"bytes_without\":{},"
      "\"index_with_seconds\":{:.4f},\"index_without_seconds\":{:.4f},"
      "\"frame_p50_ms\":{:.3f},\"frame_p99_ms\":{:.3f},\"frame_bytes\":{:.0f}",
      k.ticks, k.rows, k.with_p50_ms, k.with_p99_ms, k.with_slowest_ms, k.without_p50_ms,
      k.without_p99_ms, k.floor_p50_ms, k.floor_p99_ms, k.pushdown_p50_ms, k.bytes_with, k.bytes_without,
      k.index_with_s, k.index_without_s, k.frames.p50_ms, k.frames.p99_ms, k.frames.payload_bytes);
}

}  // namespace gem::bench
