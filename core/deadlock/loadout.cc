#include "core/deadlock/loadout.h"

#include <algorithm>

namespace gem::deadlock {
namespace {

bool IsItem(std::string_view class_name) { return class_name.rfind("CCitadel_Item", 0) == 0; }
bool IsAbility(std::string_view class_name) { return !IsItem(class_name); }

}  // namespace

Loadout::Loadout()
    : codes_({{"m_vecAbilities.#", kPosition},
              {"m_CCitadelAbilityComponent.m_vecAbilities.#", kPosition},
              {"m_pEntity.m_nameStringableIndex", kName},
              {"m_pEntity.m_nameStringTableIndex", kName},
              {"m_nUpgradeBits", kLevel},
              {"m_nUpgradeInfo", kLevel},
              {"m_iRemainingCharges", kCharges},
              {"m_flCooldownStart", kCooldown}}),
      items_(&codes_, kPosition, {"m_iRemainingCharges"}, kInventory, "inventory",
             {false, IsItem}),
      abilities_(&codes_, kPosition, {"m_nUpgradeBits", "m_nUpgradeInfo"}, kAbilities,
                 "abilities", {true, IsAbility}) {}

void Loadout::OnCreated(const Entity& e) {
  items_.OnCreated(e);
  abilities_.OnCreated(e);
}

void Loadout::OnDeleted(const Entity& e) {
  items_.OnDeleted(e);
  abilities_.OnDeleted(e);
}

void Loadout::OnUpdated(const Entity& e, int slot, std::span<const FieldChange> changes) {
  const std::span<const uint32_t> codes = codes_.Codes(e);
  for (const FieldChange& c : changes) {
    const uint32_t code = c.field_id < codes.size() ? codes[c.field_id] : 0;
    switch (match::FieldCodes::KindOf(code)) {
      case kPosition:
        items_.MarkPosition(slot, match::FieldCodes::IndexOf(code));
        abilities_.MarkPosition(slot, match::FieldCodes::IndexOf(code));
        break;
      case kCooldown:
        if (cooling_.size() < 4096) cooling_.push_back(e.index);
        break;
      case kName:
      case kLevel:
      case kCharges:
        items_.MarkHeld(e.index);
        abilities_.MarkHeld(e.index);
        break;
      default:
        break;
    }
  }
}

void Loadout::OnFrameEnd(match::MatchContext& ctx, std::span<const Entity* const> pawns,
                         const MatchValue& game_time) {
  if (followed_.size() < pawns.size()) followed_.resize(pawns.size(), 0);
  for (size_t s = 0; s < pawns.size(); ++s) {
    const uint64_t pawn = pawns[s] != nullptr ? pawns[s]->lifetime : 0;
    if (pawn == followed_[s]) continue;
    followed_[s] = pawn;
    items_.MarkSlot(static_cast<int>(s));
    abilities_.MarkSlot(static_cast<int>(s));
  }
  items_.Resolve(ctx, pawns, game_time);
  abilities_.Resolve(ctx, pawns, game_time);
  if (!cooling_.empty()) Cooldowns(ctx, pawns, game_time);
  if (!expected_.empty()) {
    std::erase_if(expected_, [this](const Bought& b) { return items_.Holds(b.slot, b.item); });
  }
}

void Loadout::Cooldowns(match::MatchContext& ctx, std::span<const Entity* const> pawns,
                        const MatchValue& game_time) {
  std::sort(cooling_.begin(), cooling_.end());
  cooling_.erase(std::unique(cooling_.begin(), cooling_.end()), cooling_.end());
  for (int32_t index : cooling_) {
    const Entity* e = ctx.Get(index);
    if (e == nullptr || !ctx.game_tables()) continue;
    const std::optional<double> start = match::ReadReal(cooldown_start_, e);
    if (!start || !(*start > 0)) continue;  // reset (ready), not begun
    const Entity* owner = ctx.ByHandle(match::ReadInt(owner_, e));
    int32_t slot = -1;
    for (size_t s = 0; s < pawns.size() && owner != nullptr; ++s) {
      if (pawns[s] == owner) slot = static_cast<int32_t>(s);
    }
    if (slot < 0) continue;  // not a player's
    row_.assign(kCooldownColumns, MatchValue());
    row_[kTick] = MatchValue::Int(ctx.tick());
    row_[kGameTime] = game_time;
    row_[kCdSlot] = MatchValue::Int(slot);
    std::string_view name = ctx.EntityName(*e);
    if (name.empty()) name = ctx.ClassName(e->class_id);
    if (!name.empty()) row_[kCdAbility] = MatchValue::Text(name);
    row_[kCdEntity] = MatchValue::Int(index);
    row_[kCdStart] = MatchValue::Real(*start);
    if (const std::optional<double> end = match::ReadReal(cooldown_end_, e)) {
      row_[kCdEnd] = MatchValue::Real(*end);
      row_[kCdDuration] = MatchValue::Real(*end - *start);
    }
    ctx.Row(kAbilityCooldowns, row_);
  }
  cooling_.clear();
}

void Loadout::ExpectHeld(int slot, std::string item, int64_t tick) {
  // The same item bought again at a later tick: the earlier purchase's
  // chance is over (bought twice at one tick, both wait as one).
  never_held_ += std::erase_if(expected_, [&](const Bought& b) {
    return b.slot == slot && b.item == item && b.tick < tick;
  });
  expected_.push_back({slot, std::move(item), tick});
}

std::vector<std::pair<std::string, uint64_t>> Loadout::Counters() const {
  std::vector<std::pair<std::string, uint64_t>> c = items_.Counters();
  for (auto& x : abilities_.Counters()) c.push_back(x);
  c.emplace_back("purchases_never_held", never_held_ + expected_.size());
  return c;
}

}  // namespace gem::deadlock
