#include "core/dota/enum_names.h"

#include <iterator>
#include <span>

#include "core/dota/tables.h"

namespace gem::dota {
namespace {

// EDOTA_ModifyGold_Reason, in number order from 0.
constexpr std::string_view kGoldReasons[] = {
    "DOTA_ModifyGold_Unspecified",
    "DOTA_ModifyGold_Death",
    "DOTA_ModifyGold_Buyback",
    "DOTA_ModifyGold_PurchaseConsumable",
    "DOTA_ModifyGold_PurchaseItem",
    "DOTA_ModifyGold_AbandonedRedistribute",
    "DOTA_ModifyGold_SellItem",
    "DOTA_ModifyGold_AbilityCost",
    "DOTA_ModifyGold_CheatCommand",
    "DOTA_ModifyGold_SelectionPenalty",
    "DOTA_ModifyGold_GameTick",
    "DOTA_ModifyGold_Building",
    "DOTA_ModifyGold_HeroKill",
    "DOTA_ModifyGold_CreepKill",
    "DOTA_ModifyGold_NeutralKill",
    "DOTA_ModifyGold_RoshanKill",
    "DOTA_ModifyGold_CourierKill",
    "DOTA_ModifyGold_BountyRune",
    "DOTA_ModifyGold_SharedGold",
    "DOTA_ModifyGold_AbilityGold",
    "DOTA_ModifyGold_WardKill",
    "DOTA_ModifyGold_CourierKilledByThisPlayer",
};

// EDOTA_ModifyXP_Reason (DOTA_ModifyXP_MAX, 8, is a bound, not a reason).
constexpr std::string_view kXpReasons[] = {
    "DOTA_ModifyXP_Unspecified", "DOTA_ModifyXP_HeroKill",        "DOTA_ModifyXP_CreepKill",
    "DOTA_ModifyXP_RoshanKill",  "DOTA_ModifyXP_TomeOfKnowledge", "DOTA_ModifyXP_Outpost",
    "DOTA_ModifyXP_CatchUp",     "DOTA_ModifyXP_HeroAbility",
};

// dotaunitorder_t.
constexpr std::string_view kUnitOrders[] = {
    "DOTA_UNIT_ORDER_NONE",
    "DOTA_UNIT_ORDER_MOVE_TO_POSITION",
    "DOTA_UNIT_ORDER_MOVE_TO_TARGET",
    "DOTA_UNIT_ORDER_ATTACK_MOVE",
    "DOTA_UNIT_ORDER_ATTACK_TARGET",
    "DOTA_UNIT_ORDER_CAST_POSITION",
    "DOTA_UNIT_ORDER_CAST_TARGET",
    "DOTA_UNIT_ORDER_CAST_TARGET_TREE",
    "DOTA_UNIT_ORDER_CAST_NO_TARGET",
    "DOTA_UNIT_ORDER_CAST_TOGGLE",
    "DOTA_UNIT_ORDER_HOLD_POSITION",
    "DOTA_UNIT_ORDER_TRAIN_ABILITY",
    "DOTA_UNIT_ORDER_DROP_ITEM",
    "DOTA_UNIT_ORDER_GIVE_ITEM",
    "DOTA_UNIT_ORDER_PICKUP_ITEM",
    "DOTA_UNIT_ORDER_PICKUP_RUNE",
    "DOTA_UNIT_ORDER_PURCHASE_ITEM",
    "DOTA_UNIT_ORDER_SELL_ITEM",
    "DOTA_UNIT_ORDER_DISASSEMBLE_ITEM",
    "DOTA_UNIT_ORDER_MOVE_ITEM",
    "DOTA_UNIT_ORDER_CAST_TOGGLE_AUTO",
    "DOTA_UNIT_ORDER_STOP",
    "DOTA_UNIT_ORDER_TAUNT",
    "DOTA_UNIT_ORDER_BUYBACK",
    "DOTA_UNIT_ORDER_GLYPH",
    "DOTA_UNIT_ORDER_EJECT_ITEM_FROM_STASH",
    "DOTA_UNIT_ORDER_CAST_RUNE",
    "DOTA_UNIT_ORDER_PING_ABILITY",
    "DOTA_UNIT_ORDER_MOVE_TO_DIRECTION",
    "DOTA_UNIT_ORDER_PATROL",
    "DOTA_UNIT_ORDER_VECTOR_TARGET_POSITION",
    "DOTA_UNIT_ORDER_RADAR",
    "DOTA_UNIT_ORDER_SET_ITEM_COMBINE_LOCK",
    "DOTA_UNIT_ORDER_CONTINUE",
    "DOTA_UNIT_ORDER_VECTOR_TARGET_CANCELED",
    "DOTA_UNIT_ORDER_CAST_RIVER_PAINT",
    "DOTA_UNIT_ORDER_PREGAME_ADJUST_ITEM_ASSIGNMENT",
    "DOTA_UNIT_ORDER_DROP_ITEM_AT_FOUNTAIN",
    "DOTA_UNIT_ORDER_TAKE_ITEM_FROM_NEUTRAL_ITEM_STASH",
    "DOTA_UNIT_ORDER_MOVE_RELATIVE",
    "DOTA_UNIT_ORDER_CAST_TOGGLE_ALT",
    "DOTA_UNIT_ORDER_CONSUME_ITEM",
    "DOTA_UNIT_ORDER_SET_ITEM_MARK_FOR_SELL",
};

std::string_view NameIn(std::span<const std::string_view> names, int64_t n) {
  return n >= 0 && n < static_cast<int64_t>(names.size()) ? names[static_cast<size_t>(n)]
                                                          : std::string_view();
}

void WriteNames(match::MatchContext& ctx, uint32_t table,
                std::span<const std::string_view> names) {
  for (size_t i = 0; i < names.size(); ++i) {
    const MatchValue row[] = {MatchValue::Int(static_cast<int64_t>(i)),
                              MatchValue::Text(names[i])};
    ctx.Row(table, row);
  }
}

}  // namespace

TableSpec GoldReasonNamesTable() {
  return NamesTable(
      "gold_reason_names", "reason",
      "EDOTA_ModifyGold_Reason: the reasons a combat-log gold entry gives (gold_reason), 0-21 "
      "as Valve's scripting API lists them (the ModDota API dump of current builds); written "
      "at the start of every parse, whatever the replay holds",
      "the reason number, as combat_log_entries.gold_reason holds it",
      "its name (DOTA_ModifyGold_CreepKill)");
}

TableSpec XpReasonNamesTable() {
  return NamesTable(
      "xp_reason_names", "reason",
      "EDOTA_ModifyXP_Reason: the reasons a combat-log XP entry gives (xp_reason), 0-7 as "
      "Valve's scripting API lists them (the ModDota API dump of current builds; "
      "DOTA_ModifyXP_MAX, 8, is a bound, not a reason); written at the start of every parse, "
      "whatever the replay holds",
      "the reason number, as combat_log_entries.xp_reason holds it",
      "its name (DOTA_ModifyXP_CreepKill)");
}

TableSpec UnitOrderNamesTable() {
  return NamesTable(
      "unit_order_names", "order_type",
      "dotaunitorder_t: the types of the orders players give, 0-42 as Valve's scripting API "
      "lists them (the ModDota API dump of current builds); written at the start of every "
      "parse, whatever the replay holds",
      "the order type, as actions.order_type holds it",
      "its name (DOTA_UNIT_ORDER_MOVE_TO_POSITION)");
}

std::string_view GoldReasonName(int64_t reason) { return NameIn(kGoldReasons, reason); }
std::string_view XpReasonName(int64_t reason) { return NameIn(kXpReasons, reason); }
std::string_view UnitOrderName(int64_t order_type) { return NameIn(kUnitOrders, order_type); }

void WriteEnumNames(match::MatchContext& ctx) {
  WriteNames(ctx, kGoldReasonNames, kGoldReasons);
  WriteNames(ctx, kXpReasonNames, kXpReasons);
  WriteNames(ctx, kUnitOrderNames, kUnitOrders);
}

}  // namespace gem::dota
