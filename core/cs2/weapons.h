// CS2's weapons as gem's aim tables read them: each weapon's item
// definition index, the name game events give it, its kind, its group for
// economy-adjusted duels and its top speed.
//
// - Item definition indexes and names are the game's (items_game.txt; the
//   weapon entity's m_iItemDefinitionIndex; weapon_fire's and
//   player_death's weapon less its weapon_ prefix). Knives past 500 are all
//   "knife".
// - Top speeds are the game's weapon data (each weapon's max player speed,
//   unscoped, in units a second), as a cs-demo-analyzer fork lists them
//   (WangChuDi/cs-demo-analyzer-mod, pkg/api/constants/
//   weapon_accurate_speed.go: 34% of each, with the speed in a comment;
//   its R8 Revolver's 180 is marked approximate there).
// - Duel groups are gem's own assignment to the six groups HLTV's 2025
//   rating names (HLTV publishes no list): sniper, tier-one rifle,
//   tier-two rifle, SMG and shotgun, upgraded pistol, starter pistol; tier
//   6 to 1 in that order. Knives, grenades, the taser and the bomb have no
//   group.
#ifndef GEM_CORE_CS2_WEAPONS_H_
#define GEM_CORE_CS2_WEAPONS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/cs2/pawn_marks.h"
#include "core/entities/entities.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"

namespace gem::cs2 {

struct WeaponInfo {
  int32_t item;        // m_iItemDefinitionIndex
  const char* name;    // as events name it, no weapon_ prefix
  const char* kind;    // pistol, smg, rifle, sniper, shotgun, machine_gun, knife, grenade, other
  const char* group;   // duel group; nullptr: none
  int tier;            // the group's tier, 6 (sniper) to 1 (starter pistol); 0: none
  double max_speed;    // units a second; 0: not listed
};

// Every weapon gem names, in item order.
std::span<const WeaponInfo> Weapons();

// The weapon of item definition `item`; nullptr when gem lists none.
const WeaponInfo* WeaponOfItem(int64_t item);

// SQL that creates and fills the weapons table (aim_views.cc's first
// statement).
std::string WeaponsTableSql();

// The weapon each pawn last held: the entity its
// m_pWeaponServices.m_hActiveWeapon named at the end of the last frame it
// named one (a dead pawn's names none, so a kill reads the victim's), and
// that entity's item (m_iItemDefinitionIndex) as it is now, or as it was
// when last read if the entity is gone (a knife or grenade removed).
class HeldWeapons {
 public:
  // Pawn `e`'s m_hActiveWeapon changed (or it was created).
  void OnChanged(const Entity& e);
  // After every frame: the changed pawns' weapons, now that every entity
  // of the frame is in place.
  void OnFrameEnd(match::MatchContext& ctx);
  // What pawn `e` last held; nullptr when unknown.
  const WeaponInfo* Last(match::MatchContext& ctx, const Entity* e);

 private:
  struct Held {
    int64_t handle = -1;
    std::optional<int64_t> item;
  };
  PawnMarks<Held> pawns_;
  match::FieldReader active_{"m_pWeaponServices.m_hActiveWeapon"};
  match::FieldReader item_{"m_iItemDefinitionIndex"};
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_WEAPONS_H_
