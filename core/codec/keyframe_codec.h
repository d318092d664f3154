// The storage codec of keyframes: one entity's state at a keyframe tick K
// (a multiple of the index's keyframe interval E), and what changes after
// it before the next keyframe, so that the state at any tick T in
// [K, K + E) is read from one row and a few chunks, never from the
// entity's whole history.
//
// A row covers one entity and one interval [K, K + E) in which it is alive
// at some tick. Its state is the entity's values as of K, or, when the
// entity was created after K ("born"), its creation state (the
// entity_states row). Then, in ascending field id, each field that changes
// in (K, K + E):
//   - logged: the interval's changes, (tick, value) in tick order, when
//     there are at most a few (most fields change rarely: their values
//     are here, where a read of the whole state finds them);
//   - sought: when it changes often, only the tick of its first change in
//     the interval; the value as of T is then the field's last change at
//     or before T in the changes table (one seek, only when T is at or
//     past that first change).
// The value as of T is the latest logged change at or before T, else the
// sought field's change, else the state's value. A logged kNone value, or
// kNone in an overlay state, means the field has no value (dropped by an
// array shrink).
//
// Rows are stored in blocks (keyframe_block.h), compressed there.
//
// Layout (integers are LEB128 varints unless said otherwise):
//   u8      format version (2)
//   u8      flags: 1 born (no state part; the state is the creation
//           state); 2 overlay (the state part lists only the fields whose
//           value as of K differs from the creation state, kNone for one
//           the creation state has and K has not)
//   varint  state part length, then a state blob (state_codec.h), unless
//           born
//   varint  number of later fields
//   each, in ascending field id:
//     varint  field id - previous (previous starts at 0)
//     varint  n: 0 sought, else n logged changes
//     sought: varint first change tick - K
//     logged: u8 the kind of its values (ValueKind; a field's values share
//             one, but for kNone), then n x (varint (tick - previous tick)
//             << 1 | 1 when the value is kNone, previous starting at K;
//             then, unless kNone, the value as state_codec.h writes one)
#ifndef GEM_CORE_CODEC_KEYFRAME_CODEC_H_
#define GEM_CORE_CODEC_KEYFRAME_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/value.h"

namespace gem {

constexpr uint8_t kKeyframeFormatVersion = 2;
constexpr uint8_t kKeyframeBorn = 1;
constexpr uint8_t kKeyframeOverlay = 2;
// The multiple of `interval` (> 0) at or below `tick`.
inline int64_t KeyframeTickOf(int64_t tick, int64_t interval) {
  int64_t q = tick / interval;
  if (tick % interval != 0 && tick < 0) --q;
  return q * interval;
}

// Builds one row. Usage: AddState for each state value (ascending field
// ids), then for each later field (ascending) AddSought, or AddLogged for
// each of its changes (ticks ascending, all > K; false, and nothing added,
// for a value of another kind than the field's earlier ones: then the
// caller must make the field sought); then Finish.
class KeyframeWriter {
 public:
  void Begin(int64_t keyframe_tick, uint8_t flags);
  void AddState(uint32_t field_id, const Value& v);
  void AddSought(uint32_t field_id, int64_t first_tick);
  [[nodiscard]] bool AddLogged(uint32_t field_id, int64_t tick, const Value& v);
  // Appends the blob to `out` (cleared first).
  void Finish(std::string* out);
  size_t state_count() const { return state_count_; }

 private:
  void EndLaterField();
  int64_t keyframe_tick_ = 0;
  uint8_t flags_ = 0;
  std::string state_, later_, logged_;
  size_t state_count_ = 0, later_count_ = 0;
  uint32_t prev_state_field_ = 0, prev_later_field_ = 0;
  // The logged field being written: its id, changes, last tick.
  bool logging_ = false;
  uint32_t logged_field_ = 0;
  uint32_t logged_count_ = 0;
  int64_t logged_tick_ = 0;
  ValueKind logged_kind_ = ValueKind::kNone;
};

// Reads a row. Open, then the state (state(): a state blob, empty when
// born), then NextLater for each later field; a logged field's changes
// come from NextLogged until it returns false.
class KeyframeReader {
 public:
  // `keyframe_tick` is the row's tick; `blob` must outlive the reads.
  // False on a malformed header.
  bool Open(std::string_view blob, int64_t keyframe_tick);
  uint8_t flags() const { return flags_; }
  bool born() const { return (flags_ & kKeyframeBorn) != 0; }
  bool overlay() const { return (flags_ & kKeyframeOverlay) != 0; }
  std::string_view state() const { return state_; }
  size_t later_count() const { return later_count_; }

  // The next later field: *sought true with its first change tick, else
  // its logged changes follow (NextLogged). Skips what the previous field
  // left unread. False after the last or on damage (ok() false).
  bool NextLater(uint32_t* field_id, bool* sought, int64_t* first_tick);
  // The current logged field's next change; strings point into the blob.
  // With `v` null the value is passed over (checked as GetValueBody would,
  // not built).
  bool NextLogged(int64_t* tick, Value* v);
  // Where the next read starts in the blob: right after NextLater of a
  // logged field, its first change (ReadLogged reads it again).
  size_t position() const { return pos_; }
  // The kind of the current logged field's values (ValueKind).
  uint8_t logged_kind() const { return logged_kind_; }
  bool ok() const { return ok_; }

  // A logged change read again from `data` at *pos (advanced), as a
  // logged field of values of `kind` holds it: the tick's offset past the
  // previous change's, and the value (kNone for a change that dropped the
  // field; with `v` null, passed over). False on damage.
  static bool ReadLogged(std::string_view data, size_t* pos, uint8_t kind, uint64_t* tick_delta,
                         Value* v);

 private:
  std::string_view blob_;
  size_t pos_ = 0;
  std::string_view state_;
  int64_t keyframe_tick_ = 0;
  uint8_t flags_ = 0;
  size_t later_count_ = 0, later_index_ = 0;
  uint32_t field_ = 0;
  uint64_t logged_left_ = 0;
  int64_t logged_tick_ = 0;
  uint8_t logged_kind_ = 0;
  bool ok_ = true;
};

}  // namespace gem

#endif  // GEM_CORE_CODEC_KEYFRAME_CODEC_H_
