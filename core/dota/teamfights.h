// Teamfights, by OpenDota's rule: a fight opens 15 s before a hero death
// and closes once 15 s pass without another; it counts when it has at
// least 3 deaths. Deaths are the kills table's (a player's hero that is
// not an illusion). A fight the replay's end cuts short closes at the last
// tick (OpenDota drops it; a truncated replay's last fight is still one).
//
// Per fight and player in the game (teamfight_players): deaths, and the
// combat-log sums over the fight's ticks (inclusive) as OpenDota makes
// them: damage and healing to heroes that are not illusions, credited to
// the damage source's player (an illusion's or summon's owner); gold and
// XP (DOTA_COMBATLOG_GOLD, _XP; gold signed, losses negative) credited to
// the target's player. A fight's x, y is the centroid of its deaths; its
// start_time and end_time are its first and last death's game clock less
// and plus 15 s (the last capped at the clock at the replay's end). A
// fight whose first 15 s begin before the replay does starts at the
// replay's first tick, start_clamped 1, its start_time the clock there.
// A death before the clock is known is timed from the start tick (as the
// tables' game_time is counted back), and every time is rounded to the
// millisecond.
//
// A fight is written once it has closed (a frame past its last death and
// the cooldown: every death and entry of it is in) and nothing to come
// can change its row: its clocks are known (the start tick too, for a
// death before the clock) and the clock has reached its end_time, so the
// end's cap cannot apply. Fights still open at the replay's end are
// written then. Ids count fights in order either way. A player's part is
// written for the slots on a team when the fight is written (or with a
// death in it).
#ifndef GEM_CORE_DOTA_TEAMFIGHTS_H_
#define GEM_CORE_DOTA_TEAMFIGHTS_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/dota/combat_log.h"
#include "core/dota/roster.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"
#include "core/events/table_spec.h"

namespace gem::dota {

TableSpec TeamfightsTable();
TableSpec TeamfightPlayersTable();

class Teamfights {
 public:
  explicit Teamfights(Roster* roster) : roster_(roster) {}

  // Every combat-log entry (damage, healing, gold, XP are kept).
  void OnCombatLog(match::MatchContext& ctx, const CombatLogEntry& c);
  // Every row of the kills table.
  void OnDeath(const KillRow& k);
  // After every frame: writes the fights closed by now (see above).
  // `first_tick` where the replay begins, `game_time` the clock of the last
  // timeline sample (none before the clock is known).
  void OnFrameEnd(match::MatchContext& ctx, int64_t first_tick,
                  std::optional<double> game_time) {
    first_tick_ = first_tick;
    if (next_ < deaths_.size()) {
      Write(ctx, false, ctx.tick(), first_tick, -1, game_time, ctx.start_tick());
    }
  }
  // After every timeline sample, at `tick` (taken before the next frame:
  // nothing happened between the last frame and it), the clock then
  // `game_time`: a fight the clock has just passed is written before the
  // next frame (and a live index's commit there).
  void OnSample(match::MatchContext& ctx, int64_t tick, std::optional<double> game_time) {
    if (next_ < deaths_.size()) {
      Write(ctx, false, std::max(tick, ctx.tick()), first_tick_, -1, game_time,
            ctx.start_tick());
    }
  }
  // Writes the fights left. `first_tick`, `last_tick`, `last_game_time`:
  // where the replay begins and ends; `start_tick`: where the clock reads
  // 0 (none when the replay does not say).
  void Finish(match::MatchContext& ctx, int64_t first_tick, int64_t last_tick,
              std::optional<double> last_game_time, std::optional<int64_t> start_tick) {
    Write(ctx, true, last_tick, first_tick, last_tick, last_game_time, start_tick);
  }

 private:
  enum Kind : int8_t { kDamage, kHealing, kGold, kXp };
  struct Entry {
    int64_t tick;
    int32_t value;
    int8_t kind;
    int8_t slot;
  };
  struct Death {
    int64_t tick;
    int32_t slot;
    MatchValue game_time, x, y;
  };
  // Writes the fights from deaths_[next_] on: all of them `at_end`
  // (`last_tick` the replay's last), else those closed for good by tick
  // `now` (everything up to it is in).
  void Write(match::MatchContext& ctx, bool at_end, int64_t now, int64_t first_tick,
             int64_t last_tick, std::optional<double> game_time,
             std::optional<int64_t> start_tick);
  // The slot of the hero a CombatLogNames index names, cached per roster.
  int SlotOfName(match::MatchContext& ctx, bool has, uint32_t index, std::string_view name);

  Roster* roster_;
  std::vector<Entry> entries_;
  std::vector<Death> deaths_;
  size_t next_ = 0;  // deaths_ before it are in fights written or dropped
  size_t scan_ = 0;  // entries_ before it are before every fight to come
  int64_t id_ = 0;   // the last fight's id
  int64_t first_tick_ = 0;  // the replay's first, as the frames say
  std::vector<int8_t> slot_by_name_;  // -2 not looked up, -1 none
  uint64_t cached_generation_ = 0;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_TEAMFIGHTS_H_
