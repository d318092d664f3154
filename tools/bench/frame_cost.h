// The viewer's frame request as the page makes it: gem-view started on an
// index (a child process on 127.0.0.1), then GET /api/m/0/frame?tick=T at
// random ticks, one at a time over fresh connections, timed from connect
// to the response's last byte; with the payload's size.
#ifndef GEM_TOOLS_BENCH_FRAME_COST_H_
#define GEM_TOOLS_BENCH_FRAME_COST_H_

#include <string>

namespace gem::bench {

struct FrameFigures {
  bool ok = false;
  std::string error;
  int requests = 0;
  double p50_ms = 0, p99_ms = 0;
  double payload_bytes = 0;  // median
  double units = 0;          // median units a frame
};

// `view` is tools/view/gem-view; `libgem` the extension it loads.
FrameFigures MeasureFrames(const std::string& view, const std::string& libgem,
                           const std::string& index, int requests);

}  // namespace gem::bench

#endif  // GEM_TOOLS_BENCH_FRAME_COST_H_
