// A zero-copy view of CSVCMsg_FlattenedSerializer (see proto/netmessages.proto):
// the symbol table, the field descriptions and the serializers' field lists.
// Strings are views into the message bytes, which must outlive the view.
#ifndef GEM_CORE_FIELDS_SERIALIZER_MESSAGE_H_
#define GEM_CORE_FIELDS_SERIALIZER_MESSAGE_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gem {

struct SerializerFieldDesc {
  std::optional<int32_t> var_type_sym;               // 1
  std::optional<int32_t> var_name_sym;               // 2
  std::optional<int32_t> bit_count;                  // 3
  std::optional<float> low_value;                    // 4
  std::optional<float> high_value;                   // 5
  std::optional<int32_t> encode_flags;               // 6
  std::optional<int32_t> field_serializer_name_sym;  // 7
  int32_t field_serializer_version = 0;              // 8
  std::optional<int32_t> send_node_sym;              // 9
  std::optional<int32_t> var_encoder_sym;            // 10
  uint32_t polymorphic_begin = 0;                    // 11, in `polymorphic`
  uint32_t polymorphic_count = 0;
  std::optional<int32_t> var_serializer_sym;         // 12
};

struct SerializerDesc {
  int32_t name_sym = -1;   // 1
  int32_t version = 0;     // 2
  uint32_t fields_begin = 0;  // 3 (repeated), in `field_indexes`
  uint32_t fields_count = 0;
};

struct FlattenedSerializerMessage {
  std::vector<std::string_view> symbols;
  std::vector<SerializerFieldDesc> fields;
  std::vector<SerializerDesc> serializers;
  std::vector<int32_t> field_indexes;
  std::vector<std::pair<int32_t, int32_t>> polymorphic;  // (name sym, version)
};

// False when the bytes are not a well-formed message.
bool ParseFlattenedSerializer(std::string_view bytes, FlattenedSerializerMessage* out);

}  // namespace gem

#endif  // GEM_CORE_FIELDS_SERIALIZER_MESSAGE_H_
