#include "core/fields/schema.h"

#include <iterator>


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

// ".0003": array indexes in names have at least four digits.
void AppendIndex(std::string* name, int32_t index) {
  char buf[16];
  int n = 0;
  uint32_t v = static_cast<uint32_t>(index);
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n < 4) buf[n++] = '0';
  name->push_back('.');
  while (n > 0) name->push_back(buf[--n]);
}

// Fills s->field_names by the rule in schema.h, when some var_name repeats.
// `seen` and `uses` are scratch indexed by Field::name_id; `seen` holds
// `stamp` for the ids this serializer counted, so neither is cleared.
void NameFields(Serializer* s, uint32_t stamp, std::vector<uint32_t>* seen,
                std::vector<uint32_t>* uses) {
  bool repeats = false;
  for (const Field* f : s->fields) {
    const size_t id = static_cast<size_t>(f->name_id);
    if ((*seen)[id] != stamp) {
      (*seen)[id] = stamp;
      (*uses)[id] = 0;
    }
    repeats |= ++(*uses)[id] > 1;
  }
  if (!repeats) return;
  const size_t n = s->fields.size();
  s->field_names.resize(n);
  auto used_again = [&](const Field* f) { return (*uses)[f->name_id] > 1; };
  for (size_t i = 0; i < n; ++i) {
    const Field* f = s->fields[i];
    std::string& name = s->field_names[i];
    name = f->name;
    if (used_again(f) && !f->send_node.empty()) name = f->send_node + "." + f->name;
  }
  // A send node can repeat, or spell another field's name: number those,
  // but never a field whose var_name was unique.
  std::unordered_map<std::string_view, int> names;
  for (const std::string& name : s->field_names) ++names[name];
  std::vector<size_t> clashing;
  for (size_t i = 0; i < n; ++i) {
    if (names[s->field_names[i]] > 1 && used_again(s->fields[i])) clashing.push_back(i);
  }
  for (size_t i : clashing) s->field_names[i] += "~" + std::to_string(i);
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

// What Build keeps while it runs: the message, the fields made so far by
// their index in it, and the scratch of naming (NameFields).
struct Schema::BuildState {
  BuildState(const FlattenedSerializerMessage& m, float interval)
      : msg(m), tick_interval(interval) {}
  const FlattenedSerializerMessage& msg;
  float tick_interval;
  std::vector<Field*> by_index;
  // Field::name_id: the first symbol spelling each var_name.
  std::unordered_map<std::string_view, int32_t> name_ids;
  std::vector<uint32_t> name_seen, name_uses;
  uint32_t stamp = 0;

  bool Symbol(std::optional<int32_t> index, std::string* out) const {
    if (!index.has_value() || *index < 0 || static_cast<size_t>(*index) >= msg.symbols.size()) {
      return false;
    }
    out->assign(msg.symbols[*index]);
    return true;
  }
};

const Serializer* Schema::Find(std::string_view name, int32_t version) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return nullptr;
  for (const Serializer* s : it->second) {
    if (s->version == version) return s;
  }
  return it->second.back();
}

Status Schema::Build(const FlattenedSerializerMessage& msg, float tick_interval) {
  BuildState b(msg, tick_interval);
  tick_interval_ = tick_interval;
  b.by_index.assign(msg.fields.size(), nullptr);
  b.name_seen.assign(msg.symbols.size(), 0);
  b.name_uses.assign(msg.symbols.size(), 0);
  const size_t field_count = msg.fields.size();
  for (const SerializerDesc& s : msg.serializers) {
    Serializer& ser = serializers_.emplace_back();
    if (!b.Symbol(s.name_sym, &ser.name)) {
      return Status::Corrupt("serializer name symbol " + std::to_string(s.name_sym) +
                             " is out of range");
    }
    ser.version = s.version;
    // A hundred thousand entries in a Dota replay, nearly all of fields
    // made already: kept to a load, a check and a store.
    ser.fields.resize(s.fields_count);
    const int32_t* indexes = msg.field_indexes.data() + s.fields_begin;
    for (uint32_t k = 0; k < s.fields_count; ++k) {
      const int32_t fi = indexes[k];
      Status made;
      if (fi < 0 || static_cast<size_t>(fi) >= field_count) {
        made = Status::Corrupt("serializer " + ser.name + " lists field " + std::to_string(fi) +
                               " of " + std::to_string(field_count));
      }
      Field* f = made.ok() ? b.by_index[fi] : nullptr;
      if (made.ok() && f == nullptr) {
        made = MakeField(&b, fi, &f);
        b.by_index[fi] = f;
      }
      if (!made.ok()) {
        ser.fields.resize(k);  // no null entries left behind
        return made;
      }
      ser.fields[k] = f;
    }
    NameFields(&ser, ++b.stamp, &b.name_seen, &b.name_uses);
    // Later versions of a name win lookups by name alone.
    by_name_[ser.name].push_back(&ser);
  }
  built_ = true;
  // Classes announced before the serializers get theirs now.
  for (ClassInfo& c : classes_) {
    if (c.id >= 0 && c.serializer == nullptr) c.serializer = FindSerializer(c.name);
  }
  return Status::Ok();
}

