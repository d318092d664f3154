#include "core/dota/chat.h"

namespace gem::dota {

TableSpec ChatEventsTable() {
  TableSpec t;
  t.name = "chat_events";
  t.comment =
      "a Dota chat event (CDOTAUserMsg_ChatEvent, user message 466): the game's system lines "
      "(kills, rune pickups, Roshan, the aegis, pauses, bans...), as sent, written by every "
      "parse (the match layer's tables read some of them)";
  t.auto_id = true;
  t.columns = {
      {"tick", "INTEGER NOT NULL", "the tick the message arrived at"},
      {"type", "INTEGER NOT NULL",
       "the event's type, a DOTA_CHAT_MESSAGE number (5 first blood, 22 rune pickup...; -1 when "
       "the message has none)"},
      {"type_name", "TEXT",
       "the type's DOTA_CHAT_MESSAGE name (CHAT_MESSAGE_RUNE_PICKUP); NULL for a number gem's "
       "copy of the enum lacks"},
      {"value", "INTEGER", "the message's value, as the type fills it (0 when absent)"},
      {"value2", "INTEGER", "the message's value2, as the type fills it (0 when absent)"},
      {"value3", "INTEGER", "the message's value3, as the type fills it (0 when absent)"},
      {"player_ids", "TEXT",
       "a JSON array of the message's six player ids, playerid_1 to playerid_6, as the type "
       "fills them (-1 for none); where a type names a player there, its id is players.slot"}};
  return t;
}

Status ChatDecoder::DecodeChatMessage(const uint8_t* data, size_t size, ChatMessage* out) {
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

Status ChatDecoder::DecodeChatEvent(const uint8_t* data, size_t size, ChatEvent* out) {
  event_.Clear();
  if (!event_.ParseFromArray(data, static_cast<int>(size))) {
    return Status::Corrupt("chat event does not parse");
  }
  *out = ChatEvent();
  out->type = event_.type();
  if (proto::DOTA_CHAT_MESSAGE_IsValid(event_.type())) {
    type_name_ = proto::DOTA_CHAT_MESSAGE_Name(static_cast<proto::DOTA_CHAT_MESSAGE>(event_.type()));
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

std::span<const MatchValue> ChatDecoder::EventRow(int64_t tick, const ChatEvent& e) {
  players_ = "[";
  for (int i = 0; i < 6; ++i) {
    if (i) players_ += ',';
    players_ += std::to_string(e.player_ids[i]);
  }
  players_ += ']';
  row_.assign({MatchValue::Int(tick), MatchValue::Int(e.type),
               e.type_name.empty() ? MatchValue() : MatchValue::Text(e.type_name),
               MatchValue::Int(e.value), MatchValue::Int(e.value2), MatchValue::Int(e.value3),
               MatchValue::Text(players_)});
  return row_;
}

}  // namespace gem::dota
