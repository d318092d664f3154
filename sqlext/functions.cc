// Scalar functions: gem_value(entity, field, tick [, db]),
// gem_position(entity, tick [, db]), gem_version(), gem_debug(),
// gem_keyframe_cache([bytes]).
#include <algorithm>
#include <cstdint>
#include <string>

#include "core/codec/index_format.h"
#include "core/fields/world_coord.h"
#include "sqlext/common.h"
#include "sqlext/function_docs.h"
#include "sqlext/functions.h"

namespace gem::sqlext {
namespace {

void Fail(sqlite3_context* ctx, const std::string& message) {
  sqlite3_result_error(ctx, message.c_str(), static_cast<int>(message.size()));
}

// The entity named by argv[0] at tick argv[tick_arg] in the index named
// by argv[db_arg] (when given), with its class's fields loaded; null (and
// NULL set as the result, or an error) when there is none.
struct Target {
  IndexReader* reader = nullptr;
  const EntityInfo* entity = nullptr;
  ClassInfoRow* clazz = nullptr;
  int64_t tick = 0;
};
bool FindTarget(sqlite3_context* ctx, int argc, sqlite3_value** argv, int tick_arg,
                Target* out) {
  auto* ext = static_cast<Extension*>(sqlite3_user_data(ctx));
  for (int i : {0, tick_arg}) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
      sqlite3_result_null(ctx);  // a NULL argument has no value
      return false;
    }
  }
  std::string db = argc > tick_arg + 1 ? ArgText(argv[tick_arg + 1]) : "main";
  if (db.empty()) db = "main";
  std::string error;
  out->reader = ext->readers.Get(db, &error);
  if (out->reader == nullptr) {
    Fail(ctx, error);
    return false;
  }
  out->tick = sqlite3_value_int64(argv[tick_arg]);
  if (!out->reader->CheckTick(out->tick, &error)) {
    Fail(ctx, error);
    return false;
  }
  out->entity = out->reader->Entity(sqlite3_value_int64(argv[0]));
  if (out->entity == nullptr || !out->entity->AliveAt(out->tick)) {
    sqlite3_result_null(ctx);  // no such entity at that tick
    return false;
  }
  out->clazz = out->reader->Class(out->entity->class_id);
  if (out->clazz == nullptr) {
    sqlite3_result_null(ctx);
    return false;
  }
  if (!out->reader->LoadFields(out->clazz, &error)) {
    Fail(ctx, error);
    return false;
  }
  return true;
}

// The value of field `name` of the target; false on error (set on ctx).
bool ReadField(sqlite3_context* ctx, const Target& t, const std::string& name,
               FoundValue* found, std::string* storage) {
  *found = FoundValue();
  auto it = t.clazz->by_name.find(name);
  if (it == t.clazz->by_name.end()) {
    auto shared = t.clazz->ambiguous.find(name);
    if (shared == t.clazz->ambiguous.end()) return true;  // never sent: no value
    // Several fields had this name before send nodes were in names:
    // reading one of them would be a guess.
    std::string message = "gem_value: '" + name + "' is ambiguous in class " + t.clazz->name +
                          ": its fields of that short name are";
    const char* sep = " ";
    for (uint32_t id : shared->second) {
      message += sep + ("'" + t.clazz->fields[id].name + "'");
      sep = ", ";
    }
    Fail(ctx, message);
    return false;
  }
  std::string error;
  if (!t.reader->ValueAt(*t.entity, it->second, t.tick, found, storage, &error)) {
    Fail(ctx, error);
    return false;
  }
  return true;
}

void Value_(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  try {
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
      sqlite3_result_null(ctx);
      return;
    }
    Target t;
    if (!FindTarget(ctx, argc, argv, /*tick_arg=*/2, &t)) return;
    FoundValue found;
    std::string storage;
    if (!ReadField(ctx, t, ArgText(argv[1]), &found, &storage)) return;
    if (!found.found) {
      sqlite3_result_null(ctx);
      return;
    }
    ResultValue(ctx, found.value);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  } catch (...) {
    Fail(ctx, "gem_value: internal error");
  }
}

// gem_position(entity, tick [, db]): [x, y, z] world coordinates of an
// entity with a body component, by the game's cell width (meta).
void Position(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  try {
    Target t;
    if (!FindTarget(ctx, argc, argv, /*tick_arg=*/1, &t)) return;
    if (t.reader->cell_width() <= 0) {
      sqlite3_result_null(ctx);  // the index does not say how its game counts
      return;
    }
    std::string json = "[";
    for (int axis = 0; axis < 3; ++axis) {
      const char c = static_cast<char>('X' + axis);
      FoundValue cell, vec;
      std::string s1, s2;
      if (!ReadField(ctx, t, std::string("CBodyComponent.m_cell") + c, &cell, &s1) ||
          !ReadField(ctx, t, std::string("CBodyComponent.m_vec") + c, &vec, &s2)) {
        return;
      }
      const bool whole = cell.found && vec.found && vec.value.kind == ValueKind::kFloat &&
                         (cell.value.kind == ValueKind::kUint || cell.value.kind == ValueKind::kInt);
      if (!whole && axis < 2) {
        sqlite3_result_null(ctx);  // no body component position
        return;
      }
      if (axis) json += ',';
      if (!whole) {
        json += "null";
        continue;
      }
      const int64_t n = cell.value.kind == ValueKind::kUint
                            ? static_cast<int64_t>(cell.value.u)
                            : cell.value.i;
      AppendFloat32(CellCoord(n, t.reader->cell_width(), t.reader->world_offset(), vec.value.f),
                    &json);
    }
    json += ']';
    ResultText(ctx, json);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  } catch (...) {
    Fail(ctx, "gem_position: internal error");
  }
}

