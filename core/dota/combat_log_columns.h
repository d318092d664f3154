// The columns of the combat_log table that copy a CMsgDOTACombatLogEntry
// field one to one (proto/dota_usermessages.proto): X(field, kind, EXTRA) with kind
// INT, BOOL or REAL. The type and the five name fields have columns of their
// own (a number and a name each), written by hand in combat_log_table.cc.
#ifndef GEM_CORE_DOTA_COMBAT_LOG_COLUMNS_H_
#define GEM_CORE_DOTA_COMBAT_LOG_COLUMNS_H_

#define GEM_COMBAT_LOG_PLAIN_COLUMNS(X) \
  X(is_attacker_illusion, BOOL, COLUMN) \
  X(is_attacker_hero, BOOL, COLUMN) \
  X(is_target_illusion, BOOL, COLUMN) \
  X(is_target_hero, BOOL, COLUMN) \
  X(is_visible_radiant, BOOL, COLUMN) \
  X(is_visible_dire, BOOL, COLUMN) \
  X(value, INT, COLUMN) \
  X(health, INT, COLUMN) \
  X(timestamp, REAL, COLUMN) \
  X(stun_duration, REAL, COLUMN) \
  X(slow_duration, REAL, COLUMN) \
  X(is_ability_toggle_on, BOOL, EXTRA) \
  X(is_ability_toggle_off, BOOL, EXTRA) \
  X(ability_level, INT, COLUMN) \
  X(location_x, REAL, COLUMN) \
  X(location_y, REAL, COLUMN) \
  X(gold_reason, INT, COLUMN) \
  X(timestamp_raw, REAL, COLUMN) \
  X(modifier_duration, REAL, COLUMN) \
  X(xp_reason, INT, COLUMN) \
  X(last_hits, INT, COLUMN) \
  X(attacker_team, INT, COLUMN) \
  X(target_team, INT, COLUMN) \
  X(obs_wards_placed, INT, EXTRA) \
  X(assist_player0, INT, EXTRA) \
  X(assist_player1, INT, EXTRA) \
  X(assist_player2, INT, EXTRA) \
  X(assist_player3, INT, EXTRA) \
  X(stack_count, INT, COLUMN) \
  X(hidden_modifier, BOOL, COLUMN) \
  X(is_target_building, BOOL, COLUMN) \
  X(neutral_camp_type, INT, EXTRA) \
  X(rune_type, INT, EXTRA) \
  X(is_heal_save, BOOL, EXTRA) \
  X(is_ultimate_ability, BOOL, EXTRA) \
  X(attacker_hero_level, INT, COLUMN) \
  X(target_hero_level, INT, COLUMN) \
  X(xpm, INT, EXTRA) \
  X(gpm, INT, EXTRA) \
  X(event_location, INT, COLUMN) \
  X(target_is_self, BOOL, COLUMN) \
  X(damage_type, INT, COLUMN) \
  X(invisibility_modifier, BOOL, EXTRA) \
  X(damage_category, INT, COLUMN) \
  X(networth, INT, EXTRA) \
  X(building_type, INT, EXTRA) \
  X(modifier_elapsed_duration, REAL, EXTRA) \
  X(silence_modifier, BOOL, EXTRA) \
  X(heal_from_lifesteal, BOOL, EXTRA) \
  X(modifier_purged, BOOL, EXTRA) \
  X(spell_evaded, BOOL, EXTRA) \
  X(motion_controller_modifier, BOOL, EXTRA) \
  X(long_range_kill, BOOL, EXTRA) \
  X(modifier_purge_ability, INT, EXTRA) \
  X(modifier_purge_npc, INT, EXTRA) \
  X(root_modifier, BOOL, EXTRA) \
  X(total_unit_death_count, INT, EXTRA) \
  X(aura_modifier, BOOL, EXTRA) \
  X(armor_debuff_modifier, BOOL, EXTRA) \
  X(no_physical_damage_modifier, BOOL, EXTRA) \
  X(modifier_ability, INT, COLUMN) \
  X(modifier_hidden, BOOL, COLUMN) \
  X(inflictor_is_stolen_ability, BOOL, EXTRA) \
  X(kill_eater_event, INT, EXTRA) \
  X(unit_status_label, INT, EXTRA) \
  X(spell_generated_attack, BOOL, EXTRA) \
  X(at_night_time, BOOL, EXTRA) \
  X(attacker_has_scepter, BOOL, EXTRA) \
  X(neutral_camp_team, INT, EXTRA) \
  X(regenerated_health, REAL, EXTRA) \
  X(will_reincarnate, BOOL, EXTRA) \
  X(uses_charges, BOOL, EXTRA) \
  X(tracked_stat_id, INT, EXTRA) \
  X(modifier_purged_duration, REAL, EXTRA) \
  X(heal_from_regen, BOOL, EXTRA)

#endif  // GEM_CORE_DOTA_COMBAT_LOG_COLUMNS_H_
