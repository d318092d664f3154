// FieldWalk: the (entity, field) pairs a gem_changes or gem_sample query
// reads, in ascending entity id and field id, with the rows of one pair at
// a time.
//
// Fields are those the plan names (each looked up by name in the entity's
// class), else every field the entity ever had a value for. A pair whose
// fill yields no rows is skipped.
#ifndef GEM_SQLEXT_FIELD_WALK_H_
#define GEM_SQLEXT_FIELD_WALK_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sqlext/common.h"
#include "sqlext/index_reader.h"
#include "sqlext/plan.h"
#include "sqlext/vtab_base.h"

namespace gem::sqlext {

class FieldWalk {
 public:
  // Fills the rows of one pair: 1 when it has rows, 0 when none, -1 on
  // error (with *error set).
  using Fill = std::function<int(const EntityInfo&, uint32_t field, std::string* error)>;

  // Starts over on `entities` (selected by the plan), whose rows are of
  // ticks lo..hi: an entity's fields are those with a value then.
  void Reset(std::vector<const EntityInfo*> entities, int64_t lo, int64_t hi);
  // Moves to the next pair with rows (the first, after Reset); false on
  // error. eof() tells whether one was found.
  bool Advance(IndexReader* reader, const FieldFilter& filter, const Fill& fill,
               std::string* error);
  // The current pair's rows were consumed: Advance() moves past it.
  void NextField() { ++field_pos_; }

  bool eof() const { return eof_; }
  const EntityInfo& entity() const { return *entities_[entity_pos_]; }
  const ClassInfoRow& clazz() const { return *clazz_; }
  const FieldInfo& field() const { return clazz_->fields[fields_[field_pos_]]; }

 private:
  std::vector<const EntityInfo*> entities_;
  int64_t lo_ = INT64_MIN, hi_ = INT64_MAX;
  size_t entity_pos_ = 0;
  ClassInfoRow* clazz_ = nullptr;
  std::vector<uint32_t> fields_;  // of the current entity
  size_t field_pos_ = 0;
  bool eof_ = true;
};

// One row of a pair: a tick and the value then.
struct TickRow {
  int64_t tick;
  OwnedValue value;
};

// The cursor of gem_changes and gem_sample: a FieldWalk and the rows of
// its current pair, made by `produce` (emit(tick, value) for each; false
// on error). Standard layout, as GemModule wants.
struct WalkCursor {
  using Emit = std::function<void(int64_t, const Value&)>;
  sqlite3_vtab_cursor base;
  Extension* ext;
  IndexReader* reader = nullptr;
  PlanArgs args;
  int64_t last = 0;  // gem_sample: to_tick, no later than the replay's end
  FieldWalk walk;
  std::vector<TickRow> rows;  // of the current (entity, field)
  size_t row_pos = 0;
  bool eof = true;
  int64_t rowid = 0;
  std::function<bool(const EntityInfo&, uint32_t, const Emit&, std::string*)> produce;
};

// Empties a cursor for a new xFilter.
void ResetWalkCursor(WalkCursor* c);
// Walks `entities` from their first row, of ticks lo..hi; false on error.
bool StartWalk(WalkCursor* c, std::vector<const EntityInfo*> entities, int64_t lo, int64_t hi,
               std::string* error);
// xNext of a WalkCursor table; `what` names it in errors.
int NextWalkRow(sqlite3_vtab_cursor* cur, const char* what);

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_FIELD_WALK_H_
