// Dota 2 game rules: what CDOTAGamerulesProxy tells about the match.
//
// - Game start: the first update that makes m_pGameRules.m_flGameStartTime
//   non-zero (the tick and the game time it names).
// - Fallback metadata: when the file info lacks them (client recordings,
//   truncated replays), the match id, game mode and winner come from the
//   game rules entity's final state.
#ifndef GEM_CORE_DOTA_GAME_RULES_H_
#define GEM_CORE_DOTA_GAME_RULES_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/class_fields.h"
#include "core/entities.h"
#include "core/events.h"
#include "core/schema.h"
#include "core/sink.h"

namespace gem {

class GameRulesWatcher {
 public:
  static constexpr const char* kClassName = "CDOTAGamerulesProxy";

  explicit GameRulesWatcher(const Schema* schema) : schema_(schema) {}

  // Called after every entity update, with the updated entity.
  void OnUpdated(const TickInfo& tick, const Entity& entity, ReplayMetadata* meta);
  void OnCreated(const TickInfo& tick, const Entity& entity, ReplayMetadata* meta);

  // Fills match id, game mode and winner from the final game rules state
  // where the file info gave none.
  void Finish(const EntityManager& entities, ReplayMetadata* meta) const;

 private:
  bool IsRulesClass(int32_t class_id);

  const Schema* schema_;
  int32_t class_id_ = -1;
  bool class_known_ = false;
  std::vector<bool> not_rules_;  // by class id: named, and not the rules class
  uint32_t start_field_ = ClassFields::kInvalid;
  size_t fields_checked_ = 0;
};

}  // namespace gem

#endif  // GEM_CORE_DOTA_GAME_RULES_H_
