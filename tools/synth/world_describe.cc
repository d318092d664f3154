// World: the parts that describe rather than encode (see world.h): the
// truth lines and the replay's end (its stop and file info).
#include <iterator>
#include <string>

#include "core/demo_stream.h"
#include "core/value.h"
#include "proto/demo.pb.h"
#include "tools/synth/world.h"

namespace gem::synth {

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
