"""Snapshots of a live index checked against the plain index of the same
replay (live_test.py reads them in a loop while gem-index writes).

Snapshots checks what every live index must hold at a commit's tick: the
rows of every table that files them by tick up to it (those of an
interval once it is closed), the tables rewritten at each commit as they
stood then, entities created and deleted by then, gem_state of every
entity, every row a row of the finished index, and a tick past the commit
an error. ClosedRows adds Dota's tables whose rows come when what they
describe is over. Errors are collected, not raised: the test asserts
there are none."""
import os
import sqlite3
import threading
import time

from gemtest import connect

# The index's own tables a live index rewrites at each commit, or fills at
# the end only: not compared row for row with the plain index while live
# (entities are, by their own rule; changes, keyframes and the open
# interval's tail by gem_state). The game's and
# the match layer's tables a commit rewrites as they stand (meta's
# live_rewritten) are checked by theirs (Snapshots.check_rewritten); those
# left empty until the end (meta's live_at_end: none now) must be empty.
# (parts, written at the end, names the file as given, as meta's source_name.)
REWRITTEN = ("meta", "classes", "entities", "changes", "keyframes", "tail", "sqlite_stat1",
             "parts")
# A table's column saying when what a row describes ended.
END_COLUMNS = ("removed_tick", "end_tick", "respawn_tick")


def tick_tables(con, schema="main"):
    """(table, tick column, end column or None) of every table that files
    its rows by tick."""
    out = []
    for (t,) in con.execute("SELECT name FROM %s.sqlite_master WHERE type = 'table' "
                            "ORDER BY name" % schema):
        cols = [r[1] for r in con.execute('PRAGMA %s.table_info("%s")' % (schema, t))]
        if t in ("keyframes", "string_tables", "entities", "changes", "tail"):
            continue
        if "tick" in cols:
            out.append((t, "tick", next((c for c in END_COLUMNS if c in cols), None)))
    return out


