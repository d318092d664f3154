// Economy: CS2's economy table, one row per player per round.
//
// A round's players are those in play (team 2 or 3) at the end of its
// first frame past the freeze time (its freeze end; for a round the replay
// joins after it, its first frame). Then (the row's tick): team is the
// pawn's m_iTeamNum (else the controller's), start_money the controller's
// m_pInGameMoneyServices.m_iStartAccount, equipment_value the pawn's
// m_unCurrentEquipmentValue (what it holds as the freeze ends; the game's
// m_unFreezetimeEndEquipmentValue stays 0 in a round without a freeze).
// Once the round is over (read at every frame from its end to the next
// round's start, or at the replay's end): spent is m_iCashSpentThisRound,
// kill_reward what the controller's m_pActionTrackingServices.m_iKillReward
// (the match's total) grew by since the freeze's end; NULL for a round
// not seen to end before the next one started.
//
// A restart (mp_restartgame: after a knife round, a warm-up's end) counts
// from round 1 again and voids the rounds it undoes, as the rounds table
// does (rounds.h): their rows go. So the rows are held to the end (a live
// index's commits write them as they stand: Write).
#ifndef GEM_CORE_CS2_ECONOMY_H_
#define GEM_CORE_CS2_ECONOMY_H_

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "core/cs2/match_state.h"
#include "core/cs2/tables.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"

namespace gem::cs2 {

class Economy {
 public:
  // After every frame: `round` the round in play, whether it started in
  // this frame, whether the freeze time is on (m_bFreezePeriod), whether
  // the round is over (rounds.h); `players` those in play now.
  // `players` is asked only on the frames that need them.
  void OnFrameEnd(match::MatchContext& ctx, MatchValue round, bool started, bool in_freeze,
                  bool over, const std::function<std::span<const PlayerNow>()>& players);
  // The last round's rows, as the replay leaves its players, then every
  // round's (Write).
  void Finish(match::MatchContext& ctx, std::span<const PlayerNow> players);
  // The rows as they stand: the rounds over, then the one in play (its
  // players once its freeze has ended; spent and kill_reward as settled).
  void Write(match::MatchContext& ctx) const;

 private:
  struct Row {
    bool present = false;
    int64_t tick = 0;
    MatchValue team, start_money, equipment_value, spent, kill_reward;
    std::optional<int64_t> reward_at_start;
  };
  using EconomyRow = std::array<MatchValue, kEconomyColumns>;
  static constexpr int32_t kSlots = 1 << 14;  // controller indexes - 1
  // The round in play's rows into `out`, in slot order.
  void RowsOfRound(std::vector<EconomyRow>* out) const;
  // The round in play is over: its rows join held_.
  void Close();
  // Reads spent and kill_reward of the round's players now.
  void Settle(std::span<const PlayerNow> players);

  int64_t round_ = -1;
  bool roster_taken_ = false;
  std::vector<Row> rows_;  // this round's, by slot
  std::vector<EconomyRow> held_;  // the rounds over, in order
  match::FieldReader team_{"m_iTeamNum"};
  match::FieldReader start_account_{"m_pInGameMoneyServices.m_iStartAccount"};
  match::FieldReader spent_{"m_pInGameMoneyServices.m_iCashSpentThisRound"};
  match::FieldReader reward_field_{"m_pActionTrackingServices.m_iKillReward"};
  match::FieldReader equipment_{"m_unCurrentEquipmentValue"};
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_ECONOMY_H_
