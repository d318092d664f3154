// The storage codec of one entity in one interval: its state at the
// interval's keyframe tick K (a multiple of the index's interval E) and
// every change of its fields in the interval, so that the state at any
// tick T in [K, K + E) is read from this row and, for a field that
// changes often, one run (chunk_codec.h) of the changes table: never from
// the entity's whole history.
//
// An interval's changes are those with K < tick <= K + E (the ones at K
// are in the state at K); each change of the replay is in exactly one
// row. A row covers one entity and one interval in which it is alive at
// some tick T in [K, K + E) or has a change. Its state is the entity's
// values as of K, or, when the entity was created after K ("born"), none:
// its creation state (the entity_states row) is. Then, in ascending
// field id, each field that changes in the interval:
//   - logged: every one of its changes in the interval, (tick, value) in
//     tick order, when there are at most a few (the index's
//     keyframe_max_logged): most fields change rarely, and their changes
//     live here, in the row, not in a row of their own;
//   - runs: when it changes more often, where its changes are: runs of
//     consecutive changes, each in the changes table at (page, offset,
//     length), with the tick of its first change. A run holds the field's
//     changes from its first tick up to the next run's (the last: to the
//     interval's end).
// The value as of T is the latest change at or before T (logged, or the
// last one at or before T of the last run starting at or before T), else
// the state's value. A logged kNone value means the field has no value
// (dropped by an array shrink).
//
// A delta row (live indexes' tail only: see index_schema.h) has no state
// part: its later fields are all logged, and hold one entity's changes
// between two commits.
//
// Rows are stored in blocks (keyframe_block.h), compressed there.
//
// Layout (integers are LEB128 varints unless said otherwise):
//   u8      format version (3)
//   u8      flags: 1 born (no state part); 2 delta (no state part)
//   varint  state part length, then a state blob (state_codec.h), unless
//           born or delta
//   varint  number of later fields
//   each, in ascending field id:
//     varint  field id - previous (previous starts at 0)
//     varint  n << 1: n >= 1 logged changes; or m << 1 | 1: m >= 1 runs
//     logged: u8 the kind of its values (ValueKind; a field's values share
//             one, but for kNone), then n x (varint (tick - previous tick)
//             << 1 | 1 when the value is kNone, previous starting at K;
//             then, unless kNone, the value as state_codec.h writes one)
//     runs:   m x (varint first tick - previous (previous starting at K),
//             varint page: the first run of the row its id, a later one
//             zigzag(id - the previous run's id), varint offset, varint
//             length)
#ifndef GEM_CORE_CODEC_KEYFRAME_CODEC_H_
#define GEM_CORE_CODEC_KEYFRAME_CODEC_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/fields/value.h"

namespace gem {

constexpr uint8_t kKeyframeFormatVersion = 3;
constexpr uint8_t kKeyframeBorn = 1;
constexpr uint8_t kKeyframeDelta = 2;

// The multiple of `interval` (> 0) at or below `tick`.
inline int64_t KeyframeTickOf(int64_t tick, int64_t interval) {
  int64_t q = tick / interval;
  if (tick % interval != 0 && tick < 0) --q;
  return q * interval;
}

// Where a run of changes is: the changes table's row `page`, and the run's
// bytes at [offset, offset + length) of its data; its first change's tick.
struct RunRef {
  int64_t first_tick = 0;
  int64_t page = 0;
  uint32_t offset = 0;
  uint32_t length = 0;
};

// Builds one row. Usage: Begin, the state (SetState, or AddState for each
// value in ascending field ids) unless born or delta, then for each later
// field (ascending) AddLogged for each of its changes (ticks ascending,
// all >= K; false, and nothing added, for a value of another kind than
// the field's earlier ones: then the caller must give the field runs), or
// AddRuns once; then Finish.
class KeyframeWriter {
 public:
  void Begin(int64_t keyframe_tick, uint8_t flags);
  // A whole state blob (state_codec.h) as the row's state.
  void SetState(std::string_view state_blob);
  void AddState(uint32_t field_id, const Value& v);
  [[nodiscard]] bool AddLogged(uint32_t field_id, int64_t tick, const Value& v);
  // `runs` in tick order (first ticks >= K, ascending), not empty.
  void AddRuns(uint32_t field_id, std::span<const RunRef> runs);
  // Appends the blob to `out` (cleared first).
  void Finish(std::string* out);
  size_t later_count() const { return later_count_ + (logging_ ? 1 : 0); }

 private:
  void EndLaterField();
  int64_t keyframe_tick_ = 0;
  uint8_t flags_ = 0;
  std::string state_, later_, logged_;
  bool state_whole_ = false;  // state_ is a whole blob (SetState)
  size_t state_count_ = 0, later_count_ = 0;
  uint32_t prev_state_field_ = 0, prev_later_field_ = 0;
  // The logged field being written: its id, changes, last tick.
  bool logging_ = false;
  uint32_t logged_field_ = 0;
  uint32_t logged_count_ = 0;
  int64_t logged_tick_ = 0;
  ValueKind logged_kind_ = ValueKind::kNone;
  int64_t prev_page_ = 0;
  bool any_run_ = false;
};

// Reads a row. Open, then the state (state(): a state blob, empty when
// born or a delta), then NextLater for each later field; a logged field's
// changes come from NextLogged until it returns false, a field's runs from
// NextRun.
class KeyframeReader {
 public:
  // `keyframe_tick` is the row's K; `blob` must outlive the reads. False
  // on a malformed header.
  bool Open(std::string_view blob, int64_t keyframe_tick);
  uint8_t flags() const { return flags_; }
  bool born() const { return (flags_ & kKeyframeBorn) != 0; }
  bool delta() const { return (flags_ & kKeyframeDelta) != 0; }
  std::string_view state() const { return state_; }
  size_t later_count() const { return later_count_; }

  // The next later field: its id, whether its changes are in runs, and
  // how many changes (logged) or runs it has. Skips what the previous
  // field left unread. False after the last or on damage (ok() false).
  bool NextLater(uint32_t* field_id, bool* runs, uint64_t* count);
  // The current logged field's next change; strings point into the blob.
  // With `v` null the value is passed over (checked as GetValueBody would,
  // not built).
  bool NextLogged(int64_t* tick, Value* v);
  // The current field's next run (ticks ascending, a page id >= 1, the
  // bytes' extent within 32 bits).
  bool NextRun(RunRef* run);
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
  uint64_t logged_left_ = 0, runs_left_ = 0;
  int64_t logged_tick_ = 0;  // the previous logged change's or run's tick
  uint8_t logged_kind_ = 0;
  int64_t prev_page_ = 0;
  bool any_run_ = false;
  bool ok_ = true;
};

}  // namespace gem

#endif  // GEM_CORE_CODEC_KEYFRAME_CODEC_H_
