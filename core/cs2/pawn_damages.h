// PawnDamages: CS2's damages table for a replay without player_hurt
// events (CS2 matchmaking replays once had none), from the pawns' health
// and armor. The rule is gem's own (no peer derives damages):
//
// - A row for each frame in which a live pawn's m_iHealth or m_ArmorValue
//   is sent lower than the frame before ended it: damage and damage_real
//   the health it lost, damage_armor the armor it lost, health_after and
//   armor_after what it holds now. Several hits on one player in one frame
//   are one row; a lethal hit's overkill is not seen (damage is at most the
//   health it had), and a hit that took no health or armor makes no row.
// - The attacker, by the first of these that names one: a player_death of
//   the victim in the same frame (its attacker, weapon and hitgroup); the
//   one enemy of the victim who fired (weapon_fire) in that frame, with his
//   weapon; the one HE grenade that went off in that frame (its thrower,
//   hegrenade); the one fire burning then (its molotov's thrower, inferno).
//   Two or more of a kind, or none of them, leave attacker and weapon NULL;
//   hitgroup is known only from a player_death.
// - Teams and positions as the player_hurt rows have them: the pawns' now.
//
// The rows are held to the end: a replay with any player_hurt takes its
// damages from the events alone.
#ifndef GEM_CORE_CS2_PAWN_DAMAGES_H_
#define GEM_CORE_CS2_PAWN_DAMAGES_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/cs2/match_state.h"
#include "core/events/match_rows.h"
#include "core/fields/value.h"
#include "core/match/match_context.h"

namespace gem::cs2 {

class PawnDamages {
 public:
  void OnPawnCreated(int32_t pawn_index, std::optional<int64_t> health,
                     std::optional<int64_t> armor);
  void OnPawnHealth(int32_t pawn_index, const Value& value) { Set(pawn_index, false, value); }
  void OnPawnArmor(int32_t pawn_index, const Value& value) { Set(pawn_index, true, value); }
  // This frame's weapon_fire (weapon as the event names it) and
  // player_death (the kills table's weapon, hitgroup by name or null).
  void OnShot(int32_t slot, std::string_view weapon);
  void OnDeath(int32_t victim, std::optional<int32_t> killer, std::string_view weapon,
               const char* hitgroup);
  // After every frame (after the grenades'): this frame's rows.
  void OnFrameEnd(match::MatchContext& ctx, MatchState& state);
  // A player_hurt came: the events say, and nothing more is kept.
  void Stop();
  bool stopped() const { return stopped_; }
  // The rows so far, in the damages table's columns.
  const std::vector<std::vector<MatchValue>>& rows() const { return rows_; }
  uint64_t without_attacker() const { return without_attacker_; }

 private:
  struct Pawn {
    uint64_t frame = UINT64_MAX;  // the frame of its last change
    int64_t health_before = -1, health = -1;
    int64_t armor_before = -1, armor = -1;
  };
  struct Death {
    int32_t victim;
    std::optional<int32_t> killer;
    std::string_view weapon;
    const char* hitgroup;
  };
  static constexpr int32_t kMaxIndex = 1 << 14;  // entity indexes
  void Set(int32_t pawn_index, bool armor, const Value& value);
  // The attacker and weapon of a hit on `victim` this frame (-1, "": none).
  void Attacker(match::MatchContext& ctx, MatchState& state, int32_t victim,
                int32_t* attacker, std::string_view* weapon, const char** hitgroup);
  std::string_view Keep(std::string_view text);

  std::vector<Pawn> pawns_;             // by entity index
  std::vector<int32_t> changed_now_;    // pawns changed this frame
  std::vector<std::pair<int32_t, std::string_view>> shots_now_;
  std::vector<Death> deaths_now_;
  uint64_t frames_ = 0;
  std::set<std::string, std::less<>> texts_;  // the rows' weapon names
  std::vector<std::vector<MatchValue>> rows_;
  uint64_t without_attacker_ = 0;
  bool stopped_ = false;
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_PAWN_DAMAGES_H_
