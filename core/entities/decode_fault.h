// DecodeFault: an entity packet that did not decode to its end, and what
// that cost.
//
// svc_PacketEntities is one bit stream with no length per entity: a field
// read by the wrong rule (a type the next patch brings, a rule that
// changed) shifts every bit after it, and the rest of the packet cannot
// be read. EntityManager detects that as early as the stream allows:
//   - a field path that names no field of the entity's class,
//   - a value, a path or an entity header that runs past the data,
//   - an update of an index that holds no entity, a create of a class
//     without a serializer,
//   - a packet whose last entity ends short of its end: after it come at
//     most 7 bits of byte padding, or a 6-bit zero index delta (Dota's
//     packets end with one) and at most 7 (a rule of gem's own, held by
//     every packet of the fixtures).
// What the packet held before the entity at fault is kept. That entity,
// and every entity at a higher index (the rest of the packet may have
// updated, created or deleted any of them), are stale: their values are
// those of before the fault, or read after it by deltas on top of a state
// that missed some. The next full packet (DEM_FullPacket) refreshes them:
// the held state becomes the packet's (EntityManager::Restate's rule),
// and a stale entity is reported whole. A fault at the packet's end
// (nothing ran out, yet bits were left) makes stale every entity the
// packet touched, since any of them may hold the misread.
#ifndef GEM_CORE_ENTITIES_DECODE_FAULT_H_
#define GEM_CORE_ENTITIES_DECODE_FAULT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gem {

struct DecodeFault {
  int64_t tick = 0;          // the packet's index tick (core/events/tick_order.h)
  int64_t server_tick = -1;  // the packet's server tick (-1: not said)
  bool full_packet = false;  // a full packet (the first, or one that was to refresh)
  // Where the stream went wrong: the entity index being read (-1 before
  // the first, or for the packet as a whole), its class, the field last
  // read or the path that names none, and the bit at which it was seen.
  int32_t entity = -1;
  std::string class_name;
  std::string field;
  uint64_t bit = 0;
  std::string reason;
  // The indexes of the entities this fault made stale (those already
  // stale by an earlier fault are not repeated).
  std::vector<int32_t> stale;
  // Whether a full packet refreshed them, and its index tick.
  bool refreshed = false;
  int64_t refreshed_tick = 0;
};

// A rule chosen for a field type no rule names: after a fault, the first
// candidate with which the faulting packet decodes to its last bit
// (EntityManager::EnableRuleSearch).
struct UnknownTypeRule {
  std::string type;     // as the send tables declare it
  std::string rule;     // the type whose rule decodes it: "float32", "int32", ...
  size_t fields = 0;    // the fields of that type it decodes
  size_t fault = 0;     // the fault (its index in faults()) whose packet chose it
  // Once a full packet has decoded with it (a refresh). Until then a new
  // fault undoes it: a packet damaged otherwise may decode by chance.
  bool confirmed = false;
};

}  // namespace gem

#endif  // GEM_CORE_ENTITIES_DECODE_FAULT_H_
