// The storage codec of an entity's initial state (all field values at its
// creation), one blob per entity lifetime.
//
// Layout (integers are LEB128 varints unless said otherwise):
//   u8      format version (1)
//   varint  count
//   entries in ascending field id order, each:
//     varint  field id - previous field id (previous starts at 0)
//     u8      kind (ValueKind)
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

#include "core/value.h"

namespace gem {

constexpr uint8_t kStateFormatVersion = 1;

// Encodes (field id, value) pairs; field ids must be distinct. The pairs
// need not be sorted (they are sorted here).
void EncodeState(std::vector<std::pair<uint32_t, Value>>* entries, std::string* out);

class StateReader {
 public:
  bool Open(std::string_view blob);
  size_t count() const { return count_; }
  // The next entry; strings point into the blob. False after the last one
  // or on damage (ok() false).
  bool Next(uint32_t* field_id, Value* value);
  bool ok() const { return ok_; }

 private:
  std::string_view blob_;
  size_t pos_ = 0;
  size_t count_ = 0;
  size_t index_ = 0;
  uint32_t field_ = 0;
  bool ok_ = true;
};

}  // namespace gem

#endif  // GEM_CORE_CODEC_STATE_CODEC_H_
