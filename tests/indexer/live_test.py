"""A live index (gem-index --follow, --commit-seconds): readable while the
replay is still being written, one commit at a time.

- A reader queries in a loop while the index grows (a replay written at a
  set pace, followed). Each answer is read in one read transaction and must
  be the state of the tick meta names (live_tick), as the plain index of
  the finished replay gives it at that tick: the rows filed under ticks up
  to it and none after, in every table that files its rows by tick; the
  entities created by then, deleted by then or not yet; and, for a sample
  of the answers, gem_state of every entity. A tick past the last commit is
  an error that says so. 0 errors, and more than a few distinct commits
  seen, or the test proves nothing.
- The finished index equals the plain one, table by table (meta's live
  rows apart: live = 0 there, and the plain index has none).
- SIGKILL mid-follow leaves an index readable up to its last commit (its
  WAL is recovered by the next reader), meta still live = 1. A re-run
  refuses it without --force and with --force starts over, to the plain
  index.
- A broadcast read live over HTTP commits at each fragment's end, each
  commit the snapshot of the tick the fragment ends at.
- The tables a live index rewrites at each commit (CS2's rounds, economy,
  grenades and bomb, Deadlock's heroes) hold at each what was there by then: as
  many rows as were started by the tick, and each row of what was over by
  then as the finished index has it (a CS2 match of gem-synth's, 4
  rounds, read live as the fixtures are).
- A Dota match read live (gem-synth's, 13 minutes: a draft, the horn,
  deaths, fights, a pause, the laning phase's end) has each row written
  when what it describes is over (meta's live_when_closed), and exactly
  those: a hero death once the hero is back, a pause once it ended, a
  fight 15 s after its last death (once the clock is past its end_time),
  the lanes once the clock is past 10:00, the draft once the horn has
  sounded, the combat log's names of every entry shown. Rows filed before
  the game's clock was known get theirs (counted back) once it is, as the
  finished index does.

The expected answers come from the plain index of the same bytes (the
code under test wrote both, but the plain index is checked against
references elsewhere; here only agreement at each tick is asserted)."""
import os
import signal
import sqlite3
import subprocess
import sys
import time
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, GEM_DUMP, GEM_INDEX, GEM_SYNTH, NEKIT, SANITIZED, TMP,  # noqa: E402
                     Writer, assert_same_index, connect, gem_index, replay_bytes,
                     replay_path)
from live_snapshots import ClosedRows, Snapshots, tick_tables  # noqa: E402
from relay_server import RelayServer  # noqa: E402

LIMIT = 120
NEVER = "3600"


CS2 = "cs2_demofilenet_14065_de_nuke"
DEADLOCK = "deadlock_demofilenet_hltv_10423_dl_midtown"


