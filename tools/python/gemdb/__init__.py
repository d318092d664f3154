"""gemdb: Source 2 replays indexed into SQLite by gem, from Python.

    import gemdb
    gemdb.index("match.dem.bz2", "match.db")
    df = gemdb.frame("match.db", "SELECT * FROM kills")

Standard library only; gemdb.frame needs pandas (Debian: python3-pandas).
"""
import os
import shutil
import sqlite3
import subprocess

__all__ = ["GemError", "IndexFailed", "connect", "frame", "query", "index",
           "extension_path", "gem_index_path"]

_HERE = os.path.dirname(os.path.abspath(__file__))
# tools/python/gemdb -> the checkout, when running from one.
_CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(_HERE)))


class GemError(Exception):
    """Something gem cannot do here, with what to do about it."""


class IndexFailed(GemError):
    """gem-index failed: its exit code (sysexits: 65 bad data, 66 no
    input, 73 cannot create the output, ...) and its message."""

    def __init__(self, exit_code, message, argv):
        super().__init__("gem-index exited with %d: %s" % (exit_code, message))
        self.exit_code = exit_code
        self.message = message
        self.argv = argv


def _first_file(candidates):
    for path in candidates:
        if path and os.path.isfile(path):
            return path
    return None


def extension_path():
    """libgem.so: $GEM_EXTENSION, beside the package, or the checkout's build."""
    found = _first_file([os.environ.get("GEM_EXTENSION"), os.path.join(_HERE, "libgem.so"),
                         os.path.join(_CHECKOUT, "bazel-bin", "sqlext", "libgem.so")])
    if found is None:
        raise GemError("libgem.so not found: set GEM_EXTENSION to its path, or build it "
                       "(bazel build //sqlext:libgem.so) and reinstall the package")
    return found


def gem_index_path():
    """gem-index: $GEM_INDEX, beside the package, the checkout's build, PATH."""
    found = _first_file([os.environ.get("GEM_INDEX"), os.path.join(_HERE, "gem-index"),
                         os.path.join(_CHECKOUT, "bazel-bin", "indexer", "gem-index"),
                         shutil.which("gem-index")])
    if found is None:
        raise GemError("gem-index not found: set GEM_INDEX to its path, or build it "
                       "(bazel build //indexer:gem-index) and reinstall the package")
    return found


def connect(path, extension=None):
    """An index opened read-only with the gem extension loaded."""
    if not hasattr(sqlite3.Connection, "enable_load_extension"):
        raise GemError("this Python's sqlite3 module cannot load extensions (it was built "
                       "without enable_load_extension): run it with Debian's /usr/bin/python3 "
                       "(or any Python whose sqlite3 was built with loadable extensions)")
    if not os.path.exists(path):
        raise GemError("no index at %s: make one with gemdb.index(replay, %r)" % (path, path))
    con = sqlite3.connect("file:%s?mode=ro" % _uri_path(path), uri=True,
                          check_same_thread=False)
    try:
        con.enable_load_extension(True)
        con.load_extension(extension or extension_path())
        con.enable_load_extension(False)
    except Exception:
        con.close()
        raise
    return con


def _uri_path(path):
    from urllib.parse import quote
    return quote(os.path.abspath(path))


def _with_connection(con_or_path, fn):
    if isinstance(con_or_path, sqlite3.Connection):
        return fn(con_or_path)
    con = connect(con_or_path)
    try:
        return fn(con)
    finally:
        con.close()


def query(con_or_path, sql, params=()):
    """The rows of `sql` as a list of dicts (no pandas needed)."""
    def run(con):
        cur = con.execute(sql, params)
        names = [d[0] for d in cur.description] if cur.description else []
        return [dict(zip(names, row)) for row in cur.fetchall()]
    return _with_connection(con_or_path, run)


def frame(con_or_path, sql, params=()):
    """The rows of `sql` as a pandas DataFrame."""
    try:
        import pandas
    except ImportError:
        raise GemError("gemdb.frame needs pandas (Debian: apt install python3-pandas); "
                       "gemdb.query returns the same rows as dicts without it") from None
    return _with_connection(con_or_path,
                            lambda con: pandas.read_sql_query(sql, con, params=params))


def live(con_or_path):
    """For a live index (gem-index --follow, a broadcast: still being
    written, or left by a run that stopped), how far it is: a dict with
    `tick` (its last commit's; ask of no later tick), `error` (why its run
    stopped, or None), `rewritten` (the tables each commit rewrites as
    they stand then, a later one may take rows back: players, match_info,
    the game's tables only the end knows whole), `when_closed` (those
    whose rows come when what they describe is over) and `at_end` (those
    empty until the match ends: none now). None for a finished index."""
    def run(con):
        meta = dict(con.execute("SELECT key, value FROM meta WHERE key LIKE 'live%'"))
        if meta.get("live") != 1:
            return None
        split = lambda v: [t for t in (v or "").split(",") if t]  # noqa: E731
        return dict(tick=meta.get("live_tick"), error=meta.get("live_error"),
                    at_end=split(meta.get("live_at_end")),
                    rewritten=split(meta.get("live_rewritten")),
                    when_closed=split(meta.get("live_when_closed")))
    return _with_connection(con_or_path, run)


def index(replay, out, **options):
    """Runs gem-index on `replay` (a .dem, .dem.bz2, .dem.gz or .dem.zst)
    into `out`; options are its flags: force=True is --force,
    keyframe_seconds=0 is --keyframe-seconds 0 (False leaves a flag out).
    Returns `out`; raises IndexFailed with gem-index's exit code and
    message."""
    argv = [gem_index_path(), "--quiet"]
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value is False or value is None:
            continue
        else:
            argv += [flag, str(value)]
    argv += [os.fspath(replay), os.fspath(out)]
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace")
    if proc.returncode != 0:
        raise IndexFailed(proc.returncode, proc.stderr.strip(), argv)
    return out
