#include "core/dota/unit_orders.h"

#include "core/dota/enum_names.h"
#include "core/dota/tables.h"

namespace gem::dota {

TableSpec ActionsTable() {
  return EventTable("actions", "order a player gave (DOTA_UM_SpectatorPlayerUnitOrders)",
                    {{"slot", "INTEGER"},
                     {"order_type", "INTEGER NOT NULL"},  // dotaunitorder_t
                     {"units", "INTEGER NOT NULL"},       // units the order moves
                     {"target_index", "INTEGER"},
                     {"ability_id", "INTEGER"},
                     {"x", "REAL"},
                     {"y", "REAL"},
                     {"z", "REAL"},
                     {"queued", "INTEGER NOT NULL"}});
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
