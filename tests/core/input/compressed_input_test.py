"""Replays as users have them: every fixture as .dem.bz2, .dem.gz and
.dem.zst, given as a file and through standard input (a file and a pipe),
indexes to the same tables as the plain .dem, row for row; only meta's
record of what was read differs (compression, the file's name, size and
sha256), and meta.replay_sha256 is the plain replay's sha256 (computed
here with hashlib). Concatenated streams read as one. A cut stream is a
truncated replay: the index equals that of the plain bytes the stream
held, or, cut before any whole frame, gem-index refuses it with 65 and a
message naming the compression and the byte. Damaged data, trailing
bytes, and decompression bombs are refused (65) with no output left, the
bombs within bounded memory."""
import bz2
import gzip
import hashlib
import os
import subprocess
import sys
import unittest
import zlib

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, FIXTURES, GEM_INDEX, INPUT_KEYS, MODERN, TMP,  # noqa: E402
                     assert_same_index, need_some, peak_kib, replay_path)

LEGACY = ["dota2_sange2014_test1_dota_pvp", "dota2_sange2014_test2_dota_pvp",
          "dota2_sange2014_test_xanadu"]


def compress(kind, data):
    if kind == "bz2":
        return bz2.compress(data)
    if kind == "gz":
        return gzip.compress(data, mtime=0)
    return subprocess.run(["zstd", "-q", "-c", "-3"], input=data, capture_output=True,
                          check=True).stdout


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def gem_index(replay, out, stdin=None, feed=None):
    """Runs gem-index; `stdin` a file to redirect, `feed` bytes to pipe."""
    if os.path.exists(out):
        os.remove(out)
    if feed is None:
        with open(stdin, "rb") if stdin else open(os.devnull, "rb") as f:
            return subprocess.run([GEM_INDEX, "--quiet", replay, out], stdin=f,
                                  capture_output=True, text=True)
    # A real pipe: the reader sees its short reads.
    proc = subprocess.run([GEM_INDEX, "--quiet", replay, out], input=feed, capture_output=True)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(),
                                       proc.stderr.decode(errors="replace"))


