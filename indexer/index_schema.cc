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
-- A field's description, shared by every class that has it (a view,
-- fields, gives one row per class and field id).
CREATE TABLE field_defs(
  def_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,     -- dotted, array indexes as four digits; unique in a class
  short_name TEXT NOT NULL,  -- the var_names alone; fields of a class can share it
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
         d.high, d.flags, d.decoder, d.short_name
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

-- An entity's state at every keyframe tick K (a multiple of meta's
-- keyframe_interval E) and every change of its fields up to the next,
-- packed by core/codec/keyframe_codec.h: one row per entity and interval
-- (K, K + E] in which it lives or changes, so that the state at any tick
-- reads one row, not the entity's whole history. A field that changes at
-- most meta's keyframe_max_logged times in the interval has its changes
-- in the row itself; for one that changes more, the row says where its
-- runs are in the changes table. Rows are stored in blocks
-- (keyframe_block.h): the rows of one interval for entities first_entity
-- to last_entity, compressed together. key = (K / E + 1) * 2^32 +
-- first_entity (the first interval starts at -E, before the signon's
-- tick -1): a reader seeks the largest key at or below its entity's.
CREATE TABLE keyframes(
  key INTEGER PRIMARY KEY,
  tick INTEGER NOT NULL,
  first_entity INTEGER NOT NULL,
  last_entity INTEGER NOT NULL,
  data BLOB NOT NULL
);

-- The runs of the fields that change often: each a run of consecutive
-- changes of one field of one entity, packed by core/codec/chunk_codec.h,
-- several to a row of at most about a page, in the order they filled. A
-- keyframes row names each of its runs by (id, offset, length).
CREATE TABLE changes(
  id INTEGER PRIMARY KEY,
  data BLOB NOT NULL
);

-- A live index's open interval (gem-index --follow, a broadcast): under
-- seq 0 each entity's state at the interval's keyframe tick `tick` (meta's
-- keyframe_open_tick) unless it was created after it, then under each
-- commit's seq (1, 2, ...) the changes since the one before of each entity
-- that changed (part orders an entity's rows within one seq); all packed
-- as keyframes rows are. Keyed by commit, so that a commit appends its
-- rows. Empty in a finished index.
CREATE TABLE tail(
  seq INTEGER NOT NULL,
  entity INTEGER NOT NULL,
  part INTEGER NOT NULL,
  tick INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY(seq, entity, part)
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
  kind TEXT NOT NULL,     -- chat (a game's own chat message) or saytext2
  sender INTEGER,         -- the game's player id, or an entity index (saytext2)
  channel INTEGER,
  text TEXT,
  message_name TEXT,
  params TEXT             -- JSON array (SayText2)
);
)sql";

const char kCreateRowIndexesSql[] = R"sql(
CREATE INDEX string_table_entries_by_entry ON string_table_entries(table_id, idx, tick, seq);
CREATE INDEX game_events_by_name ON game_events(name, tick);
)sql";

const char kCreateIndexesSql[] = R"sql(
CREATE INDEX entities_by_class ON entities(class_id);
)sql";

}  // namespace gem::index
