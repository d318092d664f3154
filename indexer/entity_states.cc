#include "indexer/entity_states.h"

#include <algorithm>

#include "core/codec/state_codec.h"
#include "indexer/store_rows.h"

namespace gem::index {

void EntityStates::Gather(std::span<const HeldChange> values, std::string_view arena) {
  values_.clear();
  for (const HeldChange& c : values) values_.emplace_back(c.field, c.Get(arena));
}

std::string_view EntityStates::Encode(std::span<const HeldChange> values, std::string_view arena) {
  Gather(values, arena);
  blob_.clear();
  EncodeState(&values_, &blob_);
  return blob_;
}

void EntityStates::Created(uint64_t entity, int32_t class_id, int64_t tick,
                           std::span<const HeldChange> values, std::string_view arena,
                           RowBuffer* out) {
  Gather(values, arena);
  std::sort(values_.begin(), values_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  blob_.clear();
  Template& base = templates_[class_id];
  int64_t base_entity = -1;
  if (base.entity >= 0 && DiffState(values_, base.blob, &diff_) &&
      diff_.size() * 2 <= values_.size()) {
    EncodeState(&diff_, &blob_);
    base_entity = base.entity;
  } else {
    EncodeState(&values_, &blob_);
    base.entity = static_cast<int64_t>(entity);
    base.blob = blob_;
  }
  RowBuffer& row = out->Begin(kStateRow).Int(static_cast<int64_t>(entity)).Int(tick).Blob(blob_);
  if (base_entity >= 0) row.Int(base_entity); else row.Null();
}

}  // namespace gem::index
