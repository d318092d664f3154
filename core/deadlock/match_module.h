// Deadlock's match layer: players, hero timelines and kills.
//
// - Players are the CCitadelPlayerController entities on team 2 (Amber) or
//   3 (Sapphire); slot = the controller's entity index - 1. The hero is
//   the controller's m_hHeroPawn; its name is the pawn's EntityNames entry
//   ("hero_atlas").
// - Timeline: the pawn's position (512-unit cells), eye angles
//   (m_angEyeAngles), health, life state and team; max health, level,
//   souls (net worth, m_iGoldNetWorth), kills, deaths and assists from the
//   controller's player data (m_iHealthMax, m_iLevel, m_iPlayerKills,
//   m_iDeaths, m_iPlayerAssists): the pawn's own m_iMaxHealth lags behind
//   item bonuses.
// - Clock: game seconds (game_clock.h) less m_pGameRules.m_flGameStartTime.
// - Kills: the CCitadelUserMsg_HeroKilled user message (id 319): victim,
//   attacker (the scorer when it names one) and assisters are entity
//   indexes of pawns or controllers; weapon is the inflictor's entity name
//   (else its class). Deadlock replays carry no player_death events.
#ifndef GEM_CORE_DEADLOCK_MATCH_MODULE_H_
#define GEM_CORE_DEADLOCK_MATCH_MODULE_H_

#include <memory>

#include "core/events/events.h"
#include "core/match/game_module.h"

namespace gem::deadlock {

// Whether the header is a Deadlock replay's.
bool IsReplayOf(const ReplayHeader& header);

std::unique_ptr<match::GameModule> NewMatchModule();

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_MATCH_MODULE_H_
