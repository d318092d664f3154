"""What the Python end-to-end tests share: where Bazel put the binaries and
the extension, where the fixtures are, indexing a fixture once per option
set, opening an index with libgem loaded (/usr/bin/python3's sqlite3 can
load extensions), and float32 arithmetic."""
import os
import sqlite3
import struct
import subprocess
import tempfile
import threading
import time
import unittest

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), os.environ.get("TEST_WORKSPACE", ""))
LIB = os.path.join(RUNFILES, "sqlext", "libgem.so")
GEM_INDEX = os.path.join(RUNFILES, "indexer", "gem-index")
GEM_DUMP = os.path.join(RUNFILES, "tools", "gem-dump")
GEM_SYNTH = os.path.join(RUNFILES, "tools", "gem-synth")
# The source checkout: where the anchor file really is, three levels up.
CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(
    os.path.join(RUNFILES, "tests", "support", "workspace_anchor.txt")))))
FIXTURES = os.environ.get("GEM_FIXTURES") or os.path.join(CHECKOUT, "..", "shared", "fixtures")
GOLDEN = os.environ.get("GEM_GOLDEN") or os.path.join(os.path.dirname(FIXTURES), "golden")
# Set under --config=asan (.bazelrc): the binaries run 3-10 times slower, and
# a test whose long replay the plain run has already checked may use less.
SANITIZED = bool(os.environ.get("GEM_SANITIZER_PRELOAD"))
TMP = tempfile.mkdtemp(prefix="gemtest", dir=os.environ.get("TEST_TMPDIR"))
NEKIT = "dota2_haste_nekit"
AUTO = "dota2_haste_auto-20240102-2233-start"
# Every fixture of a game gem reads (the 2014 beta replays are refused).
MODERN = ["cs2_demofilenet_14011_cs_italy", "cs2_demofilenet_14065_de_nuke",
          "cs2_demofilenet_14090_cs_italy", "cs2_demofilenet_14132_de_ancient",
          "cs2_demofilenet_14150_ag2_de_train", "cs2_demofilenet_14155_de_dust2",
          "cs2_demofilenet_14160_de_dust2", "deadlock_demofilenet_hltv_10423_dl_midtown",
          "deadlock_demofilenet_hltv_10524_new_player_basics", AUTO, NEKIT]
_built = {}


def replay_path(stem):
    return os.path.join(FIXTURES, stem + ".dem")


def _index(key, replay, out, options):
    subprocess.run([GEM_INDEX, "--quiet", "--force"] + list(options) + [replay, out], check=True)
    _built[key] = out
    return out


def index_of(stem, *options):
    """Indexes a fixture once per option set; None when it is missing."""
    key = (stem,) + options
    if key in _built:
        return _built[key]
    replay = replay_path(stem)
    if not os.path.exists(replay):
        _built[key] = None
        return None
    out = os.path.join(TMP, "%s%s.db" % (stem, "".join(o.replace("-", "_") for o in options)))
    return _index(key, replay, out, options)


