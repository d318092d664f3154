// MatchState: what CS2's trackers (rounds, combat, grenades, bomb,
// economy) ask of the module that owns the players: who a game event
// names, where a player is, the round in play and the clock. Everything
// is as of the current index tick.
#ifndef GEM_CORE_CS2_MATCH_STATE_H_
#define GEM_CORE_CS2_MATCH_STATE_H_

#include <cstdint>
#include <string_view>

#include "core/entities/entities.h"
#include "core/events/events.h"
#include "core/match/match_context.h"
#include "core/match/player_controllers.h"
#include "core/events/match_rows.h"

namespace gem::cs2 {

// A player in play (team 2 or 3) now: its slot, controller and pawn (null
// when the handle names no live entity).
using PlayerNow = match::PlayerControllers::Player;

class MatchState {
 public:
  virtual ~MatchState() = default;
  // The slot an event's participant ("userid", "attacker", "assister")
  // is, by its "<who>_pawn" handle and "<who>" user id; -1 when none.
  virtual int32_t Participant(match::MatchContext& ctx, const GameEvent& e,
                              std::string_view who) = 0;
  // The slot whose controller's pawn or entity `e` is; -1 when none.
  virtual int32_t SlotOfEntity(match::MatchContext& ctx, const Entity& e) = 0;
  // The pawn of `slot` now; null when none.
  virtual const Entity* Pawn(match::MatchContext& ctx, int32_t slot) = 0;
  // The team of `slot`'s pawn (else its controller) now; NULL when none.
  virtual MatchValue Team(match::MatchContext& ctx, int32_t slot) = 0;
  // World position of an entity with a body component (NULL cells else).
  virtual void Position(const Entity* e, MatchValue* x, MatchValue* y, MatchValue* z) = 0;
  // The round in play (rounds.h), NULL when none.
  virtual MatchValue Round(match::MatchContext& ctx) = 0;
  // The game clock now (NULL when unknown).
  virtual MatchValue Clock(match::MatchContext& ctx) = 0;
  // The grenades table's id of the projectile at entity index `index`
  // (alive now or deleted this tick); NULL when none.
  virtual MatchValue GrenadeAt(int32_t index) = 0;
  // The game rules entity (CCSGameRulesProxy) now; null before it exists.
  virtual const Entity* GameRules(match::MatchContext& ctx) = 0;
  // The CCSTeam m_iScore of teams 3 (CT) and 2 (T) now; NULL when unknown.
  virtual void TeamScores(match::MatchContext& ctx, MatchValue* ct, MatchValue* t) = 0;
  // How many grenades of `kind` (grenades.kind: "flash", "he", ...) went
  // off at this tick; the last one's grenades id and thrower slot (-1
  // unknown) when any did.
  virtual int GrenadeNow(match::MatchContext& ctx, std::string_view kind, MatchValue* id,
                         int32_t* thrower) = 0;
  // How many molotov fires burn now; the last one's thrower when any do.
  virtual int FiresNow(match::MatchContext& ctx, int32_t* thrower) = 0;
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_MATCH_STATE_H_
