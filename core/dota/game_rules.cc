#include "core/dota/game_rules.h"

#include <string_view>

namespace gem {
namespace {

constexpr std::string_view kGameStartTime = "m_pGameRules.m_flGameStartTime";
constexpr std::string_view kMatchId = "m_pGameRules.m_unMatchID64";
constexpr std::string_view kGameMode = "m_pGameRules.m_iGameMode";
constexpr std::string_view kGameWinner = "m_pGameRules.m_nGameWinner";

bool ReadInt(const Entity& e, std::string_view name, int64_t* out) {
  uint32_t id = e.fields->FindByName(name);
  if (id == ClassFields::kInvalid) return false;
  FieldState::Stored s = e.state.Get(e.fields->slot(id));
  switch (s.value.kind) {
    case ValueKind::kInt: *out = s.value.i; return true;
    case ValueKind::kUint: *out = static_cast<int64_t>(s.value.u); return true;
    default: return false;
  }
}

}  // namespace

bool GameRulesWatcher::IsRulesClass(int32_t class_id) {
  // Asked once per creation (updates are not watched): a name compare,
  // until the rules class is known.
  if (class_known_) return class_id == class_id_;
  const ClassInfo* info = schema_->GetClass(class_id);
  if (info == nullptr || info->name != kClassName) return false;
  class_id_ = class_id;
  class_known_ = true;
  return true;
}

void GameRulesWatcher::OnCreated(const TickInfo& tick, const Entity& entity,
                                 ReplayMetadata* meta) {
  if (meta->game_start_tick >= 0 || !IsRulesClass(entity.class_id)) return;
  rules_index_ = entity.index;
  // A replay that starts after the game began: the start is before tick 0
  // of the recording, and the creation is the first we hear of it.
  CheckStart(tick, entity, meta);
}

void GameRulesWatcher::OnFrameEnd(const TickInfo& tick, const EntityManager& entities,
                                  ReplayMetadata* meta) {
  if (meta->game_start_tick >= 0 || rules_index_ < 0) return;
  const Entity* rules = entities.Get(rules_index_);
  if (rules == nullptr || rules->class_id != class_id_) return;
  CheckStart(tick, *rules, meta);
}

void GameRulesWatcher::CheckStart(const TickInfo& tick, const Entity& entity,
                                  ReplayMetadata* meta) {
  const ClassFields* fields = entity.fields;
  if (start_field_ == ClassFields::kInvalid && fields->size() != fields_checked_) {
    start_field_ = fields->FindByName(kGameStartTime);
    fields_checked_ = fields->size();
  }
  if (start_field_ == ClassFields::kInvalid) return;
  FieldState::Stored s = entity.state.Get(fields->slot(start_field_));
  if (s.value.kind == ValueKind::kFloat && s.value.f != 0.0f) {
    meta->game_start_tick = tick.tick;
    meta->game_start_time = s.value.f;
  }
}

void GameRulesWatcher::Finish(const EntityManager& entities,
                              ReplayMetadata* meta) const {
  const Entity* rules = nullptr;
  for (int i = 0; i < EntityManager::kMaxEntities && rules == nullptr; ++i) {
    const Entity* e = entities.Get(i);
    if (e == nullptr) continue;
    const ClassInfo* info = schema_->GetClass(e->class_id);
    if (info != nullptr && info->name == kClassName) rules = e;
  }
  if (rules == nullptr) return;
  int64_t v;
  bool used = false;
  if (meta->match_id == 0 && ReadInt(*rules, kMatchId, &v) && v != 0) {
    meta->match_id = static_cast<uint64_t>(v);
    used = true;
  }
  if (meta->game_mode == 0 && ReadInt(*rules, kGameMode, &v) && v != 0) {
    meta->game_mode = static_cast<int32_t>(v);
    used = true;
  }
  if (meta->game_winner == 0 && ReadInt(*rules, kGameWinner, &v) && v != 0) {
    meta->game_winner = static_cast<int32_t>(v);
    used = true;
  }
  if (used && meta->match_source.empty()) meta->match_source = "gamerules";
  else if (used) meta->match_source += "+gamerules";
}

}  // namespace gem
