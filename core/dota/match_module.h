// Dota 2's match layer: players, hero timelines, kills and wards.
//
// - Players are the CDOTA_PlayerResource slots (m_vecPlayerData.NNNN) on
//   Radiant (2) or Dire (3); slot and player_id are that index (0-9 in a
//   normal match). A player's hero is m_vecPlayerTeamData.NNNN
//   .m_hSelectedHero (else the controller's m_hAssignedHero); its name is
//   the hero's EntityNames entry, the name the combat log writes
//   ("npc_dota_hero_axe"). Controllers report m_nPlayerID doubled since
//   7.31; which numbering a replay uses is read off the players' teams.
// - Timeline: the hero's position (128-unit cells), facing
//   (CBodyComponent.m_angRotation), health, mana, level and team; the
//   player resource's kills, deaths and assists; the team data entity's
//   (CDOTA_DataRadiant / CDOTA_DataDire, m_vecDataTeam at the player's
//   m_iTeamSlot) gold (reliable + unreliable), total earned XP, net worth,
//   last hits and denies.
// - Clock: game seconds less m_flGameStartTime (the horn); before the
//   horn, in the pre-game, less m_flStateTransitionTime (when the horn is
//   due). Game seconds are m_pGameRules.m_fGameTime where the replay has it,
//   else the server tick less paused ticks (game_clock.h).
// - Kills: combat-log deaths (DOTA_COMBATLOG_DEATH) of heroes that are not
//   illusions; the killer is the player whose hero is the attacker, else
//   the damage source (a summon's owner); assisters are assist_players
//   (player ids); weapon is the inflictor.
// - Wards: CDOTA_NPC_Observer_Ward (observer) and ..._TrueSight (sentry):
//   placed when created, removed when m_lifeState leaves 0 or the entity
//   goes; owner from m_hOwnerEntity (a hero or a player controller).
#ifndef GEM_CORE_DOTA_MATCH_MODULE_H_
#define GEM_CORE_DOTA_MATCH_MODULE_H_

#include <memory>

#include "core/match/game_module.h"

namespace gem::dota {

std::unique_ptr<match::GameModule> NewMatchModule();

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_MATCH_MODULE_H_
