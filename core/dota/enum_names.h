// The names of the Dota enumerations the analyst tables number things by,
// as tables an index carries whatever the replay holds (like
// combat_log_types): gold_reason_names (EDOTA_ModifyGold_Reason, the
// combat log's gold_reason), xp_reason_names (EDOTA_ModifyXP_Reason, its
// xp_reason) and unit_order_names (dotaunitorder_t, a unit order's type).
//
// Names and numbers are Valve's, as its scripting API lists them (the
// ModDota API dump of current builds): gold 0-21, XP 0-7, orders 0-42. A
// number past them has no name: a table joined to these gets NULL. Only
// the orders' are counted (meta unit_orders_unknown_type); gold and XP
// reasons past them are not.
#ifndef GEM_CORE_DOTA_ENUM_NAMES_H_
#define GEM_CORE_DOTA_ENUM_NAMES_H_

#include <cstdint>
#include <string_view>

#include "core/match/match_context.h"
#include "core/events/table_spec.h"

namespace gem::dota {

TableSpec GoldReasonNamesTable();
TableSpec XpReasonNamesTable();
TableSpec UnitOrderNamesTable();

// The enumerator's name ("DOTA_ModifyGold_CreepKill"), or "" for a number
// the enumeration does not have.
std::string_view GoldReasonName(int64_t reason);
std::string_view XpReasonName(int64_t reason);
std::string_view UnitOrderName(int64_t order_type);

// Writes the three tables' rows (once, at the start of a parse).
void WriteEnumNames(match::MatchContext& ctx);

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_ENUM_NAMES_H_
