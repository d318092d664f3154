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

#include "sqlext/index_reader.h"
#include "sqlext/plan.h"

namespace gem::sqlext {

class FieldWalk {
 public:
  // Fills the rows of one pair: 1 when it has rows, 0 when none, -1 on
  // error (with *error set).
  using Fill = std::function<int(const EntityInfo&, uint32_t field, std::string* error)>;

  // Starts over on `entities` (selected by the plan).
  void Reset(std::vector<const EntityInfo*> entities);
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
  size_t entity_pos_ = 0;
  ClassInfoRow* clazz_ = nullptr;
  std::vector<uint32_t> fields_;  // of the current entity
  size_t field_pos_ = 0;
  bool eof_ = true;
};

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_FIELD_WALK_H_
