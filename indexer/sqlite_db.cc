#include "indexer/sqlite_db.h"

#include <algorithm>

namespace gem::index {

Status Db::Error(int rc, std::string_view what) {
  std::string msg = std::string(what) + ": " +
                    (db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
  int primary = rc & 0xFF;
  if (primary == SQLITE_FULL || primary == SQLITE_IOERR) return Status::IoError(msg);
  if (primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY ||
      primary == SQLITE_PERM) {
    return Status::CannotCreate(msg);
  }
  return Status::IoError(msg);
}

Db::~Db() {
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Status Db::Open(const std::string& path) {
  // One thread at a time uses the connection (the indexer hands it to its
  // worker during the parse, under its own lock): no mutexes (they cost
  // ~5% of a load).
  // Memory statistics take a global mutex too; turn them off while SQLite
  // is not initialised yet (later calls fail harmlessly).
  static const bool configured = [] {
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return true;
  }();
  (void)configured;
  int rc = sqlite3_open_v2(path.c_str(), &db_,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) return Error(rc, "cannot open " + path);
  sqlite3_extended_result_codes(db_, 1);
  return Status::Ok();
}

Status Db::Exec(std::string_view sql) {
  char* err = nullptr;
  int rc = sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string what = std::string("SQL failed (") + (err ? err : "?") + ")";
    sqlite3_free(err);
    return Error(rc, what);
  }
  return Status::Ok();
}

Status Db::Close() {
  if (db_ == nullptr) return Status::Ok();
  int rc = sqlite3_close(db_);
  if (rc != SQLITE_OK) {
    Status s = Error(rc, "cannot close the database");
    sqlite3_close_v2(db_);
    db_ = nullptr;
    return s;
  }
  db_ = nullptr;
  return Status::Ok();
}

Stmt::~Stmt() { Finalize(); }

void Stmt::Finalize() {
  if (stmt_ != nullptr) sqlite3_finalize(stmt_);
  stmt_ = nullptr;
}

Status Stmt::Prepare(Db* db, std::string_view sql) {
  db_ = db;
  int rc = sqlite3_prepare_v3(db->handle(), sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) return db->Error(rc, "cannot prepare statement");
  return Status::Ok();
}

Stmt& Stmt::Int(int i, int64_t v) {
  int rc = sqlite3_bind_int64(stmt_, i, v);
  if (rc != SQLITE_OK) bind_error_ = rc;
  return *this;
}
Stmt& Stmt::Real(int i, double v) {
  int rc = sqlite3_bind_double(stmt_, i, v);
  if (rc != SQLITE_OK) bind_error_ = rc;
  return *this;
}
Stmt& Stmt::Text(int i, std::string_view v) {
  int rc = sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
  if (rc != SQLITE_OK) bind_error_ = rc;
  return *this;
}
Stmt& Stmt::Blob(int i, std::string_view v) {
  int rc = sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
  if (rc != SQLITE_OK) bind_error_ = rc;
  return *this;
}
Stmt& Stmt::Null(int i) {
  int rc = sqlite3_bind_null(stmt_, i);
  if (rc != SQLITE_OK) bind_error_ = rc;
  return *this;
}

Status Stmt::Run() {
  if (bind_error_ != SQLITE_OK) {
    int rc = bind_error_;
    bind_error_ = SQLITE_OK;
    sqlite3_reset(stmt_);
    return db_->Error(rc, "cannot bind a value");
  }
  int rc = sqlite3_step(stmt_);
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return db_->Error(rc, "cannot write a row");
  return Status::Ok();
}

Status Stmt::ForEachRow(const std::function<void(sqlite3_stmt*)>& row) {
  int rc;
  while ((rc = sqlite3_step(stmt_)) == SQLITE_ROW) row(stmt_);
  sqlite3_reset(stmt_);
  if (rc != SQLITE_DONE) return db_->Error(rc, "cannot read rows");
  return Status::Ok();
}

Status Insert::Prepare(Db* db, std::string_view target, int columns, std::string_view verb) {
  columns_ = columns;
  // Within SQLite's limit on parameters of a statement.
  const int max_params = sqlite3_limit(db->handle(), SQLITE_LIMIT_VARIABLE_NUMBER, -1);
  rows_per_many_ = std::max(1, std::min(kRowsPerMany, max_params / std::max(1, columns)));
  std::string row = "(";
  for (int c = 0; c < columns; ++c) row += c ? ",?" : "?";
  row += ")";
  const std::string head =
      std::string(verb) + " INTO " + std::string(target) + " VALUES";
  GEM_RETURN_IF_ERROR(one_.Prepare(db, head + row));
  std::string sql = head;
  for (int k = 0; k < rows_per_many_; ++k) sql += (k ? "," : "") + row;
  return many_.Prepare(db, sql);
}

}  // namespace gem::index
