#include "indexer/index_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/fields/class_fields.h"
#include "core/codec/chunk_codec.h"
#include "core/codec/index_format.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"
#include "core/string_tables/string_table.h"
#include "core/util/version.h"
#include "indexer/index_schema.h"
#include "indexer/match_tables.h"
#include "indexer/progress.h"

namespace gem::index {
namespace {

void AppendJsonValue(const Value& v, std::string* out) { v.AppendJson(out); }

}  // namespace

IndexWriter::IndexWriter(Db* db, Progress* progress) : db_(db), progress_(progress) {}

void IndexWriter::OnFrameEnd(const TickInfo& t) {
  if (progress_ != nullptr) progress_->Update(t.offset, t.tick);
}

Status IndexWriter::Open(std::span<const MatchColumn> timeline, const GameSchema& game,
                         const LiveOptions* live) {
  if (game.tables.size() > kMaxGameTables) {
    return Status::InvalidArgument("the game declares " + std::to_string(game.tables.size()) +
                           " tables; gem-index writes at most " +
                           std::to_string(kMaxGameTables));
  }
  game_ = game;
  table_events_.clear();
  for (const TableSpec& t : game_.tables) {
    for (const std::string& name : t.from_events) table_events_.emplace_back(name, 0);
  }
  for (const std::string& name : game_.kill_events) table_events_.emplace_back(name, 0);
  timeline_.assign(timeline.begin(), timeline.end());
  if (live != nullptr) {
    live_ = std::make_unique<LiveIndex>();
    GEM_RETURN_IF_ERROR(LiveIndex::Create(
        live->path, [this](Db* db) { return CreateSchema(db, timeline_); }, db_));
  } else {
    // A 2 MiB page cache: the tables are appended, so SQLite needs little
    // more than each b-tree's right edge.
    GEM_RETURN_IF_ERROR(db_->Exec(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
        "PRAGMA cache_size=-2048; PRAGMA temp_store=MEMORY;"));
    GEM_RETURN_IF_ERROR(db_->Exec("PRAGMA page_size=4096;"));
    GEM_RETURN_IF_ERROR(db_->Exec("BEGIN;"));
    GEM_RETURN_IF_ERROR(CreateSchema(db_, timeline));
  }
  const std::pair<RowStmt, std::pair<std::string, int>> inserts[] = {
      {kFieldDefRow,
       {"field_defs(def_id, name, path, type, encoder, model, bits, low, high, flags, decoder, "
        "short_name)",
        12}},
      {kClassFieldRow, {"class_fields(class_id, field_id, def_id)", 3}},
      {kTableRow,
       {"string_tables(table_id, name, created_tick, user_data_fixed_size, user_data_size, "
        "user_data_size_bits, flags, varint_bit_counts)",
        8}},
      {kEntryRow, {"string_table_entries(table_id, idx, tick, seq, key, value)", 6}},
      {kEventRow, {"game_events(tick, event_id, name, keys)", 4}},
      {kChatRow, {"chat(tick, kind, sender, channel, text, message_name, params)", 7}},
      {kTimelineRow, {TimelineInsertTarget(timeline), static_cast<int>(timeline.size())}},
      {kKillRow,
       {KillsInsertTarget(game_.kill_columns),
        kKillsCommonColumns + static_cast<int>(game_.kill_columns.size())}},
      {kWardRow, {kWardsInsertTarget, kWardsColumns}},
  };
  static_assert(std::size(inserts) == kRowStmts, "an insert for every kind of row");
  row_targets_.assign(kRowStmts + game_.tables.size(), {});
  for (const auto& [kind, target] : inserts) row_targets_[kind] = target;
  for (size_t t = 0; t < game_.tables.size(); ++t) {
    row_targets_[kRowStmts + t] = {InsertTargetOf(game_.tables[t]),
                                   static_cast<int>(game_.tables[t].columns.size())};
  }
  for (size_t i = 0; i < row_targets_.size(); ++i) {
    GEM_RETURN_IF_ERROR(
        row_inserts_[i].Prepare(db_, row_targets_[i].first, row_targets_[i].second));
  }
  // The changes' storage, packed and written by the pipeline's threads as
  // the parse goes.
  GEM_RETURN_IF_ERROR(PrepareStoreInserts(db_, store_inserts_));
  pages_ = std::make_unique<RunPages>();
  blocks_ = std::make_unique<RowBlocks>();
  store_ = std::make_unique<IntervalStore>(interval_settings_, &quantizer_ids_, pages_.get(),
                                           blocks_.get());
  pipeline_.SetStore(store_.get(), store_inserts_);
  if (live != nullptr) GEM_RETURN_IF_ERROR(OpenLive(*live));
  entities_.push_back({});  // lifetime ids start at 1
  return Status::Ok();
}

Status IndexWriter::CreateSchema(Db* db, std::span<const MatchColumn> timeline) {
  GEM_RETURN_IF_ERROR(db->Exec(kCreateSchemaSql));
  for (const TableSpec& t : game_.tables) GEM_RETURN_IF_ERROR(db->Exec(CreateTableSql(t)));
  GEM_RETURN_IF_ERROR(db->Exec(MatchSchemaSql(timeline, game_.kill_columns)));
  GEM_RETURN_IF_ERROR(db->Exec(kCreateRowIndexesSql));
  return db->Exec(game_.after_sql);
}

int64_t IndexWriter::IndexTick(const TickInfo& t) {
  const int64_t tick = ticks_.Next(t);
  if (tick > max_tick_) max_tick_ = tick;
  return tick;
}

void IndexWriter::OnEntityCreated(const TickInfo& t, const EntityRef& r,
                                  std::span<const FieldChange> state) {
  const int64_t tick = IndexTick(t);
  if (r.lifetime >= entities_.size()) entities_.resize(r.lifetime + 1);
  entities_[r.lifetime] = {r.index, r.serial, r.handle, r.class_id, tick, kNoTick};
  ++stats_.entities;
  if (live_ != nullptr) live_entities_.push_back(r.lifetime);
  stats_.created_values += state.size();
  // Its entity_states row is encoded on the packing thread.
  pipeline_.CreateEntity(r.lifetime, r.class_id, tick, state);
}

void IndexWriter::OnEntityUpdated(const TickInfo& t, const EntityRef& r,
                                  std::span<const FieldChange> changes) {
  const int64_t tick = IndexTick(t);
  std::span<const uint16_t> quantizers;
  if (r.class_id >= 0 && static_cast<size_t>(r.class_id) < quantizers_.size()) {
    quantizers = quantizers_[r.class_id];
  }
  pipeline_.AddChanges(r.lifetime, tick, changes, quantizers);
}

void IndexWriter::OnFieldRegistered(const ClassFields& fields, uint32_t field_id) {
  RecordField(fields, field_id);
  const FieldDecoder* d = fields.decoder(field_id);
  if (d == nullptr || d->float_encoding != FloatEncoding::kQuantized ||
      (d->op != DecodeOp::kFloat && d->op != DecodeOp::kVector)) {
    return;
  }
  const int32_t class_id = fields.class_id();
  if (class_id < 0) return;
  if (static_cast<size_t>(class_id) >= quantizers_.size()) quantizers_.resize(class_id + 1);
  auto& by_field = quantizers_[class_id];
  if (field_id >= by_field.size()) by_field.resize(field_id + 1, QuantizerRegistry::kNone);
  const QuantizedFloat& q = d->quantized;
  by_field[field_id] = quantizer_ids_.Intern(FloatQuantizer{q.low, q.high, q.dec_mul, q.bit_count});
}

void IndexWriter::OnEntityDeleted(const TickInfo& t, const EntityRef& r) {
  const int64_t tick = IndexTick(t);
  if (r.lifetime < entities_.size()) entities_[r.lifetime].deleted_tick = tick;
  if (live_ != nullptr) live_entities_.push_back(r.lifetime);
  pipeline_.DeleteEntity(r.lifetime);
}

void IndexWriter::OnStringTableCreated(const TickInfo& t, const StringTable& table) {
  int32_t id = static_cast<int32_t>(table_ids_.size());
  table_ids_[&table] = id;
  const StringTableSettings& s = table.settings();
  pipeline_.Row(kTableRow)
      .Int(id)
      .Text(table.name())
      .Int(IndexTick(t))
      .Int(s.user_data_fixed_size)
      .Int(s.user_data_size)
      .Int(s.user_data_size_bits)
      .Int(s.flags)
      .Int(s.using_varint_bitcounts);
}

void IndexWriter::OnStringTableEntry(const TickInfo& t, const StringTable& table,
                                     int32_t index) {
  auto it = table_ids_.find(&table);
  if (it == table_ids_.end()) return;
  const StringTableEntry& e = table.entry(index);
  pipeline_.Row(kEntryRow)
      .Int(it->second)
      .Int(index)
      .Int(IndexTick(t))
      .Int(string_entry_seq_++)
      .Text(e.name)
      .Blob(e.data);
  ++stats_.string_table_rows;
}

void IndexWriter::OnGameEvent(const TickInfo& t, const GameEvent& e) {
  for (auto& [name, seen] : table_events_) seen += name == e.name ? 1 : 0;
  json_scratch_ = "{";
  for (size_t i = 0; i < e.keys.size(); ++i) {
    if (i) json_scratch_ += ',';
    if (e.keys[i].name.empty()) {
      AppendJsonString("key" + std::to_string(i), &json_scratch_);
    } else {
      AppendJsonString(e.keys[i].name, &json_scratch_);
    }
    json_scratch_ += ':';
    AppendJsonValue(e.keys[i].value, &json_scratch_);
  }
  json_scratch_ += '}';
  pipeline_.Row(kEventRow).Int(IndexTick(t)).Int(e.id).Text(e.name).Text(json_scratch_);
}

void IndexWriter::OnChatMessage(const TickInfo& t, const ChatMessage& m) {
  RowBuffer& row = pipeline_.Row(kChatRow);
  row.Int(IndexTick(t)).Text(m.kind).Int(m.sender).Int(m.channel).Text(m.text);
  if (m.message_name.empty()) row.Null(); else row.Text(m.message_name);
  if (m.kind == "saytext2") {
    json_scratch_ = "[";
    for (int i = 0; i < 4; ++i) {
      if (i) json_scratch_ += ',';
      AppendJsonString(m.params[i], &json_scratch_);
    }
    json_scratch_ += ']';
    row.Text(json_scratch_);
  } else {
    row.Null();
  }
}

void IndexWriter::OnTableRow(uint32_t table, std::span<const MatchValue> values) {
  // A module's row that does not fit its table is a bug of the module:
  // the row buffer refuses it, and the index fails, saying so.
  if (table >= game_.tables.size()) return;
  if (live_ != nullptr) {
    if (so_far_ && so_far_stmts_[table] == 0) return;  // (the module's bug: not end-written)
    const int clock = clock_columns_[table];
    if (clock >= 0 && static_cast<size_t>(clock) < values.size() && values[clock].is_null()) {
      live_clockless_ = true;
    }
    // A rewritten table's end rows replace its last commit's.
    if (!so_far_ && so_far_stmts_[table] != 0 && !end_rows_begun_[table]) {
      end_rows_begun_[table] = true;
      pipeline_.ClearBeforeRows(game_.tables[table].name);
    }
  }
  RowBuffer& row = so_far_ ? pipeline_.LiveRow(so_far_stmts_[table])
                           : pipeline_.Row(static_cast<uint8_t>(kRowStmts + table));
  // Runs of NULLs (most of a combat-log entry's columns) in one tag each.
  int nulls = 0;
  for (const MatchValue& v : values) {
    if (v.is_null()) {
      ++nulls;
      continue;
    }
    if (nulls > 0) row.Nulls(nulls);
    nulls = 0;
    AddValue(&row, v);
  }
  if (nulls > 0) row.Nulls(nulls);
  if (!so_far_) ++stats_.game_table_rows;
}

void IndexWriter::OnTimelineRow(std::span<const MatchValue> values) {
  RowBuffer& row = pipeline_.Row(kTimelineRow);
  for (const MatchValue& v : values) AddValue(&row, v);
  if (live_ != nullptr && values.size() > kTlGameTime && values[kTlGameTime].is_null()) {
    live_clockless_ = true;
  }
}

void IndexWriter::OnKill(const KillRow& k) {
  AddKill(&pipeline_.Row(kKillRow), k, game_.kill_columns.size());
  if (live_ != nullptr && k.game_time.is_null()) live_clockless_ = true;
}

void IndexWriter::OnWard(const WardRow& w) { AddWard(&pipeline_.Row(kWardRow), w); }

void IndexWriter::RecordField(const ClassFields& fields, uint32_t id) {
  // Classes share most fields (they share base serializers): each distinct
  // description is stored once, in field_defs, and class_fields maps each
  // class's field id to it. Recorded when the parser first meets a field,
  // so that the worker inserts the rows during the parse.
  const FieldMeta& m = fields.meta(id);
  // Most of a class's fields are another class's too, at the same path
  // (classes share base serializers): the same top-level field (and its
  // name at the top), path, leaf field and decoder make the same
  // description, so such a field takes the def_id already made without
  // its text being formatted. The 10-minute replay: 18,424 class fields,
  // 11,713 of them known this way.
  std::string& seen = field_seen_scratch_;
  seen.clear();
  const Serializer* serializer = fields.serializer();
  const FieldPath path = fields.path(id);
  const int32_t top = path.index[0];
  if (serializer != nullptr && top >= 0 && static_cast<size_t>(top) < serializer->fields.size()) {
    const void* parts[3] = {serializer->fields[top], m.field, m.decoder};
    seen.append(reinterpret_cast<const char*>(parts), sizeof parts);
    seen.append(reinterpret_cast<const char*>(path.index), sizeof(int32_t) * path.depth());
    if (!serializer->field_names.empty()) seen.append(serializer->field_names[top]);
    if (auto known = field_seen_.find(seen); known != field_seen_.end()) {
      pipeline_.Row(kClassFieldRow).Int(fields.class_id()).Int(id).Int(known->second);
      return;
    }
  }
  const FieldText& text = fields.text(id);
  const Field& f = *m.field;
  const std::string decoder = m.decoder->Describe();
  const char* model = FieldModelName(f.model);
  std::string& key = field_key_scratch_;
  key.clear();
  for (std::string_view part : {std::string_view(text.name), std::string_view(text.path),
                                std::string_view(text.type), std::string_view(f.encoder),
                                std::string_view(model), std::string_view(decoder),
                                std::string_view(text.short_name)}) {
    key.append(part);
    key.push_back('\0');
  }
  // Optional numbers, exactly: their bytes (a key, never shown). Floats
  // tell -0 from 0; NaNs differ by sign only.
  auto put_int = [&key](std::optional<int32_t> v) {
    const int32_t x = v.value_or(0);
    key.push_back(v.has_value() ? '\1' : '\0');
    key.append(reinterpret_cast<const char*>(&x), sizeof x);
  };
  auto put_float = [&key](std::optional<float> v) {
    uint32_t bits = 0;
    if (v.has_value()) {
      std::memcpy(&bits, &*v, sizeof bits);
      if (std::isnan(*v)) bits = (bits & 0x80000000u) | 0x7FC00000u;
    }
    key.push_back(v.has_value() ? '\1' : '\0');
    key.append(reinterpret_cast<const char*>(&bits), sizeof bits);
  };
  put_int(f.bit_count);
  put_float(f.low_value);
  put_float(f.high_value);
  put_int(f.encode_flags);
  auto [it, is_new] = field_defs_.try_emplace(key, static_cast<int64_t>(field_defs_.size()) + 1);
  if (is_new) {
    RowBuffer& row = pipeline_.Row(kFieldDefRow);
    row.Int(it->second).Text(text.name).Text(text.path).Text(text.type);
    if (f.encoder.empty()) row.Null(); else row.Text(f.encoder);
    row.Text(model);
    if (f.bit_count) row.Int(*f.bit_count); else row.Null();
    if (f.low_value) row.Real(*f.low_value); else row.Null();
    if (f.high_value) row.Real(*f.high_value); else row.Null();
    if (f.encode_flags) row.Int(*f.encode_flags); else row.Null();
    row.Text(decoder).Text(text.short_name);
    // A type no rule names may get a rule later in the parse (a decode
    // fault's rule search): its decoder is described again at the end.
    if (f.unknown_type) unknown_type_defs_.emplace_back(it->second, m.decoder);
  }
  if (!seen.empty()) field_seen_.emplace(seen, it->second);
  pipeline_.Row(kClassFieldRow).Int(fields.class_id()).Int(id).Int(it->second);
}

Status IndexWriter::Analyze() {
  // Every table but changes and keyframes: read by their keys alone, they
  // need no statistics, and ANALYZE would read them whole (most of the
  // index).
  std::vector<std::string> tables;
  {
    Stmt list;
    GEM_RETURN_IF_ERROR(list.Prepare(
        db_, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN "
             "('changes', 'keyframes') AND name NOT LIKE 'sqlite_%' ORDER BY name"));
    GEM_RETURN_IF_ERROR(list.ForEachRow([&](sqlite3_stmt* row) {
      tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(row, 0)));
    }));
  }
  std::string sql;
  for (const std::string& t : tables) sql += "ANALYZE \"" + t + "\";";
  return db_->Exec(sql);
}

