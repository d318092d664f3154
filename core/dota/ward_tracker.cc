#include "core/dota/ward_tracker.h"

namespace gem::dota {

int8_t WardTracker::KindOf(match::MatchContext& ctx, int32_t class_id) {
  if (class_id < 0) return 0;
  const size_t c = static_cast<size_t>(class_id);
  if (c >= kinds_.size()) kinds_.resize(c + 1, -1);
  if (kinds_[c] < 0) {
    const std::string_view name = ctx.ClassName(class_id);
    kinds_[c] = name == "CDOTA_NPC_Observer_Ward"             ? 1
                : name == "CDOTA_NPC_Observer_Ward_TrueSight" ? 2
                                                              : 0;
  }
  return kinds_[c];
}

void WardTracker::OnCreated(match::MatchContext& ctx, const Entity& e, int owner_slot) {
  const int8_t kind = KindOf(ctx, e.class_id);
  if (kind == 0) return;
  WardRow w;
  w.entity = static_cast<int64_t>(e.lifetime);
  w.kind = kind == 1 ? "observer" : "sentry";
  w.team = match::IntCell(match::ReadInt(team_, &e));
  if (owner_slot >= 0) w.owner = MatchValue::Int(owner_slot);
  w.placed_tick = ctx.tick();
  position_->Read(&e, &w.x, &w.y, &w.z);
  open_[e.lifetime] = w;
  // A ward created dead (a late full state) is removed at once.
  if (match::ReadInt(life_, &e).value_or(0) != 0) Close(ctx, e);
}

void WardTracker::OnUpdated(match::MatchContext& ctx, const Entity& e,
                            std::span<const FieldChange>) {
  if (KindOf(ctx, e.class_id) == 0) return;
  if (match::ReadInt(life_, &e).value_or(0) != 0) Close(ctx, e);
}

void WardTracker::OnDeleted(match::MatchContext& ctx, const Entity& e) {
  if (KindOf(ctx, e.class_id) != 0) Close(ctx, e);
}

void WardTracker::Close(match::MatchContext& ctx, const Entity& e) {
  auto it = open_.find(e.lifetime);
  if (it == open_.end()) return;
  it->second.removed_tick = MatchValue::Int(ctx.tick());
  ctx.Ward(it->second);
  open_.erase(it);
}

void WardTracker::Finish(match::MatchContext& ctx) {
  for (auto& [lifetime, w] : open_) ctx.Ward(w);
  open_.clear();
}

}  // namespace gem::dota
