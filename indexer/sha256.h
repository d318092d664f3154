// SHA-256 (FIPS 180-4), for the index's record of which replay it holds.
//
// The checksum runs beside the parse, on a machine that may have only two
// cores: where the CPU has the SHA extensions it uses them (about 15x
// fewer instructions than the portable code), else portable C++.
#ifndef GEM_INDEXER_SHA256_H_
#define GEM_INDEXER_SHA256_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/status.h"

namespace gem::index {

// Lowercase hex digest of `size` bytes at `data`, by the fastest
// implementation this CPU runs.
std::string Sha256Hex(const uint8_t* data, size_t size);
// The same of a file's bytes, read in 1 MiB pieces (through the page
// cache, not into the process's resident memory).
Status Sha256HexOfFile(const std::string& path, std::string* hex);

// The two implementations, for tests that compare them. The accelerated
// one returns "" where the CPU lacks the instructions.
std::string Sha256HexPortable(const uint8_t* data, size_t size);
std::string Sha256HexAccelerated(const uint8_t* data, size_t size);

}  // namespace gem::index

#endif  // GEM_INDEXER_SHA256_H_
