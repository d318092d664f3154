#include "sqlext/index_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/codec/chunk_codec.h"
#include "core/codec/index_format.h"
#include "core/codec/state_codec.h"

namespace gem::sqlext {
namespace {

constexpr int32_t kApplicationId = kIndexApplicationId;
constexpr int32_t kSchemaVersion = kIndexSchemaVersion;

std::string Quoted(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string_view Blob(sqlite3_stmt* st, int col) {
  const void* p = sqlite3_column_blob(st, col);
  int n = sqlite3_column_bytes(st, col);
  return p == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(p), n);
}

// Copies a value's string bytes into `storage` so the value outlives the
// statement step it came from.
void Own(Value* v, std::string* storage) {
  if (v->kind != ValueKind::kString) return;
  storage->assign(v->s);
  v->s = *storage;
}

}  // namespace

IndexReader::~IndexReader() {
  for (sqlite3_stmt* st : {last_chunk_, chunk_range_, next_field_, state_, fields_}) {
    if (st != nullptr) sqlite3_finalize(st);
  }
}

std::string IndexReader::Table(const char* name) const { return Quoted(schema_) + "." + name; }

bool IndexReader::Prepare(sqlite3_stmt** st, const std::string& sql, std::string* error) {
  if (*st != nullptr) return true;
  if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, st, nullptr) !=
      SQLITE_OK) {
    *error = "gem: cannot read the index in schema '" + schema_ + "': " + sqlite3_errmsg(db_);
    *st = nullptr;
    return false;
  }
  return true;
}

bool IndexReader::StillValid() const {
  const char* f = sqlite3_db_filename(db_, schema_.c_str());
  return f != nullptr && filename_ == f;
}

bool IndexReader::Open(std::string* error) {
  if (opened_) return true;
  const char* f = sqlite3_db_filename(db_, schema_.c_str());
  if (f == nullptr) {
    *error = "gem: no database is attached as '" + schema_ + "'";
    return false;
  }
  filename_ = f;
  const std::string where = "'" + schema_ + "'" + (filename_.empty() ? "" : " (" + filename_ + ")");

  sqlite3_stmt* st = nullptr;
  int64_t app_id = 0, version = 0;
  if (!Prepare(&st, "PRAGMA " + Quoted(schema_) + ".application_id", error)) return false;
  if (sqlite3_step(st) == SQLITE_ROW) app_id = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  st = nullptr;
  if (app_id != kApplicationId) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%08llX", static_cast<unsigned long long>(app_id));
    *error = "gem: " + where + " is not a gem index (application_id " + hex +
             ", a gem index has 0x47454D31; write one with gem-index)";
    return false;
  }
  if (!Prepare(&st, "PRAGMA " + Quoted(schema_) + ".user_version", error)) return false;
  if (sqlite3_step(st) == SQLITE_ROW) version = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  st = nullptr;
  if (version != kSchemaVersion) {
    *error = "gem: " + where + " is a gem index of schema version " + std::to_string(version) +
             "; this extension reads version " + std::to_string(kSchemaVersion);
    return false;
  }

  if (!Prepare(&st,
               "SELECT entity, ent_index, serial, class_id, created_tick, deleted_tick FROM " +
                   Table("entities") + " ORDER BY entity",
               error)) {
    return false;
  }
  entities_.clear();
  while (sqlite3_step(st) == SQLITE_ROW) {
    EntityInfo e;
    e.entity = sqlite3_column_int64(st, 0);
    e.ent_index = sqlite3_column_int(st, 1);
    e.serial = sqlite3_column_int(st, 2);
    e.class_id = sqlite3_column_int(st, 3);
    e.created_tick = sqlite3_column_int64(st, 4);
    if (sqlite3_column_type(st, 5) != SQLITE_NULL) e.deleted_tick = sqlite3_column_int64(st, 5);
    entities_.push_back(e);
  }
  sqlite3_finalize(st);
  st = nullptr;

  // Facts of the replay: where its ticks end, how positions are counted.
  if (!Prepare(&st,
               "SELECT key, value FROM " + Table("meta") +
                   " WHERE key IN ('last_tick', 'cell_width', 'world_offset')",
               error)) {
    return false;
  }
  while (sqlite3_step(st) == SQLITE_ROW) {
    const unsigned char* key_text = sqlite3_column_text(st, 0);
    if (key_text == nullptr) continue;
    const std::string key = reinterpret_cast<const char*>(key_text);
    if (sqlite3_column_type(st, 1) != SQLITE_INTEGER &&
        sqlite3_column_type(st, 1) != SQLITE_FLOAT) {
      continue;
    }
    const double v = sqlite3_column_double(st, 1);
    if (key == "last_tick" && sqlite3_column_type(st, 1) == SQLITE_INTEGER) {
      last_tick_ = sqlite3_column_int64(st, 1);
    } else if (key == "cell_width" && v > 0 && v <= 65536) {
      cell_width_ = v;
    } else if (key == "world_offset" && std::abs(v) <= 1e9) {
      world_offset_ = v;
    }
  }
  sqlite3_finalize(st);
  st = nullptr;

  if (!Prepare(&st, "SELECT class_id, name FROM " + Table("classes"), error)) return false;
  classes_.clear();
  while (sqlite3_step(st) == SQLITE_ROW) {
    int32_t id = sqlite3_column_int(st, 0);
    if (id < 0 || id > (1 << 20)) continue;
    if (static_cast<size_t>(id) >= classes_.size()) classes_.resize(id + 1);
    classes_[id].class_id = id;
    const unsigned char* name = sqlite3_column_text(st, 1);
    classes_[id].name = name ? reinterpret_cast<const char*>(name) : "";
  }
  sqlite3_finalize(st);

  const std::string changes = Table("changes");
  if (!Prepare(&last_chunk_,
               "SELECT start_tick, data FROM " + changes +
                   " WHERE entity = ?1 AND field_id = ?2 AND start_tick <= ?3"
                   " ORDER BY start_tick DESC, seq DESC LIMIT 1",
               error) ||
      !Prepare(&chunk_range_,
               "SELECT start_tick, data FROM " + changes +
                   " WHERE entity = ?1 AND field_id = ?2 AND start_tick >= ?3 AND start_tick <= ?4"
                   " ORDER BY start_tick, seq",
               error) ||
      !Prepare(&next_field_,
               "SELECT field_id FROM " + changes +
                   " WHERE entity = ?1 AND field_id > ?2 ORDER BY field_id LIMIT 1",
               error) ||
      !Prepare(&state_, "SELECT data, base FROM " + Table("entity_states") + " WHERE entity = ?1",
               error) ||
      !Prepare(&fields_,
               "SELECT field_id, name, path, type FROM " + Table("fields") +
                   " WHERE class_id = ?1 ORDER BY field_id",
               error)) {
    return false;
  }
  opened_ = true;
  return true;
}

