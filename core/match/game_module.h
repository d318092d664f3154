// GameModule: everything gem knows of one game, behind one interface.
//
// A module (core/dota, core/cs2, core/deadlock; registered in games.cc)
// watches the parse through the GameLayer and does two jobs:
//
// - Decoding the game's own messages, in every parse: the user messages
//   it lists (user_messages(), with the priority they are applied at in a
//   packet), its part of the file info, the game events it reads, and the
//   match facts of the replay's metadata (match id, mode, winner, start and
//   end). What it decodes it reports as rows of the tables it declares
//   (schema()), and text chat as chat lines.
// - The match layer, when asked for (ParserOptions::match_layer): which
//   entities are players and heroes or pawns, where they are, the game
//   clock, kills, wards and the game's analyst tables. The layer owns the
//   sampling schedule and the timeline's common shape; the module fills
//   them. Everything it reports is the state of the replay at the moment
//   it is asked (the state at the current index tick), so every value is
//   the as-of value of the fields behind it.
//
// Entity callbacks come only when the parse has a sink (a parse without
// one keeps the state but reports no changes); OnFrameEnd always comes.
#ifndef GEM_CORE_MATCH_GAME_MODULE_H_
#define GEM_CORE_MATCH_GAME_MODULE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/entities/entities.h"
#include "core/events/events.h"
#include "core/events/game_events.h"
#include "core/fields/field_decoder.h"
#include "core/match/match_context.h"
#include "core/events/match_rows.h"
#include "core/util/status.h"
#include "core/events/table_spec.h"

namespace gem::match {

// A user message a module reads, and where it is applied among a packet's
// messages (lower first; see core/input/inner_messages.h: entities are at 5).
struct UserMessageSpec {
  uint32_t type;
  int priority;
};

class GameModule {
 public:
  virtual ~GameModule() = default;

  // --- What the game is (the same for every replay of it).

  // The tables the module writes (none by default).
  virtual const GameSchema& schema() const;
  // The user messages it decodes.
  virtual std::span<const UserMessageSpec> user_messages() const { return {}; }
  // The game's timeline columns, which follow kTimelineCommonColumns.
  virtual std::span<const MatchColumn> extra_columns() const = 0;
  // World units per position cell (see body.h).
  virtual float cell_width() const = 0;
  // How the game's own integer types decode (HeroID_t's signedness).
  virtual std::span<const TypeRule> type_rules() const { return {}; }
  // The game-event descriptor lists of the builds the module knows, for a
  // replay that lacks its own (core/<game>/event_lists/).
  virtual std::span<const KnownEventList> known_event_lists() const { return {}; }

  // --- Decoding (every parse).

  // Once, before the first frame is read (the sink is open): rows that do
  // not depend on the replay (names of enumerations).
  virtual void Start(MatchContext&) {}
  // A user message of a type user_messages() lists. A message that does
  // not parse is an error that stops the parse (the replay is damaged).
  virtual Status OnUserMessage(MatchContext&, uint32_t /*type*/, const uint8_t*, size_t) {
    return Status::Ok();
  }
  // The string tables whose entries the module reads (OnStringTableEntry),
  // by name; none by default.
  virtual std::span<const std::string_view> string_tables() const { return {}; }
  // Entry `index` of a table string_tables() names was set (created or
  // updated) in the frame being applied, with the match layer on.
  virtual void OnStringTableEntry(MatchContext&, const StringTable&, int32_t /*index*/) {}
  // CDemoFileInfo.game_info (a CGameInfo, serialized): the game's part of
  // the file info. Fills what it tells of the match into `meta`.
  virtual Status OnGameInfo(MatchContext&, const uint8_t*, size_t, ReplayMetadata*) {
    return Status::Ok();
  }
  // Every game event (after the sink has it).
  virtual void OnGameEvent(MatchContext&, const GameEvent&) {}
  // After every outer frame: the state is the frame's.
  virtual void OnFrameEnd(MatchContext&, ReplayMetadata*) {}
  // At the end of the parse (after a failed one too): the match facts the
  // game's entities still tell, where the file info gave none.
  virtual void FinishMetadata(MatchContext&, ReplayMetadata*) {}
  // What the module counted, as (name, count) pairs (gem-dump summary).
  virtual std::vector<std::pair<std::string, uint64_t>> Counters() const { return {}; }

  // --- Entities (with a sink).

  // Whether updates of entities of this class matter to the module
  // (asked once per class; creations and deletions are always reported;
  // MatchContext::Watch adds classes later).
  virtual bool Watches(std::string_view class_name) const = 0;
  virtual void OnEntityCreated(MatchContext&, const Entity&) {}
  virtual void OnEntityUpdated(MatchContext&, const Entity&,
                               std::span<const FieldChange> /*changes*/) {}
  virtual void OnEntityDeleted(MatchContext&, const Entity&) {}
  // A client's recording saw the entity leave its view: it stays, inactive
  // (match::InView), until it comes back as an update.
  virtual void OnEntityLeft(MatchContext&, const Entity&) {}

  // --- The match layer (only when it runs).

  // The game clock at index tick `tick` (no later than the state), in
  // seconds, negative before the game starts; nullopt when the replay does
  // not tell yet (hero selection, warm-up). Rounded to the millisecond:
  // the clocks are float32 fields and tick counts (a 30 or 64 Hz tick
  // tells no finer), and unrounded they print as -17.7333359867334 for
  // -17.733. Every table's game_time comes from here.
  std::optional<double> GameTime(MatchContext& ctx, int64_t tick) {
    const std::optional<double> t = ClockAt(ctx, tick);
    if (!t) return std::nullopt;
    return RoundToMillisecond(*t);
  }
  static double RoundToMillisecond(double seconds);
  // `clock` (a game_time cell) when it holds a time, else the clock
  // counted back from `start_tick` (where it read 0) at `tick` as the
  // indexer counts it for rows before the clock is known; NULL without a
  // start tick.
  static MatchValue ClockOrCountedBack(const MatchValue& clock, int64_t tick,
                                       std::optional<int64_t> start_tick, double tick_interval);

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
  // winner), or a note saying why there are none; the last rows of its
  // tables.
  virtual void Finish(MatchContext&, const ReplayMetadata& meta, MatchSummary* out) = 0;
  // A live index's commit, mid-parse: the rows of the tables written at
  // the end (TableSpec::Written::kAtEnd), through ctx.Row, as Finish would
  // write them if the replay ended now. Changes nothing the parse goes on
  // with (the sink takes these rows for the commit only). None by default.
  virtual void WriteSoFar(MatchContext&) {}
  // The players as the module's book has them now (as of its last
  // sample), for a live index's commit: Finish's players before its last
  // look. None by default.
  virtual void PlayersSoFar(std::vector<PlayerRow>* /*out*/) const {}
 protected:
  // The game's own clock at `tick`, unrounded (see GameTime).
  virtual std::optional<double> ClockAt(MatchContext&, int64_t tick) = 0;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_GAME_MODULE_H_
