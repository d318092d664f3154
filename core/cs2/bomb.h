// Bomb: CS2's bomb table, from the bomb events, or from the CC4 and
// CPlantedC4 entities in a replay that has no bomb events.
//
// - Events: bomb_pickup (pickup), bomb_dropped (drop), bomb_beginplant
//   (plant_begin), bomb_planted (plant), bomb_begindefuse (defuse_begin),
//   bomb_defused (defuse), bomb_exploded (explode); slot the event's
//   userid.
// - Entities: the CC4's m_hOwnerEntity naming a pawn (pickup) and then
//   none (drop; a C4 the replay starts with is held, not picked up); m_bStartedArming turning true (plant_begin); a CPlantedC4
//   created (plant, by the C4's last holder); its m_bBeingDefused turning
//   true (defuse_begin, m_hBombDefuser), m_bBombDefused (defuse) and
//   m_bHasExploded (explode) turning true. Read at the end of every frame.
// - site: "A" or "B" from the planted bomb's m_nBombSite (0 A, 1 B); before
//   it is down (plant_begin, a plant whose event comes first), from the
//   planter pawn's m_nWhichBombZone (1 A, 2 B). The events' `site` is the
//   bomb target's entity index, not a letter: a plant maps the index it
//   names to the planted bomb's letter, and every row naming that index
//   gets it. Rows are kept to the end for that.
// - x, y, z: for a pickup, drop or plant_begin the player's pawn; once the
//   bomb is down (plant, defuse_begin, defuse, explode) the planted bomb.
//   An explosion's slot is the planter (the event's userid; from the
//   entities, the C4's last holder).
#ifndef GEM_CORE_CS2_BOMB_H_
#define GEM_CORE_CS2_BOMB_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cs2/event_keys.h"
#include "core/cs2/match_state.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"

namespace gem::cs2 {

class Bomb {
 public:
  void OnEntityCreated(match::MatchContext& ctx, MatchState& state, const Entity& e);
  void OnEntityDeleted(match::MatchContext& ctx, const Entity& e);
  void OnGameEvent(match::MatchContext& ctx, MatchState& state, const GameEvent& e,
                   EventKeys& keys);
  void OnFrameEnd(match::MatchContext& ctx, MatchState& state);
  // Writes the rows; the plants of each round for the rounds table.
  void Finish(match::MatchContext& ctx) { Write(ctx, &plants_, &unknown_sites_); }

  struct Plant {
    int64_t tick;
    MatchValue round;
    std::string site;  // "" unknown
  };
  // The rows as Finish writes them, as they stand (a live index's commit
  // asks mid-parse); adds the plants to `plants` and counts the rows of
  // no site in `unknown_sites`.
  void Write(match::MatchContext& ctx, std::vector<Plant>* plants,
             uint64_t* unknown_sites) const;
  // Every plant, in order (valid after Finish).
  const std::vector<Plant>& plants() const { return plants_; }

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  struct Row {
    int64_t tick;
    MatchValue game_time, round;
    std::string kind;
    int32_t slot = -1;
    int64_t site_index = -1;  // the event's bomb target entity index
    std::string site;
    MatchValue x, y, z;
  };
  Row Make(match::MatchContext& ctx, MatchState& state, const char* kind, int32_t slot);
  static std::string SiteLetter(std::optional<int64_t> site);

  std::vector<Row> from_events_, from_entities_;
  std::vector<Plant> plants_;
  std::map<int64_t, std::string> site_letters_;  // bomb target index -> letter
  int32_t c4_ = -1, planted_ = -1;               // entity indexes
  int32_t holder_ = -1;                          // slot holding the C4
  int32_t last_holder_ = -1;
  bool c4_joined_ = false;  // the C4 was there as the replay began
  std::optional<int64_t> owner_handle_;  // the C4's m_hOwnerEntity last frame
  int32_t owner_slot_ = -1;
  bool arming_ = false, defusing_ = false, defused_ = false, exploded_ = false;
  match::FieldReader owner_{"m_hOwnerEntity"}, arming_field_{"m_bStartedArming"};
  match::FieldReader site_{"m_nBombSite"}, being_defused_{"m_bBeingDefused"};
  match::FieldReader defuser_{"m_hBombDefuser"}, defused_field_{"m_bBombDefused"};
  match::FieldReader exploded_field_{"m_bHasExploded"}, zone_{"m_nWhichBombZone"};
  uint64_t unknown_sites_ = 0;
};

}  // namespace gem::cs2

#endif  // GEM_CORE_CS2_BOMB_H_
