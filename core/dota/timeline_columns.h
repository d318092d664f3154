// Dota's own columns of the timeline, after the ones every game has
// (core/events/match_rows.h), each with its doc: what DotaModule writes in a
// timeline row, in this order.
#ifndef GEM_CORE_DOTA_TIMELINE_COLUMNS_H_
#define GEM_CORE_DOTA_TIMELINE_COLUMNS_H_

#include "core/events/match_rows.h"

namespace gem::dota {

// Dota's timeline columns: the hero's fields, the team data entity's
// (CDOTA_DataRadiant / CDOTA_DataDire: m_vecDataTeam at the player's
// m_vecPlayerTeamData.NNNN.m_iTeamSlot) and the player resource's.
inline constexpr MatchColumn kTimelineColumns[] = {
    {"mana", "REAL", "the hero's mana (m_flMana); NULL without a hero"},
    {"max_mana", "REAL", "the hero's maximum mana (m_flMaxMana); NULL without a hero"},
    {"level", "INTEGER", "the hero's level (m_iCurrentLevel); NULL without a hero"},
    {"xp", "INTEGER",
     "the XP the player has earned in all (m_iTotalEarnedXP of the team data entity, "
     "CDOTA_DataRadiant / CDOTA_DataDire, at the player's m_iTeamSlot: OpenDota's xp_t); "
     "NULL without that entity or field"},
    {"gold", "INTEGER",
     "the gold on hand: m_iReliableGold + m_iUnreliableGold of the team data entity; NULL "
     "when either is missing"},
    {"earned_gold", "INTEGER",
     "the gold earned in all (m_iTotalEarnedGold of the team data entity: OpenDota's gold_t), "
     "not the gold on hand; NULL without it"},
    {"net_worth", "INTEGER",
     "the player's net worth (m_iNetWorth of the team data entity); NULL without it"},
    {"last_hits", "INTEGER",
     "last hits (m_iLastHitCount of the team data entity: OpenDota's lh_t); NULL without it"},
    {"denies", "INTEGER",
     "denies (m_iDenyCount of the team data entity: OpenDota's dn_t); NULL without it"},
    {"kills", "INTEGER",
     "the player's kills as the game counts them (the player resource's "
     "m_vecPlayerTeamData.NNNN.m_iKills)"},
    {"deaths", "INTEGER",
     "the player's deaths as the game counts them (the player resource's m_iDeaths)"},
    {"assists", "INTEGER",
     "the player's assists as the game counts them (the player resource's m_iAssists)"},
    {"stuns", "REAL",
     "the stun seconds the game credits the player with (m_fStuns of the team data entity; "
     "OpenDota's stuns); NULL without it"},
    {"camps_stacked", "INTEGER",
     "the neutral camps the player has stacked, as the game counts them (m_iCampsStacked of the "
     "team data entity); NULL without it"},
    {"creeps_stacked", "INTEGER",
     "the neutral creeps the player has stacked, as the game counts them (m_iCreepsStacked of "
     "the team data entity); NULL without it"},
    {"teamfight_participation", "REAL",
     "the player's teamfight participation, the game's own figure (the player resource's "
     "m_flTeamFightParticipation)"},
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_TIMELINE_COLUMNS_H_
