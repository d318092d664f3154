// Game events: the legacy (Source 1 style) named events that Source 2 games
// still send. GE_Source1LegacyGameEventList gives each event id a name and
// an ordered list of typed keys; each GE_Source1LegacyGameEvent then carries
// its key values in that order.
#ifndef GEM_CORE_EVENTS_GAME_EVENTS_H_
#define GEM_CORE_EVENTS_GAME_EVENTS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/events/events.h"
#include "core/util/status.h"

namespace gem {

namespace proto {
class CMsgSource1LegacyGameEventList;
class CMsgSource1LegacyGameEvent;
}  // namespace proto

// A build's descriptor list as its game module keeps it, for replays that
// lack their own (the list in KnownEventList's text form).
struct KnownEventList {
  int32_t network_protocol = 0;  // the header's
  int32_t build_num = 0;         // the header's
  std::string_view text;
};

// The list to use for a replay of (network_protocol, build_num) without
// its own: the known build at or before it, compared protocol first,
// else the earliest after it; null when `known` is empty.
const KnownEventList* ClosestEventList(std::span<const KnownEventList> known,
                                       int32_t network_protocol, int32_t build_num);

class GameEventRegistry {
 public:
  struct Descriptor {
    int32_t id = -1;
    std::string name;
    std::vector<std::pair<std::string, int32_t>> keys;  // (name, type)
  };

  // Replaces what is held with `list`.
  void Load(const proto::CMsgSource1LegacyGameEventList& list);
  // The same from the text form: one event a line, "ID NAME KEY:TYPE ...",
  // the keys in their order; blank lines and lines starting with '#' are
  // skipped. Corrupt (holding nothing) when a line is not of that form.
  Status LoadText(std::string_view text);
  // What is held in the text form, by id.
  std::string ToText() const;
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
