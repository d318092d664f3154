#include "sqlext/index_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/codec/chunk_codec.h"
#include "core/codec/state_codec.h"
#include "sqlext/index_columns.h"
#include "sqlext/tail.h"

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
  for (sqlite3_stmt* st : {page_, tail_, state_, fields_, keyframe_}) {
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

void IndexReader::StateInterval(int64_t tick, int64_t* slot, int64_t* k) const {
  if (keyframe_interval_ <= 0) {
    *slot = 0;
    *k = -1;
    return;
  }
  // Past the last tick the rows cover, the last row (nothing changes
  // after it).
  *k = KeyframeTickOf(std::max<int64_t>(std::min(tick, keyframe_last_tick_), -1),
                      keyframe_interval_);
  *slot = KeyframeSlot(*k, keyframe_interval_);
}

int64_t IndexReader::SlotTick(int64_t slot) const {
  // (A slot at or below one of a tick: its keyframe tick fits.)
  return keyframe_interval_ <= 0 ? -1 : (slot - 1) * keyframe_interval_;
}

void IndexReader::ChangeInterval(int64_t tick, int64_t* slot, int64_t* k) const {
  if (keyframe_interval_ <= 0) {
    *slot = 0;
    *k = -1;
    return;
  }
  // An interval holds the changes of (K, K + E].
  const int64_t t = std::max<int64_t>(std::min(tick, keyframe_last_tick_), -1);
  *k = KeyframeTickOf(t - 1, keyframe_interval_);
  *slot = KeyframeSlot(*k, keyframe_interval_);
}

std::string IndexReader::RunDamaged(const EntityInfo& e, uint32_t field_id,
                                    const KeyframeRows::Run& run, const std::string& what) const {
  return Damaged("table changes, id " + std::to_string(run.page) + " (entity " +
                     std::to_string(e.entity) + " field_id " + std::to_string(field_id) +
                     ", a run at offset " + std::to_string(run.offset) + ")",
                 what);
}

bool IndexReader::OpenRun(const EntityInfo& e, uint32_t field_id, int64_t k,
                          const KeyframeRows::Run& run, ChunkReader* r, std::string* error) {
  if (pages_.empty()) pages_.resize(kPageSlots);
  PageSlot& slot = pages_[static_cast<uint64_t>(run.page) % kPageSlots];
  if (slot.id != run.page) {
    slot.id = 0;
    sqlite3_reset(page_);
    sqlite3_bind_int64(page_, 1, run.page);
    ++counters_.seeks;
    const int rc = sqlite3_step(page_);
    if (rc != SQLITE_ROW) {
      sqlite3_reset(page_);
      *error = rc == SQLITE_DONE ? RunDamaged(e, field_id, run, "no such row")
                                 : ReadFailed("table changes, id " + std::to_string(run.page));
      return false;
    }
    if (sqlite3_column_type(page_, 0) != SQLITE_BLOB) {
      sqlite3_reset(page_);
      *error = RunDamaged(e, field_id, run, "data is not a blob");
      return false;
    }
    slot.data.assign(BlobColumn(page_, 0));
    sqlite3_reset(page_);
    slot.id = run.page;
    ++counters_.pages_read;
  }
  ++counters_.chunks_read;
  const uint64_t end = uint64_t{run.offset} + run.length;
  if (end > slot.data.size()) {
    *error = RunDamaged(e, field_id, run, "the run passes the row's end");
    return false;
  }
  const int64_t first = static_cast<int64_t>(static_cast<uint64_t>(k) + run.tick);
  if (!r->Open(std::string_view(slot.data).substr(run.offset, run.length), first)) {
    *error = RunDamaged(e, field_id, run, "data does not decode");
    return false;
  }
  return true;
}

namespace {

// The later field `field` of a decoded row, or null.
const KeyframeRows::Later* FindLater(const KeyframeRows& rows, const KeyframeRows::Row& row,
                                     uint32_t field) {
  uint32_t lo = row.later.begin, hi = row.later.end;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (rows.later(mid).field < field) lo = mid + 1; else hi = mid;
  }
  return lo < row.later.end && rows.later(lo).field == field ? &rows.later(lo) : nullptr;
}

// The state value of `field` in a decoded row, or null.
const KeyframeRows::Entry* FindState(const KeyframeRows& rows, const KeyframeRows::Row& row,
                                     uint32_t field) {
  uint32_t lo = row.state.begin, hi = row.state.end;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (rows.state(mid).field < field) lo = mid + 1; else hi = mid;
  }
  return lo < row.state.end && rows.state(lo).field == field ? &rows.state(lo) : nullptr;
}

}  // namespace

