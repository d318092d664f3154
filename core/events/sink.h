// Sink: how the parser reports what a replay contains.
//
// The parser calls a Sink for every event, in replay order, each with the
// tick it happened at. Every method has an empty default, so a sink
// implements only what it needs. Pointers and string_views passed to a
// method are valid only during the call.
//
// Entities are reported by lifetime: OnEntityCreated carries the complete
// initial state (baseline + creation data), OnEntityUpdated the values one
// update set, including values dropped by an array shrink (as kNone), then
// OnEntityDeleted. A create at an index that holds a live entity deletes it
// first. Field ids are per class (see ClassFields); OnFieldRegistered
// announces each one before it is first used.
#ifndef GEM_CORE_EVENTS_SINK_H_
#define GEM_CORE_EVENTS_SINK_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "core/events/events.h"
#include "core/events/match_rows.h"
#include "core/util/status.h"
#include "core/fields/value.h"

namespace gem {

class ClassFields;
class StringTable;

// Where in the replay an event happened.
struct TickInfo {
  uint32_t tick = 0;       // the outer frame's tick (0xFFFFFFFF in signon)
  uint32_t net_tick = 0;   // the last net_Tick seen
  uint32_t command = 0;    // the outer frame's command (DEM_Packet, ...)
  uint64_t offset = 0;     // the outer frame's byte offset
  bool signon = false;     // the frame is part of the signon
};

struct EntityRef {
  int32_t index = -1;
  uint32_t serial = 0;
  int32_t class_id = -1;
  uint32_t handle = 0;     // (serial << 14) | index
  uint64_t lifetime = 0;   // unique per entity lifetime in this replay
};

struct FieldChange {
  uint32_t field_id = 0;
  Value value;  // kNone: the value was dropped (array shrink)
};

class Sink {
 public:
  virtual ~Sink() = default;

  // The demo header, once, before anything else.
  virtual void OnHeader(const ReplayHeader&) {}
  // Field `field_id` of a class was seen for the first time; its name and
  // type are `fields.meta(field_id)` (formatted on request).
  virtual void OnFieldRegistered(const ClassFields& /*fields*/, uint32_t /*field_id*/) {}

  virtual void OnEntityCreated(const TickInfo&, const EntityRef&,
                               std::span<const FieldChange> /*state*/) {}
  virtual void OnEntityUpdated(const TickInfo&, const EntityRef&,
                               std::span<const FieldChange> /*changes*/) {}
  virtual void OnEntityLeft(const TickInfo&, const EntityRef&) {}
  virtual void OnEntityDeleted(const TickInfo&, const EntityRef&) {}

  // A table was created (before its initial entries are reported).
  virtual void OnStringTableCreated(const TickInfo&, const StringTable&) {}
  // Entry `index` of `table` was set (created, updated or cleared).
  virtual void OnStringTableEntry(const TickInfo&, const StringTable&,
                                  int32_t /*index*/) {}

  virtual void OnGameEvent(const TickInfo&, const GameEvent&) {}
  virtual void OnChatMessage(const TickInfo&, const ChatMessage&) {}

  // A row of one of the tables the replay's game declares
  // (GameModule::schema(), core/events/table_spec.h): `table` is its position in
  // the schema's list, `row` one value per column. Game modules report
  // the game's own messages this way (Dota's combat log, its chat
  // events) and, when the match layer runs, the game's analyst tables.
  virtual void OnTableRow(uint32_t /*table*/, std::span<const MatchValue> /*row*/) {}

  // The match layer (core/events/match_rows.h), when the parser runs it
  // (ParserOptions::match_layer). A timeline row holds the columns
  // TimelineColumnsFor(game) names, in that order; kills and wards come as
  // they happen, the summary once at the end, before OnMetadata.
  virtual void OnTimelineRow(std::span<const MatchValue> /*row*/) {}
  virtual void OnKill(const KillRow&) {}
  virtual void OnWard(const WardRow&) {}
  virtual void OnMatchSummary(const MatchSummary&) {}

  // Before each outer frame is applied (after the match layer's samples
  // due before it): every event of an earlier tick has been reported.
  virtual void OnFrameStart(const TickInfo&) {}
  // After every outer frame has been applied.
  virtual void OnFrameEnd(const TickInfo&) {}
  // The input has no more bytes for now, and what it gave ends a tick (a
  // broadcast between fragments: Parser::InputWaiting): every event of
  // the ticks so far has been reported.
  virtual void OnInputWaiting() {}
  // Once, at the end (also after a recoverable error).
  virtual void OnMetadata(const ReplayMetadata&) {}

  // A sink that failed (its own output broke) says so here; the parser
  // checks after every frame and stops with this status.
  virtual Status Health() const { return Status::Ok(); }
};

}  // namespace gem

#endif  // GEM_CORE_EVENTS_SINK_H_
