#include "core/util/proto_wire.h"

#include <cstring>

namespace gem {

bool WireReader::ReadVarint(uint64_t* out) {
  uint64_t result = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (pos_ >= size_) return false;
    uint8_t b = data_[pos_++];
    result |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *out = result;
      return true;
    }
  }
  return false;
}

bool WireReader::NextSlow() {
  if (!ok_ || pos_ >= size_) return false;
  uint64_t tag;
  if (!ReadVarint(&tag)) return ok_ = false;
  field_ = static_cast<uint32_t>(tag >> 3);
  wire_type_ = static_cast<uint32_t>(tag & 7);
  switch (wire_type_) {
    case 0:
      if (!ReadVarint(&value_)) return ok_ = false;
      return true;
    case 1:
      if (size_ - pos_ < 8) return ok_ = false;
      std::memcpy(&value_, data_ + pos_, 8);
      pos_ += 8;
      return true;
    case 2: {
      uint64_t len;
      if (!ReadVarint(&len) || len > size_ - pos_) return ok_ = false;
      bytes_ = std::string_view(reinterpret_cast<const char*>(data_ + pos_), len);
      pos_ += static_cast<size_t>(len);
      return true;
    }
    case 5: {
      if (size_ - pos_ < 4) return ok_ = false;
      uint32_t v;
      std::memcpy(&v, data_ + pos_, 4);
      value_ = v;
      pos_ += 4;
      return true;
    }
    default:
      return ok_ = false;  // groups (3, 4) never occur in these messages
  }
}

float WireReader::fixed32_as_float() const {
  uint32_t bits = static_cast<uint32_t>(value_);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

bool FindBytesField(const uint8_t* data, size_t size, uint32_t field_number,
                    const uint8_t** out, size_t* out_size, bool* found) {
  *found = false;
  WireReader r(data, size);
  while (r.Next()) {
    if (r.field() == field_number && r.wire_type() == 2) {
      *out = r.bytes_data();
      *out_size = r.bytes().size();
      *found = true;
    }
  }
  return r.ok();
}

}  // namespace gem
