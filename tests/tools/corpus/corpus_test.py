"""gem-corpus with real Dask processes on 127.0.0.1: a dask-scheduler and two
dask-worker processes index the fixtures, short synthetic replays, a corrupt
file and a second path to one replay; the catalog must equal a sequential
run's. A worker killed with SIGKILL mid-run, and an interrupted run, leave no
duplicate row and no partial index, and a re-run completes the corpus.
Queries equal the per-index results concatenated, --reduce the same SQL over
them. Every wait is bounded."""
import bz2
import csv
import gzip
import hashlib
import io
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402
from gemtest import (AUTO, FIXTURES, GEM_INDEX, GEM_SYNTH, LIB, RUNFILES, TMP,  # noqa: E402
                     replay_path)

CORPUS = os.path.join(RUNFILES, "tools", "corpus", "gem-corpus")
TOOLS = ["--gem-index", GEM_INDEX, "--extension", LIB]
# The columns a run fills the same way wherever it runs.
COMPARED = ["path", "bytes", "sha256", "game", "build", "map", "match_id", "first_tick",
            "last_tick", "duration_s", "winner", "index_path", "status", "exit_code", "error",
            "gem_version", "index_format"]
_inputs = {}


def corpus(*args, timeout=240, check=False):
    return subprocess.run([CORPUS] + TOOLS + list(args), capture_output=True, text=True,
                          timeout=timeout, check=check)


def need_fixtures():
    if not os.path.exists(replay_path(AUTO)):
        raise unittest.SkipTest("SKIPPED: fixtures not found in %s" % FIXTURES)


def inputs():
    """The replays of the test corpus (a directory), made once."""
    if "dir" in _inputs:
        return _inputs["dir"]
    need_fixtures()
    d = os.path.join(TMP, "replays")
    os.makedirs(d)
    for name in sorted(os.listdir(FIXTURES)):
        if name.endswith(".dem"):
            os.symlink(os.path.join(FIXTURES, name), os.path.join(d, name))
    for seed in (1, 2, 3):
        subprocess.run([GEM_SYNTH, "--from", replay_path(AUTO), "--minutes", "0.3", "--seed",
                        str(seed), "--quiet", os.path.join(d, "synth-%d.dem" % seed)], check=True)
    with open(os.path.join(d, "corrupt.dem"), "wb") as f:
        f.write(b"PBDEMS2\0" + bytes(range(256)) * 40)
    # The same replay under a second path: indexed once.
    shutil.copy(replay_path(AUTO), os.path.join(d, "copy-of-auto.dem"))
    _inputs["dir"] = d
    return d


def catalog(directory):
    con = sqlite3.connect(os.path.join(directory, "catalog.db"))
    rows = con.execute("SELECT %s FROM replays ORDER BY sha256" % ", ".join(COMPARED)).fetchall()
    con.close()
    return rows


