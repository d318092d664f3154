#include "core/dota/chat.h"

namespace gem {

Status ChatDecoder::DecodeChatMessage(const uint8_t* data, size_t size,
                                      ChatMessage* out) {
  chat_.Clear();
  if (!chat_.ParseFromArray(data, static_cast<int>(size))) {
    return Status::Corrupt("chat message does not parse");
  }
  *out = ChatMessage();
  out->kind = "chat";
  out->sender = chat_.source_player_id();
  out->channel = static_cast<int32_t>(chat_.channel_type());
  out->text = chat_.message_text();
  return Status::Ok();
}

Status ChatDecoder::DecodeSayText2(const uint8_t* data, size_t size,
                                   ChatMessage* out) {
  say_.Clear();
  if (!say_.ParseFromArray(data, static_cast<int>(size))) {
    return Status::Corrupt("SayText2 message does not parse");
  }
  *out = ChatMessage();
  out->kind = "saytext2";
  out->sender = say_.entityindex();
  out->channel = say_.chat() ? 1 : 0;
  out->message_name = say_.messagename();
  out->params[0] = say_.param1();
  out->params[1] = say_.param2();
  out->params[2] = say_.param3();
  out->params[3] = say_.param4();
  // The player's text is the second parameter of the chat tokens.
  out->text = say_.param2();
  return Status::Ok();
}

Status ChatDecoder::DecodeChatEvent(const uint8_t* data, size_t size,
                                    ChatEvent* out) {
  event_.Clear();
  if (!event_.ParseFromArray(data, static_cast<int>(size))) {
    return Status::Corrupt("chat event does not parse");
  }
  *out = ChatEvent();
  out->type = event_.type();
  if (proto::DOTA_CHAT_MESSAGE_IsValid(event_.type())) {
    type_name_ = proto::DOTA_CHAT_MESSAGE_Name(
        static_cast<proto::DOTA_CHAT_MESSAGE>(event_.type()));
  } else {
    type_name_.clear();
  }
  out->type_name = type_name_;
  out->value = event_.value();
  out->value2 = event_.value2();
  out->value3 = event_.value3();
  out->player_ids[0] = event_.playerid_1();
  out->player_ids[1] = event_.playerid_2();
  out->player_ids[2] = event_.playerid_3();
  out->player_ids[3] = event_.playerid_4();
  out->player_ids[4] = event_.playerid_5();
  out->player_ids[5] = event_.playerid_6();
  return Status::Ok();
}

}  // namespace gem
