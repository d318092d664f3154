// HeldEntities: what each player's hero or pawn holds in one of its handle
// arrays (a Dota hero's items, m_hItems; its abilities, m_hAbilities /
// m_vecAbilities; a Deadlock pawn's m_vecAbilities), as rows of a table: one
// row whenever a position's content changes. Rows: (tick, game_time, slot,
// position, name, value, entity).
//
// A position's content is the entity its handle names (the held entity's
// lifetime id), that entity's name (its EntityNames entry: "item_blink",
// "antimage_blink") and one value of it (an item's m_iCurrentCharges, an
// ability's m_iLevel; or the number of bits set in it), all as of the row's
// tick: the frame at whose end the change is seen, so each row is what
// gem_state gives for those fields at that tick. A table may take only
// some of the entities an array holds (Deadlock's items and abilities share
// one): the others are empty positions to it. An empty position (the handle's index bits all set, or no
// value) has NULL entity, name and value; so has a handle that names no
// live entity, and a held entity without a name has a NULL name: both are
// counted (counters()), never dropped.
//
// Nothing is read per field change but a code lookup (field_codes.h): the
// hero's array positions, the held entity's name and value are followed
// by their changes (the module marks them), entity creations and
// deletions and the changes of a slot's hero, and read again only at the
// end of a frame that moved them.
#ifndef GEM_CORE_MATCH_HELD_ENTITIES_H_
#define GEM_CORE_MATCH_HELD_ENTITIES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/match/field_codes.h"
#include "core/match/field_reader.h"
#include "core/match/match_context.h"
#include "core/events/table_spec.h"

namespace gem::match {

// The table HeldEntities writes: (id, tick, game_time, slot, position,
// <held>, <value>, entity), e.g. ("inventory", ..., "item", "charges").
// The game's docs of the three columns whose meaning is its own: the
// position in the hero's handle array, the held entity's name column and
// its value column (their names and docs; the types are the table's).
struct HeldColumnDocs {
  const char* position;
  const char* held;
  const char* held_doc;
  const char* value;
  const char* value_doc;
};
TableSpec HeldTableSpec(const char* name, const char* comment, const HeldColumnDocs& docs);

struct HeldOptions {
  // The held entity's value: the field's, or the bits set in it.
  bool count_bits = false;
  // Whether the table takes an entity of the class (null: every one).
  bool (*takes)(std::string_view class_name) = nullptr;
};

class HeldEntities {
 public:
  static constexpr int kMaxPositions = 64;
  static constexpr int kMaxSlots = 64;

  // `codes` and `kind`: the hero's handle array positions, as the module's
  // field codes name them (every name builds give the array); `value`: the
  // held entity's value field names; `table` the table the rows go to;
  // `what` names the counters ("inventory").
  HeldEntities(FieldCodes* codes, uint16_t kind, std::vector<std::string> value, uint32_t table,
               std::string what, HeldOptions options = {});

  // Position `position` of slot `slot`'s hero changed (a handle change).
  void MarkPosition(int slot, uint32_t position);
  // Every position of the slot (its hero changed).
  void MarkSlot(int slot);
  // The held entity at `index` changed its name or value.
  void MarkHeld(int32_t index);
  void OnCreated(const Entity& e);
  void OnDeleted(const Entity& e);

  // Whether something is marked.
  bool pending() const { return any_dirty_; }
  // Reads what was marked and writes a row for each position whose
  // content differs from its last row. `heroes[slot]`: each slot's hero
  // or pawn now (null: none); `game_time` the clock now.
  void Resolve(MatchContext& ctx, std::span<const Entity* const> heroes,
               const MatchValue& game_time);

  // Whether a position of `slot`'s hero holds an entity named `name`, as
  // the rows written so far say (the content after the last Resolve).
  bool Holds(int slot, std::string_view name) const;

  // (name, count): handles to no entity, held entities without a name.
  std::vector<std::pair<std::string, uint64_t>> Counters() const;

 private:
  struct Content {
    uint64_t entity = 0;  // lifetime id; 0: none
    int32_t index = -1;
    uint32_t handle = 0;
    std::string name;     // "" with entity: no name
    std::optional<int64_t> value;
    bool operator==(const Content& o) const {
      return entity == o.entity && name == o.name && value == o.value;
    }
  };
  struct Player {
    uint64_t dirty = 0;  // bit per position
    Content held[kMaxPositions];
  };
  // The handle at `position` of `hero`'s array.
  std::optional<int64_t> Handle(const Entity& hero, uint32_t position);
  void Ref(int32_t index, int slot, uint32_t position, bool add);
  bool Takes(MatchContext& ctx, const Entity& e);

  FieldCodes* codes_;
  uint16_t kind_;
  FieldReader value_;
  uint32_t table_;
  std::string what_;
  HeldOptions options_;
  std::vector<int8_t> takes_;  // by class id: -1 not asked yet
  // By slot, grown to the highest slot marked: a module holds a few of
  // these from its start, and 64 slots of 64 positions each would be
  // ~300 KB to build and zero for every replay, however short.
  std::vector<Player> players_;
  bool any_dirty_ = false;
  // Held entity index -> slot * kMaxPositions + position + 1; 0 none,
  // kMany: held in more than one place (then all are looked through).
  static constexpr uint16_t kMany = 0xFFFF;
  std::vector<uint16_t> held_by_;
  uint64_t missing_ = 0, unnamed_ = 0;
  std::vector<MatchValue> row_;
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_HELD_ENTITIES_H_
