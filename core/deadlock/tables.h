// The tables Deadlock's module writes (core/events/table_spec.h), by position in
// its schema, and the columns it adds to the match layer's kills table.
//
// Every event table carries `tick` (the index tick of the message),
// `game_time` (the match clock then, NULL before the match starts) and
// numbers players by the match layer's slot (the controller's entity index
// - 1). Entities are entity indexes as of the message's packet; their
// `*_class` columns the entity's class then (NULL when none is live).
// Ability and item names are the ability entity's EntityNames entry, else
// the name whose CUtlStringToken (messages.h) is the message's id, among
// the names the replay's EntityNames table has held, else in the table of
// known names (known_names.h); NULL when none tells (counted in meta as
// unknown_ability_ids).
//
//   damage(id, tick, game_time, attacker, victim, attacker_entity,
//          victim_entity, inflictor_entity, attacker_class, victim_class,
//          inflictor_class, ability, ability_id, damage, pre_damage,
//          absorbed, crit_damage, health_lost, health_after, health_max,
//          shield_after, shield_max, hits, hitgroup, type, citadel_type,
//          flags, secondary, effectiveness, server_tick, x, y, z)
//   kill_streaks(id, tick, game_time, slot, kills, first_blood, ended,
//                duration)
//   respawns(id, tick, game_time, slot, yaw)
//   objective_events(id, tick, game_time, kind, entity, class, name, team,
//                    lane, objective_id, mask_change, killer, killer_entity,
//                    killer_class, bosses_remaining, message_time, x, y, z)
//     lane: the entity's m_iLane then (CMsgLaneColor: 1 yellow, 3 green,
//     4 blue, 6 purple), NULL when its class has none (shrines)
//   mid_boss(id, tick, game_time, kind, team, slot, user_team, event_type)
//   purchases(id, tick, game_time, slot, item, ability_id, change)
//   purchase_notifications(id, tick, game_time, slot, item, ability_id,
//                          sold, quickbuy)
//   ability_casts(id, tick, game_time, slot, caster_entity, caster_class,
//                 ability)
//   pings(id, tick, game_time, slot, kind, message_id, entity,
//         entity_class, x, y, z, enemy, minimap, blind, hero, param,
//         lane_color)
//   idol_returns(id, tick, game_time, location_index, enabled, x, y, z)
//   flex_slots(id, tick, game_time, team, flex_slot)
//   banned_heroes(id, tick, hero_id)
//   modifiers(id, tick, game_time, removed_tick, removed_time, slot, parent,
//             parent_class, caster, caster_slot, ability, ability_id,
//             modifier_id, modifier, serial, stacks, max_stacks, duration,
//             last_applied): see modifiers.h
//   heroes(hero_id, name, internal_name, source): see hero_names.h
//   pauses(id, tick, game_time, end_tick, duration_s, team): the game
//          rules' m_bGamePaused, from the frame it turns on (team:
//          m_iPauseTeam then, NULL when -1) to the frame it turns off
//          (NULL while still paused at the end)
//   urn(id, tick, game_time, event, slot, team, entity, x, y, z): see urn.h
//   ability_cooldowns(id, tick, game_time, slot, ability, entity,
//                     cooldown_start, cooldown_end, duration_s): see loadout.h
//   patron_phases(id, tick, game_time, entity, team, phase): the patron's
//          (CNPC_Boss_Tier3) m_ePhase, when it is created and each time it
//          changes
//   known_names(token, name, kind, source): the names gem knows of ids a
//          replay may not name, see known_names.h
//   teamfights(fight, start_tick, end_tick, start_time, end_time,
//              duration_s, x, y, heroes, slots, events, hero_damage,
//              kills): see teamfights.h
//   record_*: the post-match record, see post_match.h
#ifndef GEM_CORE_DEADLOCK_TABLES_H_
#define GEM_CORE_DEADLOCK_TABLES_H_

#include <cstddef>
#include <cstdint>

#include "core/events/table_spec.h"

