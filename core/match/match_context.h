// MatchContext: what a game module sees of the parse, and where its rows go.
//
// It gives read access to the live entities (by index and by handle), class
// names, the string tables, where the parse is (index tick and server
// tick) and the tick interval, and passes the module's rows on to the sink:
// rows of its own tables, chat lines, kills and wards. Valid for the whole
// parse; entity pointers only until the entity changes or goes.
#ifndef GEM_CORE_MATCH_MATCH_CONTEXT_H_
#define GEM_CORE_MATCH_MATCH_CONTEXT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/entities/entities.h"
#include "core/match/field_reader.h"
#include "core/events/match_rows.h"
#include "core/fields/schema.h"
#include "core/events/sink.h"
#include "core/string_tables/string_table.h"

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
  // m_pEntity.m_nameStringableIndex (or its later name, m_nameStringTableIndex):
  // "npc_dota_hero_axe", "hero_atlas";
  // "" when it has none.
  std::string_view EntityName(const Entity& e);
  const StringTables& tables() const { return *tables_; }

  // Where the parse is: the index tick of the state and the server tick
  // (net_Tick) that state belongs to.
  int64_t tick() const { return tick_; }
  // The outer frame the parse is in (its raw tick, command, offset).
  const TickInfo& frame() const { return info_; }
  // The server tick at index tick `t` (ticks advance together).
  int64_t ServerTickAt(int64_t t) const { return net_tick_ + (t - tick_); }
  double tick_interval() const { return tick_interval_; }
  // The tick where the game clock read 0, once a timeline sample has
  // shown it (the match summary's start_tick, known so far): a row timed
  // before the clock was known counts back from it, so a row written
  // when it closes waits for it (or for the end, where it is final).
  std::optional<int64_t> start_tick() const { return start_tick_; }

  // Whether the match layer runs: its tables (players, timeline, kills,
  // wards and a game's analyst tables) are wanted. The game's own messages
  // are decoded either way.
  bool match_layer() const { return match_layer_; }
  // Whether the game's analyst tables are written (with the match layer).
  bool game_tables() const { return game_tables_; }
  // Whether anyone takes the rows (a parse without a sink only counts).
  bool has_sink() const { return sink_ != nullptr; }

  // Kills and wards are the match layer's: dropped when it does not run.
  void Kill(const KillRow& row) { if (sink_ && match_layer_) sink_->OnKill(row); }
  void Ward(const WardRow& row) { if (sink_ && match_layer_) sink_->OnWard(row); }
  // A row of table `table` of the game's schema (see Sink::OnTableRow).
  void Row(uint32_t table, std::span<const MatchValue> values) {
    if (sink_) sink_->OnTableRow(table, values);
  }
  // A chat line, filed at the current frame.
  void Chat(const ChatMessage& m) {
    ++chat_lines_;
    if (sink_) sink_->OnChatMessage(info_, m);
  }
  uint64_t chat_lines() const { return chat_lines_; }
  // Updates of entities of the class now matter to the module too.
  void Watch(int32_t class_id) {
    if (class_id < 0 || watched_ == nullptr) return;
    const size_t c = static_cast<size_t>(class_id);
    if (c >= watched_->size()) watched_->resize(c + 1, -1);
    (*watched_)[c] = 1;
  }

  // Kept current by the game layer.
  void SetPosition(const TickInfo& info, int64_t tick) {
    info_ = info;
    tick_ = tick;
    net_tick_ = info.net_tick;
  }
  void SetTickInterval(double interval) { tick_interval_ = interval; }
  void SetStartTick(int64_t tick) { start_tick_ = tick; }
  void SetMatchLayer(bool on) { match_layer_ = on; }
  void SetGameTables(bool on) { game_tables_ = on; }
  // The game layer's watched classes (by class id: -1 not asked yet, 0
  // no, 1 yes).
  void SetWatched(std::vector<int8_t>* watched) { watched_ = watched; }

 private:
  const Schema* schema_;
  const EntityManager* entities_;
  const StringTables* tables_;
  Sink* sink_;
  TickInfo info_;
  int64_t tick_ = -1;
  int64_t net_tick_ = 0;
  double tick_interval_ = 0;
  std::optional<int64_t> start_tick_;
  bool match_layer_ = false;
  bool game_tables_ = true;
  uint64_t chat_lines_ = 0;
  std::vector<int8_t>* watched_ = nullptr;
  // Renamed in Dota 7.41.
  FieldReader name_index_{"m_pEntity.m_nameStringableIndex", "m_pEntity.m_nameStringTableIndex"};
};

}  // namespace gem::match

#endif  // GEM_CORE_MATCH_MATCH_CONTEXT_H_
