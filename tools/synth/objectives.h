// Objectives: what a synthetic Dota match's teams take, and the truth of
// it, from the horn on:
//
// - A building about every minute: a tower or barracks of the fixture dies
//   (m_lifeState 1, m_iHealth 0) and the combat log says so (DOTA_
//   COMBATLOG_DEATH, its target the building's combat-log name: the
//   entity's map name "dota_goodguys_tower1_mid" as
//   "npc_dota_goodguys_tower1_mid", "good_rax_melee_mid" as
//   "npc_dota_goodguys_melee_rax_mid", a tier-4 tower without its lane),
//   killed by a hero of the other team.
// - Roshan a minute in and every four minutes (CHAT_MESSAGE_ROSHAN_KILL,
//   its first player id the team), the aegis taken with it (AEGIS, then
//   AEGIS_STOLEN, then AEGIS_DENIED, in turn: its first player id the
//   taker); a Tormentor (MINIBOSS_KILL: the player, the team as the
//   value); a courier lost (COURIER_LOST: the killer, the courier's team);
//   first blood at the first kill (FIRSTBLOOD: killer, victim). Half a
//   minute after an aegis is taken (or stolen) its taker dies and comes
//   back: a combat-log death with will_reincarnate set, which is no kill.
// - Runes about every 20 s from the pre-game (CHAT_MESSAGE_RUNE_PICKUP,
//   one in five RUNE_BOTTLE: the player, the rune's type as the value);
//   buybacks about every 100 s (DOTA_COMBATLOG_BUYBACK, the player's slot
//   as the value).
// - Heroes hit and heal heroes (DOTA_COMBATLOG_DAMAGE to a hero of the
//   other team, one in ten an illusion; DOTA_COMBATLOG_HEAL of a teammate),
//   a few times a second: what damage, healing and teamfights sum.
//
// Truth (match truth lines): {"kind":"objective", tick, objective, team,
// by_team, slot, target, value, cell_x, vec_x, ... (the unit's position,
// or the hero's the event is about; null when none)}, {"kind":"rune",
// tick, slot, rune_type, bottled}, {"kind":"buyback", tick, slot}.
#ifndef GEM_TOOLS_SYNTH_OBJECTIVES_H_
#define GEM_TOOLS_SYNTH_OBJECTIVES_H_

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "proto/dota_usermessages.pb.h"
#include "tools/synth/combat_writer.h"
#include "tools/synth/player_stats.h"
#include "tools/synth/world.h"

namespace gem::synth {

class Objectives {
 public:
  Objectives(World* world, std::mt19937_64* rng, CombatWriter* combat, const PlayerStats* stats)
      : world_(world), rng_(rng), combat_(combat), stats_(stats) {}

  void Start(uint32_t pregame, uint32_t horn, FILE* truth);
  void Tick(uint32_t tick);
  // A kill PlayerStats wrote (the first is first blood).
  void OnKill(uint32_t tick, int killer, int victim);
  uint64_t objectives() const { return objectives_; }

 private:
  struct Building {
    SimEntity* e;
    std::string combat_name;
    const char* kind;
    int team;
  };
  double Uniform() { return static_cast<double>((*rng_)() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : (*rng_)() % n; }
  void ChatEvent(int type, uint32_t value, int player1, int player2);
  // The truth line; `where` the entity whose position it names (null:
  // none).
  void Tell(uint32_t tick, const char* kind, const std::string& team, const std::string& by_team,
            const std::string& slot, const std::string& target, int64_t value,
            const SimEntity* where);
  // A death of `target` (its combat-log name) at `killer`'s hands.
  proto::CMsgDOTACombatLogEntry Death(uint32_t tick, const std::string& target,
                                      const PlayerStats::View& killer);
  void Destroy(uint32_t tick);
  void Roshan(uint32_t tick);
  void Reincarnate(uint32_t tick);
  void Combat(uint32_t tick);
  const PlayerStats::View* Player(int team);  // a random player of `team` (0: any)
  int TeamOf(int slot) const;

  World* world_;
  std::mt19937_64* rng_;
  CombatWriter* combat_;
  const PlayerStats* stats_;
  FILE* truth_ = nullptr;
  std::vector<PlayerStats::View> players_;
  std::vector<Building> buildings_;
  SimEntity* roshan_ = nullptr;
  uint32_t pregame_ = 0, horn_ = 0;
  uint32_t next_building_ = 0, next_roshan_ = 0;
  int aegis_turn_ = 0;
  std::pair<uint32_t, int> reincarnate_{0, -1};  // (tick, slot) the aegis saves
  bool first_blood_ = false;
  uint64_t objectives_ = 0;
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_OBJECTIVES_H_
