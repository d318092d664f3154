// The tables CS2's module writes (core/events/table_spec.h), by position in its
// schema, and the columns it adds to the match layer's kills table.
//
// Every table carries `tick` (the index tick) and `round` (rounds.h: the
// round in play, 1-based, NULL in the warm-up and before the first round
// the replay shows starts), numbers players by the match layer's slot and
// gives positions in world coordinates. Event tables carry `game_time` too
// (the match clock; counted back from the start before it is known).
//
//   rounds(round, tick, start_tick, freeze_end_tick, end_tick,
//          official_end_tick, winner, reason, ct_score, t_score,
//          bomb_plant_tick, bomb_site)
//   damages(id, tick, game_time, round, attacker, victim, attacker_team,
//           victim_team, weapon, hitgroup, damage, damage_armor, damage_real,
//           health_after, armor_after, attacker_x.., victim_x..)
//   shots(id, tick, game_time, round, slot, weapon, silenced, x, y, z,
//         pitch, yaw, speed, burst_shot)
//   grenades(id, entity, tick, game_time, round, kind, thrower, throw_tick,
//            detonate_tick, end_tick, x, y, z)
//   grenade_paths(id, tick, x, y, z)
//   flashes(id, tick, game_time, round, thrower, victim, thrower_team,
//           victim_team, duration, grenade)
//   bomb(id, tick, game_time, round, kind, slot, site, x, y, z)
//   economy(round, slot, team, tick, start_money, equipment_value, spent,
//           kill_reward)
//   sightings(id, tick, game_time, round, observer, target, end_tick, ended,
//             fov_tick, pitch, yaw, head_angle, distance)
#ifndef GEM_CORE_CS2_TABLES_H_
#define GEM_CORE_CS2_TABLES_H_

#include <cstdint>

#include "core/events/table_spec.h"

namespace gem::cs2 {

enum Table : uint32_t {
  kRounds,
  kDamages,
  kShots,
  kGrenades,
  kGrenadePaths,
  kFlashes,
  kBomb,
  kEconomy,
  kSightings,
  kTableCount
};

// Column positions of each table's rows (the id column excluded).
enum RoundColumn : size_t {
  kRoundNumber, kRoundTick, kRoundStart, kRoundFreezeEnd, kRoundEnd, kRoundOfficialEnd,
  kRoundWinner, kRoundReason, kRoundCtScore, kRoundTScore, kRoundPlantTick, kRoundSite,
  kRoundColumns
};
enum DamageColumn : size_t {
  kDmgTick, kDmgTime, kDmgRound, kDmgAttacker, kDmgVictim, kDmgAttackerTeam, kDmgVictimTeam,
  kDmgWeapon, kDmgHitgroup, kDmgDamage, kDmgArmor, kDmgReal, kDmgHealthAfter, kDmgArmorAfter,
  kDmgAttackerX, kDmgAttackerY, kDmgAttackerZ, kDmgVictimX, kDmgVictimY, kDmgVictimZ,
  kDamageColumns
};
enum ShotColumn : size_t {
  kShotTick, kShotTime, kShotRound, kShotSlot, kShotWeapon, kShotSilenced, kShotX, kShotY,
  kShotZ, kShotPitch, kShotYaw, kShotSpeed, kShotBurst, kShotColumns
};
enum GrenadeColumn : size_t {
  kGrenId, kGrenEntity, kGrenTick, kGrenTime, kGrenRound, kGrenKind, kGrenThrower,
  kGrenThrowTick, kGrenDetonateTick, kGrenEndTick, kGrenX, kGrenY, kGrenZ, kGrenadeColumns
};
enum PathColumn : size_t { kPathId, kPathTick, kPathX, kPathY, kPathZ, kPathColumns };
enum FlashColumn : size_t {
  kFlashTick, kFlashTime, kFlashRound, kFlashThrower, kFlashVictim, kFlashThrowerTeam,
  kFlashVictimTeam, kFlashDuration, kFlashGrenade, kFlashColumns
};
enum BombColumn : size_t {
  kBombTick, kBombTime, kBombRound, kBombKind, kBombSlot, kBombSite, kBombX, kBombY, kBombZ,
  kBombColumns
};
enum EconomyColumn : size_t {
  kEcoRound, kEcoSlot, kEcoTeam, kEcoTick, kEcoStartMoney, kEcoEquipment, kEcoSpent, kEcoKillReward,
  kEconomyColumns
};
enum SightColumn : size_t {
  kSightTick, kSightTime, kSightRound, kSightObserver, kSightTarget, kSightEndTick, kSightEnded,
  kSightFovTick, kSightPitch, kSightYaw, kSightHeadAngle, kSightDistance, kSightColumns
};
// The kills table's CS2 columns, after the common ones (KillRow::extra).
enum KillColumn : size_t {
  kKillRound, kKillKillerTeam, kKillVictimTeam, kKillPenetrated, kKillThruSmoke, kKillNoScope, kKillAttackerBlind,
  kKillAssistedFlash, kKillDistance, kKillHitgroup, kKillAttackerX, kKillAttackerY,
  kKillAttackerZ, kKillVictimWeapon, kKillUtilityHeld, kKillUtilityValue, kKillColumns
};

// Every table, in Table order, the kills columns, and the views.
const GameSchema& Cs2Schema();

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_TABLES_H_
