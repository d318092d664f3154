// Dota 2 game rules: what CDOTAGamerulesProxy tells about the match.
//
// - Game start: the first frame after which m_pGameRules.m_flGameStartTime
//   is non-zero (the frame's tick, and the game time it names); a replay
//   that starts after the game began learns it from the frame that
//   creates the rules entity.
// - Fallback metadata: when the file info lacks them (client recordings,
//   truncated replays), the match id, game mode and winner come from the
//   game rules entity's final state.
#ifndef GEM_CORE_DOTA_GAME_RULES_H_
#define GEM_CORE_DOTA_GAME_RULES_H_

#include "core/entities/entities.h"
#include "core/events/events.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/match/named_entity.h"

namespace gem::dota {

class GameRules {
 public:
  // Call for every entity created.
  void OnCreated(match::MatchContext& ctx, const Entity& e) { rules_.OnCreated(ctx, e); }
  // The rules entity now (null before it exists).
  const Entity* Get(match::MatchContext& ctx) const { return rules_.Get(ctx); }

  // After every frame.
  void OnFrameEnd(match::MatchContext& ctx, ReplayMetadata* meta);
  // Fills match id, game mode and winner from the rules entity's final
  // state where the file info gave none.
  void Finish(match::MatchContext& ctx, ReplayMetadata* meta);

 private:
  match::NamedEntity rules_{"CDOTAGamerulesProxy"};
  match::FieldReader start_{"m_pGameRules.m_flGameStartTime"};
  match::FieldReader match_id_{"m_pGameRules.m_unMatchID64"};
  match::FieldReader game_mode_{"m_pGameRules.m_iGameMode"};
  match::FieldReader winner_{"m_pGameRules.m_nGameWinner"};
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_GAME_RULES_H_
