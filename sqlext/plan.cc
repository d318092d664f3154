#include "sqlext/plan.h"

#include <algorithm>
#include <cmath>

namespace gem::sqlext {

int BestIndex(sqlite3_index_info* info, const Columns& columns, double rows_per_entity,
              double total_entities) {
  // The constraint index chosen for each bit, in bit order.
  int chosen[kPlanBits];
  for (int& c : chosen) c = -1;
  auto take = [&](int bit_index, int i) {
    if (chosen[bit_index] < 0) chosen[bit_index] = i;
  };
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (!c.usable) continue;
    const int col = c.iColumn;
    const unsigned char op = c.op;
    if (col == columns.tick && col >= 0) {
      if (op == SQLITE_INDEX_CONSTRAINT_EQ) take(0, i);
      if (!columns.tick_ranges) continue;
      if (op == SQLITE_INDEX_CONSTRAINT_GT || op == SQLITE_INDEX_CONSTRAINT_GE) take(1, i);
      if (op == SQLITE_INDEX_CONSTRAINT_LT || op == SQLITE_INDEX_CONSTRAINT_LE) take(3, i);
    } else if ((col == columns.entity || col == columns.entity_arg) && col >= 0) {
      if (op == SQLITE_INDEX_CONSTRAINT_EQ) take(5, i);
    } else if (col == columns.clazz && col >= 0) {
      if (op == SQLITE_INDEX_CONSTRAINT_EQ) take(7, i);
    } else if (col == columns.field && col >= 0) {
      if (op == SQLITE_INDEX_CONSTRAINT_EQ) take(8, i);
      if (op == SQLITE_INDEX_CONSTRAINT_LIKE) take(10, i);
      if (op == SQLITE_INDEX_CONSTRAINT_GLOB) take(11, i);
    } else if (col == columns.db && col >= 0) {
      if (op == SQLITE_INDEX_CONSTRAINT_EQ) take(12, i);
    } else if (op == SQLITE_INDEX_CONSTRAINT_EQ && col >= 0) {
      if (col == columns.from) take(13, i);
      if (col == columns.to) take(14, i);
      if (col == columns.step) take(15, i);
    }
  }
  int idx = 0;
  int argv = 0;
  for (int b = 0; b < kPlanBits; ++b) {
    int i = chosen[b];
    if (i < 0) continue;
    const auto& c = info->aConstraint[i];
    idx |= 1 << b;
    if (b == 1 && c.op == SQLITE_INDEX_CONSTRAINT_GT) idx |= kTickLoStrict;
    if (b == 3 && c.op == SQLITE_INDEX_CONSTRAINT_LT) idx |= kTickHiStrict;
    info->aConstraintUsage[i].argvIndex = ++argv;
    // LIKE and GLOB only pre-filter: SQLite checks them again.
    info->aConstraintUsage[i].omit = (b == 10 || b == 11) ? 0 : 1;
    if ((b == 5 || b == 8) && sqlite3_vtab_in(info, i, 1)) {
      idx |= (b == 5 ? kEntityIn : kFieldIn);
    }
  }

  double entities = (idx & kEntity) ? 1 : total_entities;
  if (idx & kClass) entities = std::max(1.0, entities / 20);
  double rows = entities * rows_per_entity;
  if (idx & (kField | kFieldLike | kFieldGlob)) rows /= 50;
  if (idx & kTickEq && columns.tick_ranges) rows /= 100;
  if (idx & (kTickLo | kTickHi)) rows /= 4;
  double cost = 10 + rows * 2;
  const bool sample_args = (idx & (kFrom | kTo | kStep)) == (kFrom | kTo | kStep);
  if ((columns.tick_required && !(idx & kTickEq)) ||
      (columns.sample_required && !sample_args)) {
    cost = 1e18;  // cannot run; see xFilter's message
    rows = 1e15;
  }
  info->estimatedCost = cost;
  info->estimatedRows = static_cast<sqlite3_int64>(std::max(1.0, rows));
  info->idxNum = idx;

  // Rows come in ascending entity id: an ORDER BY on that alone is free.
  if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == columns.order_by_entity_ok &&
      !info->aOrderBy[0].desc) {
    info->orderByConsumed = 1;
  }
  return SQLITE_OK;
}

namespace {

// The whole-tick bound a constraint value sets on `tick`: tick >= v (lower)
// or tick <= v (upper), one tick further inwards when strict (> or <). A
// real bound rounds inwards to a whole tick. False when no tick can meet
// it (NULL, NaN, past the ends of int64).
bool TickBound(sqlite3_value* v, bool lower, bool strict, int64_t* out) {
  if (v == nullptr || sqlite3_value_type(v) == SQLITE_NULL) return false;
  if (sqlite3_value_numeric_type(v) == SQLITE_FLOAT) {
    const double d = sqlite3_value_double(v);
    if (std::isnan(d)) return false;
    double r = lower ? std::ceil(d) : std::floor(d);
    if (strict && r == d) r += lower ? 1 : -1;
    constexpr double kEnd = 9.2e18;  // inside int64, beyond any tick
    if (r > kEnd) {
      *out = INT64_MAX;
      return !lower;
    }
    if (r < -kEnd) {
      *out = INT64_MIN;
      return lower;
    }
    *out = static_cast<int64_t>(r);
    return true;
  }
  int64_t x = sqlite3_value_int64(v);
  if (strict) {
    if (x == (lower ? INT64_MAX : INT64_MIN)) return false;
    x += lower ? 1 : -1;
  }
  *out = x;
  return true;
}

}  // namespace

