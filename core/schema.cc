#include "core/schema.h"

#include <cstdio>

#include "proto/netmessages.pb.h"

namespace gem {
namespace {

// Types that are tables reached through a pointer even though their type
// string has no '*': components and the game-rules/manager singletons.
bool IsPointerType(std::string_view base) {
  static constexpr std::string_view kTypes[] = {
      "PhysicsRagdollPose_t",
      "CBodyComponent",
      "CBodyComponentBaseAnimating",
      "CBodyComponentBaseAnimatingOverlay",
      "CBodyComponentBaseModelEntity",
      "CBodyComponentDCGBaseAnimating",
      "CBodyComponentPoint",
      "CBodyComponentSkeletonInstance",
      "C_BodyComponentBaseAnimating",
      "C_BodyComponentBaseAnimatingOverlay",
      "CEntityIdentity",
      "CLightComponent",
      "CPhysicsComponent",
      "CRenderComponent",
      "CDOTAGamerules",
      "CDOTAGameManager",
      "CDOTASpectatorGraphManager",
      "CPlayerLocalData",
      "CPlayer_CameraServices",
      "CDOTAGameRules",
  };
  for (std::string_view t : kTypes) {
    if (base == t) return true;
  }
  return false;
}

bool IsVariableArrayType(std::string_view base) {
  return base == "CUtlVector" || base == "CNetworkUtlVectorBase" ||
         base == "CUtlVectorEmbeddedNetworkVar";
}

void AppendIndex(std::string* name, int32_t index) {
  char buf[16];
  std::snprintf(buf, sizeof buf, ".%04d", index);
  name->append(buf);
}

}  // namespace

const char* FieldModelName(FieldModel model) {
  switch (model) {
    case FieldModel::kSimple: return "simple";
    case FieldModel::kFixedArray: return "fixed-array";
    case FieldModel::kFixedTable: return "fixed-table";
    case FieldModel::kVariableArray: return "variable-array";
    case FieldModel::kVariableTable: return "variable-table";
  }
  return "unknown";
}

Status Schema::Build(const proto::CSVCMsg_FlattenedSerializer& msg,
                     float tick_interval) {
  const int symbol_count = msg.symbols_size();
  auto symbol = [&](int32_t index, std::string* out) -> bool {
    if (index < 0 || index >= symbol_count) return false;
    *out = msg.symbols(index);
    return true;
  };
  std::vector<Field*> by_index(msg.fields_size(), nullptr);
  std::unordered_map<std::string, const Serializer*> by_name_version;
  auto key = [](const std::string& name, int32_t version) {
    return name + "#" + std::to_string(version);
  };
  auto find = [&](const std::string& name, int32_t version) -> const Serializer* {
    auto it = by_name_version.find(key(name, version));
    if (it != by_name_version.end()) return it->second;
    auto jt = by_name_.find(name);
    return jt == by_name_.end() ? nullptr : jt->second;
  };

  for (const auto& s : msg.serializers()) {
    Serializer& ser = serializers_.emplace_back();
    if (!symbol(s.serializer_name_sym(), &ser.name)) {
      return Status::Corrupt("serializer name symbol " +
                             std::to_string(s.serializer_name_sym()) +
                             " is out of range");
    }
    ser.version = s.serializer_version();
    for (int32_t fi : s.fields_index()) {
      if (fi < 0 || fi >= msg.fields_size()) {
        return Status::Corrupt("serializer " + ser.name + " lists field " +
                               std::to_string(fi) + " of " +
                               std::to_string(msg.fields_size()));
      }
      if (by_index[fi] == nullptr) {
        const auto& pf = msg.fields(fi);
        Field& f = fields_.emplace_back();
        if (!symbol(pf.var_name_sym(), &f.name) ||
            !symbol(pf.var_type_sym(), &f.type_text)) {
          return Status::Corrupt("field " + std::to_string(fi) +
                                 " names a symbol out of range");
        }
        if (pf.has_var_encoder_sym()) symbol(pf.var_encoder_sym(), &f.encoder);
        if (pf.has_send_node_sym()) symbol(pf.send_node_sym(), &f.send_node);
        if (pf.has_var_serializer_sym()) {
          symbol(pf.var_serializer_sym(), &f.var_serializer);
        }
        if (pf.has_bit_count()) f.bit_count = pf.bit_count();
        if (pf.has_low_value()) f.low_value = pf.low_value();
        if (pf.has_high_value()) f.high_value = pf.high_value();
        if (pf.has_encode_flags()) f.encode_flags = pf.encode_flags();
        // Simulation and animation times travel as tick counts.
        if (f.name == "m_flSimulationTime" || f.name == "m_flAnimTime") {
          f.encoder = "simtime";
        }

        auto& type = types_[f.type_text];
        if (!type) type = ParseFieldType(f.type_text);
        f.type = type.get();
        f.type_display = f.type->ToString();
        if (f.type->generic) f.element_type_display = f.type->generic->ToString();

        if (pf.has_field_serializer_name_sym()) {
          std::string sname;
          if (!symbol(pf.field_serializer_name_sym(), &sname)) {
            return Status::Corrupt("field " + f.name +
                                   " names a serializer symbol out of range");
          }
          f.serializer = find(sname, pf.field_serializer_version());
          if (f.serializer == nullptr) {
            return Status::Corrupt("field " + f.name +
                                   " refers to unknown serializer " + sname);
          }
        }
        for (const auto& poly : pf.polymorphic_types()) {
          std::string pname;
          if (!symbol(poly.polymorphic_field_serializer_name_sym(), &pname)) {
            return Status::Corrupt("field " + f.name +
                                   " names a polymorphic symbol out of range");
          }
          const Serializer* p =
              find(pname, poly.polymorphic_field_serializer_version());
          if (p == nullptr) {
            return Status::Corrupt("field " + f.name +
                                   " refers to unknown polymorphic type " + pname);
          }
          f.polymorphic_types.push_back(p);
        }

        DecoderSpec spec;
        spec.base_type = f.type->base;
        spec.var_name = f.name;
        spec.encoder = f.encoder;
        spec.var_serializer = f.var_serializer;
        spec.bit_count = f.bit_count;
        spec.low_value = f.low_value;
        spec.high_value = f.high_value;
        spec.encode_flags = f.encode_flags;
        spec.tick_interval = tick_interval;

        FieldDecoder length;
        length.op = DecodeOp::kUVar32;
        if (f.serializer != nullptr) {
          if (f.type->pointer || IsPointerType(f.type->base) ||
              !f.polymorphic_types.empty()) {
            f.model = FieldModel::kFixedTable;
            f.base_decoder.op = f.polymorphic_types.empty()
                                    ? DecodeOp::kPointer
                                    : DecodeOp::kPolymorphicPointer;
          } else {
            f.model = FieldModel::kVariableTable;
            f.base_decoder = length;
          }
        } else if (f.type->count > 0 && f.type->base != "char") {
          f.model = FieldModel::kFixedArray;
          f.decoder = SelectDecoder(spec);
        } else if (IsVariableArrayType(f.type->base)) {
          f.model = FieldModel::kVariableArray;
          f.base_decoder = length;
          // Elements use the element type's rule with the field's encoding.
          if (f.type->generic) spec.base_type = f.type->generic->base;
          f.child_decoder = SelectDecoder(spec);
        } else {
          f.model = FieldModel::kSimple;
          f.decoder = SelectDecoder(spec);
        }
        if (f.decoder.default_rule || f.child_decoder.default_rule) {
          const std::string& t =
              f.model == FieldModel::kVariableArray && f.type->generic
                  ? f.type->generic->base
                  : f.type->base;
          bool seen = false;
          for (const auto& x : default_rule_types_) seen |= (x == t);
          if (!seen) default_rule_types_.push_back(t);
        }
        by_index[fi] = &f;
      }
      ser.fields.push_back(by_index[fi]);
    }
    by_name_version[key(ser.name, ser.version)] = &ser;
    by_name_[ser.name] = &ser;
  }
  built_ = true;
  // Classes announced before the serializers get theirs now.
  for (ClassInfo& c : classes_) {
    if (c.id >= 0 && c.serializer == nullptr) c.serializer = FindSerializer(c.name);
  }
  return Status::Ok();
}

void Schema::SetClass(int32_t id, std::string name) {
  if (id < 0 || id > (1 << 20)) return;
  if (static_cast<size_t>(id) >= classes_.size()) classes_.resize(id + 1);
  ClassInfo& c = classes_[id];
  c.id = id;
  c.name = std::move(name);
  c.serializer = FindSerializer(c.name);
}

const Serializer* Schema::FindSerializer(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : it->second;
}

bool Schema::Resolve(const Serializer& root, const FieldPath& path,
                     ResolvedField* out, PolyChoice poly,
                     const void* poly_ctx) {
  out->name.clear();
  out->is_length = false;
  out->is_table_flag = false;
  const Serializer* ser = &root;
  int pos = 0;
  for (;;) {
    int32_t index = path.index[pos];
    if (ser == nullptr || index < 0 ||
        static_cast<size_t>(index) >= ser->fields.size()) {
      return false;
    }
    const Field* f = ser->fields[index];
    if (!out->name.empty()) out->name.push_back('.');
    out->name += f->name;
    out->field = f;
    const bool ends_here = pos == path.last;
    switch (f->model) {
      case FieldModel::kSimple:
        if (!ends_here) return false;
        out->decoder = &f->decoder;
        out->type = f->type_display;
        return true;
      case FieldModel::kFixedArray:
        out->decoder = &f->decoder;
        out->type = f->type_display;
        if (ends_here) return true;
        if (pos + 1 != path.last) return false;
        if (path.index[pos + 1] < 0 ||
            (!f->type->count_unknown && path.index[pos + 1] >= f->type->count)) {
          return false;
        }
        AppendIndex(&out->name, path.index[pos + 1]);
        return true;
      case FieldModel::kFixedTable:
        if (ends_here) {
          out->decoder = &f->base_decoder;
          out->type = f->type_display;
          out->is_table_flag = true;
          return true;
        }
        if (!f->polymorphic_types.empty() && poly != nullptr) {
          FieldPath prefix = path;
          prefix.last = pos;
          uint32_t k = poly(poly_ctx, prefix);
          ser = k == 0 ? f->serializer
                       : k <= f->polymorphic_types.size() ? f->polymorphic_types[k - 1]
                                                          : nullptr;
        } else {
          ser = f->serializer;
        }
        pos += 1;
        break;
      case FieldModel::kVariableArray:
        if (ends_here) {
          out->decoder = &f->base_decoder;
          out->type = f->type_display;
          out->is_length = true;
          return true;
        }
        if (pos + 1 != path.last || path.index[pos + 1] < 0) return false;
        AppendIndex(&out->name, path.index[pos + 1]);
        out->decoder = &f->child_decoder;
        out->type = f->element_type_display;
        return true;
      case FieldModel::kVariableTable:
        if (ends_here) {
          out->decoder = &f->base_decoder;
          out->type = f->type_display;
          out->is_length = true;
          return true;
        }
        if (path.index[pos + 1] < 0) return false;
        AppendIndex(&out->name, path.index[pos + 1]);
        if (pos + 1 == path.last) {
          // The element itself carries no value of its own; the reference
          // decoders read it as the length encoding.
          out->decoder = &f->base_decoder;
          out->type = f->type_display;
          return true;
        }
        ser = f->serializer;
        pos += 2;
        break;
    }
  }
}

}  // namespace gem