bool IndexReader::LatestValue(const EntityInfo& e, uint32_t field_id, int64_t tick,
                              FoundValue* out, std::string* storage, std::string* error) {
  *out = FoundValue();
  if (InTail(tick)) {
    std::shared_ptr<const TailEntity> tail;
    if (!Tail(e, &tail, error)) return false;
    return TailValue(*tail, field_id, tick, out, storage);
  }
  int64_t slot, k;
  StateInterval(tick, &slot, &k);
  std::shared_ptr<const KeptBlock> block;
  const KeyframeRows::Row* row = nullptr;
  if (!KeyframeRow(e, slot, k, &block, &row, error)) return false;
  ++counters_.keyframes_read;
  const KeyframeRows& rows = block->rows;
  const uint64_t offset = static_cast<uint64_t>(tick) - static_cast<uint64_t>(k);
  Value v;
  if (const KeyframeRows::Later* l = FindLater(rows, *row, field_id); l != nullptr) {
    if (!l->runs()) {
      if (rows.LatestLogged(*l, offset, &v)) {
        ++counters_.values_decoded;
        out->found = !v.is_none();
        out->tick = tick;
        out->value = v;
        Own(&out->value, storage);
        return true;
      }
    } else if (const int64_t i = rows.LatestRun(*l, offset); i >= 0) {
      const KeyframeRows::Run& run = rows.run(static_cast<uint32_t>(i));
      ChunkReader r;
      if (!OpenRun(e, field_id, k, run, &r, error)) return false;
      const size_t n = r.LastAtOrBefore(tick, &out->tick, &out->value);
      counters_.values_decoded += n;
      if (!r.ok() || n == 0) {
        *error = RunDamaged(e, field_id, run, "data does not decode");
        return false;
      }
      out->found = !out->value.is_none();
      Own(&out->value, storage);
      return true;
    }
  }
  if (const KeyframeRows::Entry* st = FindState(rows, *row, field_id); st != nullptr) {
    rows.Get(*st, &out->value);
    ++counters_.values_decoded;
    out->found = true;
    out->tick = k;
    Own(&out->value, storage);
  }
  return true;
}

bool IndexReader::ValueAt(const EntityInfo& e, uint32_t field_id, int64_t tick,
                          FoundValue* out, std::string* storage, std::string* error) {
  return LatestValue(e, field_id, tick, out, storage, error);
}

