#include "indexer/index_schema.h"

namespace gem::index {

// The contract of the index. Names and columns are relied on by libgem,
// the README and users; add columns freely, never change these meanings.
const char kCreateSchemaSql[] = R"sql(
CREATE TABLE meta(
  key TEXT PRIMARY KEY,
  value
) WITHOUT ROWID;

CREATE TABLE classes(
  class_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL
);

-- Every field path seen on a class: field_id is dense per class.
CREATE TABLE fields(
  class_id INTEGER NOT NULL,
  field_id INTEGER NOT NULL,
  name TEXT NOT NULL,     -- dotted, array indexes as four digits
  path TEXT NOT NULL,     -- '/'-separated indexes
  type TEXT NOT NULL,     -- declared type, e.g. 'CHandle<CBaseEntity>'
  encoder TEXT,           -- the serializer's encoder name, if any
  model TEXT NOT NULL,    -- simple, fixed-array, variable-array, fixed-table, variable-table
  bits INTEGER,
  low REAL,
  high REAL,
  flags INTEGER,
  decoder TEXT NOT NULL,  -- the decoding rule applied
  PRIMARY KEY(class_id, field_id)
) WITHOUT ROWID;

-- One row per entity lifetime. Alive at tick T: created_tick <= T and
-- (deleted_tick IS NULL or deleted_tick > T).
CREATE TABLE entities(
  entity INTEGER PRIMARY KEY,  -- lifetime id, 1, 2, 3, ...
  ent_index INTEGER NOT NULL,
  serial INTEGER NOT NULL,
  handle INTEGER NOT NULL,     -- (serial << 14) | ent_index, as fields hold it
  class_id INTEGER NOT NULL,
  created_tick INTEGER NOT NULL,
  deleted_tick INTEGER
);

-- Each entity's complete state at its creation (core/codec/state_codec.h).
CREATE TABLE entity_states(
  entity INTEGER PRIMARY KEY,
  tick INTEGER NOT NULL,
  data BLOB NOT NULL
);

-- Field changes after creation, clustered by (entity, field_id, tick): one
-- row per run of up to 256 changes of one field of one entity, packed by
-- core/codec/chunk_codec.h. seq orders chunks that start at the same tick.
CREATE TABLE changes(
  entity INTEGER NOT NULL,
  field_id INTEGER NOT NULL,
  start_tick INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  end_tick INTEGER NOT NULL,
  count INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY(entity, field_id, start_tick, seq)
) WITHOUT ROWID;

CREATE TABLE string_tables(
  table_id INTEGER PRIMARY KEY,  -- creation order in the replay
  name TEXT NOT NULL,
  created_tick INTEGER NOT NULL,
  user_data_fixed_size INTEGER,
  user_data_size INTEGER,
  user_data_size_bits INTEGER,
  flags INTEGER,
  varint_bit_counts INTEGER
);

-- One row per change of an entry; seq orders changes at the same tick.
CREATE TABLE string_table_entries(
  table_id INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  tick INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  key TEXT NOT NULL,
  value BLOB NOT NULL
);

CREATE TABLE combat_log(
  id INTEGER PRIMARY KEY,
  tick INTEGER NOT NULL,
  source TEXT NOT NULL,   -- hltv, bulk or legacy_game_event
  type INTEGER NOT NULL,
  type_name TEXT,         -- DOTA_COMBATLOG_...
  target_name TEXT,       -- names resolved through CombatLogNames ...
  target_name_idx INTEGER,  -- ... beside their raw indexes
  target_source_name TEXT,
  target_source_name_idx INTEGER,
  attacker_name TEXT,
  attacker_name_idx INTEGER,
  damage_source_name TEXT,
  damage_source_name_idx INTEGER,
  inflictor_name TEXT,
  inflictor_name_idx INTEGER,
  value_name TEXT,        -- purchases: the item bought
  assist_players TEXT,    -- JSON array
  is_attacker_illusion INTEGER,
  is_attacker_hero INTEGER,
  is_target_illusion INTEGER,
  is_target_hero INTEGER,
  is_visible_radiant INTEGER,
  is_visible_dire INTEGER,
  value INTEGER,
  health INTEGER,
  timestamp REAL,
  stun_duration REAL,
  slow_duration REAL,
  is_ability_toggle_on INTEGER,
  is_ability_toggle_off INTEGER,
  ability_level INTEGER,
  location_x REAL,
  location_y REAL,
  gold_reason INTEGER,
  timestamp_raw REAL,
  modifier_duration REAL,
  xp_reason INTEGER,
  last_hits INTEGER,
  attacker_team INTEGER,
  target_team INTEGER,
  obs_wards_placed INTEGER,
  assist_player0 INTEGER,
  assist_player1 INTEGER,
  assist_player2 INTEGER,
  assist_player3 INTEGER,
  stack_count INTEGER,
  hidden_modifier INTEGER,
  is_target_building INTEGER,
  neutral_camp_type INTEGER,
  rune_type INTEGER,
  is_heal_save INTEGER,
  is_ultimate_ability INTEGER,
  attacker_hero_level INTEGER,
  target_hero_level INTEGER,
  xpm INTEGER,
  gpm INTEGER,
  event_location INTEGER,
  target_is_self INTEGER,
  damage_type INTEGER,
  invisibility_modifier INTEGER,
  damage_category INTEGER,
  networth INTEGER,
  building_type INTEGER,
  modifier_elapsed_duration REAL,
  silence_modifier INTEGER,
  heal_from_lifesteal INTEGER,
  modifier_purged INTEGER,
  spell_evaded INTEGER,
  motion_controller_modifier INTEGER,
  long_range_kill INTEGER,
  modifier_purge_ability INTEGER,
  modifier_purge_npc INTEGER,
  root_modifier INTEGER,
  total_unit_death_count INTEGER,
  aura_modifier INTEGER,
  armor_debuff_modifier INTEGER,
  no_physical_damage_modifier INTEGER,
  modifier_ability INTEGER,
  modifier_hidden INTEGER,
  inflictor_is_stolen_ability INTEGER,
  kill_eater_event INTEGER,
  unit_status_label INTEGER,
  spell_generated_attack INTEGER,
  at_night_time INTEGER,
  attacker_has_scepter INTEGER,
  neutral_camp_team INTEGER,
  regenerated_health REAL,
  will_reincarnate INTEGER,
  uses_charges INTEGER,
  tracked_stat_id INTEGER,
  modifier_purged_duration REAL,
  heal_from_regen INTEGER
);

CREATE TABLE game_events(
  id INTEGER PRIMARY KEY,
  tick INTEGER NOT NULL,
  event_id INTEGER,
  name TEXT NOT NULL,
  keys TEXT NOT NULL      -- JSON object
);

CREATE TABLE chat(
  id INTEGER PRIMARY KEY,
  tick INTEGER NOT NULL,
  kind TEXT NOT NULL,     -- chat (Dota) or saytext2
  sender INTEGER,         -- player id (Dota) or entity index
  channel INTEGER,
  text TEXT,
  message_name TEXT,
  params TEXT             -- JSON array (SayText2)
);

CREATE TABLE chat_events(
  id INTEGER PRIMARY KEY,
  tick INTEGER NOT NULL,
  type INTEGER NOT NULL,
  type_name TEXT,
  value INTEGER,
  value2 INTEGER,
  value3 INTEGER,
  player_ids TEXT         -- JSON array
);

CREATE TABLE players(
  slot INTEGER PRIMARY KEY,
  hero_name TEXT,
  player_name TEXT,
  steam_id INTEGER,
  game_team INTEGER,
  is_fake_client INTEGER
);
)sql";

const char kCreateIndexesSql[] = R"sql(
CREATE INDEX entities_by_class ON entities(class_id);
CREATE INDEX string_table_entries_by_entry ON string_table_entries(table_id, idx, tick, seq);
CREATE INDEX combat_log_by_tick ON combat_log(tick);
CREATE INDEX game_events_by_name ON game_events(name, tick);
)sql";

}  // namespace gem::index
