// The SQLite API as a loadable extension sees it: every sqlite3_* call goes
// through the pointer table SQLite hands to sqlite3_gem_init. Include this,
// never <sqlite3.h>, in sqlext/ (the extension must not link libsqlite3).
#ifndef GEM_SQLEXT_SQLITE_API_H_
#define GEM_SQLEXT_SQLITE_API_H_

#include <sqlite3ext.h>

SQLITE_EXTENSION_INIT3

#endif  // GEM_SQLEXT_SQLITE_API_H_
