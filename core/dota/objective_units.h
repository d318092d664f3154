// ObjectiveUnits: where the units objectives are about stand: buildings
// (towers, barracks, the ancients, shrines), Roshan and the Tormentors.
//
// The combat log names a building as its unit ("npc_dota_goodguys_
// melee_rax_mid") while the entity carries its map name ("good_rax_melee_
// mid"), so the two are matched by their words: "npc" and "dota" dropped,
// "goodguys"/"badguys" read as "good"/"bad", and every word of the combat
// log's name found among the entity's ("npc_dota_goodguys_tower4" is one
// of the two tier-4 towers: the one that is dead now, else the first).
// Positions are read off the entity while it lives, else where it stood
// when created (buildings do not move).
#ifndef GEM_CORE_DOTA_OBJECTIVE_UNITS_H_
#define GEM_CORE_DOTA_OBJECTIVE_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/match/body.h"
#include "core/match/match_context.h"

namespace gem::dota {

class ObjectiveUnits {
 public:
  explicit ObjectiveUnits(match::PositionReader* position) : position_(position) {}

  // Call for every entity created.
  void OnCreated(match::MatchContext& ctx, const Entity& e);
  // The position of the unit the combat log calls `name`; false (and NULL
  // cells) when no unit matches.
  bool Find(match::MatchContext& ctx, std::string_view name, MatchValue* x, MatchValue* y,
            MatchValue* z);

 private:
  struct Unit {
    int32_t index;
    uint64_t lifetime;
    std::vector<std::string> words;
    MatchValue x, y, z;
  };
  bool IsObjectiveClass(match::MatchContext& ctx, int32_t class_id);
  static std::vector<std::string> Words(std::string_view name);

  match::PositionReader* position_;
  match::FieldReader life_{"m_lifeState"};
  std::vector<int8_t> classes_;  // by class id: -1 unknown, 0 no, 1 yes
  std::vector<Unit> units_;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_OBJECTIVE_UNITS_H_
