// Minimal protobuf wire reading, for the hot or large messages that gem
// reads without the generated classes: without copying their bytes fields
// (packet data, entity data) or allocating per string (serializers,
// string-table snapshots). Field numbers are those of proto/*.proto.
#ifndef GEM_CORE_UTIL_PROTO_WIRE_H_
#define GEM_CORE_UTIL_PROTO_WIRE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace gem {

class WireReader {
 public:
  WireReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  explicit WireReader(std::string_view s)
      : data_(reinterpret_cast<const uint8_t*>(s.data())), size_(s.size()) {}

  // Moves to the next field. False at the end, or when the message is
  // malformed (then ok() is false).
  bool Next() {
    // Fast path: a one-byte tag with a varint value of up to five bytes,
    // wholly inside the message.
    if (ok_ && pos_ + 6 <= size_ && data_[pos_] < 0x80 && (data_[pos_] & 7) == 0) {
      const uint8_t* p = data_ + pos_ + 1;
      uint64_t v = p[0] & 0x7F;
      size_t n = 1;
      while (p[n - 1] & 0x80) {
        if (n == 5) return NextSlow();
        v |= static_cast<uint64_t>(p[n] & 0x7F) << (7 * n);
        ++n;
      }
      field_ = data_[pos_] >> 3;
      wire_type_ = 0;
      value_ = v;
      pos_ += 1 + n;
      return true;
    }
    return NextSlow();
  }
  bool ok() const { return ok_; }

  // After Next() stopped on a varint of field `field` (a repeated field
  // sent unpacked, one tag per value), appends the values of the
  // occurrences of it that follow at once, each as int32, and moves past
  // them; the next Next() reads the field after the run. Values of one or
  // two bytes take a tight loop (a serializer's field list is a hundred
  // thousand such values in a Dota replay); anything else ends the run.
  void TakeVarintRun(uint32_t field, std::vector<int32_t>* out) {
    if (field == 0 || field > 15) return;  // one-byte tags only
    const uint8_t tag = static_cast<uint8_t>(field << 3);
    while (pos_ + 3 <= size_ && data_[pos_] == tag) {
      const uint8_t b0 = data_[pos_ + 1];
      if (b0 < 0x80) {
        out->push_back(b0);
        pos_ += 2;
        continue;
      }
      const uint8_t b1 = data_[pos_ + 2];
      if (b1 >= 0x80) return;
      out->push_back((b0 & 0x7F) | b1 << 7);
      pos_ += 3;
    }
  }

  uint32_t field() const { return field_; }
  uint32_t wire_type() const { return wire_type_; }
  // Wire type 0 (varint), 1 (fixed64) and 5 (fixed32) values.
  uint64_t varint() const { return value_; }
  int32_t int32() const { return static_cast<int32_t>(value_); }
  float fixed32_as_float() const;
  // Wire type 2 (length-delimited) payload.
  std::string_view bytes() const { return bytes_; }
  const uint8_t* bytes_data() const {
    return reinterpret_cast<const uint8_t*>(bytes_.data());
  }

 private:
  bool NextSlow();
  bool ReadVarint(uint64_t* out);

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool ok_ = true;
  uint32_t field_ = 0;
  uint32_t wire_type_ = 0;
  uint64_t value_ = 0;
  std::string_view bytes_;
};

// Finds the last occurrence of length-delimited field `field_number` in a
// serialized message (protobuf semantics: the last one wins). Returns false
// if the message is malformed; *found tells whether the field is present.
bool FindBytesField(const uint8_t* data, size_t size, uint32_t field_number,
                    const uint8_t** out, size_t* out_size, bool* found);

}  // namespace gem

#endif  // GEM_CORE_UTIL_PROTO_WIRE_H_
