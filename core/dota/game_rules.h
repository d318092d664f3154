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

  // Called for every entity created.
  void OnCreated(const TickInfo& tick, const Entity& entity, ReplayMetadata* meta);
  // Called after every frame: the start is the first frame after which the
  // rules entity's start time is set (the state changes only by frames'
  // updates, so no update need be watched).
  void OnFrameEnd(const TickInfo& tick, const EntityManager& entities, ReplayMetadata* meta);

  // Fills match id, game mode and winner from the final game rules state
  // where the file info gave none.
  void Finish(const EntityManager& entities, ReplayMetadata* meta) const;

 private:
  bool IsRulesClass(int32_t class_id);
  void CheckStart(const TickInfo& tick, const Entity& entity, ReplayMetadata* meta);

  const Schema* schema_;
  int32_t class_id_ = -1;
  bool class_known_ = false;
  int32_t rules_index_ = -1;  // the rules entity's index, once created
  uint32_t start_field_ = ClassFields::kInvalid;
  size_t fields_checked_ = 0;
};

}  // namespace gem

#endif  // GEM_CORE_DOTA_GAME_RULES_H_
