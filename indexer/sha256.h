// SHA-256 (FIPS 180-4), for the index's record of which replay it holds.
#ifndef GEM_INDEXER_SHA256_H_
#define GEM_INDEXER_SHA256_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace gem::index {

// Lowercase hex digest of `size` bytes at `data`.
std::string Sha256Hex(const uint8_t* data, size_t size);

}  // namespace gem::index

#endif  // GEM_INDEXER_SHA256_H_
