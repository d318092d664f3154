// Deadlock's views over its own tables (plain SQL, created after them):
//
// - damage_dealt, damage_taken: the damage table summed per attacking or
//   hit player and what was on the other end;
// - objectives: objective_events per objective, first damage to death;
// - ability_upgrades: each rise of an ability's level;
// - record_damage_totals, healing: the post-match record's damage matrix
//   counted once, and healing from the record and the controllers;
// - purchase_checks: each purchase against the buyer's inventory;
// - soul_sources: each player's souls by source, from the post-match
//   record when the replay has it, else the controller's creep counters;
// - and the indexes on inventory and abilities these read.
//
// Each view's columns are documented in its CREATE VIEW, which the tables
// page (docs/tables-deadlock.md) is made from.
#ifndef GEM_CORE_DEADLOCK_MATCH_VIEWS_H_
#define GEM_CORE_DEADLOCK_MATCH_VIEWS_H_

#include <string>

namespace gem::deadlock {

std::string MatchViewsSql();

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_MATCH_VIEWS_H_
