#include "indexer/index_schema.h"

#include <string>

#include "indexer/combat_log_columns.h"

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
-- A field's description, shared by every class that has it (a view,
-- fields, gives one row per class and field id).
CREATE TABLE field_defs(
  def_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,     -- dotted, array indexes as four digits
  path TEXT NOT NULL,     -- '/'-separated indexes
  type TEXT NOT NULL,     -- declared type, e.g. 'CHandle<CBaseEntity>'
  encoder TEXT,           -- the serializer's encoder name, if any
  model TEXT NOT NULL,    -- simple, fixed-array, variable-array, fixed-table, variable-table
  bits INTEGER,
  low REAL,
  high REAL,
  flags INTEGER,
  decoder TEXT NOT NULL   -- the decoding rule applied
);

CREATE TABLE class_fields(
  class_id INTEGER NOT NULL,
  field_id INTEGER NOT NULL,
  def_id INTEGER NOT NULL,
  PRIMARY KEY(class_id, field_id)
) WITHOUT ROWID;

CREATE VIEW fields AS
  SELECT c.class_id, c.field_id, d.name, d.path, d.type, d.encoder, d.model, d.bits, d.low,
         d.high, d.flags, d.decoder
  FROM class_fields c JOIN field_defs d USING (def_id);

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
-- An entity's field values at creation. When `base` is NULL, `data` holds
-- them all; else `data` holds only the fields whose values differ from
-- the state of entity `base` (an earlier entity of the class, whose own
-- row is a whole state) and the state is base's, overlaid with data's.
CREATE TABLE entity_states(
  entity INTEGER PRIMARY KEY,
  tick INTEGER NOT NULL,
  data BLOB NOT NULL,
  base INTEGER
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

-- The players the replay's file info lists (complete replays only; the
-- match layer's players table reads the entities).
CREATE TABLE file_info_players(
  slot INTEGER PRIMARY KEY,
  hero_name TEXT,
  player_name TEXT,
  steam_id INTEGER,
  game_team INTEGER,
  is_fake_client INTEGER
);
)sql";

const char kCreateRowIndexesSql[] = R"sql(
CREATE INDEX string_table_entries_by_entry ON string_table_entries(table_id, idx, tick, seq);
CREATE INDEX combat_log_by_tick ON combat_log_entries(tick);
CREATE INDEX game_events_by_name ON game_events(name, tick);
)sql";

const char kCreateIndexesSql[] = R"sql(
CREATE INDEX entities_by_class ON entities(class_id);
)sql";

namespace {

constexpr const char* kNameFields[] = {"target_name", "target_source_name", "attacker_name",
                                       "damage_source_name", "inflictor_name"};

}  // namespace

std::string CombatLogSchemaSql() {
  std::string sql =
      "CREATE TABLE combat_log_names(idx INTEGER PRIMARY KEY, name TEXT NOT NULL);\n"
      "CREATE TABLE combat_log_types(type INTEGER PRIMARY KEY, name TEXT NOT NULL);\n"
      "CREATE TABLE combat_log_entries(\n"
      "  id INTEGER PRIMARY KEY,\n"
      "  tick INTEGER NOT NULL,\n"
      "  source INTEGER NOT NULL,  -- 0 hltv, 1 bulk, 2 legacy_game_event\n"
      "  type INTEGER NOT NULL";
  for (const char* name : kNameFields) sql += std::string(",\n  ") + name + "_idx INTEGER";
  sql += ",\n  value_name TEXT,\n  assist_players TEXT";
#define GEM_COLUMN(field, kind, place) \
  if (#place[0] == 'C') sql += std::string(",\n  " #field) + (#kind[0] == 'R' ? " REAL" : " INTEGER");
  GEM_COMBAT_LOG_PLAIN_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  sql += ",\n  extra TEXT  -- JSON object: the EXTRA fields that are set\n);\n";

  sql +=
      "CREATE VIEW combat_log AS SELECT\n"
      "  c.id, c.tick,\n"
      "  CASE c.source WHEN 0 THEN 'hltv' WHEN 1 THEN 'bulk' ELSE 'legacy_game_event' END\n"
      "    AS source,\n"
      "  c.type, t.name AS type_name";
  for (int i = 0; i < 5; ++i) {
    const std::string f = kNameFields[i];
    sql += ",\n  n" + std::to_string(i) + ".name AS " + f + ", c." + f + "_idx";
  }
  sql += ",\n  c.value_name, c.assist_players";
#define GEM_COLUMN(field, kind, place)                                        \
  sql += #place[0] == 'C' ? std::string(",\n  c." #field)                   \
                          : std::string(",\n  json_extract(c.extra, '$." #field "') AS " #field);
  GEM_COMBAT_LOG_PLAIN_COLUMNS(GEM_COLUMN)
#undef GEM_COLUMN
  sql += "\nFROM combat_log_entries c\n  LEFT JOIN combat_log_types t ON t.type = c.type";
  for (int i = 0; i < 5; ++i) {
    const std::string n = "n" + std::to_string(i);
    sql += "\n  LEFT JOIN combat_log_names " + n + " ON " + n + ".idx = c." + kNameFields[i] + "_idx";
  }
  return sql + ";\n";
}

}  // namespace gem::index
