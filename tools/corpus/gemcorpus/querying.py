"""gem-corpus query: one SQL statement on every selected index, in parallel
on the cluster, with libgem loaded; each row prefixed with the replay's
catalog id and match_id, in catalog id order. --reduce runs a last SQL
statement over the combined rows (a table named `rows`)."""
import csv
import json
import os
import sqlite3
import sys

from . import engine, tasks
from .catalog import Catalog

PREFIX = ["replay_id", "match_id"]


def _unique(columns):
    """Column names made distinct (a second `x` becomes `x_2`)."""
    out, seen = [], {}
    for c in columns:
        name, n = c, seen.get(c, 0)
        while name in seen:
            n += 1
            name = "%s_%d" % (c, n + 1)
        seen[c] = n
        seen[name] = 0
        out.append(name)
    return out


def _quote(name):
    return '"%s"' % name.replace('"', '""')


def reduce_rows(columns, rows, sql):
    """`sql` run over the rows as a table named `rows`: (columns, rows)."""
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE rows(%s)" % ", ".join(_quote(c) for c in columns))
    con.executemany("INSERT INTO rows VALUES(%s)" % ", ".join("?" * len(columns)), rows)
    cur = con.execute(sql)
    return [d[0] for d in cur.description or []], cur.fetchall()


def _json_value(v):
    return v.hex() if isinstance(v, bytes) else v


def write(columns, rows, fmt, output):
    if fmt == "sqlite":
        if os.path.exists(output):
            os.remove(output)
        con = sqlite3.connect(output)
        con.execute("CREATE TABLE result(%s)" % ", ".join(_quote(c) for c in columns))
        con.executemany("INSERT INTO result VALUES(%s)" % ", ".join("?" * len(columns)), rows)
        con.commit()
        con.close()
        return
    out = open(output, "w", newline="", encoding="utf-8") if output else sys.stdout
    try:
        if fmt == "csv":
            w = csv.writer(out)
            w.writerow(columns)
            w.writerows([[_json_value(v) for v in r] for r in rows])
        else:
            for r in rows:
                out.write(json.dumps(dict(zip(columns, map(_json_value, r))),
                                     ensure_ascii=False) + "\n")
    finally:
        if output:
            out.close()


def run(args, tools, say):
    """Returns the number of indexes that failed."""
    tools.need_extension()
    catalog = Catalog(args.dir)
    try:
        selected = catalog.select(args.where)
    except sqlite3.Error as e:
        raise ValueError("--where %r: %s" % (args.where, e))
    catalog.close()
    jobs = [{"id": rid, "match_id": match_id, "path": path,
             "index": os.path.join(os.path.abspath(args.dir), index_path),
             "sql": args.sql, "extension": tools.extension}
            for rid, match_id, index_path, path in selected]
    results = {}

    def on_result(job, result):
        results[job["id"]] = result

    if jobs:
        with engine.cluster(args.scheduler, args.workers) as client:
            engine.run(client, tasks.query_one, jobs, on_result)
    columns, rows, failed = None, [], 0
    for job in jobs:
        r = results.get(job["id"], {"error": "no answer"})
        if "error" not in r and columns is not None and r["columns"] != columns:
            r = {"error": "its columns %s differ from %s" % (r["columns"], columns)}
        if "error" in r:
            say("gem-corpus: %s (%s): %s" % (job["index"], job["path"], r["error"]))
            failed += 1
            continue
        columns = r["columns"] if columns is None else columns
        rows.extend((job["id"], job["match_id"]) + tuple(row) for row in r["rows"])
    header = _unique(PREFIX + (columns or []))
    if args.reduce:
        try:
            header, rows = reduce_rows(header, rows, args.reduce)
        except sqlite3.Error as e:
            raise ValueError("--reduce: %s" % e)
    write(header, rows, args.format, args.output)
    say("gem-corpus: %d rows from %d indexes, %d failed" % (len(rows), len(jobs) - failed,
                                                            failed))
    return failed
