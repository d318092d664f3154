// Urn: the idol's life in a Deadlock match, as rows of the urn table.
//
//   urn(id, tick, game_time, event, slot, team, entity, x, y, z)
//
// A replay names no urn carrier outright. What it has:
// - the ActiveModifiers lives (modifiers.h). A pawn carries the urn while
//   it has a live modifier whose ability_subclass is the token of
//   "ability_golden_idol" (the GoldenIdol ability the carrier is given).
//   A delivery puts a modifier whose modifier_subclass is the token of
//   "modifier_citadel_idol_return" on the pawn that delivered.
// - the delivery points, CCitadelIdolReturnTrigger entities, each with
//   its team (m_iTeamNum) and m_bDisabled.
//
// Events, each at the tick of what it comes from; team and x, y, z are
// the pawn's or point's at the end of that frame (after its entities):
// - 'picked_up': a player's pawn gains its first live golden-idol
//   modifier (slot, team: the pawn's m_iTeamNum; x, y, z: where it is).
// - 'returned': an idol-return modifier begins on a player's pawn. The
//   game may put it on again at once; one within kSameDelivery ticks of
//   the last on the same pawn is the same delivery (boon reads it so).
// - 'dropped': the pawn's last golden-idol modifier ends, and no
//   delivery by that pawn came within kSameDelivery ticks before or after
//   (then the urn was delivered, not dropped), and the pawn did not gain
//   one again within kSameDelivery ticks (a modifier put on afresh, with
//   a new serial, is no drop and no pickup). Its row is written once
//   that is known, kSameDelivery ticks later (or at the end): ids are not
//   in tick order.
// - 'point_enabled', 'point_disabled': a delivery point with a team
//   (m_iTeamNum 2 or 3) turns on (created enabled, or m_bDisabled turns
//   false) or off; entity, team and position are the trigger's.
//
// Modifier lives whose parent is no player's pawn are not the urn's.
#ifndef GEM_CORE_DEADLOCK_URN_H_
#define GEM_CORE_DEADLOCK_URN_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/deadlock/match_messages.h"
#include "core/match/body.h"

namespace gem::deadlock {

class Urn {
 public:
  Urn();
  // Ticks within which a return and a carrier's loss of the urn are one
  // delivery (a second at Deadlock's 64 ticks a second).
  static constexpr int64_t kSameDelivery = 64;
  // The tokens the urn's modifiers carry (StringToken of their names).
  uint32_t golden_idol_ability() const { return golden_idol_; }
  uint32_t idol_return_modifier() const { return idol_return_; }

  // A modifier life on `parent` (a player's pawn at `slot`, else ignored)
  // began at `tick` (game_time `clock`) or ended now.
  void LifeBegan(match::MatchContext& ctx, const Entity* parent, int32_t slot, int64_t tick,
                 const MatchValue& clock, std::optional<uint32_t> ability_id,
                 std::optional<uint32_t> modifier_id);
  // (`parent_handle`: the pawn's handle; the row takes its position at
  // the frame's end.)
  void LifeEnded(match::MatchContext& ctx, uint32_t parent_handle, int32_t slot,
                 const MatchValue& clock, std::optional<uint32_t> ability_id);
  // A delivery point was created or updated.
  void OnTrigger(match::MatchContext& ctx, MessageHost& host, const Entity& trigger);
  // After each frame: drops now known to be drops. `finish`: all of them.
  void OnFrameEnd(match::MatchContext& ctx, bool finish);

 private:
  struct Carrier {
    int32_t lives = 0;             // live golden-idol modifiers on the pawn
    int64_t last_return = INT64_MIN / 2;
    std::optional<std::vector<MatchValue>> drop;  // the loss, not yet known a drop
    uint32_t drop_handle = 0;
    bool drop_placed = false;  // its team and position read (at the frame's end)
  };
  Carrier& At(int32_t slot);
  // A row of `event` at `tick` for `e` (slot, team and position its own).
  std::vector<MatchValue> Row(const char* event, int64_t tick,
                              const MatchValue& clock, const Entity* e, int32_t slot);

  uint32_t golden_idol_, idol_return_;
  std::vector<Carrier> carriers_;  // by slot
  struct Point {
    int32_t index;
    bool enabled;
  };
  std::vector<Point> points_;
  match::PositionReader position_{512.0f};
  match::FieldReader team_{"m_iTeamNum"};
  match::FieldReader disabled_{"m_bDisabled"};
};

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_URN_H_
