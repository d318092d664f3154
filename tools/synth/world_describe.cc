// World: the parts that describe rather than encode (see world.h): field
// paths by name, game events, the truth lines and the replay's end (its
// stop and file info).
#include <iterator>
#include <string>

#include "core/input/demo_stream.h"
#include "core/fields/value.h"
#include "proto/demo.pb.h"
#include "proto/gameevents.pb.h"
#include "tools/synth/world.h"

namespace gem::synth {

const FieldPath* World::PathOf(int32_t class_id, const std::string& name) {
  auto& by_name = names_[class_id];
  auto it = by_name.find(name);
  if (it == by_name.end()) {
    // Misses are remembered too, as a path of depth 0 (last = -1).
    FieldPath path;
    path.last = -1;
    ClassFields* fields = parser_->mutable_entities().mutable_class_fields(class_id);
    const uint32_t id = fields == nullptr ? ClassFields::kInvalid : fields->FindByName(name);
    if (id != ClassFields::kInvalid) {
      path = fields->path(id);
    } else if (fields != nullptr) {
      // A field the replay never sent (a class without a baseline): its
      // path by the schema, for simple fields of tables.
      if (fields->serializer() != nullptr) {
        Schema::FindSimplePath(*fields->serializer(), name, &path);
      }
    }
    it = by_name.emplace(name, path).first;
  }
  return it->second.last < 0 ? nullptr : &it->second;
}

bool World::AddGameEvent(std::string_view name, const std::map<std::string, Value>& keys) {
  const GameEventRegistry::Descriptor* d = parser_->game_events().FindByName(name);
  if (d == nullptr) return false;
  proto::CMsgSource1LegacyGameEvent msg;
  msg.set_eventid(d->id);
  for (const auto& [key, type] : d->keys) {
    auto* k = msg.add_keys();
    k->set_type(type);
    auto it = keys.find(key);
    const Value v = it == keys.end() ? Value() : it->second;
    auto num = [&v]() -> double {
      switch (v.kind) {
        case ValueKind::kBool: return v.b ? 1 : 0;
        case ValueKind::kInt: return static_cast<double>(v.i);
        case ValueKind::kUint: return static_cast<double>(v.u);
        case ValueKind::kFloat: return v.f;
        default: return 0;
      }
    };
    if (v.kind == ValueKind::kString && type != 1) {
      // Text for a key the list types otherwise: sent as a string (a
      // flaw readers must survive).
      k->set_type(1);
      k->set_val_string(std::string(v.s));
      continue;
    }
    switch (type) {
      case 1: k->set_val_string(v.kind == ValueKind::kString ? std::string(v.s) : ""); break;
      case 2: k->set_val_float(static_cast<float>(num())); break;
      case 3:
      case 8: k->set_val_long(static_cast<int32_t>(v.kind == ValueKind::kInt ? v.i : num())); break;
      case 4:
      case 9: k->set_val_short(static_cast<int32_t>(num())); break;
      case 5: k->set_val_byte(static_cast<int32_t>(num())); break;
      case 6: k->set_val_bool(num() != 0); break;
      case 7: k->set_val_uint64(v.kind == ValueKind::kUint ? v.u : static_cast<uint64_t>(num()));
        break;
      default: break;
    }
  }
  AddMessage(207, msg.SerializeAsString());
  return true;
}

void World::WriteTruth(uint32_t tick, const SimEntity& e, FILE* out) {
  std::string line = "{\"req_tick\":" + std::to_string(tick) + ",\"tick\":" +
                     std::to_string(tick) + ",\"index\":" + std::to_string(e.index) +
                     ",\"serial\":" + std::to_string(e.serial) + ",\"class\":";
  AppendJsonString(e.class_name(), &line);
  line += ",\"fields\":[";
  bool first = true;
  for (const auto& [path, v] : e.state) {
    bool is_new = false;
    const uint32_t id = e.fields->Lookup(path, &is_new);
    if (id == ClassFields::kInvalid) continue;
    const FieldText& text = e.fields->text(id);
    if (!first) line += ',';
    first = false;
    line += "{\"path\":\"" + text.path + "\",\"name\":";
    AppendJsonString(text.name, &line);
    line += ",\"type\":";
    AppendJsonString(text.type, &line);
    if (e.fields->is_length(id)) line += ",\"length\":true";
    line += ",\"v\":";
    v.value.AppendJson(&line);
    line += '}';
  }
  line += "]}\n";
  std::fwrite(line.data(), 1, line.size(), out);
}

Status World::WriteEnd(uint32_t last_tick, ReplayWriter* out) {
  GEM_RETURN_IF_ERROR(out->Frame(kDemStop, last_tick, {}));
  if (!spawn_groups_frame_.empty()) {
    out->MarkSpawnGroups();
    GEM_RETURN_IF_ERROR(out->CopyFrame(spawn_groups_frame_));
  }
  proto::CDemoFileInfo info;
  if (!file_info_.empty() && !info.ParseFromString(file_info_)) info.Clear();
  const uint32_t ticks = last_tick;
  info.set_playback_ticks(static_cast<int32_t>(ticks));
  info.set_playback_frames(static_cast<int32_t>(counters_.packets + 1));
  info.set_playback_time(static_cast<float>(ticks) / 30.0f);
  if (!file_info_draft_.empty()) {
    auto* dota = info.mutable_game_info()->mutable_dota();
    dota->clear_picks_bans();
    for (const auto& [is_pick, team, hero] : file_info_draft_) {
      auto* e = dota->add_picks_bans();
      e->set_is_pick(is_pick);
      e->set_team(team);
      e->set_hero_id(hero);
    }
  }
  out->MarkFileInfo();
  return out->Frame(kDemFileInfo, last_tick, info.SerializeAsString());
}

}  // namespace gem::synth
