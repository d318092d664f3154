// PlayerControllers: the players of engines' CBasePlayerController games
// (CS2, Deadlock), where each player is a controller entity.
//
// A controller at entity index i is player slot i - 1 (the slot game events
// call "userid"); it names its player (m_iszPlayerName, m_steamID), team
// (m_iTeamNum: 2 and 3 play, 1 spectates, 0 is unassigned) and pawn
// through a game-specific handle field. The player's user id is the
// `userid` of its userinfo string-table entry (CMsgPlayerInfo, entry = slot),
// else the slot.
#ifndef GEM_CORE_MATCH_PLAYER_CONTROLLERS_H_
#define GEM_CORE_MATCH_PLAYER_CONTROLLERS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"

namespace gem::match {

class PlayerControllers {
 public:
  // `controller_class`: the controller's class name; `pawn_field`: the
  // handle field naming the pawn the timeline follows.
  PlayerControllers(std::string controller_class, std::string pawn_field)
      : class_(std::move(controller_class)), pawn_(std::move(pawn_field)) {}

  // Keep track of controllers (call for every creation and deletion).
  void OnCreated(MatchContext& ctx, const Entity& e);
  void OnDeleted(MatchContext& ctx, const Entity& e);
  bool IsController(MatchContext& ctx, int32_t class_id);

  // The controllers in play now (team 2 or 3), by slot; valid until the
  // next call (the buffer is reused: a sample allocates nothing).
  struct Player {
    int32_t slot;
    const Entity* controller;
    const Entity* pawn;  // null when the handle names no live entity
  };
  const std::vector<Player>& InPlay(MatchContext& ctx);
  // The player's slot whose user id (or slot) is `user_id`, -1 if none.
  int32_t SlotOfUserId(MatchContext& ctx, int64_t user_id);
  // The slot whose pawn is the entity at `pawn_index`, -1 if none.
  int32_t SlotOfPawnIndex(MatchContext& ctx, int32_t pawn_index);
  const Entity* Pawn(MatchContext& ctx, const Entity& controller) {
    return ctx.ByHandle(ReadInt(pawn_, &controller));
  }

  // Records what the players are now (name, steam id, team, pawn...) and
  // hands every player ever seen in play; `hero` names a pawn's hero.
  void Record(MatchContext& ctx, const Player& p, std::string_view hero);
  void AppendRows(std::vector<PlayerRow>* out) const;

 private:
  std::optional<int64_t> UserId(MatchContext& ctx, int32_t slot);

  std::string class_;
  FieldReader pawn_;
  FieldReader team_{"m_iTeamNum"}, name_{"m_iszPlayerName"}, steam_{"m_steamID"};
  std::vector<int8_t> is_controller_;  // by class id; -1 unknown
  std::set<int32_t> indexes_;          // live controllers' entity indexes
  std::map<int32_t, PlayerRow> book_;  // by slot
  std::vector<Player> in_play_;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_PLAYER_CONTROLLERS_H_
