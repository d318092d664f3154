// WardTracker: the life of every Dota observer and sentry ward.
//
// A ward (CDOTA_NPC_Observer_Ward: observer; CDOTA_NPC_Observer_Ward
// _TrueSight: sentry) is placed when its entity is created and removed at
// the first of: its m_lifeState leaving 0 (killed or expired), its entity
// being deleted. Its position and team are read at placement; wards do
// not move. Wards standing at the end are reported without a removal.
//
// Destroyed or expired, by odota/parser's rule (processors/warding/
// Wards.java): each DOTA_COMBATLOG_DEATH whose target is
// npc_dota_observer_wards or npc_dota_sentry_wards queues its damage
// source for that kind; at the end of a frame, each ward whose m_lifeState
// went to 1 (dying) in it, in the order they went, takes the oldest queued
// name of its kind: destroyed by it, or expired when none is queued. A
// ward that goes another way (deleted, or straight to dead) is neither.
#ifndef GEM_CORE_DOTA_WARD_TRACKER_H_
#define GEM_CORE_DOTA_WARD_TRACKER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/match/body.h"
#include "core/match/match_context.h"

namespace gem::dota {

class WardTracker {
 public:
  explicit WardTracker(match::PositionReader* position) : position_(position) {}

  bool IsWard(match::MatchContext& ctx, int32_t class_id) { return KindOf(ctx, class_id) != 0; }
  // The handle of the ward's owner (a hero or a player controller).
  std::optional<int64_t> OwnerHandle(const Entity& e) {
    return match::ReadInt(owner_, &e);
  }
  // `owner_slot`: the owning player's slot, -1 when unknown; `clock`: the
  // game clock now (each call's).
  void OnCreated(match::MatchContext& ctx, const Entity& e, int owner_slot,
                 const MatchValue& clock);
  void OnUpdated(match::MatchContext& ctx, const Entity& e, std::span<const FieldChange> c,
                 const MatchValue& clock);
  void OnDeleted(match::MatchContext& ctx, const Entity& e, const MatchValue& clock);
  // A DOTA_COMBATLOG_DEATH: `target`, its target's name, `source` its
  // damage source's ("" when it names none).
  void OnDeath(std::string_view target, std::string_view source);
  // The wards that went dying in the frame take their destroyers.
  void OnFrameEnd(match::MatchContext& ctx);
  void Finish(match::MatchContext& ctx);
  // Wards the clock says went before they were placed (its removal's
  // game clock earlier than its placement's: the clock stepped back, as
  // when the horn comes later than the pre-game named). Their rows keep
  // both clocks; ward_lives gives them no lifetime.
  uint64_t ended_before_placed() const { return ended_before_placed_; }

 private:
  // 0 not a ward, 1 observer, 2 sentry; -1 not looked at yet.
  int8_t KindOf(match::MatchContext& ctx, int32_t class_id);
  // `dying`: its life state went to 1 (its row waits for the frame's end).
  void Close(match::MatchContext& ctx, const Entity& e, const MatchValue& clock, bool dying);

  match::PositionReader* position_;
  match::FieldReader life_{"m_lifeState"};
  match::FieldReader team_{"m_iTeamNum"};
  match::FieldReader owner_{"m_hOwnerEntity"};
  std::vector<int8_t> kinds_;
  std::map<uint64_t, WardRow> open_;  // by entity lifetime
  // Destroyers queued by kind (0 observer, 1 sentry), oldest first; the
  // queues' taken part is skipped by `taken_`.
  std::vector<std::string> queued_[2];
  size_t taken_[2] = {0, 0};
  std::vector<WardRow> dying_;  // this frame's, in the order they went
  uint64_t ended_before_placed_ = 0;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_WARD_TRACKER_H_
