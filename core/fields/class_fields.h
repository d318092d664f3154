// ClassFields: the fields of one class that replays actually use, by id.
//
// Every distinct field path seen on entities of a class gets a small dense
// id (0, 1, 2, ... in order of first appearance) and a FieldMeta with its
// resolved name, type and decoder, and a slot in the class's FieldLayout.
// Looking a path up walks the layout's trie; resolution through the schema
// happens once per (class, path). In a class with polymorphic pointers a
// path's field depends on the type chosen, so there a field is keyed by
// (path, chosen field) and resolved on every lookup. Sinks refer
// to fields by (class id, field id).
#ifndef GEM_CORE_FIELDS_CLASS_FIELDS_H_
#define GEM_CORE_FIELDS_CLASS_FIELDS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/fields/field_layout.h"
#include "core/fields/field_path.h"
#include "core/fields/schema.h"

namespace gem {

struct FieldMeta {
  uint32_t id = 0;
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
  std::string short_name;  // the var_names alone (schema.h): "m_vecX"
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
    // A path seen before is a walk of the layout's trie (one array load a
    // level) and a table load; only new paths resolve through the schema.
    if (!polymorphic_) {
      const uint32_t slot = layout_.Find(path);
      if (slot < by_slot_.size() && by_slot_[slot].id != kInvalid) {
        *is_new = false;
        return by_slot_[slot].id;
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

  // What the entity decoder reads for each value, in one record: the
  // field's decoder, its slot, and how its value is stored: `plain` when
  // it may go to its slot by FieldState::SetPlain (not a length, its
  // decoder reads no string, and its slot is its own: a class without
  // polymorphic pointers, where a path is one field). (A copy of the
  // decoder here, not a pointer to the schema's, measured the same.)
  struct Decoding {
    const FieldDecoder* decoder;
    uint32_t slot;
    bool is_length;
    bool plain;
  };
  const Decoding& decoding(uint32_t id) const { return hot_[id]; }
  // What decoding reads for the field at a layout slot: its Decoding, with
  // its id where the slot was, kept by slot in 16 bytes. The decoder reads
  // it for every value; two loads in a row (id by slot, then record by id)
  // were a quarter of its stalls.
  struct SlotField {
    const FieldDecoder* decoder;
    uint32_t id;  // kInvalid: none (a prefix, or not registered yet)
    bool is_length;
    bool plain;
  };
  // The field at layout slot `slot`, or null: kNone, a prefix, or not
  // registered yet, so that the caller looks its path up. Classes without
  // polymorphic pointers.
  const SlotField* DecodingAt(uint32_t slot) const {
    if (slot >= by_slot_.size() || by_slot_[slot].id == kInvalid) return nullptr;
    return &by_slot_[slot];
  }
  // The field's slot in layout(): where entities' states keep its value.
  uint32_t slot(uint32_t id) const { return hot_[id].slot; }
  // The field's path (kept once, in the layout).
  FieldPath path(uint32_t id) const { return layout_.path(hot_[id].slot); }
  // The paths this class's entities have used (see field_layout.h).
  const FieldLayout& layout() const { return layout_; }

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
  uint32_t Register(const FieldPath& path, uint32_t slot, const Key& key, uint64_t hash,
                    bool in_hash);
  uint32_t Find(const Key& key, uint64_t hash) const;
  void Describe(uint32_t id) const;
  void Insert(const Key& key, uint64_t hash, uint32_t id);

  int32_t class_id_;
  const Serializer* serializer_;
  bool polymorphic_ = false;
  std::vector<FieldMeta> metas_;
  mutable std::vector<std::unique_ptr<FieldText>> texts_;
  // What decoding reads per value, packed apart from the descriptions.
  std::vector<Decoding> hot_;
  FieldLayout layout_;
  // The field by layout slot (id kInvalid: a prefix, or not resolved
  // yet), from hot_; for classes without polymorphic pointers, where a
  // path is one field.
  std::vector<SlotField> by_slot_;
  // Polymorphic classes: (path, chosen field) keys, open addressing in
  // parallel arrays, power-of-two size, id+1 (0 = empty).
  std::vector<Key> keys_;
  std::vector<uint32_t> ids_;
  size_t mask_ = 0;
  ResolvedField scratch_;
};

}  // namespace gem

#endif  // GEM_CORE_FIELDS_CLASS_FIELDS_H_
