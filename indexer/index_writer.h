// IndexWriter: the sink that turns a parse into a gem index (see
// index_schema.h for the tables). Open() creates the schema and starts a
// transaction; the parser then reports to it, and its rows, field changes
// (interval_store.h) and keyframes reach SQLite as the parse goes, on the
// pipeline's worker; Finish() writes the last interval, entities,
// classes, the match summary and metadata, builds the indexes and
// commits. A live run (live_index.h) writes the same rows to the same
// file and commits as it goes; a plain run commits once.
//
// Keyframes come from the parser's own state: when the parse passes an
// interval's end B (the first frame of a later tick starts), every live
// entity's state, as the parser holds it then, is the next interval's
// state at B.
//
// A failure to write stops the parse through Sink::Health().
#ifndef GEM_INDEXER_INDEX_WRITER_H_
#define GEM_INDEXER_INDEX_WRITER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/parser/parser.h"
#include "core/events/sink.h"
#include "core/events/table_spec.h"
#include "core/events/tick_order.h"
#include "indexer/change_pipeline.h"
#include "indexer/interval_store.h"
#include "indexer/live_index.h"
#include "indexer/decode_faults_table.h"
#include "indexer/parts_table.h"
#include "indexer/row_blocks.h"
#include "indexer/run_pages.h"
#include "indexer/sqlite_db.h"
#include "indexer/store_rows.h"

namespace gem::index {

struct SourceInfo {
  std::string name;    // the replay's file name ("-": standard input)
  std::string sha256;  // of the file as given; filled before Finish()
  uint64_t bytes = 0;  // of the file as given
  std::string compression = "none";  // CompressionName()
  std::string replay_sha256;  // of the replay inside (sha256 when plain)
  uint64_t replay_bytes = 0;
  // A split recording's files, in order (the fields above are its first
  // part's); empty for one replay.
  std::vector<PartFile> parts;
};

struct WriterStats {
  uint64_t field_changes = 0;     // after creation
  uint64_t created_values = 0;    // values in creation states
  IntervalStats intervals;        // the changes' rows and runs
  RunPageStats pages;             // the changes table's rows
  RowBlockStats blocks;           // the keyframes table's rows
  uint64_t entities = 0;
  uint64_t string_table_rows = 0;
  uint64_t game_table_rows = 0;  // rows of the game's own tables
  int64_t keyframe_interval = 0;  // ticks; 0: one interval
  uint64_t snapshots = 0;         // entity states taken from the parser at intervals' ends
  // Time in SQLite: the worker's row inserts during the parse (they
  // overlap it) and Finish() after the drain.
  double sqlite_seconds = 0;
  // Parts of Finish().
  double finish_drain_seconds = 0;   // waiting for the worker's last batch
  double finish_changes_seconds = 0;  // the last interval's rows
  double pipeline_wait_seconds = 0;  // parser thread waiting for the packing worker
  double finish_indexes_seconds = 0;
  double finish_commit_seconds = 0;
  double finish_analyze_seconds = 0;
  // CPU seconds of the pipeline's packing thread (runs and rows) and its
  // writing one (SQLite's inserts of them and of the parse's rows).
  double pack_cpu_seconds = 0;
  double write_cpu_seconds = 0;
  // A live run's commits, the last one's tick, the worker's seconds in
  // them, and tail rows written.
  uint64_t live_commits = 0;
  int64_t live_last_tick = 0;
  double live_commit_time_seconds = 0;
  uint64_t live_tail_rows = 0;
};

// A live run's output: the index at `path`, committed every
// `commit_seconds` of game time.
struct LiveOptions {
  std::string path;
  double commit_seconds = 1;
};

class IndexWriter : public Sink {
 public:
  // `progress` may be null.
  IndexWriter(Db* db, class Progress* progress);
  // Without Finish() (a failed parse), the worker is stopped first and
  // what it had queued is dropped: it may hold pointers into members
  // destroyed before the pipeline.
  ~IndexWriter() override { pipeline_.Abandon(); }

  // `timeline`: the timeline's columns, as match::TimelineColumnsFor
  // gives them for the replay's game; `game`: the tables the game's module
  // writes (match::SchemaFor), whose rows come as OnTableRow. A plain run
  // writes into `db` as it was opened (empty); a live run (`live` not
  // null) makes the index at live->path and opens `db` on it.
  Status Open(std::span<const MatchColumn> timeline, const GameSchema& game,
              const LiveOptions* live = nullptr);
  // The parser that reports to this writer: intervals' states are taken
  // from its entities, a live commit's facts from its metadata. Before the
  // parse.
  void SetParser(Parser* parser) { parser_ = parser; }
  // Writes the held-back rows and the metadata, creates the indexes and
  // commits. `parser` gives the schema (classes, fields). `bulk_written`
  // (may be empty) is called once the changes table, the bulk of the
  // file, has gone to SQLite, while the smaller tables follow.
  Status Finish(const Parser& parser, const SourceInfo& source,
                const std::function<void()>& bulk_written = {});

