// DotaActivity: what a synthetic Dota match's players do beyond their
// economy and kills (player_stats.h), and the truth of it:
//
// - Lanes: until the game clock passes 10:00, each hero heads for points
//   in its lane: Radiant's players (in slot order) bot, bot, mid, top and
//   a roamer, Dire's top, top, mid, bot and one in the Dire jungle; the
//   roamer visits the top lane, both jungles and the bot lane in turn.
//   The boxes lie well inside OpenDota's lane map (core/dota/lanes.h). A
//   hero whose health runs out while laning heals where it stands rather
//   than going back to its base (on the mid lane's line).
//   Truth: {"kind":"lane", slot, lane (1 bot, 2 mid, 3 top, 5 Dire
//   jungle; null for the roamer), roaming}.
// - Orders: each player gives an order about every 0.7 s
//   (DOTA_UM_SpectatorPlayerUnitOrders from the player's controller:
//   moves, attacks, casts, purchases, now and then queued). Truth:
//   {"kind":"order", tick, slot, order_type, units, target_index,
//   ability_id, x, y, z (float32; null without a position), queued}.
// - Abilities and items: each hero casts about every 3 s and uses an item
//   about every 7 s (DOTA_COMBATLOG_ABILITY / _ITEM, the hero as the
//   attacker, half of them at another player's hero, one in ten of those
//   an illusion); in the combat truth.
// - Deaths of units: a lane creep or neutral that goes dies in the
//   combat log (DOTA_COMBATLOG_DEATH, killed by an enemy hero, now and
//   then by its summon, the hero the damage source, or by a creep); in
//   the combat truth.
// - Deaths: a killed hero's m_lifeState goes to 1 (dying), a packet later
//   to 2 (dead), and back to 0 when it respawns 6-40 s later (a hero
//   killed while dead stays dead). Truth: {"kind":"death", slot, tick,
//   respawn_tick} (the respawn may lie past the replay's end).
// - Multi-kills and streaks: DOTA_COMBATLOG_MULTIKILL and _KILLSTREAK
//   entries by the game's rule (a kill within 18 s of the killer's last
//   extends a multi-kill, an entry from its second kill, the count the
//   entry's value; a streak counts kills since the killer last died, an
//   entry from its third), written after the kill's death entry; in the
//   combat truth. With flaws there are none, as in builds without them.
// - The pause: a CHAT_MESSAGE_PAUSED chat event names a player (its
//   playerid_1) when the game pauses. Truth: {"kind":"pause", start_tick,
//   end_tick, slot}.
// - With flaws, 20 s after the horn: an order of a type dotaunitorder_t
//   lacks (1000), an order from an entity that is no controller (the
//   world, 0), an order message cut short (no truth line), and gold and
//   XP entries whose reasons the enumerations lack (99, 50).
//
// Its random choices come from a generator of its own (seeded from the
// match's seed), so that the rest of the match draws as it did before.
#ifndef GEM_TOOLS_SYNTH_DOTA_ACTIVITY_H_
#define GEM_TOOLS_SYNTH_DOTA_ACTIVITY_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tools/synth/combat_writer.h"
#include "tools/synth/player_stats.h"
#include "tools/synth/world.h"

namespace gem::synth {

class DotaActivity {
 public:
  DotaActivity(World* world, uint64_t seed, CombatWriter* combat, PlayerStats* stats, bool flaws)
      : world_(world), rng_(seed ^ 0x6c616e6573ull), combat_(combat), stats_(stats),
        flaws_(flaws) {}

  // After PlayerStats::Start: finds each player's controller, gives each
  // hero its lane; the lane truth goes to `truth` (may be null).
  void Start(FILE* truth);
  // Where `hero` heads next while laning, from two uniform numbers in
  // [0, 1); false once laning is over (or for a unit that is no player's).
  bool LaneTarget(const SimEntity* hero, uint32_t tick, double u, double v, double* x,
                  double* y);
  // Whether heroes still keep to their lanes at `tick`.
  bool Laning(uint32_t tick) const { return !players_.empty() && tick < laning_until_; }
  // Whether the entity at `index` is a player's controller (whose player
  // id, team and hero must hold still for its orders to name its player).
  bool IsController(int32_t index) const {
    for (const Player& p : players_) {
      if (p.controller == index) return true;
    }
    return false;
  }
  void Tick(uint32_t tick);
  // A lane creep (or a neutral) of `team` went.
  void OnUnitDied(uint32_t tick, bool lane_creep, int team);
  // `killer`'s hero killed `victim`'s (slots), after the death's entry.
  void OnKill(uint32_t tick, int killer, int victim);

 private:
  struct Box {
    double x0, x1, y0, y1;
    bool diagonal;  // the mid lane: along y = x
  };
  struct Player {
    int slot, team;
    SimEntity* hero;
    int32_t controller;  // entity index; -1 when none
    std::vector<Box> boxes;  // visited in turn
    size_t next = 0;
    int32_t sequence = 0;
    // Kills in the multi-kill and the streak so far, and the last kill.
    int64_t multi = 0, streak = 0;
    uint32_t last_kill = 0;
    // The life state's next moves: to dead, and back to alive (0: none).
    uint32_t dead_at = 0, respawn_at = 0;
  };

  double Uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  void Order(uint32_t tick, const Player& p, int32_t entindex, int32_t order_type);
  void Use(uint32_t tick, const Player& p, bool item);
  void Flaws(uint32_t tick);
  Player* Find(int slot);
  void SetLifeState(Player* p, int64_t state);
  void StreakEntry(uint32_t tick, const Player& p, int32_t type, int64_t value);
  void Pause(uint32_t tick);

  World* world_;
  std::mt19937_64 rng_;
  CombatWriter* combat_;
  PlayerStats* stats_;
  bool flaws_;
  FILE* truth_ = nullptr;
  std::vector<Player> players_;
  uint32_t laning_until_ = 0;
  uint32_t flaw_tick_ = 0;
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_DOTA_ACTIVITY_H_