PlanArgs ReadPlanArgs(int idx_num, int argc, sqlite3_value** argv) {
  PlanArgs a;
  int next = 0;
  auto arg = [&]() -> sqlite3_value* { return next < argc ? argv[next++] : nullptr; };
  auto each = [&](sqlite3_value* v, bool in, auto&& fn) {
    if (!in) {
      fn(v);
      return;
    }
    sqlite3_value* x = nullptr;
    for (int rc = sqlite3_vtab_in_first(v, &x); rc == SQLITE_OK && x != nullptr;
         rc = sqlite3_vtab_in_next(v, &x)) {
      fn(x);
    }
  };
  if (idx_num & kTickEq) {
    sqlite3_value* v = arg();
    a.has_tick_eq = true;
    if (v == nullptr || sqlite3_value_type(v) == SQLITE_NULL) a.empty = true;
    else a.tick_eq = sqlite3_value_int64(v);
    a.lo = std::max(a.lo, a.tick_eq);
    a.hi = std::min(a.hi, a.tick_eq);
  }
  if (idx_num & kTickLo) {
    int64_t x;
    if (TickBound(arg(), /*lower=*/true, (idx_num & kTickLoStrict) != 0, &x)) {
      a.lo = std::max(a.lo, x);
    } else {
      a.empty = true;
    }
  }
  if (idx_num & kTickHi) {
    int64_t x;
    if (TickBound(arg(), /*lower=*/false, (idx_num & kTickHiStrict) != 0, &x)) {
      a.hi = std::min(a.hi, x);
    } else {
      a.empty = true;
    }
  }
  if (idx_num & kEntity) {
    sqlite3_value* v = arg();
    // A NULL entity argument (gem_state(tick, NULL)) means "every entity".
    if (!(idx_num & kEntityIn) && (v == nullptr || sqlite3_value_type(v) == SQLITE_NULL)) {
      // no filter
    } else {
      a.has_entities = true;
      each(v, (idx_num & kEntityIn) != 0, [&](sqlite3_value* x) {
        if (x != nullptr && sqlite3_value_type(x) != SQLITE_NULL) {
          a.entities.push_back(sqlite3_value_int64(x));
        }
      });
      std::sort(a.entities.begin(), a.entities.end());
      a.entities.erase(std::unique(a.entities.begin(), a.entities.end()), a.entities.end());
    }
  }
  if (idx_num & kClass) {
    sqlite3_value* v = arg();
    if (v == nullptr || sqlite3_value_type(v) == SQLITE_NULL) a.empty = true;
    a.has_class = true;
    a.clazz = ArgText(v);
  }
  if (idx_num & kField) {
    sqlite3_value* v = arg();
    a.fields.active = a.fields.has_names = true;
    each(v, (idx_num & kFieldIn) != 0, [&](sqlite3_value* x) {
      if (x != nullptr && sqlite3_value_type(x) != SQLITE_NULL) {
        a.fields.names.push_back(ArgText(x));
      }
    });
  }
  if (idx_num & kFieldLike) {
    a.fields.active = a.fields.has_like = true;
    a.fields.like_prefix = FieldFilter::LikePrefix(ArgText(arg()));
  }
  if (idx_num & kFieldGlob) {
    a.fields.active = a.fields.has_glob = true;
    a.fields.glob_prefix = FieldFilter::GlobPrefix(ArgText(arg()));
  }
  if (idx_num & kDb) {
    sqlite3_value* v = arg();
    if (v != nullptr && sqlite3_value_type(v) != SQLITE_NULL) a.db = ArgText(v);
  }
  auto tick_arg = [&](bool* has, int64_t* out) {
    sqlite3_value* v = arg();
    *has = true;
    if (v == nullptr || sqlite3_value_type(v) == SQLITE_NULL) a.empty = true;
    else *out = sqlite3_value_int64(v);
  };
  if (idx_num & kFrom) tick_arg(&a.has_from, &a.from);
  if (idx_num & kTo) tick_arg(&a.has_to, &a.to);
  if (idx_num & kStep) tick_arg(&a.has_step, &a.step);
  if (a.lo > a.hi) a.empty = true;
  return a;
}

void SelectEntities(IndexReader* reader, const PlanArgs& args,
                    const std::function<bool(const EntityInfo&)>& keep,
                    std::vector<const EntityInfo*>* out) {
  auto consider = [&](const EntityInfo* e) {
    if (e == nullptr || !keep(*e)) return;
    if (args.has_class) {
      ClassInfoRow* cls = reader->Class(e->class_id);
      if (cls == nullptr || cls->name != args.clazz) return;
    }
    out->push_back(e);
  };
  if (args.has_entities) {
    for (int64_t id : args.entities) consider(reader->Entity(id));
  } else {
    for (const EntityInfo& e : reader->entities()) consider(&e);
  }
}

}  // namespace gem::sqlext
