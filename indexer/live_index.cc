#include "indexer/live_index.h"

#include <sqlite3.h>

#include <stdio.h>
#include <unistd.h>

#include <chrono>
#include <string_view>

#include "indexer/index_schema.h"
#include "indexer/match_tables.h"

namespace gem::index {

Status LiveIndex::Open(const std::string& path, const std::function<Status(Db*)>& create_schema,
                       std::span<const std::pair<std::string, int>> targets,
                       std::span<const std::string> clock_tables,
                       std::span<const Rewritten> rewritten) {
  path_ = path;
  // Made whole under another name, then renamed onto `path`: a WAL
  // database's first commits live in its -wal file, and a reader that
  // opened the file while it was still empty would take it for an empty
  // database for good. The file a reader finds is in WAL mode, its schema
  // in the file itself.
  const std::string made = path + ".gem-live-new";
  (void)unlink(made.c_str());
  (void)unlink((made + "-wal").c_str());
  (void)unlink((made + "-shm").c_str());
  {
    Db db;
    GEM_RETURN_IF_ERROR(db.Open(made));
    // WAL: readers read a commit while the next is written. The page size
    // is the plain index's, which the backup at the end needs (a WAL
    // database's cannot change).
    Status s = db.Exec("PRAGMA page_size=4096; PRAGMA journal_mode=WAL;");
    // A gem index from its first commit on: readers (libgem) check these.
    if (s.ok()) {
      s = db.Exec("PRAGMA application_id=" + std::to_string(kApplicationId) +
                  "; PRAGMA user_version=" + std::to_string(kSchemaVersion) + "; BEGIN;");
    }
    if (s.ok()) s = create_schema(&db);
    // Of no tick yet: live_tick NULL (readers asking of any tick are told
    // so).
    if (s.ok()) {
      s = db.Exec(
          "INSERT INTO meta(key, value) VALUES('live', 1), ('live_tick', NULL), "
          "('last_tick', NULL); COMMIT; PRAGMA wal_checkpoint(TRUNCATE);");
    }
    if (s.ok()) s = db.Close();
    if (!s.ok() || rename(made.c_str(), path.c_str()) != 0) {
      (void)unlink(made.c_str());
      (void)unlink((made + "-wal").c_str());
      (void)unlink((made + "-shm").c_str());
      if (s.ok()) s = Status::CannotCreate("cannot rename " + made + " to " + path);
      return s;
    }
  }
  GEM_RETURN_IF_ERROR(db_.Open(path));
  open_ = true;
  // synchronous NORMAL: a commit survives the process being killed (the
  // WAL is written before COMMIT returns); only a crash of the machine may
  // lose the last ones, and never the file's integrity.
  GEM_RETURN_IF_ERROR(db_.Exec(
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-8192;"
      "PRAGMA temp_store=MEMORY; BEGIN;"));
  inserts_.resize(targets.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    if (targets[i].first.empty()) continue;
    // A rewritten table's rows of the parse come at the end, after the
    // last commit and over its rows (and are rolled back then).
    bool over = false;
    for (const Rewritten& r : rewritten) over |= r.target == targets[i].first;
    GEM_RETURN_IF_ERROR(inserts_[i].Prepare(&db_, targets[i].first, targets[i].second,
                                            over ? "INSERT OR REPLACE" : "INSERT"));
  }
  live_inserts_.resize(kLiveStmts + rewritten.size());
  clear_rewritten_.reserve(rewritten.size() + 2);
  GEM_RETURN_IF_ERROR(
      live_inserts_[kMatchInfoRow].Prepare(&db_, kMatchInfoInsertTarget, kMatchInfoColumns));
  GEM_RETURN_IF_ERROR(
      live_inserts_[kPlayerRow].Prepare(&db_, kPlayersInsertTarget, kPlayersColumns));
  for (const char* table : {"match_info", "players"}) {
    GEM_RETURN_IF_ERROR(
        clear_rewritten_.emplace_back().Prepare(&db_, std::string("DELETE FROM ") + table));
  }
  for (size_t i = 0; i < rewritten.size(); ++i) {
    GEM_RETURN_IF_ERROR(live_inserts_[kLiveStmts + i].Prepare(&db_, rewritten[i].target,
                                                              rewritten[i].columns));
    GEM_RETURN_IF_ERROR(
        clear_rewritten_.emplace_back().Prepare(&db_, "DELETE FROM \"" + rewritten[i].name + "\""));
  }
  GEM_RETURN_IF_ERROR(live_inserts_[kEntityRow].Prepare(
      &db_,
      "entities(entity, ent_index, serial, handle, class_id, created_tick, deleted_tick)", 7,
      "INSERT OR REPLACE"));
  GEM_RETURN_IF_ERROR(
      live_inserts_[kClassRow].Prepare(&db_, "classes(class_id, name)", 2, "INSERT OR REPLACE"));
  GEM_RETURN_IF_ERROR(
      live_inserts_[kMetaRow].Prepare(&db_, "meta(key, value)", 2, "INSERT OR REPLACE"));
  clock_fills_.reserve(clock_tables.size());
  for (const std::string& table : clock_tables) {
    bool exists = false, rowid = true;
    Stmt kind;
    GEM_RETURN_IF_ERROR(kind.Prepare(&db_, "SELECT sql FROM sqlite_schema WHERE type = 'table' "
                                           "AND name = ?"));
    GEM_RETURN_IF_ERROR(kind.Text(1, table).ForEachRow([&](sqlite3_stmt* row) {
      exists = true;
      const unsigned char* sql = sqlite3_column_text(row, 0);
      rowid = sql == nullptr ||
              std::string_view(reinterpret_cast<const char*>(sql)).find("WITHOUT ROWID") ==
                  std::string_view::npos;
    }));
    if (!exists) continue;
    ClockFill& f = clock_fills_.emplace_back();
    f.table = table;
    f.by_rowid = rowid;
    for (const Rewritten& r : rewritten) f.whole |= r.name == table;
    GEM_RETURN_IF_ERROR(
        f.fill.Prepare(&db_, FillClockSql(table, rowid ? "AND rowid > ?3" : "AND tick > ?3")));
    if (rowid) {
      GEM_RETURN_IF_ERROR(f.last.Prepare(&db_, "SELECT max(rowid) FROM \"" + table + "\""));
    }
  }
  return chunk_replace_.Prepare(
      &db_, "changes(entity, field_id, start_tick, seq, end_tick, count, data)", 7,
      "INSERT OR REPLACE");
}

Status LiveIndex::Commit(const RowBuffer& rows, int64_t tick, std::optional<LiveClock> clock) {
  const auto start = std::chrono::steady_clock::now();
  GEM_RETURN_IF_ERROR(changes_.Write(&chunk_replace_));
  for (Stmt& clear : clear_rewritten_) GEM_RETURN_IF_ERROR(clear.Run());
  if (!rows.empty()) GEM_RETURN_IF_ERROR(rows.RunAll(live_inserts_));
  if (clock && clock->tick_rate > 0) GEM_RETURN_IF_ERROR(FillClock(*clock, tick));
  GEM_RETURN_IF_ERROR(db_.Exec("COMMIT; BEGIN;"));
  ++commits_;
  last_commit_tick_ = tick;
  commit_time_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::Ok();
}

Status LiveIndex::FillClock(const LiveClock& clock, int64_t tick) {
  for (ClockFill& f : clock_fills_) {
    GEM_RETURN_IF_ERROR(f.fill.Int(1, clock.start_tick).Real(2, clock.tick_rate).Int(3, f.after).Run());
    if (f.whole) continue;  // its rows are new at each commit
    if (!f.by_rowid) {
      f.after = tick;
      continue;
    }
    GEM_RETURN_IF_ERROR(f.last.ForEachRow([&](sqlite3_stmt* row) {
      if (sqlite3_column_type(row, 0) != SQLITE_NULL) f.after = sqlite3_column_int64(row, 0);
    }));
  }
  return Status::Ok();
}

Status LiveIndex::Finish(const std::string& final_path) {
  // What came after the last commit is not a snapshot of one tick (the
  // end's rows among it): the finished index replaces it.
  GEM_RETURN_IF_ERROR(db_.Exec("ROLLBACK;"));
  for (Insert& i : inserts_) i.Finalize();
  for (Insert& i : live_inserts_) i.Finalize();
  for (Stmt& clear : clear_rewritten_) clear.Finalize();
  for (ClockFill& f : clock_fills_) {
    f.fill.Finalize();
    f.last.Finalize();
  }
  chunk_replace_.Finalize();
  Db source;
  GEM_RETURN_IF_ERROR(source.Open(final_path));
  sqlite3_backup* backup = sqlite3_backup_init(db_.handle(), "main", source.handle(), "main");
  if (backup == nullptr) return db_.Error(sqlite3_errcode(db_.handle()), "finishing the live index");
  // One step of every page: one write transaction on the live index, so
  // its readers see the live index or the finished one, nothing between.
  // A reader starting a read at that moment makes the step busy for a
  // moment: it is retried.
  int rc;
  for (int tries = 0;; ++tries) {
    rc = sqlite3_backup_step(backup, -1);
    if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || tries >= 2000) break;
    sqlite3_sleep(5);
  }
  const int finish_rc = sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) return db_.Error(rc, "copying the finished index into the live one");
  if (finish_rc != SQLITE_OK) return db_.Error(finish_rc, "copying the finished index into the live one");
  GEM_RETURN_IF_ERROR(source.Close());
  // Best effort: with no reader left, the pages go from the WAL into the
  // file and the file leaves WAL mode (as a plain index is); a reader
  // holding a snapshot keeps both for now, and the file stays in WAL mode.
  sqlite3_wal_checkpoint_v2(db_.handle(), "main", SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  (void)db_.Exec("PRAGMA journal_mode=DELETE;");
  open_ = false;
  return db_.Close();
}

void LiveIndex::Close(const std::string& why) {
  if (!open_) return;
  open_ = false;
  for (Insert& i : inserts_) i.Finalize();
  for (Insert& i : live_inserts_) i.Finalize();
  for (Stmt& clear : clear_rewritten_) clear.Finalize();
  for (ClockFill& f : clock_fills_) {
    f.fill.Finalize();
    f.last.Finalize();
  }
  chunk_replace_.Finalize();
  (void)db_.Exec("ROLLBACK;");
  if (commits_ == 0) {
    (void)db_.Close();
    for (const char* suffix : {"", "-wal", "-shm"}) (void)unlink((path_ + suffix).c_str());
    return;
  }
  Stmt error;
  if (error.Prepare(&db_, "INSERT OR REPLACE INTO meta(key, value) VALUES('live_error', ?)")
          .ok()) {
    (void)error.Text(1, why).Run();
  }
  error.Finalize();
  (void)db_.Close();
}

}  // namespace gem::index
