// Dota's chat: CDOTAUserMsg_ChatMessage (a player's text, reported as a
// chat line) and CDOTAUserMsg_ChatEvent (the system lines: kills, rune
// pickups, Roshan, the aegis, bans...), written to chat_events.
#ifndef GEM_CORE_DOTA_CHAT_H_
#define GEM_CORE_DOTA_CHAT_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/events/events.h"
#include "core/events/match_rows.h"
#include "core/util/status.h"
#include "core/events/table_spec.h"
#include "proto/dota_usermessages.pb.h"

namespace gem::dota {

// The chat user messages (EDotaUserMessages).
constexpr uint32_t kDotaUmChatEvent = 466;
constexpr uint32_t kDotaUmChatMessage = 612;

// DOTA_CHAT_MESSAGE values gem reads.
enum ChatEventType : int32_t {
  kChatFirstBlood = 5,
  kChatAegis = 8,
  kChatRoshanKill = 9,
  kChatCourierLost = 10,
  kChatRunePickup = 22,
  kChatRuneBottle = 23,
  kChatPaused = 34,  // playerid_1: the player who paused
  kChatDeniedAegis = 51,
  kChatAegisStolen = 53,
  kChatHeroBanned = 97,
  kChatMinibossKill = 117,
};

// A chat event, as read.
struct ChatEvent {
  int32_t type = -1;
  std::string_view type_name;  // "CHAT_MESSAGE_RUNE_PICKUP", or "" if unknown
  uint32_t value = 0;
  uint32_t value2 = 0;
  uint32_t value3 = 0;
  int32_t player_ids[6] = {-1, -1, -1, -1, -1, -1};
};

TableSpec ChatEventsTable();

class ChatDecoder {
 public:
  // Each fills `out` (views into this decoder, valid until the next call).
  Status DecodeChatMessage(const uint8_t* data, size_t size, ChatMessage* out);
  Status DecodeChatEvent(const uint8_t* data, size_t size, ChatEvent* out);
  // The chat_events row of `e`, in ChatEventsTable's order (views this
  // decoder until the next call).
  std::span<const MatchValue> EventRow(int64_t tick, const ChatEvent& e);

 private:
  proto::CDOTAUserMsg_ChatMessage chat_;
  proto::CDOTAUserMsg_ChatEvent event_;
  std::string type_name_;
  std::string players_;
  std::vector<MatchValue> row_;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_CHAT_H_
