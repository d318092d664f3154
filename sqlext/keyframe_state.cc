// IndexReader::KeyframeWalk: the state of an entity at a tick from its
// row of the interval holding the tick (core/codec/keyframe_codec.h),
// found in its block (keyframe_block.h) and decoded once (keyframe_rows.h;
// the reader keeps the blocks it read, and the rows of them it decoded):
// the row's state as of the keyframe, overridden by the later fields'
// values as of the tick (logged in the row, or from the run holding the
// tick). A live index's open interval is read from its tail (tail.h).
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "core/codec/keyframe_block.h"
#include "core/codec/keyframe_codec.h"
#include "core/codec/keyframe_rows.h"
#include "sqlext/index_columns.h"
#include "sqlext/index_reader.h"
#include "sqlext/tail.h"

namespace gem::sqlext {

std::string IndexReader::KeyframeKeyText(const EntityInfo& e, int64_t keyframe_tick) const {
  return "table keyframes, entity " + std::to_string(e.entity) + " tick " +
         std::to_string(keyframe_tick);
}

std::shared_ptr<IndexReader::KeptBlock> IndexReader::CachedBlock(int64_t slot, int64_t entity) const {
  int64_t key = 0;
  if (!KeyframeBlockKey(slot, entity, &key)) return nullptr;
  // Blocks of one slot cover disjoint runs of entities: the one that may
  // hold `entity` has the largest key at or below its own.
  auto it = kf_blocks_.upper_bound(key);
  if (it == kf_blocks_.begin()) return nullptr;
  --it;
  const bool holds = (it->first >> kKeyframeEntityBits) == slot &&
                     entity <= it->second->rows.last_entity();
  return holds ? it->second : nullptr;
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
                              std::shared_ptr<const KeptBlock>* block,
                              const KeyframeRows::Row** row, std::string* error) {
  std::shared_ptr<KeptBlock> kept = CachedBlock(slot, e.entity);
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
    auto read = std::make_shared<KeptBlock>();
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
    kept = at->second;
  }
  kept->used = ++kf_uses_;
  size_t i = 0;
  if (!kept->rows.IndexOf(e.entity, &i)) {
    *error = Damaged(KeyframeKeyText(e, k), "no row (the entity is alive)");
    return false;
  }
  if (!kept->rows.decoded(i)) {
    std::string_view creation;
    // (A creation state that does not decode is named as such, not as
    // the row that merges it.)
    if (kept->rows.NeedsCreationState(i) &&
        (!CreationValues(e, error) || !CreationState(e, &creation, error))) {
      return false;
    }
    const size_t before = kept->rows.bytes();
    if (!kept->rows.Decode(i, k, creation, &counters_.values_decoded)) {
      *error = Damaged(KeyframeKeyText(e, k), "data does not decode");
      return false;
    }
    ++counters_.keyframe_rows_decoded;
    kf_blocks_bytes_ += kept->rows.bytes() - before;  // (kept is in kf_blocks_)
  }
  *row = &kept->rows.row(i);
  *block = std::move(kept);
  return true;
}

bool IndexReader::KeyframeWalk::Start(IndexReader* reader, const EntityInfo& e, int64_t tick,
                                      const std::vector<uint32_t>* only, std::string* error) {
  block_.reset();
  tail_.reset();
  reader_ = reader;
  entity_ = &e;
  tick_ = tick;
  only_ = only;
  wanted_at_ = 0;
  if (reader->InTail(tick)) {
    if (!reader->Tail(e, &tail_, error)) return false;
    tail_->StateAt(tick, &tail_state_);
    tail_at_ = 0;
    return true;
  }
  int64_t slot;
  reader->StateInterval(tick, &slot, &k_);
  if (!reader->KeyframeRow(e, slot, k_, &block_, &row_, error)) return false;
  ++reader->counters_.keyframes_read;
  // The tick as an offset past the keyframe tick (at or past it; past the
  // last tick the rows cover, every change of the row is before it).
  offset_ = static_cast<uint64_t>(tick) - static_cast<uint64_t>(k_);
  state_at_ = row_->state.begin;
  later_at_ = row_->later.begin;
  return true;
}

