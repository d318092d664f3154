// UnitOrders: the players' orders, from DOTA_UM_SpectatorPlayerUnitOrders
// (what a spectator of the match is sent of each order a player gives),
// into the actions table: one row per order, its player the slot whose
// player controller is the message's entindex, its type the message's
// order_type (dotaunitorder_t; unit_order_names names it), the number of
// units ordered, the target's entity index (NULL for none: the message's
// 0, the world), the ability's id (NULL for none: -1; an entity index in
// builds before 2018, whose field 5 was ability_index), the position (NULL
// when the message has none) and whether it was queued.
//
// OpenDota counts these as a player's actions, and its actions per minute
// are their count over the match's minutes (the apm view). Replays
// recorded without them (a player's own recording, most of the fixtures)
// have none: the table is empty and meta says unit_orders 0 with a note.
// An order whose entindex is no player's controller is a row with a NULL
// slot, counted (unit_orders_without_player); a type the enumeration
// lacks keeps its number, counted (unit_orders_unknown_type); a message
// that does not parse is counted (unit_orders_damaged) and skipped.
#ifndef GEM_CORE_DOTA_UNIT_ORDERS_H_
#define GEM_CORE_DOTA_UNIT_ORDERS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/dota/roster.h"
#include "core/match/match_context.h"
#include "core/util/status.h"
#include "core/events/table_spec.h"
#include "proto/dota_usermessages.pb.h"

namespace gem::dota {

inline constexpr uint32_t kDotaUmSpectatorPlayerUnitOrders = 547;

TableSpec ActionsTable();

class UnitOrders {
 public:
  explicit UnitOrders(Roster* roster) : roster_(roster) {}

  // One message; one that does not parse is counted
  // (unit_orders_damaged), not a row. `game_time` is the clock now.
  Status OnMessage(match::MatchContext& ctx, const uint8_t* data, size_t size,
                   const MatchValue& game_time);

  uint64_t orders() const { return orders_; }
  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  Roster* roster_;
  proto::CDOTAUserMsg_SpectatorPlayerUnitOrders message_;
  std::vector<MatchValue> row_;
  uint64_t orders_ = 0, without_player_ = 0, unknown_type_ = 0, damaged_ = 0;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_UNIT_ORDERS_H_