def wait_for_rows(out, n, seconds):
    """Until the corpus at `out` has n catalog rows (at most `seconds`)."""
    deadline = time.monotonic() + seconds
    path = os.path.join(out, "catalog.db")
    while time.monotonic() < deadline:
        if os.path.exists(path):
            con = sqlite3.connect(path)
            try:
                if con.execute("SELECT count(*) FROM replays").fetchone()[0] >= n:
                    return
            except sqlite3.Error:
                pass  # its tables are being made
            finally:
                con.close()
        time.sleep(0.05)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A dask-scheduler and two dask-worker processes (no nanny: a worker is
    one process, so SIGKILL kills it), on 127.0.0.1."""

    def __init__(self):
        self.port = free_port()
        self.address = "tcp://127.0.0.1:%d" % self.port
        log = open(os.path.join(TMP, "dask.log"), "a")
        self.scheduler = subprocess.Popen(
            ["dask-scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"],
            stdout=log, stderr=log)
        self.workers = [self.start_worker(log) for _ in range(2)]
        self.wait_for_workers(2)

    def start_worker(self, log):
        return subprocess.Popen(["dask-worker", self.address, "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--host", "127.0.0.1"], stdout=log, stderr=log)

    def wait_for_workers(self, n, timeout=60):
        import distributed
        with distributed.Client(self.address, timeout="30s") as client:
            client.wait_for_workers(n, timeout=timeout)

    def close(self):
        for p in self.workers + [self.scheduler]:
            if p.poll() is None:
                p.terminate()
        for p in self.workers + [self.scheduler]:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


class Corpus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = Cluster()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()

    def distributed_index(self, out, *more):
        return corpus("index", "--out", out, "--scheduler", self.cluster.address,
                      *(more or (inputs(),)))

    def shared_corpus(self):
        """The test corpus indexed by the cluster once, for the query tests."""
        out = os.path.join(TMP, "shared")
        if "shared" not in _inputs:
            self.assertEqual(self.distributed_index(out).returncode, 1)
            _inputs["shared"] = out
        return out

    def test_distributed_catalog_equals_a_sequential_run(self):
        seq, dist = os.path.join(TMP, "seq"), os.path.join(TMP, "dist")
        a = corpus("index", "--out", seq, "--workers", "1", inputs())
        b = self.distributed_index(dist)
        self.assertEqual(a.returncode, 1, a.stderr)  # the corrupt and 2014 replays failed
        self.assertEqual(b.returncode, 1, b.stderr)
        rows = catalog(dist)
        self.assertEqual(rows, catalog(seq))
        by_status = {}
        for r in rows:
            by_status.setdefault(r[COMPARED.index("status")], []).append(r)
        # 14 fixtures + 3 synthetic + 1 corrupt; the copy of auto is the same replay.
        self.assertEqual(len(rows), 18)
        self.assertEqual(len(by_status["indexed"]), 14)
        failed = by_status["failed"]
        self.assertEqual(len(failed), 4)
        for r in failed:
            self.assertEqual(r[COMPARED.index("exit_code")], 65)
            self.assertIn("gem-index:", r[COMPARED.index("error")])
        con = sqlite3.connect(os.path.join(dist, "catalog.db"))
        self.assertEqual(con.execute("SELECT count(*) FROM paths").fetchone()[0], 19)
        # The first path met (sorted) names the replay; paths keeps both.
        auto = con.execute("SELECT r.path, game, match_id, last_tick FROM replays r JOIN paths p "
                           "USING (sha256) WHERE p.path LIKE ?", ("%" + AUTO + ".dem",))
        self.assertEqual([row[1:] for row in auto], [("dota2", 7518690009, 812)])
        self.assertEqual(con.execute("SELECT count(*) FROM paths WHERE sha256 = (SELECT sha256 "
                                     "FROM paths WHERE path LIKE '%copy-of-auto.dem')"
                                     ).fetchone()[0], 2)
        # A second run has nothing to do and changes nothing.
        again = self.distributed_index(dist)
        self.assertIn("0 replays to index", again.stderr)
        self.assertEqual(catalog(dist), rows)

    def test_a_worker_killed_mid_run_loses_nothing(self):
        need_fixtures()
        d = os.path.join(TMP, "killed-replays")
        os.makedirs(d)
        for seed in range(4, 10):
            subprocess.run([GEM_SYNTH, "--from", replay_path(AUTO), "--minutes", "1.5", "--seed",
                            str(seed), "--quiet", os.path.join(d, "s%d.dem" % seed)], check=True)
        out = os.path.join(TMP, "killed")
        run = subprocess.Popen([CORPUS] + TOOLS + ["index", "--out", out, "--scheduler",
                                                   self.cluster.address, d],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # Kill one worker once the first replay is in.
        wait_for_rows(out, 1, 120)
        victim = self.cluster.workers[0]
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=20)
        try:
            run.communicate(timeout=180)
        except subprocess.TimeoutExpired:
            run.kill()
            run.communicate()
        # Dask reschedules the dead worker's replay; if this run did not end
        # whole, a re-run finishes it.
        print("the run with a worker killed exited %d" % run.returncode)
        if run.returncode != 0:
            self.assertEqual(self.distributed_index(out, d).returncode, 0)
        self.cluster.workers[0] = self.cluster.start_worker(open(os.devnull, "w"))
        self.cluster.wait_for_workers(2)
        self.check_whole(out, 6)

    def test_an_interrupted_run_is_finished_by_the_next(self):
        out = os.path.join(TMP, "interrupted")
        run = subprocess.Popen([CORPUS] + TOOLS + ["index", "--out", out, "--workers", "1",
                                                   inputs()],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for_rows(out, 1, 120)
        run.send_signal(signal.SIGINT)
        try:
            run.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            run.kill()
            run.communicate()
        self.assertIn(run.returncode, (0, 1, 130))
        self.assertEqual(corpus("index", "--out", out, "--workers", "2", inputs()).returncode, 1)
        self.check_whole(out, 14)

    def check_whole(self, out, indexed):
        con = sqlite3.connect(os.path.join(out, "catalog.db"))
        rows = con.execute("SELECT sha256, status, index_path FROM replays").fetchall()
        self.assertEqual(len(rows), len({r[0] for r in rows}))  # no duplicate rows
        good = [r for r in rows if r[1] == "indexed"]
        self.assertEqual(len(good), indexed)
        for _, _, index_path in good:
            db = sqlite3.connect(os.path.join(out, index_path))
            self.assertEqual(db.execute("PRAGMA integrity_check").fetchone()[0], "ok")
            db.close()
        for root, _, files in os.walk(os.path.join(out, "indexes")):
            self.assertEqual([f for f in files if ".gem-tmp-" in f], [], root)
            for f in files:  # every index file is a catalog row's
                self.assertIn(os.path.relpath(os.path.join(root, f), out),
                              {r[2] for r in good})

    def test_query_equals_the_indexes_answers_concatenated(self):
        dist = self.shared_corpus()
        sql = ("SELECT slot, team, gem_value(pawn, 'm_iHealth', (SELECT last_tick FROM "
               "match_info)) AS health FROM players ORDER BY slot")
        got = corpus("query", dist, sql, "--format", "jsonl", "--scheduler", self.cluster.address)
        self.assertEqual(got.returncode, 0, got.stderr)
        rows = [json.loads(line) for line in got.stdout.splitlines()]
        # The same, index by index, here.
        con = sqlite3.connect(os.path.join(dist, "catalog.db"))
        want = []
        for rid, match_id, index_path in con.execute(
                "SELECT id, match_id, index_path FROM replays WHERE status = 'indexed' "
                "ORDER BY id"):
            db = sqlite3.connect(os.path.join(dist, index_path))
            db.enable_load_extension(True)
            db.load_extension(LIB)
            for slot, team, health in db.execute(sql):
                want.append({"replay_id": rid, "match_id": match_id, "slot": slot, "team": team,
                             "health": health})
            db.close()
        self.assertEqual(rows, want)
        self.assertGreater(len(rows), 100)
        # --reduce: the same SQL over those rows; --where selects by catalog.
        reduce = "SELECT team, count(*) AS players, sum(health) AS health FROM rows GROUP BY team"
        got = corpus("query", dist, sql, "--where", "game = 'cs2'", "--reduce", reduce,
                     "--workers", "2")
        self.assertEqual(got.returncode, 0, got.stderr)
        mem = sqlite3.connect(":memory:")
        mem.execute("CREATE TABLE rows(replay_id, match_id, slot, team, health)")
        cs2 = {r[0] for r in con.execute("SELECT id FROM replays WHERE game = 'cs2'")}
        mem.executemany("INSERT INTO rows VALUES(?,?,?,?,?)",
                        [tuple(r.values()) for r in want if r["replay_id"] in cs2])
        expect = [["team", "players", "health"]] + [
            ["" if v is None else str(v) for v in r] for r in mem.execute(reduce)]
        self.assertEqual(list(csv.reader(io.StringIO(got.stdout))), expect)
        self.assertEqual(sum(int(r[1]) for r in expect[1:]), 70)  # 7 CS2 fixtures, 10 each

    def test_a_failing_index_is_named_and_loses_nobody_elses_rows(self):
        dist = self.shared_corpus()
        con = sqlite3.connect(os.path.join(dist, "catalog.db"))
        broken = con.execute("SELECT index_path FROM replays WHERE status = 'indexed' AND "
                             "game = 'deadlock' ORDER BY id LIMIT 1").fetchone()[0]
        path = os.path.join(dist, broken)
        keep = path + ".keep"
        shutil.copy(path, keep)
        with open(path, "r+b") as f:  # the header of a SQLite file, ruined
            f.write(b"not a database at all")
        try:
            got = corpus("query", dist, "SELECT count(*) AS n FROM players", "--workers", "2")
        finally:
            shutil.move(keep, path)
        self.assertEqual(got.returncode, 1)
        self.assertIn(broken, got.stderr)
        rows = list(csv.reader(io.StringIO(got.stdout)))[1:]
        self.assertEqual(len(rows), 13)  # every other indexed replay answered

    def test_status_counts_failures_and_stale_formats(self):
        out = os.path.join(TMP, "status")
        corpus("index", "--out", out, "--workers", "1", inputs())
        con = sqlite3.connect(os.path.join(out, "catalog.db"))
        con.execute("UPDATE replays SET index_format = 1 WHERE id = (SELECT min(id) FROM "
                    "replays WHERE status = 'indexed')")
        con.commit()
        got = corpus("status", out)
        self.assertEqual(got.returncode, 1)
        lines = got.stdout.splitlines()
        self.assertTrue(any(line.startswith("indexed") and " 14 replays" in line
                            for line in lines), lines)
        self.assertEqual(sum(line.startswith("failed ") and "(exit 65)" in line
                             for line in lines), 4)
        self.assertEqual(sum(line.startswith("stale") for line in lines), 1)
        # The stale one is indexed again; nothing else is.
        again = corpus("index", "--out", out, "--workers", "1", inputs())
        self.assertIn("1 replays to index", again.stderr)

    def test_progress_is_drawn_on_a_terminal_only(self):
        out = os.path.join(TMP, "progress")
        typescript = os.path.join(TMP, "typescript")
        command = " ".join("'%s'" % a for a in [CORPUS] + TOOLS + [
            "index", "--workers", "2", "--out", out, inputs()])
        subprocess.run(["script", "-qec", command, typescript], stdout=subprocess.DEVNULL,
                       timeout=240)
        drawn = open(typescript, encoding="utf-8", errors="replace").read()
        self.assertIn("18/18 replays", drawn)
        self.assertRegex(drawn, r"\d+/18 replays  [0-9.]+ MB/s  ETA \d+:\d\d")
        piped = corpus("index", "--workers", "2", "--out", os.path.join(TMP, "piped"), inputs())
        self.assertNotIn("ETA", piped.stderr)

    def test_a_match_given_plain_and_compressed_is_indexed_once(self):
        need_fixtures()
        d = os.path.join(TMP, "compressed-replays")
        os.makedirs(d)
        data = open(replay_path(AUTO), "rb").read()
        os.symlink(replay_path(AUTO), os.path.join(d, "a.dem"))
        with open(os.path.join(d, "b.dem.bz2"), "wb") as f:
            f.write(bz2.compress(data))
        with open(os.path.join(d, "c.dem.gz"), "wb") as f:
            f.write(gzip.compress(data[:len(data) // 2], mtime=0))  # another replay (cut)
        out = os.path.join(TMP, "compressed-corpus")
        got = corpus("index", "--out", out, "--workers", "1", d)
        self.assertEqual(got.returncode, 0, got.stderr)
        self.assertIn("2 replays to index, 0 done already, 1 under a second path", got.stderr)
        con = sqlite3.connect(os.path.join(out, "catalog.db"))
        sha = hashlib.sha256(data).hexdigest()
        self.assertEqual(sorted(p for (p,) in con.execute(
            "SELECT path FROM paths WHERE sha256 = ?", (sha,))),
            [os.path.join(d, "a.dem"), os.path.join(d, "b.dem.bz2")])
        self.assertEqual(con.execute("SELECT count(*) FROM replays").fetchone()[0], 2)
        half = hashlib.sha256(gzip.decompress(open(os.path.join(d, "c.dem.gz"), "rb").read()))
        (status, index_path), = con.execute("SELECT status, index_path FROM replays "
                                            "WHERE sha256 = ?", (half.hexdigest(),))
        self.assertEqual(status, "indexed")
        idx = sqlite3.connect(os.path.join(out, index_path))
        self.assertEqual(dict(idx.execute("SELECT key, value FROM meta WHERE key IN "
                                          "('compression', 'truncated', 'replay_sha256')")),
                         {"compression": "gzip", "truncated": 1,
                          "replay_sha256": half.hexdigest()})

    def test_usage_and_missing_things(self):
        self.assertEqual(corpus("index", inputs()).returncode, 64)  # no --out
        self.assertEqual(corpus("query", os.path.join(TMP, "nothing"), "SELECT 1").returncode, 66)
        got = subprocess.run([CORPUS, "--gem-index", "/nonexistent", "index", "--out",
                              os.path.join(TMP, "x"), inputs()], capture_output=True, text=True)
        self.assertEqual(got.returncode, 66)
        self.assertIn("gem-index not found", got.stderr)


if __name__ == "__main__":
    junit.main()
