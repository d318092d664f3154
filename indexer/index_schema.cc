#include "indexer/index_schema.h"

namespace gem::index {

// The contract of the index. Names and columns are relied on by libgem,
// the docs and users; add columns freely, never change these meanings.
// The comment after a CREATE's '(' says what a row is, the one on each
// column's line what it holds (continued by lines holding only a comment):
// SQLite keeps them, and tools/docs/make_tables_page.py writes the docs'
// table pages from them.
const char kCreateSchemaSql[] = R"sql(
CREATE TABLE meta(  -- what the index is and how it was made, one row a key (docs/index-format.md lists the keys)
  key TEXT PRIMARY KEY,  -- the key's name, e.g. game, game_build, format_version, truncated
  value  -- its value: integer, real or text as the key has it
) WITHOUT ROWID;

CREATE TABLE parts(  -- a file the index was read from: one for a replay, one per file of a
  -- recording split over several (gem-index PART1 PART2 ... OUT; docs/recordings.md)
  part INTEGER PRIMARY KEY,  -- 0, 1, 2, ... in recording order
  name TEXT NOT NULL,  -- the file's name as given
  sha256 TEXT,  -- of the file as given, hex
  bytes INTEGER,  -- of the file as given
  first_tick INTEGER,  -- its first packet's tick, in the index's ticks
  last_tick INTEGER,  -- its last frame's tick, in the index's ticks
  tick_offset INTEGER NOT NULL,  -- the index's tick minus the file's own frame tick
  first_server_tick INTEGER,  -- the server's tick (net_Tick) at its first packet
  last_server_tick INTEGER,  -- the server's tick at its end
  joins TEXT NOT NULL,  -- first; continues: the server's ticks go on from the part before
  gap_ticks INTEGER NOT NULL,  -- server ticks from the part before's end to its first packet
  -- (0 for the first): what happened then is in no file
  kept_entities INTEGER NOT NULL,  -- at its join: entities going on (same index, serial, class)
  created_entities INTEGER NOT NULL,  -- at its join: entities its first state creates
  deleted_entities INTEGER NOT NULL,  -- at its join: entities it no longer holds
  changed_values INTEGER NOT NULL,  -- at its join: values of kept entities that differ
  changed_entries INTEGER NOT NULL,  -- at its join: string table entries that differ
  truncated INTEGER NOT NULL,  -- 1 when the file ends before DEM_Stop (read up to the cut)
  playback_ticks INTEGER  -- its file info's playback_ticks, when it has one
);

CREATE TABLE decode_faults(  -- an entity packet that did not decode to its end: what it held
  -- before the fault is kept, the entities it may have changed after it are stale until a full
  -- packet refreshes them (docs/recordings.md, The next patch)
  fault INTEGER PRIMARY KEY,  -- 0, 1, 2, ... in replay order
  tick INTEGER NOT NULL,  -- the packet's tick
  server_tick INTEGER,  -- the server's tick the packet brought the state to
  full_packet INTEGER NOT NULL,  -- 1: a full packet (the first, which builds the state,
  -- or a later one that was to refresh stale entities); 0: a delta packet
  entity INTEGER,  -- the index of the entity being read when the fault showed; NULL when it
  -- showed at the packet's end (bits left after its last entity) or before its first
  class TEXT,  -- that entity's class
  field TEXT,  -- the field read last before the fault showed, or the field path that names
  -- no field of the class (the misread may lie earlier)
  bit INTEGER NOT NULL,  -- where in the packet's entity data it showed
  reason TEXT NOT NULL,  -- what showed it, e.g. "field values run past the end of the data"
  stale_entities INTEGER NOT NULL,  -- how many entities it made stale
  stale TEXT NOT NULL,  -- their entity indexes, a JSON array (json_each reads it)
  refreshed_tick INTEGER  -- the tick of the full packet that refreshed them: their values
  -- from tick to refreshed_tick may be old or wrong; NULL: none did before the end
);

CREATE TABLE classes(  -- a server class the replay declares (class info)
  class_id INTEGER PRIMARY KEY,  -- the class id the replay's entities use
  name TEXT NOT NULL  -- the class's network name, e.g. CDOTA_Unit_Hero_Axe, CCSPlayerPawn
);

CREATE TABLE field_defs(  -- a field's description, shared by every class that has it
  -- (the view fields gives one row per class and field id)
  def_id INTEGER PRIMARY KEY,  -- the description's number
  name TEXT NOT NULL,     -- dotted, array indexes as four digits; unique in a class
  short_name TEXT NOT NULL,  -- the var_names alone; fields of a class can share it
  path TEXT NOT NULL,     -- the field path: '/'-separated indexes
  type TEXT NOT NULL,     -- declared type, e.g. 'CHandle<CBaseEntity>'
  encoder TEXT,           -- the serializer's encoder name, if any
  model TEXT NOT NULL,    -- simple, fixed-array, variable-array, fixed-table, variable-table
  bits INTEGER,           -- the serializer's bit count, if any
  low REAL,               -- the serializer's low value (quantized floats), if any
  high REAL,              -- the serializer's high value (quantized floats), if any
  flags INTEGER,          -- the serializer's encode flags, if any
  decoder TEXT NOT NULL   -- the decoding rule applied
);

CREATE TABLE class_fields(  -- every field path seen on a class; field_id is dense per class
  class_id INTEGER NOT NULL,  -- classes.class_id
  field_id INTEGER NOT NULL,  -- the field's number in its class, as the extension's functions take it
  def_id INTEGER NOT NULL,  -- its description, field_defs.def_id
  PRIMARY KEY(class_id, field_id)
) WITHOUT ROWID;

CREATE VIEW fields(  -- a field of a class with its description: class_fields joined to field_defs
  class_id,  -- classes.class_id
  field_id,  -- the field's number in its class
  name,  -- dotted, array indexes as four digits; unique in a class
  path,  -- the field path: '/'-separated indexes
  type,  -- declared type
  encoder,  -- the serializer's encoder name, if any
  model,  -- simple, fixed-array, variable-array, fixed-table, variable-table
  bits,  -- the serializer's bit count, if any
  low,  -- the serializer's low value, if any
  high,  -- the serializer's high value, if any
  flags,  -- the serializer's encode flags, if any
  decoder,  -- the decoding rule applied
  short_name  -- the var_names alone
) AS
  SELECT c.class_id, c.field_id, d.name, d.path, d.type, d.encoder, d.model, d.bits, d.low,
         d.high, d.flags, d.decoder, d.short_name
  FROM class_fields c JOIN field_defs d USING (def_id);

CREATE TABLE entities(  -- an entity lifetime: alive at tick T when created_tick <= T
  -- and (deleted_tick IS NULL or deleted_tick > T)
  entity INTEGER PRIMARY KEY,  -- lifetime id, 1, 2, 3, ...: what every table and function calls an entity
  ent_index INTEGER NOT NULL,  -- the replay's entity index (reused by later lifetimes)
  serial INTEGER NOT NULL,  -- the replay's serial number of this lifetime
  handle INTEGER NOT NULL,     -- (serial << 14) | ent_index, as fields hold it
  class_id INTEGER NOT NULL,  -- classes.class_id
  created_tick INTEGER NOT NULL,  -- the tick it was created at
  deleted_tick INTEGER  -- the tick it was deleted at; NULL if it lives to the end
);

CREATE TABLE entity_states(  -- an entity's field values at its creation (core/codec/state_codec.h)
  entity INTEGER PRIMARY KEY,  -- entities.entity
  tick INTEGER NOT NULL,  -- its creation tick
  data BLOB NOT NULL,  -- the encoded state: all of it when base is NULL, else the fields that
  -- differ from base's state (the state is base's, overlaid with data's)
  base INTEGER  -- an earlier entity of the class whose own row is a whole state, or NULL
);

CREATE TABLE keyframes(  -- an entity's state at a keyframe tick K (a multiple of meta's
  -- keyframe_interval E) and every change of its fields up to the next, one row per entity and
  -- interval (K, K + E], packed by core/codec/keyframe_codec.h and stored in blocks
  -- (keyframe_block.h): the state at any tick reads one row, not the entity's whole history
  key INTEGER PRIMARY KEY,  -- (K / E + 1) * 2^32 + first_entity (the first interval starts at -E):
  -- a reader seeks the largest key at or below its entity's
  tick INTEGER NOT NULL,  -- K, the keyframe tick
  first_entity INTEGER NOT NULL,  -- the block's first entity
  last_entity INTEGER NOT NULL,  -- the block's last entity
  data BLOB NOT NULL  -- the block: its entities' rows, compressed together (docs/index-format.md)
);

