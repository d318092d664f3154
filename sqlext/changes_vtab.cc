// gem_changes: the history of field values as rows, one per change, in
// ascending entity id, field id and tick. An entity's creation values are
// changes at its creation tick; a value dropped by an array shrink is a
// change to NULL.
//
//   entity, ent_index, class, field, path, tick, value
//   hidden: db
#include <algorithm>
#include <string>
#include <vector>

#include "sqlext/common.h"
#include "sqlext/field_walk.h"
#include "sqlext/plan.h"
#include "sqlext/vtab_base.h"
#include "sqlext/vtabs.h"

namespace gem::sqlext {
namespace {

enum Col { kEntityCol, kEntIndex, kClassCol, kFieldCol, kPath, kTickCol, kValue, kDbCol };

const Columns kColumns = [] {
  Columns c;
  c.tick = kTickCol;
  c.tick_ranges = true;
  c.entity = kEntityCol;
  c.clazz = kClassCol;
  c.field = kFieldCol;
  c.db = kDbCol;
  c.order_by_entity_ok = kEntityCol;
  return c;
}();

using ChangesCursor = WalkCursor;

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  return ConnectGemTable(
      db, aux,
      "CREATE TABLE x(entity INTEGER, ent_index INTEGER, class TEXT, field TEXT, path TEXT, "
      "tick INTEGER, value, db HIDDEN)",
      out);
}

int BestIndexFn(sqlite3_vtab*, sqlite3_index_info* info) {
  // A field's whole history: thousands of changes per entity.
  return BestIndex(info, kColumns, /*rows_per_entity=*/20000, /*total_entities=*/1000);
}

int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<ChangesCursor*>(cur);
  return Guarded(cur->pVtab, "gem_changes", [&] {
    c->args = ReadPlanArgs(idx_num, argc, argv);
    ResetWalkCursor(c);
    // Each pair's changes in the tick range, its creation value included.
    c->produce = [c](const EntityInfo& e, uint32_t f, const WalkCursor::Emit& emit,
                     std::string* err) {
      return c->reader->Changes(e, f, std::max(c->args.lo, e.created_tick), c->args.hi, emit,
                                err);
    };
    std::string error;
    c->reader = c->ext->readers.Get(c->args.db, &error);
    if (c->reader == nullptr) return CursorError(cur, error);
    if (c->args.empty) return SQLITE_OK;
    // The lifetime must overlap the tick range.
    auto overlaps = [&](const EntityInfo& e) {
      return e.created_tick <= c->args.hi && e.deleted_tick > c->args.lo;
    };
    std::vector<const EntityInfo*> entities;
    SelectEntities(c->reader, c->args, overlaps, &entities);
    return StartWalk(c, std::move(entities), c->args.lo, c->args.hi, &error)
               ? SQLITE_OK
               : CursorError(cur, error);
  });
}

int Next(sqlite3_vtab_cursor* cur) { return NextWalkRow(cur, "gem_changes"); }

int Column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<ChangesCursor*>(cur);
  const EntityInfo& e = c->walk.entity();
  const FieldInfo& f = c->walk.field();
  const TickRow& r = c->rows[c->row_pos];
  const ClassInfoRow& k = c->walk.clazz();
  switch (col) {
    case kEntityCol: sqlite3_result_int64(ctx, e.entity); break;
    case kEntIndex: sqlite3_result_int(ctx, e.ent_index); break;
    case kClassCol: ResultPacked(ctx, k, k.packed_name); break;
    case kFieldCol: ResultPacked(ctx, k, k.packed_fields[f.field_id].name); break;
    case kPath: ResultPacked(ctx, k, k.packed_fields[f.field_id].path); break;
    case kTickCol: sqlite3_result_int64(ctx, r.tick); break;
    case kValue: ResultValue(ctx, r.value.get()); break;
    case kDbCol: ResultText(ctx, c->args.db); break;
  }
  return SQLITE_OK;
}

}  // namespace

const sqlite3_module* ChangesModule() {
  static const sqlite3_module module =
      GemModule<ChangesCursor>(Connect, BestIndexFn, Filter, Next, Column);
  return &module;
}

}  // namespace gem::sqlext
