#include "core/dota/unit_orders.h"

#include "core/dota/enum_names.h"
#include "core/dota/tables.h"

namespace gem::dota {

TableSpec ActionsTable() {
  return EventTable(
      "actions",
      "an order a player gave, from DOTA_UM_SpectatorPlayerUnitOrders (user message 547: what a "
      "spectator is sent of each order), as OpenDota counts a player's actions. Only replays "
      "recorded for spectators carry it (a player's own recording does not): the table is then "
      "empty and meta unit_orders is 0. A message that does not parse is counted "
      "(meta unit_orders_damaged), not a row",
      {{"slot", "INTEGER",
        "the player (players.slot) whose player controller is the message's entindex; NULL "
        "when it is no player's controller (counted in meta unit_orders_without_player)"},
       {"order_type", "INTEGER NOT NULL",
        "the order, the message's order_type by dotaunitorder_t (unit_order_names names it: 1 "
        "move to a position, 4 attack a target, 5 cast at a position, ...); a number past the "
        "enumeration keeps its number (counted in meta unit_orders_unknown_type)"},
       {"units", "INTEGER NOT NULL", "how many units the order moves (the message's units)"},
       {"target_index", "INTEGER",
        "the entity index of the order's target (target_index); NULL when it has none (0, the "
        "world, or less)"},
       {"ability_id", "INTEGER",
        "the ability the order uses, by the message's ability_id; NULL for none (-1, or "
        "less); in builds before 2018, whose field 5 was ability_index, an entity index "
        "instead"},
       {"x", "REAL",
        "where the order points (position), world x in game units; NULL when the message has "
        "no position"},
       {"y", "REAL",
        "where the order points (position), world y in game units; NULL when the message has "
        "no position"},
       {"z", "REAL",
        "where the order points (position), world z in game units; NULL when the message has "
        "no position"},
       {"queued", "INTEGER NOT NULL",
        "1 when the order was queued after the unit's current ones (queue), else 0"}});
}

Status UnitOrders::OnMessage(match::MatchContext& ctx, const uint8_t* data, size_t size,
                             const MatchValue& game_time) {
  message_.Clear();
  // An order is worth a row, not the replay: one that does not parse is
  // counted and left out.
  if (!message_.ParseFromArray(data, static_cast<int>(size))) {
    ++damaged_;
    return Status::Ok();
  }
  ++orders_;
  const proto::CDOTAUserMsg_SpectatorPlayerUnitOrders& m = message_;
  const int slot = roster_->SlotOfController(ctx, m.entindex());
  if (slot < 0) ++without_player_;
  if (UnitOrderName(m.order_type()).empty()) ++unknown_type_;
  const bool at = m.has_position();
  row_.assign({MatchValue::Int(ctx.tick()), game_time,
               slot >= 0 ? MatchValue::Int(slot) : MatchValue(), MatchValue::Int(m.order_type()),
               MatchValue::Int(m.units_size()),
               // 0 (the world) and -1 are how the message says "none".
               m.target_index() > 0 ? MatchValue::Int(m.target_index()) : MatchValue(),
               m.ability_id() >= 0 ? MatchValue::Int(m.ability_id()) : MatchValue(),
               at ? MatchValue::Real(m.position().x()) : MatchValue(),
               at ? MatchValue::Real(m.position().y()) : MatchValue(),
               at ? MatchValue::Real(m.position().z()) : MatchValue(),
               MatchValue::Int(m.queue() ? 1 : 0)});
  ctx.Row(kActions, row_);
  return Status::Ok();
}

std::vector<std::pair<std::string, uint64_t>> UnitOrders::Counters() const {
  return {{"unit_orders", orders_},
          {"unit_orders_without_player", without_player_},
          {"unit_orders_unknown_type", unknown_type_},
          {"unit_orders_damaged", damaged_}};
}

}  // namespace gem::dota
