// CS2's statistics as plain SQL views over its tables (no extension
// needed), each the as-of reading of the events behind it: the kills
// (player_death), damages (player_hurt), shots (weapon_fire), flashes,
// grenades, the bomb, the rounds and the economy.
//
// A player's rounds are the rounds the economy table has them in (in play
// when the freeze ended). An enemy kill is a kill by a player of a player
// on the other side (suicides, team kills and deaths to the world are not).
//
// - stat_settings(name, value): trade_window_s, 5 by default.
// - opening_duels(round, tick, attacker, victim, attacker_team,
//   victim_team, weapon, headshot, won): each round's first enemy kill
//   (by tick, then the order of events); won: the attacker's side won the
//   round (NULL when the round has no winner).
// - trades(round, tick, trader, trader_team, killer, traded, traded_tick,
//   seconds): a death traded: a player (traded) killed by an enemy
//   (killer) at traded_tick, whose killer a teammate of theirs (trader)
//   then killed within the trade window (at the same tick or up to
//   trade_window_s later); a row per traded death.
// - clutches(round, slot, team, opponents, tick, won, kills, survived,
//   bomb_planted, bomb_defused): after each death of a round, the players
//   still alive on each side (the economy's players less the dead); the
//   first death that leaves a side with one player against one or more
//   makes that player a clutcher against the other side's players then
//   (both, one against one, when both sides are down to one); a later
//   death leaving one against one makes the other side's last player a
//   clutcher too. won: the clutcher's side won the round; kills: the
//   clutcher's enemy kills after; survived: alive at the round's end;
//   bomb_planted / bomb_defused: in the round, by anyone.
// - multi_kill_rounds(round, slot, kills): rounds of 2 to 5 enemy kills.
// - utility(round, slot, team, he_damage, fire_damage, flash_assists,
//   enemies_flashed, blind_time, flashes_thrown, smokes_thrown, hes_thrown,
//   fires_thrown): per player and round; damage is enemies' (damage_real),
//   of hegrenade and of inferno, molotov or incgrenade; flash assists are
//   enemy kills whose assist the game flagged assistedflash, credited to
//   the assister; enemies_flashed and blind_time (seconds) count the
//   player's flashes' enemy victims.
// - buys(round, team, players, start_money, equipment_value, spent,
//   money_left, buy_type): each side's economy per round, summed over its
//   players; buy_type by these rules, first match: 'pistol' (every player
//   started the round with 800: the first round of a half), 'full' (the
//   equipment value at the freeze's end at least 4,000 a player for Ts,
//   4,500 for CTs), 'eco' (at most 1,000 a player), 'force' (less than
//   1,000 a player left unspent), else 'half'.
// - accuracy(slot, weapon, shots, hits, headshots, accuracy,
//   headshot_accuracy): per player and weapon fired (weapon_fire's name
//   less its "weapon_" prefix), the hits on enemies player_hurt names
//   with that weapon, those in the head, over the shots.
// - player_rounds(round, slot, kills, deaths, assists, damage, survived,
//   traded, kast, headshot_kills) (kills and damage enemies'; traded: a
//   row of trades) and player_stats(slot, rounds, adr, kast, kpr, dpr,
//   utility_damage, flashes_thrown, enemies_flashed, apr, hs_pct,
//   opening_kills, opening_deaths, trade_kills, traded_deaths, clutches,
//   clutches_won, flash_assists, k1, k2, k3, k4, k5, rating, impact):
//   kpr, dpr, apr per round; hs_pct the headshot share of enemy kills;
//   k1..k5 rounds of exactly that many enemy kills; rating HLTV's
//   published Rating 1.0 ((kpr / 0.679 + 0.7 * survived share / 0.317 +
//   (k1 + 4 k2 + 9 k3 + 16 k4 + 25 k5) / rounds / 1.277) / 2.7); impact
//   2.13 kpr + 0.42 apr - 0.41, a community estimate of HLTV 2.0's
//   Impact (flashed.gg's, as awpy computes it), not HLTV's own.
#ifndef GEM_CORE_CS2_STATS_VIEWS_H_
#define GEM_CORE_CS2_STATS_VIEWS_H_

namespace gem::cs2 {

// The statements that make the settings table and the views, and the
// indexes they read through.
const char* StatsViewsSql();

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_STATS_VIEWS_H_
