// ClassFields: the fields of one class that replays actually use, by id.
//
// Every distinct field path seen on entities of a class gets a small dense
// id (0, 1, 2, ... in order of first appearance) and a FieldMeta with its
// resolved name, type and decoder. Looking a path up is one hash probe;
// resolution through the schema happens once per (class, path). Sinks refer
// to fields by (class id, field id).
#ifndef GEM_CORE_CLASS_FIELDS_H_
#define GEM_CORE_CLASS_FIELDS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/field_path.h"
#include "core/schema.h"

namespace gem {

struct FieldMeta {
  uint32_t id = 0;
  FieldPath path;
  const Field* field = nullptr;
  const FieldDecoder* decoder = nullptr;
  bool is_length = false;
  bool is_table_flag = false;
};

// A field's text, built on request (parsing alone never formats names).
struct FieldText {
  std::string path;  // "0/3/3"
  std::string name;  // "m_vecPlayerTeamData.0003.m_iKills"
  std::string type;  // "int32"
};

class ClassFields {
 public:
  static constexpr uint32_t kInvalid = UINT32_MAX;

  ClassFields(int32_t class_id, const Serializer* serializer);

  int32_t class_id() const { return class_id_; }
  const Serializer* serializer() const { return serializer_; }
  // Whether some field below this class is a polymorphic pointer; paths of
  // such classes are resolved against the entity's current choice.
  bool polymorphic() const { return polymorphic_; }

  // The id of `path`, registering it on first sight; kInvalid when the path
  // does not exist in the schema. `*is_new` tells the caller to announce it.
  // `poly`/`poly_ctx` supply polymorphic choices (see Schema::Resolve).
  uint32_t Lookup(const FieldPath& path, bool* is_new,
                  Schema::PolyChoice poly = nullptr,
                  const void* poly_ctx = nullptr) {
    // Most paths are one index deep: a direct table answers those.
    if (path.last == 0 && !polymorphic_) {
      uint32_t i = static_cast<uint32_t>(path.index[0]);
      if (i < top_.size() && top_[i] != 0) {
        *is_new = false;
        return top_[i] - 1;
      }
    }
    return LookupSlow(path, is_new, poly, poly_ctx);
  }

  size_t size() const { return metas_.size(); }
  const FieldMeta& meta(uint32_t id) const { return metas_[id]; }
  // The field's name, type and path as text (formatted on first request).
  const FieldText& text(uint32_t id) const {
    if (id >= texts_.size() || !texts_[id]) Describe(id);
    return *texts_[id];
  }
  // What decoding needs, without text.
  const FieldDecoder* decoder(uint32_t id) const { return hot_[id].decoder; }
  bool is_length(uint32_t id) const { return hot_[id].is_length; }
  const FieldPath& path(uint32_t id) const { return metas_[id].path; }

  // Finds a field id by dotted name among registered fields (linear in the
  // number of registered fields; for tools and tests, not the hot path).
  uint32_t FindByName(std::string_view name) const;

 private:
  struct Key {
    uint64_t lo = 0;
    uint64_t hi = 0;
    bool operator==(const Key& o) const { return lo == o.lo && hi == o.hi; }
  };
  static bool MakeKey(const FieldPath& path, uint64_t salt, Key* key);
  static uint64_t Hash(const Key& k) {
    uint64_t h = k.lo * 0x9E3779B97F4A7C15ull ^ (k.hi + 0x632BE59BD9B4E019ull);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
  }
  uint32_t LookupSlow(const FieldPath& path, bool* is_new,
                      Schema::PolyChoice poly, const void* poly_ctx);
  uint32_t Register(const FieldPath& path, const Key& key, uint64_t hash, bool in_hash);
  uint32_t Find(const Key& key, uint64_t hash) const;
  void Describe(uint32_t id) const;
  void Insert(const Key& key, uint64_t hash, uint32_t id);

  int32_t class_id_;
  const Serializer* serializer_;
  bool polymorphic_ = false;
  std::vector<FieldMeta> metas_;
  mutable std::vector<std::unique_ptr<FieldText>> texts_;
  // What decoding reads per value, packed apart from the descriptions.
  struct Hot {
    const FieldDecoder* decoder;
    bool is_length;
  };
  std::vector<Hot> hot_;
  std::vector<uint32_t> top_;  // depth-1 paths: id + 1 by index (0 = unknown)
  // Open addressing: parallel arrays, power-of-two size, id+1 (0 = empty).
  std::vector<Key> keys_;
  std::vector<uint32_t> ids_;
  size_t mask_ = 0;
  ResolvedField scratch_;
};

}  // namespace gem

#endif  // GEM_CORE_CLASS_FIELDS_H_
