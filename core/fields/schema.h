// Schema: the flattened serializers of a replay and the classes using them.
//
// DEM_SendTables carries a CSVCMsg_FlattenedSerializer: a symbol table,
// a list of field descriptions, and serializers that list field indexes.
// Each field gets a model that says what a field path does below it:
//   simple          the path ends here; the field's decoder reads the value
//   fixed array     (f, i): element i, decoded by the field's decoder
//   variable array  (f): the length (varint); (f, i): element i
//   fixed table     (f): a presence bit; (f, j): field j of the table's class
//   variable table  (f): the length; (f, i, j): field j of element i
// Names join levels with dots, array indexes as four digits
// ("m_vecPlayerTeamData.0003.m_iKills"). A level's name is the field's
// var_name, unless two fields of the serializer share it: each of those
// that has a send node (the embedded struct it was flattened out of) is
// then named "send_node.var_name" (CS2 pawns: "m_vecVelocity.m_vecX" and
// "m_vecViewOffset.m_vecX"); one without keeps its var_name. Should names
// still collide, each of those fields gains "~" and its position in the
// serializer. So every name is unique within its class, the same for
// every replay of one build, and a name unique before stays as it was.
// A field's short name joins the var_names alone: what names were before,
// which fields of one class can share.
//
// DEM_ClassInfo maps class ids to serializers by name.
#ifndef GEM_CORE_FIELDS_SCHEMA_H_
#define GEM_CORE_FIELDS_SCHEMA_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/fields/field_decoder.h"
#include "core/fields/field_path.h"
#include "core/fields/field_type.h"
#include "core/fields/serializer_message.h"
#include "core/util/status.h"

namespace gem {

struct FlattenedSerializerMessage;

enum class FieldModel : uint8_t {
  kSimple,
  kFixedArray,
  kFixedTable,
  kVariableArray,
  kVariableTable,
};
const char* FieldModelName(FieldModel model);

struct Serializer;

struct Field {
  std::string name;             // var_name
  // One number per distinct var_name of the message (equal names, equal
  // numbers), so that a serializer's names are compared without hashing.
  int32_t name_id = -1;
  std::string type_text;        // var_type as sent
  const FieldType* type = nullptr;
  std::string type_display;     // type->ToString(), as the reference tools show it
  std::string element_type_display;  // variable arrays: the generic type
  std::string encoder;          // var_encoder (after per-name rules)
  std::string send_node;
  std::string var_serializer;
  std::optional<int32_t> bit_count;
  std::optional<float> low_value;
  std::optional<float> high_value;
  std::optional<int32_t> encode_flags;
  FieldModel model = FieldModel::kSimple;
  const Serializer* serializer = nullptr;           // tables
  std::vector<const Serializer*> polymorphic_types;  // polymorphic pointers
  FieldDecoder decoder;        // simple fields, fixed array elements
  FieldDecoder base_decoder;   // a table's presence bit, an array's length
  FieldDecoder child_decoder;  // variable array elements
  // Its type (a variable array's: its elements') had no rule: the default
  // rule decodes it, or a rule SetUnknownTypeRule chose.
  bool unknown_type = false;
};

struct Serializer {
  std::string name;
  int32_t version = 0;
  std::vector<const Field*> fields;
  // Each field's name at this level (see above), parallel to `fields`;
  // empty when every field's name is its var_name, as it is in all but a
  // few serializers.
  std::vector<std::string> field_names;

