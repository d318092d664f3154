// HeldUtility: the grenades each CS2 pawn held when it was last alive, and
// what they cost, for the kills table's utility_held and utility_value.
//
// - Counts are the pawn's m_pWeaponServices.m_iAmmo at the grenades' ammo
//   types: 13 HE, 14 flashbang (demoinfocs-golang's FlashbangCount reads
//   this one), 15 smoke, 16 the fire grenade, 17 decoy, as a
//   demoinfocs-golang fork's player methods read them (HEGrenades,
//   SmokeGrenades, Molotovs, IncendiaryGrenades, DecoyGrenades). One
//   CFlashbang entity stands for two flashbangs; the ammo counts both.
// - The fire grenade is a molotov or an incendiary by the weapon entity
//   of item 46 (molotov) or 48 (incendiary) among the pawn's
//   m_hMyWeapons, else by its team (T molotov, CT incendiary), as that
//   fork tells them apart.
// - Read at the end of each frame in which a live pawn (m_lifeState 0)
//   had its ammo, weapons, life state or team change: what a pawn holds
//   when it dies is what it held at the end of the last frame it was
//   alive (the game empties a dead pawn's hands, as m_hActiveWeapon shows).
// - Prices are CS2's buy menu's (not in the replay): flashbang 200, HE
//   300, smoke 300, molotov 400, incendiary 500, decoy 50 (the weapons
//   table's price).
#ifndef GEM_CORE_CS2_UTILITY_HELD_H_
#define GEM_CORE_CS2_UTILITY_HELD_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/cs2/pawn_marks.h"
#include "core/entities/entities.h"
#include "core/match/field_codes.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"

namespace gem::cs2 {

// The buy menu's price of the grenade events name `name` (flashbang,
// hegrenade, smokegrenade, molotov, incgrenade, decoy); 0 for any other.
int64_t GrenadePrice(std::string_view name);

class HeldUtility {
 public:
  // Pawn `e`'s ammo, weapons, life state or team changed (or it was
  // created).
  void OnChanged(const Entity& e);
  // After every frame: the changed live pawns' grenades.
  void OnFrameEnd(match::MatchContext& ctx);
  // What pawn `e` held when last alive: `json` a JSON object of grenade
  // (as events name it: flashbang, hegrenade, smokegrenade, molotov,
  // incgrenade, decoy) to count, "{}" for none, and `value` their price.
  // False when unknown: the pawn was never read alive.
  bool Last(const Entity* e, std::string* json, int64_t* value);

 private:
  static constexpr size_t kKinds = 6;  // in the order of kGrenades (utility_held.cc)
  struct Held {
    bool known = false;
    std::array<int64_t, kKinds> counts{};
  };
  // Reads live pawn `e`'s grenades into `h`.
  void Read(match::MatchContext& ctx, const Entity& e, Held* h);

  PawnMarks<Held> pawns_;
  match::FieldReader life_{"m_lifeState"}, team_{"m_iTeamNum"};
  match::FieldReader item_{"m_iItemDefinitionIndex"};
  match::FieldReader weapons_length_{"m_pWeaponServices.m_hMyWeapons"};
  match::FieldReader ammo_[5] = {match::FieldReader{"m_pWeaponServices.m_iAmmo.0013"},
                                 match::FieldReader{"m_pWeaponServices.m_iAmmo.0014"},
                                 match::FieldReader{"m_pWeaponServices.m_iAmmo.0015"},
                                 match::FieldReader{"m_pWeaponServices.m_iAmmo.0016"},
                                 match::FieldReader{"m_pWeaponServices.m_iAmmo.0017"}};
  match::FieldCodes weapons_{{{"m_pWeaponServices.m_hMyWeapons.#", 1}}};
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_UTILITY_HELD_H_