const EntityInfo* IndexReader::Entity(int64_t id) const {
  // Ids are 1, 2, 3, ... in order; look where it should be, then search.
  if (id >= 1 && static_cast<size_t>(id) <= entities_.size() &&
      entities_[id - 1].entity == id) {
    return &entities_[id - 1];
  }
  auto it = std::lower_bound(entities_.begin(), entities_.end(), id,
                             [](const EntityInfo& e, int64_t v) { return e.entity < v; });
  return it != entities_.end() && it->entity == id ? &*it : nullptr;
}

ClassInfoRow* IndexReader::Class(int32_t class_id) {
  if (class_id < 0 || static_cast<size_t>(class_id) >= classes_.size()) return nullptr;
  return classes_[class_id].class_id == class_id ? &classes_[class_id] : nullptr;
}

bool IndexReader::LoadFields(ClassInfoRow* c, std::string* error) {
  if (c->fields_loaded) return true;
  sqlite3_reset(fields_);
  sqlite3_bind_int(fields_, 1, c->class_id);
  int rc;
  while ((rc = sqlite3_step(fields_)) == SQLITE_ROW) {
    FieldInfo f;
    f.field_id = static_cast<uint32_t>(sqlite3_column_int64(fields_, 0));
    auto text = [&](int col) {
      const unsigned char* p = sqlite3_column_text(fields_, col);
      return std::string(p ? reinterpret_cast<const char*>(p) : "");
    };
    f.name = text(1);
    f.path = text(2);
    f.type = text(3);
    if (f.field_id >= c->fields.size()) c->fields.resize(f.field_id + 1);
    c->by_name[f.name] = f.field_id;
    c->fields[f.field_id] = std::move(f);
  }
  sqlite3_reset(fields_);
  if (rc != SQLITE_DONE) {
    *error = std::string("gem: cannot read fields: ") + sqlite3_errmsg(db_);
    return false;
  }
  c->fields_loaded = true;
  return true;
}