  const WriterStats& stats() const { return stats_; }

  // A failed live run: the live index keeps its last commit, meta's
  // live_error saying `why`; with no commit of a tick yet, it is removed.
  // Idempotent; nothing for a plain run.
  void AbandonLive(const Status& why);
  bool live() const { return live_ != nullptr; }

  // Keyframes every `seconds` of game time (0: one interval for the whole
  // replay), and how many of a field's changes in an interval its row
  // keeps (interval_store.h). Before Open.
  void SetKeyframes(double seconds, uint32_t max_logged) {
    keyframe_seconds_ = seconds;
    interval_settings_.keyframes = seconds > 0;
    interval_settings_.max_logged = max_logged;
  }
  // The rest of the changes' settings (runs' sizes, the held budget: for
  // tests and measurement). Before Open.
  IntervalSettings* mutable_interval_settings() { return &interval_settings_; }

  // Sink.
  void OnEntityCreated(const TickInfo& t, const EntityRef& r,
                       std::span<const FieldChange> state) override;
  void OnEntityUpdated(const TickInfo& t, const EntityRef& r,
                       std::span<const FieldChange> changes) override;
  void OnEntityDeleted(const TickInfo& t, const EntityRef& r) override;
  void OnStringTableCreated(const TickInfo& t, const StringTable& table) override;
  void OnStringTableEntry(const TickInfo& t, const StringTable& table, int32_t index) override;
  void OnGameEvent(const TickInfo& t, const GameEvent& e) override;
  void OnChatMessage(const TickInfo& t, const ChatMessage& m) override;
  void OnTableRow(uint32_t table, std::span<const MatchValue> row) override;
  // The end of the parse: the intervals that end at or before its last
  // tick close too (the state at that tick then has its interval's row).
  void OnMetadata(const ReplayMetadata& m) override;
  void OnTimelineRow(std::span<const MatchValue> row) override;
  void OnKill(const KillRow& k) override;
  void OnWard(const WardRow& w) override;
  void OnMatchSummary(const MatchSummary& s) override { summary_ = s; }
  void OnFrameStart(const TickInfo& t) override;
  // A live run commits there (a broadcast between fragments, which end on
  // a tick boundary), so that a fragment's last ticks do not wait for the
  // next one.
  void OnInputWaiting() override;
  void OnFrameEnd(const TickInfo& t) override;
  void OnFieldRegistered(const ClassFields& fields, uint32_t field_id) override;
  // A row the worker failed to insert (disk full) stops the parse.
  Status Health() const override { return error_.ok() ? pipeline_.error() : error_; }

 private:
  struct EntityRow {
    int32_t index;
    uint32_t serial;
    uint32_t handle;
    int32_t class_id;
    int64_t created_tick;
    int64_t deleted_tick;  // kNoTick while alive
  };
  static constexpr int64_t kNoTick = INT64_MIN;

  // The index tick of an event (see index_schema.h).
  int64_t IndexTick(const TickInfo& t);
  Status WriteMeta(const Parser& parser, const SourceInfo& source);
  // The meta rows, each given to `put` (a text, integer or real value).
  // `live`: a live commit's, of tick `live_tick` (the facts known while
  // the match goes on; see LiveCommit).
  struct MetaOut {
    std::function<Status(const char*, std::string_view)> text;
    std::function<Status(const char*, int64_t)> num;
    std::function<Status(const char*, double)> real;
  };
  Status EmitMeta(const Parser& parser, const ReplayMetadata& m, const SourceInfo* source,
                  bool live, int64_t live_tick, const MetaOut& out);
  // Creates the index's tables and the parse's indexes in `db`.
  Status CreateSchema(Db* db, std::span<const MatchColumn> timeline);
  // A commit of the live index as the snapshot of `tick` (every row filed
  // under it or before is recorded).
  void LiveCommit(int64_t tick);
  // The intervals that end before `next` (the tick about to start): each
  // closes, and the parser's entities' states start the next.
  void CloseIntervalsBefore(int64_t next);
  // A live run's commit, when one is due before the tick `next` starts.
  void LiveFrameStart(int64_t next);
  // A live run: the live index's statements and the tables it rewrites.
  Status OpenLive(const LiveOptions& live);
  // Gives the pipeline every live entity's state as the parser holds it.
  void SnapshotEntities();
  // Records the rows that describe a class's field (field_defs,
  // class_fields).
  void RecordField(const ClassFields& fields, uint32_t id);
  // Gathers the query planner's statistics (sqlite_stat1).
  Status Analyze();
  // Finalizes every statement on the database (before it closes).
  void FinalizeStatements();

