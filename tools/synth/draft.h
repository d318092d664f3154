// Draft: a synthetic match's hero selection, before the pre-game, as a
// captains' draft: 14 bans and 10 picks, each team in turn as the order
// says, one every 20 ticks from the start.
//
// - The game rules (m_pGameRules) go into hero selection (m_nGameState 2)
//   with no ban (m_vecNewBannedHeroes emptied: a captains' draft lists its
//   bans in m_BannedHeroes) and no pick; each ban is the next entry of
//   m_BannedHeroes, each pick the next of m_SelectedHeroes. m_iActiveTeam
//   names the team whose turn it is, and turns to the next one in the
//   packet that shows the choice (as the game does).
// - Picks are the heroes the players have (the fixture's heroes); bans are
//   other heroes (ids the hero table names). The players' m_nSelectedHeroID
//   is -1 until the strategy time (m_nGameState 3), when each player takes
//   the picked hero.
// - The file info's picks and bans (CGameInfo.dota.picks_bans) list the
//   same draft.
//
// Truth (match truth lines): {"kind":"draft", ord, tick, team, is_pick,
// hero_id, slot (the player with the picked hero; null for bans)}.
#ifndef GEM_TOOLS_SYNTH_DRAFT_H_
#define GEM_TOOLS_SYNTH_DRAFT_H_

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tools/synth/player_stats.h"
#include "tools/synth/world.h"

namespace gem::synth {

class Draft {
 public:
  Draft(World* world, std::mt19937_64* rng) : world_(world), rng_(rng) {}

  // Plans the draft from `start`; the pre-game is due at `pregame`.
  void Start(uint32_t start, uint32_t pregame, const PlayerStats& players, FILE* truth);
  void Tick(uint32_t tick);
  uint64_t actions() const { return done_; }

 private:
  struct Action {
    uint32_t tick;
    int team;
    bool is_pick;
    int64_t hero_id;
    int slot;  // picks: the player with the hero
  };
  std::string Name(const char* array, int i, const char* field) const;

  World* world_;
  std::mt19937_64* rng_;
  SimEntity* rules_ = nullptr;
  SimEntity* resource_ = nullptr;
  FILE* truth_ = nullptr;
  std::vector<Action> actions_;
  std::vector<std::pair<int, int64_t>> heroes_;  // (slot, hero id) of each player
  size_t next_ = 0;
  int bans_ = 0, picks_ = 0;
  uint32_t strategy_tick_ = 0;
  uint64_t done_ = 0;
};

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_DRAFT_H_
