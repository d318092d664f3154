// Registration of the extension's scalar functions.
#ifndef GEM_SQLEXT_FUNCTIONS_H_
#define GEM_SQLEXT_FUNCTIONS_H_

#include "sqlext/common.h"

namespace gem::sqlext {

// Registers gem_version, gem_help, gem_debug, gem_value, gem_position and
// gem_keyframe_cache; `destroy(ext)` runs when the connection closes.
int RegisterFunctions(sqlite3* db, Extension* ext, void (*destroy)(void*));

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_FUNCTIONS_H_
