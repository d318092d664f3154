// Combat: CS2's damages, shots and flashes tables and the kills table's
// CS2 columns, from game events, as of the tick each event arrives.
//
// - damages: player_hurt; a replay without player_hurt events gets its
//   damages from the pawns' health and armor instead (pawn_damages.h).
//   From the events: attacker and victim by their pawn handles and
//   user ids; weapon as the event names it ("galilar", "hegrenade",
//   "inferno"); hitgroup by name (HitgroupName); damage dmg_health,
//   damage_armor dmg_armor, health_after / armor_after the event's health
//   and armor. damage_real is the damage capped by the victim's health
//   before the hit, as awpy counts it for ADR: the health the previous hit
//   of this tick left, else the pawn's m_iHealth at the end of the last
//   frame. Both players' teams and positions are their pawns' now.
// - shots: weapon_fire: the shooter's pawn position, eye angles, speed
//   across the ground (m_vecVelocity) and place in the burst
//   (m_iShotsFired), as the packet the event came in left them.
// - flashes: player_blind (attacker the thrower, blind_duration). A replay
//   without player_blind events gets its flashes from the pawns instead:
//   each time a pawn's m_flFlashDuration is sent above 0, a flash of that
//   duration, thrown by whoever's flashbang went off in that frame
//   (grenades.h).
// - kills: penetrated, thrusmoke, noscope, attackerblind, assistedflash,
//   distance and hitgroup from player_death's keys; both teams and the
//   attacker's position from the pawns.
#ifndef GEM_CORE_CS2_COMBAT_H_
#define GEM_CORE_CS2_COMBAT_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/cs2/event_keys.h"
#include "core/cs2/match_state.h"
#include "core/cs2/pawn_damages.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"

namespace gem::cs2 {

// The name of a hit group number (the engine's HITGROUP_*); null when
// the number is none of them.
const char* HitgroupName(int64_t hitgroup);

class Combat {
 public:
  // Game events this tracker reads; others are ignored.
  void OnGameEvent(match::MatchContext& ctx, MatchState& state, const GameEvent& e,
                   EventKeys& keys);
  // A pawn's creation and the changes of its m_iHealth and
  // m_flFlashDuration (the module watches the pawns' updates).
  void OnPawnCreated(int32_t pawn_index, std::optional<int64_t> health,
                     std::optional<int64_t> armor);
  void OnPawnHealth(int32_t pawn_index, const Value& value);
  void OnPawnArmor(int32_t pawn_index, const Value& value);
  void OnPawnFlash(int32_t pawn_index, const Value& value);
  // After every frame (after the grenades'): the flashes the pawns said.
  void OnFrameEnd(match::MatchContext& ctx, MatchState& state);
  // Fills `k->extra` (tables.h's KillColumn order) from a player_death.
  void FillKill(match::MatchContext& ctx, MatchState& state, const GameEvent& e,
                EventKeys& keys, KillRow* k);
  // The end: the pawns' damages and flashes, when no player_hurt or
  // player_blind came.
  void Finish(match::MatchContext& ctx);

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  void Damage(match::MatchContext& ctx, MatchState& state, const GameEvent& e, EventKeys& keys);
  void Shot(match::MatchContext& ctx, MatchState& state, const GameEvent& e, EventKeys& keys);
  void Blind(match::MatchContext& ctx, MatchState& state, const GameEvent& e, EventKeys& keys);

  // A pawn's health: as the last frame ended it (`before`, when it
  // changed in frame `frame`) and now; a hit's in this frame.
  struct PawnHealth {
    uint64_t frame = 0;
    int64_t before = -1, now = -1;
    uint64_t hit_frame = UINT64_MAX;
    int64_t hit_health = -1;
  };
  struct PendingFlash {
    int32_t pawn_index;
    float duration;
  };
  static constexpr int32_t kMaxIndex = 1 << 14;  // entity indexes
  PawnHealth& HealthOf(int32_t pawn_index);
  // The victim's health before a hit now (-1 unknown).
  int64_t HealthBefore(int32_t pawn_index) const;

  std::vector<PawnHealth> health_;  // by pawn entity index
  uint64_t frames_ = 0;             // frames ended so far: this frame's number
  bool saw_blind_event_ = false;
  PawnDamages pawn_damages_;  // stopped by the first player_hurt
  std::vector<PendingFlash> pending_flashes_;  // this frame's
  // Flashes read off the pawns, kept until the end tells whether events
  // gave them instead: each row's cells (text-free).
  std::vector<std::vector<MatchValue>> pawn_flashes_;
  match::FieldReader eye_angles_{"m_angEyeAngles"};
  match::FieldReader velocity_x_{"m_vecVelocity.m_vecX"}, velocity_y_{"m_vecVelocity.m_vecY"};
  match::FieldReader shots_fired_{"m_iShotsFired"};
  uint64_t damage_unknown_health_ = 0, unknown_hitgroups_ = 0, events_without_player_ = 0;
  uint64_t shots_without_weapon_ = 0;
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_COMBAT_H_
