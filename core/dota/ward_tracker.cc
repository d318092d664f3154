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

void WardTracker::OnCreated(match::MatchContext& ctx, const Entity& e, int owner_slot,
                            const MatchValue& clock) {
  const int8_t kind = KindOf(ctx, e.class_id);
  if (kind == 0) return;
  WardRow w;
  w.entity = static_cast<int64_t>(e.lifetime);
  w.kind = kind == 1 ? "observer" : "sentry";
  w.team = match::IntCell(match::ReadInt(team_, &e));
  if (owner_slot >= 0) w.owner = MatchValue::Int(owner_slot);
  w.placed_tick = ctx.tick();
  w.placed_time = clock;
  position_->Read(&e, &w.x, &w.y, &w.z);
  open_[e.lifetime] = w;
  // A ward created dead (a late full state) is removed at once.
  const int64_t life = match::ReadInt(life_, &e).value_or(0);
  if (life != 0) Close(ctx, e, clock, life == 1);
}

void WardTracker::OnUpdated(match::MatchContext& ctx, const Entity& e,
                            std::span<const FieldChange>, const MatchValue& clock) {
  if (KindOf(ctx, e.class_id) == 0) return;
  const int64_t life = match::ReadInt(life_, &e).value_or(0);
  if (life != 0) Close(ctx, e, clock, life == 1);
}

void WardTracker::OnDeleted(match::MatchContext& ctx, const Entity& e, const MatchValue& clock) {
  if (KindOf(ctx, e.class_id) != 0) Close(ctx, e, clock, false);
}

void WardTracker::OnDeath(std::string_view target, std::string_view source) {
  const int kind = target == "npc_dota_observer_wards" ? 0
                   : target == "npc_dota_sentry_wards" ? 1
                                                        : -1;
  if (kind < 0 || source.empty()) return;
  queued_[kind].emplace_back(source);
}

void WardTracker::Close(match::MatchContext& ctx, const Entity& e, const MatchValue& clock,
                        bool dying) {
  auto it = open_.find(e.lifetime);
  if (it == open_.end()) return;
  it->second.removed_tick = MatchValue::Int(ctx.tick());
  it->second.removed_time = clock;
  const MatchValue& placed = it->second.placed_time;
  if (placed.kind == MatchValue::Kind::kReal && clock.kind == MatchValue::Kind::kReal &&
      clock.r < placed.r) {
    ++ended_before_placed_;
  }
  if (dying) {
    dying_.push_back(std::move(it->second));
  } else {
    ctx.Ward(it->second);
  }
  open_.erase(it);
}

void WardTracker::OnFrameEnd(match::MatchContext& ctx) {
  for (WardRow& w : dying_) {
    const int kind = w.kind == "observer" ? 0 : 1;
    std::vector<std::string>& queue = queued_[kind];
    if (taken_[kind] < queue.size()) {
      w.killed = MatchValue::Int(1);
      w.killer_name = std::move(queue[taken_[kind]++]);
    } else {
      w.killed = MatchValue::Int(0);
    }
    if (taken_[kind] == queue.size()) {  // all taken: the queue's memory is reused
      queue.clear();
      taken_[kind] = 0;
    }
    ctx.Ward(w);
  }
  dying_.clear();
}

void WardTracker::Finish(match::MatchContext& ctx) {
  OnFrameEnd(ctx);
  for (auto& [lifetime, w] : open_) ctx.Ward(w);
  open_.clear();
}

}  // namespace gem::dota
