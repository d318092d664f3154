#include "core/match/match_context.h"

namespace gem::match {

const Entity* MatchContext::ByHandle(std::optional<int64_t> handle) const {
  if (!handle || *handle < 0) return nullptr;
  const uint64_t h = static_cast<uint64_t>(*handle);
  const Entity* e = entities_->Get(static_cast<int32_t>(h & kHandleIndexMask));
  if (e == nullptr || e->serial != (h >> kHandleIndexBits)) return nullptr;
  return e;
}

std::string_view MatchContext::ClassName(int32_t class_id) const {
  const ClassInfo* info = schema_->GetClass(class_id);
  return info == nullptr ? std::string_view() : std::string_view(info->name);
}

std::string_view MatchContext::EntityName(const Entity& e) {
  const std::optional<int64_t> index = AsInt(name_index_.Read(e));
  if (!index) return {};
  const StringTable* names = tables_->Find("EntityNames");
  if (names == nullptr) return {};
  const StringTableEntry* entry = names->Find(*index);
  return entry == nullptr ? std::string_view() : std::string_view(entry->name);
}

}  // namespace gem::match
