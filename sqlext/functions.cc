// Scalar functions: gem_value(entity, field, tick [, db]), gem_version(),
// gem_debug().
#include <string>

#include "core/codec/index_format.h"
#include "sqlext/common.h"
#include "sqlext/functions.h"

namespace gem::sqlext {
namespace {

#ifndef GEM_BUILD_LABEL
#define GEM_BUILD_LABEL __DATE__ " " __TIME__
#endif

void Fail(sqlite3_context* ctx, const std::string& message) {
  sqlite3_result_error(ctx, message.c_str(), static_cast<int>(message.size()));
}

void Value_(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  try {
    auto* ext = static_cast<Extension*>(sqlite3_user_data(ctx));
    for (int i = 0; i < 3; ++i) {
      if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);  // a NULL argument has no value
        return;
      }
    }
    std::string db = argc > 3 ? ArgText(argv[3]) : "main";
    if (db.empty()) db = "main";
    std::string error;
    IndexReader* reader = ext->readers.Get(db, &error);
    if (reader == nullptr) return Fail(ctx, error);
    const EntityInfo* e = reader->Entity(sqlite3_value_int64(argv[0]));
    const int64_t tick = sqlite3_value_int64(argv[2]);
    if (e == nullptr || !e->AliveAt(tick)) {
      sqlite3_result_null(ctx);  // no such entity at that tick
      return;
    }
    ClassInfoRow* cls = reader->Class(e->class_id);
    if (cls == nullptr) {
      sqlite3_result_null(ctx);
      return;
    }
    if (!reader->LoadFields(cls, &error)) return Fail(ctx, error);
    const std::string field = ArgText(argv[1]);
    auto it = cls->by_name.find(field);
    if (it == cls->by_name.end()) {
      sqlite3_result_null(ctx);  // the class has no such field (or never sent it)
      return;
    }
    FoundValue found;
    std::string storage;
    if (!reader->ValueAt(*e, it->second, tick, &found, &storage, &error)) {
      return Fail(ctx, error);
    }
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

void Version(sqlite3_context* ctx, int, sqlite3_value**) {
  sqlite3_result_text(ctx, kVersion, -1, SQLITE_STATIC);
}

void Debug(sqlite3_context* ctx, int, sqlite3_value**) {
  try {
    auto* ext = static_cast<Extension*>(sqlite3_user_data(ctx));
    ReadCounters t = ext->readers.Totals();
    std::string json = "{\"version\":\"" + std::string(kVersion) +
                       "\",\"build\":\"" GEM_BUILD_LABEL "\",\"schema_version\":" +
                       std::to_string(kIndexSchemaVersion) +
                       ",\"sqlite\":\"" + sqlite3_libversion() + "\"" +
                       ",\"counters\":{\"seeks\":" + std::to_string(t.seeks) +
                       ",\"chunks_read\":" + std::to_string(t.chunks_read) +
                       ",\"states_read\":" + std::to_string(t.states_read) +
                       ",\"values_decoded\":" + std::to_string(t.values_decoded) + "}}";
    sqlite3_result_text(ctx, json.data(), static_cast<int>(json.size()), SQLITE_TRANSIENT);
  } catch (...) {
    sqlite3_result_error_nomem(ctx);
  }
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
    rc = sqlite3_create_function_v2(db, "gem_value", 3, flags, ext, Value_, nullptr, nullptr,
                                    nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "gem_value", 4, flags, ext, Value_, nullptr, nullptr,
                                    nullptr);
  }
  return rc;
}

}  // namespace gem::sqlext
