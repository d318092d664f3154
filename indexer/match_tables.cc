#include "indexer/match_tables.h"

#include <string>
#include <vector>

namespace gem::index {

std::string MatchSchemaSql(std::span<const MatchColumn> timeline,
                           std::span<const TableColumn> kill_columns) {
  std::string sql = R"sql(
CREATE TABLE match_info(
  game TEXT NOT NULL,
  map TEXT,
  match_id INTEGER,
  game_mode INTEGER,
  winner INTEGER,         -- team number
  winner_name TEXT,
  tick_rate REAL,         -- ticks per second
  first_tick INTEGER,
  last_tick INTEGER,
  start_tick INTEGER,     -- the game clock reads 0; NULL if the replay ends before
  duration_s REAL,        -- the game clock at the end
  match_mode INTEGER      -- how the match was made (Deadlock: ECitadelMatchMode); NULL
                          -- when the game's replay does not say
);

-- One row per player who appears; slot is the numbering every match
-- table uses, controller and pawn are entities.entity ids (the latest).
CREATE TABLE players(
  slot INTEGER PRIMARY KEY,
  player_id INTEGER,
  team INTEGER,
  name TEXT,
  steam_id INTEGER,
  hero TEXT,
  controller INTEGER,
  pawn INTEGER
);

CREATE TABLE kills(
  id INTEGER PRIMARY KEY,
  tick INTEGER NOT NULL,
  game_time REAL,
  victim INTEGER NOT NULL,  -- slot
  killer INTEGER,           -- slot; NULL when not a player
  assisters TEXT NOT NULL,  -- JSON array of slots
  weapon TEXT,
  headshot INTEGER,
  x REAL,
  y REAL,
  z REAL)sql";
  for (const TableColumn& c : kill_columns) sql += ",\n  " + c.name + " " + c.type;
  sql += R"sql(
);

CREATE TABLE wards(
  entity INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,       -- observer or sentry
  team INTEGER,
  owner INTEGER,            -- slot
  placed_tick INTEGER NOT NULL,
  removed_tick INTEGER,     -- NULL while it stands at the end
  x REAL,
  y REAL,
  z REAL
);

-- One row per player per sample; every value is the as-of value of the
-- fields behind it at that tick.
CREATE TABLE timeline(
)sql";
  for (const MatchColumn& c : timeline) {
    sql += "  ";
    sql += c.name;
    sql += ' ';
    sql += c.type;
    const std::string_view name = c.name;
    if (name == "tick" || name == "slot") sql += " NOT NULL";
    sql += ",\n";
  }
  sql += "  PRIMARY KEY(slot, tick)\n) WITHOUT ROWID;\n";
  sql += "CREATE INDEX kills_by_tick ON kills(tick);\n";
  return sql;
}

std::string TimelineInsertTarget(std::span<const MatchColumn> timeline) {
  std::string target = "timeline(";
  for (size_t i = 0; i < timeline.size(); ++i) {
    if (i) target += ", ";
    target += timeline[i].name;
  }
  return target + ")";
}

std::string KillsInsertTarget(std::span<const TableColumn> kill_columns) {
  std::string target = "kills(tick, game_time, victim, killer, assisters, weapon, headshot, x, y, z";
  for (const TableColumn& c : kill_columns) target += ", " + c.name;
  return target + ")";
}

void AddKill(RowBuffer* row, const KillRow& k, size_t extra_columns) {
  row->Int(k.tick);
  AddValue(row, k.game_time);
  row->Int(k.victim);
  if (k.killer) row->Int(*k.killer); else row->Null();
  std::string assisters = "[";
  for (size_t i = 0; i < k.assisters.size(); ++i) {
    if (i) assisters += ',';
    assisters += std::to_string(k.assisters[i]);
  }
  row->Text(assisters + "]");
  if (k.weapon.empty()) row->Null(); else row->Text(k.weapon);
  if (k.headshot) row->Int(*k.headshot ? 1 : 0); else row->Null();
  AddValue(row, k.x);
  AddValue(row, k.y);
  AddValue(row, k.z);
  for (size_t i = 0; i < extra_columns; ++i) {
    if (i < k.extra.size()) AddValue(row, k.extra[i]); else row->Null();
  }
}

