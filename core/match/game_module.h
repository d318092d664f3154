// GameModule: what one game's classes and fields mean, for the match layer.
//
// A module (core/dota, core/cs2, core/deadlock) watches the parse through
// the MatchLayer and answers in the terms analysts use: which entities are
// players and heroes or pawns, where they are, the game clock, kills and
// wards. The match layer owns the sampling schedule and the rows' common
// shape; the module fills them. Everything a module reports is the state
// of the replay at the moment it is asked (the state at the current index
// tick), so every timeline value is the as-of value of the fields behind
// it.
#ifndef GEM_CORE_MATCH_GAME_MODULE_H_
#define GEM_CORE_MATCH_GAME_MODULE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/entities.h"
#include "core/events.h"
#include "core/match/match_context.h"
#include "core/match_rows.h"

namespace gem::match {

class GameModule {
 public:
  virtual ~GameModule() = default;

  // The game's timeline columns, which follow kTimelineCommonColumns.
  virtual std::span<const MatchColumn> extra_columns() const = 0;
  // World units per position cell (see body.h).
  virtual float cell_width() const = 0;

  // Whether updates of entities of this class matter to the module
  // (asked once per class; creations and deletions are always reported).
  virtual bool Watches(std::string_view class_name) const = 0;
  virtual void OnEntityCreated(MatchContext&, const Entity&) {}
  virtual void OnEntityUpdated(MatchContext&, const Entity&,
                               std::span<const FieldChange> /*changes*/) {}
  virtual void OnEntityDeleted(MatchContext&, const Entity&) {}
  virtual void OnGameEvent(MatchContext&, const GameEvent&) {}
  virtual void OnCombatLog(MatchContext&, const CombatLogEntry&) {}
  virtual void OnUserMessage(MatchContext&, uint32_t /*type*/, const uint8_t*, size_t) {}

  // The game clock at index tick `tick` (no later than the state), in
  // seconds, negative before the game starts; nullopt when the replay does
  // not tell yet (hero selection, warm-up).
  virtual std::optional<double> GameTime(MatchContext&, int64_t tick) = 0;

  // One timeline row per player in the game now. `row` has the common
  // columns then the extra ones; tick and game_time are set by the
  // caller, which passes each finished row to `emit`.
  class RowSink {
   public:
    virtual ~RowSink() = default;
    virtual void Emit(std::span<const MatchValue> row) = 0;
  };
  virtual void Sample(MatchContext&, std::span<MatchValue> row, RowSink& emit) = 0;

  // The end: players, match facts the module knows (match id, mode,
  // winner), or a note saying why there are none.
  virtual void Finish(MatchContext&, const ReplayMetadata& meta, MatchSummary* out) = 0;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_GAME_MODULE_H_
