// CRC-32 (IEEE 802.3, the zlib polynomial), as the golden files record it.
#ifndef GEM_TOOLS_CLI_CRC32_H_
#define GEM_TOOLS_CLI_CRC32_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gem::cli {

inline uint32_t Crc32(std::string_view data) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char b : data) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

}  // namespace gem::cli

#endif  // GEM_TOOLS_CLI_CRC32_H_