void AddWard(RowBuffer* row, const WardRow& w) {
  row->Int(w.entity).Text(w.kind);
  AddValue(row, w.team);
  AddValue(row, w.owner);
  row->Int(w.placed_tick);
  AddValue(row, w.removed_tick);
  AddValue(row, w.x);
  AddValue(row, w.y);
  AddValue(row, w.z);
}

namespace {

Stmt& Bind(Stmt& s, int i, const MatchValue& v) {
  switch (v.kind) {
    case MatchValue::Kind::kNull: return s.Null(i);
    case MatchValue::Kind::kInt: return s.Int(i, v.i);
    case MatchValue::Kind::kReal: return s.Real(i, v.r);
    case MatchValue::Kind::kText: return s.Text(i, v.s);
  }
  return s.Null(i);
}

Stmt& TextOrNull(Stmt& s, int i, const std::string& v) {
  return v.empty() ? s.Null(i) : s.Text(i, v);
}

}  // namespace

Status WriteMatchSummary(Db* db, const MatchSummary& m, const GameSchema& game) {
  if (!m.ran) return Status::Ok();  // no game module: meta says why
  Stmt info;
  GEM_RETURN_IF_ERROR(info.Prepare(
      db, "INSERT INTO match_info(game, map, match_id, game_mode, winner, winner_name, "
          "tick_rate, first_tick, last_tick, start_tick, duration_s, match_mode) "
          "VALUES(?,?,?,?,?,?,?,?,?,?,?,?)"));
  info.Text(1, m.game);
  TextOrNull(info, 2, m.map);
  if (m.match_id != 0) info.Int(3, static_cast<int64_t>(m.match_id)); else info.Null(3);
  Bind(info, 4, m.game_mode);
  Bind(info, 5, m.winner);
  TextOrNull(info, 6, m.winner_name);
  if (m.tick_rate > 0) info.Real(7, m.tick_rate); else info.Null(7);
  if (m.first_tick >= 0) info.Int(8, m.first_tick); else info.Null(8);
  if (m.last_tick >= 0) info.Int(9, m.last_tick); else info.Null(9);
  if (m.start_tick) info.Int(10, *m.start_tick); else info.Null(10);
  Bind(info, 11, m.duration_s);
  Bind(info, 12, m.match_mode);
  GEM_RETURN_IF_ERROR(info.Run());

  Stmt player;
  GEM_RETURN_IF_ERROR(player.Prepare(
      db, "INSERT INTO players(slot, player_id, team, name, steam_id, hero, controller, pawn) "
          "VALUES(?,?,?,?,?,?,?,?)"));
  for (const PlayerRow& p : m.players) {
    player.Int(1, p.slot);
    Bind(player, 2, p.player_id);
    Bind(player, 3, p.team);
    TextOrNull(player, 4, p.name);
    if (p.steam_id != 0) player.Int(5, static_cast<int64_t>(p.steam_id)); else player.Null(5);
    TextOrNull(player, 6, p.hero);
    if (p.controller != 0) player.Int(7, p.controller); else player.Null(7);
    if (p.pawn != 0) player.Int(8, p.pawn); else player.Null(8);
    GEM_RETURN_IF_ERROR(player.Run());
  }

  if (m.start_tick && m.tick_rate > 0) {
    for (const std::string& table : ClockTables(game)) {
      Stmt clock;
      GEM_RETURN_IF_ERROR(clock.Prepare(db, FillClockSql(table, "")));
      GEM_RETURN_IF_ERROR(clock.Int(1, *m.start_tick).Real(2, m.tick_rate).Run());
    }
  }
  return Status::Ok();
}

std::vector<std::string> ClockTables(const GameSchema& game) {
  // The match tables, and the game's that have a tick and a game_time.
  std::vector<std::string> tables = {"timeline", "kills"};
  for (const TableSpec& t : game.tables) {
    bool tick = false, game_time = false;
    for (const TableColumn& c : t.columns) {
      tick |= c.name == "tick";
      game_time |= c.name == "game_time";
    }
    if (tick && game_time) tables.push_back(t.name);
  }
  return tables;
}

std::string FillClockSql(const std::string& table, const std::string& where) {
  return "UPDATE \"" + table +
         "\" SET game_time = round((tick - ?1) / ?2, 3) "
         "WHERE game_time IS NULL AND tick IS NOT NULL " + where;
}

}  // namespace gem::index
