// CS2's match layer: players, pawn timelines, kills, and the analyst
// tables (tables.h) of rounds.h, combat.h, grenades.h, bomb.h, economy.h.
//
// - Players are the CCSPlayerController entities on team 2 (T) or 3 (CT);
//   the slot is the controller's entity index - 1 (game events' "userid"),
//   player_id the userinfo entry's user id. Bots are players (steam id 0).
// - Timeline follows the controller's m_hPlayerPawn: position (512-unit
//   cells), eye angles (m_angEyeAngles: pitch, yaw), health, max health,
//   armor (m_ArmorValue) and team of the pawn; the controller's money
//   (m_pInGameMoneyServices.m_iAccount) and kills, deaths, assists
//   (m_pActionTrackingServices); active_weapon is the class name of the
//   entity the pawn's m_pWeaponServices.m_hActiveWeapon names; round (the
//   round in play), place (m_szLastPlaceName), has_defuser, has_helmet
//   (m_pItemServices), equipment_value (m_unCurrentEquipmentValue),
//   flash_duration (m_flFlashDuration) and velocity: the pawn's move in the
//   last packet over the ticks since the packet before (0 when it did not
//   move; NULL for a pawn new since), in units a second. The module watches
//   the pawns' updates for their position, health and flashes.
// - Clock: game seconds (game_clock.h) less m_pGameRules.m_fMatchStartTime,
//   the start of the first round after the warm-up; unknown during the
//   warm-up and until m_bHasMatchStarted says the match is live.
// - Kills: player_death game events: userid (victim), attacker, assister
//   (players when their *_pawn handle is valid), weapon, headshot; the
//   victim's position as of the event's tick; the CS2 columns (combat.h).
// - Winner: when the match has ended (m_gamePhase 5), the team of the two
//   with the higher CCSTeam m_iScore.
// - A pawn out of a client recorder's view (left, not deleted) says nothing
//   (match::InView): its timeline columns, positions, angles and equipment
//   are NULL, its team is its controller's.
// - With ParserOptions::game_tables off, the analyst tables stay empty.
#ifndef GEM_CORE_CS2_MATCH_MODULE_H_
#define GEM_CORE_CS2_MATCH_MODULE_H_

#include <memory>

#include "core/events/events.h"
#include "core/match/game_module.h"

namespace gem::cs2 {

// Whether the header is a CS2 replay's.
bool IsReplayOf(const ReplayHeader& header);

std::unique_ptr<match::GameModule> NewMatchModule();

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_MATCH_MODULE_H_
