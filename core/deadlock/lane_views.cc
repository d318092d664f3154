#include "core/deadlock/lane_views.h"

namespace gem::deadlock {
namespace {

// A player's souls at mark M seconds: their last sample at or before M,
// when their timeline reaches M.
#define GEM_SOULS_AT(m)                                                                   \
  "(SELECT t.souls FROM timeline t WHERE t.slot = l.slot AND t.game_time <= " m           \
  " AND EXISTS (SELECT 1 FROM timeline r WHERE r.slot = l.slot AND r.game_time >= " m ")" \
  " ORDER BY t.tick DESC LIMIT 1)"

const char kViews[] =
    "CREATE VIEW lane_leads(  -- each lane's players of each team and their souls at 5, 10\n"
    "  -- and 15 minutes against the other team's players of the lane. The marks are\n"
    "  -- deadlock-api's lane matchups'; the sampling is gem's (deadlock-api publishes no rule\n"
    "  -- gem could read): a player's souls at a mark are the timeline's souls\n"
    "  -- (m_iGoldNetWorth) at their last sample at or before it, when their timeline reaches\n"
    "  -- it\n"
    "  lane,  -- the lane: the timeline's lane (m_nOriginalLaneAssignment; CMsgLaneColor 1\n"
    "  -- yellow, 3 green, 4 blue, 6 purple) at the player's last sample by 5:00; players\n"
    "  -- with none or 0 are left out\n"
    "  team,  -- the team (timeline.team then): 2 Amber, 3 Sapphire\n"
    "  players,  -- the team's players in the lane\n"
    "  slots,  -- their slots, a JSON array in slot order\n"
    "  souls_5,  -- their souls at 5:00, summed; NULL when a player's timeline does not reach it\n"
    "  souls_10,  -- at 10:00\n"
    "  souls_15,  -- at 15:00\n"
    "  lead_5,  -- souls_5 less the other team's in the lane; NULL when either is NULL or the\n"
    "  -- other team has no player there\n"
    "  lead_10,  -- at 10:00\n"
    "  lead_15  -- at 15:00\n"
    ") AS\n"
    "WITH early AS (\n"
    "  SELECT t.slot, t.team, t.lane FROM timeline t\n"
    "  WHERE t.tick = (SELECT max(u.tick) FROM timeline u WHERE u.slot = t.slot\n"
    "                    AND u.game_time <= 300)),\n"
    "players AS (\n"
    "  SELECT l.slot, l.team, l.lane, " GEM_SOULS_AT("300") " AS s5,\n"
    "         " GEM_SOULS_AT("600") " AS s10, " GEM_SOULS_AT("900") " AS s15\n"
    "  FROM early l WHERE l.lane > 0 AND l.team IN (2, 3)),\n"
    "sides AS (\n"
    "  SELECT lane, team, count(*) AS n, json_group_array(slot) AS slots,\n"
    "         CASE WHEN count(s5) = count(*) THEN sum(s5) END AS s5,\n"
    "         CASE WHEN count(s10) = count(*) THEN sum(s10) END AS s10,\n"
    "         CASE WHEN count(s15) = count(*) THEN sum(s15) END AS s15\n"
    "  FROM (SELECT * FROM players ORDER BY slot) GROUP BY lane, team)\n"
    "SELECT a.lane, a.team, a.n, a.slots, a.s5, a.s10, a.s15,\n"
    "       a.s5 - b.s5, a.s10 - b.s10, a.s15 - b.s15\n"
    "FROM sides a LEFT JOIN sides b ON b.lane = a.lane AND b.team <> a.team;\n";

#undef GEM_SOULS_AT

}  // namespace

std::string LaneViewsSql() { return kViews; }

}  // namespace gem::deadlock
