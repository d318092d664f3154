// IndexReader::KeyframeStateAt: the state of an entity at a tick from its
// keyframe row (core/codec/keyframe_codec.h), found in its block
// (keyframe_block.h) and decoded once (keyframe_rows.h; the reader keeps
// the blocks it read, and the rows of them it decoded): the row's state
// as of the keyframe, overridden by the later fields' values as of the
// tick.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/keyframe_rows.h"
#include "sqlext/index_columns.h"
#include "sqlext/index_reader.h"

namespace gem::sqlext {

std::string IndexReader::KeyframeKeyText(const EntityInfo& e, int64_t keyframe_tick) const {
  return "table keyframes, entity " + std::to_string(e.entity) + " tick " +
         std::to_string(keyframe_tick);
}

IndexReader::KeptBlock* IndexReader::CachedBlock(int64_t slot, int64_t entity) const {
  int64_t key = 0;
  if (!KeyframeBlockKey(slot, entity, &key)) return nullptr;
  // Blocks of one slot cover disjoint runs of entities: the one that may
  // hold `entity` has the largest key at or below its own.
  auto it = kf_blocks_.upper_bound(key);
  if (it == kf_blocks_.begin()) return nullptr;
  --it;
  const bool holds = (it->first >> kKeyframeEntityBits) == slot &&
                     entity <= it->second->rows.last_entity();
  return holds ? it->second.get() : nullptr;
}

void IndexReader::EvictKeyframeBlocks(size_t bytes) {
  if (kf_blocks_bytes_ + bytes <= kf_cache_limit_) return;
  // No row of a block kept is in use between calls: any may go.
  std::vector<std::pair<uint64_t, int64_t>> by_use;  // (used, key)
  by_use.reserve(kf_blocks_.size());
  for (const auto& [key, kept] : kf_blocks_) by_use.emplace_back(kept->used, key);
  std::sort(by_use.begin(), by_use.end());
  for (const auto& [used, key] : by_use) {
    if (kf_blocks_bytes_ + bytes <= kf_cache_limit_) break;
    auto it = kf_blocks_.find(key);
    kf_blocks_bytes_ -= it->second->rows.bytes();
    kf_blocks_.erase(it);
  }
}

void IndexReader::SetKeyframeCacheLimit(size_t bytes) {
  kf_cache_limit_ = bytes;
  EvictKeyframeBlocks(0);
}

bool IndexReader::KeyframeRow(const EntityInfo& e, int64_t slot, int64_t k,
                              const KeyframeRows** rows, const KeyframeRows::Row** row,
                              std::string* error) {
  KeptBlock* kept = CachedBlock(slot, e.entity);
  if (kept == nullptr) {
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
    auto read = std::make_unique<KeptBlock>();
    if (sqlite3_column_type(keyframe_, 1) != SQLITE_INTEGER ||
        sqlite3_column_type(keyframe_, 2) != SQLITE_BLOB ||
        !read->rows.Open(BlobColumn(keyframe_, 2), first, &kf_decompressor_) ||
        read->rows.last_entity() != sqlite3_column_int64(keyframe_, 1)) {
      *error = Damaged("table keyframes, key " + std::to_string(key), "data does not decode");
      return false;
    }
    const size_t bytes = read->rows.bytes();
    EvictKeyframeBlocks(bytes);
    // (A key already kept is a block found again for an entity past its
    // end: IndexOf below says it has no such row.)
    auto [at, added] = kf_blocks_.try_emplace(key, std::move(read));
    if (added) kf_blocks_bytes_ += bytes;
    kept = at->second.get();
  }
  kept->used = ++kf_uses_;
  size_t i = 0;
  if (!kept->rows.IndexOf(e.entity, &i)) {
    *error = Damaged(KeyframeKeyText(e, k), "no row (the entity is alive)");
    return false;
  }
  if (!kept->rows.decoded(i)) {
    std::string_view creation;
    if (kept->rows.NeedsCreationState(i) && !CreationState(e, &creation, error)) return false;
    const size_t before = kept->rows.bytes();
    if (!kept->rows.Decode(i, k, creation, &counters_.values_decoded)) {
      *error = Damaged(KeyframeKeyText(e, k), "data does not decode");
      return false;
    }
    ++counters_.keyframe_rows_decoded;
    kf_blocks_bytes_ += kept->rows.bytes() - before;
  }
  *rows = &kept->rows;
  *row = &kept->rows.row(i);
  return true;
}

bool IndexReader::KeyframeStateAt(const EntityInfo& e, int64_t tick,
                                  const std::vector<uint32_t>* only,
                                  const std::function<void(uint32_t, const Value&)>& emit,
                                  std::string* error) {
  // The row of the interval holding the tick; past the last tick the
  // keyframes cover, the last row (nothing changes after it).
  const int64_t k = KeyframeTickOf(std::min(tick, keyframe_last_tick_), keyframe_interval_);
  const KeyframeRows* rows = nullptr;
  const KeyframeRows::Row* row = nullptr;
  if (!KeyframeRow(e, KeyframeSlot(k, keyframe_interval_), k, &rows, &row, error)) return false;
  ++counters_.keyframes_read;
  auto damaged = [&] {
    *error = Damaged(KeyframeKeyText(e, k), "data does not decode");
    return false;
  };
  // The tick as an offset past the keyframe tick (at or past it; past the
  // last tick the keyframes cover, every change of the row is before it).
  const uint64_t offset = static_cast<uint64_t>(tick) - static_cast<uint64_t>(k);

  // Two ascending lists merged: the state as of the keyframe, and the
  // fields that change after it, whose value as of the tick (once they
  // changed by then) wins over the state's. `only`, ascending too, is
  // walked alongside.
  constexpr uint32_t kEnd = UINT32_MAX;  // past every field id
  size_t wanted_at = 0;
  auto wanted = [&](uint32_t f) {
    if (only == nullptr) return true;
    while (wanted_at < only->size() && (*only)[wanted_at] < f) ++wanted_at;
    return wanted_at < only->size() && (*only)[wanted_at] == f;
  };
  uint32_t i = row->state.begin, j = row->later.begin;
  for (;;) {
    const uint32_t sf = i < row->state.end ? rows->state(i).field : kEnd;
    const uint32_t lf = j < row->later.end ? rows->later(j).field : kEnd;
    if (sf < lf) {
      if (wanted(sf)) emit(sf, rows->Get(rows->state(i)));
      ++i;
      continue;
    }
    if (lf == kEnd) break;
    const KeyframeRows::Later& later = rows->later(j++);
    const KeyframeRows::Entry* state = sf == lf ? &rows->state(i++) : nullptr;
    if (!wanted(lf)) continue;
    if (later.count() > 0) {
      // Logged: the latest change at or before the tick, else the state.
      Value v;
      if (rows->LatestLogged(later, offset, &v)) {
        if (!v.is_none()) emit(lf, v);
      } else if (state != nullptr) {
        emit(lf, rows->Get(*state));
      }
      continue;
    }
    // Sought: from the changes once its first change is at or before the
    // tick, else the state.
    if (later.at > offset) {
      if (state != nullptr) emit(lf, rows->Get(*state));
      continue;
    }
    FoundValue latest;
    const Latest got = LatestChange(e, lf, tick, &latest, &kf_sought_string_, error);
    if (got == Latest::kError) return false;
    // The first change is at or before the tick: a chunk must hold it.
    if (got == Latest::kNone) return damaged();
    if (!latest.value.is_none()) emit(lf, latest.value);
  }
  return true;
}

}  // namespace gem::sqlext
