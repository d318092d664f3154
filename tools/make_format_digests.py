#!/usr/bin/python3
"""Writes tests/data/format_digests.json: the digests (index_digest.py) of
every modern fixture's index and of the 30-minute synthetic Dota replay's,
written and read by the gem-index, libgem and gem-synth of another build:
the one before a change of the index format, which the change must read
the same.

  make_format_digests.py BIN_DIR MADE_BY [--fixtures DIR] [--work DIR] > OUT.json

BIN_DIR holds that build's gem-index, gem-synth and libgem.so (for a
commit C: git worktree add /tmp/c C; bazel build there; copy
bazel-bin/indexer/gem-index, bazel-bin/tools/gem-synth and
bazel-bin/sqlext/libgem.so). MADE_BY names it in the file ("gem-index
and libgem of C (index format N)"). /usr/bin/python3.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from index_digest import connect, digest, ticks_to_check  # noqa: E402

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# tests/support/gemtest.py's MODERN: every fixture of a game gem reads.
MODERN = ["cs2_demofilenet_14011_cs_italy", "cs2_demofilenet_14065_de_nuke",
          "cs2_demofilenet_14090_cs_italy", "cs2_demofilenet_14132_de_ancient",
          "cs2_demofilenet_14150_ag2_de_train", "cs2_demofilenet_14155_de_dust2",
          "cs2_demofilenet_14160_de_dust2", "deadlock_demofilenet_hltv_10423_dl_midtown",
          "deadlock_demofilenet_hltv_10524_new_player_basics",
          "dota2_haste_auto-20240102-2233-start", "dota2_haste_nekit"]
SYNTH_FROM = "dota2_haste_auto-20240102-2233-start"
SYNTH_ARGS = ["--minutes", "30", "--seed", "1"]
TICKS = 24  # random ticks beside the keyframe ticks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("made_by")
    ap.add_argument("--fixtures", default=os.path.join(CHECKOUT, "..", "shared", "fixtures"))
    ap.add_argument("--work", default=tempfile.gettempdir())
    o = ap.parse_args()
    tool = lambda name: os.path.join(o.bin_dir, name)  # noqa: E731
    out = {"made_by": o.made_by, "replays": {}}

    def add(name, replay):
        db = os.path.join(o.work, name + ".digest.db")
        subprocess.run([tool("gem-index"), "--quiet", "--force", replay, db], check=True)
        con = connect(db, tool("libgem.so"))
        out["replays"][name] = digest(con, ticks_to_check(con, TICKS))
        con.close()
        os.remove(db)
        print("digested " + name, file=sys.stderr)

    for stem in MODERN:
        add(stem, os.path.join(o.fixtures, stem + ".dem"))
    replay = os.path.join(o.work, "synthetic-30min.dem")
    subprocess.run([tool("gem-synth"), "--from", os.path.join(o.fixtures, SYNTH_FROM + ".dem")] +
                   SYNTH_ARGS + ["--quiet", replay], check=True)
    with open(replay, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    out["synthetic"] = {"from": SYNTH_FROM, "args": SYNTH_ARGS, "sha256": sha}
    add("synthetic-30min", replay)
    os.remove(replay)
    json.dump(out, sys.stdout, indent=0, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
