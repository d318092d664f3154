// The per-player views over Dota's tables (plain SQL: no extension needed),
// each the as-of reading of the rows behind it:
//
// - gold_reasons(slot, reason, reason_name, gold, entries), xp_reasons(...
//   xp ...): DOTA_COMBATLOG_GOLD / _XP entries by the reason they carry,
//   credited to the player whose hero is the entry's target (OpenDota's
//   gold_reasons and xp_reasons); gold signed (losses negative); a reason
//   outside the enumeration keeps its number, reason_name NULL.
// - apm(slot, actions, minutes, apm): the actions table's orders over the
//   match's minutes (match_info.duration_s; NULL when unknown), as
//   OpenDota's actions_per_min (which floors it); actions_by_type(slot,
//   order_type, order_name, actions).
// - time_dead(slot, deaths, seconds_dead): hero_deaths summed (spans
//   still open at the end count as deaths without seconds).
// - credited_deaths(id, tick, source, target, is_target_hero,
//   is_target_illusion): the combat log's deaths as OpenDota credits them
//   (odota/parser's handleDeathCombat): every DOTA_COMBATLOG_DEATH but a
//   death a hero comes back from (will_reincarnate: the aegis, Wraith
//   King) and a suicide (the attacker is the target, and not an illusion
//   of it), credited to the damage source (a summon's owner).
// - kills_by_kind(slot, kind, kills): credited_deaths whose source is the
//   player's hero, by what died (OpenDota's `killed`, grouped);
//   killed_by(slot, killer, kills): those whose target is the player's
//   real hero (not an illusion), by the source's name (OpenDota's
//   `killed_by`).
// - laning(slot, ...): each player's last hits, denies, net worth and XP
//   at 10:00 (the last timeline sample at or before game_time 600, for a
//   replay that reaches it), the lane, and the same against the lane
//   opponent: the enemy in the same lane (bot, mid or top) with the most
//   net worth at 10:00 (the lower slot on a tie), roamers left out on both
//   sides; none in a jungle, without a lane, or for a roamer.
#ifndef GEM_CORE_DOTA_PLAYER_VIEWS_H_
#define GEM_CORE_DOTA_PLAYER_VIEWS_H_

#include <string>

namespace gem::dota {

// The kinds kills_by_kind tells apart, first match wins, by the target's
// CombatLogNames name with OpenDota's tests (odota/core's computeMatchData,
// which makes lane_kills, tower_kills, ... of `killed`): hero
// (npc_dota_hero*, not an illusion), illusion, lane_creep
// (*creep_goodguys* or *creep_badguys*: siege creeps are not, as OpenDota
// counts them), observer, sentry, tower (*_tower*), barracks (*_rax_*),
// fort (the Ancient, *_fort*), courier, roshan, necronomicon, neutral
// (npc_dota_neutral*, its ancients too), other. The player's own hero is
// never a kill of the player.
std::string PlayerViewsSql();

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_PLAYER_VIEWS_H_
