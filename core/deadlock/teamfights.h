// Teamfights: Deadlock's hero-against-hero damage clustered in time and
// space, by boon's rule (pnxenopoulos/boon, boon.stats.teamfights, read in
// its source; its defaults: 5 s, 1,500 units, 3 heroes).
//
// - An event is a Damage message whose attacker and victim are players
//   (their pawns or controllers), not the same one, on opposing teams (the
//   controllers' m_iTeamNum at the end of the message's packet). It is
//   placed at the victim's pawn's position at the end of that packet,
//   else the attacker's; an event with
//   neither is left out (meta: teamfight_damage_without_position). boon
//   joins each hit to the victim's position at the hit's tick; which
//   point of the tick its positions are read at is not in its Python, so
//   the end of the packet is gem's reading of it.
// - Events are taken in tick order (message order within a packet). A
//   fight stays active while its last event is at most round(5 s / tick
//   interval) ticks back. An event joins the active fight whose centroid
//   (the running mean of its events' x and y) is nearest, within 1,500
//   units (on a tie, the fight started last); else it starts a fight.
// - A fight is kept when at least 3 distinct players dealt or took its
//   damage. A kill (HeroKilled) counts for the fight of the last event
//   (kept or not) whose victim was the kill's, at or before its tick.
//
// The table (tables.h kTeamfights) is written whole at the end, and by a
// live index at each commit as it stands: a later event or kill can still
// add to a fight. Per event nothing is allocated once the frame's buffers
// have grown, but for a fight's own entry when it starts.
#ifndef GEM_CORE_DEADLOCK_TEAMFIGHTS_H_
#define GEM_CORE_DEADLOCK_TEAMFIGHTS_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/match/match_context.h"

namespace gem::deadlock {

class Teamfights {
 public:
  // What the frame's end knows of a player: their pawn's position (when
  // the pawn is in view) and their team.
  struct Player {
    bool placed = false;
    double x = 0, y = 0;
    int64_t team = -1;  // -1: unknown
  };

  // A Damage message between two players' entities (slots), in this frame.
  void OnDamage(int32_t attacker, int32_t victim, MatchValue damage, MatchValue clock);
  // A HeroKilled message of the player at `victim`, in this frame.
  void OnKill(int32_t victim);
  // Whether this frame has damage or kills for OnFrameEnd.
  bool pending() const { return !hits_.empty() || !kills_.empty(); }
  // At the end of the frame at `tick`: places and sweeps the frame's
  // events, then attributes its kills. `players` is by slot.
  void OnFrameEnd(int64_t tick, double tick_interval, std::span<const Player> players);
  // The kept fights as rows of the teamfights table, numbered by start.
  void Write(match::MatchContext& ctx) const;
  uint64_t unplaced() const { return unplaced_; }

 private:
  struct Hit {
    int32_t attacker, victim;
    MatchValue damage, clock;
  };
  struct Fight {
    int64_t start_tick = 0, end_tick = 0;
    MatchValue start_time, end_time;
    double cx = 0, cy = 0;  // the running mean, which events join by
    double sum_x = 0, sum_y = 0;
    int64_t events = 0, damage = 0, kills = 0;
    uint64_t heroes = 0;  // a bit per slot
  };

  std::vector<Hit> hits_;      // this frame's, not yet placed
  std::vector<int32_t> kills_;  // this frame's victims
  std::vector<Fight> fights_;  // in the order they started
  std::vector<size_t> active_;  // indexes into fights_, in that order
  std::vector<int64_t> last_fight_of_victim_;  // by slot; -1 when none
  uint64_t unplaced_ = 0;
};

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_TEAMFIGHTS_H_
