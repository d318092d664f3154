// The laning phase's outcome (plain SQL views over laning and timeline,
// player_views.h):
//
// - lane_outcomes(lane, team, ...): each lane at 10:00 by side, gem's rule
//   (Stratz, which labels lanes, publishes no formula): a side's laners in
//   the lane (laning rows of bot, mid or top, roamers left out), their net
//   worth and XP summed against the other side's, and an outcome by the
//   side's share of the lane's net worth s = own / (own + other's): stomp
//   s >= 0.60 (one and a half times the other's), win s >= 0.53, draw
//   0.47 < s < 0.53, loss s <= 0.47, stomped s <= 0.40; NULL when either
//   side has no laner or both have no net worth.
// - lane_efficiency(slot, ...): OpenDota's lane_efficiency (odota/core
//   svc/util/compute.ts): the gold earned by 10:00 (gold_t[10]) over 4,948,
//   the gold a lane gives in 10 minutes by its count (melee creeps 40 x
//   60, ranged 45 x 20, siege 74 x 2, passive 600 x 1.5, starting 600);
//   the earned gold is the timeline's at its last sample at or before
//   game_time 600, for a player whose timeline reaches 600.
#ifndef GEM_CORE_DOTA_LANE_VIEWS_H_
#define GEM_CORE_DOTA_LANE_VIEWS_H_

#include <string>

namespace gem::dota {

// After laning (player_views.h).
std::string LaneViewsSql();

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_LANE_VIEWS_H_
