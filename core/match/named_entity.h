// NamedEntity: the one entity of a named class a game module follows (its
// game rules proxy), remembered when created and checked when asked for:
// an entity index is reused once its entity goes, so the class is checked
// again (by id, not by name: asked for at every sample).
#ifndef GEM_CORE_MATCH_NAMED_ENTITY_H_
#define GEM_CORE_MATCH_NAMED_ENTITY_H_

#include <cstdint>
#include <string>

#include "core/entities/entities.h"
#include "core/match/match_context.h"

namespace gem::match {

class NamedEntity {
 public:
  explicit NamedEntity(std::string class_name) : class_name_(std::move(class_name)) {}

  // Remembers `e` when it is of the class (call for every creation);
  // whether it is.
  bool OnCreated(MatchContext& ctx, const Entity& e) {
    if (ctx.ClassName(e.class_id) != class_name_) return false;
    index_ = e.index;
    class_id_ = e.class_id;
    return true;
  }
  // The entity now; null before it is created or once it is gone.
  const Entity* Get(MatchContext& ctx) const {
    const Entity* e = index_ >= 0 ? ctx.Get(index_) : nullptr;
    return e != nullptr && e->class_id == class_id_ ? e : nullptr;
  }

 private:
  std::string class_name_;
  int32_t index_ = -1;
  int32_t class_id_ = -1;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_NAMED_ENTITY_H_