bool IndexReader::FieldsWithValues(const EntityInfo& e, int64_t lo, int64_t hi,
                                   std::vector<uint32_t>* out, std::string* error) {
  out->clear();
  const int64_t end = e.deleted_tick == INT64_MAX ? keyframe_last_tick_ : e.deleted_tick;
  lo = std::max(lo, e.created_tick);
  hi = std::min(hi, end);
  if (hi < lo) return true;
  // The creation state's fields, and those of every row from the one
  // holding the changes at lo (or the state there: the same or the next)
  // to the one holding the changes at hi: each row's state (as of its
  // keyframe tick, merged with the creation state when born) and the
  // fields that change in it.
  if (!CreationValues(e, error)) return false;
  for (const auto& [f, v] : creation_values_) out->push_back(f);
  int64_t slot, k, last_slot, last_k;
  ChangeInterval(lo, &slot, &k);
  ChangeInterval(hi, &last_slot, &last_k);
  for (; slot <= last_slot; ++slot) {
    k = SlotTick(slot);
    if (InTail(k)) break;  // the tail's, below
    std::shared_ptr<const KeptBlock> block;
    const KeyframeRows::Row* row = nullptr;
    if (!KeyframeRow(e, slot, k, &block, &row, error)) return false;
    for (uint32_t i = row->state.begin; i < row->state.end; ++i) {
      out->push_back(block->rows.state(i).field);
    }
    for (uint32_t i = row->later.begin; i < row->later.end; ++i) {
      out->push_back(block->rows.later(i).field);
    }
    if (keyframe_interval_ <= 0) break;
  }
  if (live_ && hi >= open_tick_) {
    std::shared_ptr<const TailEntity> tail;
    if (!Tail(e, &tail, error)) return false;
    for (const auto& [f, v] : tail->state) out->push_back(f);
    TailFields(*tail, out);
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  return true;
}

bool IndexReader::StateAt(const EntityInfo& e, int64_t tick,
                          const std::vector<uint32_t>* only,
                          const std::function<void(uint32_t, const Value&)>& emit,
                          std::string* error) {
  if (!WalksKeyframes(only)) {
    // A few named fields: each on its own.
    for (uint32_t f : *only) {
      FoundValue found;
      std::string storage;
      if (!ValueAt(e, f, tick, &found, &storage, error)) return false;
      if (found.found) emit(f, found.value);
    }
    return true;
  }
  KeyframeWalk walk;
  if (!walk.Start(this, e, tick, only, error)) return false;
  uint32_t field;
  Value v;
  for (;;) {
    switch (walk.Next(&field, &v, error)) {
      case KeyframeWalk::Step::kField: emit(field, v); break;
      case KeyframeWalk::Step::kEnd: return true;
      case KeyframeWalk::Step::kError: return false;
    }
  }
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
  // The entity's intervals that hold changes in [lo, hi] (no change comes
  // before its creation or after its deletion).
  const int64_t from = std::max(lo, e.created_tick);
  const int64_t to =
      std::min(hi, e.deleted_tick == INT64_MAX ? keyframe_last_tick_ : e.deleted_tick);
  if (to < from) return true;
  int64_t slot, k, last_slot, last_k;
  ChangeInterval(from, &slot, &k);
  ChangeInterval(to, &last_slot, &last_k);
  for (; slot <= last_slot; ++slot) {
    k = SlotTick(slot);
    if (live_ && k >= open_tick_) break;  // the tail's, below
    std::shared_ptr<const KeptBlock> block;
    const KeyframeRows::Row* row = nullptr;
    if (!KeyframeRow(e, slot, k, &block, &row, error)) return false;
    ++counters_.keyframes_read;
    const KeyframeRows& rows = block->rows;
    const KeyframeRows::Later* l = FindLater(rows, *row, field_id);
    if (l != nullptr && !l->runs()) {
      rows.ForEachLogged(*l, [&](uint32_t offset, const Value& v) {
        const int64_t t = static_cast<int64_t>(static_cast<uint64_t>(k) + offset);
        ++counters_.values_decoded;
        if (t >= lo && t <= hi) emit(t, v);
      });
    } else if (l != nullptr) {
      // The runs from the last one starting at or before `lo` on.
      const uint64_t lo_offset =
          lo > k ? static_cast<uint64_t>(lo) - static_cast<uint64_t>(k) : 0;
      int64_t i = rows.LatestRun(*l, lo_offset);
      if (i < 0) i = l->begin;
      for (; i < static_cast<int64_t>(l->begin + l->count()); ++i) {
        const KeyframeRows::Run& run = rows.run(static_cast<uint32_t>(i));
        if (static_cast<int64_t>(static_cast<uint64_t>(k) + run.tick) > hi) break;
        ChunkReader r;
        if (!OpenRun(e, field_id, k, run, &r, error)) return false;
        int64_t t;
        Value v;
        while (r.Next(&t, &v)) {
          if (t > hi) break;
          ++counters_.values_decoded;
          if (t >= lo) emit(t, v);
        }
        if (!r.ok()) {
          *error = RunDamaged(e, field_id, run, "data does not decode");
          return false;
        }
      }
    }
    if (keyframe_interval_ <= 0) break;
  }
  if (live_ && to > open_tick_) {
    std::shared_ptr<const TailEntity> tail;
    if (!Tail(e, &tail, error)) return false;
    TailChanges(*tail, field_id, lo, hi, emit);
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
    t.pages_read += c.pages_read;
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