void IndexWriter::FinalizeStatements() {
  for (Insert& s : row_inserts_) s.Finalize();
  for (Insert& s : store_inserts_) s.Finalize();
}

Status IndexWriter::Finish(const Parser& parser, const SourceInfo& source,
                           const std::function<void()>& bulk_written) {
  auto lap = [t = std::chrono::steady_clock::now()]() mutable {
    auto now = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(now - t).count();
    t = now;
    return s;
  };
  // The worker's last batch; then the connection is this thread's again.
  // (A live index's readers see the last commit until the end's.)
  pipeline_.Drain();
  GEM_RETURN_IF_ERROR(pipeline_.error());
  stats_.finish_drain_seconds = lap();
  const auto start = std::chrono::steady_clock::now();

  // The last interval, as it stands; a live run's tail is then empty.
  {
    RowBuffer rows;
    store_->SetOutput(&rows);
    GEM_RETURN_IF_ERROR(store_->Finish());
    if (live_ != nullptr) {
      live_->tail().Clear();
      GEM_RETURN_IF_ERROR(live_->ClearTail());
    }
    GEM_RETURN_IF_ERROR(rows.RunAll(store_inserts_));
  }
  if (bulk_written) bulk_written();
  stats_.finish_changes_seconds = lap();

  // Classes and entities (a live run's commits wrote some: replaced).
  const char* verb = live_ != nullptr ? "INSERT OR REPLACE" : "INSERT";
  Stmt cls;
  GEM_RETURN_IF_ERROR(
      cls.Prepare(db_, std::string(verb) + " INTO classes(class_id, name) VALUES(?, ?)"));
  const Schema& schema = parser.schema();
  for (size_t c = 0; c < schema.class_slots(); ++c) {
    const ClassInfo* info = schema.GetClass(static_cast<int32_t>(c));
    if (info == nullptr) continue;
    GEM_RETURN_IF_ERROR(cls.Int(1, info->id).Text(2, info->name).Run());
  }
  Stmt ent;
  GEM_RETURN_IF_ERROR(ent.Prepare(
      db_, std::string(verb) +
               " INTO entities(entity, ent_index, serial, handle, class_id, created_tick, "
               "deleted_tick) VALUES(?,?,?,?,?,?,?)"));
  for (size_t id = 1; id < entities_.size(); ++id) {
    const EntityRow& e = entities_[id];
    ent.Int(1, static_cast<int64_t>(id))
        .Int(2, e.index)
        .Int(3, e.serial)
        .Int(4, e.handle)
        .Int(5, e.class_id)
        .Int(6, e.created_tick);
    if (e.deleted_tick == kNoTick) ent.Null(7); else ent.Int(7, e.deleted_tick);
    GEM_RETURN_IF_ERROR(ent.Run());
  }
  stats_.pipeline_wait_seconds = pipeline_.wait_seconds();
  stats_.pack_cpu_seconds = pipeline_.pack_cpu_seconds();
  stats_.write_cpu_seconds = pipeline_.write_cpu_seconds();
  stats_.intervals = store_->stats();
  stats_.field_changes = stats_.intervals.changes;
  stats_.pages = pages_->stats();
  stats_.blocks = blocks_->stats();
  if (live_ != nullptr) {
    stats_.live_commits = live_->commits();
    stats_.live_last_tick = live_->last_commit_tick();
    stats_.live_commit_time_seconds = live_->commit_time_seconds();
    stats_.live_tail_rows = live_->tail_rows_written();
    GEM_RETURN_IF_ERROR(live_->BeginEnd());
  }

  GEM_RETURN_IF_ERROR(WriteMatchSummary(db_, summary_, game_));
  GEM_RETURN_IF_ERROR(WriteParts(db_, parser.parts(),
                                 source.parts.empty()
                                     ? std::vector<PartFile>{{source.name, source.sha256, source.bytes}}
                                     : source.parts,
                                 live_ != nullptr));
  if (live_ != nullptr) {
    // The commits' own meta rows go: the finished index's meta is a plain
    // run's (its statistics too), the live rows added after ANALYZE.
    GEM_RETURN_IF_ERROR(db_->Exec(
        "DELETE FROM meta WHERE key IN ('live', 'live_tick', 'live_commit_seconds', "
        "'live_at_end', 'live_rewritten', 'live_when_closed', 'keyframe_open_tick')"));
  }
  GEM_RETURN_IF_ERROR(WriteDecodeFaults(db_, parser.entities().faults()));
  // (A field first met during a trial was described by that trial's rule.)
  if (parser.entities().rule_searches() > 0) {
    Stmt update;
    GEM_RETURN_IF_ERROR(update.Prepare(db_, "UPDATE field_defs SET decoder = ? WHERE def_id = ?"));
    for (const auto& [def_id, decoder] : unknown_type_defs_) {
      GEM_RETURN_IF_ERROR(update.Text(1, decoder->Describe()).Int(2, def_id).Run());
    }
  }
  GEM_RETURN_IF_ERROR(WriteMeta(parser, source));
  FinalizeStatements();
  cls.Finalize();
  ent.Finalize();
  lap();
  GEM_RETURN_IF_ERROR(db_->Exec(kCreateIndexesSql));
  stats_.finish_indexes_seconds = lap();
  GEM_RETURN_IF_ERROR(Analyze());
  stats_.finish_analyze_seconds = lap();
  if (live_ != nullptr) {
    // Written after ANALYZE: its statistics are then the plain run's.
    Stmt s;
    GEM_RETURN_IF_ERROR(s.Prepare(db_, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)"));
    GEM_RETURN_IF_ERROR(s.Text(1, "live").Int(2, 0).Run());
    GEM_RETURN_IF_ERROR(s.Text(1, "live_tick").Int(2, live_committed_).Run());
    GEM_RETURN_IF_ERROR(s.Text(1, "live_commit_seconds").Real(2, live_commit_seconds_).Run());
  }
  GEM_RETURN_IF_ERROR(db_->Exec("COMMIT;"));
  stats_.finish_commit_seconds = lap();
  if (live_ != nullptr) {
    GEM_RETURN_IF_ERROR(live_->Finish());
    live_.reset();
  } else {
    GEM_RETURN_IF_ERROR(db_->Exec(
        "PRAGMA application_id=" + std::to_string(kApplicationId) +
        "; PRAGMA user_version=" + std::to_string(kSchemaVersion) +
        "; PRAGMA locking_mode=NORMAL; PRAGMA journal_mode=DELETE;"));
  }
  stats_.sqlite_seconds =
      pipeline_.row_seconds() +
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::Ok();
}

}  // namespace gem::index
