#include "indexer/keyframe_builder.h"

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

bool KeyframeBuilder::AddField(uint32_t field, bool has_creation, const Value& creation,
                               std::span<const ChunkView> chunks) {
  // The field's changes in tick order, across its chunks.
  size_t chunk = 0;
  ChunkReader reader;
  bool open = false;
  int64_t next_tick = 0;
  Value next_value;
  auto advance = [&]() -> int {  // 1: a change, 0: no more, -1: damage
    for (;;) {
      if (open && reader.Next(&next_tick, &next_value)) return 1;
      if (open && !reader.ok()) return -1;
      if (chunk == chunks.size()) return 0;
      if (!reader.Open(chunks[chunk].data, chunks[chunk].start_tick)) return -1;
      open = true;
      ++chunk;
    }
  };
  int have = advance();
  bool has_value = has_creation;
  Value value = creation;
  for (Pending& p : pending_) {
    if (!p.born) {
      for (; have == 1 && next_tick <= p.tick; have = advance()) {
        has_value = !next_value.is_none();
        value = next_value;
      }
    }
    if (has_value) p.writer.AddState(field, value);
    const int64_t next_keyframe = p.tick + settings_.interval;
    later_.clear();
    size_t count = 0;
    for (; have == 1 && next_tick < next_keyframe; have = advance()) {
      if (later_.size() <= settings_.max_logged) later_.emplace_back(next_tick, next_value);
      ++count;
      has_value = !next_value.is_none();
      value = next_value;
    }
    if (count == 0) continue;
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
    if (count <= settings_.max_logged && one_kind) {
      for (const auto& [t, v] : later_) {
        if (!p.writer.AddLogged(field, t, v)) return false;
      }
      totals_.logged_changes += count;
    } else {
      p.writer.AddSought(field, later_[0].first);
      ++totals_.sought_fields;
    }
  }
  return have != -1;
}

}  // namespace gem::index
