// DeadlockCrowd: what makes gem-synth's Deadlock match a standard match
// rather than one player in an empty map (deadlock_events.h writes the
// messages; this writes the people and their traffic).
//
// - Players: eleven more controllers and pawns, created in the first
//   packet (slots from 2 on: the controllers take the lowest free entity
//   indexes), six a team with the fixture's player. Each has a name, a
//   steam id, a hero id and the pawn's EntityNames name ("hero_...", an
//   entry added to the table).
// - Everything that moves sends, each packet, its position, its body's
//   rotation (facing where it goes, with a stride's sway), its walk cycle
//   (m_flSeqFixedCycle) and m_flSimulationTime.
// - Heroes walk between random points of the map, looking where they go
//   (m_angEyeAngles), and lose and regain health; every 5 s a controller's m_PlayerDataGlobal souls (net worth),
//   last hits, denies and player damage grow, and every 150 s its level.
// - Troopers (CNPC_Trooper, from its baseline) spawn every 25 s, `troopers`
//   a lane and team, at their team's end of each lane the fixture's
//   guardians mark (m_iLane), walk to its middle at 300 units a second
//   and shuffle about there fighting, lose health from 30 s on, and die
//   (m_lifeState 1, then deleted a second later) 50 to 100 s after
//   spawning.
// - Neutral camps (CNPC_TrooperNeutral, team 4): 20 camps of 3, each unit
//   swaying in place; a camp is cleared every 30 s and respawns 2 minutes
//   later.
// - Kills: every 40 s from minute 2 (none in the last 20 s), a living hero
//   kills a living enemy with 0 to 3 living teammates assisting: a
//   CCitadelUserMsg_HeroKilled (victim, attacker, scorer and inflictor the
//   killer's pawn, assisters their pawns, victim_team_number), the
//   controllers' m_iPlayerKills, m_iDeaths and m_iPlayerAssists, and the
//   victim's pawn dead (m_lifeState 2, health 0) for 15 s, then back at
//   its base.
//
// Truth (JSON lines): "kills" rows as the kills table should hold them
// (victim and killer slots, assisters in the message's order, weapon the
// killer pawn's name, the victim's position as of the message, victim_team)
// and, at the end, one "player_totals" row a player (slot, hero, kills,
// deaths, assists, souls).
#ifndef GEM_TOOLS_SYNTH_DEADLOCK_CROWD_H_
#define GEM_TOOLS_SYNTH_DEADLOCK_CROWD_H_

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tools/synth/world.h"

namespace gem::synth {

class DeadlockCrowd {
 public:
  // `troopers`: a wave's troopers per lane and team (0: no crowd at all).
  // 26 makes about the traffic of boon's standard match (458 MB in 36
  // minutes): a real wave is smaller, but its units send more fields (their
  // animation graphs' variables) than these.
  DeadlockCrowd(World* world, uint64_t seed, int troopers);
  // Creates the players (written in the first packet), in a Deadlock
  // world; nothing elsewhere. `end_tick` is the match's last packet.
  void Start(uint32_t end_tick, FILE* truth);
  // The packet at `tick`: kills first (messages come before entities),
  // then everyone moves.
  void Tick(uint32_t tick);
  // The players' totals (truth), after the last packet.
  void Finish();

 private:
  struct Unit {
    SimEntity* e = nullptr;
    double x = 0, y = 0, z = 0, tx = 0, ty = 0, speed = 0;
    int team = 0;
    double health = 0, max_health = 0;
    uint32_t spawn_tick = 0, die_tick = UINT32_MAX, gone_tick = UINT32_MAX;
    int camp = -1;
  };
  struct Hero {
    Unit u;
    int32_t slot;
    SimEntity* controller;
    std::string name;
    uint32_t respawn_tick = 0;  // 0: alive
    int64_t kills = 0, deaths = 0, assists = 0, souls = 0, level = 1;
  };
  struct Lane {
    int32_t lane;
    double end[2][2];  // team 2's end, team 3's end (x, y)
  };

  double Uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  void Place(Unit* u);
  void Step(Unit* u, uint32_t tick);
  // A unit just created: its team, health and life state, and where it is.
  void Born(Unit* u);
  // A unit dying now (m_lifeState 1, health 0), deleted a second later.
  void Die(Unit* u, uint32_t tick);
  // Whether the unit is dying or gone (deleted now, when its second is up).
  bool Dead(Unit* u, uint32_t tick);
  // Drops the deleted units.
  static void Sweep(std::vector<Unit>* units);
  void Kill(uint32_t tick);
  void SpawnWave(uint32_t tick);
  void SpawnCamp(int camp, uint32_t tick);
  void Economy();
  void FindLanes();
  void Set(SimEntity* e, const char* field, double value);
  // A controller's player data field: m_PlayerDataGlobal.<name> in builds
  // that nest it, <name> in those (10423) that do not.
  std::string StatField(const SimEntity& e, const char* name);
  void SetStat(SimEntity* e, const char* name, double value);
  int64_t GetStat(const SimEntity& e, const char* name);

  World* world_;
  std::mt19937_64 rng_;
  int troopers_per_lane_;
  bool active_ = false;
  FILE* truth_ = nullptr;
  uint32_t start_ = 0, end_ = 0;
  double tps_ = 64;
  int32_t trooper_class_ = -1, neutral_class_ = -1;
  std::vector<Hero> heroes_;
  std::vector<Unit> troopers_, neutrals_;
  std::vector<uint32_t> camp_respawn_;  // by camp: when it comes back (0: up)
  std::vector<Lane> lanes_;
  double half_ = 10000;  // the map's half extent
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_DEADLOCK_CROWD_H_
