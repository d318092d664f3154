// Dota 2 hero ids (HeroID_t: m_nSelectedHeroID, the game rules' ban and
// pick arrays, the file info's picks and bans) and the heroes' names as
// the combat log writes them ("npc_dota_hero_axe").
//
// The table is Valve's "HeroID" of each hero in npc_heroes.txt, as
// odota/dotaconstants build/heroes.json lists it at commit c5b587f
// (2026-05-01; true for Dota 7.40, December 2025, whose newest hero is
// Largo, 155; ids never change once given). An id it lacks (a hero added
// later, or no hero: 0, -1) has no name: never a guess.
#ifndef GEM_CORE_DOTA_HERO_NAMES_H_
#define GEM_CORE_DOTA_HERO_NAMES_H_

#include <cstdint>
#include <string>

namespace gem::dota {

// "npc_dota_hero_<name>", or "" when the table lacks `hero_id`.
std::string HeroName(int64_t hero_id);

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_HERO_NAMES_H_
