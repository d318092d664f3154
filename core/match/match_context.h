// MatchContext: what a game module sees of the parse, and where its rows go.
//
// It gives read access to the live entities (by index and by handle), class
// names, the EntityNames string table, where the parse is (index tick and
// server tick) and the tick interval, and passes kills and wards on to the
// sink. Valid for the whole parse; entity pointers only until the entity
// changes or goes.
#ifndef GEM_CORE_MATCH_MATCH_CONTEXT_H_
#define GEM_CORE_MATCH_MATCH_CONTEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/entities.h"
#include "core/match/field_reader.h"
#include "core/match_rows.h"
#include "core/schema.h"
#include "core/sink.h"
#include "core/string_table.h"

namespace gem::match {

// An entity handle as fields hold it: 14 index bits, the serial above.
inline constexpr uint32_t kHandleIndexBits = 14;
inline constexpr uint32_t kHandleIndexMask = (1u << kHandleIndexBits) - 1;

class MatchContext {
 public:
  MatchContext(const Schema* schema, const EntityManager* entities,
               const StringTables* tables, Sink* sink)
      : schema_(schema), entities_(entities), tables_(tables), sink_(sink) {}

  const Entity* Get(int32_t index) const { return entities_->Get(index); }
  // The live entity a handle names: the index's entity when its serial
  // matches; null for an invalid handle or one whose entity has gone.
  const Entity* ByHandle(std::optional<int64_t> handle) const;
  // The class's network name ("" when unknown).
  std::string_view ClassName(int32_t class_id) const;
  // The entity's name in the EntityNames table, through its
  // m_pEntity.m_nameStringableIndex ("npc_dota_hero_axe", "hero_atlas");
  // "" when it has none.
  std::string_view EntityName(const Entity& e);
  const StringTables& tables() const { return *tables_; }

  // Where the parse is: the index tick of the state and the server tick
  // (net_Tick) that state belongs to.
  int64_t tick() const { return tick_; }
  // The server tick at index tick `t` (ticks advance together).
  int64_t ServerTickAt(int64_t t) const { return net_tick_ + (t - tick_); }
  double tick_interval() const { return tick_interval_; }

  void Kill(const KillRow& row) { if (sink_) sink_->OnKill(row); }
  void Ward(const WardRow& row) { if (sink_) sink_->OnWard(row); }

  // Kept current by the match layer.
  void SetPosition(int64_t tick, uint32_t net_tick) {
    tick_ = tick;
    net_tick_ = net_tick;
  }
  void SetTickInterval(double interval) { tick_interval_ = interval; }

 private:
  const Schema* schema_;
  const EntityManager* entities_;
  const StringTables* tables_;
  Sink* sink_;
  int64_t tick_ = -1;
  int64_t net_tick_ = 0;
  double tick_interval_ = 0;
  FieldReader name_index_{"m_pEntity.m_nameStringableIndex"};
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_MATCH_CONTEXT_H_
