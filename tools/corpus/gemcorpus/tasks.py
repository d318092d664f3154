"""What workers run. Self-contained (the standard library only): the client
ships this module to workers by value, so that a Dask worker needs nothing of
gem but the gem-index binary and libgem.so at the paths the client names
(a shared filesystem)."""
import os
import shutil
import sqlite3
import subprocess
import time


def _with_parent(argv):
    """argv run so that it gets SIGTERM when its parent dies: a worker killed
    outright (SIGKILL) leaves no gem-index writing an index nobody waits for,
    and gem-index removes its temporary file on SIGTERM. (util-linux's setpriv
    sets the signal and execs: no preexec_fn in a threaded worker.) A parent
    that died before the signal was set would never send it: the shell
    between setpriv and gem-index checks, after the signal is set, that its
    parent is still this worker, and else ends (exit 75) before anything is
    written."""
    setpriv = shutil.which("setpriv")
    if not setpriv:
        return argv
    check = 'test "$PPID" = "%d" || exit 75; exec "$@"' % os.getpid()
    return [setpriv, "--pdeathsig", "SIGTERM", "/bin/sh", "-c", check, "gem-index"] + argv


def _facts(db_path):
    """What the catalog keeps of an index: meta and match_info facts, and
    the replay's sha256 as gem-index computed it (of the replay inside a
    compressed file)."""
    con = sqlite3.connect("file:%s?mode=ro" % db_path, uri=True)
    try:
        meta = dict(con.execute("SELECT key, value FROM meta WHERE key IN ('game', "
                                "'game_build', 'map', 'match_id', 'first_tick', 'last_tick', "
                                "'source_sha256', 'replay_sha256')"))
        info = con.execute("SELECT duration_s, winner, match_id FROM match_info").fetchone()
    finally:
        con.close()
    info = info or (None, None, None)
    match_id = info[2] if info[2] is not None else (meta.get("match_id") or None)
    # The replay inside names it (before index schema 7 there was only the
    # file's, the same for a plain replay).
    return {"sha256": meta.get("replay_sha256") or meta.get("source_sha256"),
            "game": meta.get("game"), "build": meta.get("game_build"), "map": meta.get("map"),
            "match_id": match_id, "first_tick": meta.get("first_tick"),
            "last_tick": meta.get("last_tick"), "duration_s": info[0], "winner": info[1]}


def index_one(job):
    """Indexes one replay; returns the catalog's columns and its sha256.

    The index is content-addressed (DIR/indexes/<sha[:2]>/<sha>.db). When the
    client knows the sha256 (job['sha256']) gem-index writes there directly;
    else (the client skips hashing what cannot be a duplicate) it writes into
    DIR/indexes/incoming/ and the index moves to its place by the checksum
    gem-index computed. gem-index writes atomically and a rename is atomic:
    no partial index is ever at either place."""
    start = time.monotonic()
    sha = job.get("sha256")
    incoming = os.path.join(job["dir"], "indexes", "incoming")
    out = (os.path.join(job["dir"], "indexes", sha[:2], sha + ".db") if sha else
           os.path.join(incoming, job["name"] + ".db"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    argv = [job["gem_index"], "--quiet", "--force", job["replay"], out]
    proc = subprocess.run(_with_parent(argv), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace")
    result = {"seconds": time.monotonic() - start, "exit_code": proc.returncode,
              "sha256": sha, "index_path": None}
    if proc.returncode != 0:
        result.update(status="failed",
                      error=(proc.stderr.strip() or "gem-index exited with %d" %
                             proc.returncode)[-4000:])
        return result
    try:
        result.update(_facts(out))
    except sqlite3.Error as e:
        result.update(status="failed", error="the index does not read: %s" % e)
        return result
    sha = result["sha256"]
    index_path = os.path.join("indexes", sha[:2], sha + ".db")
    final = os.path.join(job["dir"], index_path)
    if out != final:
        os.makedirs(os.path.dirname(final), exist_ok=True)
        os.replace(out, final)
    result.update(status="indexed", error=None, index_path=index_path)
    return result


def _open(job):
    con = sqlite3.connect("file:%s?mode=ro" % job["index"], uri=True)
    con.enable_load_extension(True)
    con.load_extension(job["extension"])
    con.enable_load_extension(False)
    return con


def query_many(job):
    """Runs each of job['sqls'] on one index with libgem loaded: their
    columns and rows, in order, or the error. A statement given as
    {"needs": name, "sql": ...} answers no rows on an index without that
    table or view (one made before it)."""
    try:
        con = _open(job)
        try:
            results = []
            for sql in job["sqls"]:
                if isinstance(sql, dict):
                    if not con.execute("SELECT 1 FROM sqlite_master WHERE name = ?",
                                       (sql["needs"],)).fetchone():
                        results.append({"columns": [], "rows": []})
                        continue
                    sql = sql["sql"]
                cur = con.execute(sql)
                results.append({"columns": [d[0] for d in cur.description or []],
                                "rows": cur.fetchall()})
            return {"id": job["id"], "results": results}
        finally:
            con.close()
    except Exception as e:  # an index that cannot answer loses only its own rows
        return {"id": job["id"], "error": "%s: %s" % (type(e).__name__, e)}


def query_one(job):
    """Runs job['sql'] on one index with libgem loaded: its column names and
    rows, or the error."""
    try:
        con = _open(job)
        try:
            cur = con.execute(job["sql"])
            columns = [d[0] for d in cur.description] if cur.description else []
            return {"id": job["id"], "columns": columns, "rows": cur.fetchall()}
        finally:
            con.close()
    except Exception as e:  # an index that cannot answer loses only its own rows
        return {"id": job["id"], "error": "%s: %s" % (type(e).__name__, e)}
