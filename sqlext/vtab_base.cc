#include "sqlext/vtab_base.h"

namespace gem::sqlext {

int ConnectGemTable(sqlite3* db, void* aux, const char* schema, sqlite3_vtab** out) {
  int rc = sqlite3_declare_vtab(db, schema);
  if (rc != SQLITE_OK) return rc;
  auto* t = static_cast<GemTable*>(sqlite3_malloc(sizeof(GemTable)));
  if (t == nullptr) return SQLITE_NOMEM;
  std::memset(t, 0, sizeof *t);
  t->ext = static_cast<Extension*>(aux);
  *out = &t->base;
  t->ext->readers.TableConnected();
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  return SQLITE_OK;
}

int DisconnectGemTable(sqlite3_vtab* vtab) {
  reinterpret_cast<GemTable*>(vtab)->ext->readers.TableDisconnected();
  sqlite3_free(vtab);
  return SQLITE_OK;
}

int CursorError(sqlite3_vtab_cursor* cur, const std::string& message) {
  SetVtabError(cur->pVtab, message);
  return SQLITE_ERROR;
}

void ResultFieldColumn(sqlite3_context* ctx, int col, const EntityInfo& e,
                       const ClassInfoRow& clazz, uint32_t field_id) {
  if (col >= 4 && field_id >= clazz.packed_fields.size()) {
    sqlite3_result_null(ctx);  // not described
    return;
  }
  switch (col) {
    case 0: sqlite3_result_int64(ctx, e.entity); break;
    case 1: sqlite3_result_int(ctx, e.ent_index); break;
    case 2: sqlite3_result_int(ctx, e.serial); break;
    case 3: ResultPacked(ctx, clazz, clazz.packed_name); break;
    case 4: ResultPacked(ctx, clazz, clazz.packed_fields[field_id].name); break;
    case 5: ResultPacked(ctx, clazz, clazz.packed_fields[field_id].path); break;
    case 6: ResultPacked(ctx, clazz, clazz.packed_fields[field_id].type); break;
    default: sqlite3_result_null(ctx); break;
  }
}

}  // namespace gem::sqlext
