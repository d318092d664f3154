// The extension fuzz target (targets.h): an index in memory made from the
// input, and the extension's functions asked about it.
#include <sqlite3.h>

#include <string>
#include <string_view>

#include "core/codec/index_format.h"
#include "core/codec/keyframe_block.h"
#include "indexer/index_schema.h"
#include "tests/fuzz/input_reader.h"
#include "tests/fuzz/targets.h"

extern "C" int sqlite3_gem_init(sqlite3* db, char** err, const sqlite3_api_routines* api);

namespace gem::fuzz {
namespace {

void Exec(sqlite3* db, const std::string& sql) { sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr); }

// Runs a query to its end, ignoring what it returns (errors included).
void Drain(sqlite3* db, const std::string& sql, int64_t a, int64_t b) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) return;
  sqlite3_bind_int64(st, 1, a);
  sqlite3_bind_int64(st, 2, b);
  for (int rows = 0; rows < 100000 && sqlite3_step(st) == SQLITE_ROW; ++rows) {
  }
  sqlite3_finalize(st);
}

// Binds `ints` then `blob`. Bit i of `odd_types` binds the i-th number as
// another type instead, as a damaged or hostile index may hold it: text
// (even numbers), a real (odd ones) or NULL (multiples of 16).
void Insert(sqlite3* db, const char* sql, std::initializer_list<int64_t> ints,
            std::string_view blob, bool with_blob, uint8_t odd_types = 0) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) return;
  int i = 1;
  for (int64_t v : ints) {
    if ((odd_types >> (i - 1) & 1) == 0) {
      sqlite3_bind_int64(st, i, v);
    } else if (v % 16 == 0) {
      sqlite3_bind_null(st, i);
    } else if (v % 2 == 0) {
      sqlite3_bind_text(st, i, std::to_string(v).c_str(), -1, SQLITE_TRANSIENT);
    } else {
      sqlite3_bind_double(st, i, static_cast<double>(v) + 0.5);
    }
    ++i;
  }
  if (with_blob) sqlite3_bind_blob(st, i, blob.data(), static_cast<int>(blob.size()), SQLITE_STATIC);
  sqlite3_step(st);
  sqlite3_finalize(st);
}

}  // namespace

// The input, in order (InputReader): the tick asked about, last_tick,
// keyframe_interval; a class id and its fields; then each entity: its
// entities row (numbers of other types now and then), its creation state
// and its base, its rows (each: its slot and keyframe tick, the row's
// bytes, made into a one-row block here unless the flag byte asks for the
// bytes as the block itself) and changes rows (each: its id and data).
int ExtensionQueries(const uint8_t* data, size_t size) {
  static const bool registered = [] {
    sqlite3_auto_extension(reinterpret_cast<void (*)()>(sqlite3_gem_init));
    return true;
  }();
  static_cast<void>(registered);
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    sqlite3_close(db);
    return 0;
  }
  Exec(db, index::kCreateSchemaSql);
  Exec(db, "PRAGMA application_id=" + std::to_string(kIndexApplicationId) +
               "; PRAGMA user_version=" + std::to_string(kIndexSchemaVersion));
  InputReader in(data, size);
  const int64_t tick = in.Int();
  Insert(db, "INSERT INTO meta(key, value) VALUES('last_tick', ?1)", {in.Int()}, {}, false);
  Insert(db, "INSERT INTO meta(key, value) VALUES('keyframe_interval', ?1)", {in.Int()}, {},
         false);
  Insert(db, "INSERT INTO classes(class_id, name) VALUES(?1, 'CFuzz')", {in.Byte() % 4}, {}, false);
  const int fields = 1 + in.Byte() % 6;
  Insert(db,
         "INSERT INTO field_defs(def_id, name, path, type, model, decoder) "
         "VALUES(1, 'm_x', '0', 'int32', 'simple', 'varint')",
         {}, {}, false);
  for (int f = 0; f < fields; ++f) {
    // Field ids are dense in a class; now and then one is not.
    const int64_t class_id = in.Byte() % 4;
    const uint8_t id = in.Byte();
    Insert(db, "INSERT INTO class_fields(class_id, field_id, def_id) VALUES(?1, ?2, 1)",
           {class_id, id < 224 ? f : id % 8}, {}, false);
  }
  static KeyframeCompressor compressor;
  const int entities = 1 + in.Byte() % 3;
  for (int e = 0; e < entities; ++e) {
    const int64_t entity = 1 + in.Byte() % 4;
    // Read in order into the list (its elements are evaluated left to
    // right), then the types byte.
    const std::initializer_list<int64_t> row = {entity,        in.Byte(), in.Byte(),
                                                in.Byte() % 4, in.Int(),  in.Int()};
    const uint16_t odd_pair = in.U16();  // both bytes set a bit: rarer
    const uint8_t odd_types = static_cast<uint8_t>(odd_pair & (odd_pair >> 8));
    Insert(db,
           "INSERT INTO entities(entity, ent_index, serial, handle, class_id, created_tick, "
           "deleted_tick) VALUES(?1, ?2, ?3, 0, ?4, ?5, ?6)",
           row, {}, false, odd_types);
    const std::string_view state = in.Blob();
    // A whole state mostly; now and then a difference from another's.
    const int64_t state_tick = in.Int();
    const uint8_t base = in.Byte();
    Insert(db, "INSERT INTO entity_states(entity, tick, base, data) VALUES(?1, ?2, ?3, ?4)",
           {entity, state_tick, base < 192 ? 0 : 1 + base % 4}, state, true, base < 192 ? 4 : 0);
    const int rows = in.Byte() % 4;
    for (int r = 0; r < rows; ++r) {
      const int64_t slot = in.Byte() % 8;
      const int64_t k = in.Int();
      const std::string_view bytes = in.Blob();
      const uint8_t raw = in.Byte();
      std::string block(bytes);
      KeyframeBlockWriter w;
      if (raw < 224 && w.Add(entity, bytes)) w.Finish(&compressor, &block);
      int64_t key = 0;
      if (!KeyframeBlockKey(slot, entity, &key)) continue;
      Insert(db,
             "INSERT OR REPLACE INTO keyframes(key, tick, first_entity, last_entity, data) "
             "VALUES(?1, ?2, ?3, ?4, ?5)",
             {key, k, entity, raw < 240 ? entity : entity + raw % 3}, block, true);
    }
    const int pages = in.Byte() % 4;
    for (int p = 0; p < pages; ++p) {
      const int64_t id = in.Byte();
      Insert(db, "INSERT OR REPLACE INTO changes(id, data) VALUES(?1, ?2)", {id}, in.Blob(), true);
    }
  }
  Drain(db, "SELECT * FROM gem_state(?1)", tick, 0);
  Drain(db, "SELECT * FROM gem_state(?1, ?2)", tick, 1);
  Drain(db, "SELECT * FROM gem_changes WHERE entity = ?2 AND tick <= ?1", tick, 1);
  Drain(db, "SELECT gem_value(?2, 'm_x', ?1), gem_position(?2, ?1)", tick, 2);
  Drain(db, "SELECT * FROM gem_sample(?1, ?1 + 600, 60, ?2)", tick, 1);
  sqlite3_close(db);
  return 0;
}

}  // namespace gem::fuzz
