// SnapshotSink: calls back at the moments the golden snapshots describe.
//
// A snapshot for requested tick T is taken right after the first play
// packet (DEM_Packet or DEM_FullPacket; never a signon packet) whose tick
// is >= T. Several requested ticks can fall on the same packet.
#ifndef GEM_TOOLS_DUMP_SNAPSHOT_SINK_H_
#define GEM_TOOLS_DUMP_SNAPSHOT_SINK_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "core/input/demo_stream.h"
#include "core/events/sink.h"

namespace gem::dump {

// The req_tick of the snapshot taken at the end of the replay.
constexpr uint32_t kFinalSnapshot = 4294967295u;

class SnapshotSink : public Sink {
 public:
  // take(req_tick, tick, net_tick) is called for each due snapshot.
  using Take = std::function<void(uint32_t, uint32_t, uint32_t)>;

  SnapshotSink(std::vector<uint32_t> ticks, Take take)
      : ticks_(std::move(ticks)), take_(std::move(take)) {
    std::sort(ticks_.begin(), ticks_.end());
  }

  void OnFrameEnd(const TickInfo& t) override {
    if (t.command != kDemPacket && t.command != kDemFullPacket) return;
    if (t.tick == kFinalSnapshot) return;
    while (next_ < ticks_.size() && ticks_[next_] <= t.tick) {
      take_(ticks_[next_], t.tick, t.net_tick);
      ++next_;
    }
  }

 private:
  std::vector<uint32_t> ticks_;
  Take take_;
  size_t next_ = 0;
};

}  // namespace gem::dump

#endif  // GEM_TOOLS_DUMP_SNAPSHOT_SINK_H_
