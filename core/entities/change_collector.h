// ChangeCollector: the (field id, value) pairs a FieldState walk reports,
// appended to a change list. Internal to core/entities.
#ifndef GEM_CORE_ENTITIES_CHANGE_COLLECTOR_H_
#define GEM_CORE_ENTITIES_CHANGE_COLLECTOR_H_

#include <vector>

#include "core/entities/field_state.h"
#include "core/events/sink.h"

namespace gem {

class ChangeCollector : public FieldState::Visitor {
 public:
  explicit ChangeCollector(std::vector<FieldChange>* out) : out_(out) {}
  void Visit(uint32_t field_id, const Value& value) override {
    out_->push_back({field_id, value});
  }

 private:
  std::vector<FieldChange>* out_;
};

}  // namespace gem

#endif  // GEM_CORE_ENTITIES_CHANGE_COLLECTOR_H_
