"""What the viewer reads of one gem index: its facts, the units alive at a
tick, the timeline and the match's events. Every connection is read-only
(SQLite's mode=ro), one per server thread, with libgem loaded; every query
is parameterized. An index that is damaged or not a gem index at all is
reported by the error gem or SQLite gives, never by a crash."""
import json
import os
import sqlite3
import struct
import threading
import time
import queue
import urllib.parse

from . import heatmaps, kinds, match_names, pages

# A frame names at most this many units (SQLite takes 32,766 parameters).
MAX_UNITS = 20000


class IndexError_(Exception):
    """The index could not answer: SQLite's or libgem's message."""


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _text(b):
    # Replays' strings are bytes, not always UTF-8 (player names are).
    return b.decode("utf-8", "replace")


class Match:
    def __init__(self, path, libgem, match_id=0, label=None):
        self.path = os.path.abspath(path)
        self.libgem = libgem
        self.id = match_id
        self.label = label or os.path.basename(path)
        self._pool = queue.SimpleQueue()
        self._page = None
        self.error = None
        self.facts = {}
        # A live index (gem-index --follow): where it stood when loaded,
        # and when that was last asked (refresh()).
        self._live_key = None
        self._live_checked = 0.0
        self._live_lock = threading.Lock()
        try:
            self._load()
        except (sqlite3.Error, IndexError_, ValueError) as e:
            self.error = "%s: %s" % (self.label, e)

    LIVE_KEYS = ("live", "live_tick", "live_error")

    def refresh(self):
        """A live index grows: when it has a newer commit (or has become
        the finished index) than the one loaded, load it again. Asked at
        most every 0.2 s; a finished index never changes."""
        if not self.facts.get("live"):
            return
        with self._live_lock:
            now = time.monotonic()
            if now - self._live_checked < 0.2:
                return
            self._live_checked = now
            meta = dict(self.query("SELECT key, value FROM meta WHERE key IN (?, ?, ?)",
                                   self.LIVE_KEYS))
            if tuple(meta.get(k) for k in self.LIVE_KEYS) == self._live_key:
                return
            self._page = None
            self._load()

    def _open(self):
        uri = "file:%s?mode=ro" % urllib.parse.quote(self.path)
        con = sqlite3.connect(uri, uri=True, check_same_thread=False)
        con.text_factory = _text
        con.enable_load_extension(True)
        con.load_extension(self.libgem)
        con.enable_load_extension(False)
        return con

    def query(self, sql, args=()):
        return self.query_columns(sql, args)[1]

    def query_columns(self, sql, args=()):
        """(column names, rows) of one statement."""
        # The server starts a thread a request: connections (each with
        # libgem's caches warm) are pooled, not kept per thread.
        try:
            con = self._pool.get_nowait()
        except queue.Empty:
            con = None
        try:
            if con is None:
                con = self._open()
            cur = con.execute(sql, args)
            return [d[0] for d in cur.description or []], cur.fetchall()
        except sqlite3.Error as e:
            raise IndexError_(str(e)) from None
        finally:
            if con is not None:
                self._pool.put(con)

    def page(self):
        """The match page's data (pages.py), made once."""
        if self._page is None:
            self._page = pages.page(self)
        return self._page

    def _tables(self):
        return {name for (name,) in self.query("SELECT name FROM sqlite_schema WHERE type IN "
                                               "('table', 'view')")}

    def _load(self):
        try:
            meta = dict(self.query("SELECT key, value FROM meta"))
        except IndexError_:
            # Not a gem index, or a damaged one: libgem says which (its
            # check of the file reads no table of it first).
            self.query("SELECT count(*) FROM gem_state(0) WHERE entity = 0")
            raise
        live = meta.get("live") == 1
        self._live_key = tuple(meta.get(k) for k in self.LIVE_KEYS)
        if live and meta.get("live_tick") is None:
            # Live, and nothing committed yet: the page waits for a tick.
            self.units, self.tables = [], set()
            self.facts = dict(id=self.id, label=self.label, live=True, waiting=True,
                              live_error=meta.get("live_error"))
            return
        # gem_debug() fails on an index libgem refuses; gem_version reads no
        # table, so ask the extension about the file itself first.
        self.query("SELECT count(*) FROM gem_state(?) WHERE entity = 0",
                   (meta.get("live_tick") if live else 0,))
        tables = self._tables()
        game = meta.get("game") or ""
        first, last = int(meta.get("first_tick", 0) or 0), int(meta.get("last_tick", 0) or 0)
        interval = float(meta.get("tick_interval") or 0) or 1 / 30
        players = []
        if "players" in tables:
            players = [dict(slot=s, team=t, name=n, hero=h) for s, t, n, h in self.query(
                "SELECT slot, team, name, hero FROM players ORDER BY slot")]
        if not players and live and "timeline" in tables:
            # A live index's players table is rewritten at each commit from
            # the samples; before the first one (or an index written
            # before it was) the timeline's slots, with their latest team,
            # stand in.
            players = [dict(slot=s, team=t, name=None, hero=None) for s, t in self.query(
                "SELECT slot, (SELECT team FROM timeline t2 WHERE t2.slot = t1.slot "
                "ORDER BY tick DESC LIMIT 1) FROM timeline t1 GROUP BY slot ORDER BY slot")]
        columns = []
        if "timeline" in tables:
            columns = [c for (c,) in self.query("SELECT name FROM pragma_table_info('timeline')")]
        self.cell_width = float(meta.get("cell_width") or 0)
        self.world_offset = float(meta.get("world_offset") or 0)
        classes = dict(self.query("SELECT class_id, name FROM classes"))
        units = []
        for entity, class_id, created, deleted in self.query(
                "SELECT entity, class_id, created_tick, deleted_tick FROM entities"):
            kind = kinds.kind_of(game, classes.get(class_id, ""))
            if kind is not None:
                units.append((entity, classes[class_id], kind, created,
                              deleted if deleted is not None else float("inf")))
        self.units = units
        self.tables = tables
        self.facts = dict(
            id=self.id, label=self.label, game=game, map=meta.get("map"),
            match_id=meta.get("match_id"), first_tick=first, last_tick=last,
            tick_interval=interval, game_start_tick=meta.get("game_start_tick"),
            winner=meta.get("winner"), players=players, timeline_columns=columns,
            charts=[c for c in kinds.CHARTS.get(game, []) if c in columns],
            has_kills="kills" in tables, has_wards="wards" in tables,
            bounds=self._bounds(tables), live=live, live_error=meta.get("live_error"),
            live_at_end=[t for t in (meta.get("live_at_end") or "").split(",") if t]
            if live else [])
        self.facts["heatmaps"] = heatmaps.available(self)
        # Display names for what its tables name (match_names.py).
        self.facts["names"] = match_names.of_match(self.query, tables, game)

    def _bounds(self, tables):
        """Where the timeline's players went (the page widens it to the
        units it draws first)."""
        if "timeline" not in tables:
            return None
        row = self.query("SELECT min(x), min(y), max(x), max(y) FROM timeline "
                         "WHERE x IS NOT NULL")[0]
        return list(row) if row[0] is not None else None

    def frame(self, tick):
        """Every unit alive at `tick` with a position: entity, class, kind,
        team, world x/y/z, yaw, health, max health, vision radius, and the
        player's name for the units the timeline names."""
        alive = [u for u in self.units if u[3] <= tick < u[4]][:MAX_UNITS]
        by_entity = {u[0]: u for u in alive}
        values = {}
        if alive:
            sql = ("SELECT entity, field, value FROM gem_state(?) WHERE entity IN (%s) AND "
                   "field IN (%s)" % (",".join("?" * len(alive)),
                                      ",".join("?" * len(kinds.FIELDS))))
            for entity, field, value in self.query(sql, [tick] + [u[0] for u in alive] +
                                                   kinds.FIELDS):
                values.setdefault(entity, {})[field] = value
        names = self._names_at(tick)
        out = []
        for entity, fields in values.items():
            if "CBodyComponent.m_cellX" not in fields or "CBodyComponent.m_vecX" not in fields:
                continue
            u = by_entity[entity]
            pos = [self._coord(fields, axis) for axis in "XYZ"]
            angles = fields.get("CBodyComponent.m_angRotation")
            yaw = None
            if isinstance(angles, str) and angles.startswith("["):
                yaw = json.loads(angles)[1]
            out.append(dict(e=entity, c=u[1], k=u[2], t=fields.get("m_iTeamNum"),
                            x=pos[0], y=pos[1], z=pos[2], yaw=yaw,
                            h=fields.get("m_iHealth"), mh=fields.get("m_iMaxHealth"),
                            life=fields.get("m_lifeState"),
                            r=fields.get("m_iDayTimeVisionRange"),
                            l=fields.get("m_iLane"),
                            n=names.get(entity, (None, None))[0],
                            s=names.get(entity, (None, None))[1]))
        out.sort(key=lambda u: u["e"])
        return dict(tick=tick, units=out)

    def _coord(self, fields, axis):
        cell = fields.get("CBodyComponent.m_cell" + axis)
        vec = fields.get("CBodyComponent.m_vec" + axis)
        if cell is None or vec is None:
            return None
        # gem_position's rule, in its float32 steps (core/fields/world_coord.h):
        # the cell's corner, then the offset within it.
        return _f32(_f32(cell * self.cell_width - self.world_offset) + vec)

    def _names_at(self, tick):
        """{entity: (player name, slot)} of the units the timeline names."""
        if "timeline" not in self.tables or not self.facts.get("players"):
            return {}
        names = {p["slot"]: p["name"] for p in self.facts["players"]}
        rows = self.query("SELECT slot, entity FROM timeline WHERE tick = (SELECT max(tick) "
                          "FROM timeline WHERE tick <= ?)", (tick,))
        return {entity: (names.get(slot), slot) for slot, entity in rows if entity is not None}

    def timeline(self, step):
        """The timeline's rows at every `step`-th sampled tick (and the last)."""
        if "timeline" not in self.tables:
            return dict(columns=[], rows=[])
        columns = self.facts["timeline_columns"]
        ticks = [t for (t,) in self.query("SELECT DISTINCT tick FROM timeline ORDER BY tick")]
        keep = set(ticks[::step]) | ({ticks[-1]} if ticks else set())
        rows = [r for r in self.query("SELECT * FROM timeline ORDER BY tick, slot")
                if r[0] in keep]
        return dict(columns=columns, rows=rows)

    def events(self):
        out = {}
        game_tables = kinds.EVENT_TABLES.get(self.facts.get("game"), [])
        for table, order in [("kills", "tick"), ("wards", "placed_tick")] + game_tables:
            if table in self.tables:
                cols = [c for (c,) in self.query("SELECT name FROM pragma_table_info(?)",
                                                 (table,))]
                # Fixed names, not the request's.
                out[table] = dict(columns=cols, rows=self.query(
                    "SELECT * FROM %s ORDER BY %s" % (table, order)))
        return out


def open_source(path, libgem):
    """The matches behind `path`: one index, or a gem-corpus folder's
    indexed replays (its catalog.db)."""
    if os.path.isdir(path):
        catalog = os.path.join(path, "catalog.db")
        if not os.path.exists(catalog):
            raise ValueError("%s is a folder without catalog.db (not a gem-corpus folder)" % path)
        uri = "file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(catalog))
        con = sqlite3.connect(uri, uri=True)
        rows = con.execute("SELECT id, index_path, path, game, map, duration_s FROM replays "
                           "WHERE status = 'indexed' ORDER BY id").fetchall()
        con.close()
        matches = {}
        for rid, index_path, replay, game, map_name, duration in rows:
            full = index_path if os.path.isabs(index_path) else os.path.join(path, index_path)
            matches[rid] = Match(full, libgem, rid, os.path.basename(replay))
        return matches
    if not os.path.exists(path):
        raise ValueError("%s does not exist" % path)
    return {0: Match(path, libgem, 0)}