class Snapshots:
    """Checks snapshots of a live index against the plain index."""

    def __init__(self, test, live, plain):
        self.test, self.live, self.plain = test, live, plain
        self.errors, self.ticks, self.states_checked, self.past_checked = [], set(), 0, 0
        self.subsets_checked = 0
        self.finished = False
        self.reported = set()
        self.rewritten_seen = set()  # (table, rows) met in a live snapshot
        self.iterations = 0  # reads done (check_once calls)
        self._read = threading.Condition()
        self._columns = {}
        con = sqlite3.connect("file:%s?mode=ro" % plain, uri=True)
        info = con.execute("SELECT start_tick FROM match_info").fetchone()
        self.start_tick = info[0] if info else None
        step = con.execute("SELECT value FROM meta WHERE key = 'timeline_step'").fetchone()
        self.step = step[0] if step and step[0] else 0
        con.close()

    def check_once(self, con, tables, want_state, want_subset):
        con.execute("BEGIN")
        try:
            meta = dict(con.execute("SELECT key, value FROM main.meta"))
            if meta.get("live") == 1:
                tick = meta.get("live_tick")
                if tick is None:
                    return
                if meta.get("last_tick") != tick:
                    self.errors.append("last_tick %s, live_tick %s" % (meta.get("last_tick"), tick))
            elif meta.get("live") == 0:
                self.finished = True
                tick = meta["last_tick"]
            else:
                return  # (the schema's first commit: no meta yet)
            self.ticks.add(tick)
            at_end = (meta.get("live_at_end") or "").split(",") if meta.get("live") == 1 else []
            if meta.get("live") == 1 and "players" not in (meta.get("live_rewritten") or ""):
                self.errors.append("meta's live_rewritten is %r" % meta.get("live_rewritten"))
            closing = (meta.get("live_when_closed") or "").split(",")
            rewritten = [t for t in (meta.get("live_rewritten") or "").split(",") if t] \
                if meta.get("live") == 1 else []
            for t in rewritten:
                self.check_rewritten(con, tick, t)
            for t, c, end in tables:
                if (t, tick) in self.reported or t in at_end or t in rewritten:
                    continue
                got = con.execute('SELECT count(*) FROM main."%s"' % t).fetchone()[0]
                started = con.execute('SELECT count(*) FROM plain."%s" WHERE "%s" <= ?'
                                      % (t, c), (tick,)).fetchone()[0]
                closed = started if t not in closing else 0
                if end is not None:
                    closed = con.execute('SELECT count(*) FROM plain."%s" WHERE "%s" <= ? AND '
                                         '"%s" <= ?' % (t, c, end), (tick, tick)).fetchone()[0]
                if not closed <= got <= started:
                    self.reported.add((t, tick))
                    self.errors.append("tick %d: %s has %d rows, the plain index %d to then%s"
                                       % (tick, t, got, started,
                                          "" if end is None else " (%d closed)" % closed))
            # Entities: those created by then, their deletion if it came.
            diff = con.execute(
                "SELECT entity, ent_index, serial, handle, class_id, created_tick, "
                "CASE WHEN deleted_tick <= ?1 THEN deleted_tick END FROM plain.entities "
                "WHERE created_tick <= ?1 EXCEPT SELECT entity, ent_index, serial, handle, "
                "class_id, created_tick, deleted_tick FROM main.entities", (tick,)).fetchall()
            n = con.execute("SELECT count(*) FROM main.entities").fetchone()[0]
            m = con.execute("SELECT count(*) FROM plain.entities WHERE created_tick <= ?",
                            (tick,)).fetchone()[0]
            if diff or n != m:
                self.errors.append("tick %d: entities differ (%d against %d): %s"
                                   % (tick, n, m, diff[:3]))
            for t in at_end:
                if t in self.names and con.execute(
                        'SELECT count(*) FROM main."%s"' % t).fetchone()[0]:
                    self.errors.append("tick %d: %s has rows while live" % (tick, t))
            if want_subset:
                # Every row of the snapshot is a row of the finished index:
                # none is written that the end takes back. Before the
                # game's clock is known (the first sample at or past where
                # it reads 0), rows without one have none yet: the clock is
                # not compared then.
                clockless = self.start_tick is not None and tick < self.start_tick + self.step
                for (t,) in con.execute("SELECT name FROM main.sqlite_master "
                                        "WHERE type = 'table'").fetchall():
                    if t in REWRITTEN or t in rewritten:
                        continue
                    cols = ", ".join('"%s"' % c for c in self.columns(con, t)
                                     if not (clockless and c == "game_time"))
                    extra = con.execute('SELECT %s FROM main."%s" EXCEPT SELECT %s FROM plain."%s" '
                                        'LIMIT 2' % (cols, t, cols, t)).fetchall()
                    if extra:
                        self.errors.append("tick %d: %s rows not in the plain index: %s"
                                           % (tick, t, extra))
                self.subsets_checked += 1
            if want_state and tick >= 0:
                q = ("SELECT entity, field, value FROM gem_state WHERE tick = ? AND db = ? "
                     "ORDER BY entity, field")
                got = con.execute(q, (tick, "main")).fetchall()
                exp = con.execute(q, (tick, "plain")).fetchall()
                self.states_checked += 1
                if got != exp:
                    bad = [(a, b) for a, b in zip(got, exp) if a != b][:3]
                    self.errors.append("tick %d: gem_state differs (%d rows against %d): %s"
                                       % (tick, len(got), len(exp), bad))
            if meta.get("live") == 1:
                try:
                    con.execute("SELECT count(*) FROM gem_state WHERE tick = ?",
                                (tick + 1,)).fetchall()
                    self.errors.append("tick %d: gem_state past the live tick answered" % (tick + 1))
                except sqlite3.OperationalError as e:
                    if "is past the last commit of the live index" not in str(e):
                        self.errors.append("past the live tick: %s" % e)
                    self.past_checked += 1
            self.check_more(con, tick, meta)
        finally:
            con.execute("COMMIT")

    def check_more(self, con, tick, meta):
        """A subclass's checks of the snapshot at `tick`."""

    def check_rewritten(self, con, tick, t):
        """A table rewritten at each commit: its rows are what was there by
        `tick`. As many as the finished index has started by then (for a
        table that files them by tick; else no more than it has), and the
        rows of what was over by then (an end column at or before the tick)
        as it has them. Rows of what is still going on are not compared:
        they end later."""
        cols = self.columns(con, t)
        got = self.count(con, 'SELECT count(*) FROM main."%s"' % t)
        if t == "match_info" and got:
            # The match as far as it is known: its ticks, its clock.
            row = con.execute("SELECT game, map, first_tick, tick_rate, last_tick FROM "
                              "main.match_info").fetchone()
            # (The first tick is known once the replay has reached it.)
            want = con.execute("SELECT game, map, CASE WHEN first_tick <= ?1 THEN first_tick "
                               "END, tick_rate, ?1 FROM plain.match_info", (tick,)).fetchone()
            if row != want:
                self.errors.append("tick %d: match_info %s, the plain index's %s"
                                   % (tick, row, want))
        if t == "players":
            # Who they are does not change (a team may: CS2's halves).
            wrong = con.execute("SELECT slot, player_id, name, steam_id FROM main.players "
                                "EXCEPT SELECT slot, player_id, name, steam_id FROM "
                                "plain.players").fetchall()
            if wrong:
                self.errors.append("tick %d: players not the plain index's: %s"
                                   % (tick, wrong[:2]))
        if "tick" in cols:
            want = self.count(con, 'SELECT count(*) FROM plain."%s" WHERE tick <= ?' % t, tick)
            ok = got == want
        else:
            want = self.count(con, 'SELECT count(*) FROM plain."%s"' % t)
            ok = got <= want
        self.rewritten_seen.add((t, got))
        if not ok:
            self.errors.append("tick %d: %s has %d rows as it stands, %d started by then"
                               % (tick, t, got, want))
        ends = [c for c in cols if c in END_COLUMNS + ("official_end_tick",)]
        if not ends:
            return
        over = " AND ".join('"%s" <= ?' % c for c in ends)
        sel = ", ".join('"%s"' % c for c in cols)
        missing = con.execute('SELECT %s FROM plain."%s" WHERE %s EXCEPT SELECT %s FROM main."%s"'
                              % (sel, t, over, sel, t), (tick,) * len(ends)).fetchall()
        if missing:
            self.errors.append("tick %d: %s lacks rows over by then: %s" % (tick, t, missing[:2]))

    def count(self, con, sql, *args):
        return con.execute(sql, args).fetchone()[0]

    def columns(self, con, table):
        if table not in self._columns:
            self._columns[table] = [r[1] for r in con.execute('PRAGMA plain.table_info("%s")'
                                                               % table)]
        return self._columns[table]

    def gate(self, every=4, timeout=10):
        """A Writer gate: before every `every`th piece the writer waits (at
        most `timeout` s) for a whole read begun after it reached the gate,
        so that however slow the reader is (under the sanitizers, or on a
        busy machine) each read sees the bytes written before it, and the
        reader sees the index grow, not just its end."""

        def wait(n):
            if n % every:
                return
            with self._read:
                # The read going on may have begun before these bytes: the
                # one after it has not.
                begun = self.iterations + 1
                self._read.wait_for(lambda: self.iterations > begun, timeout)
        return wait

    def loop(self, proc):
        while not os.path.exists(self.live) and proc.poll() is None:
            time.sleep(0.005)
        con = connect(self.live)
        con.isolation_level = None
        con.execute("ATTACH ? AS plain", ("file:%s?mode=ro" % self.plain,))
        tables = tick_tables(con, "plain")
        self.names = {n for (n,) in con.execute("SELECT name FROM plain.sqlite_master")}
        n = 0
        while True:
            done = proc.poll() is not None
            try:
                self.check_once(con, tables, want_state=n % 4 == 0, want_subset=n % 8 == 0)
            except sqlite3.Error as e:
                self.errors.append("%s: %s" % (type(e).__name__, e))
                try:
                    con.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            n += 1
            with self._read:
                self.iterations = n
                self._read.notify_all()
            if done or self.finished:
                break
        con.close()
        return tables


