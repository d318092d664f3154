#include "core/events/game_events.h"

#include <algorithm>
#include <charconv>
#include <tuple>

#include "proto/gameevents.pb.h"

namespace gem {
namespace {

// The next space-separated word of `line` from `*pos` ("" at the end).
std::string_view NextWord(std::string_view line, size_t* pos) {
  while (*pos < line.size() && line[*pos] == ' ') ++*pos;
  const size_t start = *pos;
  while (*pos < line.size() && line[*pos] != ' ') ++*pos;
  return line.substr(start, *pos - start);
}

bool ParseInt(std::string_view word, int32_t* out) {
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), *out);
  return ec == std::errc() && end == word.data() + word.size();
}

}  // namespace

const KnownEventList* ClosestEventList(std::span<const KnownEventList> known,
                                       int32_t network_protocol, int32_t build_num) {
  const auto key = std::make_tuple(network_protocol, build_num);
  const KnownEventList* before = nullptr;
  const KnownEventList* after = nullptr;
  for (const KnownEventList& k : known) {
    const auto at = std::make_tuple(k.network_protocol, k.build_num);
    if (at <= key) {
      if (before == nullptr || at > std::make_tuple(before->network_protocol, before->build_num)) {
        before = &k;
      }
    } else if (after == nullptr ||
               at < std::make_tuple(after->network_protocol, after->build_num)) {
      after = &k;
    }
  }
  return before != nullptr ? before : after;
}

Status GameEventRegistry::LoadText(std::string_view text) {
  by_id_.clear();
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t eol = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(std::min(eol + 1, text.size()));
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    size_t pos = 0;
    Descriptor d;
    const bool has_id = ParseInt(NextWord(line, &pos), &d.id);
    const std::string_view name = NextWord(line, &pos);
    const auto bad = [&](const char* what) {
      by_id_.clear();
      return Status::Corrupt("event list line " + std::to_string(line_no) + ": " + what);
    };
    if (!has_id || d.id < 0 || name.empty()) return bad("no id and name");
    d.name = name;
    for (std::string_view key = NextWord(line, &pos); !key.empty(); key = NextWord(line, &pos)) {
      const size_t colon = key.rfind(':');
      int32_t type = 0;
      if (colon == std::string_view::npos || colon == 0 ||
          !ParseInt(key.substr(colon + 1), &type)) {
        return bad("a key is not NAME:TYPE");
      }
      d.keys.emplace_back(std::string(key.substr(0, colon)), type);
    }
    if (by_id_.count(d.id) != 0) return bad("an id twice");
    by_id_.emplace(d.id, std::move(d));
  }
  return Status::Ok();
}

std::string GameEventRegistry::ToText() const {
  std::vector<const Descriptor*> sorted;
  for (const auto& [id, d] : by_id_) sorted.push_back(&d);
  std::sort(sorted.begin(), sorted.end(),
            [](const Descriptor* a, const Descriptor* b) { return a->id < b->id; });
  std::string out;
  for (const Descriptor* d : sorted) {
    out += std::to_string(d->id) + " " + d->name;
    for (const auto& [key, type] : d->keys) out += " " + key + ":" + std::to_string(type);
    out += "\n";
  }
  return out;
}

void GameEventRegistry::Load(const proto::CMsgSource1LegacyGameEventList& list) {
  by_id_.clear();
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
