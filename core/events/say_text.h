// SayText2: the engine's chat line (UM_SayText2, a CUserMessageSayText2),
// which every Source 2 game may send: a localisation token and its
// parameters, the player's text the second of them.
#ifndef GEM_CORE_EVENTS_SAY_TEXT_H_
#define GEM_CORE_EVENTS_SAY_TEXT_H_

#include <cstddef>
#include <cstdint>

#include "core/events/events.h"
#include "core/util/status.h"
#include "proto/usermessages.pb.h"

namespace gem {

class SayTextDecoder {
 public:
  // Fills `out` (views into this decoder, valid until the next call).
  Status Decode(const uint8_t* data, size_t size, ChatMessage* out);

 private:
  proto::CUserMessageSayText2 say_;
};

}  // namespace gem

#endif  // GEM_CORE_EVENTS_SAY_TEXT_H_
