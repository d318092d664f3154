// Every decoding rule SelectDecoder gives, with the encodings that change
// them: for the tests and fuzz targets that must cover each one.
#ifndef GEM_TESTS_DECODER_SPECS_H_
#define GEM_TESTS_DECODER_SPECS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/fields/field_decoder.h"

namespace gem::testing {

// A serializer field's description, as much of it as the decoder choice
// reads.
struct Spec {
  const char* type;
  const char* encoder;
  std::optional<int32_t> bits = std::nullopt;
  std::optional<float> low = std::nullopt, high = std::nullopt;
  std::optional<int32_t> flags = std::nullopt;
  const char* name = "m_x";
};

std::vector<Spec> AllSpecs();
// The decoder SelectDecoder gives for `spec` (30 ticks a second).
FieldDecoder DecoderOf(const Spec& spec);

}  // namespace gem::testing

#endif  // GEM_TESTS_DECODER_SPECS_H_
