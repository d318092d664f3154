// The extension's eponymous virtual tables (table-valued functions).
#ifndef GEM_SQLEXT_VTABS_H_
#define GEM_SQLEXT_VTABS_H_

#include "sqlext/sqlite_api.h"

namespace gem::sqlext {

const sqlite3_module* StateModule();    // gem_state
const sqlite3_module* ChangesModule();  // gem_changes
const sqlite3_module* SampleModule();   // gem_sample

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_VTABS_H_
