// Game events: the legacy (Source 1 style) named events that Source 2 games
// still send. GE_Source1LegacyGameEventList gives each event id a name and
// an ordered list of typed keys; each GE_Source1LegacyGameEvent then carries
// its key values in that order.
#ifndef GEM_CORE_EVENTS_GAME_EVENTS_H_
#define GEM_CORE_EVENTS_GAME_EVENTS_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/events/events.h"
#include "core/util/status.h"

namespace gem {

namespace proto {
class CMsgSource1LegacyGameEventList;
class CMsgSource1LegacyGameEvent;
}  // namespace proto

class GameEventRegistry {
 public:
  struct Descriptor {
    int32_t id = -1;
    std::string name;
    std::vector<std::pair<std::string, int32_t>> keys;  // (name, type)
  };

  void Load(const proto::CMsgSource1LegacyGameEventList& list);
  bool loaded() const { return !by_id_.empty(); }
  const Descriptor* Find(int32_t id) const;
  // By name (linear; for tools that write events).
  const Descriptor* FindByName(std::string_view name) const;

  // Decodes `msg` into `out` (reused; string views point into `msg` and this
  // registry). An event whose id is unknown keeps its own name, if it has
  // one, and unnamed keys; Corrupt only when it has neither id nor name.
  Status Decode(const proto::CMsgSource1LegacyGameEvent& msg, GameEvent* out) const;

 private:
  std::unordered_map<int32_t, Descriptor> by_id_;
};

}  // namespace gem

#endif  // GEM_CORE_EVENTS_GAME_EVENTS_H_
