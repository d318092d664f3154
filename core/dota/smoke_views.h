// Smoke of Deceit over Dota's combat log (plain SQL views), by OpenDota's
// rule (odota/parser #91, CreateParsedDataBlob's smoke windows), which
// reads the combat log in the order the entries came, in its seconds: an
// entry's timestamp rounded half up (Java's Math.round, as odota/parser's
// `time`).
//
// - smoke_windows: each player's smoke. The DOTA_COMBATLOG_MODIFIER_ADD
//   and _REMOVE entries of modifier_smoke_of_deceit whose target is a
//   player's hero (players.hero) and which carry a timestamp, per player
//   in entry order: an ADD opens a window unless one is open (a second ADD
//   changes nothing), a REMOVE closes the open one (with none open it
//   changes nothing). A window still open at the end closes 35 s after
//   its ADD; a kill counts as the smoke's up to 30 s after the window
//   closed.
// - smoke_kills: every kill of a hero as OpenDota's kills_log takes it
//   (credited_deaths of a real hero: is_target_hero 1, is_target_illusion
//   0 or not said), credited to the damage source's player, and whether it
//   was made from smoke: the killer had a window with start <= the kill's
//   second <= end + 30.
// - smokes: the windows grouped into the smokes a team used (gem's rule:
//   OpenDota has none): a smoke is the windows of one team that opened at
//   one tick, since the item smokes every ally in range at once; its
//   heroes, start, end, and the smoke kills its heroes made in them.
#ifndef GEM_CORE_DOTA_SMOKE_VIEWS_H_
#define GEM_CORE_DOTA_SMOKE_VIEWS_H_

#include <string>

namespace gem::dota {

// After credited_deaths (player_views.h).
std::string SmokeViewsSql();

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_SMOKE_VIEWS_H_
