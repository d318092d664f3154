#include "indexer/live_tail.h"

#include <algorithm>

namespace gem::index {

LiveTail::Pending& LiveTail::PendingOf(uint64_t entity) {
  if (entity >= pending_.size()) pending_.resize(entity + 1);
  if (pending_[entity] == nullptr) pending_[entity] = std::make_unique<Pending>();
  Pending& p = *pending_[entity];
  if (p.changes.empty()) changed_.push_back(entity);
  return p;
}

void LiveTail::Add(uint64_t entity, std::span<const HeldChange> changes, bool has_strings,
                   std::string_view arena) {
  if (changes.empty()) return;
  Pending& p = PendingOf(entity);
  const size_t at = p.changes.size();
  p.changes.insert(p.changes.end(), changes.begin(), changes.end());
  if (!has_strings) return;
  for (size_t i = at; i < p.changes.size(); ++i) {
    HeldChange& c = p.changes[i];
    if (c.kind != ValueKind::kString) continue;
    const std::string_view bytes = arena.substr(c.s.offset, c.s.size);
    c.s.offset = static_cast<uint32_t>(p.strings.size());
    p.strings.append(bytes);
  }
}

void LiveTail::Clear() {
  pending_.clear();
  changed_.clear();
  states_written_ = false;
  seq_ = 0;
}

void LiveTail::Record(RowBuffer* out, uint64_t entity, uint32_t part, int64_t k,
                      std::string_view row) {
  ++rows_written_;
  out->Begin(kTailRow).Int(seq_).Int(static_cast<int64_t>(entity)).Int(part).Int(k).Blob(row);
}

void LiveTail::Write(const IntervalStore& store, RowBuffer* out) {
  const int64_t k = store.keyframe_tick();
  if (!states_written_) {
    // The interval's first commit: the states at its start (entities
    // created since have their creation states).
    for (uint64_t entity : store.active()) {
      const std::string_view state = store.StateAtStart(entity);
      if (state.empty()) continue;
      writer_.Begin(k, 0);
      writer_.SetState(state);
      writer_.Finish(&row_);
      Record(out, entity, 0, k, row_);
    }
    states_written_ = true;
  }
  ++seq_;
  std::sort(changed_.begin(), changed_.end());
  for (uint64_t entity : changed_) {
    Pending& p = *pending_[entity];
    // Each field's changes together, in tick order: sorted by (field,
    // arrival) packed in one word (no stable sort's buffer).
    keys_.resize(p.changes.size());
    for (uint32_t i = 0; i < keys_.size(); ++i) {
      keys_[i] = uint64_t{p.changes[i].field} << 32 | i;
    }
    std::sort(keys_.begin(), keys_.end());
    order_.resize(keys_.size());
    for (size_t i = 0; i < keys_.size(); ++i) order_[i] = static_cast<uint32_t>(keys_[i]);
    // A row logs one kind a field: a field whose values change kind goes
    // on in a further row from there (rows apply in (seq, part) order).
    uint32_t part = 0;
    while (!order_.empty()) {
      writer_.Begin(k, kKeyframeDelta);
      size_t left = 0;  // changes for a further row, moved to the front
      uint32_t field = UINT32_MAX;
      bool stopped = false;
      for (size_t j = 0; j < order_.size(); ++j) {
        const HeldChange& c = p.changes[order_[j]];
        if (c.field != field) {
          field = c.field;
          stopped = false;
        }
        if (!stopped && writer_.AddLogged(c.field, c.tick, c.Get(p.strings))) continue;
        stopped = true;
        order_[left++] = order_[j];
      }
      writer_.Finish(&row_);
      Record(out, entity, part++, k, row_);
      order_.resize(left);
    }
    p.changes.clear();
    p.strings.clear();
  }
  changed_.clear();
}

}  // namespace gem::index
