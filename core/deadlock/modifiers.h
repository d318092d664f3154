// Modifiers: Deadlock's buffs and debuffs, one row per life of an entry of
// the ActiveModifiers string table.
//
// An entry's data is a CModifierTableEntry (Valve's base_modifier.proto:
// entry_type 1, parent 2, serial_number 3, modifier_subclass 4,
// stack_count 5, max_stack_count 6, last_applied_time 7, duration 8,
// caster 9, ability 10, ability_subclass 13). A life begins when an entry
// holds a serial it did not hold before (applied: its tick), goes on while
// the entry keeps that serial (stacks, duration and last applied time as
// last sent), and ends when the entry says MODIFIER_ENTRY_TYPE_REMOVED (2)
// or takes another serial (removed: that tick). Lives still running at the
// end have NULL removed_tick. The row is written when the life ends, so
// rows come in the order modifiers went.
//
//   modifiers(id, tick, game_time, removed_tick, removed_time, slot, parent,
//             parent_class, caster, caster_slot, ability, ability_id,
//             modifier_id, modifier, serial, stacks, max_stacks, duration,
//             last_applied)
//
// `parent` and `caster` are entity indexes (from the handles, looked up at
// the end of the first frame in which the parent exists, from the one the
// life began in, for up to 300 frames: a signon's entries name the
// entities of the first packet), `slot` and `caster_slot` their players; `ability` the ability entity's EntityNames
// name, else the name of ability_subclass (StringToken); `modifier_id`
// modifier_subclass, the token of the modifier's name: the replay holds no
// modifier names, so `modifier` is the name known_names.h gives that token,
// else NULL, counted as unknown_modifier_ids. Entries that do not parse count as
// damaged_modifier_entries and give no row.
#ifndef GEM_CORE_DEADLOCK_MODIFIERS_H_
#define GEM_CORE_DEADLOCK_MODIFIERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/deadlock/match_messages.h"
#include "core/deadlock/urn.h"
#include "core/string_tables/string_table.h"

namespace gem::deadlock {

class Modifiers {
 public:
  // Lives begun (once their parent is looked up) and ended are told to
  // `urn` (urn.h).
  Modifiers(MatchMessages* names, Urn* urn) : names_(names), urn_(urn) {}
  // Entry `index` of ActiveModifiers was set.
  void OnEntry(match::MatchContext& ctx, MessageHost& host, const StringTable& table,
               int32_t index);
  // After each frame: the entities of the lives not yet looked up, where
  // their parent now exists (see above).
  void OnFrameEnd(match::MatchContext& ctx, MessageHost& host);
  // The lives still running, with no removal.
  void Finish(match::MatchContext& ctx);
  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  struct Life {
    bool live = false;
    uint32_t serial = 0;
    std::vector<MatchValue> row;  // the row so far (text cells point into `text`)
    std::string ability, parent_class;
    uint32_t parent = 0, caster = 0, ability_handle = 0;  // handles, kNoHandle for none
    bool resolved = false;
  };
  void Resolve(match::MatchContext& ctx, MessageHost& host, Life* life);
  void End(match::MatchContext& ctx, MessageHost* host, Life* life);

  static std::optional<uint32_t> Id(const MatchValue& v) {
    return v.is_null() ? std::nullopt : std::optional<uint32_t>(static_cast<uint32_t>(v.i));
  }

  MatchMessages* names_;
  Urn* urn_;
  std::vector<Life> lives_;  // by entry index
  struct Pending {
    int32_t index;
    uint32_t serial;
    uint32_t frames;  // frame ends waited for the parent
  };
  std::vector<Pending> begun_;  // lives whose entities are not yet looked up
  uint64_t damaged_ = 0, unknown_ = 0;
};

}  // namespace gem::deadlock

#endif  // GEM_CORE_DEADLOCK_MODIFIERS_H_
