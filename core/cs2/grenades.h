// Grenades: CS2's grenades and grenade_paths tables, from the projectile
// entities, with the detonate and expire events where the replay has them.
//
// - A grenade is a projectile entity's life: CSmokeGrenadeProjectile
//   (smoke), CFlashbangProjectile (flash), CHEGrenadeProjectile (he),
//   CMolotovProjectile (molotov, or incendiary when m_bIsIncGrenade), and
//   CDecoyProjectile (decoy). Its id numbers grenades in throw order, so
//   it is unique however entity indexes are reused; `entity` is the
//   projectile's lifetime id. thrower: the slot whose pawn m_hThrower
//   names; throw_tick: the projectile's creation.
// - Where and when it went off: the kind's detonate event
//   (smokegrenade_detonate, flashbang_detonate, hegrenade_detonate,
//   decoy_started; entityid the projectile) with its x, y, z. Without the
//   event, the projectile says: a smoke's m_bDidSmokeEffect turning true
//   (at m_vSmokeDetonationPos), a flash's or HE's m_nExplodeEffectTickBegin
//   (at m_vecExplodeEffectOrigin), else the projectile's deletion where it
//   last was (a molotov bursts as its projectile goes).
// - end_tick: a smoke's smokegrenade_expired, a decoy's decoy_detonate,
//   else the projectile's deletion; a molotov's fire: the CInferno created
//   at its burst (within 128 units of it) ends with inferno_expire or
//   inferno_extinguish (entityid the inferno), else its deletion; one that
//   made no fire ends as it burst. A flash and an HE end as they go off.
// - grenade_paths: the projectile's position at its creation and at the
//   end of every frame in which it moved, until it went off (then it lies
//   still, or is gone).
#ifndef GEM_CORE_CS2_GRENADES_H_
#define GEM_CORE_CS2_GRENADES_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/cs2/event_keys.h"
#include "core/cs2/match_state.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"

namespace gem::cs2 {

class Grenades {
 public:
  void OnEntityCreated(match::MatchContext& ctx, MatchState& state, const Entity& e);
  void OnEntityDeleted(match::MatchContext& ctx, MatchState& state, const Entity& e);
  void OnGameEvent(match::MatchContext& ctx, MatchState& state, const GameEvent& e,
                   EventKeys& keys);
  // After every frame: paths, and detonations the projectiles tell.
  void OnFrameEnd(match::MatchContext& ctx, MatchState& state);
  // The grenades table's rows (grenades still flying end NULL).
  void Finish(match::MatchContext& ctx) const;
  // The id of the grenade whose projectile is at entity index `index`.
  MatchValue IdAt(int32_t index) const;
  // How many grenades of `kind` went off at index tick `tick`; the last
  // one's id and thrower when any did.
  int WentOffAt(std::string_view kind, int64_t tick, MatchValue* id, int32_t* thrower) const;
  // How many molotov fires (CInferno entities) burn now; the last one's
  // thrower when any do.
  int Burning(int32_t* thrower) const;

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  struct Grenade {
    int64_t id = 0;
    uint64_t entity = 0;
    int64_t throw_tick = 0;
    MatchValue game_time, round;
    std::string kind;
    int32_t thrower = -1;
    MatchValue detonate_tick, end_tick;
    MatchValue x, y, z;
    bool detonated_by_event = false;
    MatchValue last_x, last_y, last_z;  // the path's last point
    int32_t index = -1;                 // entity index while alive
    int32_t inferno = -1;               // its fire's entity index, molotovs
  };
  // The kind of a projectile class, "" when it is none.
  std::string KindOf(match::MatchContext& ctx, const Entity& e);
  Grenade* Alive(int32_t index);
  void Detonate(Grenade* g, int64_t tick, MatchValue x, MatchValue y, MatchValue z);
  void PathPoint(match::MatchContext& ctx, MatchState& state, Grenade* g, const Entity& e);

  std::vector<Grenade> grenades_;                  // by id - 1
  std::map<int32_t, size_t> alive_;                // entity index -> grenades_ position
  std::map<int32_t, size_t> infernos_;             // CInferno index -> its molotov
  std::map<int32_t, size_t> deleted_now_;          // projectiles gone this frame
  std::vector<int32_t> new_fires_;                 // CInferno made this frame
  std::map<int32_t, size_t> fires_gone_now_;       // CInferno deleted this frame
  match::FieldReader thrower_{"m_hThrower"}, incendiary_{"m_bIsIncGrenade"};
  match::FieldReader did_smoke_{"m_bDidSmokeEffect"}, smoke_pos_{"m_vSmokeDetonationPos"};
  match::FieldReader explode_tick_{"m_nExplodeEffectTickBegin"};
  match::FieldReader explode_pos_{"m_vecExplodeEffectOrigin"};
  uint64_t without_thrower_ = 0, events_without_grenade_ = 0;
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_GRENADES_H_