Status Schema::MakeField(BuildState* b, int32_t fi, Field** out) {
  const SerializerFieldDesc& pf = b->msg.fields[fi];
  Field& f = fields_.emplace_back();
  if (!b->Symbol(pf.var_name_sym, &f.name) || !b->Symbol(pf.var_type_sym, &f.type_text)) {
    return Status::Corrupt("field " + std::to_string(fi) + " names a symbol out of range");
  }
  f.name_id = b->name_ids.try_emplace(b->msg.symbols[*pf.var_name_sym], *pf.var_name_sym)
                  .first->second;
  b->Symbol(pf.var_encoder_sym, &f.encoder);
  b->Symbol(pf.send_node_sym, &f.send_node);
  b->Symbol(pf.var_serializer_sym, &f.var_serializer);
  f.bit_count = pf.bit_count;
  f.low_value = pf.low_value;
  f.high_value = pf.high_value;
  f.encode_flags = pf.encode_flags;
  // Simulation and animation times travel as tick counts.
  if (f.name == "m_flSimulationTime" || f.name == "m_flAnimTime") {
    f.encoder = "simtime";
  }

  auto& type = types_[f.type_text];
  if (!type) type = ParseFieldType(f.type_text);
  f.type = type.get();
  f.type_display = f.type->ToString();
  if (f.type->generic) f.element_type_display = f.type->generic->ToString();

  if (pf.field_serializer_name_sym.has_value()) {
    std::string sname;
    if (!b->Symbol(pf.field_serializer_name_sym, &sname)) {
      return Status::Corrupt("field " + f.name + " names a serializer symbol out of range");
    }
    f.serializer = Find(sname, pf.field_serializer_version);
    if (f.serializer == nullptr) {
      return Status::Corrupt("field " + f.name + " refers to unknown serializer " + sname);
    }
  }
  for (uint32_t p = 0; p < pf.polymorphic_count; ++p) {
    const auto& [name_sym, version] = b->msg.polymorphic[pf.polymorphic_begin + p];
    std::string pname;
    if (!b->Symbol(name_sym, &pname)) {
      return Status::Corrupt("field " + f.name + " names a polymorphic symbol out of range");
    }
    const Serializer* poly = Find(pname, version);
    if (poly == nullptr) {
      return Status::Corrupt("field " + f.name + " refers to unknown polymorphic type " + pname);
    }
    f.polymorphic_types.push_back(poly);
  }

  DecoderSpec spec = SpecOf(f);

  FieldDecoder length;
  length.op = DecodeOp::kUVar32;
  if (f.serializer != nullptr) {
    if (f.type->pointer || IsPointerType(f.type->base) || !f.polymorphic_types.empty()) {
      f.model = FieldModel::kFixedTable;
      f.base_decoder.op = f.polymorphic_types.empty() ? DecodeOp::kPointer
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
    f.unknown_type = true;
    const std::string& t = f.model == FieldModel::kVariableArray && f.type->generic
                               ? f.type->generic->base
                               : f.type->base;
    bool seen = false;
    for (const auto& x : default_rule_types_) seen |= (x == t);
    if (!seen) default_rule_types_.push_back(t);
  }
  *out = &f;
  return Status::Ok();
}

DecoderSpec Schema::SpecOf(const Field& f) const {
  DecoderSpec spec;
  spec.base_type = f.type->base;
  spec.game_rules = game_rules_;
  spec.var_name = f.name;
  spec.encoder = f.encoder;
  spec.var_serializer = f.var_serializer;
  spec.bit_count = f.bit_count;
  spec.low_value = f.low_value;
  spec.high_value = f.high_value;
  spec.encode_flags = f.encode_flags;
  spec.tick_interval = tick_interval_;
  return spec;
}

size_t Schema::SetUnknownTypeRule(std::string_view type, std::string_view as_type) {
  size_t changed = 0;
  for (Field& f : fields_) {
    if (!f.unknown_type) continue;
    const bool elements = f.model == FieldModel::kVariableArray;
    const std::string& base = elements && f.type->generic ? f.type->generic->base : f.type->base;
    if (base != type) continue;
    DecoderSpec spec = SpecOf(f);
    spec.base_type = as_type.empty() ? std::string_view(base) : as_type;
    (elements ? f.child_decoder : f.decoder) = SelectDecoder(spec);
    ++changed;
  }
  return changed;
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
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second.back();
}

bool Schema::Resolve(const Serializer& root, const FieldPath& path,
                     ResolvedField* out, PolyChoice poly,
                     const void* poly_ctx, bool names) {
  out->name.clear();
  out->short_name.clear();
  out->type.clear();
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
    if (names) {
      if (!out->name.empty()) {
        out->name.push_back('.');
        out->short_name.push_back('.');
      }
      out->name += ser->FieldName(index);
      out->short_name += f->name;
    }
    out->field = f;
    const bool ends_here = pos == path.last;
    switch (f->model) {
      case FieldModel::kSimple:
        if (!ends_here) return false;
        out->decoder = &f->decoder;
        if (names) out->type = f->type_display;
        return true;
      case FieldModel::kFixedArray:
        out->decoder = &f->decoder;
        if (names) out->type = f->type_display;
        if (ends_here) return true;
        if (pos + 1 != path.last) return false;
        if (path.index[pos + 1] < 0 ||
            (!f->type->count_unknown && path.index[pos + 1] >= f->type->count)) {
          return false;
        }
        if (names) {
          AppendIndex(&out->name, path.index[pos + 1]);
          AppendIndex(&out->short_name, path.index[pos + 1]);
        }
        return true;
      case FieldModel::kFixedTable:
        if (ends_here) {
          out->decoder = &f->base_decoder;
          if (names) out->type = f->type_display;
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
          if (names) out->type = f->type_display;
          out->is_length = true;
          return true;
        }
        if (pos + 1 != path.last || path.index[pos + 1] < 0) return false;
        if (names) {
          AppendIndex(&out->name, path.index[pos + 1]);
          AppendIndex(&out->short_name, path.index[pos + 1]);
        }
        out->decoder = &f->child_decoder;
        if (names) out->type = f->element_type_display;
        return true;
      case FieldModel::kVariableTable:
        if (ends_here) {
          out->decoder = &f->base_decoder;
          if (names) out->type = f->type_display;
          out->is_length = true;
          return true;
        }
        if (path.index[pos + 1] < 0) return false;
        if (names) {
          AppendIndex(&out->name, path.index[pos + 1]);
          AppendIndex(&out->short_name, path.index[pos + 1]);
        }
        if (pos + 1 == path.last) {
          // The element itself carries no value of its own; the reference
          // decoders read it as the length encoding.
          out->decoder = &f->base_decoder;
          if (names) out->type = f->type_display;
          return true;
        }
        ser = f->serializer;
        pos += 2;
        break;
    }
  }
}

