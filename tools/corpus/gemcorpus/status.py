"""gem-corpus status: counts by status, the failures with their errors, and
indexes whose format is stale (written by another gem) or missing."""
import os

from .catalog import Catalog


def run(args, tools, out):
    """Prints the report; returns the number of failed and stale replays."""
    index_format = tools.version()[1] if os.access(tools.gem_index, os.X_OK) else None
    catalog = Catalog(args.dir)
    con = catalog.con
    for status, n, mb in con.execute("SELECT status, count(*), total(bytes) / 1e6 FROM replays "
                                     "GROUP BY status ORDER BY status"):
        out("%-8s %6d replays  %10.1f MB" % (status, n, mb))
    failures = con.execute("SELECT path, exit_code, error FROM replays WHERE status = 'failed' "
                           "ORDER BY id").fetchall()
    for path, code, error in failures:
        first = (error or "").strip().splitlines()
        out("failed   %s (exit %s): %s" % (path, code, first[-1] if first else ""))
    stale = 0
    for path, fmt, index_path in con.execute(
            "SELECT path, index_format, index_path FROM replays WHERE status = 'indexed' "
            "ORDER BY id"):
        if index_format is not None and fmt != index_format:
            out("stale    %s (index format %s; gem-index writes %s)" % (path, fmt, index_format))
            stale += 1
        elif not os.path.exists(os.path.join(catalog.dir, index_path)):
            out("missing  %s (%s)" % (path, index_path))
            stale += 1
    catalog.close()
    return len(failures) + stale
