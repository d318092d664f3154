#include "indexer/match_tables.h"

#include <string>
#include <vector>

namespace gem::index {

std::string MatchSchemaSql(std::span<const MatchColumn> timeline,
                           std::span<const TableColumn> kill_columns) {
  std::string sql = R"sql(
CREATE TABLE match_info(  -- the match the replay holds, one row
  game TEXT NOT NULL,  -- dota2, cs2 or deadlock
  map TEXT,  -- the map's name, as the server info gives it
  match_id INTEGER,  -- the game's match id, when the replay says it (NULL otherwise)
  game_mode INTEGER,  -- the game's mode number (Dota: the file info's game_mode, else the game
  -- rules' m_iGameMode; Deadlock: m_eGameMode; NULL in CS2)
  winner INTEGER,         -- the winning team's number (Dota: 2 Radiant, 3 Dire; CS2: 2 T, 3 CT;
  -- Deadlock: GameOver's winning_team, 2 Amber, 3 Sapphire); NULL when not known
  winner_name TEXT,  -- the winning team's name (radiant, dire, T, CT, or the team's own)
  tick_rate REAL,         -- ticks per second
  first_tick INTEGER,  -- the replay's first tick
  last_tick INTEGER,  -- the replay's last tick
  start_tick INTEGER,     -- the tick at which the game clock reads 0 (Dota: the horn; CS2: the first
  -- round after the warm-up; Deadlock: the match start); NULL if the replay ends before
  duration_s REAL,        -- the game clock at the end, seconds (Dota: at the game's end)
  match_mode INTEGER      -- how the match was made (Deadlock: ECitadelMatchMode); NULL
                          -- when the game's replay does not say
);

CREATE TABLE players(  -- a player who appears, from the entities (not the file info, which
  -- partial replays lack)
  slot INTEGER PRIMARY KEY,  -- the numbering every match table uses (Dota: the player resource
  -- slot, 0-9; CS2 and Deadlock: the controller's entity index - 1, game events' userid)
  player_id INTEGER,  -- the game's player id
  team INTEGER,  -- the team (Dota: 2 Radiant, 3 Dire; CS2: 2 T, 3 CT; Deadlock: 2 Amber, 3 Sapphire),
  -- the last one seen
  name TEXT,  -- the player's name
  steam_id INTEGER,  -- the 64-bit Steam id, when the replay has it
  hero TEXT,  -- the hero's name as the combat log writes it (npc_dota_hero_axe, hero_atlas); NULL in CS2
  controller INTEGER,  -- the player's controller entity (entities.entity), the latest
  pawn INTEGER  -- the player's pawn entity (Dota: the hero), the latest
);

CREATE TABLE kills(  -- the death of a player's hero or pawn (Dota: combat-log deaths of heroes
  -- that are not illusions and will not reincarnate; CS2: player_death events; Deadlock: the
  -- CCitadelUserMsg_HeroKilled message)
  id INTEGER PRIMARY KEY,  -- the row's number, in the order the deaths came
  tick INTEGER NOT NULL,  -- the tick of the death
  game_time REAL,  -- the game clock then, seconds
  victim INTEGER NOT NULL,  -- the player who died (slot)
  killer INTEGER,           -- the killing player (slot); NULL when not a player (Deadlock: the
  -- scorer, entindex_scorer, when there is one, else the attacker)
  assisters TEXT NOT NULL,  -- JSON array of the assisting players' slots
  weapon TEXT,  -- what killed (Dota: the inflictor; CS2: the event's weapon; Deadlock: the
  -- inflictor's EntityNames name, else its class); NULL when not said
  headshot INTEGER,  -- 1 for a headshot (CS2); NULL when the game does not say
  x REAL,  -- where the victim was: x, world units
  y REAL,  -- where the victim was: y
  z REAL)sql";
  // Each line's comma goes before its comment: a comment runs to the end.
  sql += kill_columns.empty() ? "" : ",";
  sql += "  -- where the victim was: z";
  for (size_t i = 0; i < kill_columns.size(); ++i) {
    const TableColumn& c = kill_columns[i];
    sql += "\n  " + c.name + " " + c.type + (i + 1 < kill_columns.size() ? "," : "") + "  -- " +
           c.doc;
  }
  sql += R"sql(
);

CREATE TABLE wards(  -- a Dota observer or sentry ward, placed when created, removed when
  -- killed or gone
  entity INTEGER PRIMARY KEY,  -- the ward's entity (entities.entity)
  kind TEXT NOT NULL,       -- observer or sentry
  team INTEGER,  -- the ward's team
  owner INTEGER,            -- the player who placed it (slot)
  placed_tick INTEGER NOT NULL,  -- the tick it was created at
  placed_time REAL,  -- the game clock then, seconds; NULL while the replay shows no clock
  removed_tick INTEGER,     -- the tick it was killed or gone at; NULL while it stands at the end
  removed_time REAL,  -- the game clock then, seconds; NULL while it stands at the end
  killed INTEGER,  -- how it went, by OpenDota's rule (odota/parser's Wards.java): 1 destroyed,
  -- its life state going to dying took the oldest ward death of its kind in the combat log not
  -- taken yet; 0 expired, dying with none to take; NULL when it went without dying or stands
  killer_name TEXT,  -- the destroyer: that death entry's damage source, by its combat-log name
  -- (npc_dota_hero_axe); NULL unless killed = 1
  x REAL,  -- where it stands: x, world units
  y REAL,  -- where it stands: y
  z REAL  -- where it stands: z
);

CREATE TABLE timeline(  -- a player at a sample: the ticks that are multiples of the step (a game
  -- second by default) from the first tick of play, and the last tick, while the player is on a
  -- playing team. Every value is the as-of value of the fields behind it at that tick
)sql";
  for (const MatchColumn& c : timeline) {
    sql += "  ";
    sql += c.name;
    sql += ' ';
    sql += c.type;
    const std::string_view name = c.name;
    if (name == "tick" || name == "slot") sql += " NOT NULL";
    sql += ",  -- ";
    sql += c.doc == nullptr ? "" : c.doc;
    sql += "\n";
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
  AddValue(row, w.placed_time);
  AddValue(row, w.removed_tick);
  AddValue(row, w.removed_time);
  AddValue(row, w.killed);
  if (w.killer_name.empty()) row->Null(); else row->Text(w.killer_name);
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
