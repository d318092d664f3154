// GameLayer: runs the replay's game module beside the parse (see
// game_module.h): the game's own messages in every parse, and the match
// layer (players, timeline, kills, wards, the game's analyst tables, the
// match summary) when the options ask for it.
//
// The parser owns one, and calls it before and after every outer frame,
// for every entity, game event and user message the module reads, for the
// file info's game part, and once at the end.
//
// Timeline samples are the index ticks that are multiples of the step (one
// game second by default: the tick rate) from the first tick of play, and
// the last tick; only frames that carry state (packets, full packets, the
// stop) count. A sample at tick T is taken just before the first frame
// whose index tick is past T, so its values are the state after every
// packet with tick <= T: the rule gem_state answers by. The game clock is
// the module's; the first sample at which it reads >= 0 fixes start_tick.
#ifndef GEM_CORE_MATCH_GAME_LAYER_H_
#define GEM_CORE_MATCH_GAME_LAYER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/entities/entities.h"
#include "core/events/events.h"
#include "core/match/game_module.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"
#include "core/events/sink.h"
#include "core/events/tick_order.h"

namespace gem::match {

struct GameLayerOptions {
  // Run the match layer (timeline, players, kills, wards, analyst tables).
  bool match_layer = false;
  // With it, the game's analyst tables (ParserOptions::game_tables).
  bool game_tables = true;
  // Ticks between timeline samples; 0: one game second (the tick rate).
  int64_t timeline_step = 0;
};

class GameLayer {
 public:
  GameLayer(const Schema* schema, const EntityManager* entities,
            const StringTables* tables, Sink* sink, const GameLayerOptions& options);
  ~GameLayer();

  // The header named the game (a module is chosen once; none for a game
  // gem does not know). The module's Start runs here.
  void SetGame(std::string_view game);
  // svc_ServerInfo's tick interval (seconds a tick).
  void SetTickInterval(double interval);
  // The module, or null.
  const GameModule* module() const { return module_.get(); }
  // The summary as far as it is known mid-parse, `meta` the replay's so
  // far (a live index's meta, clock, match_info and players): the game,
  // map, ticks, tick rate, start tick and clock, the position rule and the
  // timeline's step, and the players as the module's book has them; not
  // what only the end says (a winner, a mode from the file info).
  MatchSummary SoFar(const ReplayMetadata& meta) const;
  // The module's rows of its end-written tables as of now
  // (GameModule::WriteSoFar), when its tables are written.
  void WriteSoFar();

  // Whether the module reads user messages of this type, and the priority
  // it applies them at (see UserMessageSpec).
  bool Reads(uint32_t type) const {
    return type < reads_.size() && reads_[type] != kNotRead;
  }
  int PriorityOf(uint32_t type) const { return reads_[type]; }
  // One past the largest type the module reads.
  size_t ReadsEnd() const { return reads_.size(); }

  void BeforeFrame(const TickInfo& next);
  // The samples due up to the last frame's tick, taken now rather than
  // before the next frame (which is later than it: the input says so;
  // Parser::InputWaiting), with nothing else of the clock moved.
  void SampleThroughLastFrame();
  // The frame has been applied: its tick and the server tick it ended on
  // are where the state is.
  void AfterFrame(const TickInfo& t, ReplayMetadata* meta);
  void OnEntityCreated(const TickInfo& t, const Entity& e);
  // Called for every update of every entity: classes the module does not
  // watch cost one table lookup.
  void OnEntityUpdated(const TickInfo& t, const Entity& e, std::span<const FieldChange> c) {
    if (!options_.match_layer) return;  // no class is watched
    const size_t k = static_cast<size_t>(e.class_id);
    if (e.class_id >= 0 && k < watched_.size()) {
      if (watched_[k] == 0) return;
      if (watched_[k] == 1) {
        At(t);
        module_->OnEntityUpdated(ctx_, e, c);
        return;
      }
    }
    UpdateWatched(t, e, c);
  }
  void OnEntityDeleted(const TickInfo& t, const Entity& e);
  // A client's recording saw `e` leave its view (it stays, inactive).
  void OnEntityLeft(const TickInfo& t, const Entity& e);
  // Whether the module reads the entries of this table (with the match
  // layer on), and each entry set in it.
  bool ReadsTable(const StringTable& table) const;
  void OnStringTableEntry(const TickInfo& t, const StringTable& table, int32_t index);
  void OnGameEvent(const TickInfo& t, const GameEvent& e);
  // A message Reads() says the module reads.
  Status OnUserMessage(const TickInfo& t, uint32_t type, const uint8_t* data, size_t size);
  Status OnGameInfo(const TickInfo& t, const uint8_t* data, size_t size, ReplayMetadata* meta);
  // The match facts the module fills in at the end (after a failed parse
  // too).
  void FinishMetadata(ReplayMetadata* meta);
  // The last samples, the module's last rows and the summary (after a
  // truncated replay too).
  void Finish(const ReplayMetadata& meta);

  // Chat lines the module reported.
  uint64_t chat_lines() const { return ctx_.chat_lines(); }

 private:
  class Emitter;
  static constexpr int8_t kNotRead = INT8_MIN;
  // Where the parse is: once a frame (every event of a frame has its
  // TickInfo, and index ticks move only between frames).
  void At(const TickInfo& t) {
    if (t.offset == ctx_.frame().offset && t.command == ctx_.frame().command &&
        t.net_tick == ctx_.frame().net_tick && t.tick == ctx_.frame().tick && !moved_) {
      return;
    }
    moved_ = false;
    ctx_.SetPosition(t, ticks_.Peek(t));
  }
  bool Watched(int32_t class_id);
  void UpdateWatched(const TickInfo& t, const Entity& e, std::span<const FieldChange> c);
  void Sample(int64_t tick);

  MatchContext ctx_;
  Sink* sink_;
  GameLayerOptions options_;
  std::string game_;
  std::unique_ptr<GameModule> module_;
  std::unique_ptr<Emitter> emitter_;
  std::vector<int8_t> reads_;    // by user message type: priority, or kNotRead
  std::vector<int8_t> watched_;  // by class id: -1 unknown, 0 no, 1 yes
  std::vector<MatchValue> row_;
  TickOrder ticks_;
  bool moved_ = true;  // ticks_ moved since the position was set
  int64_t step_ = 0;
  bool started_ = false;
  int64_t next_sample_ = 0;
  int64_t last_sampled_ = -1;
  std::optional<double> last_game_time_;
  std::optional<int64_t> start_tick_;
  // Ticks a second, as the summary says it.
  double TickRate() const;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_GAME_LAYER_H_
