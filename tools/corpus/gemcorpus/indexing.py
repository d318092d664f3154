"""gem-corpus index: one gem-index run per replay, in parallel on the
cluster, into DIR/indexes/<sha256[:2]>/<sha256>.db, and DIR/catalog.db.

Resumable and idempotent: a replay (by content) already indexed with this
index format, or failed with this gem version, is skipped; indexes are
content-addressed and gem-index writes each atomically, so a re-run after a
crash, Ctrl-C or a killed worker finishes the rest with no duplicate rows and
no partial index. One run at a time per DIR (a lock file says so)."""
import fcntl
import glob
import hashlib
import os
import sys

from . import engine, tasks
from .catalog import Catalog
from .progress import Progress


class Busy(Exception):
    pass


def find_replays(inputs):
    """Absolute paths of the replays named, directories walked for *.dem."""
    found = []
    for item in inputs:
        if os.path.isdir(item):
            for root, dirs, files in os.walk(item):
                dirs.sort()
                found.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(".dem"))
        else:
            found.append(item)
    return [os.path.abspath(p) for p in found]


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def lock(directory):
    """An exclusive lock on DIR for this run (released when the process ends)."""
    f = open(os.path.join(directory, ".gem-corpus.lock"), "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise Busy("another gem-corpus index is running on %s" % directory)
    return f


def run(args, tools, say):
    """Returns the number of replays that failed in this run."""
    version, index_format = tools.version()
    catalog = Catalog(args.out)
    held = lock(catalog.dir)
    # Temporary files of a gem-index killed before it could remove them.
    for temp in glob.glob(os.path.join(catalog.dir, "indexes", "*", ".*.gem-tmp-*")):
        os.remove(temp)
    jobs, seen, skipped, duplicates, missing = [], set(), 0, 0, []
    for path in find_replays(args.replays):
        try:
            st = os.stat(path)
            sha = catalog.known_hash(path, st) or sha256_of(path)
        except OSError as e:
            missing.append("%s: %s" % (path, e.strerror))
            continue
        catalog.remember_path(path, sha, st)
        if sha in seen:
            duplicates += 1
            continue
        seen.add(sha)
        entry = catalog.entry(sha)
        if entry and entry["index_format"] == index_format and (
                (entry["status"] == "indexed" and entry["index_path"] and os.path.exists(
                    os.path.join(catalog.dir, entry["index_path"]))) or
                (entry["status"] == "failed" and entry["gem_version"] == version and
                 not args.retry_failed)):
            skipped += 1
            continue
        index_path = os.path.join("indexes", sha[:2], sha + ".db")
        jobs.append({"gem_index": tools.gem_index, "replay": path, "sha256": sha,
                     "bytes": st.st_size, "index_path": index_path,
                     "out": os.path.join(catalog.dir, index_path)})
    for m in missing:
        say("gem-corpus: cannot read %s" % m)
    say("gem-corpus: %d replays to index, %d done already, %d under a second path" % (
        len(jobs), skipped, duplicates))
    failed = [0]
    progress = Progress(len(jobs), sum(j["bytes"] for j in jobs))

    def on_result(job, result):
        catalog.record(job["replay"], job["bytes"], job["sha256"], result, version,
                       index_format)
        if result.get("status") != "indexed":
            failed[0] += 1
        progress.step(job["bytes"])

    if jobs:
        with engine.cluster(args.scheduler, args.workers) as client:
            engine.run(client, tasks.index_one, jobs, on_result)
    progress.finish()
    say("gem-corpus: %d indexed, %d failed (gem-corpus status %s)" % (
        len(jobs) - failed[0], failed[0], args.out))
    catalog.close()
    held.close()
    return failed[0] + len(missing)
