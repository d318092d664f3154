// ChunkSpill: closed chunks' bytes, kept on disk until the index is
// written, so that gem-index's memory follows the live entities and open
// chunks rather than the length of the match.
//
// An unlinked temporary file (O_TMPFILE) in a directory the caller names
// (the output's, the disk the index goes to anyway): nothing is left behind
// whatever ends the process. Appends are buffered; reads (pread) come after
// Flush(). A failed write (disk full, a file size limit) is kept as an
// I/O error and every later call does nothing.
#ifndef GEM_INDEXER_CHUNK_SPILL_H_
#define GEM_INDEXER_CHUNK_SPILL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace gem::index {

class ChunkSpill {
 public:
  ChunkSpill() = default;
  ~ChunkSpill();
  ChunkSpill(const ChunkSpill&) = delete;
  ChunkSpill& operator=(const ChunkSpill&) = delete;

  // Creates the file in `directory`.
  Status Open(const std::string& directory);
  bool is_open() const { return fd_ >= 0; }

  // Appends `bytes`; returns where they start.
  uint64_t Append(std::string_view bytes);
  // Writes out what is buffered (before reading).
  Status Flush();
  // Reads `size` bytes at `offset` into `out`.
  Status Read(uint64_t offset, size_t size, char* out) const;

  const Status& status() const { return status_; }
  uint64_t bytes() const { return size_; }

 private:
  void WriteBuffer();

  int fd_ = -1;
  std::string buffer_;
  uint64_t size_ = 0;      // bytes appended
  uint64_t written_ = 0;   // bytes in the file
  Status status_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_CHUNK_SPILL_H_
