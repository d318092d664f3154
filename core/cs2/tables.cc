#include "core/cs2/tables.h"

#include <string>
#include <utility>
#include <vector>

#include "core/cs2/aim_views.h"
#include "core/cs2/stats_views.h"

namespace gem::cs2 {
namespace {

TableSpec Spec(const char* name, const char* comment, bool auto_id,
               std::vector<TableColumn> cols, const char* constraints = "",
               bool without_rowid = false) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  t.auto_id = auto_id;
  t.columns = std::move(cols);
  t.constraints = constraints;
  t.without_rowid = without_rowid;
  return t;
}

// The round every row of CS2's tables carries (rounds.h: Rounds::current).
constexpr const char* kRoundDoc =
    "the round in play then (rounds.round); NULL in the warm-up and before the first round the "
    "replay shows starts; rows after a round's end and before the next start are the ended "
    "round's";
constexpr const char* kGameTimeDoc =
    "the game clock then, seconds from the first round's start after the warm-up "
    "(match_info.start_tick; negative before it)";
// A player's team, as the pawn (else the controller) says at the row's tick.
constexpr const char* kTeamRule = "m_iTeamNum of their pawn (else controller) then: 2 T, 3 CT";

// The start of every event table's columns.
std::vector<TableColumn> Event(std::vector<TableColumn> cols) {
  std::vector<TableColumn> out = {{"tick", "INTEGER NOT NULL", "the tick it happened at"},
                                  {"game_time", "REAL", kGameTimeDoc},
                                  {"round", "INTEGER", kRoundDoc}};
  out.insert(out.end(), cols.begin(), cols.end());
  return out;
}

// A team column's doc: whose team, the rule, and `rest` (what NULL means).
std::string Team(const char* who, const char* rest = "") {
  return std::string("the team of ") + who + ": " + kTeamRule + rest;
}

GameSchema Build() {
  GameSchema s;
  s.tables.resize(kTableCount);
  s.tables[kRounds] = Spec(
      "rounds",
      "a round, warm-up excluded: from the round_start, round_freeze_end, round_end and "
      "round_officially_ended events when the replay has both round_start and round_end events, "
      "else from the game rules (m_pGameRules' m_nRoundStartCount, m_bFreezePeriod, "
      "m_nRoundEndCount); meta rounds_from_events / rounds_from_game_rules say which. A restart "
      "voids the rounds it undoes; a second end of an ended round is ignored (meta "
      "round_ends_repeated)",
      false,
      {{"round", "INTEGER PRIMARY KEY",
        "the round's number: m_pGameRules.m_totalRoundsPlayed + 1 as it starts, the game's own "
        "numbering (a replay that starts mid-match numbers as the game does; a restart or the "
        "warm-up's end counts from 1 again)"},
       {"tick", "INTEGER NOT NULL",
        "the round's first tick: its start, or for a round in play as the replay begins, the "
        "replay's first tick with the game rules"},
       {"start_tick", "INTEGER",
        "the round_start event's tick, else the tick m_nRoundStartCount moved; NULL for a round "
        "in play as the replay begins (meta rounds_started_before_the_replay)"},
       {"freeze_end_tick", "INTEGER",
        "the end of the freeze time: round_freeze_end's tick, else the tick m_bFreezePeriod "
        "fell; NULL when the replay does not show it"},
       {"end_tick", "INTEGER",
        "round_end's tick, else the tick m_nRoundEndCount moved; NULL while the round had not "
        "ended at the replay's end"},
       {"official_end_tick", "INTEGER",
        "round_officially_ended's tick (events); from the game rules, the next round's start; "
        "NULL when the replay does not show it (the last round)"},
       {"winner", "INTEGER",
        "the team that won: round_end's winner, else m_iRoundWinStatus: 2 T, 3 CT; NULL when "
        "neither (a draw) or not ended"},
       {"reason", "TEXT",
        "why it ended: round_end's reason, else m_eRoundWinReason, named after the game's "
        "RoundEndReason (bomb_exploded, bomb_defused, t_eliminated, ct_eliminated, "
        "target_saved, t_surrender, ct_surrender, draw, game_start, ...); NULL when unknown "
        "(meta round_end_reasons_unknown) or not ended"},
       {"ct_score", "INTEGER",
        "the CTs' score after the round: the CCSTeam m_iScore of team 3 as the frame the round "
        "ended in ends; NULL before it ends"},
       {"t_score", "INTEGER",
        "the Ts' score after the round: the CCSTeam m_iScore of team 2 as the frame the round "
        "ended in ends; NULL before it ends"},
       {"bomb_plant_tick", "INTEGER",
        "the tick of the round's first plant (the bomb table's first plant row of the round); "
        "NULL when the bomb was not planted"},
       {"bomb_site", "TEXT",
        "that plant's site, A or B (bomb.site); NULL without a plant or when its site is "
        "unknown"}});
  s.tables[kDamages] = Spec(
      "damages",
      "a hit on a player: a player_hurt event (one whose victim is no player is left out: meta "
      "combat_events_without_player). Teams and positions are the pawns' as the event arrives. "
      "A replay without player_hurt events gets a row for each frame in which a live pawn's "
      "m_iHealth or m_ArmorValue is sent lower than the frame before ended it (meta "
      "damages_from_pawns counts them; gem's own rule, core/cs2/pawn_damages.h): hits on one "
      "player in one frame are one row, damage and damage_real are the health lost (no "
      "overkill), and the attacker and weapon are the victim's player_death of that frame's, "
      "else the one enemy who fired (weapon_fire) then, else the one HE grenade that went off "
      "then, else the one fire burning then; NULL when none or several (meta "
      "damages_from_pawns_without_attacker); hitgroup only from a player_death",
      true,
      Event({{"attacker", "INTEGER",
              "the slot of player_hurt's attacker (by its attacker_pawn handle and attacker user "
              "id); NULL when no player (the world, a fall)"},
             {"victim", "INTEGER", "the slot of player_hurt's userid: the player hit"},
             {"attacker_team", "INTEGER", Team("the attacker", "; NULL without an attacker")},
             {"victim_team", "INTEGER", Team("the victim")},
             {"weapon", "TEXT",
              "player_hurt's weapon, as the event names it (no weapon_ prefix): ak47, hegrenade, "
              "inferno (fire), knife"},
             {"hitgroup", "TEXT",
              "player_hurt's hitgroup by name: generic, head, chest, stomach, left_arm, "
              "right_arm, left_leg, right_leg, neck, gear; NULL when absent or unknown (meta "
              "unknown_hitgroups)"},
             {"damage", "INTEGER",
              "player_hurt's dmg_health: the health the hit took as the game says, which may "
              "exceed the health the victim had"},
             {"damage_armor", "INTEGER", "player_hurt's dmg_armor: the armor the hit took"},
             {"damage_real", "INTEGER",
              "damage capped by the victim's health before the hit (the health an earlier hit "
              "of the same frame left, else the pawn's m_iHealth as the frame before ended), as "
              "awpy counts ADR; NULL when unknown and the hit was lethal (meta "
              "damages_unknown_health)"},
             {"health_after", "INTEGER", "player_hurt's health: the victim's health after the hit"},
             {"armor_after", "INTEGER", "player_hurt's armor: the victim's armor after the hit"},
             {"attacker_x", "REAL",
              "the attacker's pawn position then, world x (game units); NULL without an "
              "attacker"},
             {"attacker_y", "REAL", "the attacker's pawn position then, world y"},
             {"attacker_z", "REAL", "the attacker's pawn position then, world z"},
             {"victim_x", "REAL", "the victim's pawn position then, world x (game units)"},
             {"victim_y", "REAL", "the victim's pawn position then, world y"},
             {"victim_z", "REAL", "the victim's pawn position then, world z"}}));
  s.tables[kShots] = Spec(
      "shots",
      "a shot fired: a weapon_fire event (one whose shooter is no player is left out: meta "
      "combat_events_without_player)",
      true,
      Event({{"slot", "INTEGER", "the shooter: the slot of weapon_fire's userid"},
             {"weapon", "TEXT",
              "weapon_fire's weapon as the event names it, with its prefix: weapon_ak47 (a "
              "grenade thrown fires too: weapon_hegrenade); NULL when it names none (an empty "
              "name: meta shots_without_weapon)"},
             {"silenced", "INTEGER",
              "weapon_fire's silenced: 1 when the weapon's silencer was on"},
             {"x", "REAL", "the shooter's pawn position then, world x (game units)"},
             {"y", "REAL", "the shooter's pawn position then, world y"},
             {"z", "REAL", "the shooter's pawn position then, world z"},
             {"pitch", "REAL",
              "where the shooter looked: the pawn's m_angEyeAngles pitch, degrees in "
              "[-180, 180)"},
             {"yaw", "REAL", "the pawn's m_angEyeAngles yaw, degrees in [-180, 180)"},
             {"speed", "REAL",
              "how fast the shooter moved: the pawn's m_vecVelocity across the ground, "
              "hypot(x, y), units a second; NULL when the pawn has none"},
             {"burst_shot", "INTEGER",
              "the shot's place in its burst: the pawn's m_iShotsFired then (the game's recoil "
              "count: 1 the burst's first bullet, reset when the trigger is let go); NULL when "
              "the pawn has none"}}));
  s.tables[kGrenades] = Spec(
      "grenades",
      "a grenade thrown: the life of a projectile entity (CSmokeGrenadeProjectile, "
      "CFlashbangProjectile, CHEGrenadeProjectile, CMolotovProjectile, CDecoyProjectile), where "
      "and when it went off and when its effect ended",
      false,
      {{"id", "INTEGER PRIMARY KEY",
        "numbers the grenades in throw order from 1: unique though entity indexes are reused"},
       {"entity", "INTEGER", "the projectile: its entities.entity (lifetime id)"},
       {"tick", "INTEGER NOT NULL", "the throw: the tick the projectile was created"},
       {"game_time", "REAL",
        "the game clock at the throw, seconds from the first round's start after the warm-up"},
       {"round", "INTEGER",
        "the round in play at the throw (rounds.round); NULL in the warm-up and before the "
        "first round the replay shows starts"},
       {"kind", "TEXT NOT NULL",
        "by the projectile's class: smoke, flash, he, decoy, and molotov or incendiary (a "
        "CMolotovProjectile whose m_bIsIncGrenade is set)"},
       {"thrower", "INTEGER",
        "the slot of the player whose pawn (or controller) the projectile's m_hThrower names; "
        "NULL when none "
        "(meta grenades_without_thrower)"},
       {"throw_tick", "INTEGER NOT NULL", "the tick the projectile was created (the same as tick)"},
       {"detonate_tick", "INTEGER",
        "when it went off: its kind's event (smokegrenade_detonate, flashbang_detonate, "
        "hegrenade_detonate, decoy_started; entityid the projectile), else a smoke's "
        "m_bDidSmokeEffect set or a flash's or HE's m_nExplodeEffectTickBegin set, else the "
        "projectile's deletion (a molotov bursts as it goes); NULL while in the air at the "
        "replay's end"},
       {"end_tick", "INTEGER",
        "when its effect ended: a smoke's smokegrenade_expired, a decoy's decoy_detonate, else "
        "the projectile's deletion; a flash or HE as it went off; a molotov's fire (the "
        "CInferno made as it burst, within 128 units) at inferno_expire or inferno_extinguish, "
        "else the fire's deletion, or as it burst when it made no fire; NULL while still going"},
       {"x", "REAL",
        "where it went off, world x (game units): the detonate event's x, else "
        "m_vSmokeDetonationPos (smoke) or m_vecExplodeEffectOrigin (flash, HE), else the "
        "projectile's last position; NULL before it went off"},
       {"y", "REAL", "where it went off, world y (as x)"},
       {"z", "REAL", "where it went off, world z (as x)"}});
  s.tables[kGrenadePaths] = Spec(
      "grenade_paths",
      "a point of a grenade's flight: the projectile's position at its creation and at the end "
      "of every frame in which it moved, until it went off (then it lies still or is gone)",
      false,
      {{"id", "INTEGER NOT NULL", "the grenade: grenades.id"},
       {"tick", "INTEGER NOT NULL", "the tick it was there"},
       {"x", "REAL", "the projectile's body position (CBodyComponent), world x (game units)"},
       {"y", "REAL", "the projectile's body position, world y"},
       {"z", "REAL", "the projectile's body position, world z"}},
      "PRIMARY KEY(id, tick)", true);
  s.tables[kFlashes] = Spec(
      "flashes",
      "a player blinded by a flashbang (teammates and the thrower too): a player_blind event (one "
      "whose victim is no player is left out); in a replay without them, each time a pawn's "
      "m_flFlashDuration is sent above 0 (meta flashes_from_pawns counts those rows)",
      true,
      Event({{"thrower", "INTEGER",
              "the slot of player_blind's attacker; from the pawns, the thrower of the "
              "flashbang that went off in that frame; NULL when unknown"},
             {"victim", "INTEGER", "the slot of the player blinded (player_blind's userid)"},
             {"thrower_team", "INTEGER", Team("the thrower", "; NULL without a thrower")},
             {"victim_team", "INTEGER", Team("the victim")},
             {"duration", "REAL",
              "how long the victim is blind, seconds: player_blind's blind_duration, else the "
              "pawn's m_flFlashDuration"},
             {"grenade", "INTEGER",
              "the flashbang: grenades.id of the projectile player_blind's entityid names, "
              "else of the flashbang that went off in that frame; NULL when unknown"}}));
  s.tables[kBomb] = Spec(
      "bomb",
      "a bomb event: pickup, drop, plant_begin, plant, defuse_begin, defuse, explode. From the "
      "bomb_* game events when the replay has any, else from the CC4 and CPlantedC4 entities "
      "(meta bomb_rows_from_entities counts those rows)",
      true,
      Event({{"kind", "TEXT NOT NULL",
              "pickup (bomb_pickup; the CC4's m_hOwnerEntity naming a pawn), drop (bomb_dropped; "
              "the owner gone), plant_begin (bomb_beginplant; m_bStartedArming), plant "
              "(bomb_planted; a CPlantedC4 made), defuse_begin (bomb_begindefuse; "
              "m_bBeingDefused), defuse (bomb_defused; m_bBombDefused), explode (bomb_exploded; "
              "m_bHasExploded)"},
             {"slot", "INTEGER",
              "who: the event's userid; from the entities, the C4's holder (pickup, drop, "
              "plant_begin), its last holder (plant, explode: the planter), m_hBombDefuser "
              "(defuses); NULL when no player"},
             {"site", "TEXT",
              "A or B: the planted bomb's m_nBombSite (0 A, 1 B), before it is down the "
              "planter's m_nWhichBombZone (1 A, 2 B), else the letter a plant taught for the "
              "event's site (a bomb target entity index); NULL for pickup and drop, or when "
              "unknown (meta bomb_rows_without_site)"},
             {"x", "REAL",
              "world x (game units): the player's pawn for pickup, drop and plant_begin; the "
              "planted bomb (CPlantedC4) once it is down"},
             {"y", "REAL", "world y (as x)"},
             {"z", "REAL", "world z (as x)"}}));
  s.tables[kEconomy] = Spec(
      "economy",
      "a player in a round: the players in play (team 2 or 3) as the round's first frame past "
      "the freeze time ends (for a round the replay joins after it, its first frame); money "
      "and equipment then, what was spent and earned once the round is over; a restart voids "
      "the rounds it undoes, as in rounds",
      false,
      {{"round", "INTEGER NOT NULL", "the round (rounds.round)"},
       {"slot", "INTEGER NOT NULL", "the player (players.slot)"},
       {"team", "INTEGER",
        "the player's side as the freeze ended: m_iTeamNum of their pawn (else controller): 2 T, "
        "3 CT"},
       {"tick", "INTEGER NOT NULL",
        "the freeze time's end: the round's first frame past m_bFreezePeriod, when the row's "
        "players, start_money and equipment_value are read"},
       {"start_money", "INTEGER",
        "the money the player started the round with: the controller's "
        "m_pInGameMoneyServices.m_iStartAccount, dollars"},
       {"equipment_value", "INTEGER",
        "the value of what the player carries as the freeze ends: the pawn's "
        "m_unCurrentEquipmentValue, dollars (the game's m_unFreezetimeEndEquipmentValue stays 0 "
        "in a round without a freeze)"},
       {"spent", "INTEGER",
        "the money spent in the round: the controller's m_iCashSpentThisRound as last read "
        "between the round's end and the next start (or at the replay's end); NULL for a round "
        "not seen to end before the next started"},
       {"kill_reward", "INTEGER",
        "the kill rewards earned in the round: what the controller's "
        "m_pActionTrackingServices.m_iKillReward (the match's total) grew by since the freeze's "
        "end, read as spent is; NULL as spent is"}},
      "PRIMARY KEY(round, slot)", true);
  s.tables[kSightings] = Spec(
      "sightings",
      "a player having an enemy spotted (core/cs2/sightings.h): from the end of a frame in which "
      "bit observer of the target's pawn's m_bSpottedByMask is set (the radar's flag, not line "
      "of sight), both pawns are alive and on opposing teams, to the end of the first frame in "
      "which that no longer holds",
      true,
      Event({{"observer", "INTEGER", "the player who had the target spotted (players.slot)"},
             {"target", "INTEGER", "the enemy spotted (players.slot)"},
             {"end_tick", "INTEGER",
              "the end: the tick of the first frame that no longer held it; NULL when it still "
              "held at the replay's end"},
             {"ended", "TEXT",
              "why it ended: unspotted (the bit went), observer_dead, target_dead, gone (a pawn "
              "left the recording, was replaced or changed team); NULL while it holds"},
             {"fov_tick", "INTEGER",
              "the first frame's tick, from tick to the end, at which the target's head was "
              "in the observer's field of view (gem's rule: 53.13 degrees to either side, "
              "36.87 up or down, CS2's 90 across a 4:3 screen on 16:9); NULL when never. Heads "
              "and eyes are the pawn's origin raised by m_vecViewOffset.m_vecZ (64 without it)"},
             {"pitch", "REAL", "the observer's m_angEyeAngles pitch at tick, degrees"},
             {"yaw", "REAL", "the observer's m_angEyeAngles yaw at tick, degrees"},
             {"head_angle", "REAL",
              "degrees between the observer's view and the line from the observer's eye to the "
              "target's head, at tick; NULL when a position is unknown"},
             {"distance", "REAL",
              "from the observer's eye to the target's head at tick, game units"}}));
  s.kill_columns = {
      {"round", "INTEGER", kRoundDoc},
      {"killer_team", "INTEGER", Team("the killer", "; NULL when the killer is no player")},
      {"victim_team", "INTEGER", Team("the victim")},
      {"penetrated", "INTEGER",
       "player_death's penetrated: how many objects the killing shot went through first (0 "
       "none); NULL when the event lacks the key"},
      {"thrusmoke", "INTEGER", "player_death's thrusmoke: 1 when the kill was through a smoke"},
      {"noscope", "INTEGER",
       "player_death's noscope: 1 when a scoped weapon killed without its scope"},
      {"attackerblind", "INTEGER",
       "player_death's attackerblind: 1 when the killer was blinded by a flash"},
      {"assistedflash", "INTEGER",
       "player_death's assistedflash: 1 when the assist (assisters) was a flash assist, the "
       "assister having blinded the victim"},
      {"distance", "REAL",
       "player_death's distance: from killer to victim, in metres as the event says"},
      {"hitgroup", "TEXT",
       "player_death's hitgroup by name (as damages.hitgroup); NULL when absent or unknown "
       "(meta unknown_hitgroups)"},
      {"attacker_x", "REAL",
       "the killer's pawn position then, world x (game units); NULL when no player killed"},
      {"attacker_y", "REAL", "the killer's pawn position then, world y"},
      {"attacker_z", "REAL", "the killer's pawn position then, world z"},
      {"victim_weapon", "TEXT",
       "the weapon the victim last held, as events name it (weapons.weapon): the item "
       "(m_iItemDefinitionIndex) of the weapon entity the victim's pawn's m_hActiveWeapon named "
       "at the end of the last frame it named one (it names none once the pawn is dead), read "
       "at the kill (as last read when that entity is gone); NULL when "
       "unknown, an item gem does not list, or the pawn is out of a client recording's view"},
      {"utility_held", "TEXT",
       "the grenades the victim's pawn held at the end of the last frame it was alive, a JSON "
       "object of grenade (weapons.weapon) to count, {} for none: the pawn's "
       "m_pWeaponServices.m_iAmmo at the grenades' ammo types (13 HE, 14 flashbang, 15 smoke, 16 "
       "molotov or incendiary by the weapon entity held, else the team, 17 decoy): 14 as "
       "demoinfocs-golang reads it, the others as a fork of it does (core/cs2/utility_held.h); "
       "NULL when the pawn was never read alive or is out of a client recording's view"},
      {"utility_value", "INTEGER",
       "what utility_held cost: each grenade's count times its buy-menu price (weapons.price); "
       "NULL as utility_held"}};
  s.after_sql = std::string(StatsViewsSql()) + AimViewsSql();
  // Written at the end (TableSpec::written; a live index's commits rewrite
  // them as they stand): rounds and economy (a restart voids the rounds it
  // undoes; a plant's site is named by the bomb's rows), grenades (a
  // grenade's row says how it ended) and the bomb's rows (their site, from
  // a plant later).
  s.tables[kRounds].written = TableSpec::Written::kAtEnd;
  s.tables[kGrenades].written = TableSpec::Written::kAtEnd;
  s.tables[kBomb].written = TableSpec::Written::kAtEnd;
  s.tables[kEconomy].written = TableSpec::Written::kAtEnd;
  // A table with no source but its events (the others fall back on the
  // entities: meta's *_from_pawns, *_from_entities, rounds_from_game_rules).
  s.tables[kShots].from_events = {"weapon_fire"};
  s.kill_events = {"player_death"};
  return s;
}

}  // namespace

const GameSchema& Cs2Schema() {
  static const GameSchema* const kSchema = new GameSchema(Build());
  return *kSchema;
}

}  // namespace gem::cs2
