// LiveIndex: the output of a live run (gem-index --follow, a broadcast),
// readable while the match is played.
//
// A live run writes two databases. The index proper is written as a plain
// run writes it, into the temporary file (output_file.h), and finished the
// same way at the end. Beside it, the output path itself holds the live
// index, in WAL mode, so that readers (the sqlite3 shell, libgem, gem-view)
// read it while it grows: the same schema, every row of the parse's tables
// as the plain index gets it, the changes table as LiveChanges keeps it,
// and entities, classes and meta rewritten at each commit.
//
// A commit is one transaction, at a tick boundary: every row filed under
// ticks up to T and none after, with meta's `live` = 1 and `live_tick` =
// `last_tick` = T. Readers in WAL mode see one commit or the next, never a
// part of one. Once the game clock's start is known, rows filed without a
// clock (before the game said where it starts) get theirs as the end
// gives it (match_tables.h, WriteMatchSummary): a snapshot holds what an
// index of the replay cut at T would.
//
// At the end the finished plain index is copied into the live one in a
// single transaction (SQLite's backup API): readers still on a commit keep
// it, the next read sees the finished index, page for page the plain run's
// (meta's `live` rows apart: `live` = 0). Then the WAL is checkpointed and
// the file returns to rollback-journal mode when no reader holds it; with
// readers it stays in WAL mode, which readers do not notice.
//
// Thread: Open on the caller's; the rest on the pipeline's worker
// (change_pipeline.h), Finish after it has drained.
#ifndef GEM_INDEXER_LIVE_INDEX_H_
#define GEM_INDEXER_LIVE_INDEX_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "indexer/live_changes.h"
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
  // match_info and players are rewritten at each commit too (the match
  // layer's summary so far).
  enum LiveStmt : uint8_t { kEntityRow, kClassRow, kMetaRow, kMatchInfoRow, kPlayerRow, kLiveStmts };
  // A table rewritten whole at each commit (the game's end-written ones,
  // as they stand: GameModule::WriteSoFar): its name, insert target and
  // column count.
  struct Rewritten {
    std::string name;
    std::string target;
    int columns;
  };

  LiveIndex(uint32_t max_per_chunk, size_t max_chunk_bytes, const QuantizerRegistry* quantizers)
      : changes_(max_per_chunk, max_chunk_bytes, quantizers) {}

  // Creates the live index at `path` (which must not exist: the caller
  // checked), its schema by `create_schema`, and the inserts of the
  // parse's rows (`targets[i]`: the target and columns of the plain
  // index's insert i), and the clock's fill of `clock_tables`
  // (ClockTables), and the tables rewritten at each commit. Starts the
  // first transaction.
  Status Open(const std::string& path, const std::function<Status(Db*)>& create_schema,
              std::span<const std::pair<std::string, int>> targets,
              std::span<const std::string> clock_tables, std::span<const Rewritten> rewritten);

  // The parse's data, as the plain index gets it (worker).
  void Add(uint64_t entity, std::span<const HeldChange> changes, std::string_view arena) {
    changes_.Add(entity, changes, arena);
  }
  void CloseEntity(uint64_t entity) { changes_.CloseEntity(entity); }
  Status RunRows(const RowBuffer& rows) { return rows.RunAll(inserts_); }
  // Writes the changed chunks and `rows` (LiveStmt rows: entities,
  // classes, meta, the rewritten tables' rows, which replace theirs), gives the rows since the last commit their clock
  // (all rows, the first time `clock` is known) and commits: the snapshot
  // of tick `tick`.
  Status Commit(const RowBuffer& rows, int64_t tick, std::optional<LiveClock> clock);

  // Copies the finished index at `final_path` into the live one, in one
  // transaction, and closes. After the worker has stopped.
  Status Finish(const std::string& final_path);
  // A failed run: what came after the last commit is dropped, and the
  // last commit stays readable with meta's live_error = `why`; an index
  // with no tick committed is removed (it holds nothing to read).
  void Close(const std::string& why);

  uint64_t commits() const { return commits_; }
  int64_t last_commit_tick() const { return last_commit_tick_; }
  double commit_time_seconds() const { return commit_time_seconds_; }  // spent in Commit
  uint64_t chunk_rows_written() const { return changes_.rows_written(); }

 private:
  Db db_;
  std::string path_;
  std::vector<Insert> inserts_;
  std::vector<Insert> live_inserts_;  // by LiveStmt, then rewritten table
  std::vector<Stmt> clear_rewritten_;
  Insert chunk_replace_;
  // A clock table's fill: of the rows past `after` (its last rowid, or the
  // last commit's tick for a table without rowid, whose rows come in tick
  // order: the timeline) at the last fill.
  struct ClockFill {
    std::string table;
    bool by_rowid;
    bool whole = false;  // a rewritten table: all its rows, every time
    Stmt fill, last;  // last: the rowid to start after next time
    int64_t after = INT64_MIN;
  };
  Status FillClock(const LiveClock& clock, int64_t tick);
  std::vector<ClockFill> clock_fills_;
  LiveChanges changes_;
  uint64_t commits_ = 0;
  int64_t last_commit_tick_ = INT64_MIN;
  double commit_time_seconds_ = 0;
  bool open_ = false;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_LIVE_INDEX_H_
