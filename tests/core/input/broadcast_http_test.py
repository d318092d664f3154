"""A broadcast over HTTP: `gem-index http://HOST/PATH out.db` reads a relay
(tests/support/relay_server.py, on 127.0.0.1, serving what gem-dump broadcast
wrote, gzipped) by CSTV's paths, and its index equals the index of the
same recording read from its directory, table by table (meta's name of
the input apart), for Dota 2, CS2 and Deadlock fixtures. The relay may publish the fragments as the match is
played (here at 20 times real time), and its root's sync may send the reader on
to the match (token_redirect); every fault it injects is recovered
from: a fragment not out yet, an empty answer, a 503, a dropped
connection, a slow answer, each on the sync, the start, the full and
deltas; a 403 is an input error (66), not asked again. What cannot be read is
refused with its reason (65): a fragment that is no fragment, one that
claims a gigabyte, one that never ends (memory stays bounded), a delta
missing while later ones are there; the live index (a URL is read live)
then keeps its last commit, whole, with meta's live_error. A relay
that stops sending ends the index as a cut replay after --idle-seconds;
one that never answers is an input error (66). Every run is bounded by
the test's own time limit."""
import os
import sqlite3
import shutil
import subprocess
import sys
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, FIXTURES, GEM_DUMP, GEM_INDEX, NEKIT, TMP,  # noqa: E402
                     assert_cut, assert_same_index, gem_index, peak_kib, replay_path)
from relay_server import RelayServer  # noqa: E402

LIMIT = 120
NAME_KEYS = ("source_name",)


def index(source, out, *options):
    return gem_index(source, out, *options, timeout=LIMIT)


