// Reading the columns of an index the extension did not write: an index is
// a file people share, so every number read from it is checked for its
// type and range before it is used as an id, a size or a tick, and every
// table and schema name is quoted.
#ifndef GEM_SQLEXT_INDEX_COLUMNS_H_
#define GEM_SQLEXT_INDEX_COLUMNS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "sqlext/sqlite_api.h"

namespace gem::sqlext {

// `name` as an SQL identifier in double quotes.
inline std::string QuotedName(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

// Column `col` as bytes (a blob's, or a text's or number's text); empty for
// NULL. Valid until the statement steps or resets.
inline std::string_view BlobColumn(sqlite3_stmt* st, int col) {
  const void* p = sqlite3_column_blob(st, col);
  const int n = sqlite3_column_bytes(st, col);
  return p == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(p), n);
}

// True when column `col` is an integer within [lo, hi] (then *out is it).
// Text, reals and NULL are refused, not converted: a converted value would
// name another entity, field or tick than the row meant.
inline bool IntColumn(sqlite3_stmt* st, int col, int64_t lo, int64_t hi, int64_t* out) {
  if (sqlite3_column_type(st, col) != SQLITE_INTEGER) return false;
  const int64_t v = sqlite3_column_int64(st, col);
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

// A column's value as text for an error message (at most 40 bytes).
inline std::string ColumnForMessage(sqlite3_stmt* st, int col) {
  switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_INTEGER:
      return std::to_string(sqlite3_column_int64(st, col));
    case SQLITE_BLOB:
      return "a blob";
    default: {
      const unsigned char* t = sqlite3_column_text(st, col);
      std::string s = t == nullptr ? "" : reinterpret_cast<const char*>(t);
      if (s.size() > 40) s.resize(40);
      return "'" + s + "'";
    }
  }
}

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_INDEX_COLUMNS_H_
