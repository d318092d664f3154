#include "indexer/progress.h"

#include <unistd.h>

#include <cstdio>

namespace gem::index {

Progress::Progress(uint64_t total_bytes, bool enabled)
    : total_(total_bytes), enabled_(enabled && isatty(STDERR_FILENO)) {
  start_ = last_ = std::chrono::steady_clock::now();
}

void Progress::Update(uint64_t bytes, uint32_t tick) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  double rate = elapsed > 0 ? bytes / elapsed : 0;
  const unsigned shown_tick = tick == 0xFFFFFFFFu ? 0u : tick;
  if (total_ == 0) {
    // A stream (compressed, a pipe): its size is not known ahead.
    std::fprintf(stderr, "\r  %.1f MB  tick %u  %.1f MB/s   ", bytes / 1e6, shown_tick,
                 rate / 1e6);
  } else {
    const double eta = rate > 0 && bytes < total_ ? (total_ - bytes) / rate : 0;
    std::fprintf(stderr, "\r  %.1f / %.1f MB (%3.0f%%)  tick %u  %.1f MB/s  ETA %.0fs   ",
                 bytes / 1e6, total_ / 1e6, 100.0 * bytes / total_, shown_tick, rate / 1e6, eta);
  }
  drawn_ = true;
}

void Progress::Finish() {
  if (drawn_) std::fprintf(stderr, "\r%80s\r", "");
  drawn_ = false;
}

}  // namespace gem::index
