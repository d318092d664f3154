// A live index's open interval as one entity's state and changes: read
// from its tail rows (indexer/live_tail.h writes them; index_schema.h)
// once per reader, which is opened anew at each commit.
#ifndef GEM_SQLEXT_TAIL_H_
#define GEM_SQLEXT_TAIL_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/fields/value.h"
#include "sqlext/index_reader.h"

namespace gem::sqlext {

struct TailEntity {
  // A value with its own string bytes.
  struct Held {
    Value value;
    std::string bytes;
    Value get() const {
      Value v = value;
      if (v.kind == ValueKind::kString) v.s = bytes;
      return v;
    }
  };
  struct Change {
    uint32_t field;
    int64_t tick;
    Held value;
  };
  // The state at the open interval's keyframe tick, or the creation state
  // (ascending field ids, no kNone).
  std::vector<std::pair<uint32_t, Held>> state;
  // Every change since, by field then tick.
  std::vector<Change> changes;

  // Builds it from the entity's tail rows (seq, tick, data in seq order)
  // and its creation state blob (used when no row has seq 0). False with
  // *what set when a row does not decode.
  bool Build(const std::vector<std::pair<int64_t, std::string>>& rows, int64_t k,
             std::string_view creation, std::string* what);
  // Every field's value as of `tick`, ascending field ids (none dropped).
  void StateAt(int64_t tick, std::vector<std::pair<uint32_t, Value>>* out) const;
};

// Field `field`'s value as of `tick` (out->found false when none).
bool TailValue(const TailEntity& t, uint32_t field, int64_t tick, FoundValue* out,
               std::string* storage);
// The fields that changed in the tail, appended to *out.
void TailFields(const TailEntity& t, std::vector<uint32_t>* out);
// Field `field`'s changes with lo <= tick <= hi, in tick order.
void TailChanges(const TailEntity& t, uint32_t field, int64_t lo, int64_t hi,
                 const std::function<void(int64_t, const Value&)>& emit);

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_TAIL_H_
