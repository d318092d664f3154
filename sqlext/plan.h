// Query plans of the extension's virtual tables.
//
// xBestIndex encodes which constraints it takes as bits of idxNum (below);
// the arguments then reach xFilter in ascending bit order, one per bit.
// Constraints it does not take are left to SQLite. LIKE and GLOB on the
// field column pre-filter by their literal prefix and are re-checked by
// SQLite (omit stays 0); every other taken constraint is applied exactly
// and omitted. IN lists on entity and field are taken all at once
// (sqlite3_vtab_in).
//
// Costs: reading a field as of a tick is one index seek (cheap); a plan
// without an entity reads every live entity (expensive); gem_state without
// a tick (gem_sample without its three arguments) cannot run at all and
// costs "infinity", so that SQLite picks a plan that has one and, when none
// exists, xFilter says what is missing.
#ifndef GEM_SQLEXT_PLAN_H_
#define GEM_SQLEXT_PLAN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sqlext/common.h"
#include "sqlext/sqlite_api.h"

namespace gem::sqlext {

enum PlanBit : int {
  kTickEq = 1 << 0,
  kTickLo = 1 << 1,       // tick > or >= (kTickLoStrict: >)
  kTickLoStrict = 1 << 2,
  kTickHi = 1 << 3,       // tick < or <= (kTickHiStrict: <)
  kTickHiStrict = 1 << 4,
  kEntity = 1 << 5,       // = or IN (kEntityIn)
  kEntityIn = 1 << 6,
  kClass = 1 << 7,
  kField = 1 << 8,        // = or IN (kFieldIn)
  kFieldIn = 1 << 9,
  kFieldLike = 1 << 10,
  kFieldGlob = 1 << 11,
  kDb = 1 << 12,
  kFrom = 1 << 13,        // gem_sample's from_tick, to_tick and step
  kTo = 1 << 14,
  kStep = 1 << 15,
};
constexpr int kPlanBits = 16;

// Which columns of a table play which role (-1: none).
struct Columns {
  int tick = -1;
  bool tick_ranges = false;  // gem_changes: <, <=, >, >= too
  int entity = -1;
  int entity_arg = -1;       // a hidden argument equivalent to entity
  int clazz = -1;
  int field = -1;
  int db = -1;
  int from = -1, to = -1, step = -1;  // gem_sample's arguments
  bool tick_required = false;
  bool sample_required = false;  // from, to and step
  int order_by_entity_ok = -1;  // entity column whose ORDER BY ASC is true
};

// Fills idxNum, aConstraintUsage, costs and orderByConsumed.
int BestIndex(sqlite3_index_info* info, const Columns& columns, double rows_per_entity,
              double total_entities);

// What xFilter received.
struct PlanArgs {
  bool has_tick_eq = false;
  int64_t tick_eq = 0;
  int64_t lo = INT64_MIN;  // inclusive
  int64_t hi = INT64_MAX;  // inclusive
  bool has_entities = false;
  std::vector<int64_t> entities;  // sorted, distinct
  bool has_class = false;
  std::string clazz;
  FieldFilter fields;
  std::string db = "main";
  // gem_sample: the sampled ticks from, from + step, ... <= to.
  bool has_from = false, has_to = false, has_step = false;
  int64_t from = 0, to = 0, step = 0;
  bool empty = false;  // a constraint no row can meet (e.g. NULL)
};

// Reads argv by the bits of idx_num.
PlanArgs ReadPlanArgs(int idx_num, int argc, sqlite3_value** argv);

// The entities the plan's entity and class constraints select (every
// entity when it has none) for which `keep` holds, in entity order.
void SelectEntities(IndexReader* reader, const PlanArgs& args,
                    const std::function<bool(const EntityInfo&)>& keep,
                    std::vector<const EntityInfo*>* out);

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_PLAN_H_
