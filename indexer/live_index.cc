#include "indexer/live_index.h"

#include <sqlite3.h>

#include <stdio.h>
#include <unistd.h>

#include <chrono>
#include <string_view>

#include "indexer/index_schema.h"
#include "indexer/match_tables.h"

namespace gem::index {

Status LiveIndex::Create(const std::string& path, const std::function<Status(Db*)>& create_schema,
                         Db* db) {
  // Made whole under another name, then renamed onto `path`: a WAL
  // database's first commits live in its -wal file, and a reader that
  // opened the file while it was still empty would take it for an empty
  // database for good. The file a reader finds is in WAL mode, its schema
  // in the file itself.
  const std::string made = path + ".gem-live-new";
  auto remove_made = [&made] {
    for (const char* suffix : {"", "-wal", "-shm"}) (void)unlink((made + suffix).c_str());
  };
  remove_made();
  {
    Db fresh;
    GEM_RETURN_IF_ERROR(fresh.Open(made));
    // auto_vacuum before any table: the pages the tail and the rewritten
    // tables free are given back at the end (Finish). WAL: readers read a
    // commit while the next is written.
    Status s = fresh.Exec(
        "PRAGMA auto_vacuum=INCREMENTAL; PRAGMA page_size=4096; PRAGMA journal_mode=WAL;");
    // A gem index from its first commit on: readers (libgem) check these.
    if (s.ok()) {
      s = fresh.Exec("PRAGMA application_id=" + std::to_string(kApplicationId) +
                     "; PRAGMA user_version=" + std::to_string(kSchemaVersion) + "; BEGIN;");
    }
    if (s.ok()) s = create_schema(&fresh);
    // Of no tick yet: live_tick NULL (readers asking of any tick are told
    // so).
    if (s.ok()) {
      s = fresh.Exec(
          "INSERT INTO meta(key, value) VALUES('live', 1), ('live_tick', NULL), "
          "('last_tick', NULL); COMMIT; PRAGMA wal_checkpoint(TRUNCATE);");
    }
    if (s.ok()) s = fresh.Close();
    if (!s.ok() || rename(made.c_str(), path.c_str()) != 0) {
      remove_made();
      if (s.ok()) s = Status::CannotCreate("cannot rename " + made + " to " + path);
      return s;
    }
  }
  GEM_RETURN_IF_ERROR(db->Open(path));
  // synchronous NORMAL: a commit survives the process being killed (the
  // WAL is written before COMMIT returns); only a crash of the machine may
  // lose the last ones, and never the file's integrity.
  return db->Exec(
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-8192;"
      // Checkpoints every 16,000 pages (64 MiB of WAL), not 1,000: a page
      // the commits rewrite (a table's last) is copied to the file once a
      // checkpoint; the 10-minute replay at 1 s commits took 10% less CPU.
      "PRAGMA wal_autocheckpoint=16000;"
      "PRAGMA temp_store=MEMORY; BEGIN;");
}

Status LiveIndex::Open(const std::string& path, Db* db,
                       std::span<const std::string> clock_tables,
                       std::span<const Rewritten> rewritten) {
  db_ = db;
  path_ = path;
  open_ = true;
  inserts_.resize(kLiveStmts + rewritten.size());
  GEM_RETURN_IF_ERROR(inserts_[kMatchInfoRow].Prepare(db_, kMatchInfoInsertTarget, kMatchInfoColumns));
  GEM_RETURN_IF_ERROR(inserts_[kPlayerRow].Prepare(db_, kPlayersInsertTarget, kPlayersColumns));
  for (const char* table : {"match_info", "players"}) {
    GEM_RETURN_IF_ERROR(
        clear_rewritten_.emplace_back().Prepare(db_, std::string("DELETE FROM ") + table));
    rewritten_names_.emplace_back(table);
  }
  for (size_t i = 0; i < rewritten.size(); ++i) {
    GEM_RETURN_IF_ERROR(
        inserts_[kLiveStmts + i].Prepare(db_, rewritten[i].target, rewritten[i].columns));
    GEM_RETURN_IF_ERROR(
        clear_rewritten_.emplace_back().Prepare(db_, "DELETE FROM \"" + rewritten[i].name + "\""));
    rewritten_names_.push_back(rewritten[i].name);
  }
  GEM_RETURN_IF_ERROR(inserts_[kEntityRow].Prepare(
      db_, "entities(entity, ent_index, serial, handle, class_id, created_tick, deleted_tick)", 7,
      "INSERT OR REPLACE"));
  GEM_RETURN_IF_ERROR(
      inserts_[kClassRow].Prepare(db_, "classes(class_id, name)", 2, "INSERT OR REPLACE"));
  GEM_RETURN_IF_ERROR(inserts_[kMetaRow].Prepare(db_, "meta(key, value)", 2, "INSERT OR REPLACE"));
  clock_fills_.reserve(clock_tables.size());
  for (const std::string& table : clock_tables) {
    bool exists = false, rowid = true;
    Stmt kind;
    GEM_RETURN_IF_ERROR(kind.Prepare(db_, "SELECT sql FROM sqlite_schema WHERE type = 'table' "
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
        f.fill.Prepare(db_, FillClockSql(table, rowid ? "AND rowid > ?3" : "AND tick > ?3")));
    if (rowid) {
      GEM_RETURN_IF_ERROR(f.last.Prepare(db_, "SELECT max(rowid) FROM \"" + table + "\""));
    }
  }
  return clear_tail_.Prepare(db_, "DELETE FROM tail");
}

Status LiveIndex::ClearRewritten(const std::string& table) {
  for (size_t i = 0; i < rewritten_names_.size(); ++i) {
    if (rewritten_names_[i] == table) return clear_rewritten_[i].Run();
  }
  return Status::Ok();
}

Status LiveIndex::Commit(const RowBuffer& rows, int64_t tick, std::optional<LiveClock> clock) {
  const auto start = std::chrono::steady_clock::now();
  for (Stmt& clear : clear_rewritten_) GEM_RETURN_IF_ERROR(clear.Run());
  if (!rows.empty()) GEM_RETURN_IF_ERROR(rows.RunAll(inserts_));
  if (clock && clock->tick_rate > 0) GEM_RETURN_IF_ERROR(FillClock(*clock, tick));
  GEM_RETURN_IF_ERROR(db_->Exec("COMMIT; BEGIN;"));
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

Status LiveIndex::BeginEnd() {
  GEM_RETURN_IF_ERROR(clear_rewritten_[0].Run());  // match_info
  return clear_rewritten_[1].Run();                // players
}

void LiveIndex::FinalizeAll() {
  for (Insert& i : inserts_) i.Finalize();
  for (Stmt& clear : clear_rewritten_) clear.Finalize();
  for (ClockFill& f : clock_fills_) {
    f.fill.Finalize();
    f.last.Finalize();
  }
  clear_tail_.Finalize();
}

Status LiveIndex::Finish() {
  FinalizeAll();
  open_ = false;
  // The pages the tail and the rewritten tables freed go back to the
  // system, so that the finished file is the size of a plain run's.
  GEM_RETURN_IF_ERROR(db_->Exec("PRAGMA incremental_vacuum;"));
  // Best effort: with no reader left, the pages go from the WAL into the
  // file and the file leaves WAL mode (as a plain index is); a reader
  // holding a snapshot keeps both for now, and the file stays in WAL mode.
  sqlite3_wal_checkpoint_v2(db_->handle(), "main", SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  (void)db_->Exec("PRAGMA journal_mode=DELETE;");
  return db_->Close();
}

void LiveIndex::Close(const std::string& why) {
  if (!open_) return;
  open_ = false;
  FinalizeAll();
  (void)db_->Exec("ROLLBACK;");
  if (commits_ == 0) {
    (void)db_->Close();
    for (const char* suffix : {"", "-wal", "-shm"}) (void)unlink((path_ + suffix).c_str());
    return;
  }
  Stmt error;
  if (error.Prepare(db_, "INSERT OR REPLACE INTO meta(key, value) VALUES('live_error', ?)")
          .ok()) {
    (void)error.Text(1, why).Run();
  }
  error.Finalize();
  (void)db_->Close();
}

}  // namespace gem::index
