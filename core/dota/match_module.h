// Dota 2's module (core/match/game_module.h).
//
// Decoding, every parse: the combat log (DOTA_UM_CombatLogDataHLTV, _Bulk
// and the legacy dota_combatlog game event) into combat_log_entries; chat
// messages (chat lines) and chat events (chat_events); the file info's
// Dota part (match facts, file_info_players, the server's draft); the game
// rules' match facts and start (game_rules.h); the game's end
// (DOTA_COMBATLOG_GAME_STATE 6); the game build from the server's game
// directory (".../dota_v5361/..."). HeroID_t is a signed 32-bit varint.
//
// The match layer:
// - Players and heroes: roster.h. Timeline: the hero's position (128-unit
//   cells), facing (CBodyComponent.m_angRotation), health, mana, level and
//   team; the player resource's kills, deaths, assists and teamfight
//   participation (m_flTeamFightParticipation); the team data entity's
//   (CDOTA_DataRadiant / CDOTA_DataDire, m_vecDataTeam at the player's
//   m_iTeamSlot) gold (reliable + unreliable), total earned gold
//   (m_iTotalEarnedGold, OpenDota's gold_t), total earned XP, net worth,
//   last hits, denies, stuns (m_fStuns), camps and creeps stacked.
// - Clock: game seconds less m_flGameStartTime (the horn); before the
//   horn, in the pre-game, less m_flStateTransitionTime (when the horn is
//   due). Game seconds are m_pGameRules.m_fGameTime where the replay has it,
//   else the server tick less paused ticks (game_clock.h).
// - Kills: combat-log deaths (DOTA_COMBATLOG_DEATH) of heroes that are not
//   illusions and will not reincarnate (will_reincarnate: the aegis, Wraith
//   King's ultimate; the player resource counts no death for them); the
//   killer is the player whose hero is the attacker, else
//   the damage source (a summon's owner); assisters are assist_players
//   (player ids); weapon is the inflictor.
// - Wards: ward_tracker.h. Purchases, buybacks, objectives, runes:
//   match_events.h. Inventory and abilities: held_entities.h. Draft:
//   draft.h. Teamfights: teamfights.h.
#ifndef GEM_CORE_DOTA_MATCH_MODULE_H_
#define GEM_CORE_DOTA_MATCH_MODULE_H_

#include <memory>

#include "core/events/events.h"
#include "core/match/game_module.h"

namespace gem::dota {

// Whether the header is a Dota 2 replay's.
bool IsReplayOf(const ReplayHeader& header);

std::unique_ptr<match::GameModule> NewMatchModule();

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_MATCH_MODULE_H_
