#include "tests/support/decoder_specs.h"

namespace gem::testing {

// Every rule SelectDecoder can give, with the encodings that change them.
std::vector<Spec> AllSpecs() {
  std::vector<Spec> s = {
      {"bool", ""},
      {"int8", ""},
      {"int32", ""},
      {"int64", ""},
      {"uint8", ""},
      {"uint32", ""},
      {"uint64", ""},
      {"uint64", "fixed64"},
      {"CStrongHandle", ""},
      {"MatchID_t", ""},
      {"CHandle", ""},
      {"Some_Enum_t", ""},
      {"float32", ""},
      {"float32", "", 32},
      {"float32", "coord"},
      {"float32", "runetime"},
      {"float32", "", std::nullopt, std::nullopt, std::nullopt, std::nullopt, "m_flSimulationTime"},
      {"GameTime_t", ""},
      {"CNetworkedQuantizedFloat", "", 13, 0.f, 128.f},
      {"float32", "", 8, -50.f, 500.f},
      {"float32", "", 14, -50.f, 500.f, 0},
      {"float32", "", 10, 0.f, 1.f, 1},   // round down
      {"float32", "", 10, -1.f, 1.f, 2},  // round up
      {"float32", "", 6, -1.f, 2.f, 4},   // encode zero
      {"float32", "", 4, 0.f, 100.f, 8},  // integers
      {"float32", "", 20, 0.f, 65536.f},
      {"Vector", ""},
      {"Vector", "coord"},
      {"Vector", "", 12, -4096.f, 4096.f},
      {"Vector", "normal"},
      {"Vector2D", ""},
      {"Vector4D", "", 10, 0.f, 1.f},
      {"QAngle", "", 8},
      {"QAngle", "qangle_pitch_yaw", 10},
      {"QAngle", "qangle"},
      {"QAngle", "qangle_precise"},
      {"char", ""},
      {"CUtlString", ""},
      {"CUtlBinaryBlock", ""},
      {"CBodyComponent", ""},
  };
  return s;
}

FieldDecoder DecoderOf(const Spec& spec) {
  DecoderSpec d;
  d.base_type = spec.type;
  d.encoder = spec.encoder;
  d.bit_count = spec.bits;
  d.low_value = spec.low;
  d.high_value = spec.high;
  d.encode_flags = spec.flags;
  d.var_name = spec.name;
  d.tick_interval = 1.0f / 30;
  return SelectDecoder(d);
}

}  // namespace gem::testing
