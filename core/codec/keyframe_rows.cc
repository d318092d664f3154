#include "core/codec/keyframe_rows.h"

#include <algorithm>

#include "core/codec/keyframe_codec.h"
#include "core/codec/state_codec.h"

namespace gem {
namespace {

constexpr uint32_t kNoField = UINT32_MAX;  // past every field id a reader yields

// A state blob's entries in ascending field id (StateReader checks that
// they ascend), kNoField after the last, with each value's kind and where
// its bytes start; its value only when opened to build them. False on
// damage.
class AscendingState {
 public:
  bool Open(std::string_view blob, bool build) {
    build_ = build;
    if (blob.empty()) return true;  // no state: kNoField at once
    return reader_.Open(blob) && Advance();
  }
  bool Advance() {
    uint32_t f;
    if (!reader_.Next(&f, build_ ? &value_ : nullptr, &at_)) {
      field_ = kNoField;
      return reader_.ok();
    }
    if (f == kNoField) return false;
    field_ = f;
    ++decoded_;
    return true;
  }
  uint32_t field() const { return field_; }
  ValueKind kind() const { return static_cast<ValueKind>(reader_.kind()); }
  const Value& value() const { return value_; }
  size_t at() const { return at_; }
  uint64_t decoded() const { return decoded_; }

