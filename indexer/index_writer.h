// IndexWriter: the sink that turns a parse into a gem index (see
// index_schema.h for the tables). Open() creates the schema in an empty
// database and starts one transaction; the parser then reports to it; Finish()
// writes what was held back (entities, field-change chunks in key order,
// classes, metadata), builds the indexes and commits.
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

#include "core/parser.h"
#include "core/sink.h"
#include "core/table_spec.h"
#include "core/tick_order.h"
#include "indexer/change_pipeline.h"
#include "indexer/change_store.h"
#include "indexer/live_index.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

struct SourceInfo {
  std::string name;    // the replay's file name ("-": standard input)
  std::string sha256;  // of the file as given; filled before Finish()
  uint64_t bytes = 0;  // of the file as given
  std::string compression = "none";  // CompressionName()
  std::string replay_sha256;  // of the replay inside (sha256 when plain)
  uint64_t replay_bytes = 0;
};

struct WriterStats {
  uint64_t field_changes = 0;     // after creation
  uint64_t created_values = 0;    // values in creation states
  uint64_t chunks = 0;
  uint64_t peak_held_changes = 0;  // in open chunks at once (ChangeStore::held)
  uint64_t chunk_trims = 0;        // times the open chunks' budget closed some early
  uint64_t peak_sealed_bytes = 0;  // the finish's chunk bytes held at once (ChangeStore)
  uint64_t entities = 0;
  uint64_t string_table_rows = 0;
  uint64_t game_table_rows = 0;  // rows of the game's own tables
  KeyframeTotals keyframes;
  int64_t keyframe_interval = 0;  // ticks; 0: none
  // Time in SQLite: the worker's row inserts during the parse (they
  // overlap it) and Finish() after the drain.
  double sqlite_seconds = 0;
  // Parts of Finish().
  double finish_drain_seconds = 0;   // waiting for the worker's last batch
  double finish_changes_seconds = 0;
  double pipeline_wait_seconds = 0;  // parser thread waiting for the packing worker
  double finish_indexes_seconds = 0;
  double finish_commit_seconds = 0;
  double finish_analyze_seconds = 0;
  // CPU seconds by thread: the packing worker's (chunks and the parse's
  // rows) and WriteAll's sealing thread's (chunks read back, keyframe
  // rows built).
  double pack_cpu_seconds = 0;
  double seal_cpu_seconds = 0;
  // A live run's commits of the live index, the last one's tick, the
  // worker's seconds in them, and chunk rows written (rewrites counted).
  uint64_t live_commits = 0;
  int64_t live_last_tick = 0;
  double live_commit_time_seconds = 0;
  uint64_t live_chunk_rows = 0;
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
  // writes (match::SchemaFor), whose rows come as OnTableRow. Closed
  // chunks wait in a temporary file in `spill_directory` (the output's:
  // the disk the index goes to anyway), so that memory follows the live
  // entities, not the match.
  Status Open(std::span<const MatchColumn> timeline, const GameSchema& game,
              const std::string& spill_directory);
  // Writes the held-back rows and the metadata, creates the indexes and
  // commits. `parser` gives the schema (classes, fields). `bulk_written`
  // (may be empty) is called once the changes table, the bulk of the
  // file, has gone to SQLite, while the smaller tables follow.
  Status Finish(const Parser& parser, const SourceInfo& source,
                const std::function<void()>& bulk_written = {});

  const WriterStats& stats() const { return stats_; }

  // A live run (live_index.h): after Open, before the parse, makes the
  // live index at `path` (which must not exist) and commits it every
  // `commit_seconds` of game time (at the first frame of a later tick),
  // reading classes and the replay's facts from `parser` then, and the
  // game's end-written tables as they stand (Parser::WriteSoFar).
  Status OpenLive(const std::string& path, double commit_seconds, Parser* parser);

