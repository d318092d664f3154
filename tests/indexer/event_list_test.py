"""A replay without its game-event descriptor list (docs/recordings.md).

- The lists gem keeps (core/<game>/event_lists/PROTOCOL-BUILD.txt) are the
  replays' own: each file is, byte for byte, what `gem-dump events` prints
  for a fixture of that protocol and build; and for every modern fixture,
  the list gem would choose for its protocol and build (the closest known
  one at or before it) names every event id as the fixture's own list
  does, with the same keys.
- A gem-synth match of Deadlock written without the list (--no-event-list)
  indexes to the same tables as the match with it: the events keep their
  names and keys. Only meta's event_list keys and the replay's file
  differ. (CS2's is in tests/core/cs2/cs2_synth_test.) A Dota match sends
  no legacy game events (its combat log says what happened): without the
  list its index is the same, and meta says there was none.

The expected lists come from the fixtures, through gem-dump's print of
the list each replay sends; the chosen list is picked here by the rule,
not by the code under test."""
import glob
import os
import sqlite3
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import (AUTO, GEM_DUMP, GEM_SYNTH, INPUT_KEYS, MODERN, RUNFILES, TMP,  # noqa: E402
                     assert_same_index, gem_index, need_some, replay_path)

GAME_DIRS = {"cs2": "cs2", "dota2": "dota", "deadlock": "deadlock"}
EVENT_KEYS = ("event_list", "event_list_protocol", "event_list_build",
              "game_events_named_by_known_list", "replay_sha256", "replay_bytes")


def known_lists():
    """{game: {(protocol, build): text}} of the lists gem keeps."""
    out = {}
    for game, folder in GAME_DIRS.items():
        for path in glob.glob(os.path.join(RUNFILES, "core", folder, "event_lists", "*.txt")):
            protocol, build = os.path.basename(path)[:-4].split("-")
            with open(path) as f:
                out.setdefault(game, {})[(int(protocol), int(build))] = f.read()
    return out


def printed(stem):
    """gem-dump events of a fixture: (game, protocol, build, text)."""
    text = subprocess.run([GEM_DUMP, "events", replay_path(stem)], check=True,
                          capture_output=True, text=True).stdout
    words = text.split("\n", 1)[0].split()
    return words[1], int(words[3]), int(words[5]), text


def descriptors(text):
    return [line for line in text.splitlines() if line and not line.startswith("#")]


class KnownLists(unittest.TestCase):
    def test_each_kept_list_is_a_replays_own_and_names_its_builds_events(self):
        need_some(MODERN)
        known = known_lists()
        self.assertEqual(set(known), {"cs2", "dota2", "deadlock"})
        kept_seen = set()
        for stem in MODERN:
            if not os.path.exists(replay_path(stem)):
                continue
            with self.subTest(replay=stem):
                game, protocol, build, text = printed(stem)
                lists = known[game]
                if (protocol, build) in lists:
                    self.assertEqual(lists[(protocol, build)], text)
                    kept_seen.add((game, protocol, build))
                # The rule: the latest at or before, else the earliest after.
                before = [k for k in lists if k <= (protocol, build)]
                chosen = max(before) if before else min(lists)
                self.assertEqual(descriptors(lists[chosen]), descriptors(text))
        # Every kept list was checked against its replay.
        if all(os.path.exists(replay_path(s)) for s in MODERN):
            self.assertEqual(kept_seen, {(g, p, b) for g in known for (p, b) in known[g]})


class WithoutTheList(unittest.TestCase):
    def index_both(self, name, fixture, args):
        if not os.path.exists(replay_path(fixture)):
            self.skipTest("SKIPPED: fixture %s.dem not found" % fixture)
        out = {}
        for variant, extra in (("with", []), ("without", ["--no-event-list"])):
            dem = os.path.join(TMP, "events-%s-%s.dem" % (name, variant))
            subprocess.run([GEM_SYNTH, "--from", replay_path(fixture)] + args + extra +
                           ["--quiet", dem], check=True)
            out[variant] = os.path.join(TMP, "events-%s-%s.db" % (name, variant))
            gem_index(dem, out[variant])
        return out

    def check(self, name, fixture, args):
        dbs = self.index_both(name, fixture, args)
        meta = assert_same_index(self, dbs["with"], dbs["without"],
                                 skip_meta=INPUT_KEYS + EVENT_KEYS, skip_tables=("sqlite_stat1",))
        with_list = sqlite3.connect(dbs["with"])
        self.assertEqual(with_list.execute("SELECT value FROM meta WHERE key = 'event_list'")
                         .fetchone()[0], "replay")
        events = with_list.execute("SELECT count(*) FROM game_events").fetchone()[0]
        with_list.close()
        return meta, events

    def test_a_deadlock_match(self):
        meta, events = self.check("deadlock", "deadlock_demofilenet_hltv_10423_dl_midtown",
                                  ["--light", "--minutes", "2", "--seed", "4"])
        self.assertGreater(events, 0)
        self.assertEqual((meta["event_list"], meta["event_list_protocol"],
                          meta["event_list_build"], meta["game_events_named_by_known_list"],
                          meta["game_events_unnamed"]), ("known", 48, 10423, events, 0))

    def test_a_dota_match(self):
        meta, events = self.check("dota2", AUTO, ["--minutes", "2", "--seed", "4"])
        self.assertEqual(events, 0)
        self.assertEqual((meta["event_list"], meta["game_events_unnamed"]), ("none", 0))


if __name__ == "__main__":
    junit.main()
