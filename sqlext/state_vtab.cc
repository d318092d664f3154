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

// A field's value, gathered for an entity whose fields are not walked from
// its keyframe row; a string's bytes are in the cursor's `strings`, at
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
  std::vector<uint32_t> only;  // the fields named, when args.fields is active
  // The current entity's fields: walked from its keyframe row as they are
  // returned, or else gathered first into `rows`.
  bool walking = false;
  IndexReader::KeyframeWalk walk;
  std::vector<Row> rows;
  std::string strings;  // rows' strings' bytes, one after another
  size_t row_pos = 0;   // the next of `rows`
  // The current row.
  uint32_t field = 0;
  const Value* value = nullptr;
  Value walked;  // the walk's current value
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

// Opens the entity at entity_pos: walks its keyframe row, or gathers its
// fields into `rows` (none when its class has no fields); false on error.
bool OpenEntity(StateCursor* c, std::string* error) {
  const EntityInfo& e = *c->entities[c->entity_pos];
  c->walking = false;
  c->rows.clear();
  c->row_pos = 0;
  c->clazz = c->reader->Class(e.class_id);
  if (c->clazz == nullptr || !c->reader->LoadFields(c->clazz, error)) return error->empty();
  const std::vector<uint32_t>* only = nullptr;
  if (c->args.fields.active) {
    // Only the named fields are read (StateAt: a seek each, or from the
    // keyframe row when there are many).
    c->only.clear();
    for (uint32_t f = 0; f < c->clazz->fields.size(); ++f) {
      if (c->args.fields.Matches(c->clazz->fields[f].name)) c->only.push_back(f);
    }
    only = &c->only;
  }
  if (c->reader->WalksKeyframes(only)) {
    c->walking = true;
    return c->walk.Start(c->reader, e, c->args.tick_eq, only, error);
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
  if (!c->reader->StateAt(e, c->args.tick_eq, only, keep, error)) return false;
  // Only now is `strings` done growing (moving its bytes).
  for (Row& r : c->rows) {
    if (r.value.kind == ValueKind::kString) {
      r.value.s = std::string_view(c->strings).substr(r.string_at, r.value.s.size());
    }
  }
  return true;
}

// Moves to the next row: the current entity's next field, else the first
// of the next entities that has one; eof past the last. False on error.
bool NextRow(StateCursor* c, std::string* error) {
  for (;;) {
    if (c->walking) {
      switch (c->walk.Next(&c->field, &c->walked, error)) {
        case IndexReader::KeyframeWalk::Step::kField:
          c->value = &c->walked;
          return true;
        case IndexReader::KeyframeWalk::Step::kError:
          return false;
        case IndexReader::KeyframeWalk::Step::kEnd:
          break;
      }
    } else if (c->row_pos < c->rows.size()) {
      const Row& r = c->rows[c->row_pos++];
      c->field = r.field;
      c->value = &r.value;
      return true;
    }
    if (++c->entity_pos >= c->entities.size()) {
      c->walk.Clear();
      c->walking = false;
      c->eof = true;
      return true;
    }
    if (!OpenEntity(c, error)) return false;
  }
}

int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<StateCursor*>(cur);
  return Guarded(cur->pVtab, "gem_state", [&] {
    c->args = ReadPlanArgs(idx_num, argc, argv);
    c->entities.clear();
    c->entity_pos = 0;
    c->walking = false;
    c->walk.Clear();
    c->rows.clear();
    c->row_pos = 0;
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
    if (!c->reader->CheckTick(tick, &error)) return CursorError(cur, error);
    SelectEntities(
        c->reader, c->args, [&](const EntityInfo& e) { return e.AliveAt(tick); }, &c->entities);
    if (c->entities.empty()) return SQLITE_OK;
    c->eof = false;
    const bool ok = OpenEntity(c, &error) && NextRow(c, &error);
    return ok ? SQLITE_OK : CursorError(cur, error);
  });
}

int Next(sqlite3_vtab_cursor* cur) {
  auto* c = reinterpret_cast<StateCursor*>(cur);
  return Guarded(cur->pVtab, "gem_state", [&] {
    ++c->rowid;
    std::string error;
    return NextRow(c, &error) ? SQLITE_OK : CursorError(cur, error);
  });
}

int Column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<StateCursor*>(cur);
  const EntityInfo& e = *c->entities[c->entity_pos];
  if (col < kFieldColumns) {
    ResultFieldColumn(ctx, col, e, *c->clazz, c->field);
    return SQLITE_OK;
  }
  switch (col) {
    case kValue: ResultValue(ctx, *c->value); break;
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
