// The match layer's tables in a gem index: match_info, players, timeline,
// kills and wards (core/events/match_rows.h gives their rows). They are plain
// tables any SQLite tool reads; the timeline's columns are the common ones
// then the game's own, as the game's module declares them.
//
//   match_info(game, map, match_id, game_mode, winner, winner_name,
//              tick_rate, first_tick, last_tick, start_tick, duration_s,
//              match_mode)
//   players(slot, player_id, team, name, steam_id, hero, controller, pawn)
//   timeline(tick, game_time, slot, entity, alive, x, y, z, pitch, yaw,
//            health, max_health, team, <game columns>)  by (slot, tick)
//   kills(id, tick, game_time, victim, killer, assisters, weapon, headshot,
//         x, y, z, <game columns>)
//   wards(entity, kind, team, owner, placed_tick, removed_tick, x, y, z)
#ifndef GEM_INDEXER_MATCH_TABLES_H_
#define GEM_INDEXER_MATCH_TABLES_H_

#include <span>
#include <string>

#include "core/events/match_rows.h"
#include "core/util/status.h"
#include "core/events/table_spec.h"
#include "indexer/row_buffer.h"
#include "indexer/sqlite_db.h"

namespace gem::index {

// CREATE statements of the match tables, the timeline with `timeline`'s
// columns (kTimelineCommonColumns first), kills with the game's own
// columns after the common ones.
std::string MatchSchemaSql(std::span<const MatchColumn> timeline,
                           std::span<const TableColumn> kill_columns);

// Insert targets ("table(col, ...)") and their column counts.
std::string TimelineInsertTarget(std::span<const MatchColumn> timeline);
std::string KillsInsertTarget(std::span<const TableColumn> kill_columns);
inline constexpr int kKillsCommonColumns = 10;
inline constexpr const char* kWardsInsertTarget =
    "wards(entity, kind, team, owner, placed_tick, placed_time, removed_tick, removed_time, "
    "killed, killer_name, x, y, z)";
inline constexpr int kWardsColumns = 13;
inline constexpr const char* kMatchInfoInsertTarget =
    "match_info(game, map, match_id, game_mode, winner, winner_name, tick_rate, first_tick, "
    "last_tick, start_tick, duration_s, match_mode)";
inline constexpr int kMatchInfoColumns = 12;
inline constexpr const char* kPlayersInsertTarget =
    "players(slot, player_id, team, name, steam_id, hero, controller, pawn)";
inline constexpr int kPlayersColumns = 8;

// Adds a row's values to a recorded row.
inline void AddValue(RowBuffer* row, const MatchValue& v) {
  switch (v.kind) {
    case MatchValue::Kind::kNull: row->Null(); break;
    case MatchValue::Kind::kInt: row->Int(v.i); break;
    case MatchValue::Kind::kReal: row->Real(v.r); break;
    case MatchValue::Kind::kText: row->Text(v.s); break;
  }
}
// `extra_columns`: how many game columns the kills table has.
void AddKill(RowBuffer* row, const KillRow& k, size_t extra_columns);
void AddWard(RowBuffer* row, const WardRow& w);
// match_info's row and a players row of a summary (the inserts above).
void AddMatchInfo(RowBuffer* row, const MatchSummary& m);
void AddPlayer(RowBuffer* row, const PlayerRow& p);

// Writes match_info and players; then gives the clock to the rows sampled
// before the game said where it starts (warm-up, hero selection): counted
// back from start_tick at the tick rate. Rows of the game's tables that
// have a tick and a game_time column are given it the same way.
Status WriteMatchSummary(Db* db, const MatchSummary& s, const GameSchema& game);
// The tables whose rows WriteMatchSummary gives the clock to: timeline,
// kills, and the game's that have a tick and a game_time column.
std::vector<std::string> ClockTables(const GameSchema& game);
// The statement that gives it, ?1 the start tick and ?2 the tick rate,
// followed by `where` ("AND ..."): the live index gives the clock to its
// rows with the very expression the end gives it with.
std::string FillClockSql(const std::string& table, const std::string& where);

}  // namespace gem::index

#endif  // GEM_INDEXER_MATCH_TABLES_H_
