// The columns of the combat_log table that copy a CMsgDOTACombatLogEntry
// field one to one (proto/dota_usermessages.proto): X(field, kind) with kind
// INT, BOOL or REAL. The type and the five name fields have columns of their
// own (a number and a name each), written by hand in combat_log_rows.cc.
#ifndef GEM_INDEXER_COMBAT_LOG_COLUMNS_H_
#define GEM_INDEXER_COMBAT_LOG_COLUMNS_H_

#define GEM_COMBAT_LOG_PLAIN_COLUMNS(X) \
  X(is_attacker_illusion, BOOL) \
  X(is_attacker_hero, BOOL) \
  X(is_target_illusion, BOOL) \
  X(is_target_hero, BOOL) \
  X(is_visible_radiant, BOOL) \
  X(is_visible_dire, BOOL) \
  X(value, INT) \
  X(health, INT) \
  X(timestamp, REAL) \
  X(stun_duration, REAL) \
  X(slow_duration, REAL) \
  X(is_ability_toggle_on, BOOL) \
  X(is_ability_toggle_off, BOOL) \
  X(ability_level, INT) \
  X(location_x, REAL) \
  X(location_y, REAL) \
  X(gold_reason, INT) \
  X(timestamp_raw, REAL) \
  X(modifier_duration, REAL) \
  X(xp_reason, INT) \
  X(last_hits, INT) \
  X(attacker_team, INT) \
  X(target_team, INT) \
  X(obs_wards_placed, INT) \
  X(assist_player0, INT) \
  X(assist_player1, INT) \
  X(assist_player2, INT) \
  X(assist_player3, INT) \
  X(stack_count, INT) \
  X(hidden_modifier, BOOL) \
  X(is_target_building, BOOL) \
  X(neutral_camp_type, INT) \
  X(rune_type, INT) \
  X(is_heal_save, BOOL) \
  X(is_ultimate_ability, BOOL) \
  X(attacker_hero_level, INT) \
  X(target_hero_level, INT) \
  X(xpm, INT) \
  X(gpm, INT) \
  X(event_location, INT) \
  X(target_is_self, BOOL) \
  X(damage_type, INT) \
  X(invisibility_modifier, BOOL) \
  X(damage_category, INT) \
  X(networth, INT) \
  X(building_type, INT) \
  X(modifier_elapsed_duration, REAL) \
  X(silence_modifier, BOOL) \
  X(heal_from_lifesteal, BOOL) \
  X(modifier_purged, BOOL) \
  X(spell_evaded, BOOL) \
  X(motion_controller_modifier, BOOL) \
  X(long_range_kill, BOOL) \
  X(modifier_purge_ability, INT) \
  X(modifier_purge_npc, INT) \
  X(root_modifier, BOOL) \
  X(total_unit_death_count, INT) \
  X(aura_modifier, BOOL) \
  X(armor_debuff_modifier, BOOL) \
  X(no_physical_damage_modifier, BOOL) \
  X(modifier_ability, INT) \
  X(modifier_hidden, BOOL) \
  X(inflictor_is_stolen_ability, BOOL) \
  X(kill_eater_event, INT) \
  X(unit_status_label, INT) \
  X(spell_generated_attack, BOOL) \
  X(at_night_time, BOOL) \
  X(attacker_has_scepter, BOOL) \
  X(neutral_camp_team, INT) \
  X(regenerated_health, REAL) \
  X(will_reincarnate, BOOL) \
  X(uses_charges, BOOL) \
  X(tracked_stat_id, INT) \
  X(modifier_purged_duration, REAL) \
  X(heal_from_regen, BOOL)

#endif  // GEM_INDEXER_COMBAT_LOG_COLUMNS_H_