CREATE TABLE changes(  -- runs of the fields that change often: each a run of consecutive changes
  -- of one field of one entity (core/codec/chunk_codec.h), several to a row of about a page, in
  -- the order they filled; a keyframes row names each of its runs by (id, offset, length)
  id INTEGER PRIMARY KEY,  -- the page's number, in the order written
  data BLOB NOT NULL  -- the runs, back to back (docs/index-format.md)
);

CREATE TABLE tail(  -- a live index's open interval (gem-index --follow, a broadcast); empty in a
  -- finished index. Under seq 0 each entity's state at the interval's keyframe tick (meta's
  -- keyframe_open_tick), then under each commit's seq the changes since the one before
  seq INTEGER NOT NULL,  -- 0, then the commit's number (1, 2, ...)
  entity INTEGER NOT NULL,  -- entities.entity
  part INTEGER NOT NULL,  -- orders an entity's rows within one seq
  tick INTEGER NOT NULL,  -- the commit's tick
  data BLOB NOT NULL,  -- packed as keyframes rows are
  PRIMARY KEY(seq, entity, part)
) WITHOUT ROWID;

CREATE TABLE string_tables(  -- a string table the replay creates
  table_id INTEGER PRIMARY KEY,  -- creation order in the replay
  name TEXT NOT NULL,  -- e.g. instancebaseline, userinfo, EntityNames, CombatLogNames
  created_tick INTEGER NOT NULL,  -- the tick it was created at
  user_data_fixed_size INTEGER,  -- 1 when its entries' data has a fixed size
  user_data_size INTEGER,  -- that size in bytes
  user_data_size_bits INTEGER,  -- that size in bits
  flags INTEGER,  -- the creation message's flags (1: data compressed)
  varint_bit_counts INTEGER  -- 1 when entries give their data's bit count as a varint
);

