// MatchMessages: Deadlock's user messages (messages.h) as rows of its
// tables (tables.h), common chat lines and the match's winner.
//
// Each message is read at the point of its packet the module's
// user_messages() gives (before the packet's entities: the entities a
// message names are those that did what it tells, and a killed one may go
// in the same packet). A message that does not parse gives no row; one
// that names none of what its table needs (a Damage with no victim, a
// KillStreak whose pawn is gone) gives its row with NULLs; both count in
// meta (Counters()), never an error: Deadlock's messages drift between
// builds.
//
// - damage, objective_events: entities by index or handle, their class
//   now; attacker and victim slots when they are players' pawns or
//   controllers.
// - purchases: AbilitiesChanged's change as 'bought', 'upgraded', 'sold',
//   'swapped', 'leveled_up', 'failed' (Valve's enum 0-5), else its number
//   as text.
// - chat: ChatMsg is a common `chat` row (kind "chat", sender the player's
//   slot, channel 1 all chat, 0 team chat).
// - winner: GameOver's winning_team (the last one that is not a test).
#ifndef GEM_CORE_DEADLOCK_MATCH_MESSAGES_H_
#define GEM_CORE_DEADLOCK_MATCH_MESSAGES_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/deadlock/messages.h"
#include "core/deadlock/tables.h"
#include "core/match/field_reader.h"
#include "core/match/game_module.h"
#include "core/match/match_context.h"

namespace gem::deadlock {

// What the module knows that the message tables need.
class MessageHost {
 public:
  virtual ~MessageHost() = default;
  // The slot of the player an entity index names (a pawn or a
  // controller), -1 when none.
  virtual int32_t SlotOfEntity(match::MatchContext& ctx, int32_t index) = 0;
  // The match clock now (NULL before the match starts).
  virtual MatchValue Clock(match::MatchContext& ctx) = 0;
  // A Damage message between two players' entities (slots; the message's
  // damage), as its row is written.
  virtual void OnPlayerDamage(match::MatchContext& ctx, int32_t attacker, int32_t victim,
                              MatchValue damage) = 0;
};

class MatchMessages {
 public:
  // The message types read, with the priority they are applied at.
  static std::span<const match::UserMessageSpec> Specs();

  // A message of one of Specs()' types (HeroKilled and PostMatchDetails
  // excluded: the module's).
  void OnMessage(match::MatchContext& ctx, MessageHost& host, uint32_t type,
                 const uint8_t* data, size_t size);

  std::optional<int32_t> winner() const { return winner_; }
  // BossKilled messages read.
  int64_t objectives_killed() const { return objectives_killed_; }
  // The hero ids BannedHeroes gave, in order.
  const std::vector<int64_t>& banned() const { return banned_; }
  std::vector<std::pair<std::string, uint64_t>> Counters() const;
  // The items bought (AbilitiesChanged 'bought' naming a slot and a known
  // item) since the last call: (slot, item name).
  std::vector<std::pair<int, std::string>> TakeBought() { return std::exchange(bought_, {}); }

  // The name of an ability or item id (StringToken), among the EntityNames
  // entries; empty when unknown.
  std::string_view AbilityName(const match::MatchContext& ctx, uint32_t id);

 private:
  void Damage(match::MatchContext& ctx, MessageHost& host);
  void Objective(match::MatchContext& ctx, MessageHost& host, bool killed);
  void Ping(match::MatchContext& ctx, MessageHost& host, bool wheel);
  void Bans(match::MatchContext& ctx, const uint8_t* data, size_t size);
  // The slot of the player whose pawn or controller a handle names (-1).
  int32_t SlotOfHandle(match::MatchContext& ctx, MessageHost& host,
                       std::optional<uint32_t> handle);
  // The entity of an index or handle, null when none is live.
  const Entity* ByIndex(match::MatchContext& ctx, std::optional<int32_t> index);
  const Entity* ByHandle(match::MatchContext& ctx, std::optional<uint32_t> handle);
  MatchValue ClassOf(match::MatchContext& ctx, const Entity* e);
  MatchValue ItemName(match::MatchContext& ctx, std::optional<uint32_t> id);
  void Emit(match::MatchContext& ctx, uint32_t table, size_t columns);
  void Count(std::string_view what);

  MessageFields m_;
  match::FieldReader lane_{"m_iLane"};  // an objective's lane
  match::FieldReader team_{"m_iTeamNum"};  // the mid boss's killer's team
  std::vector<MatchValue> row_;
  std::unordered_map<uint32_t, std::string> names_;  // token -> EntityNames name
  size_t names_seen_ = 0;  // EntityNames entries hashed so far
  std::optional<int32_t> winner_;
  std::vector<int64_t> banned_;
  int64_t objectives_killed_ = 0;
  std::vector<std::pair<std::string, uint64_t>> counters_;
  std::vector<std::pair<int, std::string>> bought_;
};

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_MATCH_MESSAGES_H_
