// PostMatch: Deadlock's post-match record, as tables of its own.
//
// A complete replay carries near its end the record Valve's servers keep
// of the match (CCitadelUserMsg_PostMatchDetails, user message 316: its
// match_details bytes are a CMsgMatchMetaDataContents, whose match_info is
// field 2). deadlock-api and Statlocker build their match pages from it.
// It is written as it says, in its own terms (times in its own seconds,
// teams as ECitadelLobbyTeam 0 and 1, players by its player_slot), beside
// what gem derives from the replay, never merged into gem's tables:
//
//   record_match(tick, match_id, duration_s, outcome, winning_team,
//                game_mode, match_mode, start_time)
//   record_players(slot, account_id, team, hero_id, hero, kills, deaths,
//                  assists, net_worth, last_hits, denies, ability_points,
//                  assigned_lane, level, abandon_time_s, mvp_rank)
//   record_stats(slot, time_s, net_worth, souls_player, souls_player_orbs,
//                souls_lane_creep_orbs, souls_neutral_creep_orbs,
//                souls_boss, souls_boss_orb, souls_treasure, souls_denied,
//                souls_death_loss, souls_lane_creep, souls_neutral_creep,
//                kills, deaths, assists, creep_kills, neutral_kills,
//                creep_damage, player_damage, neutral_damage, boss_damage,
//                denies, player_healing, ability_points, self_healing,
//                player_damage_taken, max_health, weapon_power, tech_power,
//                shots_hit, shots_missed, level)
//   record_souls(slot, time_s, source, kills, damage, souls, souls_orbs)
//   record_items(slot, time_s, item_id, item, upgrade_id, sold_time_s,
//                flags, imbued_ability_id)
//   record_deaths(slot, time_s, killer_slot, time_to_kill_s,
//                 death_duration_s, x, y, z, killer_x, killer_y, killer_z)
//   record_objectives(team, team_objective_id, legacy_objective_id,
//                     first_damage_time_s, destroyed_time_s, creep_damage,
//                     creep_damage_mitigated, player_damage,
//                     player_damage_mitigated, player_spirit_damage)
//   record_mid_boss(team_killed, team_claimed, destroyed_time_s)
//   record_pauses(time_s, duration_s, slot)
//   record_damage(dealer_slot, target_slot, source_index, source_name,
//                 stat_type, category, sample, time_s, value, gained)
//   record_paths(slot, sample, time_s, x, y, health, combat_type, move_type)
//
// record_stats is the record's per-interval sample of each player (souls
// by source in the souls_* columns and in record_souls, one row a source
// named by EGoldSource); record_damage the damage matrix as sent, one row a
// (dealer, source, target, sample): its values are what the record holds at
// each sample time, and each source index is one row of the record's source
// details (its stat_type and name); record_paths each player's path, a
// row a sample: x = x_min + x_pos / x_resolution * (x_max - x_min), the
// same for y. Items and heroes are named as the rest of the Deadlock
// tables name them (tables.h, hero_names.h).
//
// Meta says whether the replay had a record (post_match_record 1 or 0:
// most recordings stop before it) and, when it had, where it and gem's own
// tables disagree: record_kills_disagree and record_souls_disagree count
// the players whose kills, or net worth, differ from their controller's
// m_iPlayerKills, m_iGoldNetWorth at the end; record_objectives_disagree is
// the difference between the objectives it has destroyed and the
// BossKilled messages gem read. A record that does not parse counts as
// damaged_post_match_records and writes nothing.
#ifndef GEM_CORE_DEADLOCK_POST_MATCH_H_
#define GEM_CORE_DEADLOCK_POST_MATCH_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/deadlock/match_messages.h"
#include "core/events/table_spec.h"

namespace gem::deadlock {

// Declares the record tables in `s` (at their positions of tables.h).
void AddRecordTables(GameSchema* s);

// Whether a damage matrix source is one of Valve's coarse categories
// (Bullet, Ability, Melee, Misc, UnknownAbility), under which the record
// counts each hit a second time, beside its specific source
// (`citadel_weapon_shiv_set`, `upgrade_...`). Categories are capitalised
// words without an underscore; specific sources are snake_case.
bool IsDamageCategory(std::string_view source_name);

class PostMatch {
 public:
  explicit PostMatch(MatchMessages* names) : names_(names) {}
  // A PostMatchDetails message.
  void OnMessage(match::MatchContext& ctx, const uint8_t* data, size_t size);

  bool present() const { return present_; }
  // The record's kills and net worth by slot (the last record's).
  const std::map<int64_t, std::pair<int64_t, int64_t>>& totals() const { return totals_; }
  // Objectives the record has destroyed.
  int64_t objectives_destroyed() const { return objectives_destroyed_; }
  uint64_t damaged() const { return damaged_; }
  // Damage matrix cells with more values than the record has sample times
  // (their values are kept from the first sample on; times past the last
  // are NULL).
  uint64_t misaligned_damage_cells() const { return misaligned_damage_cells_; }

 private:
  bool Write(match::MatchContext& ctx, std::string_view match_info);
  bool Player(match::MatchContext& ctx, std::string_view player);
  bool DamageMatrix(match::MatchContext& ctx, std::string_view matrix);
  bool Paths(match::MatchContext& ctx, std::string_view paths);

  MatchMessages* names_;
  std::vector<MatchValue> row_;
  bool present_ = false;
  std::map<int64_t, std::pair<int64_t, int64_t>> totals_;
  int64_t objectives_destroyed_ = 0;
  uint64_t damaged_ = 0;
  uint64_t misaligned_damage_cells_ = 0;
};

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_POST_MATCH_H_
