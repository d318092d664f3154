"""The catalog of a corpus: DIR/catalog.db, one row per replay (by content:
its sha256), and every path a replay was seen under.

    replays(id, path, bytes, sha256, game, build, map, match_id, first_tick,
            last_tick, duration_s, winner, index_path, status, exit_code,
            error, seconds, gem_version, index_format, indexed_at)
    paths(path, sha256, bytes, mtime_ns)

status is 'indexed' or 'failed'; index_path is relative to DIR. Only the
process that runs a command writes the catalog (workers return their results
to it), each result in a transaction of its own, so that a crash loses at
most the replays in flight."""
import os
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS replays(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL UNIQUE,
  game TEXT,
  build INTEGER,
  map TEXT,
  match_id INTEGER,
  first_tick INTEGER,
  last_tick INTEGER,
  duration_s REAL,
  winner INTEGER,
  index_path TEXT,
  status TEXT NOT NULL CHECK (status IN ('indexed', 'failed')),
  exit_code INTEGER,
  error TEXT,
  seconds REAL,
  gem_version TEXT,
  index_format INTEGER,
  indexed_at TEXT
);
CREATE TABLE IF NOT EXISTS paths(
  path TEXT PRIMARY KEY,
  sha256 TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL
);
"""
# The columns a worker's result fills.
RESULT_COLUMNS = ["game", "build", "map", "match_id", "first_tick", "last_tick", "duration_s",
                  "winner", "index_path", "status", "exit_code", "error", "seconds"]


class Catalog:
    def __init__(self, directory):
        self.dir = os.path.abspath(directory)
        os.makedirs(self.dir, exist_ok=True)
        self.path = os.path.join(self.dir, "catalog.db")
        self.con = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=NORMAL")
        self.con.executescript(SCHEMA)

    def close(self):
        self.con.close()

    def known_hash(self, path, st):
        """The sha256 recorded for `path` when its size and mtime are unchanged."""
        row = self.con.execute("SELECT sha256 FROM paths WHERE path = ? AND bytes = ? AND "
                               "mtime_ns = ?", (path, st.st_size, st.st_mtime_ns)).fetchone()
        return row[0] if row else None

    def sizes(self):
        """The sizes of the replays in the catalog."""
        return {r[0] for r in self.con.execute("SELECT DISTINCT bytes FROM replays")}

    def remember_path(self, path, sha256, st):
        self.con.execute("INSERT OR REPLACE INTO paths(path, sha256, bytes, mtime_ns) "
                         "VALUES(?, ?, ?, ?)", (path, sha256, st.st_size, st.st_mtime_ns))

    def entry(self, sha256):
        cur = self.con.execute("SELECT * FROM replays WHERE sha256 = ?", (sha256,))
        row = cur.fetchone()
        return dict(zip([d[0] for d in cur.description], row)) if row else None

    def record(self, path, size, sha256, result, gem_version, index_format):
        """Writes one replay's outcome (replacing an earlier one), atomically."""
        values = [result.get(c) for c in RESULT_COLUMNS]
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.con.execute("BEGIN IMMEDIATE")
        try:
            old = self.con.execute("SELECT id FROM replays WHERE sha256 = ?",
                                   (sha256,)).fetchone()
            cols = ["path", "bytes", "sha256"] + RESULT_COLUMNS + [
                "gem_version", "index_format", "indexed_at"]
            vals = [path, size, sha256] + values + [gem_version, index_format, when]
            if old:
                self.con.execute("UPDATE replays SET %s WHERE id = ?" % ", ".join(
                    c + " = ?" for c in cols), vals + [old[0]])
            else:
                self.con.execute("INSERT INTO replays(%s) VALUES(%s)" % (
                    ", ".join(cols), ", ".join("?" * len(cols))), vals)
            self.con.execute("COMMIT")
        except BaseException:
            self.con.execute("ROLLBACK")
            raise

    def select(self, where=None):
        """Indexed replays (and the condition on catalog columns, if any)."""
        sql = "SELECT id, match_id, index_path, path FROM replays WHERE status = 'indexed'"
        if where:
            sql += " AND (%s)" % where
        return self.con.execute(sql + " ORDER BY id").fetchall()
