// Rounds: CS2's rounds table and the round every other row is in.
//
// Two sources are followed side by side, and the rounds table takes the
// events' rounds when the replay has round_start and round_end events,
// else the game rules' (the meta's rounds_from_events /
// rounds_from_game_rules say which):
//
// - events: round_start (start), round_freeze_end, round_end (winner,
//   reason), round_officially_ended;
// - the game rules (CCSGameRulesProxy m_pGameRules): m_nRoundStartCount
//   changing (start), m_bFreezePeriod falling (freeze end),
//   m_nRoundEndCount changing (end; winner m_iRoundWinStatus, reason
//   m_eRoundWinReason); the official end is the next round's start.
//
// Both are read at the end of each frame, when every message of it has
// been applied. A round's number is m_totalRoundsPlayed + 1 as of its
// start (the rounds the game has counted: a restart or the warm-up's end
// sets it back to 0), so numbers follow the game's own and a replay that
// starts mid-match numbers its rounds as the game does. Rounds that start
// in the warm-up (m_bWarmupPeriod) are left out, and rows then have round
// NULL. A replay that starts mid-round gets that round with start_tick
// NULL (rounds_started_before_the_replay). A second end of a round that
// has ended is ignored and counted (round_ends_repeated).
//
// winner is the team (2 T, 3 CT); reason its name (ReasonName); ct_score
// and t_score the CCSTeam m_iScore of teams 3 and 2 as of the end of the
// frame the round ended in; bomb_plant_tick and bomb_site the round's
// first plant (bomb.h).
#ifndef GEM_CORE_CS2_ROUNDS_H_
#define GEM_CORE_CS2_ROUNDS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/cs2/bomb.h"
#include "core/cs2/event_keys.h"
#include "core/cs2/match_state.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"

namespace gem::cs2 {

// The name of a round end reason (the game's RoundEndReason); null when
// it is none of them.
const char* ReasonName(int64_t reason);

class Rounds {
 public:
  void OnGameEvent(match::MatchContext& ctx, const GameEvent& e, EventKeys& keys);
  // Applies what this frame told (see above).
  void OnFrameEnd(match::MatchContext& ctx, MatchState& state);
  // The round in play: NULL in the warm-up and before the first round. In
  // a frame where a round starts, the new one already (as the frame's end
  // will say): rows of that tick are the new round's.
  MatchValue current(match::MatchContext& ctx, MatchState& state);
  // Whether a round started at this frame's end (economy's cue).
  bool started_now() const { return started_now_; }
  bool freeze_ended_now() const { return freeze_ended_now_; }
  // Whether the round in play has ended (by either source).
  bool over() const {
    return !current_.is_null() && ((!events_.rounds.empty() && events_.rounds.back().ended) ||
                                   (!game_rules_.rounds.empty() && game_rules_.rounds.back().ended));
  }
  // Writes the rounds table: the rounds as they stand (a live index's
  // commit asks mid-parse; a later restart may void some), each with its
  // first plant of `plants`.
  void Write(match::MatchContext& ctx, const std::vector<Bomb::Plant>& plants) const;
  void Finish(match::MatchContext& ctx, const Bomb& bomb) { Write(ctx, bomb.plants()); }

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  struct Round {
    int64_t number = 0;
    int64_t first_tick = 0;  // its start, or when the replay joined it
    MatchValue start_tick, freeze_end_tick, end_tick, official_end_tick;
    MatchValue winner, reason, ct_score, t_score;
    bool ended = false;
  };
  // One source's rounds and what it has seen this frame.
  struct Source {
    std::vector<Round> rounds;
    bool open = false;  // the last round has not ended
    uint64_t repeated_ends = 0;
  };
  void Start(match::MatchContext& ctx, Source* s, int64_t number, bool known_start);
  void End(match::MatchContext& ctx, MatchState& state, Source* s, MatchValue winner,
           MatchValue reason);
  void FreezeEnd(match::MatchContext& ctx, Source* s);
  

  Source events_, game_rules_;
  MatchValue current_;
  bool started_now_ = false, freeze_ended_now_ = false;
  bool seen_rules_ = false;   // the game rules have been read once
  bool saw_round_end_event_ = false, saw_round_start_event_ = false;
  // The events make the table only when they both start and end rounds
  // (a replay with round_end but no round_start gets the game rules').
  bool UseEvents() const { return saw_round_end_event_ && saw_round_start_event_; }
  // What this frame's events said, applied at its end.
  bool event_start_ = false, event_freeze_end_ = false, event_official_end_ = false;
  bool event_end_ = false;
  MatchValue event_winner_, event_reason_;
  // The game rules as of the last frame's end.
  int64_t start_count_ = -1, end_count_ = -1;
  bool freeze_ = false;
  match::FieldReader start_count_field_{"m_pGameRules.m_nRoundStartCount"};
  match::FieldReader end_count_field_{"m_pGameRules.m_nRoundEndCount"};
  match::FieldReader freeze_field_{"m_pGameRules.m_bFreezePeriod"};
  match::FieldReader warmup_field_{"m_pGameRules.m_bWarmupPeriod"};
  match::FieldReader played_field_{"m_pGameRules.m_totalRoundsPlayed"};
  match::FieldReader win_status_field_{"m_pGameRules.m_iRoundWinStatus"};
  match::FieldReader win_reason_field_{"m_pGameRules.m_eRoundWinReason"};
  uint64_t unknown_reasons_ = 0, started_before_ = 0;
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_ROUNDS_H_
