// Field encoders: the inverse of field_decoder.h, for tools that write
// replays (gem-synth). EncodeField(d, v) writes the bits that d.Decode()
// reads back as v. Values a decoder cannot represent exactly (a float
// between two quantization steps, a coordinate finer than 1/32) are
// written as the nearest representable value; RepresentableValue() tells
// which value that is.
#ifndef GEM_CORE_FIELDS_FIELD_ENCODER_H_
#define GEM_CORE_FIELDS_FIELD_ENCODER_H_

#include "core/util/bit_writer.h"
#include "core/fields/field_decoder.h"
#include "core/fields/value.h"

namespace gem {

// Writes `value` as `decoder` reads it. The value's kind must be the one
// the decoder produces (kUint for unsigned varints, a vector of the
// decoder's component count, ...); false when it is not.
bool EncodeField(const FieldDecoder& decoder, const Value& value, BitWriter* w);

// The value a decoder gives back for `value` (rounded to what the encoding
// can hold).
Value RepresentableValue(const FieldDecoder& decoder, const Value& value);

// One float with `decoder`'s float encoding.
void EncodeFloat(const FieldDecoder& decoder, float value, BitWriter* w);

}  // namespace gem

#endif  // GEM_CORE_FIELDS_FIELD_ENCODER_H_