class ClosedRows(Snapshots):
    """Snapshots of a Dota match read live, and the rows that must be in
    each: those of what was over by then, and only those."""

    def __init__(self, *args):
        super().__init__(*args)
        self.seen = set()  # (table, "none" | "some" | "all") met

    def same(self, con, tick, table, where, *args, at_least=False, at_most=False):
        """main's rows of `table` are plain's WHERE `where`
        (or include them, `at_least`; or are among them, `at_most`)."""
        # Ids too: the live index takes the rows in the plain run's order,
        # so a fight's players are checked under their fight's id.
        cols = ", ".join('"%s"' % c for c in self.columns(con, table))
        got = sorted(con.execute('SELECT %s FROM main."%s"' % (cols, table)).fetchall(),
                     key=repr)
        want = sorted(con.execute('SELECT %s FROM plain."%s" WHERE %s' % (cols, table, where),
                                  args).fetchall(), key=repr)
        if at_least or at_most:
            bad = set(want) - set(got) if at_least else set(got) - set(want)
        else:
            bad = got != want
        if bad:
            self.errors.append("tick %d: %s has %d rows, %d closed by then: %s"
                               % (tick, table, len(got), len(want),
                                  [r for r in got if r not in want][:2]
                                  + [r for r in want if r not in got][:2]))
        total = self.count(con, 'SELECT count(*) FROM plain."%s"' % table)
        self.seen.add((table, "none" if not want else "all" if len(want) == total else "some"))

    def check_more(self, con, tick, meta):
        if meta.get("live") != 1:
            return
        closing = (meta.get("live_when_closed") or "").split(",")
        for t in ("hero_deaths", "pauses", "teamfights", "teamfight_players", "lanes", "draft",
                  "combat_log_names"):
            if t not in closing:
                self.errors.append("tick %d: %s is not in live_when_closed" % (tick, t))
        # The last sample by then, its clock (the module's clock).
        sampled, clock = con.execute("SELECT max(tick), max(game_time) FROM plain.timeline "
                                     "WHERE tick <= ?", (tick,)).fetchone()
        self.same(con, tick, "hero_deaths", "respawn_tick <= ?", tick)
        self.same(con, tick, "pauses", "end_tick <= ?", tick)
        # A fight: 15 s past its last death (a frame or a sample after its
        # end_tick: the last sample is one), once the clock has reached its
        # end_time (its rounding allowed for); none before.
        # At most those over by the snapshot's tick (a frame past end_tick).
        passed = "end_time <= %r + 0.001" % (-1e9 if clock is None else clock)
        self.same(con, tick, "teamfights", "end_tick < ? AND %s" % passed,
                  -1 if sampled is None else sampled, at_least=True)
        self.same(con, tick, "teamfights", "end_tick < ? AND %s" % passed, tick, at_most=True)
        self.same(con, tick, "teamfight_players",
                  "id IN (SELECT id FROM main.teamfights)")
        late = clock is not None and clock > 600
        self.same(con, tick, "lanes", "?", 1 if late else 0)
        # The draft: once the horn has sounded (written at the first frame
        # in progress), none before it; the second between is not asked.
        if clock is None or clock < -1 or clock >= 1:
            self.same(con, tick, "draft", "?", 1 if clock is not None and clock >= 1 else 0)
        # The names of every combat-log entry shown (that the end names).
        missing = 0
        for col in ("damage_source_name_idx", "target_name_idx", "inflictor_name_idx",
                    "attacker_name_idx", "target_source_name_idx"):
            missing += self.count(
                con, 'SELECT count(*) FROM main.combat_log_entries c WHERE "%s" IN '
                     '(SELECT idx FROM plain.combat_log_names) AND "%s" NOT IN '
                     '(SELECT idx FROM main.combat_log_names)' % (col, col))
        if missing:
            self.errors.append("tick %d: %d combat-log names used and not written" % (tick, missing))
