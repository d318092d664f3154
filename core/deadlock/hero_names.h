// Deadlock's heroes by id: what the replay says of them, and a small table
// of display names for the rest.
//
// The replay ties an id to a hero where a player's controller has it in
// m_nHeroID (HeroID_t, read unsigned) while its pawn carries an
// EntityNames name ("hero_shiv"). Display names ("Shiv") are not in a
// replay: they come from kDisplayNames below, the ids on which two public
// lists agree (deadlock-api's asset data as c0rbot's DeadlockConstants
// carries it, and Deadlock_DMA's HeroEnum, both 2025-08), with 19 (Shiv)
// checked on the dl_midtown fixture. An id in neither gets a NULL name and
// counts as unknown_hero_ids.
//
//   heroes(hero_id, name, internal_name, source)
//
// `source` says where the row's names come from: 'replay' (internal name
// only), 'table' (display name only) or 'replay+table'.
#ifndef GEM_CORE_DEADLOCK_HERO_NAMES_H_
#define GEM_CORE_DEADLOCK_HERO_NAMES_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/match/match_context.h"

namespace gem::deadlock {

// The display name of a hero id, "" when the table has none.
std::string_view HeroDisplayName(int64_t hero_id);

class HeroNames {
 public:
  // A hero id seen (a controller's, a ban's), with the internal name the
  // replay gives it ("" when none).
  void Saw(int64_t hero_id, std::string_view internal_name);
  // Writes the heroes table; returns the ids no name was found for.
  uint64_t Write(match::MatchContext& ctx) const;

 private:
  std::map<int64_t, std::string> seen_;  // id -> internal name
};

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_HERO_NAMES_H_
