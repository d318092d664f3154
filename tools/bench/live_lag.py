#!/usr/bin/python3
"""Live lag: how long after a match's data arrives a reader can query it.

Run by hand (it takes real time: each run plays the replay at its own
pace); gem-bench's live lag figures come from it. Not a test: tests never
time things.

  tools/bench/live_lag.py REPLAY.dem [--commit-seconds 1 4] [--speed 1] [--json]

1. A growing replay: a writer appends REPLAY's frames as the game played
   them (tick by tick, at --speed times real time) while gem-index
   --follow reads it; a reader asks meta's live_tick every 2 ms. A tick's
   lag: from the write of its last frame to the first read that shows a
   live_tick at or past it. Once per --commit-seconds.
2. A broadcast over HTTP: REPLAY as fragments (gem-dump broadcast) from
   the test relay at --speed; a fragment's lag: from its publication (the
   relay's) and from its arrival (the relay's answer) to the first read
   that shows the live_tick its ticks end at.
Also the CPU gem-index used per game second while following. --json prints
the figures as one JSON object (gem-bench reads it) instead of text."""
import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.realpath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(CHECKOUT, "tests"))
from relay_server import RelayServer  # noqa: E402

GEM_INDEX = os.path.join(CHECKOUT, "bazel-bin", "indexer", "gem-index")
GEM_DUMP = os.path.join(CHECKOUT, "bazel-bin", "tools", "gem-dump")


def varint(b, at):
    v = shift = 0
    while True:
        c = b[at]
        at += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, at


def frames(data):
    """(end offset, index tick) of each frame of a .dem (PBDEMS2: 16-byte
    head): -1 up to DEM_SyncTick (the signon), then the frames' ticks kept
    non-decreasing, as gem files them (core/events/tick_order.h)."""
    at, out, signon, last = 16, [], True, -1
    while at < len(data):
        cmd, at = varint(data, at)
        tick, at = varint(data, at)
        size, at = varint(data, at)
        at += size
        if signon or tick == 0xFFFFFFFF:
            out.append((at, -1))
        else:
            last = max(last, tick)
            out.append((at, last))
        if cmd & ~0x40 == 3:  # DEM_SyncTick
            signon = False
    return out


class Reader(threading.Thread):
    """Reads meta's live_tick every 2 ms: (monotonic time, tick) at each change."""

    def __init__(self, path, stop):
        super().__init__(daemon=True)
        self.path, self.stop, self.seen = path, stop, []

    def run(self):
        while not os.path.exists(self.path) and not self.stop.is_set():
            time.sleep(0.001)
        con = sqlite3.connect("file:%s?mode=ro" % self.path, uri=True)
        last = None
        while not self.stop.is_set():
            try:
                row = con.execute("SELECT value FROM meta WHERE key = 'live_tick'").fetchone()
            except sqlite3.Error:
                row = None
            now = time.monotonic()
            if row and row[0] is not None and row[0] != last:
                last = row[0]
                self.seen.append((now, last))
            time.sleep(0.002)
        con.close()


