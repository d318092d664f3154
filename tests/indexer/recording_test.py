"""Who recorded a replay: meta's recording (server or client) and, for a
client's recording, its recorder (docs/recordings.md).

- Every fixture the server recorded (SourceTV, GOTV: the header's client
  name says SourceTV) is a 'server' recording with no recorder keys.
- dota2_haste_nekit, a Dota client's recording, is a 'client' one: its
  recorder's name is the header's client name, and its steam id is the
  steam id the players table (the entities' m_steamID) gives the player of
  that name. Neither expected value comes from the userinfo entry that
  gem reads the recorder from.
- A client's recording sends an entity whole again at the index, serial
  and class it already has (nekit: 25 times, each a delta from a frame
  before the entity's creation, counted from the raw stream while this
  rule was written). That entity keeps its lifetime: no two rows of
  entities share an index, serial and class, and nothing is deleted."""
import os
import sqlite3
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "support")]
import junit  # noqa: E402

from gemtest import GEM_DUMP, MODERN, NEKIT, index_of, need_some, replay_path  # noqa: E402
import subprocess  # noqa: E402


class RecordingTest(unittest.TestCase):
    def meta(self, db):
        con = sqlite3.connect(db)
        meta = dict(con.execute("SELECT key, value FROM meta"))
        players = con.execute("SELECT name, steam_id FROM players").fetchall()
        con.close()
        return meta, players

    def test_server_recordings_have_no_recorder(self):
        need_some(MODERN)
        for stem in MODERN:
            if stem == NEKIT:
                continue
            with self.subTest(replay=stem):
                db = index_of(stem)
                if db is None:
                    continue
                meta, _ = self.meta(db)
                self.assertIn("SourceTV", meta["client"])
                self.assertEqual(meta["recording"], "server")
                for key in ("recorder_slot", "recorder_name", "recorder_steam_id"):
                    self.assertNotIn(key, meta)

    def test_a_client_recording_names_its_recorder(self):
        db = index_of(NEKIT)
        if db is None:
            self.skipTest("fixture missing")
        meta, players = self.meta(db)
        self.assertEqual(meta["recording"], "client")
        self.assertEqual(meta["recorder_name"], meta["client"])  # "Nekit"
        steam = [s for n, s in players if n == meta["client"]]
        self.assertEqual(len(steam), 1)
        self.assertEqual(meta["recorder_steam_id"], steam[0])
        self.assertGreaterEqual(meta["recorder_slot"], 0)

    def test_an_entity_sent_again_whole_keeps_its_lifetime(self):
        db = index_of(NEKIT)
        if db is None:
            self.skipTest("fixture missing")
        con = sqlite3.connect(db)
        twice = con.execute("SELECT count(*) FROM (SELECT 1 FROM entities GROUP BY ent_index, "
                            "serial, class_id HAVING count(*) > 1)").fetchone()[0]
        deleted = con.execute("SELECT count(*) FROM entities WHERE deleted_tick IS NOT NULL"
                              ).fetchone()[0]
        con.close()
        self.assertEqual((twice, deleted), (0, 0))
        summary = dict(line.split("\t", 1) for line in subprocess.run(
            [GEM_DUMP, "summary", replay_path(NEKIT)], check=True, capture_output=True,
            text=True).stdout.splitlines() if "\t" in line)
        self.assertEqual(summary["entities_recreated_kept"], "25")


if __name__ == "__main__":
    junit.main()
