// Minimal protobuf wire reading, for the few hot envelopes whose one bytes
// field we want without copying it (CDemoPacket.data).
#ifndef GEM_CORE_PROTO_WIRE_H_
#define GEM_CORE_PROTO_WIRE_H_

#include <cstddef>
#include <cstdint>

namespace gem {

// Finds the last occurrence of length-delimited field `field_number` in a
// serialized message (protobuf semantics: the last one wins). Returns false
// if the message is malformed; *found tells whether the field is present.
bool FindBytesField(const uint8_t* data, size_t size, uint32_t field_number,
                    const uint8_t** out, size_t* out_size, bool* found);

}  // namespace gem

#endif  // GEM_CORE_PROTO_WIRE_H_