  const std::string& FieldName(size_t i) const {
    return field_names.empty() ? fields[i]->name : field_names[i];
  }
};

struct ClassInfo {
  int32_t id = -1;
  std::string name;
  const Serializer* serializer = nullptr;
};

// What a complete field path resolves to.
struct ResolvedField {
  const Field* field = nullptr;        // the schema field owning the value
  const FieldDecoder* decoder = nullptr;
  std::string name;                    // dotted name
  std::string short_name;              // the var_names alone (see above)
  std::string type;                    // type display string
  bool is_length = false;              // an array's / variable table's length
  bool is_table_flag = false;          // a fixed table's presence flag
};

class Schema {
 public:
  // Builds fields and serializers. `tick_interval` feeds simulation-time
  // decoding. Corrupt on dangling symbol or field indexes.
  Status Build(const FlattenedSerializerMessage& msg, float tick_interval);
  // The replay's game's own type rules (see TypeRule), before Build.
  void SetGameTypeRules(std::span<const TypeRule> rules) {
    game_rules_.assign(rules.begin(), rules.end());
  }

  // Maps class ids to serializers (DEM_ClassInfo). Classes whose serializer
  // is unknown are kept with a null serializer (entities of them cannot be
  // decoded).
  void SetClass(int32_t id, std::string name);
  const ClassInfo* GetClass(int32_t id) const {
    return id >= 0 && static_cast<size_t>(id) < classes_.size() &&
                   classes_[id].id >= 0
               ? &classes_[id]
               : nullptr;
  }
  size_t class_slots() const { return classes_.size(); }

  const Serializer* FindSerializer(std::string_view name) const;
  bool built() const { return built_; }

  size_t field_count() const { return fields_.size(); }
  size_t serializer_count() const { return serializers_.size(); }
  // Fields whose type had no decoding rule (decoded by the default rule).
  const std::vector<std::string>& default_rule_types() const {
    return default_rule_types_;
  }
  // A rule for one of them: every field of type `type` that the default
  // rule decodes is decoded as if declared `as_type` (a type
  // SelectDecoder names, "float32", "int32", ..., with the field's own
  // encoder, bit count and range); an empty `as_type` restores the
  // default rule. Decoders change in place, so ClassFields' pointers to
  // them stay valid; `as_type` must not read strings (ClassFields keeps
  // whether a field does). Returns how many fields changed.
  size_t SetUnknownTypeRule(std::string_view type, std::string_view as_type);

  // Resolves `path` against `serializer`. `poly_choice(depth)` gives the
  // type index chosen by a polymorphic pointer whose path ends at `depth`
  // (only consulted for polymorphic fields). False when the path does not
  // exist in the schema.
  using PolyChoice = uint32_t (*)(const void* ctx, const FieldPath& prefix);
  // With `names` false, out->name, out->short_name and out->type are left
  // empty (the hot path needs only the decoder).
  static bool Resolve(const Serializer& serializer, const FieldPath& path,
                      ResolvedField* out, PolyChoice poly = nullptr,
                      const void* poly_ctx = nullptr, bool names = true);

  // The path of the simple field or fixed-table member called `name`
  // (names as above; no array elements), following each table's declared
  // serializer; false when there is none. For tools: linear in the fields.
  static bool FindSimplePath(const Serializer& serializer, std::string_view name,
                             FieldPath* path);

 private:
  struct BuildState;
  // Makes field `fi` of the message Build reads (its index in msg.fields).
  Status MakeField(BuildState* b, int32_t fi, Field** out);
  // What SelectDecoder reads of `f`, its declared base type included.
  DecoderSpec SpecOf(const Field& f) const;
  // The serializer `name` of `version`, else the name's latest version.
  const Serializer* Find(std::string_view name, int32_t version) const;

  std::deque<Field> fields_;
  std::deque<Serializer> serializers_;
  // Every version of each name, in order; keys view Serializer::name.
  std::unordered_map<std::string_view, std::vector<const Serializer*>> by_name_;
  std::unordered_map<std::string, std::unique_ptr<FieldType>> types_;
  std::vector<ClassInfo> classes_;
  std::vector<std::string> default_rule_types_;
  std::vector<TypeRule> game_rules_;
  bool built_ = false;
  float tick_interval_ = 1.0f / 30;
};

}  // namespace gem

#endif  // GEM_CORE_FIELDS_SCHEMA_H_
