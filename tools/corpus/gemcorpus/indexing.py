"""gem-corpus index: one gem-index run per replay, in parallel on the
cluster, into DIR/indexes/<sha256[:2]>/<sha256>.db, and DIR/catalog.db.

Resumable and idempotent: a replay (by content) already indexed with this
index format, or failed with this gem version, is skipped; indexes are
content-addressed and gem-index writes each atomically, so a re-run after a
crash, Ctrl-C or a killed worker finishes the rest with no duplicate rows and
no partial index. One run at a time per DIR (a lock file says so).

A replay is hashed here only when it could be another's copy (its size is
another input's or a cataloged replay's) or when its path is known: else
gem-index's own checksum names it, and no byte is read twice. The largest
replays go first, so that no worker is left alone with a long one at the
end."""
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
    # Temporary files of a gem-index killed before it could remove them, and
    # whole indexes a worker died before moving to their place.
    for temp in glob.glob(os.path.join(catalog.dir, "indexes", "*", ".*.gem-tmp-*")) + \
            glob.glob(os.path.join(catalog.dir, "indexes", "incoming", "*.db")):
        os.remove(temp)
    jobs, seen, skipped, duplicates, missing = [], set(), 0, 0, []
    stats = []
    for path in find_replays(args.replays):
        try:
            stats.append((path, os.stat(path)))
        except OSError as e:
            missing.append("%s: %s" % (path, e.strerror))
    sizes = {}
    for _, st in stats:
        sizes[st.st_size] = sizes.get(st.st_size, 0) + 1
    cataloged = catalog.sizes()
    for path, st in stats:
        sha = catalog.known_hash(path, st)
        if sha is None and (sizes[st.st_size] > 1 or st.st_size in cataloged):
            try:
                sha = sha256_of(path)
            except OSError as e:
                missing.append("%s: %s" % (path, e.strerror))
                continue
        if sha is not None:
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
        jobs.append({"gem_index": tools.gem_index, "replay": path, "sha256": sha,
                     "bytes": st.st_size, "st": st, "dir": catalog.dir,
                     "name": hashlib.sha256(path.encode()).hexdigest()})
    jobs.sort(key=lambda j: -j["bytes"])
    for m in missing:
        say("gem-corpus: cannot read %s" % m)
    say("gem-corpus: %d replays to index, %d done already, %d under a second path" % (
        len(jobs), skipped, duplicates))
    failed = [0]
    progress = Progress(len(jobs), sum(j["bytes"] for j in jobs))

    def on_result(job, result):
        # A replay that failed before gem-index could checksum it is named by
        # its bytes, hashed here.
        sha = result.get("sha256") or job["sha256"] or sha256_of(job["replay"])
        catalog.remember_path(job["replay"], sha, job["st"])
        catalog.record(job["replay"], job["bytes"], sha, result, version, index_format)
        if result.get("status") != "indexed":
            failed[0] += 1
        progress.step(job["bytes"])

    if jobs:
        # What a worker needs (not the stat result); "i" finds the job again.
        shipped = [dict({k: v for k, v in j.items() if k != "st"}, i=i)
                   for i, j in enumerate(jobs)]
        with engine.cluster(args.scheduler, args.workers) as client:
            engine.run(client, tasks.index_one, shipped,
                       lambda job, result: on_result(jobs[job["i"]], result))
    progress.finish()
    say("gem-corpus: %d indexed, %d failed (gem-corpus status %s)" % (
        len(jobs) - failed[0], failed[0], args.out))
    catalog.close()
    held.close()
    return failed[0] + len(missing)
