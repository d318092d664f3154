#include "sqlext/index_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/codec/chunk_codec.h"
#include "core/codec/state_codec.h"
#include "sqlext/index_columns.h"

namespace gem::sqlext {
namespace {

// Copies a value's string bytes into `storage` so the value outlives the
// statement step it came from.
void Own(Value* v, std::string* storage) {
  if (v->kind != ValueKind::kString) return;
  storage->assign(v->s);
  v->s = *storage;
}

}  // namespace

IndexReader::~IndexReader() {
  for (sqlite3_stmt* st : {last_chunk_, chunk_range_, next_field_, state_, fields_, keyframe_}) {
    if (st != nullptr) sqlite3_finalize(st);
  }
}

std::string IndexReader::StateKey(const EntityInfo& e) const {
  return "table entity_states, entity " + std::to_string(e.entity);
}

bool IndexReader::ReadState(const EntityInfo& e, std::string* error) {
  if (state_entity_ == e.entity) return true;
  creation_entity_ = -1;  // its values point into the blob replaced here
  if (auto it = state_cache_.find(e.entity); it != state_cache_.end()) {
    state_blob_.assign(it->second);
    state_entity_ = e.entity;
    return true;
  }
  state_entity_ = -1;  // until state_blob_ holds e's state
  sqlite3_reset(state_);
  sqlite3_bind_int64(state_, 1, e.entity);
  int rc = sqlite3_step(state_);
  if (rc == SQLITE_ROW && sqlite3_column_type(state_, 1) != SQLITE_NULL) {
    // A difference from another entity's whole state (one without a base
    // of its own, so that no chain or cycle is followed): merge the two.
    int64_t base = 0;
    if (!IntColumn(state_, 1, 1, INT64_MAX, &base)) {
      *error = Damaged(StateKey(e), "base " + ColumnForMessage(state_, 1) + " is not an entity");
      sqlite3_reset(state_);
      return false;
    }
    diff_blob_.assign(BlobColumn(state_, 0));
    sqlite3_reset(state_);
    sqlite3_bind_int64(state_, 1, base);
    rc = sqlite3_step(state_);
    const char* bad = nullptr;
    if (rc != SQLITE_ROW) {
      bad = "has no state";
    } else if (sqlite3_column_type(state_, 1) != SQLITE_NULL) {
      bad = "is itself a difference";
    } else if (!MergeStates(BlobColumn(state_, 0), diff_blob_, &state_blob_)) {
      bad = "and this difference do not merge";
    }
    if (bad != nullptr) {
      *error = Damaged(StateKey(e), "base " + std::to_string(base) + " " + bad);
      sqlite3_reset(state_);
      return false;
    }
  } else if (rc == SQLITE_ROW) {
    state_blob_.assign(BlobColumn(state_, 0));
  } else if (rc == SQLITE_DONE) {
    state_blob_.clear();
  } else {
    *error = ReadFailed(StateKey(e));
    sqlite3_reset(state_);
    return false;
  }
  sqlite3_reset(state_);
  state_entity_ = e.entity;
  ++counters_.states_read;
  if (state_cache_bytes_ + state_blob_.size() <= kStateCacheBytes) {
    state_cache_bytes_ += state_blob_.size();
    state_cache_.emplace(e.entity, state_blob_);
  }
  return true;
}

template <typename Visit>
bool IndexReader::EachStateValue(const EntityInfo& e, Visit&& visit, std::string* error) {
  if (!ReadState(e, error)) return false;
  if (state_blob_.empty()) return true;  // no creation state recorded
  ++counters_.state_walks;
  StateReader sr;
  bool ok = sr.Open(state_blob_);
  uint32_t f;
  Value v;
  while (ok && sr.Next(&f, &v)) {
    if (!visit(f, v)) return true;  // (the ids ascend: StateReader checks)
  }
  if (!ok || !sr.ok()) {
    *error = Damaged(StateKey(e), "data does not decode");
    return false;
  }
  return true;
}

bool IndexReader::CreationValues(const EntityInfo& e, std::string* error) {
  if (creation_entity_ == e.entity) return true;  // ReadState resets it
  creation_values_.clear();
  if (!EachStateValue(
          e,
          [&](uint32_t f, const Value& v) {
            creation_values_.emplace_back(f, v);
            return true;
          },
          error)) {
    return false;
  }
  creation_entity_ = e.entity;
  return true;
}

bool IndexReader::CreationValue(const EntityInfo& e, uint32_t field_id, bool* found,
                                Value* value, std::string* error) {
  *found = false;
  if (!CreationValues(e, error)) return false;
  // EachStateValue checked that the ids ascend.
  auto it = std::lower_bound(
      creation_values_.begin(), creation_values_.end(), field_id,
      [](const std::pair<uint32_t, Value>& fv, uint32_t f) { return fv.first < f; });
  if (it == creation_values_.end() || it->first != field_id) return true;
  *found = true;
  *value = it->second;
  return true;
}

bool IndexReader::OpenChunk(sqlite3_stmt* st, const EntityInfo& e, uint32_t field_id,
                            ChunkReader* r, std::string* error) {
  ++counters_.chunks_read;
  int64_t start = 0;
  if (IntColumn(st, 0, INT64_MIN, INT64_MAX, &start) && r->Open(BlobColumn(st, 1), start)) {
    return true;
  }
  *error = ChunkDamaged(st, e, field_id);
  return false;
}

std::string IndexReader::ChunkDamaged(sqlite3_stmt* st, const EntityInfo& e,
                                      uint32_t field_id) const {
  return Damaged("table changes, entity " + std::to_string(e.entity) + " field_id " +
                     std::to_string(field_id) + " start_tick " + ColumnForMessage(st, 0),
                 "data does not decode");
}

IndexReader::Latest IndexReader::LatestChange(const EntityInfo& e, uint32_t field_id,
                                              int64_t tick, FoundValue* out,
                                              std::string* storage, std::string* error) {
  *out = FoundValue();
  sqlite3_reset(last_chunk_);
  sqlite3_bind_int64(last_chunk_, 1, e.entity);
  sqlite3_bind_int64(last_chunk_, 2, field_id);
  sqlite3_bind_int64(last_chunk_, 3, tick);
  ++counters_.seeks;
  const int rc = sqlite3_step(last_chunk_);
  if (rc != SQLITE_ROW) {
    sqlite3_reset(last_chunk_);
    if (rc == SQLITE_DONE) return Latest::kNone;
    *error = ReadFailed("table changes");
    return Latest::kError;
  }
  ChunkReader r;
  if (!OpenChunk(last_chunk_, e, field_id, &r, error)) {
    sqlite3_reset(last_chunk_);
    return Latest::kError;
  }
  const size_t at_or_before = r.LastAtOrBefore(tick, &out->tick, &out->value);
  counters_.values_decoded += at_or_before;
  out->found = at_or_before > 0;
  if (!r.ok()) {
    *error = ChunkDamaged(last_chunk_, e, field_id);
    sqlite3_reset(last_chunk_);
    return Latest::kError;
  }
  Own(&out->value, storage);  // before the reset: strings point into the row
  sqlite3_reset(last_chunk_);
  return out->found ? Latest::kChange : Latest::kNone;
}

bool IndexReader::ValueAt(const EntityInfo& e, uint32_t field_id, int64_t tick,
                          FoundValue* out, std::string* storage, std::string* error) {
  switch (LatestChange(e, field_id, tick, out, storage, error)) {
    case Latest::kError:
      return false;
    case Latest::kChange:
      if (out->value.is_none()) out->found = false;  // dropped by an array shrink
      return true;
    case Latest::kNone:
      break;
  }
  // No change at or before the tick: the creation state has the value.
  bool found = false;
  Value v;
  if (!CreationValue(e, field_id, &found, &v, error)) return false;
  if (found && !v.is_none()) {
    ++counters_.values_decoded;
    out->found = true;
    out->tick = e.created_tick;
    out->value = v;
    Own(&out->value, storage);
  }
  return true;
}

bool IndexReader::ChangedFields(const EntityInfo& e, std::vector<uint32_t>* out,
                                std::string* error) {
  out->clear();
  int64_t after = -1;
  for (;;) {
    sqlite3_reset(next_field_);
    sqlite3_bind_int64(next_field_, 1, e.entity);
    sqlite3_bind_int64(next_field_, 2, after);
    ++counters_.seeks;
    int rc = sqlite3_step(next_field_);
    if (rc == SQLITE_DONE) break;
    // Each id must be an integer past the last one: anything else (a text
    // or real id sorts past every integer) would be found again forever.
    int64_t id = 0;
    if (rc != SQLITE_ROW || !IntColumn(next_field_, 0, after + 1, UINT32_MAX, &id)) {
      const std::string where = "table changes, entity " + std::to_string(e.entity);
      *error = rc != SQLITE_ROW ? ReadFailed(where)
                                : Damaged(where, "field_id " + ColumnForMessage(next_field_, 0) +
                                                     " is not a field id");
      sqlite3_reset(next_field_);
      return false;
    }
    after = id;
    out->push_back(static_cast<uint32_t>(id));
  }
  sqlite3_reset(next_field_);
  return true;
}

bool IndexReader::FieldsWithValues(const EntityInfo& e, std::vector<uint32_t>* out,
                                   std::string* error) {
  std::vector<uint32_t> changed;
  if (!ChangedFields(e, &changed, error)) return false;
  out->clear();
  // Decoded for CreationValue, which a walk of these fields asks next.
  if (!CreationValues(e, error)) return false;
  for (const auto& [f, v] : creation_values_) out->push_back(f);
  out->insert(out->end(), changed.begin(), changed.end());
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  return true;
}

bool IndexReader::StateAt(const EntityInfo& e, int64_t tick,
                          const std::vector<uint32_t>* only,
                          const std::function<void(uint32_t, const Value&)>& emit,
                          std::string* error) {
  if (WalksKeyframes(only)) {
    return KeyframeStateAt(e, tick, only, emit, error);
  }
  if (only != nullptr) {
    // Named fields: one seek each (and the creation state at most once).
    for (uint32_t f : *only) {
      FoundValue found;
      std::string storage;
      if (!ValueAt(e, f, tick, &found, &storage, error)) return false;
      if (found.found) emit(f, found.value);
    }
    return true;
  }
  // Every field: the creation values, then the latest change of each field
  // that has changes.
  struct Item {
    uint32_t field;
    Value value;          // a creation-state string points into state_blob_
    std::string storage;  // a change's string bytes, when owned
    bool owned;
  };
  std::vector<Item> items;
  if (!EachStateValue(
          e,
          [&](uint32_t f, const Value& v) {
            ++counters_.values_decoded;
            items.push_back({f, v, {}, false});
            return true;
          },
          error)) {
    return false;
  }
  std::vector<uint32_t> changed;
  if (!ChangedFields(e, &changed, error)) return false;
  for (uint32_t f : changed) {
    FoundValue latest;
    std::string storage;
    const Latest got = LatestChange(e, f, tick, &latest, &storage, error);
    if (got == Latest::kError) return false;
    if (got == Latest::kNone) continue;
    // Items stay sorted by field: the creation state is, and changed
    // fields come in ascending order.
    auto it = std::lower_bound(items.begin(), items.end(), f,
                               [](const Item& i, uint32_t field) { return i.field < field; });
    if (it == items.end() || it->field != f) it = items.insert(it, {f, {}, {}, false});
    it->value = latest.value;
    it->storage = std::move(storage);
    it->owned = true;
  }
  for (Item& i : items) {
    // An owned string's bytes are in its storage, which may have moved with
    // the vector: point at it only now.
    if (i.owned && i.value.kind == ValueKind::kString) i.value.s = i.storage;
    if (!i.value.is_none()) emit(i.field, i.value);
  }
  return true;
}

bool IndexReader::Changes(const EntityInfo& e, uint32_t field_id, int64_t lo, int64_t hi,
                          const std::function<void(int64_t, const Value&)>& emit,
                          std::string* error) {
  if (hi < lo) return true;
  // The creation value counts as the first change.
  if (e.created_tick >= lo && e.created_tick <= hi) {
    bool found = false;
    Value v;
    if (!CreationValue(e, field_id, &found, &v, error)) return false;
    if (found && !v.is_none()) emit(e.created_tick, v);
  }
  // Start at the last chunk beginning at or before `lo` (it may reach it).
  int64_t from = INT64_MIN;
  sqlite3_reset(last_chunk_);
  sqlite3_bind_int64(last_chunk_, 1, e.entity);
  sqlite3_bind_int64(last_chunk_, 2, field_id);
  sqlite3_bind_int64(last_chunk_, 3, lo);
  ++counters_.seeks;
  if (sqlite3_step(last_chunk_) == SQLITE_ROW) from = sqlite3_column_int64(last_chunk_, 0);
  sqlite3_reset(last_chunk_);

  sqlite3_reset(chunk_range_);
  sqlite3_bind_int64(chunk_range_, 1, e.entity);
  sqlite3_bind_int64(chunk_range_, 2, field_id);
  sqlite3_bind_int64(chunk_range_, 3, from);
  sqlite3_bind_int64(chunk_range_, 4, hi);
  ++counters_.seeks;
  int rc;
  while ((rc = sqlite3_step(chunk_range_)) == SQLITE_ROW) {
    ChunkReader r;
    if (!OpenChunk(chunk_range_, e, field_id, &r, error)) {
      sqlite3_reset(chunk_range_);
      return false;
    }
    int64_t t;
    Value v;
    while (r.Next(&t, &v)) {
      if (t > hi) break;
      ++counters_.values_decoded;
      if (t >= lo) emit(t, v);
    }
    if (!r.ok()) {
      *error = ChunkDamaged(chunk_range_, e, field_id);
      sqlite3_reset(chunk_range_);
      return false;
    }
  }
  sqlite3_reset(chunk_range_);
  if (rc != SQLITE_DONE) {
    *error = ReadFailed("table changes");
    return false;
  }
  return true;
}

bool IndexReader::Sample(const EntityInfo& e, uint32_t field_id, int64_t first, int64_t last,
                         int64_t step, const std::function<void(int64_t, const Value&)>& emit,
                         std::string* error, const FoundValue* start) {
  if (first > last || step <= 0) return true;
  // The value as of the first tick, then every change up to the last, in
  // tick order: each sampled tick takes the value of the last change at
  // or before it.
  FoundValue current;
  std::string current_bytes;
  if (start != nullptr) {
    current = *start;
    if (current.found && current.value.kind == ValueKind::kString) {
      current_bytes.assign(current.value.s);
      current.value.s = current_bytes;
    }
  } else if (!ValueAt(e, field_id, first, &current, &current_bytes, error)) {
    return false;
  }
  int64_t next = first;
  bool done = false;
  auto flush_before = [&](int64_t tick) {
    while (!done && next < tick) {
      if (current.found) emit(next, current.value);
      // next <= last: their difference fits in 64 unsigned bits.
      if (static_cast<uint64_t>(last) - static_cast<uint64_t>(next) < static_cast<uint64_t>(step)) {
        done = true;
      } else {
        next += step;
      }
    }
  };
  auto apply = [&](int64_t t, const Value& v) {
    flush_before(t);
    current.found = !v.is_none();
    current.value = v;
    if (v.kind == ValueKind::kString) {
      current_bytes.assign(v.s);
      current.value.s = current_bytes;
    }
  };
  if (first < last && !Changes(e, field_id, first + 1, last, apply, error)) return false;
  if (last < INT64_MAX) flush_before(last + 1);
  else flush_before(INT64_MAX);
  return true;
}

void Readers::Anchor() {
  if (connected_ > 0) return;
  // Preparing a statement that names gem_state connects it.
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, "SELECT 1 FROM gem_state LIMIT 0", -1, &st, nullptr) ==
      SQLITE_OK) {
    sqlite3_finalize(st);
  }
}

