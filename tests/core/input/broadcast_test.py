"""Recorded broadcasts: `gem-dump broadcast REPLAY DIR` writes a replay as
the fragments a relay serves (DIR/sync, DIR/0/start, DIR/1/full,
DIR/N/delta), and `gem-index DIR` reads them.

The fragments are checked here by a reader of their own (the relay's
framing: varint command, uint32 tick, a zero byte, uint32 size, payload):
the start holds the signon's commands, the full one packet, the deltas
only packets and the last one DEM_Stop alone; every packet of the replay
after its sync tick is in them, in order, at its tick, with the replay's
bit stream (the CDemoPacket's data field, read here from the .dem's own
frames). The index of the broadcast equals the plain replay's, table by
table, but for what only a replay's file header and file info hold (a
broadcast has neither): meta's facts from them and, for Dota, the tables
the file info fills. A broadcast that stops early is a cut replay; a gap,
a sync of another protocol, a fragment that is cut or claims more bytes
than it has, and a directory with no sync are refused (65), naming what
is wrong."""
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import threading
import time
import unittest

# This folder, and what the tests share (tests/support).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, FIXTURES, GEM_DUMP, GEM_INDEX, NEKIT, TMP,  # noqa: E402
                     INPUT_KEYS, assert_cut, assert_same_index, replay_path)

REPLAYS = [AUTO, NEKIT, "cs2_demofilenet_14155_de_dust2", "cs2_demofilenet_14090_cs_italy",
           "deadlock_demofilenet_hltv_10423_dl_midtown"]
STOP, SYNC_TICK, SEND_TABLES, CLASS_INFO, STRING_TABLES, PACKET, SIGNON = 0, 3, 4, 5, 6, 7, 8
FULL_PACKET = 13
# What only a replay's file header and file info say.
HEADER_AND_FILE_INFO_KEYS = (
    "source_name", "source_sha256", "source_bytes", "replay_sha256", "replay_bytes",
    "server", "client", "network_protocol", "game_build", "header_build_num",
    "playback_time", "playback_ticks", "playback_frames", "game_directory")


def varint(data, pos):
    value = shift = 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def fragment_commands(body):
    """The relay's framing, read independently of gem's reader."""
    out, pos = [], 0
    while pos < len(body):
        cmd, pos = varint(body, pos)
        tick, zero = struct.unpack_from("<IB", body, pos)
        assert zero == 0
        pos += 5
        if cmd == STOP:
            out.append((cmd, tick, b""))
            continue
        (size,) = struct.unpack_from("<I", body, pos)
        pos += 4
        out.append((cmd, tick, body[pos:pos + size]))
        pos += size
    assert pos == len(body)
    return out


def replay_frames(data):
    """A .dem's frames: (command, compressed, tick, payload)."""
    pos, out = 16, []
    while pos < len(data):
        cmd, pos = varint(data, pos)
        tick, pos = varint(data, pos)
        size, pos = varint(data, pos)
        out.append((cmd & ~64, bool(cmd & 64), tick, data[pos:pos + size]))
        pos += size
    return out


def packet_data(payload):
    """A CDemoPacket's field 3 (its bit stream)."""
    pos, found = 0, None
    while pos < len(payload):
        key, pos = varint(payload, pos)
        if key & 7 == 2:
            n, pos = varint(payload, pos)
            if key >> 3 == 3:
                found = payload[pos:pos + n]
            pos += n
        elif key & 7 == 0:
            _, pos = varint(payload, pos)
        else:
            raise AssertionError("unexpected wire type in a CDemoPacket")
    return found


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


