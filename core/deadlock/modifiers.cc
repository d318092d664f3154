#include "core/deadlock/modifiers.h"

#include "core/deadlock/known_names.h"
#include "core/deadlock/messages.h"

namespace gem::deadlock {
namespace {

using match::MatchContext;

constexpr int32_t kEntryRemoved = 2;
// Entries beyond this index are refused (Valve's tables hold at most
// 2^14 entries; an index past that is damage).
constexpr int32_t kMaxEntries = 1 << 16;
constexpr uint32_t kWaitFrames = 300;

}  // namespace

void Modifiers::OnEntry(MatchContext& ctx, MessageHost& host, const StringTable& table,
                        int32_t index) {
  if (!ctx.has_sink() || index < 0 || index >= kMaxEntries ||
      static_cast<size_t>(index) >= table.size()) {
    return;
  }
  if (static_cast<size_t>(index) >= lives_.size()) lives_.resize(index + 1);
  Life& life = lives_[index];
  const std::string& data = table.entry(index).data;
  MessageFields m;
  if (!m.Parse(reinterpret_cast<const uint8_t*>(data.data()), data.size())) {
    ++damaged_;
    return;
  }
  const std::optional<uint32_t> serial = m.Uint32(3);
  const bool removed = m.Int32(1).value_or(1) == kEntryRemoved;
  if (life.live && (removed || !serial || *serial != life.serial)) End(ctx, &host, &life);
  if (removed || !serial) return;
  if (!life.live) {
    // A new life: who it is on, who cast it, and with what.
    life.live = true;
    life.serial = *serial;
    life.row.assign(kModifierColumns, MatchValue());
    life.row[kTick] = MatchValue::Int(ctx.tick());
    life.row[kGameTime] = host.Clock(ctx);
    life.row[kModSerial] = MatchValue::Int(*serial);
    life.ability.clear();
    life.parent_class.clear();
    life.parent = m.Uint32(2).value_or(kNoHandle);
    life.caster = m.Uint32(9).value_or(kNoHandle);
    life.ability_handle = m.Uint32(10).value_or(kNoHandle);
    life.resolved = false;
    begun_.push_back(Pending{index, *serial, 0});
    const std::optional<uint32_t> ability_id = m.Uint32(13);
    if (ability_id && *ability_id != 0) life.row[kModAbilityId] = MatchValue::Int(*ability_id);
    if (const std::optional<uint32_t> id = m.Uint32(4)) life.row[kModModifierId] = MatchValue::Int(*id);
  }
  // What the entry says now.
  if (const std::optional<int32_t> v = m.Int32(5)) life.row[kModStacks] = MatchValue::Int(*v);
  if (const std::optional<int32_t> v = m.Int32(6)) life.row[kModMaxStacks] = MatchValue::Int(*v);
  if (const std::optional<double> v = m.Real(8)) life.row[kModDuration] = MatchValue::Real(*v);
  if (const std::optional<double> v = m.Real(7)) life.row[kModLastApplied] = MatchValue::Real(*v);
}

void Modifiers::Resolve(MatchContext& ctx, MessageHost& host, Life* life) {
  life->resolved = true;
  auto entity = [&](uint32_t handle) -> const Entity* {
    if ((handle & match::kHandleIndexMask) == match::kHandleIndexMask) return nullptr;
    return ctx.ByHandle(static_cast<int64_t>(handle));
  };
  if (const Entity* parent = entity(life->parent)) {
    life->row[kModParent] = MatchValue::Int(parent->index);
    life->parent_class.assign(ctx.ClassName(parent->class_id));
    const int32_t slot = host.SlotOfEntity(ctx, parent->index);
    if (slot >= 0) {
      life->row[kModSlot] = MatchValue::Int(slot);
      urn_->LifeBegan(ctx, parent, slot, life->row[kTick].i, life->row[kGameTime],
                      Id(life->row[kModAbilityId]), Id(life->row[kModModifierId]));
    }
  }
  if (const Entity* caster = entity(life->caster)) {
    life->row[kModCaster] = MatchValue::Int(caster->index);
    const int32_t slot = host.SlotOfEntity(ctx, caster->index);
    if (slot >= 0) life->row[kModCasterSlot] = MatchValue::Int(slot);
  }
  if (const Entity* ability = entity(life->ability_handle)) {
    life->ability.assign(ctx.EntityName(*ability));
  }
  const MatchValue& id = life->row[kModAbilityId];
  if (life->ability.empty() && !id.is_null()) {
    life->ability.assign(names_->AbilityName(ctx, static_cast<uint32_t>(id.i)));
  }
}

void Modifiers::OnFrameEnd(MatchContext& ctx, MessageHost& host) {
  // A life waits for its parent for up to kWaitFrames frames (the
  // signon's entries name entities its first packet creates).
  size_t kept = 0;
  for (const Pending& p : begun_) {
    Life& life = lives_[p.index];
    if (!life.live || life.resolved || life.serial != p.serial) continue;
    const bool none = (life.parent & match::kHandleIndexMask) == match::kHandleIndexMask;
    if (none || ctx.ByHandle(static_cast<int64_t>(life.parent)) != nullptr ||
        p.frames >= kWaitFrames) {
      Resolve(ctx, host, &life);
      continue;
    }
    begun_[kept++] = Pending{p.index, p.serial, p.frames + 1};
  }
  begun_.resize(kept);
}

void Modifiers::End(MatchContext& ctx, MessageHost* host, Life* life) {
  // Gone in the frame it began in: its entities as they are now.
  if (!life->resolved && host != nullptr) Resolve(ctx, *host, life);
  if (host != nullptr) {
    life->row[kModRemovedTick] = MatchValue::Int(ctx.tick());
    life->row[kModRemovedTime] = host->Clock(ctx);
    const MatchValue& slot = life->row[kModSlot];
    if (!slot.is_null()) {
      urn_->LifeEnded(ctx, life->parent, static_cast<int32_t>(slot.i),
                      life->row[kModRemovedTime], Id(life->row[kModAbilityId]));
    }
  }
  if (!life->ability.empty()) life->row[kModAbility] = MatchValue::Text(life->ability);
  if (!life->parent_class.empty()) life->row[kModParentClass] = MatchValue::Text(life->parent_class);
  // No modifier names in the replay (modifiers.h): the table's, if any.
  const std::optional<uint32_t> modifier = Id(life->row[kModModifierId]);
  const std::string_view name = modifier ? KnownModifierName(*modifier) : std::string_view();
  if (name.empty()) {
    ++unknown_;
  } else {
    life->row[kModModifier] = MatchValue::Text(name);
  }
  ctx.Row(kModifiers, life->row);
  life->live = false;
}

void Modifiers::Finish(MatchContext& ctx) {
  for (Life& life : lives_) {
    if (life.live) End(ctx, nullptr, &life);
  }
}

std::vector<std::pair<std::string, uint64_t>> Modifiers::Counters() const {
  std::vector<std::pair<std::string, uint64_t>> out;
  if (damaged_ > 0) out.emplace_back("damaged_modifier_entries", damaged_);
  if (unknown_ > 0) out.emplace_back("unknown_modifier_ids", unknown_);
  return out;
}

}  // namespace gem::deadlock
