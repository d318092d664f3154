// Roster: who plays a Dota match, as the replay's entities say it now.
//
// Players are the CDOTA_PlayerResource slots (m_vecPlayerData.NNNN) on
// Radiant (2) or Dire (3); slot and player id are that index. A player's
// hero is m_vecPlayerTeamData.NNNN.m_hSelectedHero, else the player
// controller's m_hAssignedHero (controllers report m_nPlayerID doubled
// since 7.31: which numbering a replay uses is read off the players'
// teams). A hero's name is its EntityNames entry, the name the combat log
// writes ("npc_dota_hero_axe").
//
// The slot -> hero map is kept, not recomputed per question: it is marked
// stale by the changes that can move it (a slot's team or hero handle, a
// controller's id, team or hero, a hero entity created or gone) and
// rebuilt when next asked. Ask through heroes(); each rebuild bumps
// generation(), by which callers cache what they derive from it.
#ifndef GEM_CORE_DOTA_ROSTER_H_
#define GEM_CORE_DOTA_ROSTER_H_

#include <cstdint>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/entities/entities.h"
#include "core/match/field_codes.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"

namespace gem::dota {

// PlayerResource arrays hold up to this many players (OpenDota reads 30;
// the arrays of current builds have 24 entries).
inline constexpr int kMaxPlayers = 24;
inline constexpr int64_t kTeamRadiant = 2;
inline constexpr int64_t kTeamDire = 3;

// The player resource's fields of one slot.
struct PlayerFields {
  explicit PlayerFields(int i);
  match::FieldReader team, name, steam_id, hero, team_slot, kills, deaths, assists;
  match::FieldReader selected_hero_id, teamfight_participation;
};

class Roster {
 public:
  enum Kind : int8_t { kOther, kResource, kRadiantData, kDireData, kRules, kController };
  Kind KindOf(match::MatchContext& ctx, int32_t class_id);

  // Entity lifecycle and updates (the player resource and controllers
  // are watched; heroes are created and deleted).
  void OnCreated(match::MatchContext& ctx, const Entity& e);
  void OnDeleted(match::MatchContext& ctx, const Entity& e);
  // Whether `e` is the player resource or a controller (whose updates
  // this class reads).
  bool Follows(match::MatchContext& ctx, const Entity& e) {
    const Kind k = KindOf(ctx, e.class_id);
    return k == kResource || k == kController;
  }
  void OnUpdated(match::MatchContext& ctx, const Entity& e, std::span<const FieldChange> c);

  const Entity* resource(match::MatchContext& ctx) { return Singleton(ctx, resource_, kResource); }
  const Entity* team_data(match::MatchContext& ctx, int64_t team) {
    return team == kTeamRadiant ? Singleton(ctx, radiant_, kRadiantData)
           : team == kTeamDire  ? Singleton(ctx, dire_, kDireData)
                                : nullptr;
  }
  PlayerFields& player(int i) {
    if (!players_[i]) players_[i] = std::make_unique<PlayerFields>(i);
    return *players_[i];
  }
  // The team (2 or 3) of slot i now, or 0 when it is not a player's.
  int64_t TeamOf(const Entity* res, int i) {
    const int64_t team = match::ReadInt(player(i).team, res).value_or(0);
    return team == kTeamRadiant || team == kTeamDire ? team : 0;
  }

  // Each slot now: its team (0: not a player) and hero (null: none).
  struct Slot {
    int64_t team = 0;
    const Entity* hero = nullptr;
    const Entity* controller = nullptr;
    std::string hero_name;  // "" when no hero or no name
    // What the pointers are checked against (entities are pooled).
    int32_t hero_index = -1, controller_index = -1;
    uint64_t hero_lifetime = 0, controller_lifetime = 0;
  };
  std::span<Slot> heroes(match::MatchContext& ctx);
  uint64_t generation() const { return generation_; }
  // Whether the next heroes() rebuilds the map.
  bool stale() const { return stale_; }

  // The slot of the player whose hero is `hero` / is named `name` / owns
  // an entity whose m_hOwnerEntity is `owner` (a hero or a controller);
  // -1 when none.
  int SlotOfHero(match::MatchContext& ctx, const Entity* hero);
  // The slot whose player controller is the entity at `index`; -1 when none.
  int SlotOfController(match::MatchContext& ctx, int32_t index);
  int SlotOfHeroName(match::MatchContext& ctx, std::string_view name);
  int SlotOfOwner(match::MatchContext& ctx, std::optional<int64_t> owner_handle);

 private:
  const Entity* Singleton(match::MatchContext& ctx, int32_t index, Kind kind) {
    const Entity* e = index >= 0 ? ctx.Get(index) : nullptr;
    return e != nullptr && KindOf(ctx, e->class_id) == kind ? e : nullptr;
  }
  void Rebuild(match::MatchContext& ctx);
  // Each slot's player controller now (null where none).
  void MapControllers(match::MatchContext& ctx, const Entity* res,
                      const Entity* (&out)[kMaxPlayers]);

  std::vector<int8_t> kinds_;  // by class id; -1 not looked at yet
  int32_t resource_ = -1, radiant_ = -1, dire_ = -1;
  std::set<int32_t> controllers_;  // entity indexes
  std::unique_ptr<PlayerFields> players_[kMaxPlayers];
  match::FieldReader team_num_{"m_iTeamNum"};
  match::FieldReader controller_id_{"m_nPlayerID", "m_iPlayerID"};
  match::FieldReader assigned_hero_{"m_hAssignedHero"};
  // The changes that move the roster.
  match::FieldCodes moves_{{{"m_vecPlayerData.#.m_iPlayerTeam", 1},
                            {"m_vecPlayerTeamData.#.m_hSelectedHero", 1},
                            {"m_iTeamNum", 1},
                            {"m_nPlayerID", 1},
                            {"m_iPlayerID", 1},
                            {"m_hAssignedHero", 1}}};
  Slot slots_[kMaxPlayers];
  // Handles of the heroes the slots name (0: none), for creations.
  uint32_t wanted_[kMaxPlayers] = {};
  bool stale_ = true;
  uint64_t generation_ = 0;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_ROSTER_H_
