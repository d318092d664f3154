"""gem-corpus index: one gem-index run per replay, in parallel on the
cluster, into DIR/indexes/<sha256[:2]>/<sha256>.db, and DIR/catalog.db.

Resumable and idempotent: a replay (by content) already indexed with this
index format, or failed with this gem version, is skipped; indexes are
content-addressed and gem-index writes each atomically, so a re-run after a
crash, Ctrl-C or a killed worker finishes the rest with no duplicate rows and
no partial index. One run at a time per DIR (a lock file says so).

Replays are named by the sha256 of the replay inside (gem-index's
meta.replay_sha256), so that one match given as .dem and as .dem.bz2 is
indexed once. A replay is hashed here only when it could be another's copy
(a compressed one is among the inputs, or its size is another input's or a
cataloged replay's)
or when its path is known: else gem-index's own checksum names it, and no
byte of a plain replay is read twice. The largest
replays go first, so that no worker is left alone with a long one at the
end."""
import bz2
import errno
import fcntl
import glob
import gzip
import hashlib
import os
import subprocess
import sys

from . import engine, tasks
from .catalog import Catalog
from .progress import Progress


class Busy(Exception):
    pass


# Names a directory walk takes: replays as Valve and the platforms hand
# them out (gem-index tells the compression by the bytes, not the name).
REPLAY_SUFFIXES = (".dem", ".dem.bz2", ".dem.gz", ".dem.zst")


def find_replays(inputs):
    """Absolute paths of the replays named, directories walked for *.dem,
    *.dem.bz2, *.dem.gz and *.dem.zst."""
    found = []
    for item in inputs:
        if os.path.isdir(item):
            for root, dirs, files in os.walk(item):
                dirs.sort()
                found.extend(os.path.join(root, f) for f in sorted(files)
                             if f.endswith(REPLAY_SUFFIXES))
        else:
            found.append(item)
    return [os.path.abspath(p) for p in found]


def _compression(path):
    with open(path, "rb") as f:
        head = f.read(4)
    if head.startswith(b"BZh"):
        return "bzip2"
    if head.startswith(b"\x1f\x8b"):
        return "gzip"
    if head.startswith(b"\x28\xb5\x2f\xfd"):
        return "zstd"
    return "none"


def _blocks(path):
    """The bytes of the replay inside `path`, decompressed as gem-index
    does (concatenated streams read as one)."""
    kind = _compression(path)
    if kind == "zstd":
        # Python 3.11's standard library has no zstd: Debian's zstd does it.
        proc = subprocess.Popen(["zstd", "-dcq", "--", path], stdout=subprocess.PIPE)
        try:
            yield from iter(lambda: proc.stdout.read(1 << 20), b"")
        finally:
            proc.stdout.close()
            if proc.wait() != 0:
                raise OSError(errno.EINVAL, "zstd could not decompress it")
        return
    opener = {"bzip2": bz2.open, "gzip": gzip.open}.get(kind, open)
    try:
        with opener(path, "rb") as f:
            yield from iter(lambda: f.read(1 << 20), b"")
    except (EOFError, ValueError, gzip.BadGzipFile) as e:  # cut or corrupt stream
        raise OSError(errno.EINVAL, "%s data do not decode: %s" % (kind, e))


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sha256_of(path):
    """The sha256 of the replay inside `path` (gem-index's
    meta.replay_sha256): one match given as .dem and as .dem.bz2 is one
    replay, indexed once."""
    h = hashlib.sha256()
    for block in _blocks(path):
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

    def compressed(path):
        try:
            return _compression(path) != "none"
        except OSError:
            return False
    # A compressed replay may be any other's copy, whatever the sizes: when
    # one is given, every replay is hashed.
    any_compressed = any(compressed(path) for path, _ in stats)
    for path, st in stats:
        sha = catalog.known_hash(path, st)
        if sha is None and (any_compressed or sizes[st.st_size] > 1 or
                            st.st_size in cataloged):
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
        # its bytes, hashed here (a compressed one that does not decompress,
        # by the file's bytes).
        sha = result.get("sha256") or job["sha256"]
        if not sha:
            try:
                sha = sha256_of(job["replay"])
            except OSError:
                sha = file_sha256(job["replay"])
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
