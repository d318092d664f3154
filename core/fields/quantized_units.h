// The float a quantized field's units stand for. One definition, used by
// the replay decoder (core/fields/field_decoder.h) and by the storage codec
// (core/codec/chunk_codec.h), which stores quantized floats as their units
// and must give back the decoder's float bit for bit.
#ifndef GEM_CORE_FIELDS_QUANTIZED_UNITS_H_
#define GEM_CORE_FIELDS_QUANTIZED_UNITS_H_

#include <cstdint>

namespace gem {

// float32 throughout, in the order Valve's decoder uses.
inline float QuantizedFromUnits(float low, float high, float mul, uint32_t units) {
  return low + (high - low) * (static_cast<float>(units) * mul);
}

}  // namespace gem

#endif  // GEM_CORE_FIELDS_QUANTIZED_UNITS_H_
