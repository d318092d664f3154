#include "sqlext/tail.h"

#include <algorithm>

#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"
#include "sqlext/index_columns.h"

namespace gem::sqlext {
namespace {

TailEntity::Held Hold(const Value& v) {
  TailEntity::Held h;
  h.value = v;
  if (v.kind == ValueKind::kString) h.bytes.assign(v.s);
  return h;
}

}  // namespace

bool TailEntity::Build(const std::vector<std::pair<int64_t, std::string>>& rows, int64_t k,
                       std::string_view creation, std::string* what) {
  state.clear();
  changes.clear();
  std::string_view state_blob = creation;
  size_t first = 0;
  if (!rows.empty() && rows[0].first == 0) {
    KeyframeReader r;
    if (!r.Open(rows[0].second, k) || r.born() || r.delta() || r.later_count() != 0) {
      *what = "seq 0 is not a state row";
      return false;
    }
    state_blob = r.state();
    first = 1;
  }
  if (!state_blob.empty()) {
    StateReader sr;
    uint32_t f;
    Value v;
    if (!sr.Open(state_blob)) {
      *what = "its state does not decode";
      return false;
    }
    while (sr.Next(&f, &v)) {
      if (!v.is_none()) state.emplace_back(f, Hold(v));
    }
    if (!sr.ok()) {
      *what = "its state does not decode";
      return false;
    }
  }
  for (size_t i = first; i < rows.size(); ++i) {
    KeyframeReader r;
    if (!r.Open(rows[i].second, k) || !r.delta()) {
      *what = "seq " + std::to_string(rows[i].first) + " is not a delta row";
      return false;
    }
    uint32_t field;
    bool runs;
    uint64_t count;
    while (r.NextLater(&field, &runs, &count)) {
      if (runs) {
        *what = "seq " + std::to_string(rows[i].first) + " names runs";
        return false;
      }
      int64_t tick;
      Value v;
      while (r.NextLogged(&tick, &v)) changes.push_back({field, tick, Hold(v)});
    }
    if (!r.ok()) {
      *what = "seq " + std::to_string(rows[i].first) + " does not decode";
      return false;
    }
  }
  // By field, each field's changes in row order (their ticks ascend).
  std::stable_sort(changes.begin(), changes.end(),
                   [](const Change& a, const Change& b) { return a.field < b.field; });
  for (size_t i = 1; i < changes.size(); ++i) {
    if (changes[i].field == changes[i - 1].field && changes[i].tick < changes[i - 1].tick) {
      *what = "the changes of field " + std::to_string(changes[i].field) + " do not ascend";
      return false;
    }
  }
  return true;
}

void TailEntity::StateAt(int64_t tick, std::vector<std::pair<uint32_t, Value>>* out) const {
  out->clear();
  size_t s = 0, c = 0;
  while (s < state.size() || c < changes.size()) {
    const uint32_t sf = s < state.size() ? state[s].first : UINT32_MAX;
    const uint32_t cf = c < changes.size() ? changes[c].field : UINT32_MAX;
    const uint32_t f = std::min(sf, cf);
    Value held;
    bool have = false;
    if (sf == f) {
      held = state[s++].second.get();
      have = true;
    }
    for (; c < changes.size() && changes[c].field == f; ++c) {
      if (changes[c].tick > tick) continue;
      held = changes[c].value.get();
      have = !held.is_none();
    }
    if (have) out->emplace_back(f, held);
  }
}

bool TailValue(const TailEntity& t, uint32_t field, int64_t tick, FoundValue* out,
               std::string* storage) {
  *out = FoundValue();
  const Value* v = nullptr;
  int64_t at = 0;
  auto s = std::lower_bound(t.state.begin(), t.state.end(), field,
                            [](const auto& e, uint32_t f) { return e.first < f; });
  Value state_value;
  if (s != t.state.end() && s->first == field) {
    state_value = s->second.get();
    v = &state_value;
  }
  auto c = std::lower_bound(t.changes.begin(), t.changes.end(), field,
                            [](const TailEntity::Change& e, uint32_t f) { return e.field < f; });
  Value change_value;
  for (; c != t.changes.end() && c->field == field && c->tick <= tick; ++c) {
    change_value = c->value.get();
    v = &change_value;
    at = c->tick;
  }
  if (v == nullptr || v->is_none()) return true;
  out->found = true;
  out->tick = at;
  out->value = *v;
  if (out->value.kind == ValueKind::kString) {
    storage->assign(out->value.s);
    out->value.s = *storage;
  }
  return true;
}

void TailFields(const TailEntity& t, std::vector<uint32_t>* out) {
  for (const TailEntity::Change& c : t.changes) {
    if (out->empty() || out->back() != c.field) out->push_back(c.field);
  }
}

void TailChanges(const TailEntity& t, uint32_t field, int64_t lo, int64_t hi,
                 const std::function<void(int64_t, const Value&)>& emit) {
  auto c = std::lower_bound(t.changes.begin(), t.changes.end(), field,
                            [](const TailEntity::Change& e, uint32_t f) { return e.field < f; });
  for (; c != t.changes.end() && c->field == field; ++c) {
    if (c->tick >= lo && c->tick <= hi) emit(c->tick, c->value.get());
  }
}

bool IndexReader::LoadTail(std::string* error) {
  if (tail_loaded_) return true;
  // The whole tail at once: it is keyed by commit (a commit appends its
  // rows), so one entity's rows are spread through it.
  tail_rows_.clear();
  sqlite3_reset(tail_);
  ++counters_.seeks;
  int rc;
  while ((rc = sqlite3_step(tail_)) == SQLITE_ROW) {
    int64_t seq = 0, entity = 0, part = 0, tick = 0;
    if (!IntColumn(tail_, 0, 0, INT64_MAX, &seq) || !IntColumn(tail_, 1, 1, INT64_MAX, &entity) ||
        !IntColumn(tail_, 2, 0, INT64_MAX, &part) ||
        !IntColumn(tail_, 3, INT64_MIN, INT64_MAX, &tick) ||
        sqlite3_column_type(tail_, 4) != SQLITE_BLOB) {
      sqlite3_reset(tail_);
      *error = Damaged("table tail", "a row is not (seq, entity, part, tick, data)");
      return false;
    }
    TailRow& row = tail_rows_[entity].emplace_back();
    row.seq = seq;
    row.tick = tick;
    row.data.assign(BlobColumn(tail_, 4));
  }
  sqlite3_reset(tail_);
  if (rc != SQLITE_DONE) {
    *error = ReadFailed("table tail");
    return false;
  }
  tail_loaded_ = true;
  return true;
}

bool IndexReader::Tail(const EntityInfo& e, std::shared_ptr<const TailEntity>* out,
                       std::string* error) {
  if (auto it = tails_.find(e.entity); it != tails_.end()) {
    *out = it->second;
    return true;
  }
  if (!LoadTail(error)) return false;
  const std::string where = "table tail, entity " + std::to_string(e.entity);
  std::vector<std::pair<int64_t, std::string>> rows;
  int64_t k = open_tick_;
  if (auto it = tail_rows_.find(e.entity); it != tail_rows_.end()) {
    for (const TailRow& row : it->second) {
      rows.emplace_back(row.seq, row.data);
      k = row.tick;
    }
  }
  // Alive at the open interval's keyframe tick: its state there is the
  // tail's (seq 0), not its creation state.
  if (keyframe_interval_ > 0 && e.created_tick <= open_tick_ &&
      (rows.empty() || rows[0].first != 0)) {
    *error = Damaged(where, "no state at tick " + std::to_string(open_tick_));
    return false;
  }
  std::string_view creation;
  if (!CreationState(e, &creation, error)) return false;
  auto t = std::make_shared<TailEntity>();
  std::string what;
  if (!t->Build(rows, k, creation, &what)) {
    *error = Damaged(where, what);
    return false;
  }
  tails_[e.entity] = t;
  *out = std::move(t);
  return true;
}

}  // namespace gem::sqlext
