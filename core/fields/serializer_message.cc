#include "core/fields/serializer_message.h"

#include "core/util/proto_wire.h"

namespace gem {
namespace {

bool ParseField(std::string_view bytes, FlattenedSerializerMessage* msg,
                SerializerFieldDesc* f) {
  WireReader r(bytes);
  f->polymorphic_begin = static_cast<uint32_t>(msg->polymorphic.size());
  while (r.Next()) {
    switch (r.field()) {
      case 1: f->var_type_sym = r.int32(); break;
      case 2: f->var_name_sym = r.int32(); break;
      case 3: f->bit_count = r.int32(); break;
      case 4: f->low_value = r.fixed32_as_float(); break;
      case 5: f->high_value = r.fixed32_as_float(); break;
      case 6: f->encode_flags = r.int32(); break;
      case 7: f->field_serializer_name_sym = r.int32(); break;
      case 8: f->field_serializer_version = r.int32(); break;
      case 9: f->send_node_sym = r.int32(); break;
      case 10: f->var_encoder_sym = r.int32(); break;
      case 11: {
        WireReader p(r.bytes());
        int32_t name = -1, version = 0;
        while (p.Next()) {
          if (p.field() == 1) name = p.int32();
          if (p.field() == 2) version = p.int32();
        }
        if (!p.ok()) return false;
        msg->polymorphic.emplace_back(name, version);
        ++f->polymorphic_count;
        break;
      }
      case 12: f->var_serializer_sym = r.int32(); break;
      default: break;
    }
  }
  return r.ok();
}

bool ParseSerializer(std::string_view bytes, FlattenedSerializerMessage* msg,
                     SerializerDesc* s) {
  WireReader r(bytes);
  s->fields_begin = static_cast<uint32_t>(msg->field_indexes.size());
  while (r.Next()) {
    switch (r.field()) {
      case 1: s->name_sym = r.int32(); break;
      case 2: s->version = r.int32(); break;
      case 3:
        if (r.wire_type() == 2) {  // packed
          std::string_view rest = r.bytes();
          size_t pos = 0;
          while (pos < rest.size()) {
            uint64_t v = 0;
            unsigned shift = 0;
            for (;;) {
              if (pos >= rest.size() || shift >= 64) return false;
              uint8_t b = static_cast<uint8_t>(rest[pos++]);
              v |= static_cast<uint64_t>(b & 0x7F) << shift;
              shift += 7;
              if ((b & 0x80) == 0) break;
            }
            msg->field_indexes.push_back(static_cast<int32_t>(v));
          }
        } else {
          msg->field_indexes.push_back(r.int32());
          r.TakeVarintRun(3, &msg->field_indexes);
        }
        break;
      default: break;
    }
  }
  s->fields_count = static_cast<uint32_t>(msg->field_indexes.size()) - s->fields_begin;
  return r.ok();
}

}  // namespace

bool ParseFlattenedSerializer(std::string_view bytes, FlattenedSerializerMessage* out) {
  *out = FlattenedSerializerMessage();
  WireReader r(bytes);
  while (r.Next()) {
    if (r.wire_type() != 2) continue;
    switch (r.field()) {
      case 1:
        out->serializers.emplace_back();
        if (!ParseSerializer(r.bytes(), out, &out->serializers.back())) return false;
        break;
      case 2:
        out->symbols.push_back(r.bytes());
        break;
      case 3:
        out->fields.emplace_back();
        if (!ParseField(r.bytes(), out, &out->fields.back())) return false;
        break;
      default:
        break;
    }
  }
  return r.ok();
}

}  // namespace gem
