// DotaSmokes: Smoke of Deceit in a synthetic Dota match (gem-synth
// --vision), and the truth of it.
//
// - From a minute after the horn, every 60-120 s of game, one team uses a
//   smoke: 1-5 of its players' heroes get modifier_smoke_of_deceit at one
//   tick, a DOTA_COMBATLOG_MODIFIER_ADD entry each (the hero the target,
//   the smoke's user the attacker).
// - Each hero's smoke breaks 3-40 s later (a DOTA_COMBATLOG_MODIFIER_REMOVE
//   entry), unless the replay ends first. 20 s before the end a last smoke
//   that never breaks: windows the replay leaves open. The combat log's
//   own repeats: a smoke's first hero gets the modifier again a second
//   later (a second ADD, which changes nothing), and an enemy not smoked
//   loses it (a REMOVE with nothing to close).
// - The kills are PlayerStats's; each is told (OnKill).
//
// Truth (JSON lines, at the end): {"kind":"smoke_window", slot, team,
// start_tick, end_tick (null: not removed)} for each hero's smoke;
// {"kind":"smoke_kill", tick, killer, victim, smoke} for each kill, smoke
// by OpenDota's rule (odota/parser #91) over the windows written here: in
// the combat log's rounded seconds, a window runs from the add to the
// removal (the add + 35 without one) and a kill is a smoke kill when the
// killer's window started at or before it and ended at most 30 s before.
//
// Its random choices come from a generator of its own (seeded from the
// match's seed): without --vision the match is the same file as before.
#ifndef GEM_TOOLS_SYNTH_DOTA_SMOKES_H_
#define GEM_TOOLS_SYNTH_DOTA_SMOKES_H_

#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "tools/synth/combat_writer.h"
#include "tools/synth/player_stats.h"
#include "tools/synth/world.h"

namespace gem::synth {

class DotaSmokes {
 public:
  DotaSmokes(World* world, uint64_t seed, CombatWriter* combat, PlayerStats* stats)
      : world_(world), rng_(seed ^ 0x736d6f6b65ull), combat_(combat), stats_(stats) {}

  // After PlayerStats::Start: the players and the first smoke's tick;
  // `end_tick` is the replay's last.
  void Start(uint32_t end_tick);
  void Tick(uint32_t tick);
  // `killer`'s hero killed `victim`'s (slots).
  void OnKill(uint32_t tick, int killer, int victim) { kills_.push_back({tick, killer, victim}); }
  // The truth lines, to `out` (may be null).
  void Finish(FILE* out) const;
  uint64_t smokes() const { return smokes_; }

 private:
  struct Window {
    int slot, team;
    uint32_t start_tick;
    std::optional<uint32_t> end_tick;
    uint32_t remove_at;  // 0: never
  };
  struct Kill {
    uint32_t tick;
    int killer, victim;
  };

  uint64_t Below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  // Seconds a tick, and the ticks of `seconds`.
  double Interval() const;
  uint32_t Ticks(uint64_t seconds) const;
  // The combat log's timestamp at `tick`, as PlayerStats writes it.
  float Timestamp(uint32_t tick) const;
  // OpenDota's seconds of it (Java's Math.round).
  int64_t Seconds(uint32_t tick) const;
  void Entry(uint32_t tick, int32_t type, const SimEntity* target, const SimEntity* user);
  // A smoke of 1-5 heroes of a team not smoked now; `breaks`: each
  // hero's breaks 3-40 s later.
  void Smoke(uint32_t tick, bool breaks);

  World* world_;
  std::mt19937_64 rng_;
  CombatWriter* combat_;
  PlayerStats* stats_;
  std::vector<PlayerStats::View> players_;
  uint32_t next_smoke_ = 0;
  uint32_t last_smoke_ = 0;  // the smoke that never breaks
  bool last_done_ = false;
  std::vector<Window> windows_;
  std::vector<std::pair<uint32_t, int>> repeats_;  // (tick, slot): a second ADD
  std::vector<Kill> kills_;
  uint64_t smokes_ = 0;
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_DOTA_SMOKES_H_
