// MatchEvents: the analyst tables Dota writes as things happen, from the
// combat log and the chat events:
//
// - purchases: every DOTA_COMBATLOG_PURCHASE. The buyer is the entry's
//   target (a hero's name: its player's slot); the item is the entry's
//   value resolved through CombatLogNames ("item_blink"). Recipes
//   ("item_recipe_*") and what is bought before the horn (game_time < 0,
//   the starting items) are rows like any other: the combat log says
//   they were bought.
// - buybacks: every DOTA_COMBATLOG_BUYBACK; its value is the player's slot.
// - objectives, one row per:
//   - combat-log death of a building: kind tower, barracks, ancient or
//     shrine by its name ("npc_dota_goodguys_tower1_mid": _tower, _rax_,
//     _fort, _healers), team the building's (goodguys 2, badguys 3), slot
//     the killer (the damage source's player), by_team the killer's team
//     (the entry's attacker_team);
//   - chat event: roshan (ROSHAN_KILL, by_team its first player id, as
//     OpenDota reads it), tormentor (MINIBOSS_KILL: slot its player,
//     by_team its value), aegis, aegis_stolen, aegis_denied (slot its
//     player), first_blood (slot the killer, the first player id; target
//     and team the victim's, the second), courier (COURIER_LOST: team the
//     courier's, the second player id; slot the killer when one).
//   x, y, z: where the unit stood (objective_units.h), or the hero of the
//   player the event is about (aegis: the taker; first blood: the victim).
//   Chat events come before a packet's entities (their priority), so their
//   rows are written at the end of the frame: every value is then as of
//   the row's tick, as for the combat log's.
// - runes: CHAT_MESSAGE_RUNE_PICKUP and _RUNE_BOTTLE (bottled = 1): slot
//   the player, rune its name by the type number (DOTA_RUNES: 0
//   double_damage ... 9 shield), rune_type the number. A bottled rune is a
//   row when it is bottled; whether using it later sends a pickup is the
//   game's to say.
#ifndef GEM_CORE_DOTA_MATCH_EVENTS_H_
#define GEM_CORE_DOTA_MATCH_EVENTS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/dota/chat.h"
#include "core/dota/combat_log.h"
#include "core/dota/objective_units.h"
#include "core/dota/roster.h"
#include "core/match/body.h"
#include "core/match/match_context.h"
#include "core/events/table_spec.h"

namespace gem::dota {

TableSpec PurchasesTable();
TableSpec BuybacksTable();
TableSpec ObjectivesTable();
TableSpec RunesTable();

// The rune a DOTA_RUNES number names ("" for one it does not know).
std::string_view RuneName(int64_t type);

class MatchEvents {
 public:
  MatchEvents(Roster* roster, match::PositionReader* position)
      : roster_(roster), position_(position), units_(position) {}

  void OnCreated(match::MatchContext& ctx, const Entity& e) { units_.OnCreated(ctx, e); }
  void OnCombatLog(match::MatchContext& ctx, const CombatLogEntry& c, const MatchValue& game_time);
  // Kept for the frame's end (see above).
  void OnChatEvent(const ChatEvent& e) {
    pending_.push_back(e);
    pending_.back().type_name = {};  // views the decoder: not kept
  }
  // Writes the chat events' rows of the frame.
  void OnFrameEnd(match::MatchContext& ctx, const MatchValue& game_time);
  bool pending() const { return !pending_.empty(); }

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  struct Objective {
    const char* kind;
    MatchValue team, by_team, slot, target, value;
    MatchValue x, y, z;
  };
  void Write(match::MatchContext& ctx, const Objective& o, const MatchValue& game_time);
  void WriteChatEvent(match::MatchContext& ctx, const ChatEvent& e, const MatchValue& game_time);
  // The slot's team now, NULL when not a player.
  MatchValue TeamOfSlot(match::MatchContext& ctx, int64_t slot);
  // Where slot's hero is now.
  void HeroPosition(match::MatchContext& ctx, int64_t slot, Objective* o);

  Roster* roster_;
  match::PositionReader* position_;
  ObjectiveUnits units_;
  uint64_t purchases_without_buyer_ = 0, purchases_without_item_ = 0;
  std::vector<ChatEvent> pending_;
  std::vector<MatchValue> row_;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_MATCH_EVENTS_H_