bool IndexReader::ReadState(const EntityInfo& e, std::string* error) {
  if (state_entity_ == e.entity) return true;
  state_entity_ = -1;  // until state_blob_ holds e's state
  sqlite3_reset(state_);
  sqlite3_bind_int64(state_, 1, e.entity);
  int rc = sqlite3_step(state_);
  if (rc == SQLITE_ROW && sqlite3_column_type(state_, 1) != SQLITE_NULL) {
    // A difference from another entity's (whole) state: merge the two.
    diff_blob_.assign(Blob(state_, 0));
    const int64_t base = sqlite3_column_int64(state_, 1);
    sqlite3_reset(state_);
    sqlite3_bind_int64(state_, 1, base);
    rc = sqlite3_step(state_);
    if (rc != SQLITE_ROW || sqlite3_column_type(state_, 1) != SQLITE_NULL ||
        !MergeStates(Blob(state_, 0), diff_blob_, &state_blob_)) {
      *error = "gem: an entity state is damaged";
      sqlite3_reset(state_);
      return false;
    }
  } else if (rc == SQLITE_ROW) {
    state_blob_.assign(Blob(state_, 0));
  } else if (rc == SQLITE_DONE) {
    state_blob_.clear();
  } else {
    *error = std::string("gem: cannot read an entity state: ") + sqlite3_errmsg(db_);
    sqlite3_reset(state_);
    return false;
  }
  sqlite3_reset(state_);
  state_entity_ = e.entity;
  ++counters_.states_read;
  return true;
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
    *error = std::string("gem: cannot read changes: ") + sqlite3_errmsg(db_);
    return Latest::kError;
  }
  ChunkReader r;
  ++counters_.chunks_read;
  bool ok = r.Open(Blob(last_chunk_, 1), sqlite3_column_int64(last_chunk_, 0));
  int64_t t;
  Value v;
  while (ok && r.Next(&t, &v)) {
    if (t > tick) break;
    ++counters_.values_decoded;
    out->found = true;
    out->tick = t;
    out->value = v;
  }
  if (!ok || !r.ok()) {
    *error = "gem: a changes row is damaged";
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
  if (!ReadState(e, error)) return false;
  if (state_blob_.empty()) return true;  // no creation state recorded
  StateReader sr;
  if (!sr.Open(state_blob_)) {
    *error = "gem: an entity state is damaged";
    return false;
  }
  uint32_t f;
  Value v;
  while (sr.Next(&f, &v)) {
    if (f == field_id) {
      ++counters_.values_decoded;
      if (!v.is_none()) {
        out->found = true;
        out->tick = e.created_tick;
        out->value = v;
        Own(&out->value, storage);
      }
      return true;
    }
    if (f > field_id) break;
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
    if (rc != SQLITE_ROW) {
      *error = std::string("gem: cannot read changes: ") + sqlite3_errmsg(db_);
      sqlite3_reset(next_field_);
      return false;
    }
    after = sqlite3_column_int64(next_field_, 0);
    out->push_back(static_cast<uint32_t>(after));
  }
  sqlite3_reset(next_field_);
  return true;
}

bool IndexReader::FieldsWithValues(const EntityInfo& e, std::vector<uint32_t>* out,
                                   std::string* error) {
  std::vector<uint32_t> changed;
  if (!ChangedFields(e, &changed, error) || !ReadState(e, error)) return false;
  out->clear();
  if (!state_blob_.empty()) {
    StateReader sr;
    if (!sr.Open(state_blob_)) {
      *error = "gem: an entity state is damaged";
      return false;
    }
    uint32_t f;
    Value v;
    while (sr.Next(&f, &v)) out->push_back(f);
  }
  out->insert(out->end(), changed.begin(), changed.end());
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  return true;
}

bool IndexReader::StateAt(const EntityInfo& e, int64_t tick,
                          const std::vector<uint32_t>* only,
                          const std::function<void(uint32_t, const Value&)>& emit,
                          std::string* error) {
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
  if (!ReadState(e, error)) return false;
  if (!state_blob_.empty()) {
    StateReader sr;
    if (!sr.Open(state_blob_)) {
      *error = "gem: an entity state is damaged";
      return false;
    }
    uint32_t f;
    Value v;
    while (sr.Next(&f, &v)) {
      ++counters_.values_decoded;
      items.push_back({f, v, {}, false});
    }
    if (!sr.ok()) {
      *error = "gem: an entity state is damaged";
      return false;
    }
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
    if (!ReadState(e, error)) return false;
    StateReader sr;
    if (!state_blob_.empty() && sr.Open(state_blob_)) {
      uint32_t f;
      Value v;
      while (sr.Next(&f, &v)) {
        if (f == field_id) {
          if (!v.is_none()) emit(e.created_tick, v);
          break;
        }
        if (f > field_id) break;
      }
    }
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
    ++counters_.chunks_read;
    if (!r.Open(Blob(chunk_range_, 1), sqlite3_column_int64(chunk_range_, 0))) {
      *error = "gem: a changes row is damaged";
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
  }
  sqlite3_reset(chunk_range_);
  if (rc != SQLITE_DONE) {
    *error = std::string("gem: cannot read changes: ") + sqlite3_errmsg(db_);
    return false;
  }
  return true;
}

bool IndexReader::Sample(const EntityInfo& e, uint32_t field_id, int64_t first, int64_t last,
                         int64_t step, const std::function<void(int64_t, const Value&)>& emit,
                         std::string* error) {
  if (first > last || step <= 0) return true;
  // The value as of the first tick, then every change up to the last, in
  // tick order: each sampled tick takes the value of the last change at
  // or before it.
  FoundValue current;
  std::string current_bytes;
  if (!ValueAt(e, field_id, first, &current, &current_bytes, error)) return false;
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
  }
  return t;
}

}  // namespace gem::sqlext