class BroadcastHttp(unittest.TestCase):
    recordings = {}

    def recording(self, stem):
        """The fixture as a recorded broadcast, and its index from the
        directory."""
        if stem in self.recordings:
            return self.recordings[stem]
        path = replay_path(stem)
        if not os.path.exists(path):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
        directory = os.path.join(TMP, stem + ".broadcast")
        shutil.rmtree(directory, ignore_errors=True)
        got = subprocess.run([GEM_DUMP, "broadcast", path, directory], capture_output=True,
                             text=True, timeout=LIMIT)
        self.assertEqual(got.returncode, 0, got.stderr)
        db = os.path.join(TMP, stem + ".dir.db")
        got = index(directory, db)
        self.assertEqual(got.returncode, 0, got.stderr)
        self.recordings[stem] = (directory, db)
        return directory, db

    def deltas(self, directory):
        return sorted(int(n) for n in os.listdir(directory)
                      if os.path.exists(os.path.join(directory, n, "delta")))

    def test_a_relay_indexes_as_its_recording(self):
        for stem in (AUTO, NEKIT, "cs2_demofilenet_14155_de_dust2",
                     "deadlock_demofilenet_hltv_10524_new_player_basics"):
            with self.subTest(replay=stem):
                directory, want = self.recording(stem)
                out = os.path.join(TMP, stem + ".http.db")
                with RelayServer(directory) as relay:
                    got = index(relay.url, out)
                self.assertEqual(got.returncode, 0, got.stderr)
                meta = assert_same_index(self, want, out, skip_meta=NAME_KEYS)
                self.assertEqual(meta["source_name"], relay.url)
                self.assertEqual(meta["client"], "broadcast")
                self.assertEqual(meta["truncated"], 0)
                # Each fragment asked for once: none skipped, none twice.
                numbers = self.deltas(directory)
                self.assertEqual(relay.requests.get("/match/%d/delta" % numbers[-1]), 1)
                self.assertEqual(relay.requests["/match/1/full"], 1)

    def test_the_roots_sync_redirects_to_the_match(self):
        directory, want = self.recording(AUTO)
        out = os.path.join(TMP, "redirect.db")
        with RelayServer(directory) as relay:
            got = index(relay.root + "/", out)
        self.assertEqual(got.returncode, 0, got.stderr)
        assert_same_index(self, want, out, skip_meta=NAME_KEYS)
        self.assertEqual((relay.requests["/sync"], relay.requests["/match/sync"]), (1, 1))

    def assert_failed_live(self, out, says):
        """A live run that failed after its first commits: the index stays,
        whole, as its last commit left it, and says why it stopped."""
        con = sqlite3.connect(out)
        self.assertEqual(con.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        meta = dict(con.execute("SELECT key, value FROM meta"))
        con.close()
        self.assertEqual(meta["live"], 1)
        self.assertGreaterEqual(meta["live_tick"], 0)
        self.assertIn(says, meta["live_error"])

    def test_a_gap_in_the_deltas_is_refused(self):
        directory, _ = self.recording(AUTO)
        out = os.path.join(TMP, "gap.db")
        with RelayServer(directory, faults={"/match/3/delta": ["notready"] * 1000}) as relay:
            got = index(relay.url, out, "--idle-seconds", "1.5")
        self.assertEqual(got.returncode, 65, got.stderr)
        self.assertIn("3/delta is missing and later deltas are not", got.stderr)
        self.assert_failed_live(out, "3/delta is missing")
        self.assertEqual(relay.requests.get("/match/4/delta"), 1)  # the one look past it

    def test_a_relay_publishing_as_the_match_is_played(self):
        directory, want = self.recording(NEKIT)
        out = os.path.join(TMP, "paced.db")
        with RelayServer(directory, speed=20) as relay:
            got = index(relay.url, out)
        self.assertEqual(got.returncode, 0, got.stderr)
        assert_same_index(self, want, out, skip_meta=NAME_KEYS)
        # Deltas were asked for before they were out, and again.
        numbers = self.deltas(directory)
        asked = [relay.requests.get("/match/%d/delta" % n, 0) for n in numbers]
        self.assertGreater(sum(asked), len(numbers))
        self.assertEqual(min(asked), 1)

    def test_faults_are_recovered_from(self):
        directory, want = self.recording(AUTO)
        faults = {"/match/sync": ["drop"], "/match/0/start": ["error"],
                  "/match/1/full": ["notready", "slow"], "/match/2/delta": ["drop", "error"],
                  "/match/3/delta": ["slow"], "/match/4/delta": ["notready", "empty"]}
        out = os.path.join(TMP, "faults.db")
        with RelayServer(directory, faults=faults) as relay:
            got = index(relay.url, out, "--idle-seconds", "60")
        self.assertEqual(got.returncode, 0, got.stderr)
        assert_same_index(self, want, out, skip_meta=NAME_KEYS)
        self.assertEqual({p: relay.requests[p] for p in faults},
                         {"/match/sync": 2, "/match/0/start": 2, "/match/1/full": 2,
                          "/match/2/delta": 3, "/match/3/delta": 1, "/match/4/delta": 3})
        self.assertEqual(relay.faults, {p: [] for p in faults})  # every fault was met

    def test_what_cannot_be_read_is_refused(self):
        directory, _ = self.recording(AUTO)
        # What reading the recording itself takes, to measure the faults by
        # (under the sanitizers both grow alike).
        code, plain_kib, _ = peak_kib([GEM_INDEX, "--quiet", "--force", directory,
                                       os.path.join(TMP, "peak.db")])
        self.assertEqual(code, 0)
        for fault, says in (("garbage", "3/delta"), ("huge", "more than a fragment may"),
                            ("endless", "more than a fragment may")):
            with self.subTest(fault=fault):
                out = os.path.join(TMP, fault + ".db")
                with RelayServer(directory, faults={"/match/3/delta": [fault]}) as relay:
                    code, kib, err = peak_kib([GEM_INDEX, "--quiet", relay.url, out])
                self.assertEqual(code, 65, err)
                self.assertIn(says, err)
                self.assert_failed_live(out, says)
                # A fragment holds 64 MiB at most (the endless one sends 200).
                self.assertLess(kib, plain_kib + (96 << 10), "%s: %d KiB" % (fault, kib))

    def test_a_relay_that_stops_sending_leaves_a_cut_replay(self):
        directory, _ = self.recording(NEKIT)
        numbers = self.deltas(directory)
        cut_at = numbers[len(numbers) // 2]
        never = {"/match/%d/delta" % n: ["notready"] * 1000 for n in numbers if n >= cut_at}
        out = os.path.join(TMP, "stopped.db")
        with RelayServer(directory, faults=never) as relay:
            got = index(relay.url, out, "--idle-seconds", "1.5")
        self.assertEqual(got.returncode, 0, got.stderr)
        assert_cut(self, out)

    def test_a_relay_that_forbids_is_an_input_error(self):
        directory, _ = self.recording(AUTO)
        out = os.path.join(TMP, "forbidden.db")
        with RelayServer(directory, faults={"/match/1/full": ["forbidden"]}) as relay:
            got = index(relay.url, out)
        self.assertEqual(got.returncode, 66, got.stderr)
        self.assertIn("1/full answers HTTP 403", got.stderr)
        self.assertEqual(relay.requests["/match/1/full"], 1)  # not asked again

    def test_a_relay_that_never_answers_is_an_input_error(self):
        with RelayServer(TMP) as relay:
            url = relay.url
        got = index(url, os.path.join(TMP, "none.db"), "--idle-seconds", "1.5")
        self.assertEqual(got.returncode, 66, got.stderr)
        self.assertIn("no broadcast sync", got.stderr)


if __name__ == "__main__":
    junit.main()
