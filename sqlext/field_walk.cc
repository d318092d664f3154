#include "sqlext/field_walk.h"

#include <algorithm>

namespace gem::sqlext {

void FieldWalk::Reset(std::vector<const EntityInfo*> entities, int64_t lo, int64_t hi) {
  entities_ = std::move(entities);
  lo_ = lo;
  hi_ = hi;
  entity_pos_ = field_pos_ = 0;
  fields_.clear();
  clazz_ = nullptr;
  eof_ = false;
}

bool FieldWalk::Advance(IndexReader* reader, const FieldFilter& filter, const Fill& fill,
                        std::string* error) {
  for (;;) {
    // Next field of the current entity.
    while (entity_pos_ < entities_.size() && field_pos_ < fields_.size()) {
      const int got = fill(*entities_[entity_pos_], fields_[field_pos_], error);
      if (got < 0) return false;
      if (got > 0) return true;
      ++field_pos_;
    }
    // Next entity: its fields, filtered by name.
    if (entity_pos_ < entities_.size() && !fields_.empty()) ++entity_pos_;
    if (entity_pos_ >= entities_.size()) {
      eof_ = true;
      return true;
    }
    const EntityInfo& e = *entities_[entity_pos_];
    fields_.clear();
    field_pos_ = 0;
    clazz_ = reader->Class(e.class_id);
    if (clazz_ == nullptr) {
      ++entity_pos_;
      continue;
    }
    if (!reader->LoadFields(clazz_, error)) return false;
    if (filter.active) {
      // Named fields: look up only those.
      for (uint32_t f = 0; f < clazz_->fields.size(); ++f) {
        if (filter.Matches(clazz_->fields[f].name)) fields_.push_back(f);
      }
    } else {
      // Every field with a value in the range.
      if (!reader->FieldsWithValues(e, lo_, hi_, &fields_, error)) return false;
      const size_t known = clazz_->fields.size();
      fields_.erase(std::remove_if(fields_.begin(), fields_.end(),
                                   [&](uint32_t f) { return f >= known; }),
                    fields_.end());
    }
    if (fields_.empty()) ++entity_pos_;
  }
}

namespace {

// Moves to the next pair with rows; false on error.
bool AdvanceWalk(WalkCursor* c, std::string* error) {
  auto fill = [c](const EntityInfo& e, uint32_t f, std::string* err) {
    c->rows.clear();
    c->row_pos = 0;
    auto keep = [c](int64_t t, const Value& v) { c->rows.push_back({t, OwnedValue(v)}); };
    if (!c->produce(e, f, keep, err)) return -1;
    return c->rows.empty() ? 0 : 1;
  };
  if (!c->walk.Advance(c->reader, c->args.fields, fill, error)) return false;
  c->eof = c->walk.eof();
  return true;
}

}  // namespace

void ResetWalkCursor(WalkCursor* c) {
  c->rows.clear();
  c->row_pos = 0;
  c->rowid = 0;
  c->eof = true;
}

bool StartWalk(WalkCursor* c, std::vector<const EntityInfo*> entities, int64_t lo, int64_t hi,
               std::string* error) {
  c->walk.Reset(std::move(entities), lo, hi);
  c->eof = false;
  return AdvanceWalk(c, error);
}

int NextWalkRow(sqlite3_vtab_cursor* cur, const char* what) {
  auto* c = reinterpret_cast<WalkCursor*>(cur);
  return Guarded(cur->pVtab, what, [&] {
    ++c->rowid;
    if (++c->row_pos < c->rows.size()) return SQLITE_OK;
    c->walk.NextField();
    std::string error;
    return AdvanceWalk(c, &error) ? SQLITE_OK : CursorError(cur, error);
  });
}

}  // namespace gem::sqlext
