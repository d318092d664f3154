// The game clock of Source 2 games: server time less the time spent
// paused, counted from the game's own start.
//
// Game rules entities of Dota 2, CS2 and Deadlock share the pause fields
// (m_pGameRules.m_bGamePaused, m_nPauseStartTick, m_nTotalPausedTicks):
// game seconds at server tick s are
//   ((paused ? pause start tick : s) - total paused ticks) * tick interval
// and the clock reads game seconds minus the start (origin) each game
// names in its own fields (GameModule::ClockOrigin).
#ifndef GEM_CORE_MATCH_GAME_CLOCK_H_
#define GEM_CORE_MATCH_GAME_CLOCK_H_

#include <cstdint>
#include <optional>

#include "core/entities/entities.h"
#include "core/match/field_reader.h"

namespace gem::match {

class PauseClock {
 public:
  // Game seconds at server tick `server_tick`, by `rules`' pause fields
  // (absent fields count as not paused).
  double GameSeconds(const Entity* rules, int64_t server_tick, double tick_interval);

 private:
  FieldReader paused_{"m_pGameRules.m_bGamePaused"};
  FieldReader pause_start_{"m_pGameRules.m_nPauseStartTick"};
  FieldReader total_paused_{"m_pGameRules.m_nTotalPausedTicks"};
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_GAME_CLOCK_H_