CREATE TABLE string_table_entries(  -- a change of a string table's entry
  table_id INTEGER NOT NULL,  -- string_tables.table_id
  idx INTEGER NOT NULL,  -- the entry's index in the table
  tick INTEGER NOT NULL,  -- the tick of the change
  seq INTEGER NOT NULL,  -- orders changes at the same tick
  key TEXT NOT NULL,  -- the entry's key (as it stands after the change)
  value BLOB NOT NULL  -- the entry's data after the change (empty when it has none)
);

CREATE TABLE game_events(  -- a game event (GE_Source1LegacyGameEvent), decoded by the replay's
  -- event list
  id INTEGER PRIMARY KEY,  -- the row's number, in the order the events came
  tick INTEGER NOT NULL,  -- the tick it came at
  event_id INTEGER,  -- the event's id in the replay's event list
  name TEXT NOT NULL,  -- its name, e.g. player_death, dota_combatlog
  keys TEXT NOT NULL      -- its keys and values, a JSON object (an unnamed key as key0, key1, ...)
);

CREATE TABLE chat(  -- a chat message: the game's own chat user message, or SayText2
  id INTEGER PRIMARY KEY,  -- the row's number, in the order the messages came
  tick INTEGER NOT NULL,  -- the tick it came at
  kind TEXT NOT NULL,     -- chat (a game's own chat message) or saytext2
  sender INTEGER,         -- the game's player id, or an entity index (saytext2)
  channel INTEGER,  -- Dota: the message's channel_type; Deadlock: 1 when sent to all chat
  -- (all_chat), else 0; SayText2: its chat flag (1 a player's chat line)
  text TEXT,  -- what was written
  message_name TEXT,  -- SayText2's localisation token
  params TEXT             -- JSON array (SayText2's parameters)
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
