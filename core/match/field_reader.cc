#include "core/match/field_reader.h"

namespace gem::match {

FieldReader::PerClass& FieldReader::Of(int32_t class_id) {
  if (class_id >= kDense) return sparse_[class_id];
  const size_t c = static_cast<size_t>(class_id);
  if (c >= classes_.size()) classes_.resize(c + 1);
  return classes_[c];
}

uint32_t FieldReader::IdSlow(const Entity& e) {
  const ClassFields* fields = e.fields;
  if (fields == nullptr || e.class_id < 0) return ClassFields::kInvalid;
  PerClass& pc = Of(e.class_id);
  if (pc.id != ClassFields::kInvalid) return pc.id;
  const uint32_t size = static_cast<uint32_t>(fields->size());
  if (pc.checked >= size) return ClassFields::kInvalid;
  // Only the fields registered since the last look are compared.
  for (const std::string& name : names_) {
    for (uint32_t id = pc.checked; id < size; ++id) {
      if (fields->text(id).name == name) {
        pc.id = id;
        return id;
      }
    }
  }
  pc.checked = size;
  return ClassFields::kInvalid;
}

}  // namespace gem::match