  // After Finish: puts the finished index at `final_path` into the live
  // one (LiveIndex::Finish).
  Status FinishLive(const std::string& final_path);
  // A failed live run: the live index keeps its last commit, meta's
  // live_error saying `why`; with no commit of a tick yet, it is removed.
  // Idempotent.
  void AbandonLive(const Status& why);
  bool live() const { return live_ != nullptr; }

  // Keyframes every `seconds` of game time (0: none), and how many of a
  // field's changes in an interval a row logs (keyframe_builder.h). Before
  // the parse.
  void SetKeyframes(double seconds, uint32_t max_logged) {
    keyframe_seconds_ = seconds;
    keyframe_max_logged_ = max_logged;
  }

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
  void OnMetadata(const ReplayMetadata& m) override { meta_ = m; }
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
  Status Health() const override { return pipeline_.error(); }

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
  // Records the rows that describe a class's field (field_defs,
  // class_fields).
  void RecordField(const ClassFields& fields, uint32_t id);
  // The keyframes table (keyframe_builder.h), beside WriteAll: the rows of
  // entities with changes as their chunks are sealed, then the others.
  Status WriteChangesAndKeyframes(Insert* chunk, double tick_interval);
  // Gathers the query planner's statistics (sqlite_stat1).
  Status Analyze();

  Db* db_;
  class Progress* progress_;
  // The inserts' targets (table and columns) and column counts, by RowStmt
  // then game table: the live index prepares the same.
  std::vector<std::pair<std::string, int>> row_targets_;
  std::vector<MatchColumn> timeline_;
  // A live run's: the live index, the parser its commits read, ticks
  // between commits (from the tick interval, once known), the last
  // commit's tick, entities created or deleted since it, and the classes
  // it wrote.
  std::unique_ptr<LiveIndex> live_;
  Parser* live_parser_ = nullptr;
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
  WriterStats stats_;
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
    kStateRow,
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
  GameSchema game_;
  // How each quantized float field's values decode: distinct quantizers by
  // id, and each class's fields' ids (kNone: not a quantized float).
  QuantizerRegistry quantizer_ids_;
  std::vector<std::vector<uint16_t>> quantizers_;
  ChangeStore changes_;
  // Feeds changes_ and runs the rows on a worker thread.
  ChangePipeline pipeline_{&changes_, row_inserts_};
  std::vector<EntityRow> entities_;  // by lifetime id
  std::unordered_map<const StringTable*, int32_t> table_ids_;
  std::unordered_map<const StringTable*, int64_t> table_seq_;
  int64_t string_entry_seq_ = 0;
  std::vector<std::pair<uint32_t, Value>> state_scratch_;
  std::vector<std::pair<uint32_t, Value>> diff_scratch_;
  // Per class: the entity whose whole creation state later ones of the
  // class are stored against, and that state's blob.
  struct StateTemplate {
    int64_t lifetime = -1;
    std::string blob;
  };
  std::unordered_map<int32_t, StateTemplate> templates_;
  std::string blob_scratch_;
  std::string json_scratch_;
  double keyframe_seconds_ = 0;
  uint32_t keyframe_max_logged_ = 16;
  int64_t max_tick_ = INT64_MIN;  // the latest index tick given out
  // With keyframes: where each entity's whole creation state (a state
  // blob) lies in creation_spill_, by lifetime id, until its keyframes are
  // built. In memory they grew with every entity ever created: a 36-minute
  // Deadlock match's trooper waves held about 40 MB of them at the end.
  struct SpilledState {
    uint64_t offset = 0;
    uint32_t size = 0;
  };
  std::vector<SpilledState> creation_states_;
  ChunkSpill creation_spill_;
  void KeepCreationState(uint64_t lifetime, std::string_view blob);
  // Distinct field descriptions (see RecordField) and their def_id.
  std::unordered_map<std::string, int64_t> field_defs_;
  std::string field_key_scratch_;
  // RecordField's shortcut: a field by what makes its description (see
  // there) -> its def_id.
  std::unordered_map<std::string, int64_t> field_seen_;
  std::string field_seen_scratch_;

};

}  // namespace gem::index

#endif  // GEM_INDEXER_INDEX_WRITER_H_
