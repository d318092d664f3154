// WardTracker: the life of every Dota observer and sentry ward.
//
// A ward (CDOTA_NPC_Observer_Ward: observer; CDOTA_NPC_Observer_Ward
// _TrueSight: sentry) is placed when its entity is created and removed at
// the first of: its m_lifeState leaving 0 (killed or expired), its entity
// being deleted. Its position and team are read at placement; wards do
// not move. Wards standing at the end are reported without a removal.
#ifndef GEM_CORE_DOTA_WARD_TRACKER_H_
#define GEM_CORE_DOTA_WARD_TRACKER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
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
  // `owner_slot`: the owning player's slot, -1 when unknown.
  void OnCreated(match::MatchContext& ctx, const Entity& e, int owner_slot);
  void OnUpdated(match::MatchContext& ctx, const Entity& e, std::span<const FieldChange> c);
  void OnDeleted(match::MatchContext& ctx, const Entity& e);
  void Finish(match::MatchContext& ctx);

 private:
  // 0 not a ward, 1 observer, 2 sentry; -1 not looked at yet.
  int8_t KindOf(match::MatchContext& ctx, int32_t class_id);
  void Close(match::MatchContext& ctx, const Entity& e);

  match::PositionReader* position_;
  match::FieldReader life_{"m_lifeState"};
  match::FieldReader team_{"m_iTeamNum"};
  match::FieldReader owner_{"m_hOwnerEntity"};
  std::vector<int8_t> kinds_;
  std::map<uint64_t, WardRow> open_;  // by entity lifetime
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_WARD_TRACKER_H_
