#include "tools/dump/entity_json.h"

namespace gem::dump {
namespace {

class Lister {
 public:
  Lister(const Serializer& root, const FieldState& state, const FieldLayout& layout,
         std::string* out)
      : root_(root), state_(state), layout_(layout), out_(out) {}

  void Run() {
    FieldPath fp;
    fp.last = 0;
    List(&root_, &fp);
  }

 private:
  void Emit(const FieldPath& fp) {
    ResolvedField r;
    if (!Schema::Resolve(root_, fp, &r, PolyChoice, this)) return;
    if (!first_) out_->push_back(',');
    first_ = false;
    out_->append("{\"path\":\"");
    out_->append(fp.ToString());
    out_->append("\",\"name\":");
    AppendJsonString(r.name, out_);
    out_->append(",\"type\":");
    AppendJsonString(r.type, out_);
    if (!r.field->encoder.empty()) {
      out_->append(",\"enc\":");
      AppendJsonString(r.field->encoder, out_);
    }
    if (r.field->bit_count.has_value() && *r.field->bit_count != 0) {
      out_->append(",\"bits\":");
      out_->append(std::to_string(*r.field->bit_count));
    }
    out_->append(",\"v\":");
    Get(fp).AppendJson(out_);
    out_->push_back('}');
  }

  // fp.index[fp.last] is the slot being listed at this level.
  void List(const Serializer* ser, FieldPath* fp) {
    for (size_t i = 0; i < ser->fields.size(); ++i) {
      const Field* f = ser->fields[i];
      fp->index[fp->last] = static_cast<int32_t>(i);
      switch (f->model) {
        case FieldModel::kSimple:
          Emit(*fp);
          break;
        case FieldModel::kFixedArray:
        case FieldModel::kVariableArray: {
          uint32_t n = Elements(*fp);
          if (n == 0) break;
          FieldPath child = *fp;
          child.last += 1;
          for (uint32_t j = 0; j < n; ++j) {
            child.index[child.last] = static_cast<int32_t>(j);
            if (HasFields(child)) continue;
            if (!Get(child).is_none()) Emit(child);
          }
          break;
        }
        case FieldModel::kFixedTable: {
          if (!HasFields(*fp)) break;
          const Serializer* sub = f->serializer;
          if (!f->polymorphic_types.empty()) {
            uint32_t k = PolyChoice(this, *fp);
            sub = k == 0 ? f->serializer
                         : k <= f->polymorphic_types.size() ? f->polymorphic_types[k - 1]
                                                            : nullptr;
          }
          if (sub == nullptr) break;
          FieldPath child = *fp;
          child.last += 1;
          List(sub, &child);
          break;
        }
        case FieldModel::kVariableTable: {
          uint32_t n = Elements(*fp);
          if (n == 0) break;
          FieldPath element = *fp;
          element.last += 1;
          for (uint32_t j = 0; j < n; ++j) {
            element.index[element.last] = static_cast<int32_t>(j);
            if (!HasFields(element)) continue;
            FieldPath child = element;
            child.last += 1;
            List(f->serializer, &child);
          }
          break;
        }
      }
    }
  }

  Value Get(const FieldPath& fp) const { return state_.Get(layout_, fp).value; }
  // Whether a table or element has values below it.
  bool HasFields(const FieldPath& fp) const {
    return state_.AnyBelow(layout_, layout_.Find(fp));
  }
  // How many elements of an array to look at (all the class ever used).
  uint32_t Elements(const FieldPath& fp) const {
    const uint32_t slot = layout_.Find(fp);
    return slot == FieldLayout::kNone ? 0 : layout_.child_count(slot);
  }
  static uint32_t PolyChoice(const void* ctx, const FieldPath& prefix) {
    Value v = static_cast<const Lister*>(ctx)->Get(prefix);
    return v.kind == ValueKind::kUint ? static_cast<uint32_t>(v.u) : 0;
  }

  const Serializer& root_;
  const FieldState& state_;
  const FieldLayout& layout_;
  std::string* out_;
  bool first_ = true;
};

}  // namespace

void AppendEntityJson(const Schema& schema, const Entity& entity,
                      uint32_t req_tick, uint32_t tick, uint32_t net_tick,
                      std::string* out) {
  const ClassInfo* info = schema.GetClass(entity.class_id);
  out->append("{\"req_tick\":" + std::to_string(req_tick) +
              ",\"tick\":" + std::to_string(tick) +
              ",\"net_tick\":" + std::to_string(net_tick) +
              ",\"index\":" + std::to_string(entity.index) +
              ",\"serial\":" + std::to_string(entity.serial) + ",\"class\":");
  AppendJsonString(info != nullptr ? info->name : std::string(), out);
  out->append(",\"fields\":[");
  if (info != nullptr && info->serializer != nullptr) {
    Lister(*info->serializer, entity.state, entity.fields->layout(), out).Run();
  }
  out->append("]}\n");
}

}  // namespace gem::dump
