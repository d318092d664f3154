// Progress of a long index run on stderr (bytes, tick, rate, ETA), drawn in
// place at most ten times a second, and only when stderr is a terminal.
#ifndef GEM_INDEXER_PROGRESS_H_
#define GEM_INDEXER_PROGRESS_H_

#include <chrono>
#include <cstdint>

namespace gem::index {

class Progress {
 public:
  // `enabled` is false for --quiet; a non-terminal stderr disables it too.
  Progress(uint64_t total_bytes, bool enabled);
  void Update(uint64_t bytes, uint32_t tick);
  // Clears the line.
  void Finish();

 private:
  uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_PROGRESS_H_
