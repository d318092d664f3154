#!/usr/bin/python3
"""Compares two gem indexes of one replay, value by value, each read with
its own libgem (so that indexes of two formats can be compared):

  compare_index.py A.db LIBGEM_A B.db LIBGEM_B [--ticks N] [--skip-meta KEY,...]

Every plain table (all but changes, keyframes and tail, whose bytes are
the format's) row by row; then, through each extension, every change of
every field of every entity (gem_changes), and gem_state of every entity
at N ticks (keyframe ticks, their neighbours, random ones, the first and
last). Prints what differs, the first few of each, and exits 1 when
anything does. /usr/bin/python3: pyenv's python3 cannot load extensions.
"""
import argparse
import random
import sqlite3
import sys

# Bytes of the format itself, not of the replay: tables read through the
# extension instead, and meta keys that name the format.
FORMAT_TABLES = {"changes", "keyframes", "tail", "sqlite_stat1", "sqlite_sequence"}
FORMAT_META = {"schema_version", "indexer_version", "chunk_format", "state_format",
               "keyframe_format", "max_changes_per_chunk", "max_changes_per_run",
               "run_page_bytes"}


def connect(path, lib):
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    con.enable_load_extension(True)
    con.load_extension(lib)
    con.text_factory = bytes
    return con


def tables(con):
    return sorted(n.decode() for (n,) in con.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table'"))


def rows(con, table, skip_meta):
    if table == "meta":
        return sorted((k, v) for k, v in con.execute("SELECT key, value FROM meta")
                      if k.decode() not in skip_meta)
    return sorted(con.execute('SELECT * FROM "%s"' % table).fetchall(), key=repr)


class Report:
    def __init__(self):
        self.problems = 0

    def differ(self, what, a, b, limit=3):
        self.problems += 1
        sa, sb = set(a), set(b)
        only_a = sorted(sa - sb, key=repr)[:limit]
        only_b = sorted(sb - sa, key=repr)[:limit]
        print("DIFFERS: %s: %d rows vs %d; only in A %r; only in B %r" %
              (what, len(a), len(b), only_a, only_b))


def ticks_to_check(con, count):
    def meta(key):
        row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None
    last = meta("last_tick") or 0
    interval = meta("keyframe_interval") or 0
    rng = random.Random(last * 31 + interval)
    ticks = {-1, 0, 1, last - 1, last, last + 1}
    if interval:
        for k in range(0, last + 1, interval):
            ticks.update((k - 1, k, k + 1))
    ticks.update(rng.randint(0, max(last, 0)) for _ in range(count))
    return sorted(ticks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("lib_a")
    ap.add_argument("b")
    ap.add_argument("lib_b")
    ap.add_argument("--ticks", type=int, default=24)
    ap.add_argument("--skip-meta", default="")
    args = ap.parse_args()
    skip_meta = FORMAT_META | {k for k in args.skip_meta.split(",") if k}
    a, b = connect(args.a, args.lib_a), connect(args.b, args.lib_b)
    report = Report()
    ta = [t for t in tables(a) if t not in FORMAT_TABLES]
    tb = [t for t in tables(b) if t not in FORMAT_TABLES]
    if ta != tb:
        report.differ("tables", ta, tb)
    compared = 0
    for t in sorted(set(ta) & set(tb)):
        ra, rb = rows(a, t, skip_meta), rows(b, t, skip_meta)
        compared += len(ra)
        if ra != rb:
            report.differ("table " + t, ra, rb)
    print("plain tables: %d, %d rows compared" % (len(ta), compared))
    # Every change of every field, entity by entity.
    entities = [e for (e,) in a.execute("SELECT entity FROM entities ORDER BY entity")]
    changes = 0
    history = "SELECT field, tick, value FROM gem_changes WHERE entity = ? ORDER BY field, tick"
    for e in entities:
        ca = a.execute(history, (e,)).fetchall()
        cb = b.execute(history, (e,)).fetchall()
        changes += len(ca)
        if ca != cb:
            report.differ("gem_changes of entity %d" % e, ca, cb)
            if report.problems > 20:
                break
    print("gem_changes: %d entities, %d changes compared" % (len(entities), changes))
    state = "SELECT entity, field, value FROM gem_state(?) ORDER BY entity, field"
    ticks = ticks_to_check(a, args.ticks)
    values = 0
    for t in ticks:
        sa = a.execute(state, (t,)).fetchall()
        sb = b.execute(state, (t,)).fetchall()
        values += len(sa)
        if sa != sb:
            report.differ("gem_state(%d)" % t, sa, sb)
    print("gem_state: %d ticks, %d values compared" % (len(ticks), values))
    if report.problems:
        print("%d differences" % report.problems)
        return 1
    print("identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
