// OpenDota's per-minute arrays as one view (plain SQL over the timeline,
// the combat log and the wards):
//
// - minute_series(slot, minute, ...): a row for each player and minute
//   from 0, the values OpenDota samples at each whole minute
//   (odota/parser CreateParsedDataBlob: gold_t, xp_t, lh_t, dn_t,
//   camps_stacked_t; handleInterval keeps times >= 0): the timeline's
//   earned gold, XP, last hits, denies and camps stacked at the minute's
//   sample, and hero_damage_t and hero_healing_t from the combat log,
//   summed by OpenDota's minute buckets, plus the wards the player placed
//   by then (gem's own: OpenDota keeps only their logs).
#ifndef GEM_CORE_DOTA_MINUTE_VIEWS_H_
#define GEM_CORE_DOTA_MINUTE_VIEWS_H_

#include <string>

namespace gem::dota {

// After the combat log's views and the wards table.
std::string MinuteViewsSql();

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_MINUTE_VIEWS_H_