  Db* db_;
  class Progress* progress_;
  Parser* parser_ = nullptr;
  // The inserts' targets (table and columns) and column counts, by RowStmt
  // then game table.
  std::vector<std::pair<std::string, int>> row_targets_;
  std::vector<MatchColumn> timeline_;
  // A live run's: the live index, ticks between commits (from the tick
  // interval, once known), the last commit's tick, entities created or
  // deleted since it, and the classes it wrote.
  std::unique_ptr<LiveIndex> live_;
  // While a commit takes the end-written tables' rows: game table rows go
  // to it alone, by statement so_far_stmts_[table] (0: not one of them).
  bool so_far_ = false;
  std::vector<uint8_t> so_far_stmts_;
  // The live index's clock fill (LiveIndex::Commit): asked at the first
  // commit that knows the start tick, then only after a row of a clock
  // table came without one (a game table's game_time column by table, -1
  // for none).
  std::vector<int> clock_columns_;
  bool live_clockless_ = false, live_clock_given_ = false;
  double live_commit_seconds_ = 0;
  int64_t live_committed_ = INT64_MIN;
  std::vector<uint64_t> live_entities_;
  size_t live_classes_ = 0;
  // Meta's values as the last commit wrote them (a type byte, then the
  // value's bytes), by key: a commit writes only those that changed.
  std::unordered_map<std::string, std::string> live_meta_;
  WriterStats stats_;
  // The writer's own failure (a state the parser did not have), which
  // stops the parse.
  Status error_;
  ReplayMetadata meta_;
  // Until the match layer reports, it did not run.
  MatchSummary summary_ = [] {
    MatchSummary s;
    s.note = "not written: gem-index --no-match-layer";
    return s;
  }();
  TickOrder ticks_;
  // The inserts the parse's rows go through, run by the pipeline's worker;
  // indexed by RowStmt. Declared before the pipeline, which uses them
  // until it is destroyed.
  enum RowStmt : uint8_t {
    kTableRow,
    kEntryRow,
    kEventRow,
    kChatRow,
    kFieldDefRow,
    kClassFieldRow,
    kTimelineRow,
    kKillRow,
    kWardRow,
    kRowStmts
  };
  // The game's tables' inserts follow, table t at kRowStmts + t.
  static constexpr size_t kMaxGameTables = 64;
  Insert row_inserts_[kRowStmts + kMaxGameTables];
  // A live run's rewritten tables whose end rows have begun (their last
  // commit's rows cleared first), by game table.
  std::vector<bool> end_rows_begun_;
  GameSchema game_;
  // The events the game's tables come from (TableSpec::from_events), each
  // with how many the replay carried so far.
  std::vector<std::pair<std::string, uint64_t>> table_events_;
  // How each quantized float field's values decode: distinct quantizers by
  // id, and each class's fields' ids (kNone: not a quantized float).
  QuantizerRegistry quantizer_ids_;
  std::vector<std::vector<uint16_t>> quantizers_;
  // The changes' storage, run by the pipeline's worker: the changes and
  // keyframes tables' inserts, and the intervals' store. Declared before
  // the pipeline, which uses them until it is destroyed.
  Insert store_inserts_[kStoreStmts];
  std::unique_ptr<RunPages> pages_;
  std::unique_ptr<RowBlocks> blocks_;
  IntervalSettings interval_settings_;
  std::unique_ptr<IntervalStore> store_;
  // Intervals: ticks each spans (0: one interval, or not known yet), and
  // the next end to pass.
  int64_t interval_ = 0;
  int64_t next_boundary_ = 0;
  // Feeds the store and runs the rows on a worker thread.
  ChangePipeline pipeline_{row_inserts_};
  std::vector<EntityRow> entities_;  // by lifetime id
  std::unordered_map<const StringTable*, int32_t> table_ids_;
  std::unordered_map<const StringTable*, int64_t> table_seq_;
  int64_t string_entry_seq_ = 0;
  std::vector<FieldChange> state_scratch_;  // a state as the parser holds it
  std::string json_scratch_;
  double keyframe_seconds_ = 0;
  int64_t max_tick_ = INT64_MIN;  // the latest index tick given out
  std::vector<FieldChange> snapshot_scratch_;
  // Distinct field descriptions (see RecordField) and their def_id.
  std::unordered_map<std::string, int64_t> field_defs_;
  std::string field_key_scratch_;
  // RecordField's shortcut: a field by what makes its description (see
  // there) -> its def_id.
  std::unordered_map<std::string, int64_t> field_seen_;
  // The field_defs of types no rule names, and their decoders (RecordField).
  std::vector<std::pair<int64_t, const FieldDecoder*>> unknown_type_defs_;
  std::string field_seen_scratch_;

};

}  // namespace gem::index

#endif  // GEM_INDEXER_INDEX_WRITER_H_
