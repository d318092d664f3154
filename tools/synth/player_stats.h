// PlayerStats: the players of a synthetic Dota match, as the game carries
// them, and the truth of what was written.
//
// - Economy: each player's gold (reliable and unreliable), net worth, total
//   earned XP, last hits and denies in the team data entity
//   (CDOTA_DataRadiant / CDOTA_DataDire, m_vecDataTeam at the player's
//   m_iTeamSlot) grow every few packets.
// - Kills: about one every 20 s, a hero of one team kills one of the other
//   with 0-3 assisting players: the player resource's kills, deaths and
//   assists change, and a DOTA_COMBATLOG_DEATH entry names both heroes
//   (their EntityNames names, added to CombatLogNames when missing), the
//   assisting players and an inflictor.
// - Also in the team data: total earned gold, stuns, camps and creeps
//   stacked; in the player resource, teamfight participation ((kills +
//   assists) / the team's kills). Now and then a DOTA_COMBATLOG_GOLD or _XP
//   entry tells of the gold or XP a hero got, and a hero's death costs it
//   gold (a GOLD entry with a negative value).
// - Kills come in bursts too (3-4 deaths a few seconds apart, about every
//   90 s of game): teamfights.
// - Clock: hero selection first (draft.h), then the pre-game from
//   `pregame_tick`, whose m_flStateTransitionTime names the horn; the horn
//   sounds `horn_after` ticks into the match (m_flGameStartTime), and the
//   game pauses for 10 s a minute later (m_bGamePaused, m_nPauseStartTick,
//   m_nTotalPausedTicks). The server's tick is the replay's tick, as
//   gem-synth writes net_Tick.
//
// - Wards: about every 30 s a player with a hero plants an observer or a
//   sentry ward (CDOTA_NPC_Observer_Ward[_TrueSight]) where the hero
//   stands, owned by the hero (m_hOwnerEntity); 1-4 minutes later it is
//   killed (m_lifeState 1, the entity deleted a second later) or expires
//   (deleted). With vision (SetVision) wards die as the game has them: a
//   killed one has a DOTA_COMBATLOG_DEATH entry (its target
//   npc_dota_observer_wards or npc_dota_sentry_wards, its damage source an
//   enemy hero, or now and then a lane creep), and an expiring one goes
//   dying too, without an entry; one ward in three stands 5 minutes
//   longer.
//
// Truth (JSON lines): {"kind":"player", tick, slot, hero (entity index),
// game_time, gold, earned_gold, net_worth, xp, last_hits, denies, kills,
// deaths, assists, stuns, camps_stacked, creeps_stacked,
// teamfight_participation}
// at each truth tick; {"kind":"kill", tick, victim, killer, assisters,
// weapon, cell_x, vec_x, cell_y, vec_y, cell_z, vec_z} (the victim hero's
// position fields) for each kill; {"kind":"ward", index, ward, team, owner,
// placed_tick, removed_tick (null: standing at the end), cell_x ...} for
// each ward, when it goes or at the end; with vision also destroyed
// (true, false; null: standing) and killer_name (null unless destroyed).
#ifndef GEM_TOOLS_SYNTH_PLAYER_STATS_H_
#define GEM_TOOLS_SYNTH_PLAYER_STATS_H_

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tools/synth/combat_writer.h"
#include "tools/synth/world.h"

namespace gem::synth {

class PlayerStats {
 public:
  PlayerStats(World* world, std::mt19937_64* rng, CombatWriter* combat)
      : world_(world), rng_(rng), combat_(combat) {}

  // Whether entities of this class are this class's to change (the match
  // leaves them out of its random nudges).
  static bool Manages(const std::string& class_name) {
    return class_name == "CDOTA_PlayerResource" || class_name == "CDOTA_DataRadiant" ||
           class_name == "CDOTA_DataDire" || class_name == "CDOTAGamerulesProxy";
  }

