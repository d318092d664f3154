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
// part of one.
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
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "indexer/live_changes.h"
#include "indexer/row_buffer.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

class LiveIndex {
 public:
  // The statements of the rows a commit carries (RowBuffer stmt numbers).
  enum LiveStmt : uint8_t { kEntityRow, kClassRow, kMetaRow, kLiveStmts };

  LiveIndex(uint32_t max_per_chunk, size_t max_chunk_bytes, const QuantizerRegistry* quantizers)
      : changes_(max_per_chunk, max_chunk_bytes, quantizers) {}

  // Creates the live index at `path` (which must not exist: the caller
  // checked), its schema by `create_schema`, and the inserts of the
  // parse's rows (`targets[i]`: the target and columns of the plain
  // index's insert i). Starts the first transaction.
  Status Open(const std::string& path, const std::function<Status(Db*)>& create_schema,
              std::span<const std::pair<std::string, int>> targets);

  // The parse's data, as the plain index gets it (worker).
  void Add(uint64_t entity, std::span<const HeldChange> changes, std::string_view arena) {
    changes_.Add(entity, changes, arena);
  }
  void CloseEntity(uint64_t entity) { changes_.CloseEntity(entity); }
  Status RunRows(const RowBuffer& rows) { return rows.RunAll(inserts_); }
  // Writes the changed chunks and `rows` (LiveStmt rows: entities,
  // classes, meta) and commits: the snapshot of tick `tick`.
  Status Commit(const RowBuffer& rows, int64_t tick);

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
  Insert live_inserts_[kLiveStmts];
  Insert chunk_replace_;
  LiveChanges changes_;
  uint64_t commits_ = 0;
  int64_t last_commit_tick_ = INT64_MIN;
  double commit_time_seconds_ = 0;
  bool open_ = false;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_LIVE_INDEX_H_
