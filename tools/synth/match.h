// Match: the made-up play of a synthetic replay, packet by packet.
//
// Heroes walk between random targets (cell and offset fields), lose and
// regain health and mana, turn and animate; lane creeps spawn from their
// class baseline in waves every 30 s on three lanes for both teams, walk
// to the middle of their lane, fight and are deleted 100-150 s after
// spawning; neutral camps die and respawn each minute; heroes' wearable
// arrays grow and shrink; modifiers are added to and removed from
// ActiveModifiers; ~33 combat-log entries a second; a few other entities'
// fields of every type (strings too) change each packet; the players'
// economy, kills and the game clock change as player_stats.h says, the
// draft as draft.h says, their items and abilities as hero_items.h, the
// objectives, runes and buybacks as objectives.h, the lanes, orders,
// casts, deaths and the pause as dota_activity.h. Packets every 2 ticks
// (30 ticks/s), a full packet every `full_packet_interval` ticks.
//
// Every random choice comes from one 64-bit Mersenne Twister seeded with
// `seed` (its output is fixed by the C++ standard), so a seed gives the
// same bytes on every machine.
#ifndef GEM_TOOLS_SYNTH_MATCH_H_
#define GEM_TOOLS_SYNTH_MATCH_H_

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tools/synth/combat_writer.h"
#include "tools/synth/deadlock_crowd.h"
#include "tools/synth/deadlock_events.h"
#include "tools/synth/dota_activity.h"
#include "tools/synth/dota_smokes.h"
#include "tools/synth/draft.h"
#include "tools/synth/hero_items.h"
#include "tools/synth/objectives.h"
#include "tools/synth/player_stats.h"
#include "tools/synth/world.h"

namespace gem::synth {

struct MatchOptions {
  double minutes = 1;
  uint64_t seed = 1;
  uint32_t full_packet_interval = 1800;  // ticks
  uint32_t truth_interval = 300;         // ticks between ground-truth samples
  uint32_t horn_after = 1200;            // ticks from the start to the horn
  bool flaws = false;                    // hero_items.h: damaged names and handles
  bool vision = false;  // Dota: Smoke of Deceit (dota_smokes.h), wards' deaths (player_stats.h)
  bool post_match_record = true;         // Deadlock: PostMatchDetails at the end
  int deadlock_troopers = 26;            // Deadlock: troopers a wave, lane and team; 0:
                                         // no crowd (deadlock_crowd.h), one player
};

struct MatchCounters {
  uint64_t combat_log = 0;
  uint64_t modifiers_added = 0;
  uint64_t modifiers_removed = 0;
  uint64_t wearable_changes = 0;
  uint64_t truth_entities = 0;
  uint64_t kills = 0;
  uint64_t wards = 0;
  uint64_t smokes = 0;
  uint64_t purchases = 0;
  uint64_t level_ups = 0;
  uint64_t objectives = 0;
  uint64_t draft_actions = 0;
  uint32_t last_tick = 0;
};

class Match {
 public:
  Match(World* world, const MatchOptions& options);
  // Writes the whole replay: the fixture's prefix, the match, the end.
  // `truth` (may be null) gets the state of a sample of entities every
  // truth_interval ticks; `combat_truth` (may be null) every combat-log
  // entry written, a JSON object a line: the tick, then each field set,
  // by its protobuf name (names as their CombatLogNames index);
  // `match_truth` (may be null) the players' state at each truth tick and
  // every kill (see player_stats.h).
  Status Run(ReplayWriter* out, FILE* truth, FILE* combat_truth = nullptr,
             FILE* match_truth = nullptr);
  const MatchCounters& counters() const { return counters_; }

  // One ActiveModifiers entry's contents.
  struct Modifier {
    uint32_t parent;
    uint32_t serial;
    uint32_t modifier_class;
    float created;
    float duration;
  };

 private:
  enum class Kind { kHero, kLaneCreep, kNeutral };
  struct Unit {
    SimEntity* e = nullptr;
    Kind kind = Kind::kHero;
    double x = 0, y = 0, tx = 0, ty = 0, speed = 0;
    double health = 0, max_health = 0, mana = 0, max_mana = 0;
    uint32_t die_tick = UINT32_MAX;
    int team = 2;
    int camp = -1;  // neutrals: their camp
    int32_t parity = 0;
    size_t wearables_base = 0;  // length of m_hMyWearables at the start
  };

  double Uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

  void Start();
  void Tick(uint32_t tick);
  void SpawnWave(uint32_t tick);
  void SpawnNeutrals(uint32_t tick);
  Unit* Spawn(int32_t class_id, Kind kind, int team, double x, double y, uint32_t tick);
  void Place(Unit* u);
  void Step(Unit* u, uint32_t tick);
  void ChangeWearables(Unit* u);
  void NudgeOthers();
  void Modifiers(uint32_t tick);
  void CombatLog(uint32_t tick);
  void Truth(uint32_t tick, FILE* out);

  World* world_;
  MatchOptions options_;
  std::mt19937_64 rng_;
  std::vector<Unit> units_;
  std::vector<int32_t> others_;  // indexes of fixture entities left alone
  int32_t creep_class_ = -1, neutral_class_ = -1;
  SimTable* modifiers_ = nullptr;
  std::vector<std::pair<int32_t, Modifier>> active_;  // (entry, modifier)
  std::vector<int32_t> free_modifiers_;      // removed entries, to reuse
  std::vector<int32_t> released_modifiers_;  // removed this packet
  size_t combat_names_ = 0;
  FILE* combat_truth_ = nullptr;
  std::string combat_line_;
  MatchCounters counters_;
  CombatWriter combat_{world_};
  PlayerStats stats_{world_, &rng_, &combat_};
  // Lanes, orders, casts, deaths and the pause (dota_activity.h).
  DotaActivity activity_{world_, options_.seed, &combat_, &stats_, options_.flaws};
  // Smoke of Deceit, with --vision (dota_smokes.h).
  DotaSmokes smokes_{world_, options_.seed, &combat_, &stats_};
  Draft draft_{world_, &rng_};
  HeroItems items_{world_, &rng_, &combat_, &stats_};
  Objectives objectives_{world_, &rng_, &combat_, &stats_};
  // A Deadlock world's user messages (deadlock_events.h).
  DeadlockEvents deadlock_{world_, options_.seed, options_.flaws, options_.post_match_record};
  DeadlockCrowd crowd_{world_, options_.seed, options_.deadlock_troopers};
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_MATCH_H_