def need(stem, *options):
    path = index_of(stem, *options)
    if path is None:
        raise unittest.SkipTest("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
    return path


def replay_bytes(test, stem):
    """A fixture's bytes; skips `test` (saying so) when it is missing."""
    path = replay_path(stem)
    if not os.path.exists(path):
        test.skipTest("SKIPPED: fixture %s.dem not found in %s" % (stem, FIXTURES))
    with open(path, "rb") as f:
        return f.read()


def need_some(stems):
    """Skips the whole test (not just its subtests) when none of `stems`'
    fixtures is there: for tests that also assert over all of them."""
    if not any(os.path.exists(replay_path(stem)) for stem in stems):
        raise unittest.SkipTest("SKIPPED: none of the fixtures %s found in %s" %
                                (", ".join(s + ".dem" for s in stems), FIXTURES))


def synthetic_index(minutes, seed, *index_options):
    """A gem-synth match from the auto fixture, indexed (made once per
    arguments); None when the fixture is missing."""
    key = ("synthetic", minutes, seed) + index_options
    if key in _built:
        return _built[key]
    source = replay_path(AUTO)
    if not os.path.exists(source):
        _built[key] = None
        return None
    dem = os.path.join(TMP, "synthetic-%s-%s.dem" % (minutes, seed))
    if not os.path.exists(dem):
        subprocess.run([GEM_SYNTH, "--from", source, "--minutes", str(minutes), "--seed",
                        str(seed), "--quiet", dem], check=True)
    out = dem[:-4] + "".join(o.replace("-", "_") for o in index_options) + ".db"
    return _index(key, dem, out, index_options)


def peak_kib(argv):
    """Runs argv (no input, output dropped); its exit code, its own peak
    resident KiB (wait4's, not the tests' other children's) and its stderr.
    A child's peak counts what its parent held when it forked."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss, err


def docs_sql(page, section=None, next_section=None):
    """The ```sql blocks of docs/`page`, or of the part of it from one
    heading to the next given (each by the start of its text, "## ...";
    no next: to the page's end)."""
    text = open(os.path.join(RUNFILES, "docs", page), encoding="utf-8").read()
    if section is not None:
        text = text[text.index(section):]
    if next_section is not None:
        text = text[:text.index(next_section)]
    return [b.split("```", 1)[0] for b in text.split("```sql\n")[1:]]


def connect(path=":memory:"):
    con = sqlite3.connect(path)
    con.enable_load_extension(True)
    con.load_extension(LIB[:-3])  # like .load: the suffix is optional
    con.enable_load_extension(False)
    return con


# meta keys that record the input as given, not the replay.
INPUT_KEYS = ("compression", "source_name", "source_sha256", "source_bytes")
# meta keys a live run adds (gem-index --follow, a URL, --commit-seconds):
# its index is otherwise the plain one.
LIVE_KEYS = ("live", "live_tick", "live_commit_seconds", "live_at_end",
             "live_rewritten", "live_when_closed", "live_error")


# The parts table's columns that say what meta's keys say of the one file
# of a replay: skipped with them.
PARTS_AS_META = {"name": "source_name", "sha256": "source_sha256", "bytes": "source_bytes",
                 "first_tick": "first_tick", "last_tick": "last_tick",
                 "truncated": "truncated", "playback_ticks": "playback_ticks"}


def assert_same_index(test, plain, other, skip_meta=INPUT_KEYS, skip_tables=()):
    """Every table of index `other` holds the rows of index `plain`, and
    no other, meta's `skip_meta` keys, its live rows (LIVE_KEYS) and the
    tables `skip_tables` apart; returns other's meta."""
    skip_meta = tuple(skip_meta) + LIVE_KEYS
    con = sqlite3.connect("file:%s?mode=ro" % other, uri=True)
    con.execute("ATTACH ? AS plain", ("file:%s?mode=ro" % plain,))
    listed = "SELECT name FROM %s.sqlite_master WHERE type = 'table' ORDER BY name"
    names = [n for (n,) in con.execute(listed % "main")]
    test.assertEqual(names, [n for (n,) in con.execute(listed % "plain")])
    for t in names:
        if t in skip_tables:
            continue
        where = ""
        if t == "meta":
            where = " WHERE key NOT IN (%s)" % ",".join("'%s'" % k for k in skip_meta)
        columns = "*"
        if t == "parts":
            columns = ", ".join(c for (_, c, *_) in con.execute("PRAGMA table_info(parts)")
                                if PARTS_AS_META.get(c) not in skip_meta)
        n = con.execute('SELECT count(*) FROM "%s"%s' % (t, where)).fetchone()[0]
        test.assertEqual(n, con.execute('SELECT count(*) FROM plain."%s"%s' %
                                        (t, where)).fetchone()[0], "%s rows" % t)
        for a, b in (("main", "plain"), ("plain", "main")):
            diff = con.execute('SELECT %s FROM %s."%s"%s EXCEPT SELECT %s FROM %s."%s"%s LIMIT 3'
                               % (columns, a, t, where, columns, b, t, where)).fetchall()
            test.assertEqual(diff, [], "%s: rows of %s not in %s" % (t, a, b))
    meta = dict(con.execute("SELECT key, value FROM meta"))
    con.close()
    return meta


class Writer(threading.Thread):
    """Writes `data` to `path` as a game client writes its replay: in
    pieces of `piece` bytes, `pause` seconds apart, flushing each. The file
    is made empty first (there before gem-index starts), unless `append`.
    `gate(n)`, when given, is called before the nth piece (n >= 1): a
    reader that must see the file grow can hold the writer back."""

    def __init__(self, path, data, piece, pause, append=False, gate=None):
        super().__init__(daemon=True)
        self.path, self.data, self.piece, self.pause = path, data, max(1, piece), pause
        self.gate = gate
        if not append:
            open(path, "wb").close()

    @classmethod
    def over(cls, path, data, seconds, pieces=120, append=False, gate=None):
        """`data` in `pieces` pieces over about `seconds`."""
        return cls(path, data, len(data) // pieces + 1, seconds / pieces, append, gate)

    def run(self):
        with open(self.path, "ab") as f:
            for at in range(0, len(self.data), self.piece):
                if self.gate is not None and at:
                    self.gate(at // self.piece)
                f.write(self.data[at:at + self.piece])
                f.flush()
                time.sleep(self.pause)


def gem_index(replay, out, *options, timeout=120):
    """gem-index --quiet [options] replay out, over any old out; bounded in
    time (a run that hangs fails the test)."""
    if os.path.exists(out):
        os.remove(out)
    return subprocess.run([GEM_INDEX, "--quiet", *options, replay, out], capture_output=True,
                          text=True, timeout=timeout)


def assert_cut(test, index):
    """The index is of a replay that ended before its DEM_Stop."""
    con = sqlite3.connect(index)
    meta = dict(con.execute("SELECT key, value FROM meta"))
    con.close()
    test.assertEqual(meta["truncated"], 1)
    test.assertIn("ends without DEM_Stop", meta["truncation_reason"])


def f32(x):
    """x rounded to float32, as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def check_game_time(test, got, clock, msg=None):
    """`got`, a table's game_time, is the clock `clock` (seconds, as the
    test computes it) rounded to the millisecond: a whole number of
    milliseconds, within half of one of the clock."""
    test.assertIsNotNone(got, msg)
    test.assertAlmostEqual(got * 1000, round(got * 1000), delta=1e-6, msg=msg)
    test.assertLessEqual(abs(got - clock), 0.0005 + 1e-7, msg)
