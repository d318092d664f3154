#include "core/codec/keyframe_codec.h"

#include "core/codec/state_codec.h"
#include "core/codec/varint.h"

namespace gem {

void KeyframeWriter::Begin(int64_t keyframe_tick, uint8_t flags) {
  keyframe_tick_ = keyframe_tick;
  flags_ = flags;
  state_.clear();
  later_.clear();
  logged_.clear();
  state_whole_ = false;
  state_count_ = later_count_ = 0;
  prev_state_field_ = prev_later_field_ = 0;
  logging_ = false;
  prev_page_ = 0;
  any_run_ = false;
}

void KeyframeWriter::SetState(std::string_view state_blob) {
  state_.assign(state_blob);
  state_whole_ = true;
}

void KeyframeWriter::AddState(uint32_t field_id, const Value& v) {
  // A state blob's entry (state_codec.h), gathered and appended at once.
  char entry[10 + kMaxValueHead];
  char* p = WriteVarint((static_cast<uint64_t>(field_id - prev_state_field_) << 3) |
                            static_cast<uint8_t>(v.kind),
                        entry);
  p = WriteValueHead(v, p);
  state_.append(entry, static_cast<size_t>(p - entry));
  if (v.kind == ValueKind::kString) state_.append(v.s);
  prev_state_field_ = field_id;
  ++state_count_;
}

void KeyframeWriter::EndLaterField() {
  if (!logging_) return;
  PutVarint(logged_field_ - prev_later_field_, &later_);
  prev_later_field_ = logged_field_;
  PutVarint(uint64_t{logged_count_} << 1, &later_);
  later_.push_back(static_cast<char>(logged_kind_));
  later_.append(logged_);
  logged_.clear();
  ++later_count_;
  logging_ = false;
}

void KeyframeWriter::AddRuns(uint32_t field_id, std::span<const RunRef> runs) {
  EndLaterField();
  PutVarint(field_id - prev_later_field_, &later_);
  prev_later_field_ = field_id;
  PutVarint((uint64_t{runs.size()} << 1) | 1, &later_);
  int64_t prev_tick = keyframe_tick_;
  for (const RunRef& r : runs) {
    PutVarint(static_cast<uint64_t>(r.first_tick - prev_tick), &later_);
    prev_tick = r.first_tick;
    PutVarint(any_run_ ? ZigZag(r.page - prev_page_) : static_cast<uint64_t>(r.page), &later_);
    prev_page_ = r.page;
    any_run_ = true;
    PutVarint(r.offset, &later_);
    PutVarint(r.length, &later_);
  }
  ++later_count_;
}

bool KeyframeWriter::AddLogged(uint32_t field_id, int64_t tick, const Value& v) {
  if (!logging_ || logged_field_ != field_id) {
    EndLaterField();
    logging_ = true;
    logged_field_ = field_id;
    logged_count_ = 0;
    logged_tick_ = keyframe_tick_;
    logged_kind_ = ValueKind::kNone;
  }
  const bool none = v.is_none();
  if (!none) {
    if (logged_kind_ != ValueKind::kNone && v.kind != logged_kind_) return false;
    logged_kind_ = v.kind;
  }
  char entry[10 + kMaxValueHead];
  char* p =
      WriteVarint((static_cast<uint64_t>(tick - logged_tick_) << 1) | (none ? 1 : 0), entry);
  if (!none) p = WriteValueHead(v, p);
  logged_.append(entry, static_cast<size_t>(p - entry));
  if (!none && v.kind == ValueKind::kString) logged_.append(v.s);
  logged_tick_ = tick;
  ++logged_count_;
  return true;
}

void KeyframeWriter::Finish(std::string* out) {
  EndLaterField();
  out->clear();
  out->push_back(static_cast<char>(kKeyframeFormatVersion));
  out->push_back(static_cast<char>(flags_));
  if ((flags_ & (kKeyframeBorn | kKeyframeDelta)) == 0) {
    if (state_whole_) {
      PutVarint(state_.size(), out);
      out->append(state_);
    } else {
      std::string count;
      PutVarint(state_count_, &count);
      PutVarint(1 + count.size() + state_.size(), out);
      out->push_back(static_cast<char>(kStateFormatVersion));
      out->append(count);
      out->append(state_);
    }
  }
  PutVarint(later_count_, out);
  out->append(later_);
}

namespace {

// *out = tick + delta; false when that passes int64. In unsigned
// arithmetic: a keyframe tick can be negative (the signon's interval
// starts at minus the interval), where INT64_MAX - tick itself overflows.
bool AddTick(int64_t tick, uint64_t delta, int64_t* out) {
  if (delta > static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(tick)) return false;
  *out = static_cast<int64_t>(static_cast<uint64_t>(tick) + delta);
  return true;
}

}  // namespace

bool KeyframeReader::Open(std::string_view blob, int64_t keyframe_tick) {
  *this = KeyframeReader();
  blob_ = blob;
  keyframe_tick_ = keyframe_tick;
  if (blob.size() < 2 || static_cast<uint8_t>(blob[0]) != kKeyframeFormatVersion) {
    return ok_ = false;
  }
  flags_ = static_cast<uint8_t>(blob[1]);
  if ((flags_ & ~(kKeyframeBorn | kKeyframeDelta)) != 0 ||
      flags_ == (kKeyframeBorn | kKeyframeDelta)) {
    return ok_ = false;
  }
  pos_ = 2;
  uint64_t n;
  if (!born() && !delta()) {
    if (!GetVarint(blob_, &pos_, &n) || n > blob_.size() - pos_) return ok_ = false;
    state_ = blob_.substr(pos_, n);
    pos_ += n;
  }
  // Every later field takes at least two bytes.
  if (!GetVarint(blob_, &pos_, &n) || n > blob_.size() - pos_) return ok_ = false;
  later_count_ = static_cast<size_t>(n);
  return true;
}

bool KeyframeReader::NextLater(uint32_t* field_id, bool* runs, uint64_t* count) {
  int64_t t;
  Value v;
  RunRef r;
  while (ok_ && logged_left_ > 0) NextLogged(&t, &v);  // what the caller left
  while (ok_ && runs_left_ > 0) NextRun(&r);
  if (!ok_ || later_index_ >= later_count_) return false;
  uint64_t delta, code;
  if (!GetVarint(blob_, &pos_, &delta) || !GetVarint(blob_, &pos_, &code) ||
      delta > UINT32_MAX - field_ || (later_index_ > 0 && delta == 0) || code < 2) {
    return ok_ = false;
  }
  field_ += static_cast<uint32_t>(delta);
  *field_id = field_;
  ++later_index_;
  logged_tick_ = keyframe_tick_;
  const uint64_t n = code >> 1;
  *count = n;
  if ((code & 1) != 0) {
    // Each run takes four bytes or more.
    if (n > (blob_.size() - pos_) / 4) return ok_ = false;
    *runs = true;
    runs_left_ = n;
    return true;
  }
  // The kind, then each change takes a byte or more.
  if (n >= blob_.size() - pos_) return ok_ = false;
  logged_kind_ = static_cast<uint8_t>(blob_[pos_++]);
  *runs = false;
  logged_left_ = n;
  return true;
}

bool KeyframeReader::ReadLogged(std::string_view data, size_t* pos, uint8_t kind,
                                uint64_t* tick_delta, Value* v) {
  uint64_t x;
  if (!GetVarint(data, pos, &x)) return false;
  *tick_delta = x >> 1;
  if ((x & 1) != 0) {
    if (v != nullptr) *v = Value::None();
    return true;
  }
  if (kind == static_cast<uint8_t>(ValueKind::kNone)) return false;
  return v != nullptr ? GetValueBody(kind, data, pos, v) : SkipValueBody(kind, data, pos);
}

bool KeyframeReader::NextLogged(int64_t* tick, Value* v) {
  if (!ok_ || logged_left_ == 0) return false;
  uint64_t delta;
  if (!ReadLogged(blob_, &pos_, logged_kind_, &delta, v) ||
      !AddTick(logged_tick_, delta, &logged_tick_)) {
    return ok_ = false;
  }
  *tick = logged_tick_;
  --logged_left_;
  return true;
}

bool KeyframeReader::NextRun(RunRef* run) {
  if (!ok_ || runs_left_ == 0) return false;
  uint64_t delta, page, offset, length;
  if (!GetVarint(blob_, &pos_, &delta) || !GetVarint(blob_, &pos_, &page) ||
      !GetVarint(blob_, &pos_, &offset) || !GetVarint(blob_, &pos_, &length) ||
      !AddTick(logged_tick_, delta, &logged_tick_) || offset > UINT32_MAX ||
      length > UINT32_MAX - offset || length == 0) {
    return ok_ = false;
  }
  int64_t id;
  if (any_run_) {
    const int64_t d = UnZigZag(page);
    if (__builtin_add_overflow(prev_page_, d, &id)) return ok_ = false;
  } else {
    if (page > static_cast<uint64_t>(INT64_MAX)) return ok_ = false;
    id = static_cast<int64_t>(page);
  }
  if (id < 1) return ok_ = false;
  prev_page_ = id;
  any_run_ = true;
  run->first_tick = logged_tick_;
  run->page = id;
  run->offset = static_cast<uint32_t>(offset);
  run->length = static_cast<uint32_t>(length);
  --runs_left_;
  return true;
}

}  // namespace gem
