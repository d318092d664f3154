// Index ticks: the one tick every event of a replay is filed under.
//
// Play ticks are the replay's outer frame ticks, kept non-decreasing: a tick
// smaller than one already seen is raised to it (client recordings restart
// their ticks after the signon). Everything that arrives during the signon
// (before DEM_SyncTick) gets kSignonTick, before any tick of play. "The
// state at tick T" is the state after every packet whose index tick is <= T.
// The indexer files rows by this rule and the match layer samples by it.
#ifndef GEM_CORE_EVENTS_TICK_ORDER_H_
#define GEM_CORE_EVENTS_TICK_ORDER_H_

#include <algorithm>
#include <cstdint>

#include "core/events/sink.h"

namespace gem {

inline constexpr int64_t kSignonTick = -1;

class TickOrder {
 public:
  // The index tick of an event at `t` (and of every later one, at least).
  int64_t Next(const TickInfo& t) {
    if (t.signon || t.tick == 0xFFFFFFFFu) return kSignonTick;
    last_ = std::max<int64_t>(t.tick, last_);
    return last_;
  }
  // The index tick an event at `t` would get, without recording it.
  int64_t Peek(const TickInfo& t) const {
    if (t.signon || t.tick == 0xFFFFFFFFu) return kSignonTick;
    return std::max<int64_t>(t.tick, last_);
  }
  // The last play tick seen (-1 before any).
  int64_t last() const { return last_; }

 private:
  int64_t last_ = -1;
};

}  // namespace gem

#endif  // GEM_CORE_EVENTS_TICK_ORDER_H_
