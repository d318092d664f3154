// The identity of a gem index file, shared by the writer (gem-index) and
// the reader (libgem): PRAGMA application_id and PRAGMA user_version.
// The version changes whenever the tables or the codec's blob layout do;
// a reader refuses any version but its own.
#ifndef GEM_CORE_CODEC_INDEX_FORMAT_H_
#define GEM_CORE_CODEC_INDEX_FORMAT_H_

#include <cstdint>

namespace gem {

constexpr int32_t kIndexApplicationId = 0x47454D31;  // "GEM1"
// 2: chunk format 2 (run-length ticks, per-chunk float modes).
constexpr int32_t kIndexSchemaVersion = 2;

}  // namespace gem

#endif  // GEM_CORE_CODEC_INDEX_FORMAT_H_
