// Chat: Dota's CDOTAUserMsg_ChatMessage (player text) and ChatEvent (system
// lines such as kills and rune pickups), and the engine's UM_SayText2 used
// by CS2 and Deadlock.
#ifndef GEM_CORE_DOTA_CHAT_H_
#define GEM_CORE_DOTA_CHAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/events.h"
#include "core/status.h"
#include "proto/dota_usermessages.pb.h"
#include "proto/usermessages.pb.h"

namespace gem {

class ChatDecoder {
 public:
  // Each fills `out` (views into this decoder, valid until the next call).
  Status DecodeChatMessage(const uint8_t* data, size_t size, ChatMessage* out);
  Status DecodeSayText2(const uint8_t* data, size_t size, ChatMessage* out);
  Status DecodeChatEvent(const uint8_t* data, size_t size, ChatEvent* out);

 private:
  proto::CDOTAUserMsg_ChatMessage chat_;
  proto::CUserMessageSayText2 say_;
  proto::CDOTAUserMsg_ChatEvent event_;
  std::string type_name_;
};

}  // namespace gem

#endif  // GEM_CORE_DOTA_CHAT_H_