bool IndexReader::KeyframeWalk::Wanted(uint32_t field) {
  // `only` ascends, as the walk does: it is walked alongside.
  while (wanted_at_ < only_->size() && (*only_)[wanted_at_] < field) ++wanted_at_;
  return wanted_at_ < only_->size() && (*only_)[wanted_at_] == field;
}

// (Inlined: it runs once a state value returned.)
[[gnu::always_inline]] inline void IndexReader::KeyframeWalk::GetState(const KeyframeRows& rows,
                                                                       uint32_t at, Value* value) {
  const KeyframeRows::Entry& entry = rows.state(at);
  // (Decoded in place: a Value built apart and copied stalls.)
  rows.Get(entry, value);
  // The block's body stays while the walk holds the block; its arena (born
  // rows' merged values) grows, moving, as a query run meanwhile decodes
  // another such row.
  if (value->kind == ValueKind::kString && rows.in_arena(entry)) {
    string_.assign(value->s);
    value->s = string_;
  }
}

IndexReader::KeyframeWalk::Step IndexReader::KeyframeWalk::NextInTail(uint32_t* field,
                                                                      Value* value) {
  while (tail_at_ < tail_state_.size()) {
    const auto& [f, v] = tail_state_[tail_at_++];
    if (only_ != nullptr && !Wanted(f)) continue;
    *field = f;
    *value = v;
    return Step::kField;
  }
  tail_.reset();
  return Step::kEnd;
}

IndexReader::KeyframeWalk::Step IndexReader::KeyframeWalk::Next(uint32_t* field, Value* value,
                                                                std::string* error) {
  if (tail_ != nullptr) return NextInTail(field, value);
  if (block_ == nullptr) return Step::kEnd;
  const KeyframeRows& rows = block_->rows;
  // Two ascending lists merged: the state as of the keyframe, and the
  // fields that change in the interval, whose value as of the tick (once
  // they changed by then) wins over the state's.
  constexpr uint32_t kEnd = UINT32_MAX;  // past every field id
  for (;;) {
    const uint32_t sf = state_at_ < row_->state.end ? rows.state(state_at_).field : kEnd;
    const uint32_t lf = later_at_ < row_->later.end ? rows.later(later_at_).field : kEnd;
    if (sf < lf) {
      const uint32_t at = state_at_++;
      if (only_ != nullptr && !Wanted(sf)) continue;
      GetState(rows, at, value);
      *field = sf;
      return Step::kField;
    }
    if (lf == kEnd) {
      block_.reset();
      return Step::kEnd;
    }
    const KeyframeRows::Later& later = rows.later(later_at_++);
    const bool has_state = sf == lf;
    const uint32_t at = has_state ? state_at_++ : 0;
    if (only_ != nullptr && !Wanted(lf)) continue;
    if (!later.runs()) {
      // Logged: the latest change at or before the tick, else the state.
      if (rows.LatestLogged(later, offset_, value)) {
        if (value->is_none()) continue;
      } else if (has_state) {
        GetState(rows, at, value);
      } else {
        continue;
      }
      *field = lf;
      return Step::kField;
    }
    // Runs: the last change at or before the tick of the run holding it,
    // else (the first run starts after the tick) the state.
    const int64_t i = rows.LatestRun(later, offset_);
    if (i < 0) {
      if (!has_state) continue;
      GetState(rows, at, value);
      *field = lf;
      return Step::kField;
    }
    const KeyframeRows::Run& run = rows.run(static_cast<uint32_t>(i));
    ChunkReader r;
    if (!reader_->OpenRun(*entity_, lf, k_, run, &r, error)) return Step::kError;
    int64_t at_tick;
    const size_t n = r.LastAtOrBefore(tick_, &at_tick, value);
    reader_->counters_.values_decoded += n;
    if (!r.ok() || n == 0) {
      *error = reader_->RunDamaged(*entity_, lf, run, "data does not decode");
      return Step::kError;
    }
    if (value->is_none()) continue;
    // (A string points into the reader's page copy, which the next run
    // read may replace: copied once, to the walk's own.)
    if (value->kind == ValueKind::kString) {
      string_.assign(value->s);
      value->s = string_;
    }
    *field = lf;
    return Step::kField;
  }
}

}  // namespace gem::sqlext