bool Schema::FindSimplePath(const Serializer& serializer, std::string_view name,
                            FieldPath* path) {
  path->last = -1;
  const Serializer* s = &serializer;
  while (s != nullptr && path->last + 1 < static_cast<int>(std::size(path->index))) {
    // Names at one level are unique, but one can begin another's
    // ("m_vecVelocity" a table, "m_vecVelocity.m_vecX" a field): the
    // whole name first, else the longest table name it starts with.
    int32_t found = -1;
    size_t found_length = 0;
    for (size_t i = 0; i < s->fields.size(); ++i) {
      const std::string& n = s->FieldName(i);
      if (n == name) {
        found = static_cast<int32_t>(i);
        found_length = n.size();
        break;
      }
      if (s->fields[i]->model == FieldModel::kFixedTable && name.size() > n.size() &&
          name.compare(0, n.size(), n) == 0 && name[n.size()] == '.' &&
          n.size() > found_length) {
        found = static_cast<int32_t>(i);
        found_length = n.size();
      }
    }
    if (found < 0) break;
    path->index[++path->last] = found;
    const Field* f = s->fields[found];
    if (found_length == name.size()) {
      if (f->model == FieldModel::kSimple) return true;
      break;
    }
    s = f->serializer;
    name = name.substr(found_length + 1);
  }
  path->last = -1;
  return false;
}

}  // namespace gem
