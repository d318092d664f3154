#include "indexer/keyframe_builder.h"

#include <algorithm>

#include "core/codec/chunk_codec.h"
#include "core/codec/state_codec.h"

namespace gem::index {
bool KeyframeBuilder::Build(int64_t created, int64_t end, std::string_view creation,
                            std::span<const ChunkView> chunks, std::vector<KeyframeRow>* rows) {
  rows->clear();
  const int64_t e = settings_.interval;
  if (e <= 0 || end <= created) return true;
  pending_.clear();
  for (int64_t k = KeyframeTickOf(created, e); k <= end - 1; k += e) {
    Pending& p = pending_.emplace_back();
    p.tick = k;
    p.born = created > k;
    p.writer.Begin(k, 0);
  }
  // Fields in ascending id: the creation state's and the changed ones.
  StateReader state;
  if (!creation.empty() && !state.Open(creation)) return false;
  uint32_t state_field = 0;
  Value state_value;
  bool has_state = !creation.empty() && state.Next(&state_field, &state_value);
  size_t c = 0;
  while (has_state || c < chunks.size()) {
    const bool from_chunks = c < chunks.size() && (!has_state || chunks[c].field <= state_field);
    const uint32_t field = from_chunks ? chunks[c].field : state_field;
    size_t last = c;
    while (last < chunks.size() && chunks[last].field == field) ++last;
    const bool has_creation = has_state && state_field == field;
    if (!AddField(field, has_creation, has_creation ? state_value : Value::None(),
                  chunks.subspan(c, last - c))) {
      return false;
    }
    c = last;
    if (has_creation) has_state = state.Next(&state_field, &state_value);
  }
  if (!state.ok()) return false;
  for (Pending& p : pending_) {
    KeyframeRow& row = rows->emplace_back();
    row.tick = p.tick;
    p.writer.Finish(&row.data);
    totals_.state_values += p.writer.state_count();
    ++totals_.rows;
    totals_.bytes += row.data.size();
  }
  return true;
}

// A cursor over one field's changes: the next one (peeked, decoded), or
// a jump to the first change of a later chunk without reading those
// between. Changes are numbered across the chunks; ticks never decrease.
class KeyframeBuilder::Changes {
 public:
  Changes(std::span<const ChunkView> chunks, const std::vector<size_t>& before)
      : chunks_(chunks), before_(before) {}

  // How many changes come before the next one.
  size_t position() const { return next_; }
  size_t total() const { return before_.back(); }
  // The next change (position() < total()), read on first request.
  bool Peek(int64_t* tick, Value* value) {
    if (!peeked_) {
      if (!open_ || next_ == before_[chunk_ + 1]) {
        if (open_) ++chunk_;
        if (!reader_.Open(chunks_[chunk_].data, chunks_[chunk_].start_tick)) return false;
        open_ = true;
      }
      if (!reader_.Next(&tick_, &value_)) return false;
      peeked_ = true;
    }
    *tick = tick_;
    *value = value_;
    return true;
  }
  // Past the peeked change.
  void Take() {
    peeked_ = false;
    ++next_;
  }
  // The chunk that holds the last change at or before `tick`: the last
  // one starting at or before it (chunks.size() when none does).
  size_t LastChunkFrom(int64_t tick) const {
    const auto after = std::upper_bound(
        chunks_.begin(), chunks_.end(), tick,
        [](int64_t t, const ChunkView& c) { return t < c.start_tick; });
    return after == chunks_.begin() ? chunks_.size()
                                    : static_cast<size_t>(after - chunks_.begin()) - 1;
  }
  // Moves to chunk `c`'s first change, when the cursor is before it,
  // passing over the chunks between unread.
  void JumpTo(size_t c) {
    if (before_[c] <= next_) return;
    next_ = before_[c];
    chunk_ = c;
    open_ = peeked_ = false;
  }
  // The number of changes at or before `tick`, from the chunks' ranges,
  // reading one chunk's ticks at most.
  bool CountAtOrBefore(int64_t tick, size_t* n) const {
    const size_t c = LastChunkFrom(tick);
    if (c == chunks_.size()) {
      *n = 0;
      return true;
    }
    const ChunkView& chunk = chunks_[c];
    if (chunk.end_tick <= tick) {
      *n = before_[c + 1];
      return true;
    }
    ChunkReader ticks;
    if (!ticks.Open(chunk.data, chunk.start_tick)) return false;
    const size_t in_chunk = ticks.CountAtOrBefore(tick);
    *n = before_[c] + in_chunk;
    return in_chunk > 0;  // its first change is at or before the tick
  }

 private:
  std::span<const ChunkView> chunks_;
  const std::vector<size_t>& before_;
  ChunkReader reader_;
  size_t chunk_ = 0;   // the reader's chunk, or the next one to open
  bool open_ = false;  // reader_ reads chunk_
  size_t next_ = 0;
  bool peeked_ = false;
  int64_t tick_ = 0;
  Value value_;
};

bool KeyframeBuilder::AddField(uint32_t field, bool has_creation, const Value& creation,
                               std::span<const ChunkView> chunks) {
  before_.resize(chunks.size() + 1);
  before_[0] = 0;
  for (size_t c = 0; c < chunks.size(); ++c) {
    if (chunks[c].count == 0) return false;
    before_[c + 1] = before_[c] + chunks[c].count;
  }
  Changes changes(chunks, before_);
  // The value as of the changes read so far: once the cursor jumps, the
  // change that follows (at or before the next keyframe) replaces it.
  Value value = has_creation ? creation : Value::None();
  int64_t tick;
  Value next;
  for (Pending& p : pending_) {
    // As of the keyframe: for a row born after it, the creation state
    // (no change comes before its creation); else the last change at or
    // before it, or the creation's.
    if (!p.born) {
      const size_t last = changes.LastChunkFrom(p.tick);
      if (last != chunks.size()) changes.JumpTo(last);
      while (changes.position() < changes.total()) {
        if (!changes.Peek(&tick, &next)) return false;
        if (tick > p.tick) break;
        value = next;
        changes.Take();
      }
    }
    if (!value.is_none()) p.writer.AddState(field, value);
    // Its changes after the keyframe, before the next one.
    size_t end = 0;
    if (!changes.CountAtOrBefore(p.tick + settings_.interval - 1, &end)) return false;
    const size_t first = changes.position();
    if (end <= first) continue;
    const size_t count = end - first;
    if (count > settings_.max_logged) {
      if (!changes.Peek(&tick, &next)) return false;
      p.writer.AddSought(field, tick);
      ++totals_.sought_fields;
      continue;  // the next keyframe's value is found from the chunks
    }
    later_.clear();
    while (changes.position() < end) {
      if (!changes.Peek(&tick, &next)) return false;
      later_.emplace_back(tick, next);
      value = next;
      changes.Take();
    }
    // A field's logged values share one kind (but for drops): one of
    // another kind (no decoder changes kind, but the data is not checked
    // here) makes it sought.
    bool one_kind = true;
    ValueKind kind = ValueKind::kNone;
    for (const auto& [t, v] : later_) {
      if (v.is_none()) continue;
      if (kind == ValueKind::kNone) kind = v.kind;
      one_kind &= v.kind == kind;
    }
    if (one_kind) {
      for (const auto& [t, v] : later_) {
        if (!p.writer.AddLogged(field, t, v)) return false;
      }
      totals_.logged_changes += count;
    } else {
      p.writer.AddSought(field, later_[0].first);
      ++totals_.sought_fields;
    }
  }
  return true;
}

}  // namespace gem::index
