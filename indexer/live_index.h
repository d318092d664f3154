// LiveIndex: what a live run (gem-index --follow, a broadcast) does to the
// index it writes, which is the index itself: one file, one writer, the
// same rows a plain run writes, committed as the match goes. A plain run
// is a live run that commits once, at the end.
//
// The file is made, schema and all, under another name and renamed onto
// the output: a reader that opened a WAL database while it was still
// empty would take it for empty for good. It is in WAL mode, so that
// readers (the sqlite3 shell, libgem, gem-view) read one commit while the
// next is written. A commit is one transaction at a tick boundary: every
// row filed under ticks up to T and none after, with meta's `live` = 1
// and `live_tick` = `last_tick` = T. Besides the rows of the parse, a
// commit writes the open interval's tail (live_tail.h), entities and
// classes new or changed since the last, meta, and rewrites whole the
// tables known only at the end (match_info, players, the game's end
// tables: TableSpec::kAtEnd) as they stand. Once the game clock's start
// is known, rows filed without a clock get theirs as the end gives it
// (match_tables.h): a snapshot holds what an index of the replay cut at T
// would.
//
// At the end the writer writes the last rows as a plain run does, in the
// same file; then the pages the tail and the rewritten tables freed are
// given back (the file is made with auto_vacuum = INCREMENTAL), the WAL
// is checkpointed and the file returns to rollback-journal mode when no
// reader holds it (with readers it stays in WAL mode, which readers do
// not notice).
//
// Thread: Create on the caller's; the rest on the pipeline's worker, but
// Finish and Close after it has drained.
#ifndef GEM_INDEXER_LIVE_INDEX_H_
#define GEM_INDEXER_LIVE_INDEX_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/util/status.h"
#include "indexer/live_tail.h"
#include "indexer/row_buffer.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

// Where the game clock reads 0, and ticks a second (MatchSummary's).
struct LiveClock {
  int64_t start_tick;
  double tick_rate;
};

class LiveIndex {
 public:
  // The statements of the rows a commit carries (RowBuffer stmt numbers);
  // then, from kLiveStmts on, the rewritten tables' inserts in order.
  enum LiveStmt : uint8_t { kEntityRow, kClassRow, kMetaRow, kMatchInfoRow, kPlayerRow, kLiveStmts };
  // A game table rewritten whole at each commit: its name, insert target
  // and column count.
  struct Rewritten {
    std::string name;
    std::string target;
    int columns;
  };

  // Makes the index at `path` (which must not exist: the caller checked)
  // with its schema (`create_schema`), readable at once, and opens `db`
  // on it, in WAL mode, in a transaction.
  static Status Create(const std::string& path, const std::function<Status(Db*)>& create_schema,
                       Db* db);

  // Prepares the commits' statements on `db` (Create's): the clock's fill
  // of `clock_tables` (ClockTables) and the tables rewritten at each
  // commit.
  Status Open(const std::string& path, Db* db, std::span<const std::string> clock_tables,
              std::span<const Rewritten> rewritten);

  // The open interval's tail: kept on the packing thread, its rows
  // recorded there; the table emptied on the writing one (ClearTail).
  LiveTail& tail() { return tail_; }
  Status ClearTail() { return clear_tail_.Run(); }

  // The end rows of a rewritten table are coming: its last commit's rows
  // go first.
  Status ClearRewritten(const std::string& table);
  // Writes `rows` (LiveStmt rows: entities, classes, meta, the rewritten
  // tables' rows, which replace theirs), gives the rows since the last
  // commit their clock (all rows, the first time `clock` is known) and
  // commits: the snapshot of tick `tick` (its tail's rows written before).
  Status Commit(const RowBuffer& rows, int64_t tick, std::optional<LiveClock> clock);

  // Before the end's rows: match_info and players, rewritten at each
  // commit, are emptied for the end's.
  Status BeginEnd();
  // After the end's commit: gives the freed pages back, checkpoints and
  // leaves WAL mode where it can, and closes `db`.
  Status Finish();
  // A failed run: what came after the last commit is dropped, and the
  // last commit stays readable with meta's live_error = `why`; an index
  // with no tick committed is removed (it holds nothing to read).
  void Close(const std::string& why);

  uint64_t commits() const { return commits_; }
  int64_t last_commit_tick() const { return last_commit_tick_; }
  double commit_time_seconds() const { return commit_time_seconds_; }  // spent in Commit
  uint64_t tail_rows_written() const { return tail_.rows_written(); }

 private:
  // A clock table's fill: of the rows past `after` (its last rowid, or the
  // last commit's tick for a table without rowid, whose rows come in tick
  // order: the timeline) at the last fill.
  struct ClockFill {
    std::string table;
    bool by_rowid;
    bool whole = false;  // a rewritten table: all its rows, every time
    Stmt fill, last;     // last: the rowid to start after next time
    int64_t after = INT64_MIN;
  };
  Status FillClock(const LiveClock& clock, int64_t tick);
  void FinalizeAll();

  Db* db_ = nullptr;
  std::string path_;
  std::vector<Insert> inserts_;  // by LiveStmt, then rewritten table
  std::vector<Stmt> clear_rewritten_;
  Stmt clear_tail_;
  std::vector<std::string> rewritten_names_;
  std::vector<ClockFill> clock_fills_;
  LiveTail tail_;
  uint64_t commits_ = 0;
  int64_t last_commit_tick_ = INT64_MIN;
  double commit_time_seconds_ = 0;
  bool open_ = false;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_LIVE_INDEX_H_
