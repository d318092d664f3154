// IndexWriter's live run (live_index.h): when commits happen, and what
// each carries besides the parse's rows and the tail (entities, classes,
// meta, the tables rewritten whole).
#include "core/fields/class_fields.h"
#include "indexer/index_writer.h"
#include "indexer/index_schema.h"
#include "indexer/match_tables.h"

namespace gem::index {

void IndexWriter::LiveFrameStart(int64_t next) {
  // Nothing happened between the last event and N: the snapshot is of
  // tick N - 1 (the match layer's samples due before N are in too).
  if (next <= max_tick_ || next - 1 <= live_committed_) return;
  const double interval = parser_->metadata().tick_interval;
  const double due = live_committed_ == INT64_MIN
                         ? 0
                         : static_cast<double>(live_committed_) +
                               live_commit_seconds_ / (interval > 0 ? interval : 1.0 / 30);
  if (static_cast<double>(next - 1) >= due) LiveCommit(next - 1);
}

void IndexWriter::OnInputWaiting() {
  if (live_ == nullptr || max_tick_ <= live_committed_) return;
  // The input waits between fragments, which end on a tick boundary: the
  // last tick is whole. Committed whether due or not: the fragment's
  // arrival is what readers wait for.
  LiveCommit(max_tick_);
}

void IndexWriter::LiveCommit(int64_t tick) {
  for (uint64_t id : live_entities_) {
    const EntityRow& e = entities_[id];
    RowBuffer& row = pipeline_.LiveRow(LiveIndex::kEntityRow);
    row.Int(static_cast<int64_t>(id))
        .Int(e.index)
        .Int(e.serial)
        .Int(e.handle)
        .Int(e.class_id)
        .Int(e.created_tick);
    if (e.deleted_tick == kNoTick) row.Null(); else row.Int(e.deleted_tick);
  }
  live_entities_.clear();
  const Schema& schema = parser_->schema();
  if (schema.class_slots() != live_classes_) {
    for (size_t c = 0; c < schema.class_slots(); ++c) {
      const ClassInfo* info = schema.GetClass(static_cast<int32_t>(c));
      if (info == nullptr) continue;
      pipeline_.LiveRow(LiveIndex::kClassRow).Int(info->id).Text(info->name);
    }
    live_classes_ = schema.class_slots();
  }
  // Meta's rows that changed since the last commit (most stay as they
  // were: rewriting all of them cost a commit a third of its time).
  MetaOut out;
  auto changed = [this](const char* key, char type, std::string_view bytes) {
    std::string& last = live_meta_[key];
    if (!last.empty() && last[0] == type && std::string_view(last).substr(1) == bytes) {
      return false;
    }
    last.assign(1, type);
    last.append(bytes);
    return true;
  };
  out.text = [this, changed](const char* key, std::string_view v) {
    if (changed(key, 't', v)) pipeline_.LiveRow(LiveIndex::kMetaRow).Text(key).Text(v);
    return Status::Ok();
  };
  out.num = [this, changed](const char* key, int64_t v) {
    if (changed(key, 'i', std::string_view(reinterpret_cast<const char*>(&v), sizeof v))) {
      pipeline_.LiveRow(LiveIndex::kMetaRow).Text(key).Int(v);
    }
    return Status::Ok();
  };
  out.real = [this, changed](const char* key, double v) {
    if (changed(key, 'r', std::string_view(reinterpret_cast<const char*>(&v), sizeof v))) {
      pipeline_.LiveRow(LiveIndex::kMetaRow).Text(key).Real(v);
    }
    return Status::Ok();
  };
  (void)EmitMeta(*parser_, parser_->metadata(), nullptr, true, tick, out);
  MatchSummary so_far = parser_->summary_so_far();
  if (so_far.ran) {
    // match_info and players as they stand (WriteMatchSummary's rows).
    so_far.last_tick = tick;
    AddMatchInfo(&pipeline_.LiveRow(LiveIndex::kMatchInfoRow), so_far);
    for (const PlayerRow& p : so_far.players) {
      AddPlayer(&pipeline_.LiveRow(LiveIndex::kPlayerRow), p);
    }
  }
  // The game's end-written tables, as they stand (OnTableRow sends them
  // here while so_far_ is set).
  so_far_ = true;
  parser_->WriteSoFar();
  so_far_ = false;
  std::optional<LiveClock> clock;
  if (so_far.start_tick && (!live_clock_given_ || live_clockless_)) {
    clock = LiveClock{*so_far.start_tick, so_far.tick_rate};
    live_clock_given_ = true;
    live_clockless_ = false;
  }
  pipeline_.Commit(tick, clock);
  live_committed_ = tick;
}

Status IndexWriter::OpenLive(const LiveOptions& live) {
  live_commit_seconds_ = live.commit_seconds;
  const std::vector<std::string> clock_tables = ClockTables(game_);
  clock_columns_.assign(game_.tables.size(), -1);
  for (size_t t = 0; t < game_.tables.size(); ++t) {
    const std::vector<TableColumn>& columns = game_.tables[t].columns;
    bool tick = false;
    for (size_t c = 0; c < columns.size(); ++c) {
      tick |= columns[c].name == "tick";
      if (columns[c].name == "game_time") clock_columns_[t] = static_cast<int>(c);
    }
    if (!tick) clock_columns_[t] = -1;  // (ClockTables' rule: both columns)
  }
  // The game's tables written at the end: rewritten at each commit as they
  // stand, after the live statements.
  std::vector<LiveIndex::Rewritten> rewritten;
  so_far_stmts_.assign(game_.tables.size(), 0);
  end_rows_begun_.assign(game_.tables.size(), false);
  for (size_t t = 0; t < game_.tables.size(); ++t) {
    if (game_.tables[t].written != TableSpec::Written::kAtEnd) continue;
    so_far_stmts_[t] = static_cast<uint8_t>(LiveIndex::kLiveStmts + rewritten.size());
    rewritten.push_back({game_.tables[t].name, row_targets_[kRowStmts + t].first,
                         row_targets_[kRowStmts + t].second});
  }
  GEM_RETURN_IF_ERROR(live_->Open(live.path, db_, clock_tables, rewritten));
  pipeline_.SetLive(live_.get());
  return Status::Ok();
}

void IndexWriter::AbandonLive(const Status& why) {
  if (live_ == nullptr) return;
  pipeline_.Abandon();  // the worker stops using the database first
  FinalizeStatements();
  live_->Close(why.ToString());
  live_.reset();
}

}  // namespace gem::index
