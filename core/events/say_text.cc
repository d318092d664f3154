#include "core/events/say_text.h"

namespace gem {

Status SayTextDecoder::Decode(const uint8_t* data, size_t size, ChatMessage* out) {
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

}  // namespace gem
