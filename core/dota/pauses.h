// Pauses: each time the game stood still, from the game rules' pause state
// (m_pGameRules.m_bGamePaused): a pause starts at the end of the frame
// in which the flag turns true and ends at the end of the frame in which
// it turns false (end_tick NULL while paused at the replay's end). Who
// paused is the player of the last CHAT_MESSAGE_PAUSED chat event
// (its first player id) since the pause before ended, up to the pause's
// end; NULL when the replay names none. duration_s is the pause's ticks
// over the tick rate; game_time the (stopped) game clock at its start,
// counted back from the horn before the clock is known. The columns are
// Deadlock's pauses' (tick, game_time, end_tick, duration_s, team) and the
// player. A row is written as its pause ends (once the clock it counts back
// from is known: the horn's tick), in order; the team is the pausing
// player's then. A pause still on at the replay's end is written at the end.
#ifndef GEM_CORE_DOTA_PAUSES_H_
#define GEM_CORE_DOTA_PAUSES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/dota/chat.h"
#include "core/dota/roster.h"
#include "core/entities/entities.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/table_spec.h"

namespace gem::dota {

TableSpec PausesTable();

class Pauses {
 public:
  explicit Pauses(Roster* roster) : roster_(roster) {}

  void OnChatEvent(const ChatEvent& e) {
    if (e.type == kChatPaused) paused_by_ = e.player_ids[0];
  }
  // After every frame: `rules` the game rules entity (may be null),
  // `game_time` the clock now (asked only when the state moves).
  template <typename Clock>
  void OnFrameEnd(match::MatchContext& ctx, const Entity* rules, Clock&& game_time) {
    const bool paused = match::ReadInt(paused_field_, rules).value_or(0) != 0;
    if (paused != open_.has_value()) Move(ctx, paused, game_time());
    if (!closed_.empty()) Write(ctx, ctx.start_tick(), false);
  }
  // Writes the rows left; a pause still open has no end. A start before
  // the clock is known is counted back from `start_tick`.
  void Finish(match::MatchContext& ctx, std::optional<int64_t> start_tick);

 private:
  struct Open {
    int64_t tick;
    MatchValue game_time;
  };
  struct Closed {
    Open begin;
    std::optional<int64_t> end_tick;
    int32_t by;  // the pausing player's slot; -1 when none
  };
  void Move(match::MatchContext& ctx, bool paused, const MatchValue& game_time);
  // Writes the ended pauses whose start can be timed (all at `at_end`),
  // in order: one that cannot yet holds back those after it.
  void Write(match::MatchContext& ctx, std::optional<int64_t> start_tick, bool at_end);

  Roster* roster_;
  match::FieldReader paused_field_{"m_pGameRules.m_bGamePaused"};
  std::optional<Open> open_;
  int32_t paused_by_ = -1;
  std::vector<Closed> closed_;  // ended, not written yet
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_PAUSES_H_
