// gem_sample(from_tick, to_tick, step [, entity [, db]]): every field of
// the selected entities as of each sampled tick from_tick, from_tick +
// step, ... <= to_tick at which the entity is alive and the field has a
// value; one row per (entity, field, tick), in ascending entity id, field
// id and tick.
//
//   entity, ent_index, serial, class, field, path, type, value, tick
//   hidden: from_tick, to_tick, step, for_entity, db
//
// Each (entity, field) is one pass over its changes (IndexReader::Sample),
// starting, when every field is asked for and the index has keyframes,
// from the entity's state at its first sample read from one keyframe row:
// the cost is linear in the changes read plus the rows returned, not a
// seek per sample.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "sqlext/common.h"
#include "sqlext/field_walk.h"
#include "sqlext/plan.h"
#include "sqlext/vtab_base.h"
#include "sqlext/vtabs.h"

namespace gem::sqlext {
namespace {

// The first kFieldColumns are ResultFieldColumn's; the value follows.
enum Col { kEntityCol, kEntIndex, kSerial, kClassCol, kFieldCol, kPath, kType, kValue,
           kTickCol, kFromCol, kToCol, kStepCol, kForEntity, kDbCol };
static_assert(kValue == kFieldColumns, "the shared columns come first");

const Columns kColumns = [] {
  Columns c;
  c.entity = kEntityCol;
  c.entity_arg = kForEntity;
  c.clazz = kClassCol;
  c.field = kFieldCol;
  c.db = kDbCol;
  c.from = kFromCol;
  c.to = kToCol;
  c.step = kStepCol;
  c.sample_required = true;
  c.order_by_entity_ok = kEntityCol;
  return c;
}();

using SampleCursor = WalkCursor;

// The state of the entity being walked as of its first sampled tick, in
// ascending field id (what IndexReader::StateAt emits).
struct StartState {
  struct Entry {
    uint32_t field;
    OwnedValue value;
  };
  const EntityInfo* entity = nullptr;
  int64_t tick = 0;
  std::vector<Entry> values;
};

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  return ConnectGemTable(
      db, aux,
      "CREATE TABLE x(entity INTEGER, ent_index INTEGER, serial INTEGER, class TEXT, "
      "field TEXT, path TEXT, type TEXT, value, tick INTEGER, from_tick HIDDEN, "
      "to_tick HIDDEN, step HIDDEN, for_entity HIDDEN, db HIDDEN)",
      out);
}

int BestIndexFn(sqlite3_vtab*, sqlite3_index_info* info) {
  return BestIndex(info, kColumns, /*rows_per_entity=*/20000, /*total_entities=*/1000);
}

// The first sampled tick at or after `t` (INT64_MAX when past int64: no
// sample). 128-bit: from_tick and step are whatever the query says.
int64_t FirstSampleFrom(const PlanArgs& a, int64_t t) {
  if (t <= a.from) return a.from;
  const __int128 diff = static_cast<__int128>(t) - a.from;
  const __int128 k = (diff + a.step - 1) / a.step;
  const __int128 first = a.from + k * a.step;
  return first > INT64_MAX ? INT64_MAX : static_cast<int64_t>(first);
}

int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<SampleCursor*>(cur);
  return Guarded(cur->pVtab, "gem_sample", [&] {
    c->args = ReadPlanArgs(idx_num, argc, argv);
    ResetWalkCursor(c);
    // Each pair's value at each sampled tick of the entity's life.
    auto start = std::make_shared<StartState>();
    c->produce = [c, start](const EntityInfo& e, uint32_t f, const WalkCursor::Emit& emit,
                            std::string* err) {
      const int64_t first = FirstSampleFrom(c->args, std::max(c->args.from, e.created_tick));
      const int64_t last = e.deleted_tick == INT64_MAX ? c->last
                                                       : std::min(c->last, e.deleted_tick - 1);
      if (first > last) return true;
      if (c->args.fields.active || c->reader->keyframe_interval() <= 0) {
        return c->reader->Sample(e, f, first, last, c->args.step, emit, err);
      }
      // Every field: the entity's whole state at the first sample comes
      // from its keyframe row once, instead of a seek per field.
      if (start->entity != &e || start->tick != first) {
        start->entity = nullptr;
        start->values.clear();
        auto keep = [&](uint32_t field, const Value& v) {
          start->values.push_back({field, OwnedValue(v)});
        };
        if (!c->reader->StateAt(e, first, nullptr, keep, err)) return false;
        start->entity = &e;
        start->tick = first;
      }
      FoundValue value;
      auto it = std::lower_bound(
          start->values.begin(), start->values.end(), f,
          [](const StartState::Entry& a, uint32_t field) { return a.field < field; });
      if (it != start->values.end() && it->field == f) {
        value.found = true;
        value.value = it->value.get();
      }
      return c->reader->Sample(e, f, first, last, c->args.step, emit, err, &value);
    };
    if ((idx_num & (kFrom | kTo | kStep)) != (kFrom | kTo | kStep)) {
      return CursorError(cur,
                         "gem_sample: from_tick, to_tick and step are required: use "
                         "gem_sample(from_tick, to_tick, step [, entity [, db]])");
    }
    if (!c->args.empty && c->args.step <= 0) {
      return CursorError(cur, "gem_sample: step must be 1 or more (got " +
                                  std::to_string(c->args.step) + ")");
    }
    std::string error;
    c->reader = c->ext->readers.Get(c->args.db, &error);
    if (c->reader == nullptr) return CursorError(cur, error);
    if (c->args.empty) return SQLITE_OK;
    // A live index's samples start at or before its last commit; they end
    // there, as a finished index's end at its last tick.
    if (!c->reader->CheckTick(c->args.from, &error)) return CursorError(cur, error);
    // Nothing is sampled past the replay's end.
    c->last = std::min(c->args.to, c->reader->last_tick());
    const int64_t first = c->args.from;
    const int64_t last = c->last;
    if (first > last) return SQLITE_OK;
    auto overlaps = [&](const EntityInfo& e) {
      return e.created_tick <= last && e.deleted_tick > first;
    };
    std::vector<const EntityInfo*> entities;
    SelectEntities(c->reader, c->args, overlaps, &entities);
    return StartWalk(c, std::move(entities), first, last, &error) ? SQLITE_OK
                                                                  : CursorError(cur, error);
  });
}

int Next(sqlite3_vtab_cursor* cur) { return NextWalkRow(cur, "gem_sample"); }

int Column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<SampleCursor*>(cur);
  const EntityInfo& e = c->walk.entity();
  const FieldInfo& f = c->walk.field();
  const TickRow& r = c->rows[c->row_pos];
  if (col < kFieldColumns) {
    ResultFieldColumn(ctx, col, e, c->walk.clazz(), f.field_id);
    return SQLITE_OK;
  }
  switch (col) {
    case kValue: ResultValue(ctx, r.value.get()); break;
    case kTickCol: sqlite3_result_int64(ctx, r.tick); break;
    case kFromCol: sqlite3_result_int64(ctx, c->args.from); break;
    case kToCol: sqlite3_result_int64(ctx, c->args.to); break;
    case kStepCol: sqlite3_result_int64(ctx, c->args.step); break;
    case kForEntity: sqlite3_result_int64(ctx, e.entity); break;
    case kDbCol: ResultText(ctx, c->args.db); break;
  }
  return SQLITE_OK;
}

}  // namespace

const sqlite3_module* SampleModule() {
  static const sqlite3_module module =
      GemModule<SampleCursor>(Connect, BestIndexFn, Filter, Next, Column);
  return &module;
}

}  // namespace gem::sqlext