def first_seen(seen, tick, after=0.0):
    for t, live in seen:
        if live >= tick and t >= after:
            return t
    return None


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def cpu_of(proc):
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def growing(replay, commit_seconds, speed, tmp):
    data = open(replay, "rb").read()
    marks = frames(data)
    path = os.path.join(tmp, "growing.dem")
    out = os.path.join(tmp, "growing-%s.db" % commit_seconds)
    for f in (out, out + "-wal", out + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    interval = 1 / 30
    con = sqlite3.connect(":memory:")
    del con
    written = {}
    with open(path, "wb") as f:
        f.write(data[:16])
    stop = threading.Event()
    reader = Reader(out, stop)
    proc = subprocess.Popen([GEM_INDEX, "--quiet", "--follow", "--idle-seconds", "30",
                             "--commit-seconds", str(commit_seconds), path, out])
    reader.start()
    start, first_tick, at = time.monotonic(), None, 16
    with open(path, "ab") as f:
        for end, tick in marks:
            if tick >= 0:
                if first_tick is None:
                    first_tick, start = tick, time.monotonic()
                due = start + (tick - first_tick) * interval / speed
                pause = due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
            f.write(data[at:end])
            f.flush()
            at = end
            written[tick] = time.monotonic()
    cpu = cpu_of(proc)
    stop.set()
    reader.join()
    lags = [first_seen(reader.seen, tick, w) - w for tick, w in written.items()
            if tick >= 0 and first_seen(reader.seen, tick, w) is not None]
    game = (marks[-1][1] - first_tick) * interval
    return lags, len(reader.seen), cpu, game


def broadcast(replay, speed, tmp):
    directory = os.path.join(tmp, "fragments")
    if not os.path.exists(directory):
        subprocess.run([GEM_DUMP, "broadcast", replay, directory], check=True)
    out = os.path.join(tmp, "broadcast.db")
    for f in (out, out + "-wal", out + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    stop = threading.Event()
    reader = Reader(out, stop)
    with RelayServer(directory, speed=speed) as relay:
        reader.start()
        proc = subprocess.Popen([GEM_INDEX, "--quiet", relay.url, out])
        cpu = cpu_of(proc)
    stop.set()
    reader.join()
    deltas = sorted((int(p.split("/")[2]), t) for p, t in relay.served.items()
                    if p.endswith("/delta"))
    from_arrival, from_publication = [], []
    for i, (n, served) in enumerate(deltas):
        nxt = deltas[i + 1][1] if i + 1 < len(deltas) else float("inf")
        # The live_tick the fragment's ticks end at: the last one read
        # before the next fragment came.
        values = [(t, v) for t, v in reader.seen if served <= t < nxt]
        if not values:
            continue
        end_tick = values[-1][1]
        seen = first_seen(values, end_tick)
        published = relay.started + (n - 1) * 3 / speed
        from_arrival.append(seen - served)
        from_publication.append(seen - published)
    return from_arrival, from_publication, cpu


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("replay")
    p.add_argument("--commit-seconds", type=float, nargs="+", default=[1, 4])
    p.add_argument("--speed", type=float, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="live-lag-")
    ms = lambda v: "%.1f ms" % (v * 1000)  # noqa: E731
    figures = {"growing": []}
    for every in args.commit_seconds:
        lags, commits, cpu, game = growing(args.replay, every, args.speed, tmp)
        figures["growing"].append({
            "commit_seconds": every, "ticks": len(lags), "commits": commits,
            "p50_ms": pct(lags, 50) * 1000, "p99_ms": pct(lags, 99) * 1000,
            "max_ms": max(lags) * 1000, "cpu_s": cpu, "game_s": game})
        if not args.json:
            print("growing replay, commit every %g s: %d ticks, %d commits seen; lag p50 %s, "
                  "p99 %s, max %s; CPU %.3f s for %.1f game s (%.2f ms a game second)"
                  % (every, len(lags), commits, ms(pct(lags, 50)), ms(pct(lags, 99)),
                     ms(max(lags)), cpu, game, cpu / game * 1000))
    arrival, publication, cpu = broadcast(args.replay, args.speed, tmp)
    figures["broadcast"] = {
        "fragments": len(arrival), "arrival_p50_ms": pct(arrival, 50) * 1000,
        "arrival_p99_ms": pct(arrival, 99) * 1000,
        "publication_p50_ms": pct(publication, 50) * 1000,
        "publication_p99_ms": pct(publication, 99) * 1000, "cpu_s": cpu}
    if args.json:
        print(json.dumps(figures))
        return
    print("broadcast over HTTP: %d fragments; lag from arrival p50 %s, p99 %s; from "
          "publication p50 %s, p99 %s; CPU %.3f s"
          % (len(arrival), ms(pct(arrival, 50)), ms(pct(arrival, 99)),
             ms(pct(publication, 50)), ms(pct(publication, 99)), cpu))


if __name__ == "__main__":
    main()
