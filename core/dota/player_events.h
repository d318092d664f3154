// PlayerEvents: what each player did, from the combat log and the kills:
//
// - ability_uses, item_uses: every DOTA_COMBATLOG_ABILITY and _ITEM entry
//   whose caster (the entry's attacker, as OpenDota credits it) is a
//   player's hero; the ability or item is the entry's inflictor, the
//   target its target when it names one (target_hero, target_illusion as
//   the entry flags it). Casters that are no player's hero (neutrals,
//   summons) are counted, not rows (ability_uses_without_player, ...).
// - multi_kills, kill_streaks: the combat log's DOTA_COMBATLOG_MULTIKILL
//   and _KILLSTREAK entries (their attacker's player; the value the count
//   of kills or the streak), source 'combat_log'. A replay without any
//   such entry gets them by the game's rule from the kills table, source
//   'rule': a kill by the same player within 18 s of that player's
//   previous one extends a multi-kill, a row at each kill from the
//   second (kills 2, 3, ...); a kill extends the player's streak until
//   the player dies, a row at each kill from the third (streak 3, ...).
//   Kills are of enemy heroes only (not denies).
#ifndef GEM_CORE_DOTA_PLAYER_EVENTS_H_
#define GEM_CORE_DOTA_PLAYER_EVENTS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/dota/combat_log.h"
#include "core/dota/roster.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"
#include "core/events/table_spec.h"

namespace gem::dota {

inline constexpr int32_t kCombatLogAbility = 5;
inline constexpr int32_t kCombatLogItem = 6;
inline constexpr int32_t kCombatLogMultikill = 15;
inline constexpr int32_t kCombatLogKillstreak = 16;

TableSpec AbilityUsesTable();
TableSpec ItemUsesTable();
TableSpec MultiKillsTable();
TableSpec KillStreaksTable();

class PlayerEvents {
 public:
  explicit PlayerEvents(Roster* roster) : roster_(roster) {}

  void OnCombatLog(match::MatchContext& ctx, const CombatLogEntry& c, const MatchValue& game_time);
  // Every row of the kills table.
  void OnKill(match::MatchContext& ctx, const KillRow& k);
  // The rule's rows, when the combat log had no entries of a kind.
  void Finish(match::MatchContext& ctx);

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  struct Kill {
    int64_t tick;
    MatchValue game_time;
    int32_t killer, victim;
    bool enemy;  // the killer's team is not the victim's
  };
  void Use(match::MatchContext& ctx, uint32_t table, const CombatLogEntry& c,
           const MatchValue& game_time, uint64_t* without_player);

  Roster* roster_;
  std::vector<Kill> kills_;
  std::vector<MatchValue> row_;
  uint64_t multikill_entries_ = 0, killstreak_entries_ = 0;
  uint64_t abilities_without_player_ = 0, items_without_player_ = 0;
  uint64_t streak_entries_without_player_ = 0;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_PLAYER_EVENTS_H_