  // Finds the player resource, team data and game rules entities and each
  // player's hero; schedules the pre-game at `pregame_tick` and the horn
  // `horn_after` ticks after `start`.
  void Start(uint32_t start, uint32_t pregame_tick, uint32_t horn_after);
  // One packet's changes.
  void Tick(uint32_t tick);
  // Each player's state now, one truth line each.
  void Truth(uint32_t tick, FILE* out) const;
  // The end: the wards still standing.
  void Finish();
  // Wards die as the game has them (see above); the destroyers are drawn
  // from a generator of `seed`'s, so the rest of the match is unchanged.
  void SetVision(uint64_t seed) {
    vision_ = true;
    vision_rng_.seed(seed ^ 0x7761726473ull);
  }
  // The flaw of a late horn (--flaws with --vision): the pre-game's
  // m_flStateTransitionTime names a horn `seconds` before the one that
  // sounds, so the clock steps back at the horn; an observer ward placed
  // 10 s before the horn expires 5 s after it, ending before it began by
  // the clock.
  void SetLateHorn(uint32_t seconds) { late_horn_ = seconds * 30; }
  // Kill lines go to `out` as they happen (may be null).
  void set_kill_truth(FILE* out) { kill_truth_ = out; }
  // Called at each kill with the killer's and the victim's slot.
  void set_kill_listener(std::function<void(uint32_t, int, int)> f) { on_kill_ = std::move(f); }
  uint64_t kills() const { return kills_; }
  uint64_t wards() const { return wards_planted_; }

  // The players: slot, team and hero.
  struct View {
    int slot;
    int team;
    SimEntity* hero;
  };
  std::vector<View> players() const;
  // The game clock the server shows at `tick`, as the index files it (in
  // hero selection, counted back from the horn at 30 ticks a second).
  std::optional<double> GameTime(uint32_t tick) const;
  uint32_t horn_tick() const { return horn_tick_; }
  // The game's one pause: its first tick and its length.
  uint32_t pause_tick() const { return pause_tick_; }
  static constexpr uint32_t kPauseTicks = 300;
  // The hero's name as the combat log writes it ("" without one).
  std::string HeroName(const SimEntity* hero) const;

 private:
  struct Ward;
  struct Player {
    int slot = 0;
    int team = 0;
    int team_slot = 0;
    SimEntity* hero = nullptr;
    int64_t reliable = 0, unreliable = 0, net_worth = 0, xp = 0, last_hits = 0, denies = 0;
    int64_t kills = 0, deaths = 0, assists = 0;
    int64_t earned_gold = 0, camps_stacked = 0, creeps_stacked = 0;
    float stuns = 0, participation = 0;
  };

  double Uniform() { return static_cast<double>((*rng_)() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : (*rng_)() % n; }
  std::string Slot(const char* array, int i, const char* field) const;
  SimEntity* Find(const std::string& class_name) const;
  void Economy(Player* p, uint32_t tick);
  void Kill(uint32_t tick);
  void Participation();
  void Clock(uint32_t tick);
  void Wards(uint32_t tick);
  // A ward of `p`'s planted now, going at `ends` (none: 1-4 minutes on,
  // drawn, and with vision one in three 5 minutes more).
  void Plant(uint32_t tick, const Player& p, bool observer, std::optional<uint32_t> ends);
  void WardTruth(const Ward& w, std::optional<uint32_t> removed);

  World* world_;
  std::mt19937_64* rng_;
  CombatWriter* combat_;
  FILE* kill_truth_ = nullptr;
  std::function<void(uint32_t, int, int)> on_kill_;
  SimEntity* resource_ = nullptr;
  SimEntity* data_[2] = {nullptr, nullptr};  // Radiant, Dire
  SimEntity* rules_ = nullptr;
  std::vector<Player> players_;
  struct Ward {
    SimEntity* e = nullptr;
    int32_t index = 0;
    bool observer = true;
    int team = 0, owner = 0;
    uint32_t placed = 0, ends = 0;
    bool killed = false;
    std::optional<bool> destroyed;  // with vision: by an entry, or expired
    std::string killer_name;
    std::string position;  // the truth's cell_x ... fields
  };
  // With vision: the combat log's death of `w`, by an enemy.
  void WardDeath(Ward* w, uint32_t tick);
  bool vision_ = false;
  std::mt19937_64 vision_rng_;
  std::vector<Ward> wards_;
  int32_t ward_class_[2] = {-1, -1};  // observer, sentry
  double interval_ = 1.0 / 30;
  uint32_t horn_tick_ = 0;
  uint32_t pregame_tick_ = 0;
  uint32_t next_burst_ = 0;  // the next burst of kills starts here
  int burst_left_ = 0;
  uint32_t burst_next_kill_ = 0;
  uint32_t pause_tick_ = 0;
  float start_time_ = 0;
  bool paused_ = false;
  uint32_t pause_start_ = 0;
  uint32_t total_paused_ = 0;
  uint64_t kills_ = 0;
  uint64_t wards_planted_ = 0;
  uint32_t late_horn_ = 0;  // ticks (SetLateHorn)
  bool late_ward_ = false;  // its ward planted
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_PLAYER_STATS_H_
