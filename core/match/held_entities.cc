#include "core/match/held_entities.h"

#include <algorithm>
#include <bit>

namespace gem::match {
namespace {

// A handle whose index bits are all set names no entity: an empty slot.
constexpr int64_t kIndexMask = kHandleIndexMask;

}  // namespace

TableSpec HeldTableSpec(const char* name, const char* comment, const HeldColumnDocs& docs) {
  TableSpec t;
  t.name = name;
  t.comment = comment;
  t.auto_id = true;
  t.columns = {
      {"tick", "INTEGER NOT NULL", "the tick the position changed at"},
      {"game_time", "REAL", "the game clock then, seconds (negative before the start)"},
      {"slot", "INTEGER NOT NULL", "the player (players.slot) whose hero holds it"},
      {"position", "INTEGER NOT NULL", docs.position},
      {docs.held, "TEXT",
       std::string(docs.held_doc) + "; NULL when the position is emptied"},
      {docs.value, "INTEGER",
       std::string(docs.value_doc) + "; NULL when the position is emptied"},
      {"entity", "INTEGER",
       "the held entity (entities.entity), whose fields gem_state reads; NULL when the "
       "position is emptied"}};
  return t;
}

HeldEntities::HeldEntities(FieldCodes* codes, uint16_t kind, std::vector<std::string> value,
                           uint32_t table, std::string what, HeldOptions options)
    : codes_(codes),
      kind_(kind),
      value_(std::move(value)),
      table_(table),
      what_(std::move(what)),
      options_(options) {}

bool HeldEntities::Takes(MatchContext& ctx, const Entity& e) {
  if (options_.takes == nullptr || e.class_id < 0) return true;
  const size_t c = static_cast<size_t>(e.class_id);
  if (c >= takes_.size()) takes_.resize(c + 1, -1);
  if (takes_[c] < 0) takes_[c] = options_.takes(ctx.ClassName(e.class_id)) ? 1 : 0;
  return takes_[c] == 1;
}

std::optional<int64_t> HeldEntities::Handle(const Entity& hero, uint32_t position) {
  const uint32_t id = codes_->FieldOf(hero, kind_, static_cast<uint16_t>(position));
  if (id == ClassFields::kInvalid) return std::nullopt;
  return AsInt(hero.state.Get(hero.fields->slot(id)).value);
}

void HeldEntities::MarkPosition(int slot, uint32_t position) {
  if (slot < 0 || slot >= kMaxSlots || position >= kMaxPositions) return;
  if (static_cast<size_t>(slot) >= players_.size()) players_.resize(slot + 1);
  players_[slot].dirty |= uint64_t{1} << position;
  any_dirty_ = true;
}

void HeldEntities::MarkSlot(int slot) {
  if (slot < 0 || slot >= kMaxSlots) return;
  if (static_cast<size_t>(slot) >= players_.size()) players_.resize(slot + 1);
  players_[slot].dirty = ~uint64_t{0};
  any_dirty_ = true;
}

void HeldEntities::MarkHeld(int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= held_by_.size()) return;
  const uint16_t at = held_by_[index];
  if (at == 0) return;
  if (at != kMany) {
    MarkPosition((at - 1) / kMaxPositions, (at - 1) % kMaxPositions);
    return;
  }
  for (int s = 0; s < static_cast<int>(players_.size()); ++s) {
    for (uint32_t k = 0; k < kMaxPositions; ++k) {
      if (players_[s].held[k].index == index) MarkPosition(s, k);
    }
  }
}

void HeldEntities::OnCreated(const Entity& e) { MarkHeld(e.index); }
void HeldEntities::OnDeleted(const Entity& e) { MarkHeld(e.index); }

void HeldEntities::Ref(int32_t index, int slot, uint32_t position, bool add) {
  if (index < 0 || index > kIndexMask) return;
  if (static_cast<size_t>(index) >= held_by_.size()) held_by_.resize(kIndexMask + 1, 0);
  uint16_t& at = held_by_[index];
  const uint16_t me = static_cast<uint16_t>(slot * kMaxPositions + position + 1);
  if (add) {
    at = at == 0 || at == me ? me : kMany;
  } else if (at == me) {
    at = 0;
  }
  // A kMany entry stays: marking looks through every position then, and
  // finds the ones still holding the index.
}

void HeldEntities::Resolve(MatchContext& ctx, std::span<const Entity* const> heroes,
                           const MatchValue& game_time) {
  if (!any_dirty_) return;
  any_dirty_ = false;
  for (int s = 0; s < static_cast<int>(players_.size()); ++s) {
    Player& p = players_[s];
    if (p.dirty == 0) continue;
    const Entity* hero = static_cast<size_t>(s) < heroes.size() ? heroes[s] : nullptr;
    // The positions the hero's class has, and those that held something.
    const uint32_t count = hero == nullptr ? 0 : std::min<uint32_t>(codes_->Count(*hero, kind_),
                                                                   kMaxPositions);
    uint64_t dirty = p.dirty;
    p.dirty = 0;
    while (dirty != 0) {
      const uint32_t k = static_cast<uint32_t>(std::countr_zero(dirty));
      dirty &= dirty - 1;
      if (k >= count && p.held[k].index < 0) continue;
      Content now;
      const std::optional<int64_t> handle =
          k >= count ? std::nullopt : Handle(*hero, k);
      if (handle && *handle >= 0 && (*handle & kIndexMask) != kIndexMask) {
        now.handle = static_cast<uint32_t>(*handle);
        now.index = static_cast<int32_t>(*handle & kIndexMask);
        if (const Entity* held = ctx.ByHandle(handle)) {
          // Its changes of name and value matter now (to the module, which
          // marks them).
          ctx.Watch(held->class_id);
          if (Takes(ctx, *held)) {
            now.entity = held->lifetime;
            now.name.assign(ctx.EntityName(*held));
            now.value = ReadInt(value_, held);
            if (now.value && options_.count_bits) {
              now.value = std::popcount(static_cast<uint64_t>(static_cast<uint32_t>(*now.value)));
            }
            if (now.name.empty()) ++unnamed_;
          }
        } else {
          ++missing_;
        }
      }
      Content& last = p.held[k];
      if (last.index != now.index) {
        Ref(last.index, s, k, false);
        Ref(now.index, s, k, true);
      }
      if (now == last) {
        last.handle = now.handle;
        last.index = now.index;
        continue;
      }
      row_.assign({MatchValue::Int(ctx.tick()), game_time, MatchValue::Int(s),
                   MatchValue::Int(k),
                   now.name.empty() ? MatchValue() : MatchValue::Text(now.name),
                   now.value ? MatchValue::Int(*now.value) : MatchValue(),
                   now.entity ? MatchValue::Int(static_cast<int64_t>(now.entity))
                              : MatchValue()});
      ctx.Row(table_, row_);
      last = std::move(now);
    }
  }
}

bool HeldEntities::Holds(int slot, std::string_view name) const {
  if (slot < 0 || static_cast<size_t>(slot) >= players_.size() || name.empty()) return false;
  for (const Content& c : players_[slot].held) {
    if (c.entity != 0 && c.name == name) return true;
  }
  return false;
}

std::vector<std::pair<std::string, uint64_t>> HeldEntities::Counters() const {
  return {{what_ + "_missing_entities", missing_}, {what_ + "_unnamed_entities", unnamed_}};
}

}  // namespace gem::match
