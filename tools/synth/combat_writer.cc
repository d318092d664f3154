#include "tools/synth/combat_writer.h"

#include "core/dota/combat_log.h"
#include "core/dota/combat_log_columns.h"
#include "core/fields/value.h"

namespace gem::synth {

uint32_t CombatWriter::Name(const std::string& name) {
  SimTable* names = world_->FindTable("CombatLogNames");
  if (names == nullptr) return 0;
  for (size_t i = 0; i < names->entries.size(); ++i) {
    if (names->entries[i].name == name) return static_cast<uint32_t>(i);
  }
  const int32_t index = static_cast<int32_t>(names->entries.size());
  world_->SetEntry(names, index, name, "");
  return static_cast<uint32_t>(index);
}

void CombatWriter::Write(uint32_t tick, const proto::CMsgDOTACombatLogEntry& e) {
  world_->AddMessage(dota::kDotaUmCombatLogDataHltv, e.SerializeAsString());
  ++written_;
  if (truth_ == nullptr) return;
  // Every field that is set (the lite runtime has no reflection: the
  // columns' list names them).
  line_ = "{\"tick\":" + std::to_string(tick);
  auto key = [this](const char* name) {
    line_ += ",\"";
    line_ += name;
    line_ += "\":";
  };
  if (e.has_type()) {
    key("type");
    line_ += std::to_string(e.type());
  }
#define GEM_NAME(field)                       \
  if (e.has_##field()) {                      \
    key(#field);                              \
    line_ += std::to_string(e.field());       \
  }
  GEM_NAME(target_name)
  GEM_NAME(target_source_name)
  GEM_NAME(attacker_name)
  GEM_NAME(damage_source_name)
  GEM_NAME(inflictor_name)
#undef GEM_NAME
#define GEM_COLUMN(field, kind, place)                                  \
  if (e.has_##field()) {                                                \
    key(#field);                                                        \
    if (#kind[0] == 'R') {                                              \
      AppendFloat32(static_cast<float>(e.field()), &line_);             \
    } else if (#kind[0] == 'B') {                                       \
      line_ += e.field() ? "true" : "false";                            \
    } else {                                                            \
      line_ += std::to_string(static_cast<int64_t>(e.field()));         \
    }                                                                   \
  }
  GEM_COMBAT_LOG_PLAIN_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  if (e.assist_players_size() > 0) {
    key("assist_players");
    line_ += '[';
    for (int i = 0; i < e.assist_players_size(); ++i) {
      if (i) line_ += ',';
      line_ += std::to_string(e.assist_players(i));
    }
    line_ += ']';
  }
  line_ += "}\n";
  std::fputs(line_.c_str(), truth_);
}

}  // namespace gem::synth
