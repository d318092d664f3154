// Pieces shared by the extension's functions and virtual tables: the
// per-connection state, how values become SQL values, the field-name
// filters that constraints push down, and error handling at the C edge.
#ifndef GEM_SQLEXT_COMMON_H_
#define GEM_SQLEXT_COMMON_H_

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "core/fields/value.h"
#include "core/util/version.h"
#include "sqlext/index_reader.h"
#include "sqlext/sqlite_api.h"

namespace gem::sqlext {

constexpr const char* kVersion = kGemVersion;
constexpr int kMinSqliteVersion = 3038000;  // sqlite3_vtab_in

// One per connection; owned by the connection (freed with it).
struct Extension {
  explicit Extension(sqlite3* db) : readers(db) {}
  Readers readers;
};

// The length to hand sqlite3_result_text for `s`, whose bytes are followed
// by a NUL: the rule for every text the extension returns. -1 when s holds
// no NUL of its own tells SQLite its copy ends in one: given the length
// instead, SQLite copies without the terminator, then grows (reallocates)
// the copy to add it when the caller reads the text, and shrinks its
// buffer so that the next row's copy allocates again, three heap calls a
// row.
inline int ResultLength(std::string_view s) {
  return s.find('\0') == std::string_view::npos ? -1 : static_cast<int>(s.size());
}
// Text as a result (copied).
inline void ResultText(sqlite3_context* ctx, const std::string& s) {
  sqlite3_result_text(ctx, s.c_str(), ResultLength(s), SQLITE_TRANSIENT);
}

// Sets a SQL result from a decoded value: integers (uint64 as the same 64
// bits), reals, text, vectors and angles as JSON arrays, bools as 0/1.
void ResultValue(sqlite3_context* ctx, const Value& v);

// Field-name constraints pushed into a virtual table: exact names (= and
// IN) and LIKE/GLOB patterns, reduced to prefixes for pre-filtering (SQLite
// re-checks LIKE and GLOB itself).
struct FieldFilter {
  bool active = false;
  std::vector<std::string> names;  // any of these (= or IN)
  bool has_names = false;
  std::string like_prefix;         // case-insensitive (ASCII) prefix
  bool has_like = false;
  std::string glob_prefix;         // case-sensitive prefix
  bool has_glob = false;

  bool Matches(std::string_view name) const;
  static std::string LikePrefix(std::string_view pattern);
  static std::string GlobPrefix(std::string_view pattern);
};

// The text of an argument, or "" for NULL.
std::string ArgText(sqlite3_value* v);

// Replaces a vtab's error message (freeing the old one).
void SetVtabError(sqlite3_vtab* vtab, const std::string& message);

// Runs a virtual-table method's body at the C edge, so that no C++
// exception crosses into SQLite: out of memory becomes SQLITE_NOMEM,
// anything else an error naming `what`.
template <typename Body>
int Guarded(sqlite3_vtab* vtab, const char* what, Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (...) {
    SetVtabError(vtab, std::string(what) + ": internal error");
    return SQLITE_ERROR;
  }
}

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_COMMON_H_