namespace gem::deadlock {

enum Table : uint32_t {
  kInventory,
  kAbilities,
  kDamage,
  kKillStreaks,
  kRespawns,
  kObjectiveEvents,
  kMidBoss,
  kPurchases,
  kPurchaseNotifications,
  kAbilityCasts,
  kPings,
  kIdolReturns,
  kFlexSlots,
  kBannedHeroes,
  kModifiers,
  kHeroes,
  kPauses,
  kUrn,
  kPatronPhases,
  kAbilityCooldowns,
  kKnownNames,
  kTeamfights,
  // The post-match record (post_match.h).
  kRecordMatch,
  kRecordPlayers,
  kRecordStats,
  kRecordSouls,
  kRecordItems,
  kRecordDeaths,
  kRecordObjectives,
  kRecordMidBoss,
  kRecordPauses,
  kRecordDamage,
  kRecordPaths,
  kTableCount
};

// Column positions of each table's rows (the id column excluded); every
// event table starts with tick and game_time.
enum EventColumn : size_t { kTick, kGameTime, kEventColumns };
enum TeamfightColumn : size_t {
  kFightNumber, kFightStartTick, kFightEndTick, kFightStartTime, kFightEndTime, kFightDuration,
  kFightX, kFightY, kFightHeroes, kFightSlots, kFightEvents, kFightDamage, kFightKills,
  kTeamfightColumns
};
enum DamageColumn : size_t {
  kDmgAttacker = kEventColumns, kDmgVictim, kDmgAttackerEntity, kDmgVictimEntity,
  kDmgInflictorEntity, kDmgAttackerClass, kDmgVictimClass, kDmgInflictorClass, kDmgAbility,
  kDmgAbilityId, kDmgDamage, kDmgPreDamage, kDmgAbsorbed, kDmgCrit, kDmgHealthLost,
  kDmgHealthAfter, kDmgHealthMax, kDmgShieldAfter, kDmgShieldMax, kDmgHits, kDmgHitgroup,
  kDmgType, kDmgCitadelType, kDmgFlags, kDmgSecondary, kDmgEffectiveness, kDmgServerTick,
  kDmgX, kDmgY, kDmgZ, kDamageColumns
};
enum StreakColumn : size_t {
  kStreakSlot = kEventColumns, kStreakKills, kStreakFirstBlood, kStreakEnded,
  kStreakDuration, kStreakColumns
};
enum RespawnColumn : size_t { kRespawnSlot = kEventColumns, kRespawnYaw, kRespawnColumns };
enum ObjectiveColumn : size_t {
  kObjKind = kEventColumns, kObjEntity, kObjClass, kObjName, kObjTeam, kObjLane, kObjId,
  kObjMaskChange,
  kObjKiller, kObjKillerEntity, kObjKillerClass, kObjRemaining, kObjMessageTime, kObjX, kObjY,
  kObjZ, kObjectiveColumns
};
enum MidBossColumn : size_t {
  kMidKind = kEventColumns, kMidTeam, kMidSlot, kMidUserTeam, kMidEventType, kMidBossColumns
};
enum PurchaseColumn : size_t {
  kBuySlot = kEventColumns, kBuyItem, kBuyAbilityId, kBuyChange, kPurchaseColumns
};
enum NotificationColumn : size_t {
  kNoteSlot = kEventColumns, kNoteItem, kNoteAbilityId, kNoteSold, kNoteQuickbuy,
  kNotificationColumns
};
enum CastColumn : size_t {
  kCastSlot = kEventColumns, kCastEntity, kCastClass, kCastAbility, kCastColumns
};
enum PingColumn : size_t {
  kPingSlot = kEventColumns, kPingKind, kPingMessageId, kPingEntity, kPingEntityClass, kPingX,
  kPingY, kPingZ, kPingEnemy, kPingMinimap, kPingBlind, kPingHero, kPingParam, kPingLaneColor,
  kPingColumns
};
enum IdolColumn : size_t {
  kIdolLocation = kEventColumns, kIdolEnabled, kIdolX, kIdolY, kIdolZ, kIdolColumns
};
enum FlexColumn : size_t { kFlexTeam = kEventColumns, kFlexSlot, kFlexColumns };
enum BanColumn : size_t { kBanTick, kBanHeroId, kBanColumns };
enum PauseColumn : size_t {
  kPauseEndTick = kEventColumns, kPauseDuration, kPauseTeam, kPauseColumns
};
enum HeroColumn : size_t { kHeroId, kHeroName, kHeroInternalName, kHeroSource, kHeroColumns };
enum ModifierColumn : size_t {
  kModRemovedTick = kEventColumns, kModRemovedTime, kModSlot, kModParent, kModParentClass,
  kModCaster, kModCasterSlot, kModAbility, kModAbilityId, kModModifierId, kModModifier,
  kModSerial, kModStacks, kModMaxStacks, kModDuration, kModLastApplied, kModifierColumns
};

enum UrnColumn : size_t {
  kUrnEvent = kEventColumns, kUrnSlot, kUrnTeam, kUrnEntity, kUrnX, kUrnY, kUrnZ, kUrnColumns
};
enum CooldownColumn : size_t {
  kCdSlot = kEventColumns, kCdAbility, kCdEntity, kCdStart, kCdEnd, kCdDuration,
  kCooldownColumns
};
enum PatronColumn : size_t {
  kPatronEntity = kEventColumns, kPatronTeam, kPatronPhase, kPatronColumns
};

// The kills table's Deadlock columns, after the common ones (KillRow::extra).
enum KillColumn : size_t {
  kKillVictimTeam, kKillRespawnReason, kKillInflictorClass, kKillAbility, kKillAbilityId,
  kKillColumns
};

const GameSchema& DeadlockSchema();

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_TABLES_H_