 private:
  StateReader reader_;
  bool build_ = false;
  uint32_t field_ = kNoField;
  Value value_;
  size_t at_ = 0;
  uint64_t decoded_ = 0;
};

// An offset past the keyframe tick k that fits the 32 bits kept.
bool TickOffset(int64_t tick, int64_t k, uint32_t* out) {
  if (tick < k || static_cast<uint64_t>(tick) - static_cast<uint64_t>(k) > UINT32_MAX) {
    return false;
  }
  *out = static_cast<uint32_t>(static_cast<uint64_t>(tick) - static_cast<uint64_t>(k));
  return true;
}

}  // namespace

bool KeyframeRows::Open(std::string_view blob, int64_t first_entity,
                        KeyframeDecompressor* decompressor) {
  rows_.clear();
  state_.clear();
  later_.clear();
  ticks_.clear();
  runs_.clear();
  arena_.clear();
  if (!block_.Open(blob, first_entity, decompressor)) return false;
  rows_.resize(block_.rows());
  return true;
}

bool KeyframeRows::NeedsCreationState(size_t i) const {
  const std::string_view row = block_.row(i);
  return row.size() >= 2 && (static_cast<uint8_t>(row[1]) & kKeyframeBorn) != 0;
}

size_t KeyframeRows::bytes() const {
  return block_.bytes() + rows_.capacity() * sizeof(Slot) + state_.capacity() * sizeof(Entry) +
         later_.capacity() * sizeof(Later) + ticks_.capacity() * sizeof(uint32_t) +
         runs_.capacity() * sizeof(Run) + arena_.capacity();
}

void KeyframeRows::Get(const Entry& e, Value* v) const {
  const std::string_view bytes = (e.at & kArenaBit) != 0 ? std::string_view(arena_) : block_.body();
  size_t pos = e.at & (kOffsetLimit - 1);
  // Decode read these bytes with this same call: they decode.
  GetValueBody(static_cast<uint8_t>((e.at >> 28) & 7), bytes, &pos, v);
}

bool KeyframeRows::AddState(uint8_t flags, std::string_view own, size_t base,
                            std::string_view creation, uint64_t* values) {
  // The state as of the keyframe is the row's own, whose values are read
  // where they are in the body (only passed over here), or for a born row
  // the creation state, whose values are built and written to the arena.
  const bool born = (flags & kKeyframeBorn) != 0;
  AscendingState a;
  if (!a.Open(born ? creation : own, born)) return false;
  for (; a.field() != kNoField;) {
    if (a.kind() != ValueKind::kNone) {
      size_t at = base + a.at();
      uint32_t arena = 0;
      if (born) {
        at = arena_.size();
        arena = kArenaBit;
        PutValueBody(a.value(), &arena_);
      }
      if (at >= kOffsetLimit) return false;
      state_.push_back({a.field(), arena | static_cast<uint32_t>(a.kind()) << 28 |
                                       static_cast<uint32_t>(at)});
    }
    if (!a.Advance()) return false;
  }
  *values += a.decoded();
  return true;
}

bool KeyframeRows::Decode(size_t i, int64_t k, std::string_view creation, uint64_t* values) {
  const size_t state_size = state_.size(), later_size = later_.size(),
               ticks_size = ticks_.size(), runs_size = runs_.size(), arena_size = arena_.size();
  auto undo = [&] {
    state_.resize(state_size);
    later_.resize(later_size);
    ticks_.resize(ticks_size);
    runs_.resize(runs_size);
    arena_.resize(arena_size);
    return false;
  };
  const std::string_view bytes = block_.row(i);
  // Where the row starts in the body, which is at most kMaxKeyframeBody.
  const size_t base = static_cast<size_t>(bytes.data() - block_.body().data());
  KeyframeReader r;
  if (!r.Open(bytes, k) || r.delta()) return false;
  const size_t state_base = base + static_cast<size_t>(r.state().data() - bytes.data());
  uint64_t decoded = 0;
  if (!AddState(r.flags(), r.state(), state_base, creation, &decoded)) return undo();
  uint32_t field = 0;
  bool runs = false;
  uint64_t count = 0;
  while (r.NextLater(&field, &runs, &count)) {
    // (NextLater checks that the ids ascend.)
    if (count >= (1u << 23)) return undo();
    Later l{field, 0, 0, 0};
    if (runs) {
      l.begin = static_cast<uint32_t>(runs_.size());
      l.count_kind = static_cast<uint32_t>(count) << 9 | 0x100;
      RunRef ref;
      uint32_t prev = 0;
      while (r.NextRun(&ref)) {
        Run run{0, ref.offset, ref.length, ref.page};
        if (!TickOffset(ref.first_tick, k, &run.tick) || run.tick < prev) return undo();
        prev = run.tick;
        runs_.push_back(run);
      }
      if (!r.ok()) return undo();
    } else {
      l.begin = static_cast<uint32_t>(ticks_.size());
      l.at = static_cast<uint32_t>(base + r.position());
      int64_t tick;
      // Only the ticks are kept: the values are checked, not built.
      while (r.NextLogged(&tick, nullptr)) {
        uint32_t offset;
        if (!TickOffset(tick, k, &offset)) return undo();
        ticks_.push_back(offset);
        ++decoded;
      }
      if (!r.ok()) return undo();
      l.count_kind = static_cast<uint32_t>(count) << 9 | r.logged_kind();
    }
    later_.push_back(l);
  }
  if (!r.ok() || state_.size() > UINT32_MAX || later_.size() > UINT32_MAX ||
      ticks_.size() > UINT32_MAX || runs_.size() > UINT32_MAX) {
    return undo();
  }
  rows_[i].row.state = {static_cast<uint32_t>(state_size), static_cast<uint32_t>(state_.size())};
  rows_[i].row.later = {static_cast<uint32_t>(later_size), static_cast<uint32_t>(later_.size())};
  rows_[i].decoded = true;
  *values += decoded;
  return true;
}

void KeyframeRows::LoggedValue(const Later& l, size_t* pos, Value* v) const {
  uint64_t delta;
  // Decode read these bytes with this same call: they decode.
  KeyframeReader::ReadLogged(block_.body(), pos, l.kind(), &delta, v);
}

bool KeyframeRows::LatestLogged(const Later& l, uint64_t offset, Value* v) const {
  // The last tick at or before the offset, counted from the first.
  const uint32_t* first = ticks_.data() + l.begin;
  const uint32_t* end = first + l.count();
  const uint32_t* past = std::upper_bound(first, end, offset,
                                          [](uint64_t o, uint32_t t) { return o < t; });
  if (past == first) return false;
  // Its value: the changes before it passed over, it read again.
  size_t pos = l.at;
  uint64_t delta;
  for (const uint32_t* t = first; t + 1 != past; ++t) {
    KeyframeReader::ReadLogged(block_.body(), &pos, l.kind(), &delta, nullptr);
  }
  LoggedValue(l, &pos, v);
  return true;
}

int64_t KeyframeRows::LatestRun(const Later& l, uint64_t offset) const {
  const Run* first = runs_.data() + l.begin;
  const Run* end = first + l.count();
  const Run* past =
      std::upper_bound(first, end, offset, [](uint64_t o, const Run& r) { return o < r.tick; });
  return past == first ? -1 : static_cast<int64_t>(past - runs_.data()) - 1;
}

}  // namespace gem