void Readers::TableDisconnected() {
  if (--connected_ <= 0) {
    connected_ = 0;
    Clear();
  }
}

void Readers::SetKeyframeCacheLimit(size_t bytes) {
  keyframe_cache_limit_ = bytes;
  for (auto& [name, r] : readers_) r->SetKeyframeCacheLimit(bytes);
}

size_t Readers::KeyframeCacheBytes() const {
  size_t bytes = 0;
  for (const auto& [name, r] : readers_) bytes += r->keyframe_cache_bytes();
  return bytes;
}

void Readers::Clear() {
  ReadCounters t = Totals();
  readers_.clear();
  retired_ = t;
}

IndexReader* Readers::Get(std::string_view schema, std::string* error) {
  std::string key(schema.empty() ? "main" : schema);
  auto it = readers_.find(key);
  if (it != readers_.end() && it->second->StillValid()) return it->second.get();
  Anchor();
  auto reader = std::make_unique<IndexReader>(db_, key);
  if (!reader->Open(error)) return nullptr;
  reader->SetKeyframeCacheLimit(keyframe_cache_limit_);
  IndexReader* r = reader.get();
  readers_[key] = std::move(reader);
  return r;
}

ReadCounters Readers::Totals() const {
  ReadCounters t = retired_;
  for (const auto& [name, r] : readers_) {
    const ReadCounters& c = const_cast<IndexReader&>(*r).counters();
    t.seeks += c.seeks;
    t.chunks_read += c.chunks_read;
    t.states_read += c.states_read;
    t.values_decoded += c.values_decoded;
    t.state_walks += c.state_walks;
    t.keyframe_blocks_read += c.keyframe_blocks_read;
    t.keyframe_rows_decoded += c.keyframe_rows_decoded;
    t.keyframes_read += c.keyframes_read;
  }
  return t;
}

}  // namespace gem::sqlext
