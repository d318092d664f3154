// Loadout: a Deadlock player's abilities and items, as the pawn holds
// them: the entities its m_vecAbilities names (abilities and items alike,
// CCitadel_Item_* the items), written to `abilities` (name, level: the
// upgrade bits set in m_nUpgradeBits, m_nUpgradeInfo in later builds) and
// `inventory` (name, charges: m_iRemainingCharges), one row per change of
// a position (core/match/held_entities.h).
//
// `ability_cooldowns`: a row each time an ability or item a player's pawn
// owns (its m_hOwnerEntity) takes a new m_flCooldownStart above 0 (a
// cooldown began): slot, name, entity, m_flCooldownStart and
// m_flCooldownEnd as the replay has them (server seconds, GameTime_t) and
// their difference, read at the end of the frame the start changed in.
//
// The fixtures are two-second fragments: their abilities are there (at
// one bit each, unlocked), but no item entity and no upgrade bought; how
// the bits count tiers, and items, no fixture lets us check.
#ifndef GEM_CORE_DEADLOCK_LOADOUT_H_
#define GEM_CORE_DEADLOCK_LOADOUT_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/match/field_codes.h"
#include "core/match/field_reader.h"
#include "core/match/held_entities.h"
#include "core/match/match_context.h"
#include "core/deadlock/tables.h"

namespace gem::deadlock {


class Loadout {
 public:
  Loadout();
  // Whether updates of the class matter (the players' pawns).
  static bool Watches(std::string_view class_name) { return class_name == "CCitadelPlayerPawn"; }
  void OnCreated(const Entity& e);
  void OnDeleted(const Entity& e);
  // An update of a watched class, or of a class a pawn's array held: `slot`
  // the player whose pawn `e` is (-1: none).
  void OnUpdated(const Entity& e, int slot, std::span<const FieldChange> changes);
  // After every frame: `pawns[slot]` each player's pawn now.
  void OnFrameEnd(match::MatchContext& ctx, std::span<const Entity* const> pawns,
                  const MatchValue& game_time);
  // An item `slot` bought (by name): it should be in the pawn's
  // inventory at the end of this frame or a later one, before the slot
  // buys the same item again. Those never held so count as
  // `purchases_never_held` (a purchase the entities do not bear out).
  void ExpectHeld(int slot, std::string item, int64_t tick);
  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  enum Kind : uint16_t { kPosition = 1, kName, kLevel, kCharges, kCooldown };
  void Cooldowns(match::MatchContext& ctx, std::span<const Entity* const> pawns,
                 const MatchValue& game_time);

  match::FieldCodes codes_;
  match::HeldEntities items_, abilities_;
  std::vector<int32_t> cooling_;  // entities whose cooldown start changed this frame
  match::FieldReader cooldown_start_{"m_flCooldownStart"}, cooldown_end_{"m_flCooldownEnd"};
  match::FieldReader owner_{"m_hOwnerEntity"};
  std::vector<MatchValue> row_;
  std::vector<uint64_t> followed_;  // each slot's pawn, as last looked at
  struct Bought {
    int slot;
    std::string item;
    int64_t tick;
  };
  std::vector<Bought> expected_;  // bought, not yet held
  uint64_t never_held_ = 0;  // bought again before they were held
};

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_LOADOUT_H_