void Version(sqlite3_context* ctx, int, sqlite3_value**) {
  sqlite3_result_text(ctx, kVersion, -1, SQLITE_STATIC);
}

void Help(sqlite3_context* ctx, int, sqlite3_value**) {
  try {
    const std::string json = FunctionDocsJson();
    sqlite3_result_text(ctx, json.data(), static_cast<int>(json.size()), SQLITE_TRANSIENT);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  }
}

void Debug(sqlite3_context* ctx, int, sqlite3_value**) {
  try {
    auto* ext = static_cast<Extension*>(sqlite3_user_data(ctx));
    ReadCounters t = ext->readers.Totals();
    std::string json = "{\"version\":\"" + std::string(kVersion) +
                       "\",\"schema_version\":" +
                       std::to_string(kIndexSchemaVersion) +
                       ",\"sqlite\":\"" + sqlite3_libversion() + "\"" +
                       ",\"keyframe_cache_bytes\":" +
                       std::to_string(ext->readers.KeyframeCacheBytes()) +
                       ",\"counters\":{\"seeks\":" + std::to_string(t.seeks) +
                       ",\"chunks_read\":" + std::to_string(t.chunks_read) +
                       ",\"pages_read\":" + std::to_string(t.pages_read) +
                       ",\"states_read\":" + std::to_string(t.states_read) +
                       ",\"values_decoded\":" + std::to_string(t.values_decoded) +
                       ",\"state_walks\":" + std::to_string(t.state_walks) +
                       ",\"keyframe_blocks_read\":" + std::to_string(t.keyframe_blocks_read) +
                       ",\"keyframe_rows_decoded\":" +
                       std::to_string(t.keyframe_rows_decoded) +
                       ",\"keyframes_read\":" + std::to_string(t.keyframes_read) + "}}";
    ResultText(ctx, json);
  } catch (...) {
    sqlite3_result_error_nomem(ctx);
  }
}

// gem_keyframe_cache([bytes]): the bytes of keyframe blocks each index of
// this connection keeps (IndexReader's kept blocks), set when given (the
// blocks past it go at once); the limit in force.
void KeyframeCache(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto* ext = static_cast<Extension*>(sqlite3_user_data(ctx));
  if (argc == 1) {
    if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER || sqlite3_value_int64(argv[0]) < 0) {
      Fail(ctx, "gem_keyframe_cache: the limit is a whole number of bytes, 0 or more");
      return;
    }
    const auto bytes = static_cast<uint64_t>(sqlite3_value_int64(argv[0]));
    ext->readers.SetKeyframeCacheLimit(static_cast<size_t>(std::min<uint64_t>(bytes, SIZE_MAX)));
  }
  sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(ext->readers.keyframe_cache_limit()));
}

}  // namespace

int RegisterFunctions(sqlite3* db, Extension* ext, void (*destroy)(void*)) {
  const int flags = SQLITE_UTF8 | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function_v2(db, "gem_version", 0, flags | SQLITE_DETERMINISTIC,
                                      nullptr, Version, nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    // gem_debug owns the extension state: freed when the connection closes.
    rc = sqlite3_create_function_v2(db, "gem_debug", 0, flags, ext, Debug, nullptr, nullptr,
                                    destroy);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "gem_help", 0, flags | SQLITE_DETERMINISTIC, nullptr,
                                    Help, nullptr, nullptr, nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "gem_value", 3, flags, ext, Value_, nullptr, nullptr,
                                    nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "gem_value", 4, flags, ext, Value_, nullptr, nullptr,
                                    nullptr);
  }
  for (int n : {2, 3}) {
    if (rc == SQLITE_OK) {
      rc = sqlite3_create_function_v2(db, "gem_position", n, flags, ext, Position, nullptr,
                                      nullptr, nullptr);
    }
  }
  for (int n : {0, 1}) {
    // Not innocuous: it sets how much memory the connection keeps.
    if (rc == SQLITE_OK) {
      rc = sqlite3_create_function_v2(db, "gem_keyframe_cache", n, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                      ext, KeyframeCache, nullptr, nullptr, nullptr);
    }
  }
  return rc;
}

}  // namespace gem::sqlext
