// How the fuzz targets read their input: front to back, numbers first
// (zeros past the end), then blobs or the rest as raw bytes. Read one
// number per statement, or through the methods here: two calls in one
// expression (a + b) may run in either order, and the seed cutter lays
// seeds out in the order written.
#ifndef GEM_TESTS_FUZZ_INPUT_READER_H_
#define GEM_TESTS_FUZZ_INPUT_READER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gem::fuzz {

class InputReader {
 public:
  InputReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return at_ < size_ ? data_[at_++] : 0; }
  // Little-endian, like the seeds.
  uint16_t U16() {
    const uint16_t lo = Byte();
    return static_cast<uint16_t>(lo | Byte() << 8);
  }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{Byte()} << (8 * i);
    return v;
  }
  // A number in [-2^30, 3 * 2^30): either sign, now and then past int32.
  int64_t Int() { return int64_t{U32()} - (int64_t{1} << 30); }
  // A blob whose length (up to about 1 KiB) the input gives first.
  std::string_view Blob() {
    const size_t quads = Byte();
    const size_t n = std::min<size_t>(quads * 4 + Byte() % 4, size_ - at_);
    std::string_view b(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return b;
  }
  const uint8_t* rest() const { return data_ + at_; }
  size_t rest_size() const { return size_ - at_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

}  // namespace gem::fuzz

#endif  // GEM_TESTS_FUZZ_INPUT_READER_H_
