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

void AddMatchInfo(RowBuffer* row, const MatchSummary& m) {
  auto text = [row](const std::string& v) {
    if (v.empty()) row->Null(); else row->Text(v);
  };
  row->Text(m.game);
  text(m.map);
  if (m.match_id != 0) row->Int(static_cast<int64_t>(m.match_id)); else row->Null();
  AddValue(row, m.game_mode);
  AddValue(row, m.winner);
  text(m.winner_name);
  if (m.tick_rate > 0) row->Real(m.tick_rate); else row->Null();
  if (m.first_tick >= 0) row->Int(m.first_tick); else row->Null();
  if (m.last_tick >= 0) row->Int(m.last_tick); else row->Null();
  if (m.start_tick) row->Int(*m.start_tick); else row->Null();
  AddValue(row, m.duration_s);
  AddValue(row, m.match_mode);
}

void AddPlayer(RowBuffer* row, const PlayerRow& p) {
  row->Int(p.slot);
  AddValue(row, p.player_id);
  AddValue(row, p.team);
  if (p.name.empty()) row->Null(); else row->Text(p.name);
  if (p.steam_id != 0) row->Int(static_cast<int64_t>(p.steam_id)); else row->Null();
  if (p.hero.empty()) row->Null(); else row->Text(p.hero);
  if (p.controller != 0) row->Int(p.controller); else row->Null();
  if (p.pawn != 0) row->Int(p.pawn); else row->Null();
}

Status WriteMatchSummary(Db* db, const MatchSummary& m, const GameSchema& game) {
  if (!m.ran) return Status::Ok();  // no game module: meta says why
  RowBuffer rows;
  AddMatchInfo(&rows.Begin(0), m);
  for (const PlayerRow& p : m.players) AddPlayer(&rows.Begin(1), p);
  Insert inserts[2];
  GEM_RETURN_IF_ERROR(inserts[0].Prepare(db, kMatchInfoInsertTarget, kMatchInfoColumns));
  GEM_RETURN_IF_ERROR(inserts[1].Prepare(db, kPlayersInsertTarget, kPlayersColumns));
  GEM_RETURN_IF_ERROR(rows.RunAll(inserts));

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
