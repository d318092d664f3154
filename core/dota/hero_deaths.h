// HeroDeaths: each time a player's hero was not alive, by its life state
// (m_lifeState: 0 alive, 1 dying, 2 dead): from the frame in which it left
// 0 (tick, game_time, life_state the state it took) to the frame in which
// it was 0 again (respawn_tick, respawn_time). seconds_dead is the game
// clock between the two (the clock stops in pauses, as the respawn timer
// does); a hero still dead at the replay's end has no respawn and no
// seconds. The rows are what the field says: a reincarnation (the aegis,
// Wraith King) that passes through a life state other than 0 is a row too,
// though the kills table counts no death. A row is written as the hero is
// alive again (once the clocks it counts back from are known: the horn's
// tick), so rows (and ids) are in the order the heroes came back; those
// dead at the replay's end are written at the end, by slot.
#ifndef GEM_CORE_DOTA_HERO_DEATHS_H_
#define GEM_CORE_DOTA_HERO_DEATHS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "core/match/match_context.h"
#include "core/events/match_rows.h"
#include "core/events/table_spec.h"

namespace gem::dota {

TableSpec HeroDeathsTable();

class HeroDeaths {
 public:
  // Slot's hero's m_lifeState is now `state`; `game_time` the clock now.
  void OnLifeState(match::MatchContext& ctx, int slot, int64_t state,
                   const MatchValue& game_time);
  // After every frame: writes the spans that waited for the start tick.
  void OnFrameEnd(match::MatchContext& ctx) {
    if (!closed_.empty() && ctx.start_tick()) Write(ctx, ctx.start_tick(), false);
  }
  // Writes the rows left; heroes dead at the end have no respawn. A clock
  // not known yet at a death or a respawn is counted back from `start_tick`.
  void Finish(match::MatchContext& ctx, std::optional<int64_t> start_tick);

 private:
  struct Open {
    int64_t tick;
    MatchValue game_time;
    int64_t state;
  };
  struct Span {
    int slot;
    Open begin;
    MatchValue respawn_tick, respawn_time;
  };

  // Writes the closed spans whose times are known (all at `at_end`), in
  // order: one that cannot be timed yet holds back those after it.
  void Write(match::MatchContext& ctx, std::optional<int64_t> start_tick, bool at_end);

  std::map<int, Open> open_;
  std::vector<Span> closed_;  // not written yet
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_HERO_DEATHS_H_
