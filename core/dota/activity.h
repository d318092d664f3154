// Activity: the tables that answer the second questions of a Dota match,
// written with the match layer and the game's tables on: actions (unit
// orders), lanes, ability_uses, item_uses, multi_kills, kill_streaks,
// pauses and hero_deaths (each described in its own header), fed from the
// module's hooks, so that the module only forwards.
#ifndef GEM_CORE_DOTA_ACTIVITY_H_
#define GEM_CORE_DOTA_ACTIVITY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/dota/chat.h"
#include "core/dota/combat_log.h"
#include "core/dota/hero_deaths.h"
#include "core/dota/lanes.h"
#include "core/dota/pauses.h"
#include "core/dota/player_events.h"
#include "core/dota/roster.h"
#include "core/dota/unit_orders.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"
#include "core/util/status.h"

namespace gem::dota {

class Activity {
 public:
  explicit Activity(Roster* roster)
      : orders_(roster), events_(roster), pauses_(roster) {}

  // Whether its tables are written in this parse.
  static bool On(const match::MatchContext& ctx) { return ctx.match_layer() && ctx.game_tables(); }

  // `clock` gives the game clock now, as a cell; asked only when a row
  // needs it.
  template <typename Clock>
  Status OnUnitOrders(match::MatchContext& ctx, const uint8_t* data, size_t size, Clock&& clock) {
    return On(ctx) ? orders_.OnMessage(ctx, data, size, clock()) : Status::Ok();
  }
  void OnChatEvent(match::MatchContext& ctx, const ChatEvent& e) {
    if (On(ctx)) pauses_.OnChatEvent(e);
  }
  template <typename Clock>
  void OnCombatLog(match::MatchContext& ctx, const CombatLogEntry& c, Clock&& clock) {
    if (!On(ctx)) return;
    const int32_t type = c.entry->type();
    if (type == kCombatLogAbility || type == kCombatLogItem || type == kCombatLogMultikill ||
        type == kCombatLogKillstreak) {
      events_.OnCombatLog(ctx, c, clock());
    }
  }
  void OnKill(match::MatchContext& ctx, const KillRow& k) {
    if (On(ctx)) events_.OnKill(ctx, k);
  }
  template <typename Clock>
  void OnLifeState(match::MatchContext& ctx, int slot, int64_t state, Clock&& clock) {
    if (On(ctx)) deaths_.OnLifeState(ctx, slot, state, clock());
  }
  // A timeline row of a player (the common columns).
  void OnSample(match::MatchContext& ctx, int slot, std::span<const MatchValue> row);
  template <typename Clock>
  void OnFrameEnd(match::MatchContext& ctx, const Entity* rules, Clock&& clock) {
    if (!On(ctx)) return;
    pauses_.OnFrameEnd(ctx, rules, clock);
    deaths_.OnFrameEnd(ctx);
  }
  // `start_tick` the tick where the clock read 0 (rows before the clock
  // was known count back from it).
  void Finish(match::MatchContext& ctx, std::optional<int64_t> start_tick);

  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  UnitOrders orders_;
  Lanes lanes_;
  PlayerEvents events_;
  Pauses pauses_;
  HeroDeaths deaths_;
};

}  // namespace gem::dota

#endif  // GEM_CORE_DOTA_ACTIVITY_H_
