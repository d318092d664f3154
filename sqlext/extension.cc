// libgem: the gem SQLite extension. `.load ./libgem` (the sqlite3 shell),
// load_extension (Python), --load-extension (Datasette).
//
// Registers: gem_state, gem_changes and gem_sample (eponymous table-valued
// functions), gem_value, gem_position, gem_version, gem_debug. No C++ exception crosses into SQLite.
#include <new>
#include <string>

#include "sqlext/common.h"
#include "sqlext/functions.h"
#include "sqlext/vtabs.h"

SQLITE_EXTENSION_INIT1

namespace {

void DestroyExtension(void* p) { delete static_cast<gem::sqlext::Extension*>(p); }

}  // namespace

extern "C" __attribute__((visibility("default"))) int sqlite3_gem_init(
    sqlite3* db, char** err, const sqlite3_api_routines* api) {
  SQLITE_EXTENSION_INIT2(api);
  using namespace gem::sqlext;
  if (sqlite3_libversion_number() < kMinSqliteVersion) {
    *err = sqlite3_mprintf(
        "gem: this SQLite is %s; the gem extension needs SQLite 3.38.0 or newer",
        sqlite3_libversion());
    return SQLITE_ERROR;
  }
  Extension* ext = new (std::nothrow) Extension(db);
  if (ext == nullptr) return SQLITE_NOMEM;
  int rc = RegisterFunctions(db, ext, DestroyExtension);
  if (rc != SQLITE_OK) {
    // Registration failed before gem_debug took ownership.
    *err = sqlite3_mprintf("gem: cannot register functions: %s", sqlite3_errmsg(db));
    return rc;
  }
  rc = sqlite3_create_module_v2(db, "gem_state", StateModule(), ext, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module_v2(db, "gem_changes", ChangesModule(), ext, nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module_v2(db, "gem_sample", SampleModule(), ext, nullptr);
  }
  if (rc != SQLITE_OK) {
    *err = sqlite3_mprintf("gem: cannot register tables: %s", sqlite3_errmsg(db));
  }
  return rc;
}
