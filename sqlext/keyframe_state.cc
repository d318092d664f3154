// IndexReader::KeyframeStateAt: the state of an entity at a tick from its
// keyframe row (core/codec/keyframe_codec.h), found in its block
// (keyframe_block.h; the reader keeps the blocks it read): the row's
// state, or its creation state, overridden by the later fields' values as
// of the tick.
#include <algorithm>
#include <memory>

#include "core/codec/chunk_codec.h"
#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"
#include "sqlext/index_columns.h"
#include "sqlext/index_reader.h"

namespace gem::sqlext {

std::string IndexReader::KeyframeKeyText(const EntityInfo& e, int64_t keyframe_tick) const {
  return "table keyframes, entity " + std::to_string(e.entity) + " tick " +
         std::to_string(keyframe_tick);
}

const KeyframeBlock* IndexReader::CachedBlock(int64_t slot, int64_t entity) const {
  int64_t key = 0;
  if (!KeyframeBlockKey(slot, entity, &key)) return nullptr;
  // Blocks of one slot cover disjoint runs of entities: the one that may
  // hold `entity` has the largest key at or below its own.
  auto it = kf_blocks_.upper_bound(key);
  if (it == kf_blocks_.begin()) return nullptr;
  --it;
  const bool holds = (it->first >> kKeyframeEntityBits) == slot &&
                     entity <= it->second->last_entity();
  return holds ? it->second.get() : nullptr;
}

bool IndexReader::KeyframeRow(const EntityInfo& e, int64_t slot, int64_t k,
                              std::string_view* row, std::string* error) {
  const KeyframeBlock* block = CachedBlock(slot, e.entity);
  if (block == nullptr) {
    int64_t low = 0, high = 0;
    if (!KeyframeBlockKey(slot, 0, &low) || !KeyframeBlockKey(slot, e.entity, &high)) {
      *error = Damaged(KeyframeKeyText(e, k), "the entity and tick have no row key");
      return false;
    }
    sqlite3_reset(keyframe_);
    sqlite3_bind_int64(keyframe_, 1, low);
    sqlite3_bind_int64(keyframe_, 2, high);
    ++counters_.seeks;
    ++counters_.keyframe_blocks_read;
    const int rc = sqlite3_step(keyframe_);
    // The block is copied (decompressed) out of the row before the reset.
    struct Reset {
      sqlite3_stmt* st;
      ~Reset() { sqlite3_reset(st); }
    } reset{keyframe_};
    if (rc != SQLITE_ROW) {
      *error = rc == SQLITE_DONE ? Damaged(KeyframeKeyText(e, k), "no row (the entity is alive)")
                                 : ReadFailed(KeyframeKeyText(e, k));
      return false;
    }
    const int64_t key = sqlite3_column_int64(keyframe_, 0);
    const int64_t first = key & ((int64_t{1} << kKeyframeEntityBits) - 1);
    auto read = std::make_unique<KeyframeBlock>();
    if (sqlite3_column_type(keyframe_, 1) != SQLITE_INTEGER ||
        sqlite3_column_type(keyframe_, 2) != SQLITE_BLOB ||
        !read->Open(BlobColumn(keyframe_, 2), first, &kf_decompressor_) ||
        read->last_entity() != sqlite3_column_int64(keyframe_, 1)) {
      *error = Damaged("table keyframes, key " + std::to_string(key), "data does not decode");
      return false;
    }
    const size_t bytes = read->bytes();
    if (kf_blocks_bytes_ + bytes > kKeyframeCacheBytes) {
      // Full: start again (no row of a block kept is in use between calls).
      kf_blocks_.clear();
      kf_blocks_bytes_ = 0;
    }
    // (A key already kept is a block found again for an entity past its
    // end: Find below says it has no such row.)
    auto [at, added] = kf_blocks_.try_emplace(key, std::move(read));
    if (added) kf_blocks_bytes_ += bytes;
    block = at->second.get();
  }
  if (!block->Find(e.entity, row)) {
    *error = Damaged(KeyframeKeyText(e, k), "no row (the entity is alive)");
    return false;
  }
  return true;
}

bool IndexReader::KeyframeStateAt(const EntityInfo& e, int64_t tick,
                                  const std::vector<uint32_t>* only,
                                  const std::function<void(uint32_t, const Value&)>& emit,
                                  std::string* error) {
  auto wanted = [only](uint32_t f) {
    return only == nullptr || std::binary_search(only->begin(), only->end(), f);
  };
  // The row of the interval holding the tick; past the last tick the
  // keyframes cover, the last row (nothing changes after it).
  const int64_t k = KeyframeTickOf(std::min(tick, keyframe_last_tick_), keyframe_interval_);
  std::string_view row_bytes;
  if (!KeyframeRow(e, KeyframeSlot(k, keyframe_interval_), k, &row_bytes, error)) return false;
  ++counters_.keyframes_read;
  KeyframeReader row;
  auto damaged = [&] {
    *error = Damaged(KeyframeKeyText(e, k), "data does not decode");
    return false;
  };
  if (!row.Open(row_bytes, k)) return damaged();

  // The later fields' values as of the tick, first (the row keeps them
  // after its state part, which is a view of its own).
  kf_later_.clear();
  kf_strings_used_ = 0;
  uint32_t field = 0;
  bool sought = false;
  int64_t first = 0;
  while (row.NextLater(&field, &sought, &first)) {
    if (!wanted(field)) continue;  // NextLater skips what is left of it
    if (sought) {
      if (first > tick) continue;
      FoundValue latest;
      if (kf_strings_used_ == kf_strings_.size()) kf_strings_.emplace_back();
      std::string* storage = &kf_strings_[kf_strings_used_];
      const Latest got = LatestChange(e, field, tick, &latest, storage, error);
      if (got == Latest::kError) return false;
      if (got == Latest::kNone) {
        // The first change is at or before the tick: a chunk must hold it.
        return damaged();
      }
      const bool owns = latest.value.kind == ValueKind::kString;
      kf_later_.push_back({field, latest.value, owns ? static_cast<int32_t>(kf_strings_used_) : -1});
      if (owns) ++kf_strings_used_;
      continue;
    }
    int64_t t;
    Value v;
    bool any = false;
    Value last;
    while (row.NextLogged(&t, &v)) {
      if (t > tick) continue;  // NextLater skips the rest
      ++counters_.values_decoded;
      last = v;
      any = true;
    }
    if (!row.ok()) return damaged();
    if (any) kf_later_.push_back({field, last, -1});
  }
  if (!row.ok()) return damaged();
  for (KeyedValue& kv : kf_later_) {
    if (kv.owned >= 0) kv.value.s = kf_strings_[static_cast<size_t>(kv.owned)];
  }

  // The state as of the keyframe is the row's, or the creation state, or
  // the creation state overlaid by the row's. Three lists ascend by field
  // id (the state a, the overlay b, the later values), merged as they are
  // read: for one field, a later value wins over the overlay's, which wins
  // over the state's; kNone drops the field.
  std::string_view creation;
  if ((row.born() || row.overlay()) && !CreationState(e, &creation, error)) return false;
  StateReader a, b;
  const bool two = row.overlay();
  const std::string_view first_state = row.born() || two ? creation : row.state();
  // An entity may have no creation state recorded (then only the row's).
  const bool has_first = !(first_state.empty() && (row.born() || two));
  if ((has_first && !a.Open(first_state)) || (two && !b.Open(row.state()))) return damaged();
  constexpr uint32_t kEnd = UINT32_MAX;  // past every field id a reader yields
  uint32_t af = kEnd, bf = kEnd;
  Value av, bv;
  if (has_first && !a.Next(&af, &av)) af = kEnd;
  if (two && !b.Next(&bf, &bv)) bf = kEnd;
  size_t j = 0;
  uint64_t decoded = 0;
  for (;;) {
    const uint32_t lf = j < kf_later_.size() ? kf_later_[j].field : kEnd;
    const uint32_t next = std::min({af, bf, lf});
    if (next == kEnd) break;
    const Value* v = lf == next ? &kf_later_[j].value : bf == next ? &bv : &av;
    if (!v->is_none() && wanted(next)) emit(next, *v);
    // Every list at this field moves on (the values emitted are copied by
    // emit, so advancing a reader past them is safe).
    if (lf == next) ++j;
    if (bf == next) {
      ++decoded;
      if (!b.Next(&bf, &bv)) bf = kEnd;
    }
    if (af == next) {
      ++decoded;
      if (!a.Next(&af, &av)) af = kEnd;
    }
  }
  if (!a.ok() || !b.ok()) return damaged();
  counters_.values_decoded += decoded;
  return true;
}

}  // namespace gem::sqlext