class Broadcast(unittest.TestCase):
    def broadcast(self, stem, name=None):
        path = replay_path(stem)
        if not os.path.exists(path):
            self.skipTest("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
        out = os.path.join(TMP, name or stem)
        shutil.rmtree(out, ignore_errors=True)
        got = run([GEM_DUMP, "broadcast", path, out])
        self.assertEqual(got.returncode, 0, got.stderr)
        return path, out

    def fragments(self, out):
        deltas = sorted(int(n) for n in os.listdir(out) if n.isdigit() and
                        os.path.exists(os.path.join(out, n, "delta")))
        read = lambda n, kind: open(os.path.join(out, str(n), kind), "rb").read()  # noqa: E731
        return read(0, "start"), read(1, "full"), deltas, [read(n, "delta") for n in deltas]

    def test_the_fragments_hold_the_replay(self):
        checked = 0  # packets whose bit streams were compared
        for stem in REPLAYS:
            with self.subTest(replay=stem):
                path, out = self.broadcast(stem)
                sync = json.load(open(os.path.join(out, "sync")))
                self.assertEqual((sync["protocol"], sync["fragment"], sync["signup_fragment"]),
                                 (5, 1, 0))
                summary = dict(line.split("\t", 1) for line in run(
                    [GEM_DUMP, "summary", path]).stdout.splitlines() if "\t" in line)
                self.assertEqual(sync["tps"], round(1 / float(summary["tick_interval"])))
                start, full, numbers, deltas = self.fragments(out)
                self.assertEqual(numbers, list(range(1, len(numbers) + 1)))
                frames = replay_frames(open(path, "rb").read())
                sync_at = [f[0] for f in frames].index(SYNC_TICK)
                signon = [f for f in frames[:sync_at] if f[0] in (SIGNON, SEND_TABLES,
                                                                  CLASS_INFO, PACKET)]
                got_start = fragment_commands(start)
                self.assertEqual([(c, t) for c, t, _ in got_start],
                                 [(f[0], f[2]) for f in signon])
                stop_at = [f[0] for f in frames].index(STOP)
                play = [f for f in frames[sync_at:stop_at] if f[0] in (PACKET, FULL_PACKET)]
                # The first of them is the full; a later full packet's
                # entities are left out, its string tables kept.
                packets = play[:1] + [f for f in play[1:] if f[0] == PACKET]
                got_full = fragment_commands(full)
                self.assertEqual([c for c, _, _ in got_full][-1:], [PACKET])
                self.assertEqual({c for c, _, _ in got_full[:-1]} - {STRING_TABLES}, set())
                got = got_full + [c for body in deltas for c in fragment_commands(body)]
                self.assertEqual(got[-1][:2], (STOP, frames[stop_at][2]))
                self.assertEqual(fragment_commands(deltas[-1]), [got[-1]])
                self.assertEqual([(c, t) for c, t, _ in got[:-1] if c == PACKET],
                                 [(PACKET, f[2]) for f in packets])
                full_ticks = {f[2] for f in frames[sync_at:stop_at]
                              if f[0] in (FULL_PACKET, STRING_TABLES)}
                for c, t, _ in got[:-1]:
                    self.assertIn(c, (PACKET, STRING_TABLES))
                    if c == STRING_TABLES:
                        self.assertIn(t, full_ticks)
                # Each delta holds the ticks of its fragment-seconds.
                per = round(3 * sync["tps"])
                first = packets[0][2]
                for n, body in zip(numbers[:-1], deltas[:-1]):
                    for _, tick, _ in fragment_commands(body):
                        self.assertEqual(1 + (tick - first) // per, n)
                # The bit streams, where the replay did not compress them.
                sent = [bits for c, _, bits in got[:-1] if c == PACKET]
                for f, bits in zip(packets, sent):
                    if not f[1] and f[0] == PACKET:
                        self.assertEqual(bits, packet_data(f[3]))
                        checked += 1
                self.assertEqual(sync["tick"], first)
                self.assertEqual(sync["endtick"], packets[-1][2])
        self.assertGreater(checked, 1000)

    def test_the_broadcast_indexes_as_the_replay(self):
        for stem in REPLAYS:
            with self.subTest(replay=stem):
                path, out = self.broadcast(stem)
                plain, db = os.path.join(TMP, stem + ".db"), os.path.join(TMP, stem + ".b.db")
                for replay, index in ((path, plain), (out + "/", db)):
                    if os.path.exists(index):
                        os.remove(index)
                    got = run([GEM_INDEX, "--quiet", replay, index])
                    self.assertEqual(got.returncode, 0, got.stderr)
                con = sqlite3.connect(db)
                file_info = [t for (t,) in con.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                    "name IN ('file_info_players')")]
                for t in file_info:  # what only the file info tells
                    self.assertEqual(con.execute('SELECT count(*) FROM "%s"' % t).fetchone(),
                                     (0,), t)
                con.close()
                meta = assert_same_index(self, plain, db, skip_meta=HEADER_AND_FILE_INFO_KEYS,
                                         skip_tables=file_info)
                self.assertEqual(meta["truncated"], 0)
                self.assertEqual(meta["compression"], "none")
                self.assertEqual(meta["source_name"], os.path.basename(out))

    def test_a_broadcast_saved_as_one_file_reads_as_its_directory(self):
        # haste's and deadem's way: start, full and deltas back to back.
        for stem in (NEKIT, "cs2_demofilenet_14155_de_dust2"):
            with self.subTest(replay=stem):
                _, out = self.broadcast(stem, stem + "-file")
                start, full, _, deltas = self.fragments(out)
                joined = start + full + b"".join(deltas)
                saved = os.path.join(TMP, stem + ".bin")
                with open(saved, "wb") as f:
                    f.write(joined)
                want, db = os.path.join(TMP, stem + ".dir.db"), os.path.join(TMP, stem + ".bin.db")
                for source, index in ((out, want), (saved, db)):
                    got = run([GEM_INDEX, "--quiet", "--force", source, index])
                    self.assertEqual(got.returncode, 0, got.stderr)
                meta = assert_same_index(self, want, db, skip_meta=INPUT_KEYS)
                self.assertEqual(meta["source_bytes"], len(joined))
                self.assertEqual(meta["truncated"], 0)
                # Cut inside a command near its middle: a cut replay.
                with open(saved, "wb") as f:
                    f.write(joined[:len(start) + len(full) + (len(joined) - len(start)) // 2 + 3])
                got = run([GEM_INDEX, "--quiet", "--force", saved, db])
                self.assertEqual(got.returncode, 0, got.stderr)
                assert_cut(self, db)
                # A command id that runs on mid-file is damage, not the end.
                at = len(start) + len(full)
                with open(saved, "wb") as f:
                    f.write(joined[:at] + b"\xff" * 6 + joined[at + 6:])
                got = run([GEM_INDEX, "--quiet", "--force", saved, db])
                self.assertEqual(got.returncode, 65, got.stderr)
                self.assertIn("a command id runs on", got.stderr)
                # Such a file is not followed: it is read as it is.
                got = run([GEM_INDEX, "--quiet", "--force", "--follow", saved, db])
                self.assertEqual(got.returncode, 66, got.stderr)
                self.assertIn("is a broadcast saved as one file", got.stderr)

    def test_a_relays_end_of_six_zero_bytes_ends_at_the_last_tick(self):
        # gem-dump broadcast writes DEM_Stop at its tick; a relay sends six
        # zero bytes (tick 0), and the match then ends at the last tick it
        # sent: as the same broadcast whose stop says that tick.
        _, out = self.broadcast(NEKIT, "nekit-zero-stop")
        _, _, numbers, deltas = self.fragments(out)
        last_packet = [t for body in deltas for c, t, _ in fragment_commands(body)
                       if c == PACKET][-1]
        end = os.path.join(out, str(numbers[-1]), "delta")
        with open(end, "wb") as f:
            f.write(struct.pack("<BIB", STOP, last_packet, 0))
        want = os.path.join(TMP, "zero-stop-want.db")
        self.assertEqual(run([GEM_INDEX, "--quiet", "--force", out, want]).returncode, 0)
        with open(end, "wb") as f:
            f.write(bytes(6))
        db = os.path.join(TMP, "zero-stop.db")
        got = run([GEM_INDEX, "--quiet", "--force", out, db])
        self.assertEqual(got.returncode, 0, got.stderr)
        meta = assert_same_index(self, want, db, skip_meta=("source_sha256",))
        self.assertEqual((meta["truncated"], meta["last_tick"]), (0, last_packet))

    def test_a_recording_still_being_written_is_followed(self):
        # The deltas appear one by one, 20 ms apart, while gem-index
        # --follow reads the directory: it waits for each, to the stop.
        _, full_dir = self.broadcast(AUTO, "auto-recorded")
        _, _, numbers, _ = self.fragments(full_dir)
        growing = os.path.join(TMP, "auto-recording")
        shutil.rmtree(growing, ignore_errors=True)
        shutil.copytree(full_dir, growing, ignore=lambda d, names: [
            n for n in names if n == "delta"])

        def record():
            for n in numbers:
                time.sleep(0.02)
                shutil.copy(os.path.join(full_dir, str(n), "delta"),
                            os.path.join(growing, str(n), "delta.part"))
                os.rename(os.path.join(growing, str(n), "delta.part"),
                          os.path.join(growing, str(n), "delta"))
        writer = threading.Thread(target=record)
        writer.start()
        db = os.path.join(TMP, "recording.db")
        got = run([GEM_INDEX, "--quiet", "--force", "--follow", "--idle-seconds", "600",
                   growing, db])
        writer.join()
        self.assertEqual(got.returncode, 0, got.stderr)
        want = os.path.join(TMP, "recorded.db")
        self.assertEqual(run([GEM_INDEX, "--quiet", "--force", full_dir, want]).returncode, 0)
        meta = assert_same_index(self, want, db, skip_meta=("source_name",))
        self.assertEqual(meta["truncated"], 0)

    def test_a_broadcast_that_stops_early_is_a_cut_replay(self):
        path, out = self.broadcast(NEKIT, "nekit-cut")
        _, _, numbers, _ = self.fragments(out)
        for n in numbers[len(numbers) // 2:]:
            os.remove(os.path.join(out, str(n), "delta"))
        db = os.path.join(TMP, "cut.db")
        got = run([GEM_INDEX, "--quiet", out, db])
        self.assertEqual(got.returncode, 0, got.stderr)
        assert_cut(self, db)

    def test_what_cannot_be_read_is_refused(self):
        path, out = self.broadcast(AUTO, "auto-bad")
        _, _, numbers, _ = self.fragments(out)
        self.assertGreater(len(numbers), 4)

        def refused(broadcast, says):
            db = os.path.join(TMP, "bad.db")
            got = run([GEM_INDEX, "--quiet", broadcast, db])
            self.assertEqual(got.returncode, 65, got.stderr)
            self.assertIn(says, got.stderr)
            self.assertFalse(os.path.exists(db))

        def variant(name, change):
            d = os.path.join(TMP, name)
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(out, d)
            change(d)
            return d

        def write(d, rel, data, mode="wb"):
            with open(os.path.join(d, rel), mode) as f:
                f.write(data)

        refused(variant("gap", lambda d: os.remove(os.path.join(d, "2", "delta"))),
                "2/delta is missing and later deltas are not")
        refused(variant("nosync", lambda d: os.remove(os.path.join(d, "sync"))),
                "no broadcast sync")
        sync = json.load(open(os.path.join(out, "sync")))
        refused(variant("protocol4", lambda d: write(
            d, "sync", json.dumps(dict(sync, protocol=4)), "w")), "broadcast protocol 4")
        refused(variant("badsync", lambda d: write(d, "sync", "{not json", "w")),
                "sync is not a JSON object")
        delta3 = open(os.path.join(out, "3", "delta"), "rb").read()
        refused(variant("cutdelta", lambda d: write(d, "3/delta", delta3[:-7])),
                "3/delta: a command of")
        huge = b"\x07" + struct.pack("<IBI", 100, 0, 0x7FFFFFFF)
        refused(variant("huge", lambda d: write(d, "3/delta", huge)),
                "more than any replay frame can hold")
        refused(variant("nostart", lambda d: os.remove(os.path.join(d, "0", "start"))),
                "no start fragment")

    def test_the_converter_leaves_a_whole_directory_or_none(self):
        path, out = self.broadcast(AUTO, "auto-once")
        got = run([GEM_DUMP, "broadcast", path, out])
        self.assertEqual(got.returncode, 73, got.stderr)
        self.assertIn("exists", got.stderr)
        junk = os.path.join(TMP, "junk.dem")
        with open(junk, "wb") as f:
            f.write(b"PBDEMS2\0" + bytes(8) + b"\x01\x00\x7f")  # a frame cut short
        target = os.path.join(TMP, "junk-broadcast")
        got = run([GEM_DUMP, "broadcast", junk, target])
        self.assertEqual(got.returncode, 65, got.stderr)
        self.assertEqual([n for n in os.listdir(TMP) if n.startswith("junk-broadcast")], [])


if __name__ == "__main__":
    junit.main()