class CompressedInput(unittest.TestCase):
    def assert_same_index(self, plain, other, skip_meta=INPUT_KEYS):
        return assert_same_index(self, plain, other, skip_meta)

    def test_every_fixture_every_compression_file_and_stdin(self):
        need_some(MODERN)
        for stem in MODERN:
            replay = replay_path(stem)
            if not os.path.exists(replay):
                print("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
                continue
            data = open(replay, "rb").read()
            sha = hashlib.sha256(data).hexdigest()
            plain = os.path.join(TMP, stem + ".plain.db")
            r = gem_index(replay, plain)
            self.assertEqual(r.returncode, 0, r.stderr)
            for kind, word in (("bz2", "bzip2"), ("gz", "gzip"), ("zst", "zstd")):
                packed = compress(kind, data)
                path = write("%s.dem.%s" % (stem, kind), packed)
                for how in ("file", "stdin", "pipe"):
                    with self.subTest(replay=stem, compression=kind, given=how):
                        out = os.path.join(TMP, "%s.%s.%s.db" % (stem, kind, how))
                        r = (gem_index(path, out) if how == "file" else
                             gem_index("-", out, stdin=path) if how == "stdin" else
                             gem_index("-", out, feed=packed))
                        self.assertEqual(r.returncode, 0, r.stderr)
                        meta = self.assert_same_index(plain, out)
                        self.assertEqual(meta["compression"], word)
                        self.assertEqual(meta["replay_sha256"], sha)
                        self.assertEqual(meta["replay_bytes"], len(data))
                        self.assertEqual(meta["source_sha256"], hashlib.sha256(packed).hexdigest())
                        self.assertEqual(meta["source_bytes"], len(packed))
                        self.assertEqual(meta["source_name"],
                                         os.path.basename(path) if how == "file" else "-")
                        os.remove(out)
            # A plain replay through a pipe reads as the mapped file does.
            with self.subTest(replay=stem, compression="none", given="pipe"):
                out = os.path.join(TMP, stem + ".none.pipe.db")
                r = gem_index("-", out, feed=data)
                self.assertEqual(r.returncode, 0, r.stderr)
                meta = self.assert_same_index(plain, out, skip_meta=("source_name",))
                self.assertEqual((meta["compression"], meta["source_sha256"],
                                  meta["replay_sha256"]), ("none", sha, sha))

    def test_legacy_replays_are_refused_alike(self):
        for stem in LEGACY:
            replay = replay_path(stem)
            if not os.path.exists(replay):
                print("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
                continue
            want = gem_index(replay, os.path.join(TMP, "legacy.db"))
            self.assertNotEqual(want.returncode, 0)
            path = write(stem + ".dem.gz", compress("gz", open(replay, "rb").read()))
            got = gem_index(path, os.path.join(TMP, "legacy.db"))
            self.assertEqual(got.returncode, want.returncode)
            self.assertEqual(got.stderr.replace(path, "X"), want.stderr.replace(replay, "X"))

    def auto(self):
        replay = replay_path(AUTO)
        if not os.path.exists(replay):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (AUTO, FIXTURES))
        return replay, open(replay, "rb").read()

    def test_concatenated_streams_read_as_one(self):
        replay, data = self.auto()
        plain = os.path.join(TMP, "auto.plain.db")
        self.assertEqual(gem_index(replay, plain).returncode, 0)
        third = len(data) // 3
        for kind in ("bz2", "gz", "zst"):
            with self.subTest(compression=kind):
                packed = b"".join(compress(kind, data[i:i + third])
                                  for i in range(0, len(data), third))
                out = os.path.join(TMP, "concat.db")
                r = gem_index(write("concat.dem." + kind, packed), out)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(self.assert_same_index(plain, out)["replay_sha256"],
                                 hashlib.sha256(data).hexdigest())

    def test_a_cut_stream_is_a_truncated_replay(self):
        replay, data = self.auto()
        packed = gzip.compress(data, mtime=0)
        cut = packed[:len(packed) * 6 // 10]
        # What zlib gives of the cut stream: the replay gem-index must see.
        held = zlib.decompressobj(16 + 15).decompress(cut)
        self.assertLess(len(held), len(data))
        prefix = os.path.join(TMP, "held.db")
        r = gem_index(write("held.dem", held), prefix)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = os.path.join(TMP, "cut.db")
        r = gem_index(write("cut.dem.gz", cut), out)
        self.assertEqual(r.returncode, 0, r.stderr)
        meta = self.assert_same_index(prefix, out, skip_meta=INPUT_KEYS + (
            "truncation_reason", "replay_bytes", "replay_sha256"))
        self.assertEqual(meta["truncated"], 1)
        self.assertIn("the gzip stream is cut at byte %d of the compressed file" % len(cut),
                      meta["truncation_reason"])
        self.assertEqual(meta["replay_bytes"], len(held))
        self.assertEqual(meta["replay_sha256"], hashlib.sha256(held).hexdigest())

    def test_a_stream_cut_before_a_whole_frame_is_refused(self):
        _, data = self.auto()
        # One bzip2 block holds the whole fixture: cut, nothing decodes.
        packed = bz2.compress(data)
        for kind, cut in (("bzip2", packed[:len(packed) // 2]), ("bzip2", packed[:40])):
            with self.subTest(kind=kind, bytes=len(cut)):
                out = os.path.join(TMP, "cut-early.db")
                r = gem_index(write("cut-early.dem.bz2", cut), out)
                self.assertEqual(r.returncode, 65, r.stderr)
                self.assertIn("the bzip2 stream is cut at byte %d of the compressed file" %
                              len(cut), r.stderr)
                self.assertFalse(os.path.exists(out))

    def test_damaged_data_is_refused_naming_the_compression(self):
        _, data = self.auto()
        for kind, word in (("bz2", "bzip2"), ("gz", "gzip"), ("zst", "zstd")):
            with self.subTest(compression=kind):
                bad = bytearray(compress(kind, data))
                bad[len(bad) // 2] ^= 0x55
                out = os.path.join(TMP, "bad.db")
                r = gem_index(write("bad.dem." + kind, bytes(bad)), out)
                self.assertEqual(r.returncode, 65, r.stderr)
                self.assertRegex(r.stderr, r"%s data at byte \d+ of the compressed file" % word)
                self.assertFalse(os.path.exists(out))
                self.assertEqual(os.listdir(os.path.dirname(out)).count("bad.db"), 0)

    def test_bytes_after_the_stream_are_refused(self):
        _, data = self.auto()
        packed = gzip.compress(data, mtime=0)
        out = os.path.join(TMP, "trailing.db")
        r = gem_index(write("trailing.dem.gz", packed + b"not gzip"), out)
        self.assertEqual(r.returncode, 65, r.stderr)
        self.assertIn("gzip data at byte %d of the compressed file follow the end of its "
                      "stream" % len(packed), r.stderr)

    def test_decompression_bombs_stop_within_bounded_memory(self):
        replay, data = self.auto()
        # 2 GiB of zeros in under 64 kB: not a replay, seen at its first bytes.
        zeros = b"\0" * (64 << 20)
        bomb = bz2.compress(zeros) * 32
        self.assertLess(len(bomb), 64 << 10)
        bomb_path = write("bomb.dem.bz2", bomb)
        # A replay's header, then 1 GiB of empty frames without end: refused
        # after the few frames a replay has past DEM_Stop.
        packer = zlib.compressobj(9, zlib.DEFLATED, 16 + 15)
        bomb2_path = write("bomb2.dem.gz", packer.compress(data[:16]) + b"".join(
            packer.compress(zeros) for _ in range(16)) + packer.flush())
        # A child's peak counts what its parent held when it forked: the
        # zeros go first, and every run below forks from the same parent.
        del zeros, bomb
        r = gem_index(bomb_path, os.path.join(TMP, "bomb.db"))
        self.assertEqual(r.returncode, 65, r.stderr)
        self.assertIn("does not start with PBDEMS2", r.stderr)
        r = gem_index(bomb2_path, os.path.join(TMP, "bomb2.db"))
        self.assertEqual(r.returncode, 65, r.stderr)
        self.assertIn("frames follow DEM_Stop", r.stderr)
        # What indexing the fixture itself takes, to measure the bombs by
        # (under the sanitizers both grow alike).
        code, plain_kib, _ = peak_kib([GEM_INDEX, "--quiet", "--force", replay,
                                       os.path.join(TMP, "peak.db")])
        self.assertEqual(code, 0)
        for what, path in (("bzip2 zeros", bomb_path), ("empty frames", bomb2_path)):
            code, kib, _ = peak_kib([GEM_INDEX, "--quiet", path, os.path.join(TMP, "bomb.db")])
            self.assertEqual(code, 65)
            # Holding what the bombs expand to would take 1 to 2 GiB.
            self.assertLess(kib, plain_kib + (32 << 10),
                            "%s peaked at %d KiB, the fixture at %d KiB" % (what, kib, plain_kib))


if __name__ == "__main__":
    junit.main()
