// Inner messages: the messages packed inside a CDemoPacket's data.
//
// Each is { ubit var type, varint size, size bytes }, bit-packed, so the
// payloads are generally not byte aligned; SplitPacket copies them into one
// contiguous buffer. Messages are then applied in priority order (lower
// first): net ticks, server info and string-table messages (clearing ones
// included, so a clear stays before the creates that follow it) before
// packet entities, game events last, and a game's user messages where its
// module says (a game's log of what happened, after the entities it
// names); equal priorities keep their order in the packet (a stable sort:
// string tables must be created in order).
#ifndef GEM_CORE_INPUT_INNER_MESSAGES_H_
#define GEM_CORE_INPUT_INNER_MESSAGES_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/util/status.h"

namespace gem {

// Inner message ids the parser acts on.
enum InnerMessageType : uint32_t {
  kNetTick = 4,
  kSvcServerInfo = 40,
  kSvcCreateStringTable = 44,
  kSvcUpdateStringTable = 45,
  kSvcClearAllStringTables = 51,
  kSvcPacketEntities = 55,
  kSvcUserMessage = 72,
  kUmSayText2 = 118,
  kGeSource1LegacyGameEventList = 205,
  kGeSource1LegacyGameEvent = 207,
};

// The priority the engine's inner messages are applied with (lower first;
// packet entities at 5); 0 for the rest.
int InnerMessagePriority(uint32_t type);

struct InnerMessage {
  uint32_t type;
  int priority;
  size_t offset;  // in the payload buffer
  size_t size;
};

// Splits `data` into messages (payloads appended to *payloads, both outputs
// cleared first) and sorts them by priority: `priorities[type]` for the
// types the span holds (the engine's and the game's, see the parser), else
// InnerMessagePriority(type). Corrupt when a size runs past the end.
Status SplitPacket(const uint8_t* data, size_t size,
                   std::vector<InnerMessage>* messages, std::string* payloads,
                   std::span<const int8_t> priorities = {});

}  // namespace gem

#endif  // GEM_CORE_INPUT_INNER_MESSAGES_H_
