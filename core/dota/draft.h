// Draft: the picks and bans of hero selection, in order, from the game
// rules entity (m_pGameRules) and the player resource, polled at the end
// of every frame until the game leaves hero selection (the pre-game, the
// game or its end: m_nGameState 4-7), then once more. A game that goes
// back to hero selection (m_nGameState 2) drafts again: its draft is the
// last one.
//
// - Bans: the entries of m_vecNewBannedHeroes as they appear: the heroes
//   the game has banned (in All Pick the players' nominations that the
//   roll kept; CHAT_MESSAGE_HERO_BANNED says the same). A replay whose
//   rules never list one there takes m_BannedHeroes instead, the captains'
//   bans of captain modes (in All Pick that array holds nominations, of
//   which some are never banned). A ban's team is the active team
//   (m_iActiveTeam) before the frame that shows it, where that is Radiant
//   or Dire; else NULL.
// - Picks: the entries of m_SelectedHeroes as they appear (captain modes),
//   with the active team before them, else the team of the player who
//   plays the hero; a replay whose rules never list one there takes each
//   player's m_nSelectedHeroID as it becomes a hero (its slot and team).
//   A pick's slot is the player whose m_nSelectedHeroID is the hero when
//   hero selection ends (NULL for bans).
// - ord counts from 1 in the order seen (a frame's entries in array
//   order, bans first); hero is the hero's name by hero_names.h.
// - The file info's picks and bans (complete replays) are compared with
//   it (counters: draft_file_info_entries, draft_file_info_mismatches);
//   a replay whose rules show no draft writes the file info's, with no
//   tick (source 'file_info').
#ifndef GEM_CORE_DOTA_DRAFT_H_
#define GEM_CORE_DOTA_DRAFT_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/dota/file_info.h"
#include "core/dota/roster.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/table_spec.h"

namespace gem::dota {

TableSpec DraftTable();

class Draft {
 public:
  explicit Draft(Roster* roster) : roster_(roster) {}

  // Whether this frame's end polls the rules (`rules` the game rules
  // entity, may be null); a cheap look once the draft has ended.
  bool Polls(const Entity* rules);
  // After every frame Polls() says so: `game_time` the clock now.
  void OnFrameEnd(match::MatchContext& ctx, const Entity* rules, const MatchValue& game_time);
  // The file info's draft (read at the replay's end).
  void SetFileInfo(std::vector<FileInfoPick> picks) { file_info_ = std::move(picks); }
  // Writes the rows.
  void Finish(match::MatchContext& ctx);

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  enum Source : int8_t { kRulesBans, kRulesPicks, kNewBans, kPlayerPicks };
  struct Seen {
    int64_t tick;
    MatchValue game_time;
    Source source;
    int64_t hero_id;
    int64_t team;  // 0: unknown
    int slot;      // -1: none
  };
  void Poll(match::MatchContext& ctx, const Entity* rules, const MatchValue& game_time);
  void ResolveSlots(match::MatchContext& ctx);
  // Writes the rows of the rules' draft (ours_ says what they were).
  void WriteRules(match::MatchContext& ctx);
  match::FieldReader& Indexed(std::vector<std::unique_ptr<match::FieldReader>>& readers,
                              const char* format, int i);

  Roster* roster_;
  bool ended_ = false;
  bool resolved_ = false;
  bool written_ = false;
  std::vector<std::pair<bool, int64_t>> ours_;  // written: (is_pick, hero id)
  int64_t active_before_ = 0;
  std::vector<Seen> seen_;
  std::set<std::pair<int, int64_t>> known_;  // (source, hero id) seen
  int64_t player_hero_[kMaxPlayers] = {};    // last m_nSelectedHeroID seen
  std::vector<int> pick_slots_;              // by seen_ entry, at resolution
  std::vector<FileInfoPick> file_info_;
  uint64_t mismatches_ = 0;
  std::vector<std::unique_ptr<match::FieldReader>> banned_, selected_, new_banned_;
  match::FieldReader state_{"m_pGameRules.m_nGameState"};
  match::FieldReader active_{"m_pGameRules.m_iActiveTeam"};
  match::FieldReader new_banned_count_{"m_pGameRules.m_vecNewBannedHeroes"};
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_DRAFT_H_
