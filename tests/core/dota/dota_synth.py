"""A gem-synth Dota match for the tests of Dota's tables: the replay made
from the auto fixture, its truth (tools/synth/*.h) and its index, made once
a process; and the game clock gem-synth keeps."""
import json
import os
import subprocess
import unittest

from gemtest import AUTO, FIXTURES, GEM_INDEX, GEM_SYNTH, TMP, connect, f32, replay_path

MINUTES = 12
FLAW_MINUTES = 3  # long enough for a burst of kills: multi-kills by the rule
SEED = 11
_made = {}


def _key(flaws, minutes, vision):
    return "%s-%s%s" % ("flaws" if flaws else "plain", minutes, "-vision" if vision else "")


def synthetic(flaws=False, minutes=MINUTES, vision=False):
    """(index connection, truth lines by kind, combat truth, counts): the
    match of `minutes` (with gem-synth --flaws, --vision when asked), made
    once."""
    key = _key(flaws, minutes, vision)
    if key in _made:
        return _made[key][:4]
    fixture = replay_path(AUTO)
    if not os.path.exists(fixture):
        raise unittest.SkipTest("SKIPPED: fixture %s.dem not found in %s" % (AUTO, FIXTURES))
    dem, match, combat, db = (os.path.join(TMP, "dota-%s.%s" % (key, x))
                              for x in ("dem", "match", "combat", "db"))
    args = [GEM_SYNTH, "--from", fixture, "--minutes", str(minutes), "--seed", str(SEED),
            "--match-truth", match, "--combat-truth", combat]
    args += (["--flaws"] if flaws else []) + (["--vision"] if vision else [])
    out = subprocess.run(args + [dem], capture_output=True, text=True, check=True).stdout
    counts = {k: int(v) for k, v in (line.split("\t") for line in out.splitlines())}
    subprocess.run([GEM_INDEX, "--quiet", dem, db], check=True)
    truth = {}
    with open(match) as f:
        for line in f:
            t = json.loads(line)
            truth.setdefault(t["kind"], []).append(t)
    with open(combat) as f:
        entries = [json.loads(line) for line in f]
    _made[key] = (connect(db), truth, entries, counts, dem)
    return _made[key][:4]


def replay(flaws=False, minutes=MINUTES, vision=False):
    """The replay file synthetic() made."""
    synthetic(flaws, minutes, vision)
    return _made[_key(flaws, minutes, vision)][4]


def position(t):
    """A truth line's cell and offset fields as world coordinates."""
    if t["cell_x"] is None:
        return [None, None, None]
    return [f32(f32(t["cell_" + a] * 128 - 16384) + t["vec_" + a]) for a in "xyz"]


def clock(con, tick):
    """gem-synth's game clock at `tick` as the index files it
    (player_stats.h): counted back from the horn before the pre-game; then
    the server's seconds (30 ticks of float32 1/30) less the horn's, with a
    10 s pause a minute after the horn."""
    first = con.execute("SELECT first_tick FROM match_info").fetchone()[0]
    horn, pregame = first + 1200, first + 600
    if tick < pregame:
        return (tick - horn) / 30.0
    interval = f32(1 / 30)
    pause = horn + 1800
    counted = tick if tick < pause else pause if tick < pause + 300 else tick - 300
    return counted * interval - f32(horn * interval)
