#include "core/fields/class_fields.h"

#include <algorithm>
#include <unordered_set>

namespace gem {
namespace {

bool HasPolymorphic(const Serializer* s, std::unordered_set<const Serializer*>* seen) {
  if (s == nullptr || !seen->insert(s).second) return false;
  for (const Field* f : s->fields) {
    if (!f->polymorphic_types.empty()) return true;
    if (HasPolymorphic(f->serializer, seen)) return true;
  }
  return false;
}

}  // namespace

ClassFields::ClassFields(int32_t class_id, const Serializer* serializer)
    : class_id_(class_id), serializer_(serializer) {
  std::unordered_set<const Serializer*> seen;
  polymorphic_ = HasPolymorphic(serializer, &seen);
  if (polymorphic_) {  // the only classes that key fields by hash
    keys_.resize(256);
    ids_.assign(256, 0);
    mask_ = 255;
  }
  if (serializer != nullptr) {
    // Baselines register about one field per schema field of the class.
    metas_.reserve(serializer->fields.size());
    hot_.reserve(serializer->fields.size());
    layout_.Reserve(serializer->fields.size());
  }
}

bool ClassFields::MakeKey(const FieldPath& path, uint64_t salt, Key* key) {
  // Up to 7 indexes of 16 bits each and the depth fit in 128 bits.
  if (path.last >= 7) return false;
  uint64_t lo = 0, hi = 0;
  for (int i = 0; i <= path.last; ++i) {
    uint32_t v = static_cast<uint32_t>(path.index[i]);
    if (v > 0xFFFF) return false;
    if (i < 4) {
      lo |= uint64_t{v} << (16 * i);
    } else {
      hi |= uint64_t{v} << (16 * (i - 4));
    }
  }
  hi |= uint64_t(path.last) << 48;
  hi ^= salt << 52;
  key->lo = lo;
  key->hi = hi;
  return true;
}

uint32_t ClassFields::Find(const Key& key, uint64_t hash) const {
  for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
    if (ids_[i] == 0) return kInvalid;
    if (keys_[i] == key) return ids_[i] - 1;
  }
}

void ClassFields::Insert(const Key& key, uint64_t hash, uint32_t id) {
  if ((metas_.size() + 1) * 2 > ids_.size()) {
    // Grow to keep the load under one half.
    std::vector<Key> old_keys = std::move(keys_);
    std::vector<uint32_t> old_ids = std::move(ids_);
    keys_.assign(old_keys.size() * 2, Key());
    ids_.assign(old_ids.size() * 2, 0);
    mask_ = ids_.size() - 1;
    for (size_t i = 0; i < old_ids.size(); ++i) {
      if (old_ids[i] == 0) continue;
      size_t j = Hash(old_keys[i]) & mask_;
      while (ids_[j] != 0) j = (j + 1) & mask_;
      keys_[j] = old_keys[i];
      ids_[j] = old_ids[i];
    }
  }
  size_t j = hash & mask_;
  while (ids_[j] != 0) j = (j + 1) & mask_;
  keys_[j] = key;
  ids_[j] = id + 1;
}

uint32_t ClassFields::LookupSlow(const FieldPath& path, bool* is_new,
                                 Schema::PolyChoice poly, const void* poly_ctx) {
  *is_new = false;
  if (serializer_ == nullptr) return kInvalid;
  if (!polymorphic_) {
    // Not seen: the layout's slot is the only index.
    if (!Schema::Resolve(*serializer_, path, &scratch_, nullptr, nullptr, false)) {
      return kInvalid;
    }
    const uint32_t slot = layout_.Intern(path);
    if (slot == FieldLayout::kNone) return kInvalid;
    *is_new = true;
    return Register(path, slot, Key(), 0, /*in_hash=*/false);
  }
  // Resolve first: the id depends on which types the pointers hold. The
  // field chosen for this path is folded into the key. Names depend on the
  // choice too: polymorphic classes are described at once.
  if (!Schema::Resolve(*serializer_, path, &scratch_, poly, poly_ctx, true)) {
    return kInvalid;
  }
  const uint64_t salt = reinterpret_cast<uintptr_t>(scratch_.field) & 0xFFF;
  Key key;
  if (!MakeKey(path, salt, &key)) return kInvalid;
  uint64_t hash = Hash(key);
  uint32_t id = Find(key, hash);
  bool key_taken = id != kInvalid;
  if (key_taken) {
    if (metas_[id].field == scratch_.field) return id;
    // A salt collision between two polymorphic choices: look further.
    const uint32_t slot = layout_.Find(path);
    for (const FieldMeta& m : metas_) {
      if (m.field == scratch_.field && hot_[m.id].slot == slot) return m.id;
    }
  }
  const uint32_t slot = layout_.Intern(path);
  if (slot == FieldLayout::kNone) return kInvalid;
  *is_new = true;
  return Register(path, slot, key, hash, !key_taken);
}

// Adds the field `scratch_` resolved `path` to.
uint32_t ClassFields::Register(const FieldPath& path, uint32_t slot, const Key& key,
                               uint64_t hash, bool in_hash) {
  FieldMeta meta;
  meta.id = static_cast<uint32_t>(metas_.size());
  if (polymorphic_) {
    if (texts_.size() <= meta.id) texts_.resize(meta.id + 1);
    texts_[meta.id] = std::make_unique<FieldText>(
        FieldText{path.ToString(), scratch_.name, scratch_.type, scratch_.short_name});
  }
  meta.field = scratch_.field;
  meta.decoder = scratch_.decoder;
  meta.is_length = scratch_.is_length;
  meta.is_table_flag = scratch_.is_table_flag;
  metas_.push_back(std::move(meta));
  const bool plain = !polymorphic_ && !scratch_.is_length && scratch_.decoder != nullptr &&
                     !scratch_.decoder->reads_strings();
  const uint32_t new_id = metas_.back().id;
  hot_.push_back({scratch_.decoder, slot, scratch_.is_length, plain});
  if (polymorphic_) {
    if (in_hash) Insert(key, hash, new_id);
  } else {
    if (slot >= by_slot_.size()) {
      by_slot_.resize(layout_.size(), SlotField{nullptr, kInvalid, false, false});
    }
    by_slot_[slot] = {scratch_.decoder, new_id, scratch_.is_length, plain};
  }
  return new_id;
}

void ClassFields::Describe(uint32_t id) const {
  const FieldPath p = path(id);
  auto text = std::make_unique<FieldText>();
  ResolvedField r;
  if (Schema::Resolve(*serializer_, p, &r, nullptr, nullptr, true)) {
    text->name = std::move(r.name);
    text->type = std::move(r.type);
    text->short_name = std::move(r.short_name);
  }
  text->path = p.ToString();
  if (texts_.size() <= id) texts_.resize(metas_.size());
  texts_[id] = std::move(text);
}

uint32_t ClassFields::FindByName(std::string_view name) const {
  for (uint32_t id = 0; id < metas_.size(); ++id) {
    if (text(id).name == name) return id;
  }
  return kInvalid;
}

}  // namespace gem
