#include "tools/bench/queries.h"

#include <sqlite3.h>

#include <algorithm>
#include <random>
#include <vector>

#include "tools/bench/measure.h"

namespace gem::bench {
namespace {

// A prepared statement, finalized on scope exit.
class Query {
 public:
  Query(sqlite3* db, const char* sql) { ok_ = sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) == SQLITE_OK; }
  ~Query() { sqlite3_finalize(st_); }
  bool ok() const { return ok_; }
  sqlite3_stmt* get() { return st_; }
  int64_t Drain() { return DrainRows(st_); }

 private:
  sqlite3_stmt* st_ = nullptr;
  bool ok_ = false;
};

struct Pair {
  int64_t entity;
  std::string field;
  int64_t first_tick, last_tick;
  int64_t changes;
};

}  // namespace

sqlite3* OpenWithGem(const std::string& path, const std::string& libgem, std::string* error) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    *error = "cannot open " + path;
    sqlite3_close(db);
    return nullptr;
  }
  char* err = nullptr;
  sqlite3_enable_load_extension(db, 1);
  if (sqlite3_load_extension(db, libgem.c_str(), nullptr, &err) != SQLITE_OK) {
    *error = "cannot load " + libgem + ": " + (err ? err : "?");
    sqlite3_free(err);
    sqlite3_close(db);
    return nullptr;
  }
  return db;
}

int64_t DrainRows(sqlite3_stmt* st) {
  int64_t rows = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      if (sqlite3_column_type(st, i) == SQLITE_TEXT) sqlite3_column_text(st, i);
    }
    ++rows;
  }
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? rows : -1;
}

