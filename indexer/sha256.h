// SHA-256 of a replay, for the index's record of which replay it holds
// (meta.source_sha256, gem-corpus's content address).
//
// OpenSSL's libcrypto computes it (with the CPU's SHA extensions where it
// has them). It replaced our own FIPS 180-4 code, SHA-NI included, at the
// same speed: 42 MB in 24.5 ms against 24.8 ms. What it costs: a first
// call of about 1.3 ms (the library's set-up, on the thread that hashes
// beside the parse) and 3.4 MiB more peak memory (the library mapped and
// set up): gem-index of the 2-minute auto fixture 34.3 -> 37.7 MiB, wall
// within noise (1.06x, 21 pairs).
#ifndef GEM_INDEXER_SHA256_H_
#define GEM_INDEXER_SHA256_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/util/status.h"

namespace gem::index {

// Lowercase hex digest of `size` bytes at `data`.
Status Sha256Hex(const uint8_t* data, size_t size, std::string* hex);
// The same of a file's bytes, read in 1 MiB pieces (through the page
// cache, not into the process's resident memory).
Status Sha256HexOfFile(const std::string& path, std::string* hex);

// The same of bytes given piece by piece (a streamed replay's).
class Sha256Stream {
 public:
  Sha256Stream();
  ~Sha256Stream();
  Sha256Stream(const Sha256Stream&) = delete;
  Sha256Stream& operator=(const Sha256Stream&) = delete;
  void Update(const uint8_t* data, size_t size);
  // The digest of every byte given; call once.
  Status Finish(std::string* hex);

 private:
  void* ctx_;  // EVP_MD_CTX
  bool ok_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_SHA256_H_
