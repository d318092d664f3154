#!/usr/bin/python3
"""Compares two gem indexes of one replay, value by value, each read with
its own libgem (so that indexes of two formats can be compared):

  compare_index.py A.db LIBGEM_A B.db LIBGEM_B [--ticks N] [--skip-meta KEY,...]

Every plain table (all but changes, keyframes and tail, whose bytes are
the format's) row by row; then, through each extension, every change of
every field of every entity (gem_changes), and gem_state of every entity
at N ticks (keyframe ticks, their neighbours, random ones, the first and
last). Prints what differs, the first few of each, and exits 1 when
anything does.

  compare_index.py --digest A.db LIBGEM_A [--ticks N] NAME

prints the same as digests (index_digest.py), as the JSON entry NAME of
tests/data/format_digests.json. /usr/bin/python3: pyenv's python3 cannot
load extensions.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from index_digest import (HISTORY, STATE, connect, rows, tables,  # noqa: E402
                          ticks_to_check, digest)


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


def compare(a, b, ticks, skip_meta):
    report = Report()
    ta, tb = tables(a), tables(b)
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
    for e in entities:
        ca = a.execute(HISTORY, (e,)).fetchall()
        cb = b.execute(HISTORY, (e,)).fetchall()
        changes += len(ca)
        if ca != cb:
            report.differ("gem_changes of entity %d" % e, ca, cb)
            if report.problems > 20:
                break
    print("gem_changes: %d entities, %d changes compared" % (len(entities), changes))
    values = 0
    for t in ticks:
        sa = a.execute(STATE, (t,)).fetchall()
        sb = b.execute(STATE, (t,)).fetchall()
        values += len(sa)
        if sa != sb:
            report.differ("gem_state(%d)" % t, sa, sb)
    print("gem_state: %d ticks, %d values compared" % (len(ticks), values))
    return report.problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--digest", action="store_true")
    ap.add_argument("args", nargs="+")
    ap.add_argument("--ticks", type=int, default=24)
    ap.add_argument("--skip-meta", default="")
    o = ap.parse_args()
    if o.digest:
        if len(o.args) != 3:
            ap.error("--digest needs A.db LIBGEM_A NAME")
        con = connect(o.args[0], o.args[1])
        json.dump({o.args[2]: digest(con, ticks_to_check(con, o.ticks))}, sys.stdout,
                  indent=1, sort_keys=True)
        print()
        return 0
    if len(o.args) != 4:
        ap.error("needs A.db LIBGEM_A B.db LIBGEM_B")
    a, b = connect(o.args[0], o.args[1]), connect(o.args[2], o.args[3])
    skip_meta = {k for k in o.skip_meta.split(",") if k}
    problems = compare(a, b, ticks_to_check(a, o.ticks), skip_meta)
    if problems:
        print("%d differences" % problems)
        return 1
    print("identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
