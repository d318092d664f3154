// gem_state(tick [, entity [, db]]): every field of every entity alive at
// `tick`, one row per (entity, field), in ascending entity id and field id.
//
//   entity, ent_index, serial, class, field, path, type, value
//   hidden: tick, for_entity, db
#include <string>
#include <vector>

#include "sqlext/common.h"
#include "sqlext/plan.h"
#include "sqlext/vtab_base.h"
#include "sqlext/vtabs.h"

namespace gem::sqlext {
namespace {

// The first kFieldColumns are ResultFieldColumn's; the value follows.
enum Col { kEntityCol, kEntIndex, kSerial, kClassCol, kFieldCol, kPath, kType, kValue,
           kTickCol, kForEntity, kDbCol };
static_assert(kValue == kFieldColumns, "the shared columns come first");

const Columns kColumns = [] {
  Columns c;
  c.tick = kTickCol;
  c.entity = kEntityCol;
  c.entity_arg = kForEntity;
  c.clazz = kClassCol;
  c.field = kFieldCol;
  c.db = kDbCol;
  c.tick_required = true;
  c.order_by_entity_ok = kEntityCol;
  return c;
}();

// A field's value; a string's bytes are in the cursor's `strings`, at
// `string_at` (a value is copied there from the reader's blobs, which the
// next entity's read replaces). An id past the class's fields (a damaged
// index) has NULL name columns.
struct Row {
  uint32_t field;
  size_t string_at;
  Value value;
};

struct StateCursor {
  sqlite3_vtab_cursor base;
  Extension* ext;
  IndexReader* reader = nullptr;
  PlanArgs args;
  std::vector<const EntityInfo*> entities;
  size_t entity_pos = 0;
  ClassInfoRow* clazz = nullptr;
  std::vector<Row> rows;  // the current entity's fields
  std::string strings;    // their strings' bytes, one after another
  size_t row_pos = 0;
  bool eof = true;
  int64_t rowid = 0;
};

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  return ConnectGemTable(
      db, aux,
      "CREATE TABLE x(entity INTEGER, ent_index INTEGER, serial INTEGER, class TEXT, "
      "field TEXT, path TEXT, type TEXT, value, tick HIDDEN, for_entity HIDDEN, db HIDDEN)",
      out);
}

int BestIndexFn(sqlite3_vtab*, sqlite3_index_info* info) {
  return BestIndex(info, kColumns, /*rows_per_entity=*/250, /*total_entities=*/1000);
}

// Loads the fields of the entity at entity_pos (skipping entities that
// yield no row); false on error.
bool LoadEntity(StateCursor* c, std::string* error) {
  while (c->entity_pos < c->entities.size()) {
    const EntityInfo& e = *c->entities[c->entity_pos];
    c->rows.clear();
    c->row_pos = 0;
    c->clazz = c->reader->Class(e.class_id);
    if (c->clazz == nullptr || !c->reader->LoadFields(c->clazz, error)) {
      if (!error->empty()) return false;
      ++c->entity_pos;
      continue;
    }
    ClassInfoRow* cls = c->clazz;
    std::vector<uint32_t> only;
    if (c->args.fields.active) {
      // Only the named fields are read (StateAt: a seek each, or from the
      // keyframe row when there are many).
      for (uint32_t f = 0; f < cls->fields.size(); ++f) {
        if (c->args.fields.Matches(cls->fields[f].name)) only.push_back(f);
      }
    }
    c->strings.clear();
    auto keep = [&](uint32_t f, const Value& v) {
      size_t at = 0;
      if (v.kind == ValueKind::kString) {
        at = c->strings.size();
        c->strings.append(v.s);
      }
      c->rows.push_back({f, at, v});
    };
    if (!c->reader->StateAt(e, c->args.tick_eq, c->args.fields.active ? &only : nullptr, keep,
                            error)) {
      return false;
    }
    // Only now is `strings` done growing (moving its bytes).
    for (Row& r : c->rows) {
      if (r.value.kind == ValueKind::kString) {
        r.value.s = std::string_view(c->strings).substr(r.string_at, r.value.s.size());
      }
    }
    if (!c->rows.empty()) return true;
    ++c->entity_pos;
  }
  c->eof = true;
  return true;
}

int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<StateCursor*>(cur);
  return Guarded(cur->pVtab, "gem_state", [&] {
    c->args = ReadPlanArgs(idx_num, argc, argv);
    c->entities.clear();
    c->rows.clear();
    c->entity_pos = 0;
    c->rowid = 0;
    c->eof = true;
    if (!(idx_num & kTickEq)) {
      return CursorError(cur,
                         "gem_state: tick is required: use gem_state(tick [, entity [, db]]) "
                         "or WHERE tick = ...");
    }
    std::string error;
    c->reader = c->ext->readers.Get(c->args.db, &error);
    if (c->reader == nullptr) return CursorError(cur, error);
    if (c->args.empty) return SQLITE_OK;
    const int64_t tick = c->args.tick_eq;
    SelectEntities(
        c->reader, c->args, [&](const EntityInfo& e) { return e.AliveAt(tick); }, &c->entities);
    c->eof = false;
    return LoadEntity(c, &error) ? SQLITE_OK : CursorError(cur, error);
  });
}

int Next(sqlite3_vtab_cursor* cur) {
  auto* c = reinterpret_cast<StateCursor*>(cur);
  return Guarded(cur->pVtab, "gem_state", [&] {
    ++c->rowid;
    if (++c->row_pos < c->rows.size()) return SQLITE_OK;
    ++c->entity_pos;
    std::string error;
    return LoadEntity(c, &error) ? SQLITE_OK : CursorError(cur, error);
  });
}

int Column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<StateCursor*>(cur);
  const EntityInfo& e = *c->entities[c->entity_pos];
  const Row& r = c->rows[c->row_pos];
  if (col < kFieldColumns) {
    ResultFieldColumn(ctx, col, e, *c->clazz, r.field);
    return SQLITE_OK;
  }
  switch (col) {
    case kValue: ResultValue(ctx, r.value); break;
    case kTickCol: sqlite3_result_int64(ctx, c->args.tick_eq); break;
    case kForEntity: sqlite3_result_int64(ctx, e.entity); break;
    case kDbCol: ResultText(ctx, c->args.db); break;
  }
  return SQLITE_OK;
}

}  // namespace

const sqlite3_module* StateModule() {
  static const sqlite3_module module =
      GemModule<StateCursor>(Connect, BestIndexFn, Filter, Next, Column);
  return &module;
}

}  // namespace gem::sqlext
