#include "sqlext/field_walk.h"

#include <algorithm>

namespace gem::sqlext {

void FieldWalk::Reset(std::vector<const EntityInfo*> entities) {
  entities_ = std::move(entities);
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
      // Every field that ever had a value.
      if (!reader->FieldsWithValues(e, &fields_, error)) return false;
      const size_t known = clazz_->fields.size();
      fields_.erase(std::remove_if(fields_.begin(), fields_.end(),
                                   [&](uint32_t f) { return f >= known; }),
                    fields_.end());
    }
    if (fields_.empty()) ++entity_pos_;
  }
}

}  // namespace gem::sqlext
