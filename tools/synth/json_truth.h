// What gem-synth's truth writers share: JSON lines with their keys in the
// order written, and values as the index will hold them.
#ifndef GEM_TOOLS_SYNTH_JSON_TRUTH_H_
#define GEM_TOOLS_SYNTH_JSON_TRUTH_H_

#include <nlohmann/json.hpp>

namespace gem::synth {

using Json = nlohmann::ordered_json;

// A float as it comes back from a float32 field.
inline double F32(float v) { return static_cast<double>(v); }

inline Json Null() { return Json(nullptr); }

}  // namespace gem::synth

#endif  // GEM_TOOLS_SYNTH_JSON_TRUTH_H_
