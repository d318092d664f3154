// The storage codec of an entity's initial state (all field values at its
// creation), one blob per entity lifetime; or, to save repeating what
// entities of one class share, the difference from another entity's state
// (DiffState / MergeStates).
//
// Layout (integers are LEB128 varints unless said otherwise):
//   u8      format version (2)
//   varint  count
//   entries in ascending field id order, each:
//     varint  (field id - previous field id) << 3 | kind (ValueKind);
//             previous starts at 0
//     value:  none: nothing; bool: one byte; int: zigzag; uint: varint;
//             float: 4 bytes little-endian; vector: u8 n, n x 4 bytes;
//             string: varint length, bytes
#ifndef GEM_CORE_CODEC_STATE_CODEC_H_
#define GEM_CORE_CODEC_STATE_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/fields/value.h"

namespace gem {

constexpr uint8_t kStateFormatVersion = 2;

// Encodes (field id, value) pairs; field ids must be distinct. The pairs
// need not be sorted (they are sorted here).
void EncodeState(std::vector<std::pair<uint32_t, Value>>* entries, std::string* out);

// The entries of `entries` (sorted by field id, as EncodeState leaves them)
// that `base` (a state blob) lacks or holds with another value, in
// `diff`. False when `base` has a field `entries` lacks (a difference
// cannot say "absent") or is damaged: store the whole state then.
bool DiffState(const std::vector<std::pair<uint32_t, Value>>& entries, std::string_view base,
               std::vector<std::pair<uint32_t, Value>>* diff);

// The state `diff` applied to `base`: base's fields, with diff's values
// where diff has the field, as one state blob in `out`. False on damage.
bool MergeStates(std::string_view base, std::string_view diff, std::string* out);

// One value's bytes as the layout above writes them (its kind is stored
// apart), appended to `out`; and read back as `kind` at *pos (advanced),
// strings pointing into `data`. False on damage (or an unknown kind).
void PutValueBody(const Value& v, std::string* out);
// The most a value's bytes take, a string's but for its bytes (a vector:
// its count and four floats; a string: its length's varint).
constexpr size_t kMaxValueHead = 17;
// A value's bytes written at `p`, which has room for kMaxValueHead: all
// of them, or a string's length alone (its bytes then follow, the
// caller's to append); returns the end. For writers that gather an entry
// and append it once.
char* WriteValueHead(const Value& v, char* p);
bool GetValueBody(uint8_t kind, std::string_view data, size_t* pos, Value* value);
// Moves *pos past one value of `kind` without building it; false where
// GetValueBody would fail.
bool SkipValueBody(uint8_t kind, std::string_view data, size_t* pos);

class StateReader {
 public:
  bool Open(std::string_view blob);
  size_t count() const { return count_; }
  // The next entry; strings point into the blob. False after the last one
  // or on damage (ok() false), a field id that does not ascend included:
  // readers stop early and merge by that order. With `value` null the
  // value is passed over (checked as GetValueBody would, not built).
  // `value_at`, when given, is set to where the value's bytes start in the
  // blob (GetValueBody reads them again).
  bool Next(uint32_t* field_id, Value* value, size_t* value_at = nullptr);
  // The kind of the entry Next read last (ValueKind).
  uint8_t kind() const { return kind_; }
  bool ok() const { return ok_; }

 private:
  std::string_view blob_;
  size_t pos_ = 0;
  size_t count_ = 0;
  size_t index_ = 0;
  uint32_t field_ = 0;
  uint8_t kind_ = 0;
  bool ok_ = true;
};

}  // namespace gem

#endif  // GEM_CORE_CODEC_STATE_CODEC_H_
