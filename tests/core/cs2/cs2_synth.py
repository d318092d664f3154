"""A gem-synth CS2 match for the tests of CS2's tables: the replay made
from the de_dust2 fixture with its truth (tools/synth/cs2_match.h) and its
index, made once a process per option set; and how the tests compare rows
with truth lines."""
import json
import math
import os
import subprocess
import unittest

from gemtest import FIXTURES, GEM_INDEX, GEM_SYNTH, TMP, connect, replay_path

FIXTURE = "cs2_demofilenet_14155_de_dust2"
SEED = 7
_made = {}


def synthetic(*options, rounds=24):
    """(index connection, truth rows by kind), made once per options."""
    key = options + (rounds,)
    if key in _made:
        return _made[key]
    fixture = replay_path(FIXTURE)
    if not os.path.exists(fixture):
        raise unittest.SkipTest("SKIPPED: fixture %s.dem not found in %s" % (FIXTURE, FIXTURES))
    stem = os.path.join(TMP, "cs2-%d" % rounds + "".join(o.replace("-", "_") for o in options))
    subprocess.run([GEM_SYNTH, "--from", fixture, "--rounds", str(rounds), "--seed", str(SEED),
                    "--match-truth", stem + ".truth", "--quiet"] + list(options) +
                   [stem + ".dem"], check=True)
    subprocess.run([GEM_INDEX, "--quiet", stem + ".dem", stem + ".db"], check=True)
    truth = {}
    with open(stem + ".truth") as f:
        for line in f:
            t = json.loads(line)
            truth.setdefault(t.pop("kind"), []).append(t)
    _made[key] = (connect(stem + ".db"), truth)
    return _made[key]


def rows(con, sql):
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def same(test, got, want, what):
    """Every key of `want` in `got`; reals to float32 precision."""
    test.assertEqual(len(got), len(want), what)
    for i, (g, w) in enumerate(zip(got, want)):
        for k, v in w.items():
            k = k.rstrip("_")
            if isinstance(v, float) or isinstance(g[k], float):
                test.assertIsNotNone(g[k], (what, i, k))
                test.assertTrue(math.isclose(g[k], v, rel_tol=1e-6, abs_tol=1e-3),
                                (what, i, k, g[k], v))
            else:
                test.assertEqual(g[k], v, (what, i, k, g, w))
