// What gem's virtual tables share: their table object, connecting and
// disconnecting, cursor lifetime, the sqlite3_module built around a
// table's own BestIndex, Filter, Next and Column, and rows that own their
// values' string bytes.
//
// A cursor type given to GemModule is a standard-layout struct whose first
// member is `sqlite3_vtab_cursor base`, with members `Extension* ext`,
// `bool eof` and `int64_t rowid`, default-constructible.
#ifndef GEM_SQLEXT_VTAB_BASE_H_
#define GEM_SQLEXT_VTAB_BASE_H_

#include <cstdint>
#include <new>
#include <string>

#include "core/fields/value.h"
#include "sqlext/common.h"
#include "sqlext/sqlite_api.h"

namespace gem::sqlext {

struct GemTable {
  sqlite3_vtab base;
  Extension* ext;
};

// xConnect of an eponymous table declared by `schema` ("CREATE TABLE
// x(...)"); `aux` is the connection's Extension.
int ConnectGemTable(sqlite3* db, void* aux, const char* schema, sqlite3_vtab** out);
int DisconnectGemTable(sqlite3_vtab* vtab);

// Sets the cursor's table error and returns SQLITE_ERROR.
int CursorError(sqlite3_vtab_cursor* cur, const std::string& message);

// A decoded value that owns its string bytes: it stays valid when the
// reader moves on and when a vector of rows grows.
class OwnedValue {
 public:
  OwnedValue() = default;
  explicit OwnedValue(const Value& v) : value_(v) {
    if (v.kind == ValueKind::kString) storage_.assign(v.s);
  }
  // The value; a string points into this object.
  Value get() const {
    Value v = value_;
    if (v.kind == ValueKind::kString) v.s = storage_;
    return v;
  }

 private:
  Value value_;
  std::string storage_;
};

// The first seven columns of gem_state and gem_sample, in this order:
// entity, ent_index, serial, class, field, path, type (the value, which
// each table keeps its own way, follows). Sets column `col` (<
// kFieldColumns) of a row of field `field_id` of `e` (past the class's
// fields: not described, NULL).
constexpr int kFieldColumns = 7;
// A text of `clazz` (ClassInfoRow::PackedText) as a result.
inline void ResultPacked(sqlite3_context* ctx, const ClassInfoRow& clazz,
                         const ClassInfoRow::PackedText& t) {
  sqlite3_result_text(ctx, clazz.text_bytes.data() + t.at, t.result_length, SQLITE_TRANSIENT);
}
void ResultFieldColumn(sqlite3_context* ctx, int col, const EntityInfo& e,
                       const ClassInfoRow& clazz, uint32_t field_id);
namespace vtab_detail {

template <typename Cursor>
int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  auto* c = new (std::nothrow) Cursor();
  if (c == nullptr) return SQLITE_NOMEM;
  c->ext = reinterpret_cast<GemTable*>(vtab)->ext;
  *out = &c->base;
  return SQLITE_OK;
}

template <typename Cursor>
int Close(sqlite3_vtab_cursor* cur) {
  delete reinterpret_cast<Cursor*>(cur);
  return SQLITE_OK;
}

template <typename Cursor>
int Eof(sqlite3_vtab_cursor* cur) {
  return reinterpret_cast<Cursor*>(cur)->eof;
}

template <typename Cursor>
int Rowid(sqlite3_vtab_cursor* cur, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<Cursor*>(cur)->rowid;
  return SQLITE_OK;
}

}  // namespace vtab_detail

// The module of an eponymous table (no xCreate: no CREATE VIRTUAL TABLE)
// whose cursors are `Cursor`s.
template <typename Cursor>
sqlite3_module GemModule(int (*connect)(sqlite3*, void*, int, const char* const*,
                                        sqlite3_vtab**, char**),
                         int (*best_index)(sqlite3_vtab*, sqlite3_index_info*),
                         int (*filter)(sqlite3_vtab_cursor*, int, const char*, int,
                                       sqlite3_value**),
                         int (*next)(sqlite3_vtab_cursor*),
                         int (*column)(sqlite3_vtab_cursor*, sqlite3_context*, int)) {
  sqlite3_module m;
  std::memset(&m, 0, sizeof m);
  m.iVersion = 0;
  m.xCreate = nullptr;
  m.xConnect = connect;
  m.xBestIndex = best_index;
  m.xDisconnect = DisconnectGemTable;
  m.xOpen = vtab_detail::Open<Cursor>;
  m.xClose = vtab_detail::Close<Cursor>;
  m.xFilter = filter;
  m.xNext = next;
  m.xEof = vtab_detail::Eof<Cursor>;
  m.xColumn = column;
  m.xRowid = vtab_detail::Rowid<Cursor>;
  return m;
}

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_VTAB_BASE_H_