class Live(unittest.TestCase):
    def replay(self, stem):
        return replay_bytes(self, stem)

    def plain_of(self, path, name):
        plain = os.path.join(TMP, name + ".plain.db")
        got = gem_index(path, plain)
        self.assertEqual(got.returncode, 0, got.stderr)
        return plain

    def test_a_reader_sees_one_commit_at_a_time_and_the_end_equals_the_plain_index(self):
        # Commits often enough for several in these short replays (CS2's
        # and Deadlock's are 3 seconds of play).
        for stem, every in ((NEKIT, "2"), (AUTO, "0.5"), (CS2, "0.25"), (DEADLOCK, "0.25")):
            with self.subTest(replay=stem):
                data = self.replay(stem)
                plain = self.plain_of(replay_path(stem), stem)
                growing = os.path.join(TMP, stem + ".growing.dem")
                out = os.path.join(TMP, stem + ".live.db")
                for f in (out, out + "-wal", out + "-shm"):
                    if os.path.exists(f):
                        os.remove(f)
                snaps = Snapshots(self, out, plain)
                writer = Writer.over(growing, data, seconds=4, gate=snaps.gate())
                writer.start()
                proc = subprocess.Popen([GEM_INDEX, "--quiet", "--follow", "--idle-seconds",
                                         NEVER, "--commit-seconds", every, growing, out],
                                        stderr=subprocess.PIPE, text=True)
                tables = snaps.loop(proc)
                _, err = proc.communicate(timeout=LIMIT)
                writer.join()
                self.assertEqual(proc.returncode, 0, err)
                self.assertEqual(len(snaps.errors), 0, "%d errors:\n%s" % (len(snaps.errors), "\n".join(snaps.errors[:12])))
                # The reader saw the index grow, and checked states on the way.
                # (Under the sanitizers a read of every entity's state takes
                # seconds, while gem-index runs through the bytes the writer
                # let by: fewer commits are read, each kind of check at least
                # once and every one in full; the plain run asks for more.)
                few = SANITIZED
                self.assertGreaterEqual(len(snaps.ticks), 3 if few else 5, sorted(snaps.ticks))
                self.assertGreaterEqual(snaps.states_checked, 1 if few else 3)
                self.assertGreaterEqual(snaps.past_checked, 1 if few else 3)
                self.assertGreaterEqual(snaps.subsets_checked, 1 if few else 2)
                self.assertIn(("game_events", "tick", None), tables)
                self.assertIn(("entity_states", "tick", None), tables)
                meta = assert_same_index(self, plain, out, skip_meta=("source_name",))
                self.assertEqual(meta["live"], 0)
                con = sqlite3.connect(plain)
                self.assertEqual(con.execute("SELECT count(*) FROM meta WHERE key LIKE 'live%'")
                                 .fetchone()[0], 0)
                con.close()

    def synthetic(self, name, tables, *argv):
        """A gem-synth match (`argv` its options), its plain index, and the
        rows it has in each of `tables`: some in each, or the test that
        reads it proves nothing."""
        dem = os.path.join(TMP, name + ".dem")
        got = subprocess.run([GEM_SYNTH] + list(argv) + ["--quiet", dem], capture_output=True,
                             text=True, timeout=LIMIT)
        self.assertEqual(got.returncode, 0, got.stderr)
        plain = self.plain_of(dem, name)
        con = sqlite3.connect(plain)
        counts = {t: con.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0] for t in tables}
        con.close()
        self.assertTrue(all(counts.values()), counts)
        return dem, counts

    def read_live(self, dem, name, snaps_class, every):
        """`dem` written over 8 s and followed (committing every `every`
        seconds of game time), a reader checking in a loop; the reader."""
        out = os.path.join(TMP, name + ".live.db")
        for f in (out, out + "-wal", out + "-shm"):
            if os.path.exists(f):
                os.remove(f)
        with open(dem, "rb") as f:
            data = f.read()
        growing = os.path.join(TMP, name + ".growing.dem")
        snaps = snaps_class(self, out, os.path.join(TMP, name + ".plain.db"))
        writer = Writer.over(growing, data, seconds=8, gate=snaps.gate())
        writer.start()
        proc = subprocess.Popen([GEM_INDEX, "--quiet", "--follow", "--idle-seconds", NEVER,
                                 "--commit-seconds", every, growing, out],
                                stderr=subprocess.PIPE, text=True)
        snaps.loop(proc)
        _, err = proc.communicate(timeout=LIMIT)
        writer.join()
        self.assertEqual(proc.returncode, 0, err)
        self.assertEqual(len(snaps.errors), 0, "%d errors:\n%s" % (
            len(snaps.errors), "\n".join(snaps.errors[:12])))
        assert_same_index(self, snaps.plain, out, skip_meta=("source_name",))
        return snaps

    def test_the_tables_rewritten_at_each_commit_hold_what_was_there_by_then(self):
        self.replay(CS2)
        dem, counts = self.synthetic("rewritten-cs2", ("rounds", "economy", "grenades", "bomb"),
                                     "--from", replay_path(CS2), "--rounds", "4", "--seed", "3")
        snaps = self.read_live(dem, "rewritten-cs2", Snapshots, "1")
        for t, n in counts.items():
            seen = sorted(k for (table, k) in snaps.rewritten_seen if table == t)
            # Several states of each on the way, and more than none.
            self.assertGreaterEqual(len(seen), 3, (t, seen))
            self.assertGreater(seen[-1], 0, t)
        self.assertGreaterEqual(snaps.subsets_checked, 3)

    def test_a_match_read_live_has_each_row_once_what_it_describes_is_over(self):
        self.replay(AUTO)
        dem, _ = self.synthetic("closing-13",
                                ("hero_deaths", "pauses", "teamfights", "lanes", "draft"),
                                "--from", replay_path(AUTO), "--minutes", "13", "--seed", "7")
        snaps = self.read_live(dem, "closing-13", ClosedRows, "2")
        # Snapshots before, during and after each table filled.
        for t in ("hero_deaths", "teamfights"):
            for phase in ("none", "some"):
                self.assertIn((t, phase), snaps.seen)
        # A live snapshot with every lane closed falls in the match's last
        # minutes, which a reader slowed by the sanitizers may read past.
        for t in ("lanes", "draft"):
            for phase in ("none",) if SANITIZED else ("none", "all"):
                self.assertIn((t, phase), snaps.seen)
        self.assertGreaterEqual(snaps.subsets_checked, 3)

    def test_sigkill_leaves_the_last_commit_and_a_rerun_starts_over(self):
        data = self.replay(AUTO)
        growing = os.path.join(TMP, "killed.dem")
        out = os.path.join(TMP, "killed.db")
        for f in (out, out + "-wal", out + "-shm"):
            if os.path.exists(f):
                os.remove(f)
        # The writer stops at 60%: the index stays live until it is killed.
        writer = Writer.over(growing, data[:len(data) * 3 // 5], seconds=0.5)
        writer.start()
        writer.join()
        cut_plain = self.plain_of(growing, "killed-cut")  # the bytes written
        con = sqlite3.connect(cut_plain)
        cut_last = con.execute("SELECT value FROM meta WHERE key = 'last_tick'").fetchone()[0]
        con.close()
        proc = subprocess.Popen([GEM_INDEX, "--quiet", "--follow", "--idle-seconds", NEVER,
                                 growing, out], stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        tick, deadline = None, time.time() + LIMIT / 2
        while time.time() < deadline:
            try:
                con = sqlite3.connect("file:%s?mode=ro" % out, uri=True)
                row = con.execute("SELECT value FROM meta WHERE key = 'live_tick'").fetchone()
                con.close()
                if row and row[0] is not None and row[0] >= cut_last // 2:
                    tick = row[0]
                    break
            except sqlite3.Error:
                pass
            time.sleep(0.02)
        self.assertIsNotNone(tick, "no commit of tick %d or later came" % (cut_last // 2))
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=LIMIT)
        self.assertEqual(proc.returncode, -signal.SIGKILL)
        # Readable: its last commit, whole.
        con = connect(out)
        self.assertEqual(con.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        meta = dict(con.execute("SELECT key, value FROM meta"))
        self.assertEqual(meta["live"], 1)
        last = meta["live_tick"]
        self.assertGreaterEqual(last, tick)
        con.execute("ATTACH ? AS plain", (cut_plain,))
        at_end = [t for t in meta["live_at_end"].split(",") if t]
        self.assertEqual(at_end, [])
        self.assertIn("players", meta["live_rewritten"].split(","))
        # The players as of the last sample: who they are, as at the end.
        self.assertEqual(
            con.execute("SELECT slot, player_id, name, steam_id FROM main.players").fetchall(),
            con.execute("SELECT slot, player_id, name, steam_id FROM plain.players").fetchall())
        self.assertEqual(con.execute("SELECT last_tick FROM main.match_info").fetchone()[0], last)
        closing = meta["live_when_closed"].split(",")
        self.assertIn("draft", closing)
        for t, c, end in tick_tables(con, "plain"):
            if end is not None or t in at_end or t in closing:
                continue
            got = con.execute('SELECT count(*) FROM main."%s"' % t).fetchone()[0]
            want = con.execute('SELECT count(*) FROM plain."%s" WHERE "%s" <= ?' % (t, c),
                               (last,)).fetchone()[0]
            self.assertEqual(got, want, t)
        q = ("SELECT entity, field, value FROM gem_state WHERE tick = ? AND db = ? "
             "ORDER BY entity, field")
        got = con.execute(q, (last, "main")).fetchall()
        self.assertGreater(len(got), 10000)
        self.assertEqual(got, con.execute(q, (last, "plain")).fetchall())
        with self.assertRaisesRegex(sqlite3.OperationalError, "past the last commit"):
            con.execute("SELECT gem_value(1, 'm_iTeamNum', ?)", (last + 1,)).fetchall()
        con.close()
        # A re-run: the output exists, as any would.
        again = subprocess.run([GEM_INDEX, "--quiet", growing, out], capture_output=True,
                               text=True, timeout=LIMIT)
        self.assertEqual(again.returncode, 73, again.stderr)
        self.assertIn("exists; use --force", again.stderr)
        again = subprocess.run([GEM_INDEX, "--quiet", "--force", "--follow", "--idle-seconds",
                                "1", growing, out], capture_output=True, text=True,
                               timeout=LIMIT)
        self.assertEqual(again.returncode, 0, again.stderr)
        meta = assert_same_index(self, cut_plain, out, skip_meta=())
        self.assertEqual((meta["live"], meta["truncated"]), (0, 1))
        self.assertFalse(os.path.exists(out + "-wal") and os.path.getsize(out + "-wal") > 0)

    def test_a_broadcast_read_live_commits_whole_ticks_at_each_fragment(self):
        """A relay publishing nekit's fragments (3 s of ticks each) at 16
        times real time, read with commits due only every 30 s of game
        time: the commits come at the fragments' ends, each a snapshot of
        the tick the fragment ends at (its timeline samples in)."""
        self.replay(NEKIT)
        directory = os.path.join(TMP, "nekit.broadcast")
        if not os.path.exists(directory):
            got = subprocess.run([GEM_DUMP, "broadcast", replay_path(NEKIT), directory],
                                 capture_output=True, text=True, timeout=LIMIT)
            self.assertEqual(got.returncode, 0, got.stderr)
        plain = os.path.join(TMP, "nekit.broadcast.plain.db")
        got = gem_index(directory, plain)
        self.assertEqual(got.returncode, 0, got.stderr)
        out = os.path.join(TMP, "nekit.broadcast.live.db")
        for f in (out, out + "-wal", out + "-shm"):
            if os.path.exists(f):
                os.remove(f)
        with RelayServer(directory, speed=16) as relay:
            proc = subprocess.Popen([GEM_INDEX, "--quiet", "--stats", "--commit-seconds", "30",
                                     relay.url, out], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            snaps = Snapshots(self, out, plain)
            snaps.loop(proc)
            stdout, err = proc.communicate(timeout=LIMIT)
        self.assertEqual(proc.returncode, 0, err)
        self.assertEqual(len(snaps.errors), 0, "%d errors:\n%s" % (
            len(snaps.errors), "\n".join(snaps.errors[:12])))
        stats = dict(line.split("\t") for line in stdout.splitlines())
        # About a commit a fragment (21 of them), not one every 30 s (2).
        self.assertGreater(int(stats["live_commits"]), 15)
        self.assertGreaterEqual(len(snaps.ticks), 8, sorted(snaps.ticks))
        self.assertGreaterEqual(snaps.states_checked, 3)
        assert_same_index(self, plain, out, skip_meta=("source_name",))

    def test_a_live_run_that_fails_before_its_first_commit_leaves_nothing(self):
        growing = os.path.join(TMP, "not-a-replay.dem")
        with open(growing, "wb") as f:
            f.write(b"PBDEMS2\0" + b"\xff" * 4096)
        out = os.path.join(TMP, "not-a-replay.db")
        got = gem_index(growing, out, "--follow", "--idle-seconds", "1")
        self.assertEqual(got.returncode, 65, got.stderr)
        for f in (out, out + "-wal", out + "-shm", out + ".gem-live-new"):
            self.assertFalse(os.path.exists(f), f)

    def test_bad_live_options_are_usage_errors(self):
        replay = replay_path(AUTO)
        out = os.path.join(TMP, "usage-live.db")
        for options, says in ((["--commit-seconds", "0"], "--commit-seconds needs"),
                              (["--commit-seconds", "x"], "--commit-seconds needs"),
                              (["--commit-seconds", "1", "--no-live"], "contradict")):
            with self.subTest(options=options):
                got = gem_index(replay, out, *options)
                self.assertEqual(got.returncode, 64, got.stderr)
                self.assertIn(says, got.stderr)
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    junit.main()
