"""gem-index --follow: a replay indexed while another process is still
writing it, at a set pace, in pieces that cut frames anywhere (the file
starts empty). The index equals, table by table, the plain index of the
finished file (meta's record of the input apart: a followed file is
streamed, so its `compression` is the same and nothing differs). It ends
at DEM_Stop, not by waiting: --idle-seconds is far longer than the
test's time limit. A replay whose writer stops before DEM_Stop ends
after --idle-seconds as a cut replay does: the index equals the plain
index of the bytes written. A writer that pauses after DEM_Stop, longer
than the short wait for the frames after it, still has them read when
the header says where they are: the end does not depend on the pace.
A followed gzip stream reads the same. Bad options are usage errors (64)."""
import gzip
import os
import struct
import subprocess
import sys
import time
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, GEM_INDEX, NEKIT, TMP, Writer,  # noqa: E402
                     assert_same_index, gem_index, replay_bytes, replay_path)

DEADLOCK = "deadlock_demofilenet_hltv_10423_dl_midtown"
# Far longer than any wait here: a run that waited this long would be
# stopped by the test's own limit first.
NEVER = "3600"
LIMIT = 120


def index(replay, out, *options):
    return gem_index(replay, out, *options, timeout=LIMIT)


def varint(data, at):
    value, shift = 0, 0
    while True:
        b = data[at]
        at += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, at


def end_of_dem_stop(data):
    """The offset just past a replay's DEM_Stop frame (command 0), walking
    the frames from the 16-byte header."""
    at = 16
    while at < len(data):
        command, at = varint(data, at)
        _, at = varint(data, at)  # tick
        size, at = varint(data, at)
        at += size
        if command & ~64 == 0:
            return at
    raise AssertionError("no DEM_Stop")


class Follow(unittest.TestCase):
    def replay(self, stem):
        return replay_bytes(self, stem)

    def follow(self, name, data, idle, piece=7919):
        """Follows `data` written as `name`; the index must equal the plain
        index of the file written. Returns its meta."""
        growing = os.path.join(TMP, name)
        writer = Writer(growing, data, piece, 0.002)
        writer.start()
        out = os.path.join(TMP, name + ".followed.db")
        got = index(growing, out, "--follow", "--idle-seconds", idle)
        writer.join()
        self.assertEqual(got.returncode, 0, got.stderr)
        plain = os.path.join(TMP, name + ".plain.db")
        self.assertEqual(index(growing, plain).returncode, 0)
        return assert_same_index(self, plain, out, skip_meta=())

    def test_a_replay_written_as_it_is_read_indexes_as_the_finished_file(self):
        for stem in (AUTO, NEKIT):
            with self.subTest(replay=stem):
                data = self.replay(stem)
                meta = self.follow(stem + ".dem", data, NEVER)
                self.assertEqual(meta["truncated"], 0)
                self.assertEqual(int(meta["replay_bytes"]), len(data))

    def test_a_writer_that_stops_before_dem_stop_leaves_a_cut_replay(self):
        data = self.replay(NEKIT)
        cut = data[:len(data) * 3 // 5 + 13]  # inside a frame
        meta = self.follow("cut.dem", cut, "1")
        self.assertEqual(meta["truncated"], 1)
        self.assertEqual(int(meta["replay_bytes"]), len(cut))

    def test_a_pause_after_dem_stop_still_reads_the_frames_the_header_promises(self):
        # Deadlock's file info is 12 bytes long, shorter than the longest
        # frame header: its reading may not wait for bytes past the end.
        for stem in (AUTO, DEADLOCK):
            with self.subTest(replay=stem):
                data = self.replay(stem)
                file_info = struct.unpack("<i", data[8:12])[0]  # the header says where
                self.assertLess(end_of_dem_stop(data), file_info)
                self.assertLess(file_info, len(data))
                growing = os.path.join(TMP, "paused.dem")
                # Two pieces: all but the file info, then (3 s later: far
                # past the half second a followed replay waits after
                # DEM_Stop when its header names nothing) the file info.
                writer = Writer(growing, data, file_info, 0, gate=lambda n: time.sleep(3))
                writer.start()
                out = os.path.join(TMP, "paused.followed.db")
                got = index(growing, out, "--follow", "--idle-seconds", NEVER)
                writer.join()
                self.assertEqual(got.returncode, 0, got.stderr)
                plain = os.path.join(TMP, "paused.plain.db")
                self.assertEqual(index(growing, plain).returncode, 0)
                meta = assert_same_index(self, plain, out, skip_meta=())
                self.assertGreater(int(meta["playback_ticks"]), 0)  # from the file info
                self.assertEqual(int(meta["replay_bytes"]), len(data))

    def test_a_followed_gzip_stream_reads_the_same(self):
        data = self.replay(AUTO)
        packed = gzip.compress(data, mtime=0)
        meta = self.follow("auto.dem.gz", packed, NEVER, piece=997)
        self.assertEqual(meta["compression"], "gzip")

    def test_bad_options_are_usage_errors(self):
        replay = replay_path(AUTO)
        out = os.path.join(TMP, "usage.db")
        for options, says in ((["--idle-seconds", "5"], "--idle-seconds is for --follow"),
                              (["--follow", "--idle-seconds", "0"], "needs a number of seconds"),
                              (["--follow", "--idle-seconds", "x"], "needs a number of seconds"),
                              (["--follow", "--idle-seconds", "-1"], "needs a number of seconds")):
            with self.subTest(options=options):
                got = index(replay, out, *options)
                self.assertEqual(got.returncode, 64, got.stderr)
                self.assertIn(says, got.stderr)
                self.assertFalse(os.path.exists(out))
        got = subprocess.run([GEM_INDEX, "--follow", replay, out, "--idle-seconds"],
                             capture_output=True, text=True, timeout=LIMIT)
        self.assertEqual(got.returncode, 64, got.stderr)
        self.assertIn("--idle-seconds needs a number of seconds over 0, at most 86400 (got nothing)",
                      got.stderr)


if __name__ == "__main__":
    junit.main()
