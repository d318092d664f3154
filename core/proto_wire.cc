#include "core/proto_wire.h"

namespace gem {
namespace {

bool ReadVarint(const uint8_t* data, size_t size, size_t* pos, uint64_t* out) {
  uint64_t result = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (*pos >= size) return false;
    uint8_t b = data[(*pos)++];
    result |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *out = result;
      return true;
    }
  }
  return false;
}

}  // namespace

bool FindBytesField(const uint8_t* data, size_t size, uint32_t field_number,
                    const uint8_t** out, size_t* out_size, bool* found) {
  *found = false;
  size_t pos = 0;
  while (pos < size) {
    uint64_t tag;
    if (!ReadVarint(data, size, &pos, &tag)) return false;
    const uint32_t wire_type = tag & 7;
    const uint64_t number = tag >> 3;
    switch (wire_type) {
      case 0: {
        uint64_t ignored;
        if (!ReadVarint(data, size, &pos, &ignored)) return false;
        break;
      }
      case 1:
        if (size - pos < 8) return false;
        pos += 8;
        break;
      case 2: {
        uint64_t len;
        if (!ReadVarint(data, size, &pos, &len) || len > size - pos) return false;
        if (number == field_number) {
          *out = data + pos;
          *out_size = static_cast<size_t>(len);
          *found = true;
        }
        pos += static_cast<size_t>(len);
        break;
      }
      case 5:
        if (size - pos < 4) return false;
        pos += 4;
        break;
      default:
        return false;  // groups (3, 4) and invalid types never occur here
    }
  }
  return true;
}

}  // namespace gem