QueryLatencies MeasureQueries(const std::string& db_path, const std::string& libgem,
                              int value_samples) {
  QueryLatencies q;
  sqlite3* db = OpenWithGem(db_path, libgem, &q.error);
  if (db == nullptr) return q;
  int64_t last_tick = 0;
  {
    Query meta(db, "SELECT value FROM meta WHERE key = 'last_tick'");
    if (meta.ok() && sqlite3_step(meta.get()) == SQLITE_ROW) {
      last_tick = sqlite3_column_int64(meta.get(), 0);
    }
  }
  q.last_tick = last_tick;
  std::mt19937_64 rng(20261129);
  // The (entity, field) pairs that change, with their tick ranges, read
  // from gem_changes: of 300 entities drawn at random (the lookups below
  // draw from these), and of up to 100 alive through most of the replay
  // (gem_sample reads their fields that change from its start to its end).
  std::vector<Pair> pairs, whole;
  {
    std::vector<int64_t> all, whole_life;
    Query lives(db, "SELECT entity, created_tick, coalesce(deleted_tick, ?1) FROM entities");
    sqlite3_bind_int64(lives.get(), 1, last_tick);
    while (lives.ok() && sqlite3_step(lives.get()) == SQLITE_ROW) {
      all.push_back(sqlite3_column_int64(lives.get(), 0));
      if (sqlite3_column_int64(lives.get(), 1) <= last_tick / 10 &&
          sqlite3_column_int64(lives.get(), 2) >= last_tick - last_tick / 10) {
        whole_life.push_back(all.back());
      }
    }
    std::shuffle(all.begin(), all.end(), rng);
    std::shuffle(whole_life.begin(), whole_life.end(), rng);
    all.resize(std::min<size_t>(all.size(), 300));
    whole_life.resize(std::min<size_t>(whole_life.size(), 100));
    Query fields(db, "SELECT field, min(tick), max(tick), count(*) FROM gem_changes "
                     "WHERE entity = ?1 GROUP BY field");
    auto read_pairs = [&](const std::vector<int64_t>& entities, std::vector<Pair>* out) {
      for (int64_t entity : entities) {
        sqlite3_bind_int64(fields.get(), 1, entity);
        while (fields.ok() && sqlite3_step(fields.get()) == SQLITE_ROW) {
          out->push_back({entity,
                          reinterpret_cast<const char*>(sqlite3_column_text(fields.get(), 0)),
                          sqlite3_column_int64(fields.get(), 1),
                          sqlite3_column_int64(fields.get(), 2),
                          sqlite3_column_int64(fields.get(), 3)});
        }
        sqlite3_reset(fields.get());
      }
    };
    read_pairs(all, &pairs);
    read_pairs(whole_life, &whole);
    std::erase_if(whole, [&](const Pair& p) {
      return p.first_tick > last_tick / 10 || p.last_tick < last_tick - last_tick / 10;
    });
  }
  if (pairs.empty()) {
    q.error = "the index has no field changes";
    sqlite3_close(db);
    return q;
  }
  auto pick = [&]() -> const Pair& { return pairs[rng() % pairs.size()]; };
  auto tick_in = [&](const Pair& p) {
    return p.first_tick + static_cast<int64_t>(rng() % static_cast<uint64_t>(
                                                           p.last_tick - p.first_tick + 1));
  };

  Query value(db, "SELECT gem_value(?1, ?2, ?3)");
  Query state_entity(db, "SELECT field, value FROM gem_state(?1, ?2)");
  Query state_all(db, "SELECT entity, field, value FROM gem_state(?1)");
  Query history(db, "SELECT tick, value FROM gem_changes WHERE entity = ?1 AND field = ?2");
  Query sample(db, "SELECT tick, value FROM gem_sample(0, ?3, 15) WHERE entity = ?1 AND "
                   "field = ?2");
  if (!value.ok() || !state_entity.ok() || !state_all.ok() || !history.ok() || !sample.ok()) {
    q.error = std::string("cannot prepare the queries: ") + sqlite3_errmsg(db);
    sqlite3_close(db);
    return q;
  }
  // Warm up: the first query of a connection reads the index's tables.
  value.Drain();

  std::vector<double> times;
  auto time_values = [&]() {
    times.clear();
    for (int i = 0; i < value_samples; ++i) {
      const Pair& p = pick();
      sqlite3_bind_int64(value.get(), 1, p.entity);
      sqlite3_bind_text(value.get(), 2, p.field.c_str(), -1, SQLITE_STATIC);
      sqlite3_bind_int64(value.get(), 3, tick_in(p));
      const double t0 = Now();
      value.Drain();
      times.push_back((Now() - t0) * 1e6);
    }
  };
  time_values();
  q.value_autocommit_median_us = Median(times);
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  time_values();
  q.value_samples = value_samples;
  q.value_median_us = Median(times);
  q.value_p99_us = Quantile(times, 0.99);
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_exec(db, "PRAGMA mmap_size = 1073741824", nullptr, nullptr, nullptr);
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  time_values();
  q.value_mmap_median_us = Median(times);
  q.value_mmap_p99_us = Quantile(times, 0.99);
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_exec(db, "PRAGMA mmap_size = 0", nullptr, nullptr, nullptr);

  times.clear();
  for (int i = 0; i < 200; ++i) {
    const Pair& p = pick();
    sqlite3_bind_int64(state_entity.get(), 1, tick_in(p));
    sqlite3_bind_int64(state_entity.get(), 2, p.entity);
    const double t0 = Now();
    state_entity.Drain();
    times.push_back((Now() - t0) * 1e6);
  }
  q.state_entity_median_us = Median(times);

  times.clear();
  std::vector<double> rows;
  for (int i = 0; i < 7; ++i) {
    sqlite3_bind_int64(state_all.get(), 1,
                       static_cast<int64_t>(rng() % static_cast<uint64_t>(last_tick + 1)));
    const double t0 = Now();
    rows.push_back(static_cast<double>(state_all.Drain()));
    times.push_back((Now() - t0) * 1e3);
  }
  q.state_all_median_ms = Median(times);
  q.state_all_rows = Median(rows);

  times.clear();
  double history_rows = 0;
  for (int i = 0; i < 200; ++i) {
    const Pair& p = pick();
    sqlite3_bind_int64(history.get(), 1, p.entity);
    sqlite3_bind_text(history.get(), 2, p.field.c_str(), -1, SQLITE_STATIC);
    const double t0 = Now();
    history_rows += static_cast<double>(history.Drain());
    times.push_back((Now() - t0) * 1e6);
  }
  q.history_median_us = Median(times);
  q.history_rows = history_rows / 200;

  times.clear();
  rows.clear();
  for (int i = 0; i < 50 && !whole.empty(); ++i) {
    const Pair& p = whole[rng() % whole.size()];
    sqlite3_bind_int64(sample.get(), 1, p.entity);
    sqlite3_bind_text(sample.get(), 2, p.field.c_str(), -1, SQLITE_STATIC);
    sqlite3_bind_int64(sample.get(), 3, last_tick);
    const double t0 = Now();
    rows.push_back(static_cast<double>(sample.Drain()));
    times.push_back((Now() - t0) * 1e3);
  }
  q.sample_median_ms = times.empty() ? 0 : Median(times);
  q.sample_rows = rows.empty() ? 0 : Median(rows);
  q.ok = true;
  sqlite3_close(db);
  return q;
}

}  // namespace gem::bench
