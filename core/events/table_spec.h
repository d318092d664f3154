// TableSpec: a table a game module writes, declared to whoever stores its
// rows (gem-index), so that a new table of a game needs no change outside
// that game's directory.
//
// A game declares its tables once (GameModule::schema(), the same for
// every replay of the game); its rows then reach the sink as
// Sink::OnTableRow(table, values): `table` the table's position in
// GameSchema::tables, `values` one per column in declared order (the
// automatic `id` column, when asked for, is not among them: rows are
// numbered in the order they arrive).
#ifndef GEM_CORE_EVENTS_TABLE_SPEC_H_
#define GEM_CORE_EVENTS_TABLE_SPEC_H_

#include <string>
#include <vector>

namespace gem {

struct TableColumn {
  std::string name;
  std::string type;  // SQL type and column constraints: "INTEGER NOT NULL"
  // What the column holds and the rule behind it, one line: the schema's
  // comment on the column, and the docs page's words (docs/tables-*.md,
  // written from the schema by tools/docs/make_tables_page.py, which
  // refuses a column without one).
  std::string doc;
};

struct TableSpec {
  std::string name;
  // `id INTEGER PRIMARY KEY` first, numbering rows in arrival order.
  bool auto_id = false;
  std::vector<TableColumn> columns;
  // Table constraints after the columns ("PRIMARY KEY(slot, tick)"), or "".
  std::string constraints;
  bool without_rowid = false;
  // What a row is, one line: the schema's comment on the table and the
  // docs page's words.
  std::string comment;
  // When its rows are written, which a live index (gem-index --follow)
  // shows: a row is in the commit of the tick it is written at.
  //  - kAtTick: at the tick the row is filed under (an event, a sample).
  //  - kWhenClosed: when what it describes is over (a modifier removed, a
  //    pause ended, a round's economy settled), at the end of the replay
  //    if it never is; a row filed under an earlier tick. Meta's
  //    live_when_closed names these.
  //  - kAtEnd: all when the replay ends (only known whole then: a restart
  //    voids rounds, a bomb site is named by a plant later). A live index
  //    rewrites them whole at each commit as they stand then
  //    (GameModule::WriteSoFar): rows a later commit may take back. Meta's
  //    live_rewritten names these.
  enum class Written { kAtTick, kWhenClosed, kAtEnd };
  Written written = Written::kAtTick;
  // The game events its rows come from, when it has no other source (a
  // table with a fallback, as CS2's rounds from the game rules, names
  // none). A replay that carried none of them (a client is sent only some
  // events; a server can leave some out) has the table empty for want of
  // its events, not because nothing happened: meta
  // tables_without_their_events names it (docs/recordings.md).
  std::vector<std::string> from_events;
};

struct GameSchema {
  std::vector<TableSpec> tables;
  // The game's columns of the match layer's kills table, after the common
  // ones (KillRow::extra holds their values, in this order).
  std::vector<TableColumn> kill_columns;
  // The game events the match layer's kills come from, when they have no
  // other source (TableSpec::from_events' rule: meta
  // tables_without_their_events names kills when none came).
  std::vector<std::string> kill_events;
  // Run once every table exists (of gem's and the game's): indexes and
  // views. Views read only plain tables: no extension is needed.
  std::string after_sql;
};

// CREATE TABLE statement of `t`, its comment and each column's doc as SQL
// comments inside it (SQLite keeps them in sqlite_master, so `.schema`
// shows them): "CREATE TABLE t(  -- comment\n  col TYPE,  -- doc\n ...)".
std::string CreateTableSql(const TableSpec& t);
// The doc of the automatic `id` column.
extern const char kAutoIdDoc[];
// "name(col, col, ...)": the insert target of `t`'s rows (no id column).
std::string InsertTargetOf(const TableSpec& t);

}  // namespace gem

#endif  // GEM_CORE_EVENTS_TABLE_SPEC_H_
