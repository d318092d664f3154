#include "core/deadlock/urn.h"

#include "core/deadlock/messages.h"

namespace gem::deadlock {

using match::MatchContext;

Urn::Urn()
    : golden_idol_(StringToken("ability_golden_idol")),
      idol_return_(StringToken("modifier_citadel_idol_return")) {}

Urn::Carrier& Urn::At(int32_t slot) {
  if (static_cast<size_t>(slot) >= carriers_.size()) carriers_.resize(slot + 1);
  return carriers_[slot];
}

std::vector<MatchValue> Urn::Row(const char* event, int64_t tick,
                                 const MatchValue& clock, const Entity* e, int32_t slot) {
  std::vector<MatchValue> row(kUrnColumns);
  row[kTick] = MatchValue::Int(tick);
  row[kGameTime] = clock;
  row[kUrnEvent] = MatchValue::Text(event);
  if (slot >= 0) row[kUrnSlot] = MatchValue::Int(slot);
  if (e != nullptr) {
    row[kUrnTeam] = match::IntCell(match::ReadInt(team_, e));
    row[kUrnEntity] = MatchValue::Int(e->index);
    position_.Read(e, &row[kUrnX], &row[kUrnY], &row[kUrnZ]);
  }
  return row;
}

void Urn::LifeBegan(MatchContext& ctx, const Entity* parent, int32_t slot, int64_t tick,
                    const MatchValue& clock, std::optional<uint32_t> ability_id,
                    std::optional<uint32_t> modifier_id) {
  if (slot < 0 || slot >= (1 << 12)) return;
  if (ability_id == golden_idol_) {
    Carrier& c = At(slot);
    if (c.lives++ == 0) {
      if (c.drop) {
        c.drop.reset();  // put on afresh (a new serial): it never left the pawn
      } else {
        ctx.Row(kUrn, Row("picked_up", tick, clock, parent, slot));
      }
    }
  }
  if (modifier_id == idol_return_) {
    Carrier& c = At(slot);
    c.drop.reset();  // the loss just before was this delivery
    if (tick - c.last_return > kSameDelivery) {
      ctx.Row(kUrn, Row("returned", tick, clock, parent, slot));
    }
    c.last_return = tick;
  }
}

void Urn::LifeEnded(MatchContext& ctx, uint32_t parent_handle, int32_t slot,
                    const MatchValue& clock, std::optional<uint32_t> ability_id) {
  if (slot < 0 || slot >= (1 << 12) || ability_id != golden_idol_) return;
  Carrier& c = At(slot);
  if (c.lives == 0 || --c.lives > 0) return;
  if (ctx.tick() - c.last_return <= kSameDelivery) return;  // delivered just now
  c.drop = Row("dropped", ctx.tick(), clock, nullptr, slot);
  c.drop_handle = parent_handle;
  c.drop_placed = false;
}

void Urn::OnFrameEnd(MatchContext& ctx, bool finish) {
  for (Carrier& c : carriers_) {
    if (c.drop && !c.drop_placed) {
      // Where the pawn is at the end of the frame it lost the urn in.
      c.drop_placed = true;
      const bool none = (c.drop_handle & match::kHandleIndexMask) == match::kHandleIndexMask;
      if (const Entity* pawn = none ? nullptr : ctx.ByHandle(static_cast<int64_t>(c.drop_handle))) {
        std::vector<MatchValue>& row = *c.drop;
        row[kUrnTeam] = match::IntCell(match::ReadInt(team_, pawn));
        row[kUrnEntity] = MatchValue::Int(pawn->index);
        position_.Read(pawn, &row[kUrnX], &row[kUrnY], &row[kUrnZ]);
      }
    }
    if (c.drop && (finish || ctx.tick() - (*c.drop)[kTick].i > kSameDelivery)) {
      ctx.Row(kUrn, *c.drop);
      c.drop.reset();
    }
  }
}

void Urn::OnTrigger(MatchContext& ctx, MessageHost& host, const Entity& trigger) {
  const int64_t team = match::ReadInt(team_, &trigger).value_or(0);
  const bool enabled = match::ReadInt(disabled_, &trigger).value_or(0) == 0;
  Point* point = nullptr;
  for (Point& p : points_) {
    if (p.index == trigger.index) point = &p;
  }
  if (point == nullptr) {
    // Created: a row when it starts enabled.
    points_.push_back(Point{trigger.index, false});
    point = &points_.back();
  }
  if (point->enabled == enabled || (team != 2 && team != 3)) return;
  point->enabled = enabled;
  ctx.Row(kUrn, Row(enabled ? "point_enabled" : "point_disabled", ctx.tick(),
                    host.Clock(ctx), &trigger, -1));
}

}  // namespace gem::deadlock
