// The columns of the combat_log table that copy a CMsgDOTACombatLogEntry
// field one to one (proto/dota_usermessages.proto), each with its doc:
// Y(X, field, kind, place, doc) with kind INT, BOOL or REAL, place COLUMN (a
// column of combat_log_entries) or EXTRA (a key of its `extra` JSON), and
// doc what the field holds (the schema's comment on its column; the
// combat_log view's too). The type and the five name fields have columns
// of their own (a number and a name each), written by hand in
// combat_log_table.cc.
//
// GEM_COMBAT_LOG_PLAIN_COLUMNS(X) calls X(field, kind, place) for each;
// GEM_COMBAT_LOG_DOCUMENTED_COLUMNS(X) calls X(field, kind, place, doc).
#ifndef GEM_CORE_DOTA_COMBAT_LOG_COLUMNS_H_
#define GEM_CORE_DOTA_COMBAT_LOG_COLUMNS_H_

#define GEM_COMBAT_LOG_COLUMN_LIST_(X, Y) \
  Y(X, is_attacker_illusion, BOOL, COLUMN, "1 when the attacker is an illusion") \
  Y(X, is_attacker_hero, BOOL, COLUMN, \
    "1 when the server flags the attacker a hero (an illusion of a hero can be flagged too: a " \
    "real hero is is_attacker_hero = 1 and is_attacker_illusion = 0)") \
  Y(X, is_target_illusion, BOOL, COLUMN, "1 when the target is an illusion") \
  Y(X, is_target_hero, BOOL, COLUMN, \
    "1 when the server flags the target a hero (an illusion of a hero can be flagged too: a " \
    "real hero is is_target_hero = 1 and is_target_illusion = 0, as the kills table takes it)") \
  Y(X, is_visible_radiant, BOOL, COLUMN, "1 when Radiant (team 2) could see it happen") \
  Y(X, is_visible_dire, BOOL, COLUMN, "1 when Dire (team 3) could see it happen") \
  Y(X, value, INT, COLUMN, \
    "the amount, by type: damage dealt (DAMAGE), health restored (HEAL), gold (GOLD), XP " \
    "(XP), the item as a CombatLogNames index (PURCHASE: value_name names it), the player id " \
    "(BUYBACK), the kills (MULTIKILL), the streak (KILLSTREAK), the game state (GAME_STATE: 6 " \
    "the game ended); an unsigned 32-bit number as the replay carries it, so a gold loss such " \
    "as a death reads 4294967054 for -242 (the combat_log view and gold_reasons sign it)") \
  Y(X, health, INT, COLUMN, "the target health after it (for DAMAGE, after the hit)") \
  Y(X, timestamp, REAL, COLUMN, \
    "the server clock when the entry was made, seconds; not game_time: it does not read 0 at " \
    "the horn") \
  Y(X, stun_duration, REAL, COLUMN, "seconds of stun it applied") \
  Y(X, slow_duration, REAL, COLUMN, "seconds of slow it applied") \
  Y(X, is_ability_toggle_on, BOOL, EXTRA, "1 when the cast (ABILITY) turned a toggled ability on") \
  Y(X, is_ability_toggle_off, BOOL, EXTRA, \
    "1 when the cast (ABILITY) turned a toggled ability off") \
  Y(X, ability_level, INT, COLUMN, "the level of the ability (ABILITY: of the ability cast)") \
  Y(X, location_x, REAL, COLUMN, "where it happened, world x in game units") \
  Y(X, location_y, REAL, COLUMN, "where it happened, world y in game units") \
  Y(X, gold_reason, INT, COLUMN, \
    "why the gold changed (GOLD), by EDOTA_ModifyGold_Reason: gold_reason_names names it") \
  Y(X, timestamp_raw, REAL, COLUMN, \
    "a second server time stamp, seconds, the entry carries beside timestamp (how the two " \
    "differ is not established: equal in the replays looked at)") \
  Y(X, modifier_duration, REAL, COLUMN, \
    "the duration of the modifier, seconds (MODIFIER_ADD, MODIFIER_REMOVE)") \
  Y(X, xp_reason, INT, COLUMN, \
    "why the XP was given (XP), by EDOTA_ModifyXP_Reason: xp_reason_names names it") \
  Y(X, last_hits, INT, COLUMN, \
    "a last-hit count the server attaches to some entries (what it counts is not established; " \
    "the timeline has the last hits of each hero)") \
  Y(X, attacker_team, INT, COLUMN, \
    "the attacker team (DOTATeam_t): 2 Radiant, 3 Dire, 4 neutrals") \
  Y(X, target_team, INT, COLUMN, "the target team (DOTATeam_t): 2 Radiant, 3 Dire, 4 neutrals") \
  Y(X, obs_wards_placed, INT, EXTRA, \
    "an observer-ward count the server attaches to some entries (what it counts is not " \
    "established)") \
  Y(X, assist_player0, INT, EXTRA, \
    "the first assisting player, by player id (players.slot), as older builds carried it " \
    "before assist_players") \
  Y(X, assist_player1, INT, EXTRA, \
    "the second assisting player, by player id (players.slot), as older builds carried it " \
    "before assist_players") \
  Y(X, assist_player2, INT, EXTRA, \
    "the third assisting player, by player id (players.slot), as older builds carried it " \
    "before assist_players") \
  Y(X, assist_player3, INT, EXTRA, \
    "the fourth assisting player, by player id (players.slot), as older builds carried it " \
    "before assist_players") \
  Y(X, stack_count, INT, COLUMN, "the stack count of the modifier (MODIFIER entries)") \
  Y(X, hidden_modifier, BOOL, COLUMN, \
    "1 when the modifier is a hidden one (not shown on the unit)") \
  Y(X, is_target_building, BOOL, COLUMN, "1 when the target is a building") \
  Y(X, neutral_camp_type, INT, EXTRA, \
    "the type of the neutral camp (NEUTRAL_CAMP_STACK), by the server numbering, not named by " \
    "gem") \
  Y(X, rune_type, INT, EXTRA, "the rune (PICKUP_RUNE), by the server numbering, not named by gem") \
  Y(X, is_heal_save, BOOL, EXTRA, "1 when the server counts the heal as saving a hero") \
  Y(X, is_ultimate_ability, BOOL, EXTRA, "1 when the ability is an ultimate") \
  Y(X, attacker_hero_level, INT, COLUMN, "the level of the attacking hero then") \
  Y(X, target_hero_level, INT, COLUMN, "the level of the target hero then") \
  Y(X, xpm, INT, EXTRA, \
    "an XP-per-minute figure the server attaches to some entries (which, and when, is not " \
    "established)") \
  Y(X, gpm, INT, EXTRA, \
    "a gold-per-minute figure the server attaches to some entries (which, and when, is not " \
    "established)") \
  Y(X, event_location, INT, COLUMN, \
    "an event-location code the server attaches to some entries (its encoding is not " \
    "established; not coordinates: see location_x, location_y)") \
  Y(X, target_is_self, BOOL, COLUMN, "1 when the target is the attacker itself") \
  Y(X, damage_type, INT, COLUMN, \
    "the damage type (DAMAGE), by DAMAGE_TYPES bits: 1 physical, 2 magical, 4 pure") \
  Y(X, invisibility_modifier, BOOL, EXTRA, "1 when the modifier makes its unit invisible") \
  Y(X, damage_category, INT, COLUMN, \
    "the damage category (DAMAGE): 0 spell, 1 attack (DamageCategory_t)") \
  Y(X, networth, INT, EXTRA, \
    "a net worth the server attaches to some entries (whose, and when, is not established)") \
  Y(X, building_type, INT, EXTRA, \
    "the type of the building, by the server numbering, not named by gem") \
  Y(X, modifier_elapsed_duration, REAL, EXTRA, \
    "how long the modifier had lasted, seconds (MODIFIER_REMOVE)") \
  Y(X, silence_modifier, BOOL, EXTRA, "1 when the modifier silences") \
  Y(X, heal_from_lifesteal, BOOL, EXTRA, "1 when the heal came from lifesteal") \
  Y(X, modifier_purged, BOOL, EXTRA, "1 when the modifier was purged (dispelled)") \
  Y(X, spell_evaded, BOOL, EXTRA, "1 when the spell was evaded") \
  Y(X, motion_controller_modifier, BOOL, EXTRA, \
    "1 when the modifier moves its unit (a motion controller: knockbacks, leaps)") \
  Y(X, long_range_kill, BOOL, EXTRA, "1 when the server counts the kill as one from long range") \
  Y(X, modifier_purge_ability, INT, EXTRA, \
    "the ability that purged the modifier, as the server numbers it (not resolved through " \
    "combat_log_names)") \
  Y(X, modifier_purge_npc, INT, EXTRA, \
    "the unit that purged the modifier, as the server numbers it (not resolved through " \
    "combat_log_names)") \
  Y(X, root_modifier, BOOL, EXTRA, "1 when the modifier roots") \
  Y(X, total_unit_death_count, INT, EXTRA, \
    "a count of unit deaths the server attaches to some entries (what it counts is not " \
    "established)") \
  Y(X, aura_modifier, BOOL, EXTRA, "1 when the modifier comes from an aura") \
  Y(X, armor_debuff_modifier, BOOL, EXTRA, "1 when the modifier lowers armor") \
  Y(X, no_physical_damage_modifier, BOOL, EXTRA, "1 when the modifier blocks physical damage") \
  Y(X, modifier_ability, INT, COLUMN, \
    "the ability that gave the modifier, as the server numbers it (not resolved through " \
    "combat_log_names)") \
  Y(X, modifier_hidden, BOOL, COLUMN, \
    "1 when the modifier is hidden (a flag the server sends beside hidden_modifier)") \
  Y(X, inflictor_is_stolen_ability, BOOL, EXTRA, "1 when the inflictor is a stolen ability") \
  Y(X, kill_eater_event, INT, EXTRA, \
    "a kill-eater (item stat tracker) event number (KILL_EATER_EVENT), not named by gem") \
  Y(X, unit_status_label, INT, EXTRA, \
    "a unit status label number the server attaches to some entries, not named by gem") \
  Y(X, spell_generated_attack, BOOL, EXTRA, "1 when a spell made the attack") \
  Y(X, at_night_time, BOOL, EXTRA, "1 when it happened at night") \
  Y(X, attacker_has_scepter, BOOL, EXTRA, "1 when the attacker had the scepter upgrade") \
  Y(X, neutral_camp_team, INT, EXTRA, \
    "a team the server attaches to neutral-camp entries (DOTATeam_t numbering)") \
  Y(X, regenerated_health, REAL, EXTRA, \
    "health regenerated, as the server attaches it to some heal entries") \
  Y(X, will_reincarnate, BOOL, EXTRA, \
    "1 when the dying hero will come back (the aegis, Wraith King): the kills table and " \
    "credited_deaths leave such deaths out") \
  Y(X, uses_charges, BOOL, EXTRA, "1 when the ability or item used works by charges") \
  Y(X, tracked_stat_id, INT, EXTRA, \
    "a tracked-statistic id the server attaches to some entries, not named by gem") \
  Y(X, modifier_purged_duration, REAL, EXTRA, \
    "a duration in seconds the server attaches to a purged modifier (what it measures is not " \
    "established)") \
  Y(X, heal_from_regen, BOOL, EXTRA, "1 when the heal came from regeneration")

#define GEM_COMBAT_LOG_WITHOUT_DOC_(X, field, kind, place, doc) X(field, kind, place)
#define GEM_COMBAT_LOG_WITH_DOC_(X, field, kind, place, doc) X(field, kind, place, doc)
#define GEM_COMBAT_LOG_PLAIN_COLUMNS(X) GEM_COMBAT_LOG_COLUMN_LIST_(X, GEM_COMBAT_LOG_WITHOUT_DOC_)
#define GEM_COMBAT_LOG_DOCUMENTED_COLUMNS(X) \
  GEM_COMBAT_LOG_COLUMN_LIST_(X, GEM_COMBAT_LOG_WITH_DOC_)

#endif  // GEM_CORE_DOTA_COMBAT_LOG_COLUMNS_H_
