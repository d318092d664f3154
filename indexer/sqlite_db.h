// A thin RAII layer over the SQLite C API for the indexer: a connection,
// prepared statements with chained binds, and errors as Status (disk full
// and I/O errors become kIoError).
#ifndef GEM_INDEXER_SQLITE_DB_H_
#define GEM_INDEXER_SQLITE_DB_H_

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace gem::index {

class Db;

class Stmt {
 public:
  Stmt() = default;
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Stmt(Stmt&& o) noexcept : db_(o.db_), stmt_(o.stmt_) { o.stmt_ = nullptr; }

  Status Prepare(Db* db, std::string_view sql);

  // Binds by 1-based position; chainable. Errors surface at Run(). Text
  // and blobs are not copied: they must stay valid until Run() returns.
  Stmt& Int(int i, int64_t v);
  Stmt& Real(int i, double v);
  Stmt& Text(int i, std::string_view v);
  Stmt& Blob(int i, std::string_view v);
  Stmt& Null(int i);

  // Steps to completion (an insert or update) and resets for reuse.
  Status Run();
  // Steps through a query's rows, calling `row` with the statement
  // positioned on each; resets for reuse.
  Status ForEachRow(const std::function<void(sqlite3_stmt*)>& row);
  // Releases the statement (the connection cannot close before).
  void Finalize();

 private:
  Db* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  int bind_error_ = SQLITE_OK;
};

// An INSERT of `columns` values into `target` ("table(col, col, ...)"),
// prepared twice: for one row, and for rows_per_many() rows in one
// statement. SQLite's fixed cost of running a statement (step, reset,
// clearing bindings, halting) is about that of inserting a row: a bulk
// load that sends its rows many at a time pays it once per many rows.
class Insert {
 public:
  static constexpr int kRowsPerMany = 32;

  // `verb`: "INSERT", or "INSERT OR REPLACE" (a live index's rewritten
  // rows).
  Status Prepare(Db* db, std::string_view target, int columns,
                 std::string_view verb = "INSERT");
  Stmt& one() { return one_; }
  // Row k's column c (both from 0) is parameter k * columns() + c + 1.
  Stmt& many() { return many_; }
  int columns() const { return columns_; }
  int rows_per_many() const { return rows_per_many_; }
  void Finalize() {
    one_.Finalize();
    many_.Finalize();
  }

 private:
  Stmt one_, many_;
  int columns_ = 0;
  int rows_per_many_ = 1;
};

class Db {
 public:
  Db() = default;
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Creates or opens the database file at `path`.
  Status Open(const std::string& path);
  Status Exec(std::string_view sql);
  // Closes; reports a failure to flush.
  Status Close();

  sqlite3* handle() { return db_; }
  // The connection's last error as a Status with `what` as context.
  Status Error(int rc, std::string_view what);

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_SQLITE_DB_H_
