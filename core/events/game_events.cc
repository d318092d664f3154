#include "core/events/game_events.h"

#include "proto/gameevents.pb.h"

namespace gem {

void GameEventRegistry::Load(const proto::CMsgSource1LegacyGameEventList& list) {
  for (const auto& d : list.descriptors()) {
    Descriptor& desc = by_id_[d.eventid()];
    desc.id = d.eventid();
    desc.name = d.name();
    desc.keys.clear();
    for (const auto& k : d.keys()) desc.keys.emplace_back(k.name(), k.type());
  }
}

const GameEventRegistry::Descriptor* GameEventRegistry::Find(int32_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &it->second;
}

const GameEventRegistry::Descriptor* GameEventRegistry::FindByName(std::string_view name) const {
  for (const auto& [id, d] : by_id_) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

Status GameEventRegistry::Decode(const proto::CMsgSource1LegacyGameEvent& msg,
                                 GameEvent* out) const {
  const Descriptor* desc = msg.has_eventid() ? Find(msg.eventid()) : nullptr;
  out->id = msg.eventid();
  out->keys.clear();
  if (desc != nullptr) {
    out->name = desc->name;
  } else if (!msg.event_name().empty()) {
    out->name = msg.event_name();
  } else {
    return Status::Corrupt("game event " + std::to_string(msg.eventid()) +
                           " is not in the event list");
  }
  for (int i = 0; i < msg.keys_size(); ++i) {
    const auto& k = msg.keys(i);
    GameEventKey key;
    key.type = k.type();
    if (desc != nullptr && static_cast<size_t>(i) < desc->keys.size()) {
      key.name = desc->keys[i].first;
    }
    switch (k.type()) {
      case 1:
        key.value = Value::String(k.val_string());
        break;
      case 2:
        key.value = Value::Float(k.val_float());
        break;
      case 3:
      case 8:  // entity handle, carried in val_long
        key.value = Value::Int(k.val_long());
        break;
      case 4:
      case 9:  // player controller slot, carried in val_short
        key.value = Value::Int(k.val_short());
        break;
      case 5:
        key.value = Value::Int(k.val_byte());
        break;
      case 6:
        key.value = Value::Bool(k.val_bool());
        break;
      case 7:
        key.value = Value::Uint(k.val_uint64());
        break;
      default:
        // Unknown key type: keep whichever value field is present.
        if (k.has_val_string()) key.value = Value::String(k.val_string());
        else if (k.has_val_float()) key.value = Value::Float(k.val_float());
        else if (k.has_val_long()) key.value = Value::Int(k.val_long());
        else if (k.has_val_short()) key.value = Value::Int(k.val_short());
        else if (k.has_val_byte()) key.value = Value::Int(k.val_byte());
        else if (k.has_val_bool()) key.value = Value::Bool(k.val_bool());
        else if (k.has_val_uint64()) key.value = Value::Uint(k.val_uint64());
        break;
    }
    out->keys.push_back(key);
  }
  return Status::Ok();
}

}  // namespace gem
