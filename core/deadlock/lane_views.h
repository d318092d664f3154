// Deadlock's laning phase as a view (plain SQL over the timeline):
//
// - lane_leads(lane, team, ...): each lane's players of each team (the
//   timeline's lane, m_nOriginalLaneAssignment, at the player's last sample
//   by 5:00) and their souls (m_iGoldNetWorth) summed at 5, 10 and 15
//   minutes, with the lead over the other team's players of that lane.
//   deadlock-api's lane matchups compare a lane's duos' souls at these
//   marks; its exact rule is not published where gem could read it, so the
//   sampling is gem's: a player's souls at a mark are those of their last
//   sample at or before it, counted only when their timeline reaches it.
#ifndef GEM_CORE_DEADLOCK_LANE_VIEWS_H_
#define GEM_CORE_DEADLOCK_LANE_VIEWS_H_

#include <string>

namespace gem::deadlock {

std::string LaneViewsSql();

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_LANE_VIEWS_H_
