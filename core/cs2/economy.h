// Economy: CS2's economy table, one row per player per round.
//
// A round's players are those in play (team 2 or 3) at the end of its
// first frame past the freeze time (its freeze end; for a round the replay
// joins after it, its first frame). Then (the row's tick): team is the
// pawn's m_iTeamNum (else the controller's),
// start_money is the controller's m_pInGameMoneyServices.m_iStartAccount,
// equipment_value the pawn's m_unCurrentEquipmentValue (what it holds as
// the freeze ends; the game's m_unFreezetimeEndEquipmentValue stays 0 in a
// round without a freeze). As the round gives way to the next (or the
// replay ends): spent is m_iCashSpentThisRound, kill_reward what the
// controller's m_pActionTrackingServices.m_iKillReward (the match's total)
// grew by since the round started.
#ifndef GEM_CORE_CS2_ECONOMY_H_
#define GEM_CORE_CS2_ECONOMY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>

#include "core/cs2/match_state.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/match_rows.h"

namespace gem::cs2 {

class Economy {
 public:
  // After every frame, once the round is known: `round` the round in play,
  // whether it started in this frame, whether the freeze time is on
  // (m_bFreezePeriod); `players` those in play now.
  struct InPlay {
    int32_t slot;
    const Entity* controller;
    const Entity* pawn;
  };
  void OnFrameEnd(match::MatchContext& ctx, MatchValue round, bool started, bool in_freeze,
                  std::span<const InPlay> players);
  void Finish(match::MatchContext& ctx);

 private:
  struct Row {
    int64_t tick = 0;
    MatchValue team, start_money, equipment_value, spent, kill_reward;
  };
  void Flush(match::MatchContext& ctx);

  int64_t round_ = -1;
  bool roster_taken_ = false;
  std::map<int32_t, Row> rows_;  // this round's, by slot
  // Each player's m_iKillReward as of the last frame, and as the round began.
  std::map<int32_t, int64_t> reward_, reward_at_start_;
  match::FieldReader team_{"m_iTeamNum"};
  match::FieldReader start_account_{"m_pInGameMoneyServices.m_iStartAccount"};
  match::FieldReader spent_{"m_pInGameMoneyServices.m_iCashSpentThisRound"};
  match::FieldReader reward_field_{"m_pActionTrackingServices.m_iKillReward"};
  match::FieldReader equipment_{"m_unCurrentEquipmentValue"};
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_ECONOMY_H_
