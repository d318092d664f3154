// EntityStates: the entity_states table's rows (index_schema.h), and the
// states that start an interval (interval_store.h), encoded on the
// pipeline's packing thread from the values the parser's thread copied
// out: the parse's own thread only copies them.
//
// Entities of one class mostly start alike (from one baseline): a
// creation state is stored as its difference from the class's template
// state (the whole state of an earlier entity of the class) when that is
// at most half its values; else whole, and it becomes the template.
//
// Thread: one (the packing thread).
#ifndef GEM_INDEXER_ENTITY_STATES_H_
#define GEM_INDEXER_ENTITY_STATES_H_

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/fields/value.h"
#include "indexer/held_change.h"
#include "indexer/row_buffer.h"

namespace gem::index {

class EntityStates {
 public:
  // The creation state of `entity` (of class `class_id`, created at
  // `tick`): `values` (strings in `arena`), recorded in `out` as an
  // entity_states row (store_rows.h's kStateRow).
  void Created(uint64_t entity, int32_t class_id, int64_t tick,
               std::span<const HeldChange> values, std::string_view arena, RowBuffer* out);
  // `values` as one state blob (state_codec.h), valid until the next call.
  std::string_view Encode(std::span<const HeldChange> values, std::string_view arena);

 private:
  void Gather(std::span<const HeldChange> values, std::string_view arena);

  struct Template {
    int64_t entity = -1;
    std::string blob;
  };
  std::unordered_map<int32_t, Template> templates_;  // by class id
  std::vector<std::pair<uint32_t, Value>> values_, diff_;
  std::string blob_;
};

}  // namespace gem::index

#endif  // GEM_INDEXER_ENTITY_STATES_H_
