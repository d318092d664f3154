// MatchLayer: runs a game's module beside the parse and hands its rows to
// the sink (players, timeline, kills, wards, the match summary).
//
// The parser owns one when ParserOptions::match_layer is set, and calls it
// before and after every outer frame, for every entity, game event,
// combat-log entry and unread user message, and once at the end.
//
// Timeline samples are the index ticks that are multiples of the step (one
// game second by default: the tick rate) from the first tick of play, and
// the last tick; only frames that carry state (packets, full packets, the
// stop) count. A sample at tick T is taken just before the first frame
// whose index tick is past T, so its values are the state after every
// packet with tick <= T: the rule gem_state answers by. The game clock is
// the module's; the first sample at which it reads >= 0 fixes start_tick.
#ifndef GEM_CORE_MATCH_MATCH_LAYER_H_
#define GEM_CORE_MATCH_MATCH_LAYER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/entities.h"
#include "core/events.h"
#include "core/match/game_module.h"
#include "core/match/match_context.h"
#include "core/match_rows.h"
#include "core/sink.h"
#include "core/tick_order.h"

namespace gem::match {

struct MatchOptions {
  // Ticks between timeline samples; 0: one game second (the tick rate).
  int64_t timeline_step = 0;
};

// The module of `game` ("dota2", "cs2", "deadlock"); null for a game gem
// does not know.
std::unique_ptr<GameModule> CreateGameModule(std::string_view game);

class MatchLayer {
 public:
  // Every timeline column of `game`'s index, common ones first.
  static std::vector<MatchColumn> TimelineColumnsFor(std::string_view game);

  MatchLayer(const Schema* schema, const EntityManager* entities,
             const StringTables* tables, Sink* sink, const MatchOptions& options);
  ~MatchLayer();

  // The header named the game (a module is chosen once).
  void SetGame(std::string_view game);
  // svc_ServerInfo's tick interval (seconds a tick).
  void SetTickInterval(double interval);

  void BeforeFrame(const TickInfo& next);
  // The frame has been applied: its tick and the server tick it ended on
  // are where the state is.
  void AfterFrame(const TickInfo& t) { At(t); }
  void OnEntityCreated(const TickInfo& t, const Entity& e);
  // Called for every update of every entity: classes the module does not
  // watch cost one table lookup.
  void OnEntityUpdated(const TickInfo& t, const Entity& e, std::span<const FieldChange> c) {
    const size_t k = static_cast<size_t>(e.class_id);
    if (e.class_id >= 0 && k < watched_.size() && watched_[k] == 0) return;
    UpdateWatched(t, e, c);
  }
  void OnEntityDeleted(const TickInfo& t, const Entity& e);
  void OnGameEvent(const TickInfo& t, const GameEvent& e);
  void OnCombatLog(const TickInfo& t, const CombatLogEntry& e);
  void OnUserMessage(const TickInfo& t, uint32_t type, const uint8_t* data, size_t size);
  // The last samples and the summary (after a truncated replay too).
  void Finish(const ReplayMetadata& meta);

 private:
  class Emitter;
  void At(const TickInfo& t) { ctx_.SetPosition(ticks_.Peek(t), t.net_tick); }
  bool Watched(int32_t class_id);
  void UpdateWatched(const TickInfo& t, const Entity& e, std::span<const FieldChange> c);
  void Sample(int64_t tick);

  MatchContext ctx_;
  Sink* sink_;
  MatchOptions options_;
  std::string game_;
  std::unique_ptr<GameModule> module_;
  std::unique_ptr<Emitter> emitter_;
  std::vector<int8_t> watched_;  // by class id: -1 unknown, 0 no, 1 yes
  std::vector<MatchValue> row_;
  TickOrder ticks_;
  int64_t step_ = 0;
  bool started_ = false;
  int64_t next_sample_ = 0;
  int64_t last_sampled_ = -1;
  std::optional<double> last_game_time_;
  std::optional<int64_t> start_tick_;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_MATCH_LAYER_H_
